// Ours vs PyTorch: a run of our engine beside real PyTorch's TORCH_TRACE log of the same
// script (tests/fixtures/torch_trace, PyTorch 2.15), paired by compile id; and the script
// run "under PyTorch" by a stand-in Python that writes a committed log where TORCH_TRACE says.
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "bundle/bundle_reader.h"
#include "gui_test_support.h"
#include "views/code_view.h"
#include "views/torch_compare_view.h"
#include "window/main_window.h"

using namespace fusescope::gui;
using Aspect = TorchCompareView::Aspect;

namespace {

QString fixture(const std::string& relative) {
    return QString::fromStdString(test::sourcePath("tests/fixtures/torch_trace/" + relative));
}

// Runs the fixture's program in `window` with inductor and waits for the end.
bool runProgram(MainWindow& window, const char* program) {
    if (!window.openFile(fixture(std::string("programs/") + program)) || !window.setBackend("inductor")) return false;
    QSignalSpy answered(&window.engine(), &EngineClient::answered);
    window.runScript();
    return answered.wait(60000) && window.statusText().startsWith("Finished");
}

QString cell(const TorchCompareView& view, int row, int column) { return view.table()->item(row, column)->text(); }

const CompilePair* pairOf(const TorchCompareView& view, const QString& compileId) {
    for (const CompilePair& pair : view.pairs())
        if (pair.compileId == compileId) return &pair;
    return nullptr;
}

// A stand-in for a Python with torch: runs `body` (sh) instead of the script.
QString fakePython(const QTemporaryDir& dir, const QByteArray& body) {
    QString path = dir.filePath("python");
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write("#!/bin/sh\n" + body + "\n");
    file.close();
    file.setPermissions(file.permissions() | QFileDevice::ExeOwner);
    return path;
}

const QString kLoggedCompiles = fixture("recompiles/dedicated_log_torch_trace_fixture.log");

// Runs recompiles.py in `window` with Run Under PyTorch Too, the stand-in Python writing the
// committed log of that program; the description PyTorch's side loaded with, "" when none.
QString runBothSides(MainWindow& window, const QTemporaryDir& dir) {
    window.setTorchPython(fakePython(dir, "mkdir -p \"$TORCH_TRACE\" && cp '" + kLoggedCompiles.toUtf8() +
                                              "' \"$TORCH_TRACE/dedicated_log_torch_trace_rank_0_x1.log\" && test -f \"$1\""));
    window.setRunUnderTorch(true);
    QSignalSpy loaded(&window.torchSide(), &TorchSide::loaded);
    if (!runProgram(window, "recompiles.py") || (loaded.empty() && !loaded.wait(20000))) return {};
    return loaded.front().front().toString();
}

}  // namespace

class TorchCompareTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void aCommittedLogBesideOurRunPairsCompilesById() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QSignalSpy loaded(&window.torchSide(), &TorchSide::loaded);
        window.openTorchTraceBeside(fixture("recompiles"));
        QVERIFY(loaded.wait(10000));
        QVERIFY(runProgram(window, "recompiles.py"));
        TorchCompareView& view = *window.torchCompareView();
        QTRY_VERIFY_WITH_TIMEOUT(window.viewsReady(), 20000);  // paired a moment after the run's last events
        QCOMPARE(view.pairs().size(), 4);
        QVERIFY2(view.summary().startsWith("4 compile(s), 4 with counts that differ. PyTorch's side: PyTorch 2.15.0+cu132, /"), qPrintable(view.summary()));

        // Cells read "ours | PyTorch's"; where they differ they are tinted.
        QCOMPARE(cell(view, 0, 0), QString("0/0"));
        QCOMPARE(cell(view, 0, 1), QString("scale"));
        QCOMPARE(cell(view, 0, 2), QString("1 | 1"));  // graphs
        QCOMPARE(cell(view, 0, 4), QString("2 | 11"));  // guards
        QCOMPARE(cell(view, 3, 3), QString("3 | 3"));   // ops: both read the float made dynamic with item()
        QCOMPARE(cell(view, 3, 6), QString("1 | 1"));   // kernels: both read the float as a kernel input
        QCOMPARE(view.table()->item(0, 2)->background().style(), Qt::NoBrush);
        QCOMPARE(view.table()->item(0, 4)->background().color(), QColor(255, 236, 204));

        const CompilePair* second = pairOf(view, "0/1");
        QVERIFY(second && second->ours.present && second->torch.present);
        // Both sides in PyTorch 2.15's words: the same first failing guard of each entry.
        QCOMPARE(second->ours.recompileReasons, QStringList{"0/0: tensor 'x' size mismatch at index 0. expected 4, actual 6"});
        QCOMPARE(second->torch.recompileReasons, QStringList{"0/0: tensor 'x' size mismatch at index 0. expected 4, actual 6"});
        QCOMPARE(pairOf(view, "0/3")->ours.recompileReasons.value(0), QString("0/2: tensor 'x' dtype mismatch. expected Double, actual Float"));
        QCOMPARE(pairOf(view, "0/3")->torch.recompileReasons.value(0), QString("0/2: tensor 'x' dtype mismatch. expected Double, actual Float"));

        // The compile picked anywhere is the pair on show, and a row picked is the compile selected.
        window.selection().setCompileId("0/1");
        QCOMPARE(view.shownCompile(), QString("0/1"));
        QCOMPARE(view.view(Aspect::RecompileReasons, TorchCompareView::Ours)->text(), second->ours.recompileReasons.join('\n'));
        QCOMPARE(view.view(Aspect::RecompileReasons, TorchCompareView::Torch)->text(), second->torch.recompileReasons.join('\n'));
        QCOMPARE(view.view(Aspect::Guards, TorchCompareView::Torch)->text().count('\n'), 11);  // 12 guards
        QVERIFY(view.view(Aspect::GraphCode, TorchCompareView::Ours)->text().startsWith("class GraphModule(torch.nn.Module):"));
        QVERIFY(view.view(Aspect::GraphCode, TorchCompareView::Torch)->text().startsWith("class GraphModule(torch.nn.Module):"));
        QVERIFY(view.view(Aspect::Code, TorchCompareView::Ours)->text().contains("extern \"C\""));
        QVERIFY(view.view(Aspect::Code, TorchCompareView::Torch)->text().contains("async_compile.cpp_pybinding("));
        view.table()->setCurrentCell(2, 0);
        QCOMPARE(window.selection().compileId(), QString("0/2"));
    }

    // After a graph break both sides go on in a resume function, a frame of its own (1/0, 2/0,
    // ...): each compile pairs with PyTorch's, named as PyTorch names it.
    // In a short dock the two sides' code keeps most of the height, the table the rest.
    void theCodeGetsMostOfAShortView() {
        RunStore ours, torch;
        TorchCompareView view(&ours, &torch);
        view.resize(900, 320);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QWidget* code = view.findChild<QTabWidget*>();
        QVERIFY2(code->height() >= 2 * view.table()->height(), qPrintable(QString("%1 vs %2").arg(code->height()).arg(view.table()->height())));
    }

    void compilesAfterAGraphBreakPairWithPyTorchsResumeFunctions() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(runProgram(window, "graph_breaks.py"));
        QSignalSpy loaded(&window.torchSide(), &TorchSide::loaded);
        window.openTorchTraceBeside(fixture("graph_breaks/dedicated_log_torch_trace_fixture.log"));
        QVERIFY(loaded.wait(10000));
        TorchCompareView& view = *window.torchCompareView();
        QTRY_VERIFY_WITH_TIMEOUT(window.viewsReady(), 20000);
        QCOMPARE(view.pairs().size(), 4);
        QStringList ids;
        for (const CompilePair& pair : view.pairs()) ids << pair.compileId;
        QCOMPARE(ids, (QStringList{"0/0", "1/0", "2/0", "3/0"}));
        for (const CompilePair& pair : view.pairs()) QVERIFY2(pair.ours.present && pair.torch.present, qPrintable(pair.compileId));
        QCOMPARE(cell(view, 0, 2), QString("1 | 1"));
        QCOMPARE(cell(view, 1, 2), QString("1 | 1"));
        QCOMPARE(cell(view, 1, 1), QString("torch_dynamo_resume_in_step_at_7"));
        // Both sides name a break by PyTorch's gb_type: the same words for the same break.
        QCOMPARE(view.pairs()[0].ours.graphBreaks, QStringList{"Failed to trace builtin operator (graph_breaks.py:7)"});
        QCOMPARE(view.pairs()[0].torch.graphBreaks, view.pairs()[0].ours.graphBreaks);
        QCOMPARE(view.pairs()[1].ours.graphBreaks, QStringList{"Data-dependent branching (graph_breaks.py:8)"});
        view.showCompile("2/0");
        QCOMPARE(view.view(Aspect::GraphBreaks, TorchCompareView::Ours)->text(), QString("# none"));
        QCOMPARE(view.view(Aspect::GraphBreaks, TorchCompareView::Torch)->text(), QString("# none"));
        view.table()->setCurrentCell(3, 0);
        QCOMPARE(view.shownCompile(), QString("3/0"));
        QCOMPARE(window.selection().compileId(), QString("3/0"));
    }

    void runUnderPyTorchLoadsWhatThatRunLogged() {
        QTemporaryDir dir;
        MainWindow window(QString::fromStdString(test::cliPath()));
        QCOMPARE(runBothSides(window, dir), QString("PyTorch 2.15.0+cu132, a run of recompiles.py"));
        QTRY_VERIFY_WITH_TIMEOUT(window.torchCompareView()->pairs().size() == 4 && window.torchCompareView()->pairs().back().torch.present, 20000);
        QVERIFY(!QSettings().value("torch/alsoRun", false).toBool());  // set for the session, not kept

        // The next run's PyTorch side fails: the last one's is gone, not left beside the new run.
        window.setTorchPython(fakePython(dir, "echo 'RuntimeError: out of memory'; exit 1"));
        QSignalSpy failed(&window.torchSide(), &TorchSide::failed);
        QVERIFY(runProgram(window, "recompiles.py"));
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 20000);
        const std::vector<CompilePair>& pairs = window.torchCompareView()->pairs();
        QTRY_VERIFY_WITH_TIMEOUT(pairs.size() == 4 && std::none_of(pairs.begin(), pairs.end(), [](const CompilePair& p) { return p.torch.present; }), 20000);
        QCOMPARE(window.torchCompareView()->summary(), QString("PyTorch's side failed: recompiles.py under PyTorch exited with 1 and wrote no TORCH_TRACE log:"));
    }

    // A run's bundle keeps PyTorch's side (issue 61, item 14): it reopens with both sides, and a
    // bundle without one leaves none beside it.
    void aRunsBundleKeepsPyTorchsSide() {
        QTemporaryDir dir;
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(!runBothSides(window, dir).isEmpty());
        const QString bundle = dir.filePath("run.fscope");
        QVERIFY(window.exportBundle(bundle));
        QFile expected(kLoggedCompiles);
        QVERIFY(expected.open(QIODevice::ReadOnly));
        QCOMPARE(QByteArray::fromStdString(fusescope::readBundle(bundle.toStdString()).files.at("torch/dedicated_log_torch_trace_rank_0_x1.log")),
                 expected.readAll());

        MainWindow reopened(QString::fromStdString(test::cliPath()));
        QSignalSpy reloaded(&reopened.torchSide(), &TorchSide::loaded);
        QVERIFY(reopened.openFile(bundle));
        QVERIFY(reloaded.wait(10000));
        QCOMPARE(reloaded.front().front().toString(), QString("PyTorch 2.15.0+cu132, kept in run.fscope"));
        const std::vector<CompilePair>& pairs = reopened.torchCompareView()->pairs();
        QTRY_VERIFY_WITH_TIMEOUT(pairs.size() == 4 && std::all_of(pairs.begin(), pairs.end(), [](const CompilePair& p) { return p.ours.present && p.torch.present; }), 20000);

        // The run's own bundle, made without PyTorch's side: none is left beside it.
        QVERIFY(reopened.openFile(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + "/runs/last-run.fscope"));
        QVERIFY(reopened.torchSide().shownLog().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(std::none_of(pairs.begin(), pairs.end(), [](const CompilePair& p) { return p.torch.present; }), 20000);
        QCOMPARE(reopened.torchCompareView()->summary(), QString("The bundle keeps no PyTorch side: its run was made without Run Under PyTorch Too"));
    }

    // PyTorch's side while its script runs (issue 68): what its log holds so far is on show
    // before the script ends, the whole log once it has.
    void pytorchsSideShowsItsLogAsTheScriptWritesIt() {
        QTemporaryDir dir;
        QFile log(kLoggedCompiles);
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QByteArray text = log.readAll();
        qsizetype half = text.indexOf("{\"compilation_metrics\"");
        half = text.indexOf("{\"compilation_metrics\"", half + 1);  // the second compile's metrics
        half = text.indexOf("\nV", half) + 1;                       // and the record after them begins
        const QString go = dir.filePath("go");
        TorchSide side;
        side.setSessionPython(fakePython(dir, "mkdir -p \"$TORCH_TRACE\"; out=\"$TORCH_TRACE/dedicated_log_torch_trace_x1.log\"\n"
                                              "head -c " + QByteArray::number(half) + " '" + kLoggedCompiles.toUtf8() + "' > \"$out\"\n"
                                              "while [ ! -f '" + go.toUtf8() + "' ]; do sleep 0.05; done\n"
                                              "tail -c +" + QByteArray::number(half + 1) + " '" + kLoggedCompiles.toUtf8() + "' >> \"$out\""));
        QSignalSpy loaded(&side, &TorchSide::loaded), progress(&side, &TorchSide::progress);
        QVERIFY(side.run("import torch\n", "script.py"));
        auto compiles = [&side] {
            int n = 0;
            for (const auto& e : side.store().events()) n += std::holds_alternative<fusescope::CompileStartedEvent>(e);
            return n;
        };
        QTRY_COMPARE_WITH_TIMEOUT(compiles(), 2, 5000);
        QVERIFY(side.isRunning());  // still waiting for the go
        QCOMPARE(progress.back().front().toString(), QString("PyTorch's side, read as it runs: 2 compiles so far"));
        QFile(go).open(QIODevice::WriteOnly);
        QVERIFY(loaded.wait(10000));
        QCOMPARE(compiles(), 4);
    }

    void aPythonWithoutTorchSaysSo() {
        QTemporaryDir dir;
        TorchSide side;
        QSignalSpy failed(&side, &TorchSide::failed);
        side.setSessionPython(fakePython(dir, "echo \"ModuleNotFoundError: No module named 'torch'\" >&2; exit 1"));
        QVERIFY(side.run("import torch\n", "script.py"));
        QVERIFY(failed.wait(10000));
        QVERIFY2(failed.front().front().toString().endsWith(" has no torch: pick a Python with torch in Edit > Preferences, or start with --torch-python PATH."),
                 qPrintable(failed.front().front().toString()));

        // A script that fails before compiling anything: its last lines say why.
        side.setSessionPython(fakePython(dir, "echo first; echo 'ValueError: bad input'; exit 3"));
        QVERIFY(side.run("import torch\n", "script.py"));
        QVERIFY(failed.wait(10000));
        QCOMPARE(failed.back().front().toString(), QString("script.py under PyTorch exited with 3 and wrote no TORCH_TRACE log:\nfirst\nValueError: bad input"));

        side.setSessionPython(dir.filePath("no-such-python"));
        QVERIFY(side.run("import torch\n", "script.py"));
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 3, 20000);
        QVERIFY(failed.back().front().toString().startsWith("Cannot start " + dir.filePath("no-such-python")));
    }
};

QTEST_MAIN(TorchCompareTest)
#include "torch_compare_test.moc"
