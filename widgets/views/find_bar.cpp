#include "views/find_bar.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QToolButton>
#include <Qsci/qsciscintilla.h>

#include "views/script_tabs.h"

namespace fusescope::gui {

namespace {

// Lets Esc reach the field (and the bar, which hides) before the window's Esc (stop the run).
class EscapeFirst : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() == QEvent::ShortcutOverride && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) event->accept();
        return false;
    }
};

}  // namespace

FindBar::FindBar(ScriptTabs* tabs, QWidget* parent) : QWidget(parent), tabs_(tabs) {
    setObjectName("findBar");
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(4, 2, 4, 2);
    find_ = new QLineEdit(this);
    find_->setObjectName("scriptFind");
    find_->setPlaceholderText(tr("Find in the script (Enter: next, Shift+Enter: previous)"));
    find_->setClearButtonEnabled(true);
    find_->setMinimumWidth(120);
    replace_ = new QLineEdit(this);
    replace_->setObjectName("scriptReplace");
    replace_->setPlaceholderText(tr("Replace with (Enter: replace and find the next)"));
    matchCase_ = new QCheckBox(tr("Match case"), this);
    wholeWords_ = new QCheckBox(tr("Whole words"), this);
    count_ = new QLabel(this);
    auto* previous = new QToolButton(this);
    previous->setArrowType(Qt::UpArrow);
    previous->setToolTip(tr("Previous match (Shift+Enter, Shift+F3)"));
    auto* next = new QToolButton(this);
    next->setArrowType(Qt::DownArrow);
    next->setToolTip(tr("Next match (Enter, F3)"));
    replaceButton_ = new QPushButton(tr("Replace"), this);
    replaceAllButton_ = new QPushButton(tr("Replace All"), this);
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("×"));
    close->setToolTip(tr("Close (Esc)"));
    close->setAutoRaise(true);
    grid->addWidget(find_, 0, 0);
    grid->addWidget(count_, 0, 1);
    grid->addWidget(previous, 0, 2);
    grid->addWidget(next, 0, 3);
    grid->addWidget(matchCase_, 0, 4);
    grid->addWidget(wholeWords_, 0, 5);
    grid->addWidget(close, 0, 6);
    grid->addWidget(replace_, 1, 0);
    grid->addWidget(replaceButton_, 1, 2);
    grid->addWidget(replaceAllButton_, 1, 3);
    grid->setColumnStretch(0, 1);

    auto* escape = new EscapeFirst(this);
    find_->installEventFilter(escape);
    replace_->installEventFilter(escape);
    connect(find_, &QLineEdit::textChanged, this, [this] {
        if (!editor()) return;
        int line, index, unused;
        editor()->getSelection(&line, &index, &unused, &unused);
        if (line < 0) editor()->getCursorPosition(&line, &index);
        if (!find_->text().isEmpty()) findFrom(line, index, true);
        showCount();
    });
    for (QCheckBox* option : {matchCase_, wholeWords_}) connect(option, &QCheckBox::toggled, this, &FindBar::showCount);
    connect(previous, &QToolButton::clicked, this, &FindBar::findPrevious);
    connect(next, &QToolButton::clicked, this, &FindBar::findNext);
    connect(replaceButton_, &QPushButton::clicked, this, &FindBar::replaceOne);
    connect(replaceAllButton_, &QPushButton::clicked, this, &FindBar::replaceAll);
    connect(close, &QToolButton::clicked, this, [this] {
        hide();
        if (editor()) editor()->setFocus();
    });
    connect(tabs_, &QTabWidget::currentChanged, this, &FindBar::followEditor);
    hide();
}

QsciScintilla* FindBar::editor() const { return qobject_cast<QsciScintilla*>(tabs_->currentWidget()); }

void FindBar::showFind() { open(false); }
void FindBar::showReplace() { open(true); }

void FindBar::open(bool withReplace) {
    // The selected text, or the word at the cursor (then chosen as the match on show).
    if (QsciScintilla* e = editor(); e && !(e->hasSelectedText() && e->selectedText().contains('\n'))) {
        int line, index;
        e->getCursorPosition(&line, &index);
        const QString seed = e->hasSelectedText() ? e->selectedText() : e->wordAtLineIndex(line, index);
        if (!seed.isEmpty()) {
            const QSignalBlocker quiet(find_);
            find_->setText(seed);
            if (!e->hasSelectedText()) {
                const auto at = e->SendScintilla(QsciScintillaBase::SCI_GETCURRENTPOS);
                e->lineIndexFromPosition(static_cast<int>(e->SendScintilla(QsciScintillaBase::SCI_WORDSTARTPOSITION, at, true)), &line, &index);
                findFrom(line, index, true);
            }
        }
    }
    for (QWidget* w : {static_cast<QWidget*>(replace_), static_cast<QWidget*>(replaceButton_), static_cast<QWidget*>(replaceAllButton_)})
        w->setVisible(withReplace);
    show();
    followEditor();
    QLineEdit* field = withReplace && !find_->text().isEmpty() ? replace_ : find_;
    field->setFocus();
    field->selectAll();
}

bool FindBar::find(bool forward) {
    QsciScintilla* e = editor();
    if (!e || find_->text().isEmpty()) {
        showFind();
        return false;
    }
    int lineFrom, indexFrom, lineTo, indexTo;
    e->getSelection(&lineFrom, &indexFrom, &lineTo, &indexTo);
    if (lineFrom < 0) {
        e->getCursorPosition(&lineFrom, &indexFrom);
        lineTo = lineFrom, indexTo = indexFrom;
    }
    const bool found = forward ? findFrom(lineTo, indexTo, true) : findFrom(lineFrom, indexFrom, false);
    showCount();
    return found;
}

bool FindBar::findFrom(int line, int index, bool forward) {
    return editor()->findFirst(find_->text(), false, matchCase_->isChecked(), wholeWords_->isChecked(), true, forward, line, index);
}

bool FindBar::selectionIsMatch() const {
    QsciScintilla* e = editor();
    return e && !find_->text().isEmpty() &&
           e->selectedText().compare(find_->text(), matchCase_->isChecked() ? Qt::CaseSensitive : Qt::CaseInsensitive) == 0;
}

void FindBar::replaceOne() {
    QsciScintilla* e = editor();
    if (!e || e->isReadOnly()) return;
    if (selectionIsMatch()) e->replaceSelectedText(replace_->text());
    find(true);
}

int FindBar::replaceAll() {
    QsciScintilla* e = editor();
    if (!e || e->isReadOnly() || find_->text().isEmpty()) return 0;
    int replaced = 0;
    e->beginUndoAction();  // one Ctrl+Z takes them all back
    if (e->findFirst(find_->text(), false, matchCase_->isChecked(), wholeWords_->isChecked(), false, true, 0, 0, false)) {
        do {
            e->replace(replace_->text());
            ++replaced;
        } while (e->findNext());
    }
    e->endUndoAction();
    showCount();
    count_->setText(replaced == 1 ? tr("1 replaced") : tr("%1 replaced").arg(replaced));
    return replaced;
}

void FindBar::showCount() {
    QsciScintilla* e = editor();
    if (!e || find_->text().isEmpty()) {
        count_->clear();
        return;
    }
    QString pattern = QRegularExpression::escape(find_->text());
    if (wholeWords_->isChecked()) pattern = "\\b" + pattern + "\\b";
    const QRegularExpression expression(pattern, matchCase_->isChecked() ? QRegularExpression::NoPatternOption
                                                                         : QRegularExpression::CaseInsensitiveOption);
    // The match on show is the one starting where the selection does (Scintilla counts bytes).
    const QString text = e->text();
    const auto selectionStart = e->SendScintilla(QsciScintillaBase::SCI_GETSELECTIONSTART);
    int total = 0, current = 0;
    qsizetype charsSeen = 0, bytesSeen = 0;
    for (auto it = expression.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        bytesSeen += text.mid(charsSeen, match.capturedStart() - charsSeen).toUtf8().size();
        charsSeen = match.capturedStart();
        ++total;
        if (bytesSeen == selectionStart && selectionIsMatch()) current = total;
    }
    count_->setText(total == 0     ? tr("No matches")
                    : current      ? tr("%1 of %2").arg(current).arg(total)
                    : total == 1   ? tr("1 match")
                                   : tr("%1 matches").arg(total));
}

void FindBar::followEditor() {
    const bool editable = editor() && !editor()->isReadOnly();
    replace_->setEnabled(editable);
    replaceButton_->setEnabled(editable);
    replaceAllButton_->setEnabled(editable);
    replace_->setToolTip(editable ? QString() : tr("A module's tab is read-only: the text it ran with"));
    if (isVisible()) showCount();
}

void FindBar::keyPressEvent(QKeyEvent* event) {
    const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
    if (event->key() == Qt::Key_Escape) {
        hide();
        if (editor()) editor()->setFocus();
    } else if (enter && focusWidget() == replace_) {
        replaceOne();
    } else if (enter) {
        find(!(event->modifiers() & Qt::ShiftModifier));
    } else {
        QWidget::keyPressEvent(event);
    }
}

}  // namespace fusescope::gui
