// A program of several files in the workbench (resources/examples/17_multi_file: main.py
// importing the package tinynet beside it): every file its run imported gets an editor tab,
// the graph's nodes and the graph breaks made in a module show in that module's tab, and the
// run's bundle opens again with every file.
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <Qsci/qsciscintilla.h>

#include "bundle/bundle_reader.h"
#include "bundle/zip_archive.h"
#include "engine/engine_client.h"
#include "gui_test_support.h"
#include "model/graph_breaks_model.h"
#include "model/json_fields.h"
#include "views/script_tabs.h"
#include "window/main_window.h"

using namespace fusescope;
using namespace fusescope::gui;

namespace {

const QString kExample = QString::fromStdString(test::sourcePath("resources/examples/17_multi_file"));

QString fileText(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

QStringList tabTitles(const ScriptTabs& tabs) {
    QStringList titles;
    for (int i = 0; i < tabs.count(); ++i) titles << tabs.tabText(i);
    return titles;
}

// The first node of the compile on show made at line of a file ending in `file`.
QString nodeMadeAt(MainWindow& window, const QString& file, int line) {
    for (const DrawnNode& node : window.selection().compile().graph.nodes)
        if (QString::fromStdString(node.file).endsWith(file) && node.line == line) return QString::fromStdString(node.name);
    return {};
}

// The row of the graph-breaks table whose location is in a file ending in `file`.
QModelIndex breakIn(QTableView* breaks, const QString& file) {
    for (int row = 0; row < breaks->model()->rowCount(); ++row) {
        QModelIndex index = breaks->model()->index(row, GraphBreaksModel::LocationColumn);
        if (index.data(GraphBreaksModel::FileRole).toString().endsWith(file)) return index;
    }
    return {};
}

int cursorLine(const QsciScintilla* editor) {
    int line = -1, column = -1;
    editor->getCursorPosition(&line, &column);
    return line + 1;
}

// The tabs and links every view of the program's run has, live or from its bundle.
void checkEveryFileIsThere(MainWindow& window) {
    ScriptTabs* tabs = window.scriptTabs();
    QCOMPARE(tabTitles(*tabs), (QStringList{"main.py", "tinynet/__init__.py", "tinynet/blocks.py", "tinynet/model.py"}));
    QVERIFY(tabs->tabBar()->isVisibleTo(tabs));
    QsciScintilla* blocks = tabs->editorOf(tabs->fileOf(qobject_cast<QsciScintilla*>(tabs->widget(2))));
    QCOMPARE(blocks, tabs->widget(2));
    QCOMPARE(blocks->text(), fileText(kExample + "/tinynet/blocks.py"));
    QVERIFY(blocks->isReadOnly());
    QVERIFY(!tabs->script()->isReadOnly());

    // The graph break under its line in blocks.py, and activating it shows that line there.
    QVERIFY2(blocks->annotation(12).startsWith("graph break (0/0): Data-dependent branching"),
             qPrintable(blocks->annotation(12)));
    QCOMPARE(blocks->annotation(11), QString());
    QModelIndex inBlocks = breakIn(window.graphBreaksView(), "tinynet/blocks.py");
    QVERIFY(inBlocks.isValid());
    tabs->setCurrentIndex(0);
    Q_EMIT window.graphBreaksView()->activated(inBlocks);
    QCOMPARE(tabs->currentWidget(), blocks);
    QCOMPARE(cursorLine(blocks), 13);

    // A graph node made in blocks.py, selected elsewhere, is marked on its line there. The
    // break in TinyNet.forward's loop skipped that frame (0/0): ResidualBlock.forward is a
    // frame of its own (1/0), as in PyTorch.
    window.selection().setCompileId("1/0");
    const QString linear = nodeMadeAt(window, "tinynet/blocks.py", 12);
    QVERIFY(!linear.isEmpty());
    tabs->setCurrentIndex(0);
    window.selection().selectGraphNode(linear);
    QCOMPARE(tabs->currentWidget(), blocks);
    QVERIFY(blocks->markersAtLine(11) & 1);
    // And the cursor put on that line in blocks.py selects its first node (Scintilla tells
    // where its cursor went when it paints).
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.selection().setCompileId({});
    window.selection().setCompileId("1/0");
    QVERIFY(window.selection().graphNode().isEmpty());
    blocks->setCursorPosition(11, 4);
    QTRY_COMPARE(window.selection().graphNode(), linear);
}

}  // namespace

class MultiFileProgramTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }  // settings stay out of the user's folders

    void everyFileTheRunImportedHasATabAndTheBundleKeepsThem() {
        if (!fusescope::zipAvailable()) QSKIP("this build has no libzip to write bundles");
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(kExample + "/main.py"));
        QVERIFY(!window.scriptTabs()->tabBar()->isVisibleTo(window.scriptTabs()));  // one file: no tab bar
        QSignalSpy answered(&window.engine(), &EngineClient::answered);
        window.runScript();
        QVERIFY(answered.wait(60000));
        QVERIFY2(window.statusText().startsWith("Finished"), qPrintable(window.statusText()));
        checkEveryFileIsThere(window);

        QTemporaryDir dir;
        const QString exported = dir.filePath("tinynet.fscope");
        QVERIFY(window.exportBundle(exported));
        fusescope::Bundle bundle = fusescope::readBundle(exported.toStdString());
        QCOMPARE(QString::fromStdString(bundle.files.at("script/tinynet/model.py")), fileText(kExample + "/tinynet/model.py"));

        MainWindow reopened(QString::fromStdString(test::cliPath()));
        QVERIFY(reopened.openFile(exported));
        QCOMPARE(reopened.editor()->text(), fileText(kExample + "/main.py"));
        checkEveryFileIsThere(reopened);

        // A new run takes the modules' tabs away with what it replaces.
        reopened.openFile(QString::fromStdString(test::sourcePath("resources/examples/01_quickstart.py")));
        QCOMPARE(tabTitles(*reopened.scriptTabs()), QStringList{"01_quickstart.py"});
    }
};

QTEST_MAIN(MultiFileProgramTest)
#include "multi_file_program_test.moc"
