#include "window/edit_menu.h"

#include <QAction>
#include <QMenu>
#include <Qsci/qsciscintilla.h>

#include "views/find_bar.h"
#include "views/script_tabs.h"

namespace fusescope::gui {

void EditMenu::fill(QMenu* menu, ScriptTabs* tabs, FindBar* find, QWidget* scope) {
    auto editor = [tabs] { return qobject_cast<QsciScintilla*>(tabs->currentWidget()); };
    auto add = [menu, scope](const QString& text, const QList<QKeySequence>& keys, auto act) {
        QAction* action = menu->addAction(text, act);
        action->setShortcuts(keys);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        scope->addAction(action);
        return action;
    };
    auto onEditor = [editor](void (QsciScintilla::*f)()) {
        return [editor, f] {
            if (QsciScintilla* e = editor()) (e->*f)();
        };
    };
    QAction* undo = add(tr("&Undo"), QKeySequence::keyBindings(QKeySequence::Undo), onEditor(&QsciScintilla::undo));
    QAction* redo = add(tr("&Redo"), QKeySequence::keyBindings(QKeySequence::Redo), onEditor(&QsciScintilla::redo));
    menu->addSeparator();
    QAction* cut = add(tr("Cu&t"), QKeySequence::keyBindings(QKeySequence::Cut), onEditor(&QsciScintilla::cut));
    QAction* copy = add(tr("&Copy"), QKeySequence::keyBindings(QKeySequence::Copy), onEditor(&QsciScintilla::copy));
    QAction* paste = add(tr("&Paste"), QKeySequence::keyBindings(QKeySequence::Paste), onEditor(&QsciScintilla::paste));
    add(tr("Select &All"), QKeySequence::keyBindings(QKeySequence::SelectAll), [editor] {
        if (QsciScintilla* e = editor()) e->selectAll();
    });
    menu->addSeparator();
    add(tr("&Find..."), QKeySequence::keyBindings(QKeySequence::Find), [find] { find->showFind(); });
    add(tr("Find &Next"), QKeySequence::keyBindings(QKeySequence::FindNext), [find] { find->findNext(); });
    add(tr("Find Pre&vious"), QKeySequence::keyBindings(QKeySequence::FindPrevious), [find] { find->findPrevious(); });
    add(tr("R&eplace..."), {QKeySequence(Qt::CTRL | Qt::Key_H)}, [find] { find->showReplace(); });
    // Greyed where they would do nothing; a key pressed while one is greyed reaches the editor.
    QObject::connect(menu, &QMenu::aboutToShow, menu, [=] {
        QsciScintilla* e = editor();
        const bool editable = e && !e->isReadOnly();
        undo->setEnabled(editable && e->isUndoAvailable());
        redo->setEnabled(editable && e->isRedoAvailable());
        cut->setEnabled(editable && e->hasSelectedText());
        copy->setEnabled(e && e->hasSelectedText());
        paste->setEnabled(editable);
    });
}

}  // namespace fusescope::gui
