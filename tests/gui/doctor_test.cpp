// The doctor in the workbench: graph breaks ranked by what they cost on the run, with the
// measures beside each; a size recompile fixed in one click (the edit inserted into the
// script, the script run again, and the recompile gone).
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTreeView>
#include <Qsci/qsciscintilla.h>

#include "engine/engine_client.h"
#include "gui_test_support.h"
#include "model/graph_breaks_model.h"
#include "model/recompile_reasons_model.h"
#include "views/guards_view.h"
#include "window/main_window.h"

using namespace fusescope::gui;

namespace {

bool openWrittenScript(MainWindow& window, const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    QFile script(dir.filePath(name));
    if (!script.open(QIODevice::WriteOnly) || script.write(text) != text.size()) return false;
    script.close();
    return window.openFile(script.fileName());
}

bool runAndWait(MainWindow& window) {
    QSignalSpy answered(&window.engine(), &EngineClient::answered);
    window.runScript();
    return answered.wait(60000);
}

}  // namespace

class DoctorTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // The costlier break (the Python between its graphs) ranks first; both split a fusion.
    void graphBreaksAreRankedByCost() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QTemporaryDir dir;
        QVERIFY(openWrittenScript(window, dir, "two_breaks.py",
                                  "import torch\n"
                                  "\n"
                                  "@torch.compile\n"
                                  "def step(x):\n"
                                  "    y = x.sin() * 2\n"
                                  "    torch._dynamo.graph_break()\n"
                                  "    z = y.cos() + 1\n"
                                  "    print(\"between\")\n"
                                  "    total = 0\n"
                                  "    for i in range(20000):\n"
                                  "        total += i\n"
                                  "    return z * total\n"
                                  "\n"
                                  "x = torch.ones(64)\n"
                                  "for _ in range(3):\n"
                                  "    r = step(x)\n"));
        QVERIFY(runAndWait(window));
        QTableView* breaks = window.graphBreaksView();
        QAbstractItemModel* m = breaks->model();
        QTRY_COMPARE(m->rowCount(), 2);
        QTRY_COMPARE(m->index(0, GraphBreaksModel::RankColumn).data().toString(), QString("1"));
        QCOMPARE(m->index(0, GraphBreaksModel::ReasonColumn).data().toString(), QString("Failed to trace builtin operator"));
        QCOMPARE(m->index(0, GraphBreaksModel::FusionsLostColumn).data().toString(), QString("1"));
        QCOMPARE(m->index(1, GraphBreaksModel::RankColumn).data().toString(), QString("2"));
        QCOMPARE(m->index(1, GraphBreaksModel::ReasonColumn).data().toString(), QString("Call to `torch._dynamo.graph_break()`"));
        const double first = m->index(0, GraphBreaksModel::BetweenColumn).data().toDouble();
        const double second = m->index(1, GraphBreaksModel::BetweenColumn).data().toDouble();
        QVERIFY2(first > second, qPrintable(QString("%1 <= %2").arg(first).arg(second)));

        breaks->setCurrentIndex(m->index(0, GraphBreaksModel::ReasonColumn));
        auto* details = window.findChild<QTextBrowser*>("graphBreakDetails");
        QVERIFY(details);
        const QString text = details->toPlainText();
        QVERIFY2(text.contains("What it cost on this run:"), qPrintable(text));
        QVERIFY2(text.contains("1/0 splits __compiled_fn_1 (2 ops) from __compiled_fn_2 (1 op)"), qPrintable(text));  // in the resume function
        QVERIFY2(text.contains("kernels: 1 + 1 apart, 1 as one graph: 1 fusion lost"), qPrintable(text));
        // Activating the top row still goes to its line.
        Q_EMIT breaks->activated(m->index(0, 0));
        int line = -1, column = -1;
        window.editor()->getCursorPosition(&line, &column);
        QCOMPARE(line + 1, 8);
    }

    void aSizeRecompileIsFixedInOneClick() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QTemporaryDir dir;
        QVERIFY(openWrittenScript(window, dir, "sizes.py",
                                  "import torch\n"
                                  "\n"
                                  "@torch.compile(backend=\"eager\")\n"
                                  "def scale(x):\n"
                                  "    return x * 2\n"
                                  "\n"
                                  "x = torch.ones(8)\n"
                                  "print(scale(x).shape)\n"
                                  "print(scale(torch.ones(9)).shape)\n"));
        QVERIFY(runAndWait(window));
        GuardsView* guards = window.guardsView();
        QTreeView* recompiles = guards->recompileList();
        QTRY_COMPARE(recompiles->model()->rowCount(), 1);
        QPushButton* apply = guards->applyFixButton();
        recompiles->setCurrentIndex(recompiles->model()->index(0, RecompileReasonsModel::FixColumn));
        QVERIFY(apply->isEnabled());
        QVERIFY2(apply->toolTip().contains("torch._dynamo.mark_dynamic(x, 0) before line 8"), qPrintable(apply->toolTip()));

        QSignalSpy answered(&window.engine(), &EngineClient::answered);
        apply->click();
        QVERIFY(answered.wait(60000));
        QCOMPARE(window.editor()->text(7), QString("torch._dynamo.mark_dynamic(x, 0)\n"));
        QCOMPARE(window.editor()->text(8), QString("print(scale(x).shape)\n"));
        QTRY_COMPARE(recompiles->model()->rowCount(), 0);
        QVERIFY(!apply->isEnabled());
        // The edit is the editor's: one undo takes it back.
        window.editor()->undo();
        QCOMPARE(window.editor()->text(7), QString("print(scale(x).shape)\n"));
    }
};

QTEST_MAIN(DoctorTest)
#include "doctor_test.moc"
