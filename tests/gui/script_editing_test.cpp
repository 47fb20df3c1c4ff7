// Editing the script as in any editor (issue: Ctrl+F in the editor typed into the script, F5
// did not run, the Edit menu had only Preferences, File had no Save As): the find bar finds,
// counts, wraps, replaces one or all (one undo step); the window opens it from Ctrl+F in the
// editor, runs on F5, fills the Edit menu and saves under a new name.
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QVBoxLayout>
#include <Qsci/qsciscintilla.h>

#include "engine/engine_client.h"
#include "gui_test_support.h"
#include "model/run_store.h"
#include "views/find_bar.h"
#include "views/script_tabs.h"
#include "window/main_window.h"

using namespace fusescope::gui;

namespace {

// Where the editor's selection starts, as (line, index).
QPair<int, int> selectionStart(QsciScintilla* editor) {
    int line, index, unusedLine, unusedIndex;
    editor->getSelection(&line, &index, &unusedLine, &unusedIndex);
    return {line, index};
}

const QString kScript = "alpha = 1\nbeta = alpha + Alpha\nalphabet = [alpha]\n";

}  // namespace

class ScriptEditingTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void theFindBarFindsCountsWrapsAndReplaces() {
        RunStore store;
        auto* editor = new QsciScintilla;
        QWidget area;
        auto* column = new QVBoxLayout(&area);
        auto* tabs = new ScriptTabs(editor, &store, &area);
        FindBar* bar = new FindBar(tabs, &area);
        column->addWidget(tabs);
        column->addWidget(bar);
        area.resize(700, 400);
        area.show();
        QVERIFY(QTest::qWaitForWindowActive(&area));
        editor->setText(kScript);
        editor->setCursorPosition(1, 9);  // in beta's "alpha"

        // Opened on a word: that word, counted, the one at the cursor chosen; Enter goes on,
        // Shift+Enter back, wrapping at the ends.
        QVERIFY(!bar->isVisible());
        bar->showFind();
        QVERIFY(bar->isVisible());
        QVERIFY(bar->findField()->hasFocus());
        QVERIFY(!bar->replaceField()->isVisible());
        QCOMPARE(bar->findField()->text(), QString("alpha"));
        QCOMPARE(selectionStart(editor), qMakePair(1, 7));
        QCOMPARE(bar->countLabel()->text(), QString("2 of 5"));  // Alpha and alphabet too
        QTest::keyClick(bar->findField(), Qt::Key_Return);
        QCOMPARE(selectionStart(editor), qMakePair(1, 15));  // Alpha
        QCOMPARE(bar->countLabel()->text(), QString("3 of 5"));
        QTest::keyClick(bar->findField(), Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(bar->countLabel()->text(), QString("2 of 5"));
        QTest::keyClick(bar->findField(), Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(selectionStart(editor), qMakePair(0, 0));
        QTest::keyClick(bar->findField(), Qt::Key_Return, Qt::ShiftModifier);  // past the first: the last
        QCOMPARE(selectionStart(editor), qMakePair(2, 12));
        QCOMPARE(bar->countLabel()->text(), QString("5 of 5"));
        QTest::keyClick(bar->findField(), Qt::Key_Return);  // past the last: the first
        QCOMPARE(selectionStart(editor), qMakePair(0, 0));
        QTest::keyClick(bar->findField(), Qt::Key_Return, Qt::ShiftModifier);

        // Options narrow the count; text that is nowhere says so and moves nothing.
        bar->matchCase()->setChecked(true);
        QCOMPARE(bar->countLabel()->text(), QString("4 of 4"));
        bar->wholeWords()->setChecked(true);
        QCOMPARE(bar->countLabel()->text(), QString("3 of 3"));
        QTest::keyClicks(bar->findField(), "zz");
        QCOMPARE(bar->countLabel()->text(), QString("No matches"));
        QCOMPARE(selectionStart(editor), qMakePair(2, 12));

        // Replace changes the match on show and goes to the next; Replace All the rest, undone
        // by one undo.
        bar->findField()->setText("alpha");
        bar->showReplace();
        QVERIFY(bar->replaceField()->isVisible());
        QVERIFY(bar->replaceField()->hasFocus());  // something to find already: straight to replacing
        bar->replaceField()->setText("gamma");
        editor->setCursorPosition(0, 0);
        bar->findNext();
        QTest::keyClick(bar->replaceField(), Qt::Key_Return);
        QCOMPARE(editor->text(), QString("gamma = 1\nbeta = alpha + Alpha\nalphabet = [alpha]\n"));
        QCOMPARE(selectionStart(editor), qMakePair(1, 7));
        QCOMPARE(bar->replaceAll(), 2);  // case and whole words still on
        QCOMPARE(editor->text(), QString("gamma = 1\nbeta = gamma + Alpha\nalphabet = [gamma]\n"));
        QCOMPARE(bar->countLabel()->text(), QString("2 replaced"));
        editor->undo();
        QCOMPARE(editor->text(), QString("gamma = 1\nbeta = alpha + Alpha\nalphabet = [alpha]\n"));

        // A read-only tab (a module's) finds but does not replace.
        editor->setReadOnly(true);
        bar->showReplace();
        QVERIFY(!bar->replaceField()->isEnabled());
        QCOMPARE(bar->replaceAll(), 0);
        QVERIFY(bar->findNext());
        editor->setReadOnly(false);

        // Esc closes the bar and gives the editor its focus back.
        QTest::keyClick(bar->findField(), Qt::Key_Escape);
        QVERIFY(!bar->isVisible());
        QVERIFY(editor->hasFocus());
    }

    void theWindowFindsOnCtrlFRunsOnF5AndSavesAs() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTemporaryDir dir;
        const QString first = dir.filePath("first.py");
        {
            QFile file(first);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("import torch\nprint(torch.ones(2) * 3)\n");
        }
        QVERIFY(window.openFile(first));

        // Ctrl+F in the editor opens its find bar; what follows is typed there, not into the script.
        window.editor()->setFocus();
        window.editor()->setCursorPosition(1, 6);
        QTest::keyClick(window.editor(), Qt::Key_F, Qt::ControlModifier);
        QVERIFY(window.findBar()->isVisible());
        QVERIFY(window.findBar()->findField()->hasFocus());
        QCOMPARE(window.findBar()->findField()->text(), QString("torch"));
        QTest::keyClick(window.findBar()->findField(), Qt::Key_End);  // the seed is selected: typing would replace it
        QTest::keyClicks(window.findBar()->findField(), ".ones");
        QCOMPARE(window.editor()->text(), QString("import torch\nprint(torch.ones(2) * 3)\n"));
        QCOMPARE(window.editor()->selectedText(), QString("torch.ones"));

        // The Edit menu has what editors have, greyed where there is nothing to do.
        QMenu* edit = nullptr;
        for (QAction* a : window.menuBar()->actions())
            if (a->text() == "&Edit") edit = a->menu();
        QVERIFY(edit);
        QStringList texts;
        for (QAction* a : edit->actions())
            if (!a->isSeparator()) texts << a->text();
        QCOMPARE(texts, (QStringList{"&Undo", "&Redo", "Cu&t", "&Copy", "&Paste", "Select &All", "&Find...", "Find &Next",
                                     "Find Pre&vious", "R&eplace...", "&Preferences..."}));
        Q_EMIT edit->aboutToShow();
        QVERIFY(!edit->actions()[0]->isEnabled());  // nothing to undo yet
        QVERIFY(edit->actions()[4]->isEnabled());   // copy: torch.ones is selected

        // F5 runs the script.
        QSignalSpy answered(&window.engine(), &EngineClient::answered);
        window.editor()->setFocus();
        QTest::keyClick(window.editor(), Qt::Key_F5);
        QVERIFY(answered.wait(60000));

        // Save As writes the script under the name chosen, which the title then shows.
        window.editor()->setCursorPosition(0, 0);
        window.editor()->insert("# edited\n");
        QVERIFY(window.isWindowModified());
        const QString second = dir.filePath("second.py");
        QTimer chooser;
        connect(&chooser, &QTimer::timeout, [&] {
            auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            if (auto* name = dialog ? dialog->findChild<QLineEdit*>("fileNameEdit") : nullptr) {
                name->setText(second);
                QTest::keyClick(name, Qt::Key_Return);
            }
        });
        chooser.start(50);
        QVERIFY(window.saveScript(true));
        chooser.stop();
        QFile saved(second);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QCOMPARE(saved.readAll(), QByteArray("# edited\nimport torch\nprint(torch.ones(2) * 3)\n"));
        QVERIFY(!window.isWindowModified());
        QCOMPARE(window.windowTitle(), QString("Fusescope - second.py[*]"));
    }
};

QTEST_MAIN(ScriptEditingTest)
#include "script_editing_test.moc"
