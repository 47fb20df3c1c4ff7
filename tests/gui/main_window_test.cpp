// The workbench end to end: the window runs the seed-000 example through a real engine
// child and every view shows its part; an engine killed mid-run leaves the window up with
// what it received, and a restart runs again.
#include <QDockWidget>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QMessageBox>
#include <QProcess>
#include <QStatusBar>
#include <QProgressBar>
#include <QSettings>
#include <QMimeData>
#include <QUrl>
#include <QRegularExpression>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTableView>
#include <QTextBrowser>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QHeaderView>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextLayout>
#include "model/compiles_model.h"
#include "model/graph_breaks_model.h"
#include "model/logs_model.h"

#include "bundle/bundle_reader.h"
#include "bundle/bundle_writer.h"
#include "bundle/zip_archive.h"
#include "profile/trace_record.h"
#include "toolchain/cuda/cuda_compiler.h"
#include "panes/minify_pane.h"
#include "window/main_window.h"
#include "window/saved_layout.h"
#include "window/screenshot_when_done.h"
#include "core/json_text.h"
#include "gui_test_support.h"
#include "ssh_loopback.h"
#include "views/code_view.h"
#include "timeline/timeline_view.h"
#include "timeline/trace_tree_model.h"
#include "timeline/trace_view.h"
#include "views/fusion_stepper.h"
#include "views/graph_view.h"
#include "panes/fusion_pane.h"
#include "panes/graph_pane.h"
#include "model/compile_artifacts.h"
#include <QTabWidget>
#include "panes/modules_pane.h"
#include <QLineEdit>
#include <QTreeWidget>
#include <Qsci/qsciscintilla.h>

using namespace fusescope::gui;

namespace {

QStringList compileIds(QTreeView* view) {
    QStringList ids;
    QAbstractItemModel* m = view->model();
    for (int f = 0; f < m->rowCount(); ++f) {
        QModelIndex function = m->index(f, 0);
        for (int c = 0; c < m->rowCount(function); ++c) ids << m->index(c, 0, function).data().toString();
    }
    return ids;
}

// Writes `text` as NAME in `dir` and opens it in the window.
bool openWrittenScript(MainWindow& window, const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    QFile script(dir.filePath(name));
    if (!script.open(QIODevice::WriteOnly) || script.write(text) != text.size()) return false;
    script.close();
    return window.openFile(script.fileName());
}

}  // namespace

class MainWindowTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }  // autosave and settings stay out of the user's folders

    void anEditedScriptSurvivesTheWindowAndComesBack() {
        {
            MainWindow window(QString::fromStdString(test::cliPath()));
            QVERIFY(window.openFile(QString::fromStdString(test::sourcePath("tests/golden/inductor/seed000_fn.py"))));
            window.editor()->setText("print('not saved yet')\n");
            window.editor()->setModified(true);
            QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(MainWindow::autosavePathForTests()), 10000);
        }  // the window goes away as in a crash: nothing was saved
        MainWindow again(QString::fromStdString(test::cliPath()));
        QCOMPARE(again.editor()->text(), QString("print('not saved yet')\n"));
        QVERIFY(again.openFile(QString::fromStdString(test::sourcePath("tests/golden/inductor/seed000_fn.py"))));
        QVERIFY(!QFile::exists(MainWindow::autosavePathForTests()));  // opening a file retires the copy
    }

    // Closing with an edit not saved asks first, the title marked meanwhile: Cancel keeps the
    // window, Discard closes it and drops the autosaved copy.
    void closingWithUnsavedEditsAsksFirst() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        window.show();
        QVERIFY(window.openFile(QString::fromStdString(test::sourcePath("tests/golden/inductor/seed000_fn.py"))));
        QVERIFY(!window.isWindowModified());
        window.editor()->insert("# an edit\n");
        QVERIFY(window.isWindowModified());
        auto answer = [](QMessageBox::StandardButton button, QString* said) {
            QTimer::singleShot(50, [button, said] {
                auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
                if (!box) return;
                *said = box->text();
                box->button(button)->click();
            });
        };
        QString said;
        answer(QMessageBox::Cancel, &said);
        QVERIFY(!window.close());
        QCOMPARE(said, QString("Save the changes to seed000_fn.py before closing?"));
        QVERIFY(window.isVisible());
        answer(QMessageBox::Discard, &said);
        QVERIFY(window.close());
        QVERIFY(!QFile::exists(MainWindow::autosavePathForTests()));
    }

    // After a graph break inside a function the compiled one calls, where that function changed
    // a list before it (so the trace cannot start again to end its graph at the call, as
    // Dynamo's does), its compile has several graphs: each can be picked in any pane, every pane
    // follows, and so do the links from the script and the trace.
    void everyGraphOfACompileIsShownAndLinked() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QTemporaryDir dir;
        QVERIFY(openWrittenScript(window, dir, "nested_branch.py",
                                  "import torch\n"
                                  "\n"
                                  "calls = []\n"
                                  "def scaled(x):\n"
                                  "    calls.append(1)\n"
                                  "    if x.sum() > 0:\n"
                                  "        return x * 2\n"
                                  "    return x * 3\n"
                                  "\n"
                                  "\n"
                                  "@torch.compile\n"
                                  "def with_branch(x):\n"
                                  "    return scaled(x)\n"
                                  "\n"
                                  "\n"
                                  "v = torch.tensor([1.0, -2.0, 4.0])\n"
                                  "print(with_branch(v))\n"
                                  "calls.clear()  # the list as the first call found it: no recompile\n"
                                  "print(with_branch(-v))\n"));
        QVERIFY(window.setBackend("inductor"));
        QSignalSpy answered(&window.engine(), &EngineClient::answered);
        window.runScript();
        QVERIFY(answered.wait(60000));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        SelectionContext& selection = window.selection();
        selection.setCompileId("0/0");  // the condition's graph, then one per branch
        const QStringList graphs = {"__compiled_fn_0", "__compiled_fn_1", "__compiled_fn_2"};
        QCOMPARE(selection.compile().graphNames, graphs);
        QCOMPARE(selection.graphName(), graphs[0]);
        auto* graphPane = window.findChild<GraphPane*>();
        auto* fusionPane = window.findChild<FusionPane*>();
        QVERIFY(graphPane->graphPicker()->isVisibleTo(graphPane));
        QCOMPARE(graphPane->graphPicker()->count(), 3);
        QCOMPARE(graphPane->graphPicker()->currentText(), QString("__compiled_fn_0 (1 of 3)"));
        QCOMPARE(window.fusionStepper()->stepCount(), 1);  // the sum's reduction meets the comparison
        QCOMPARE(window.findChild<FusionPane*>()->emptyNote(), QString());

        // The Fusion pane's picker shows the second graph everywhere: drawn, stepped (it has no
        // decisions of its own) and picked in every other pane's picker.
        window.findChild<QDockWidget*>("fusionDock")->raise();
        QComboBox* picker = fusionPane->graphPicker();
        picker->setFocus();
        QTest::keyClick(picker, Qt::Key_Down);
        QCOMPARE(selection.graphName(), graphs[1]);
        QCOMPARE(graphPane->graphPicker()->currentIndex(), 1);
        QCOMPARE(window.fusionStepper()->stepCount(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(!window.graphView()->layoutPending(), 10000);
        QCOMPARE(window.graphView()->nodeNames(), (QStringList{"l_x_", "mul"}));

        // A script line of the third graph (return x * 3) shows it and selects its node.
        window.editor()->setCursorPosition(7, 8);
        QTRY_COMPARE(selection.graphName(), graphs[2]);
        QCOMPARE(selection.graphNode(), QString("mul"));
        QCOMPARE(fusionPane->graphPicker()->currentIndex(), 2);

        // A kernel of the first graph in the trace brings the first graph back.
        QString kernel = compileArtifacts(window.store(), "0/0", graphs[0]).provenance.kernelOf("buf0");
        QVERIFY(!kernel.isEmpty());
        selection.selectKernel("0/0", kernel);
        QCOMPARE(selection.graphName(), graphs[0]);
        QCOMPARE(selection.buffer(), compileArtifacts(window.store(), "0/0", graphs[0]).provenance.fusedNodeOf("buf0"));
    }

    // A bundle opens on its first compile (every pane filled), the Backend picker saying what
    // compiled it.
    void aBundleOpensOnItsFirstCompileAndSaysItsBackend() {
        QTemporaryDir dir;
        QString bundle = dir.filePath("seed000.fscope");
        QProcess cli;
        cli.start(QString::fromStdString(test::cliPath()),
                  {"run", QString::fromStdString(test::sourcePath("tests/golden/inductor/seed000_fn.py")), "--bundle", bundle});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        MainWindow window(QString::fromStdString(test::cliPath()));
        QCOMPARE(window.backendText(), QString("as the script says"));
        QVERIFY(window.openFile(bundle));
        QCOMPARE(window.selection().compileId(), QString("0/0"));
        QCOMPARE(window.fusionStepper()->stepCount(), 2);
        QVERIFY(window.postFusionView()->text().contains("buf0_buf1"));
        QTRY_VERIFY_WITH_TIMEOUT(!window.graphView()->layoutPending() && window.graphView()->nodeCount() == 6, 10000);
        QCOMPARE(window.backendText(), QString("as the script says (ran: inductor)"));
        QCOMPARE(window.compilesView()->currentIndex().data().toString(), QString("0/0"));
        // Opened again (as from the File menu, its 0/0 already on show): the tree is rebuilt
        // and 0/0 is picked in it again, not left collapsed with nothing selected.
        QVERIFY(window.openFile(bundle));
        QCOMPARE(window.selection().compileId(), QString("0/0"));
        QCOMPARE(window.compilesView()->currentIndex().data().toString(), QString("0/0"));
        QVERIFY(window.compilesView()->isExpanded(window.compilesView()->currentIndex().parent()));
    }

    // A bundle is read from elsewhere: a manifest whose backend option is not text (the
    // fuzzed bundle reader lets any JSON through there) opens on "as the script says".
    void aBundleWhoseBackendOptionIsNotTextStillOpens() {
        if (!fusescope::zipAvailable()) QSKIP("built without libzip");
        QTemporaryDir dir;
        QString bundle = dir.filePath("odd.fscope");
        using namespace fusescope;
        writeBundle(bundle.toStdString(), {{kManifestEntry, makeManifest("s.py", "cpu", {{"backend", 7}}).toJson().dump()},
                                           {std::string(kScriptFolder) + "s.py", "print(1)\n"},
                                           {kEventsEntry, R"({"type":"script_output","text":"1\n"})" "\n"}});
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(bundle));
        QCOMPARE(window.backendText(), QString("as the script says"));
        QCOMPARE(window.windowTitle(), QString("Fusescope - odd.fscope (bundle)[*]"));  // [*]: where Qt marks unsaved edits
        // Saved without its extension, a bundle is still known by its content, not shown as a script.
        QVERIFY(QFile::copy(bundle, dir.filePath("gpt_run")));
        QVERIFY(window.openFile(dir.filePath("gpt_run")));
        QCOMPARE(window.windowTitle(), QString("Fusescope - gpt_run (bundle)[*]"));
        QCOMPARE(window.editor()->text(), QString("print(1)\n"));
    }

    // A bundle recorded on an H200 (scripts/gpu-check: bench/scripts/gpu_trace_demo.py)
    // opens where there is no GPU: its 33 kernels are on the GPU 0 track, and the trace view
    // opens on the compiled graph's first kernel, not on the eager divisions launched before.
    void aGpuBundleShowsItsKernelsOnTheGpuTrackFromTheCompiledGraphsFirst() {
        if (!fusescope::zipAvailable()) QSKIP("this build has no libzip to read bundles");
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(QString::fromStdString(test::sourcePath("tests/gui/fixtures/gpu_trace_demo.fscope"))));
        QVERIFY(window.showView("trace"));
        TraceView* trace = window.traceView();
        QTRY_VERIFY_WITH_TIMEOUT(trace->selectionText().startsWith("cuda_fused_sum_div_sub_0 (kernel)"), 10000);
        QVERIFY(trace->selectionText().endsWith(", compile 0/0"));
        const TraceSpans* spans = trace->spans();
        int onGpu = 0;
        for (const TraceSpan& span : spans->spans)
            if (spans->tracks[static_cast<size_t>(span.track)].tid == fusescope::gpuTrackTid(0)) {
                QCOMPARE(span.category, SpanCategory::Kernel);
                ++onGpu;
            }
        QCOMPARE(onGpu, 33);
    }

    // `fusescope --run --view fusion --screenshot` on a big graph: the picture is taken once
    // every view is ready, and the step it opens on is drawn with its pair in view, though the
    // Fusion dock was behind the Graph dock while its layout ran.
    void aScreenshotOfTheFusionViewOfABigGraphShowsItsStep() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(QString::fromStdString(test::sourcePath("tests/gui/fixtures/wide_chain.py"))));
        QTemporaryDir dir;
        int status = -1;
        bool readyAtGrab = false;
        connect(&window.engine(), &EngineClient::answered, &window, [&window] { window.showView("fusion"); });  // as main() does
        screenshotWhenDone(window, dir.filePath("big.png"), true, [&](int s) {
            status = s;
            readyAtGrab = window.viewsReady();
        });
        window.runScript();
        QTRY_COMPARE_WITH_TIMEOUT(status, 0, 60000);
        QVERIFY(readyAtGrab);
        QVERIFY(QImage(dir.filePath("big.png")).width() > 0);
        FusionStepper* stepper = window.fusionStepper();
        QVERIFY2(stepper->step() > 50, qPrintable(QString::number(stepper->step())));
        GraphView* graph = stepper->graphView();
        QCOMPARE(graph->highlighted().size(), 1);  // fused: the group the step made
        QPoint centre = graph->nodeCentre(graph->highlighted().first());
        QVERIFY2(graph->viewport()->rect().contains(centre),
                 qPrintable(QString("(%1, %2) outside %3x%4").arg(centre.x()).arg(centre.y()).arg(graph->viewport()->width()).arg(graph->viewport()->height())));
    }

    // The toolbars hide nothing behind an overflow button: one row where the window is wide
    // enough, the run options under the run's actions in a 1024-pixel window.
    void theToolBarsHideNothingWideOrNarrow() {
        QSettings().remove("window");  // an earlier test's saved layout would be reset to fit the small offscreen screen
        MainWindow window(QString::fromStdString(test::cliPath()));
        auto* actions = window.findChild<QToolBar*>("runToolBar");
        auto* options = window.findChild<QToolBar*>("runOptionsToolBar");
        auto overflowing = [](QToolBar* bar) {
            auto* more = bar->findChild<QToolButton*>("qt_toolbar_ext_button");
            return more && more->isVisible();
        };
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE(options->y(), actions->y());
        QVERIFY(!overflowing(actions) && !overflowing(options));
        window.resize(1024, 700);
        QTRY_VERIFY(options->y() > actions->y());
        QVERIFY(!overflowing(actions) && !overflowing(options));
        window.resize(1600, 1000);
        QTRY_COMPARE(options->y(), actions->y());
        window.findChild<SavedLayout*>()->reset();  // the default layout restored: still no overflow
        window.resize(1024, 700);
        QTRY_VERIFY(options->y() > actions->y());
        window.findChild<SavedLayout*>()->reset();
        QTRY_VERIFY(options->y() > actions->y());
        QVERIFY(!overflowing(actions) && !overflowing(options));
    }

    // Narrowed from its default 1400 pixels to 1024 (issue 67 item 4), the window keeps the
    // editor a third of its width: the docks beside it give back width (the editor was left
    // about 100 pixels wide). A dock the user widens afterwards stays as wide.
    void aNarrowedWindowKeepsTheEditorReadable() {
        QSettings().remove("window");
        MainWindow window(QString::fromStdString(test::cliPath()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QWidget* central = window.centralWidget();
        auto* compilesDock = window.findChild<QDockWidget*>("compilesDock");
        window.resize(1400, 900);  // the default layout's proportions at its default size
        QTest::qWait(50);
        window.resizeDocks({compilesDock, window.findChild<QDockWidget*>("graphDock")}, {336, 560}, Qt::Horizontal);
        QTRY_VERIFY(central->width() >= 1400 / 3);
        window.resize(1024, 700);
        QTRY_VERIFY2(central->width() >= 1024 / 3 - 2, qPrintable(QString::number(central->width())));
        auto* graphDock = window.findChild<QDockWidget*>("graphDock");
        QVERIFY2(graphDock->width() >= 250, qPrintable(QString::number(graphDock->width())));
        QVERIFY2(compilesDock->width() >= 300, qPrintable(QString::number(compilesDock->width())));  // its names whole
        window.resizeDocks({graphDock}, {600}, Qt::Horizontal);
        QTest::qWait(50);
        QVERIFY2(central->width() < 1024 / 3, qPrintable(QString::number(central->width())));
    }

    // A fused name of 120 parts is shown shortened (whole in its tooltip): the window keeps
    // its size and the editor its room.
    void aLongFusedNameLeavesTheLayoutAlone() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const int width = window.width();
        QVERIFY(window.openFile(QString::fromStdString(test::sourcePath("tests/gui/fixtures/long_fusion_chain.py"))));
        QSignalSpy answered(&window.engine(), &EngineClient::answered);
        window.runScript();
        QVERIFY(answered.wait(60000));
        FusionStepper* stepper = window.fusionStepper();
        // The longest: a group at the scheduler's 64-node limit.
        int longest = 0;
        for (int i = 0; i < stepper->stepCount(); ++i)
            if (stepper->model()->steps()[i].node1.size() > stepper->model()->steps()[longest].node1.size()) longest = i;
        stepper->setStep(longest + 1);
        const FusionStep& last = stepper->model()->steps()[longest];
        QVERIFY2(last.node1.size() > 300, qPrintable(last.node1));
        QLabel* detail = nullptr;
        for (QLabel* label : stepper->findChildren<QLabel*>())
            if (label->text().startsWith(QString("Step %1:").arg(longest + 1))) detail = label;
        QVERIFY(detail);
        QVERIFY2(detail->text().size() < 300, qPrintable(detail->text()));
        QVERIFY2(detail->text().contains(QString("buf0_buf1_buf2_") + QChar(0x2026) + "_buf61_buf62_buf63 + buf64"), qPrintable(detail->text()));
        QCOMPARE(detail->toolTip(), stepper->detailText());
        QVERIFY(detail->toolTip().contains(last.node1));
        QTest::qWait(50);  // a layout pass
        QCOMPARE(window.width(), width);
        QVERIFY2(window.minimumSizeHint().width() < 1000, qPrintable(QString::number(window.minimumSizeHint().width())));
        // The graph's box is as short as the label.
        QTRY_VERIFY_WITH_TIMEOUT(!stepper->graphView()->layoutPending(), 10000);
        QVERIFY(stepper->graphView()->nodeLabel(last.result).size() <= 40);
    }

    // A layout that squeezes the editor is not saved; one saved before (an older version
    // saved anything) gives way to the default layout when the window shows.
    void aSavedLayoutThatDoesNotFitIsNeitherKeptNorRestored() {
        QSettings().remove("window");
        QByteArray squeezed;
        {
            MainWindow window(QString::fromStdString(test::cliPath()));
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.resizeDocks({window.findChild<QDockWidget*>("compilesDock"), window.findChild<QDockWidget*>("graphDock")},
                               {5000, 5000}, Qt::Horizontal);
            QTRY_VERIFY2(window.editor()->width() < 120, qPrintable(QString::number(window.editor()->width())));
            squeezed = window.saveState();
            window.close();
            QVERIFY(!QSettings().contains("window/state"));
        }
        QSettings().setValue("window/state", squeezed);
        MainWindow window(QString::fromStdString(test::cliPath()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY2(window.editor()->width() >= 120, qPrintable(QString::number(window.editor()->width())));
        QCOMPARE(window.statusText(), QString("The saved window layout did not fit this screen: the default layout is back."));
        QVERIFY(window.frameGeometry().width() <= window.screen()->availableGeometry().width());
        QSettings().remove("window");
    }

    // The Device picker's "cuda (GPU code only)": the Generated Code dock shows the CUDA
    // source and its PTX instead of C++, LLVM IR and assembly.
    void gpuCodeOnlyShowsCudaAndPtx() {
        if (!fusescope::CudaCompiler::available())
            QSKIP(qPrintable("no CUDA toolkit: " + QString::fromStdString(fusescope::CudaCompiler::unavailableReason())));
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(QString::fromStdString(test::sourcePath("resources/examples/13_gpu_kernels.py"))));
        QVERIFY(window.setBackend("inductor"));
        window.setGpuCodegenOnly(true);
        QSignalSpy answered(&window.engine(), &EngineClient::answered);
        window.runScript();
        QVERIFY(answered.wait(60000));
        QVERIFY2(window.statusText().startsWith("Finished"), qPrintable(window.statusText()));
        QTabWidget* tabs = window.codeTabs();
        QStringList visible;
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->isTabVisible(i)) visible << tabs->tabText(i);
        QCOMPARE(visible, (QStringList{"CUDA", "PTX", "SASS"}));
        QVERIFY(window.cppView()->text().contains(QRegularExpression(R"(extern "C" __global__ void (__launch_bounds__\(\d+\) )?cuda_fused_)")));
        QVERIFY(window.ptxView()->text().contains(".target sm_90"));
    }

    void checkAccuracyReportsTheInjectedError() {
        QTemporaryDir dir;
        QString path = dir.filePath("acc.py");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("import torch\n@torch.compile\ndef f(x):\n    return torch.relu(x) * 2\nprint(f(torch.ones(3)))\n");
        file.close();
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(path));
        QVERIFY(window.setBackend("relu_accuracy_error_TESTING_ONLY"));
        window.setCheckAccuracy(true);
        QSignalSpy answered(&window.engine(), &EngineClient::answered);
        window.runScript();
        QVERIFY(answered.wait(60000));
        QStringList failures;
        for (const auto& e : window.store().events())
            if (const auto* failure = std::get_if<fusescope::GraphFailureEvent>(&e)) failures << QString::fromStdString(failure->error);
        QCOMPARE(failures, QStringList{"Accuracy failed for __compiled_fn_0 (backend 'relu_accuracy_error_TESTING_ONLY'): "
                                       "output 0 (mul) element [0]: compiled 4, eager 2, float64 2 (tolerance rtol = atol = "
                                       "0.0001)"});
    }

    void minifyShowsTheMinimalGraphAndTheRepro() {
        QTemporaryDir dir;
        QString path = dir.filePath("broken.py");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("import torch\n@torch.compile\ndef f(x):\n    y = x.exp() + 1\n    return torch.relu(y * x) - y\n"
                   "print(f(torch.ones(3)))\n");
        file.close();
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(path));
        QVERIFY(window.setBackend("relu_compile_error_TESTING_ONLY"));
        QSignalSpy answered(&window.engine(), &EngineClient::answered);
        window.runScript();
        QVERIFY(answered.wait(60000));
        window.minifyFailure();
        QVERIFY(answered.wait(60000));
        MinifyPane* panel = window.minifyPane();
        QVERIFY2(panel->summary().contains("Went from 6 to 2 nodes."), qPrintable(panel->summary()));
        QVERIFY2(panel->summary().contains("The repro fails the same way: repro.py:12:12: error: BackendCompilerFailed"),
                 qPrintable(panel->summary()));
        QTRY_COMPARE(panel->graphView()->nodeCount(), 2);  // laid out on a worker thread
        QVERIFY(panel->repro().contains("relu = torch.relu("));
        // The saved script runs by its path, so modules of its own beside it are found.
        QVERIFY2(panel->progressText().startsWith(QString("Running %1 to find a failing graph\n").arg(path)), qPrintable(panel->progressText()));
        QVERIFY2(window.statusText() == "Minified: went from 6 to 2 nodes", qPrintable(window.statusText()));
    }

    // A training graph: the Graph pane draws AOT Autograd's forward, backward and joint graphs,
    // and a backward node selects the captured node it differentiates.
    void trainingGraphsAreDrawnAndLinkedToTheCapturedGraph() {
        QTemporaryDir dir;
        QString path = dir.filePath("train.py");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("import torch\nw = torch.nn.Parameter(torch.ones(4, 3))\n@torch.compile\ndef loss_of(x):\n"
                   "    y = torch.relu(x @ w)\n    return y.sum()\nloss_of(torch.ones(2, 4)).backward()\nprint(w.grad.sum())\n");
        file.close();
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(path));
        QSignalSpy answered(&window.engine(), &EngineClient::answered);
        window.runScript();
        QVERIFY(answered.wait(60000));
        QVERIFY2(window.statusText().startsWith("Finished"), qPrintable(window.statusText()));
        GraphPane* pane = window.graphPane();
        for (const char* stage : {"aot_forward_graph", "aot_backward_graph", "aot_joint_graph"}) QVERIFY2(pane->stageTabShown(stage), stage);
        GraphView* forward = pane->stageView("aot_forward_graph");
        GraphView* backward = pane->stageView("aot_backward_graph");
        QTRY_VERIFY_WITH_TIMEOUT(!backward->layoutPending() && backward->nodeCount() > 0, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!forward->layoutPending() && forward->nodeCount() > 0, 10000);
        QVERIFY2(forward->nodeNames().contains("relu"), qPrintable(forward->nodeNames().join(' ')));
        QVERIFY2(backward->nodeNames().contains("gt"), qPrintable(backward->nodeNames().join(' ')));  // relu's derivative
        QVERIFY(backward->nodeNames().contains("tangents_1"));
        // What the forward saves for backward (relu's result for its derivative, x for w's
        // gradient) is labelled with its sizes in both graphs, and filled alike.
        QCOMPARE(forward->nodeLabel("relu"), QString("relu\nsaved f32[2, 3]"));
        QCOMPARE(backward->nodeLabel("relu"), QString("relu\nsaved f32[2, 3]"));
        QCOMPARE(forward->nodeLabel("primals_1"), QString("primals_1\nsaved f32[2, 4]"));  // x
        QCOMPARE(forward->nodeLabel("primals_2"), QString("primals_2"));  // w: no gradient needs it
        QCOMPARE(forward->fillOf("relu"), forward->fillOf("primals_1"));
        QVERIFY(forward->fillOf("relu") != forward->fillOf("sum"));

        window.resize(1500, 950);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        pane->findChild<QTabWidget*>()->setCurrentWidget(backward);
        QTRY_VERIFY(backward->isVisible());
        QTest::mouseClick(backward->viewport(), Qt::LeftButton, {}, backward->nodeCentre("gt"));
        QCOMPARE(window.selection().graphNode(), QString("relu"));
        QCOMPARE(window.graphView()->highlighted(), QStringList{"relu"});
        QCOMPARE(forward->highlighted(), QStringList{"relu"});
        QVERIFY2(backward->highlighted().contains("gt"), qPrintable(backward->highlighted().join(' ')));
        // The captured graph's matmul: the forward's matmul and every backward node of its derivative.
        window.selection().selectGraphNode("matmul");
        QCOMPARE(forward->highlighted(), QStringList{"matmul"});
        QVERIFY(!backward->highlighted().isEmpty());
        QVERIFY(!backward->highlighted().contains("gt"));
    }

    void seed000RunFillsEveryView() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(QString::fromStdString(test::sourcePath("tests/golden/inductor/seed000_fn.py"))));
        QSignalSpy answered(&window.engine(), &EngineClient::answered);
        window.runScript();
        QVERIFY(answered.wait(60000));
        QVERIFY2(window.statusText().startsWith("Finished"), qPrintable(window.statusText()));
        QCOMPARE(compileIds(window.compilesView()), QStringList{"0/0"});
        QCOMPARE(window.selection().compileId(), QString("0/0"));
        QVERIFY(window.postFusionView()->text().contains("buf0_buf1"));
        QVERIFY(window.cppView()->text().contains("cpp_fused"));
        // The captured graph is drawn: its two inputs, add, realize, add_1 and matmul.
        QTRY_VERIFY_WITH_TIMEOUT(!window.graphView()->layoutPending() && window.graphView()->nodeCount() > 0, 10000);
        QCOMPARE(window.graphView()->nodeCount(), 6);
        QVERIFY(window.graphView()->findNode("add"));
        QVERIFY(!window.graphView()->findNode("no_such_node"));
        // Nodes are filled by the kernel they end in: add and add_1 share one, matmul is the mm.
        QCOMPARE(window.graphView()->fillOf("add"), window.graphView()->fillOf("add_1"));
        QVERIFY(window.graphView()->fillOf("add") != window.graphView()->fillOf("matmul"));

        // The fusion stepper holds the decision that fused buf0 and buf1.
        FusionStepper* stepper = window.fusionStepper();
        QCOMPARE(stepper->stepCount(), 2);
        const FusionStep& first = stepper->model()->steps()[0];
        QVERIFY(first.fused);
        QCOMPARE((QStringList{first.node1, first.node2, first.result}), (QStringList{"buf0", "buf1", "buf0_buf1"}));

        // Clicking graph node `add` selects buf0: its block in both IR dumps, its C++ lines.
        window.resize(1500, 950);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        GraphView* graph = window.graphView();
        QVERIFY(graph->findNode("add"));
        QTest::mouseClick(graph->viewport(), Qt::LeftButton, {}, graph->nodeCentre("add"));
        QCOMPARE(window.selection().graphNode(), QString("add"));
        QCOMPARE(window.selection().buffer(), QString("buf0"));
        QCOMPARE(graph->highlighted(), QStringList{"add"});
        // Find (type, then Enter) chooses the node as a click does: the selection and every pane follow.
        auto* find = window.findChild<QLineEdit*>("graphFind");
        QVERIFY(find);
        QTest::keyClicks(find, "matmul");
        QCOMPARE(window.selection().graphNode(), QString("add"));  // typing only shows the match
        QTest::keyClick(find, Qt::Key_Return);
        QCOMPARE(window.selection().graphNode(), QString("matmul"));
        QCOMPARE(graph->highlighted(), QStringList{"matmul"});
        QTRY_COMPARE(window.afterFusionView()->highlighted(), QStringList{"buf2"});
        find->clear();
        QTest::mouseClick(graph->viewport(), Qt::LeftButton, {}, graph->nodeCentre("add"));
        QCOMPARE(window.selection().graphNode(), QString("add"));
        // The post-fusion graph: the two inputs, the fused kernel (outlined: it holds buf0) and the mm.
        QTRY_VERIFY_WITH_TIMEOUT(!window.afterFusionView()->layoutPending() && window.afterFusionView()->nodeCount() == 4, 10000);
        QCOMPARE(window.afterFusionView()->nodeNames(), (QStringList{"arg0_1", "arg1_1", "buf0_buf1", "buf2"}));
        QCOMPARE(window.afterFusionView()->highlighted(), QStringList{"buf0_buf1"});
        auto lines = [](CodeView* view) {
            QStringList out;
            for (int line : view->highlightedLines()) out << view->text(line - 1).trimmed();
            return out;
        };
        // Above the IR: why buf0 is a buffer at all.
        auto* why = window.findChild<QLabel*>("realizationReason");
        QVERIFY(why && why->isVisible());
        QCOMPARE(why->text(), QString("buf0 is a buffer: torch._inductor.test_operators.realize()"));
        QStringList pre = lines(window.preFusionView());
        QCOMPARE(pre.size(), 21);
        QCOMPARE(pre.first(), QString("buf0: SchedulerNode(ComputedBuffer)"));
        QCOMPARE(pre.last(), QString("return store"));
        QStringList post = lines(window.postFusionView());
        QCOMPARE(post.size(), 21);
        QCOMPARE(post.first(), QString("buf0: SchedulerNode(ComputedBuffer)"));
        QStringList cpp = lines(window.cppView());
        QVERIFY2(cpp.contains("buf0[m0_get_index_1] = m0_add;"), qPrintable(cpp.join('\n')));
        QVERIFY(cpp.contains("cpp_fused_add_realize_0(arg0_1, buf0, buf1);"));
        QVERIFY(cpp.filter("m1_").isEmpty());
        QCOMPARE(cpp.filter("m0_").size(), 6);

        // And back: a C++ line of buf1 selects buf1 and the graph node it computes.
        int store = window.cppView()->text().split('\n').indexOf(QRegularExpression(R"(\s*buf1\[m1_get_index_1\] = m1_add;)"));
        QVERIFY(store >= 0);
        window.findChild<QDockWidget*>("codeDock")->raise();  // Scintilla reports the cursor when it paints
        window.cppView()->setCursorPosition(store, 0);
        QTRY_COMPARE(window.selection().buffer(), QString("buf1"));
        QCOMPARE(window.selection().graphNode(), QString("add_1"));
        QCOMPARE(why->text(), QString("buf1 is a buffer: an operand of a matrix product (BLAS reads row- or column-major storage)"));
        QCOMPARE(graph->highlighted(), QStringList{"add_1"});
        // The script line of the selected node is marked in the editor.
        QCOMPARE(window.editor()->markerFindNext(0, 1), 6);  // line 7: a = test_operators.realize(a + 1) + 2

        // And from the script: line 8 (return torch.matmul(a, b)) selects matmul and its mm.
        window.editor()->setCursorPosition(7, 4);
        QTRY_COMPARE(window.selection().graphNode(), QString("matmul"));
        QCOMPARE(window.selection().buffer(), QString("buf2"));
        QCOMPARE(window.editor()->markerFindNext(0, 1), 7);

        // A kernel in the execution trace selects the fused group it computes.
        window.findChild<QDockWidget*>("traceDock")->raise();
        TraceView* trace = window.traceView();
        QTRY_VERIFY_WITH_TIMEOUT(!trace->indexPending() && trace->spans() && !trace->spans()->spans.empty(), 10000);
        int32_t kernel = -1;
        for (size_t i = 0; i < trace->spans()->spans.size() && kernel < 0; ++i)
            if (trace->spans()->nameOf(int32_t(i)) == "cpp_fused_add_realize_0") kernel = int32_t(i);
        QVERIFY(kernel >= 0);
        // Its inputs with their shapes, not flattened: arg0_1 and buf0, buf1 (16 x 16 each).
        QCOMPARE(trace->model()->indexOfSpan(kernel).siblingAtColumn(TraceTreeModel::ShapesColumn).data().toString(),
                 QString("[[16,16],[16,16],[16,16]]"));
        trace->selectSpan(kernel);  // brings it into view, reporting nothing
        QCOMPARE(window.selection().buffer(), QString("buf2"));
        QTest::mouseClick(trace->timeline()->viewport(), Qt::LeftButton, {}, trace->timeline()->centreOf(kernel));
        QCOMPARE(window.selection().buffer(), QString("buf0_buf1"));
        QCOMPARE(window.afterFusionView()->highlighted(), QStringList{"buf0_buf1"});
    }

    // Calls of one extern kernel share its name: each extern_kernels.mm span in the trace
    // selects the product it computed, not the first one.
    void eachProductInTheTraceSelectsItsOwnBuffer() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QTemporaryDir dir;
        QVERIFY(openWrittenScript(window, dir, "products.py",
                                  "import torch\n@torch.compile\ndef f(a, b):\n    return (a @ b).relu() @ b + 1\n"
                                  "print(f(torch.ones(16, 16), torch.ones(16, 16)).sum())\n"));
        QSignalSpy answered(&window.engine(), &EngineClient::answered);
        window.runScript();
        QVERIFY(answered.wait(60000));
        window.resize(1500, 950);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.findChild<QDockWidget*>("traceDock")->raise();
        TraceView* trace = window.traceView();
        QTRY_VERIFY_WITH_TIMEOUT(!trace->indexPending() && trace->spans() && !trace->spans()->spans.empty(), 10000);
        QStringList selected;
        for (size_t i = 0; i < trace->spans()->spans.size(); ++i) {
            if (trace->spans()->nameOf(int32_t(i)) != "extern_kernels.mm") continue;
            trace->selectSpan(int32_t(i));  // into view
            QTest::mouseClick(trace->timeline()->viewport(), Qt::LeftButton, {}, trace->timeline()->centreOf(int32_t(i)));
            selected << window.selection().buffer();
        }
        QCOMPARE(selected.size(), 2);
        QVERIFY2(selected[0] != selected[1] && !selected[0].isEmpty() && !selected[1].isEmpty(), qPrintable(selected.join(", ")));
    }

    // The trace follows the selection: a node selected elsewhere shows a call of its kernel,
    // and a call the user picked stays on show while its node is selected.
    void theTraceShowsTheKernelOfTheSelectedNode() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QTemporaryDir dir;
        QVERIFY(openWrittenScript(window, dir, "twice.py",
                                  "import torch\n@torch.compile\ndef f(a):\n    return (a @ a).relu() + 1\n"
                                  "for _ in range(2):\n    print(f(torch.ones(8, 8)).sum())\n"));
        QSignalSpy answered(&window.engine(), &EngineClient::answered);
        window.runScript();
        QVERIFY(answered.wait(60000));
        TraceView* trace = window.traceView();
        QTRY_VERIFY_WITH_TIMEOUT(!trace->indexPending() && trace->spans() && !trace->spans()->spans.empty(), 10000);
        const CompileProvenance& provenance = window.selection().provenance();
        QStringList kernels;
        for (const auto& node : provenance.preFusionNodes()) {
            window.selection().selectSchedulerNode(node.name);
            const QString kernel = provenance.kernelOf(window.selection().buffer());
            QVERIFY2(trace->selectionText().startsWith(kernel + " (kernel)"), qPrintable(trace->selectionText() + " / " + kernel));
            kernels << kernel;
        }
        QVERIFY2(kernels.contains("extern_kernels.mm") && kernels.size() >= 2, qPrintable(kernels.join(", ")));
        // The second call of the last kernel, picked in the trace, stays on show.
        std::vector<int32_t> calls;
        for (size_t i = 0; i < trace->spans()->spans.size(); ++i)
            if (QString::fromStdString(trace->spans()->nameOf(int32_t(i))) == kernels.last()) calls.push_back(int32_t(i));
        QCOMPARE(calls.size(), size_t(2));
        trace->tree()->setCurrentIndex(trace->model()->indexOfSpan(calls[1]));
        QCOMPARE(provenance.kernelOf(window.selection().buffer()), kernels.last());
        QCOMPARE(trace->tree()->currentIndex(), trace->model()->indexOfSpan(calls[1]));
    }

    // A kernel clicked in the trace docked above the editor (which leaves the editor short)
    // scrolls the editor to the kernel's line, far down the script, and marks it.
    void aKernelsLineComesIntoViewWithTheTraceAboveTheEditor() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QTemporaryDir dir;
        QByteArray script = "import torch\n";
        for (int i = 2; i < 34; ++i) script += "# line " + QByteArray::number(i) + "\n";
        script += "@torch.compile\ndef f(a):\n    return (a * 2).sin()\nprint(f(torch.ones(8)).sum())\n";  // lines 34-37
        QVERIFY(openWrittenScript(window, dir, "far_down.py", script));
        QSignalSpy answered(&window.engine(), &EngineClient::answered);
        window.runScript();
        QVERIFY(answered.wait(60000));
        window.resize(1024, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* traceDock = window.findChild<QDockWidget*>("traceDock");
        window.addDockWidget(Qt::TopDockWidgetArea, traceDock);
        traceDock->show();
        window.editor()->setCursorPosition(0, 0);
        TraceView* trace = window.traceView();
        QTRY_VERIFY_WITH_TIMEOUT(!trace->indexPending() && trace->spans() && !trace->spans()->spans.empty(), 10000);
        int32_t kernel = -1;
        for (size_t i = 0; i < trace->spans()->spans.size() && kernel < 0; ++i)
            if (trace->spans()->spans[i].category == SpanCategory::Kernel) kernel = int32_t(i);
        QVERIFY(kernel >= 0);
        trace->selectSpan(kernel);  // into view
        QTest::mouseClick(trace->timeline()->viewport(), Qt::LeftButton, {}, trace->timeline()->centreOf(kernel));
        QsciScintilla* editor = window.editor();
        QVERIFY(editor->markersAtLine(35) != 0);  // return (a * 2).sin(), 0-based
        QTRY_VERIFY_WITH_TIMEOUT([&] {
            const auto first = editor->SendScintilla(QsciScintillaBase::SCI_GETFIRSTVISIBLELINE);
            const auto shown = editor->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN);
            return shown > 0 && first <= 35 && 35 < first + shown;
        }(), 5000);
    }

    void theModuleTreeAndTheGraphFollowEachOther() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(QString::fromStdString(test::sourcePath("resources/examples/16_gpt_language_model.py"))));
        QSignalSpy answered(&window.engine(), &EngineClient::answered);
        window.runScript();
        QVERIFY(answered.wait(60000));
        GraphView* graph = window.graphView();
        QTRY_VERIFY_WITH_TIMEOUT(!graph->layoutPending() && graph->nodeCount() > 0, 10000);
        // The GPT's modules, top level first; its blocks open, their parts closed.
        QTreeWidget* tree = window.modulesPane()->tree();
        QStringList top;
        for (int i = 0; i < tree->topLevelItemCount(); ++i) top << tree->topLevelItem(i)->text(0);
        QCOMPARE(top, (QStringList{"wte", "wpe", "blocks.0", "blocks.1", "ln_f", "lm_head"}));
        QTreeWidgetItem* block = tree->topLevelItem(2);
        QCOMPARE(block->text(1), QString("Block"));
        QCOMPARE(block->child(1)->text(0), QString("attn"));
        QCOMPARE(block->child(1)->text(1), QString("CausalSelfAttention"));
        QVERIFY(graph->isModuleExpanded("blocks.0"));
        QVERIFY(graph->collapsedModules().contains("blocks.0.attn"));

        // Clicking a module selects it: the editor marks its class; double-clicking expands it.
        window.resize(1500, 950);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTreeWidgetItem* attn = block->child(1);
        tree->scrollToItem(attn);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(attn).center());
        QCOMPARE(window.selection().module(), QString("blocks.0.attn"));
        QCOMPARE(window.editor()->markerFindNext(0, 1), 22);  // line 23: class CausalSelfAttention(nn.Module):
        // Its buffers light up in the IR and its kernels in the C++: its fused attention among
        // them, not the whole program.
        auto highlighted = [](CodeView* view) {
            QString text;
            for (int line : view->highlightedLines()) text += view->text(line - 1);
            return text;
        };
        QVERIFY(highlighted(window.cppView()).contains("extern_kernels.flash_attention"));
        QVERIFY(window.cppView()->highlightedLines().size() < window.cppView()->lines() / 2);
        QVERIFY(!window.preFusionView()->highlightedLines().isEmpty());
        QVERIFY(window.preFusionView()->highlightedLines().size() < window.preFusionView()->lines() / 2);
        QVERIFY(!window.postFusionView()->highlightedLines().isEmpty());
        QTest::mouseDClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(attn).center());
        QTRY_VERIFY(graph->isModuleExpanded("blocks.0.attn"));
        QTRY_VERIFY_WITH_TIMEOUT(!graph->layoutPending(), 10000);

        // A node clicked in the graph selects the module it ran in.
        QString node = "linear";  // the first product: blocks.0's qkv, inside a collapsed module
        QVERIFY(graph->findNode(node));
        QTRY_VERIFY_WITH_TIMEOUT(!graph->layoutPending(), 10000);
        QVERIFY(graph->isModuleExpanded("blocks.0.attn.qkv"));
        QTest::mouseClick(graph->viewport(), Qt::LeftButton, {}, graph->nodeCentre(node));
        QCOMPARE(window.selection().graphNode(), node);
        QVERIFY(tree->currentItem());
        QCOMPARE(tree->currentItem()->toolTip(0), QString("blocks.0.attn.qkv"));

        // The filter keeps the modules that match and those above them.
        window.modulesPane()->filter()->setText("mlp");
        QVERIFY(!block->isHidden());
        QVERIFY(block->child(1)->isHidden());
        QVERIFY(tree->topLevelItem(0)->isHidden());
    }

    void activatingAGraphBreakShowsItsLineInTheEditor() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(QString::fromStdString(test::sourcePath("resources/examples/02_graph_breaks.py"))));
        QSignalSpy answered(&window.engine(), &EngineClient::answered);
        window.runScript();
        QVERIFY(answered.wait(60000));
        // The script compiles with backend="eager": the loop-IR panes say why they are empty.
        const QString eagerNote = "Backend eager makes no loop IR, fusion or generated code: pick inductor in the Backend "
                                  "picker (or write torch.compile(backend=\"inductor\")) and run again.";
        for (const char* pane : {"fusescope::gui::IrPane", "fusescope::gui::CodePane", "fusescope::gui::FusionPane"}) {
            Pane* shown = nullptr;
            for (Pane* p : window.findChildren<Pane*>())
                if (QString(p->metaObject()->className()) == pane) shown = p;
            QVERIFY2(shown, pane);
            QCOMPARE(shown->emptyNote(), eagerNote);
        }
        QTableView* breaks = window.graphBreaksView();
        QCOMPARE(breaks->model()->rowCount(), 4);
        // Ranked by what each cost once the run ends: found by its reason.
        QModelIndexList branches = breaks->model()->match(breaks->model()->index(0, GraphBreaksModel::ReasonColumn), Qt::DisplayRole,
                                                          "Data-dependent branching", 1, Qt::MatchExactly);
        QCOMPARE(branches.size(), 1);
        QModelIndex second = branches.first();
        // Selecting it shows what PyTorch's registry says of it, with the link to its page.
        breaks->setCurrentIndex(second);
        auto* details = window.findChild<QTextBrowser*>("graphBreakDetails");
        QVERIFY(details);
        QVERIFY2(details->toPlainText().contains("Use `torch.cond` to express dynamic control flow."), qPrintable(details->toPlainText()));
        QVERIFY(details->toHtml().contains("https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0170.html"));
        QVERIFY(details->openExternalLinks());
        Q_EMIT breaks->activated(second);
        int line = -1, column = -1;
        window.editor()->getCursorPosition(&line, &column);
        QCOMPARE(line + 1, 15);

        // The Logs view filters by artifact: the four graph-break records.
        auto* logsDock = window.findChild<QDockWidget*>("logsDock");
        QComboBox* artifact = nullptr;
        for (auto* combo : logsDock->findChildren<QComboBox*>())
            if (combo->itemText(0) == "All artifacts") artifact = combo;
        QVERIFY(artifact);
        int all = logsDock->findChild<QTableView*>()->model()->rowCount();
        artifact->setCurrentIndex(artifact->findText("graph_breaks"));
        QCOMPARE(logsDock->findChild<QTableView*>()->model()->rowCount(), 4);
        artifact->setCurrentIndex(0);
        QCOMPARE(logsDock->findChild<QTableView*>()->model()->rowCount(), all);

        // A multi-line record (GUARDS:) is one row saying how many lines follow; selected, it
        // is shown whole under the table.
        artifact->setCurrentIndex(artifact->findText("guards"));
        QTableView* logTable = logsDock->findChild<QTableView*>();
        QModelIndex guards = logTable->model()->index(0, LogsModel::MessageColumn);
        QVERIFY2(guards.data().toString().startsWith("GUARDS: … (+"), qPrintable(guards.data().toString()));
        logTable->setCurrentIndex(guards);
        auto* record = logsDock->findChild<QPlainTextEdit*>("logRecord");
        QCOMPARE(record->toPlainText(), guards.data(Qt::ToolTipRole).toString());
        QVERIFY2(record->toPlainText().count('\n') >= 1, qPrintable(record->toPlainText()));
        artifact->setCurrentIndex(0);

        // Sizing: the break's reason is not cut while the source line takes the width; every
        // column of Compiles shows in its dock; Output does not wrap a printed tensor.
        window.resize(1500, 950);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.findChild<QDockWidget*>("breaksDock")->raise();
        QTRY_VERIFY(breaks->isVisible());
        const QString reason = second.data().toString();
        QVERIFY2(breaks->columnWidth(GraphBreaksModel::ReasonColumn) > breaks->fontMetrics().horizontalAdvance(reason),
                 qPrintable(QString::number(breaks->columnWidth(GraphBreaksModel::ReasonColumn))));
        QTreeView* compiles = window.compilesView();
        QHeaderView* header = compiles->header();
        QVERIFY2(header->sectionViewportPosition(CompilesModel::HitsColumn) + header->sectionSize(CompilesModel::HitsColumn) <=
                     compiles->viewport()->width(),
                 qPrintable(QString("%1 + %2 > %3").arg(header->sectionViewportPosition(CompilesModel::HitsColumn))
                                .arg(header->sectionSize(CompilesModel::HitsColumn)).arg(compiles->viewport()->width())));
        auto* output = window.findChild<QDockWidget*>("outputDock")->findChild<QPlainTextEdit*>();
        output->setPlainText(QString("tensor([%1])").arg(QString("0.1234, ").repeated(40)));
        QCOMPARE(output->document()->firstBlock().layout()->lineCount(), 1);

        // Each break is noted under its line in the editor.
        QCOMPARE(window.editor()->annotation(14),
                 QString("graph break (2/0): Data-dependent branching"));
        QCOMPARE(window.editor()->annotation(8), QString("graph break (0/0): Failed to trace builtin operator"));
        QCOMPARE(window.editor()->annotation(9), QString());

        // The run left its bundle behind: exporting it gives back the same events.
        QTemporaryDir dir;
        QString exported = dir.filePath("breaks.fscope");
        QVERIFY(window.exportBundle(exported));
        fusescope::Bundle bundle = fusescope::readBundle(exported.toStdString());
        QCOMPARE(int(bundle.events.size()), window.store().eventCount());
        const size_t liveSpans = window.store().traces().size();
        QVERIFY(liveSpans > 0);
        QCOMPARE(bundle.manifest.script, std::string("02_graph_breaks.py"));

        // Dropping the bundle on the window opens it, and it joins Open Recent.
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(exported)});
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        static_cast<QObject&>(window).event(&drop);  // straight to the handler: QApplication drops synthetic drag events
        QCOMPARE(window.windowTitle(), QString("Fusescope - breaks.fscope (bundle)[*]"));
        QCOMPARE(window.store().eventCount(), int(bundle.events.size()));
        QCOMPARE(window.store().traces().size(), liveSpans);  // read compactly, the same spans
        QCOMPARE(window.editor()->annotation(14).left(18), QString("graph break (2/0):"));
        QCOMPARE(window.recentFiles().value(0), exported);
        QCOMPARE(window.recentFiles().value(1), QString::fromStdString(test::sourcePath("resources/examples/02_graph_breaks.py")));
    }

    void viewMenuBringsBackClosedDocksAndPicksTheLanguage() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* logs = window.findChild<QDockWidget*>("logsDock");
        logs->close();
        QVERIFY(!logs->isVisible());
        QMenu* view = nullptr;
        for (QAction* a : window.menuBar()->actions())
            if (a->text() == "&View") view = a->menu();
        QVERIFY(view);
        auto action = [](QMenu* menu, const QString& text) -> QAction* {
            for (QAction* a : menu->actions())
                if (a->text() == text) return a;
            return nullptr;
        };
        QVERIFY(action(view, "Logs"));
        action(view, "Logs")->trigger();
        QVERIFY(logs->isVisible());
        window.findChild<QDockWidget*>("outputDock")->close();
        action(view, "&Reset Layout")->trigger();
        QVERIFY(window.findChild<QDockWidget*>("outputDock")->isVisible());
        QMenu* language = action(view, "&Language")->menu();
        action(language, "中文（简体）")->trigger();
        QCOMPARE(QSettings().value("ui/language").toString(), QString("zh_CN"));
        action(language, "System default")->trigger();
        QCOMPARE(QSettings().value("ui/language").toString(), QString());
    }

    void aKilledEngineKeepsTheWindowAndItsEventsAndRestarts() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        window.show();
        QSignalSpy died(&window.engine(), &EngineClient::engineDied);
        window.openFile(QString::fromStdString(test::sourcePath("tests/golden/inductor/seed000_fn.py")));
        // The example compiles, then the script spins until the engine is killed.
        QFile f(QString::fromStdString(test::sourcePath("tests/golden/inductor/seed000_fn.py")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString spinning = QString::fromUtf8(f.readAll()) + "\nwhile True:\n    pass\n";
        QTemporaryDir dir;
        QFile script(dir.filePath("spin.py"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(spinning.toUtf8());
        script.close();
        QVERIFY(window.openFile(script.fileName()));
        window.runScript();
        QTRY_VERIFY_WITH_TIMEOUT(window.cppView()->text().contains("cpp_fused"), 60000);
        int received = window.store().size();
        window.engine().kill();
        QVERIFY(died.wait(10000));
        QVERIFY(window.isVisible());
        QVERIFY2(window.statusText().contains("while running spin.py"), qPrintable(window.statusText()));
        QVERIFY(window.store().size() >= received);
        QCOMPARE(compileIds(window.compilesView()), QStringList{"0/0"});

        QSignalSpy answered(&window.engine(), &EngineClient::answered);
        window.engine().restart();
        QVERIFY(window.openFile(QString::fromStdString(test::sourcePath("tests/golden/inductor/seed000_fn.py"))));
        window.runScript();
        QVERIFY(answered.wait(60000));
        QVERIFY(window.postFusionView()->text().contains("buf0_buf1"));
    }

    // The engine over SSH (docs/remote.md), on a real sshd on a loopback port: a script with a
    // module of its own beside it runs as it runs here (the same events, its bundle written on
    // this side); killing sshd's sessions mid-run says in the status bar that the connection
    // was lost and keeps what came; Restart Engine connects again.
    void anEngineOverSshRunsAsALocalOneAndSurvivesALostConnection() {
        fusescope::loopback::SshLoopback sshd;
        QVERIFY2(sshd.error().empty(), sshd.error().c_str());
        qputenv("FUSESCOPE_SSH_COMMAND", QByteArray::fromStdString(sshd.sshCommand()));
        auto unset = qScopeGuard([] { qunsetenv("FUSESCOPE_SSH_COMMAND"); });
        QTemporaryDir project;
        auto write = [&](const QString& name, const QByteArray& text) {
            QFile f(project.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        write("model.py", "import torch\n\ndef scaled(x):\n    return torch.relu(x * 2.0) + 1\n");
        const QByteArray train = "import torch\nfrom model import scaled\n\nf = torch.compile(scaled)\nprint(f(torch.arange(6.0) - 3))\n";
        write("train.py", train);
        write("spin.py", train + "while True:\n    pass\n");
        auto runToTheEnd = [](MainWindow& w, const QString& script) {
            QSignalSpy answered(&w.engine(), &EngineClient::answered);
            if (!w.openFile(script)) return false;
            w.runScript();
            return answered.wait(60000);
        };
        // Its events without what differs between two runs: times, threads, addresses.
        auto comparable = [](const RunStore& store) {
            static const QRegularExpression timed("\"(\\w*seconds\\w*|\\w*_ns|tid|from_cache)\":[^,}]*,?"), address(", \\d{9,}\\)"),
                latency("latency = [0-9.]+ us");
            QStringList texts;
            for (const auto& e : store.events())
                texts << QString::fromStdString(fusescope::jsonText(fusescope::eventToJson(e)))
                             .remove(timed)
                             .replace(address, ", <id>)")
                             .replace(latency, "latency = <t> us");
            return texts;
        };
        MainWindow local(QString::fromStdString(test::cliPath()));
        QVERIFY(runToTheEnd(local, project.filePath("train.py")));

        MainWindow window(QString::fromStdString(test::cliPath()));
        const QString url = QString::fromStdString(sshd.url(test::cliPath()));
        QVERIFY(window.connectEngine(url, MainWindow::EngineChoice::ThisSession));
        QCOMPARE(window.engineAddressText(), url);
        QVERIFY(runToTheEnd(window, project.filePath("train.py")));
        QVERIFY2(window.statusText().startsWith("Finished"), qPrintable(window.statusText()));
        QCOMPARE(comparable(window.store()), comparable(local.store()));
        QVERIFY(window.store().traces().size() > 0);
        QCOMPARE(window.store().traces().size(), local.store().traces().size());
        if (fusescope::zipAvailable()) {  // the run's bundle came back: File > Export Bundle has it
            const QString exported = project.filePath("remote.fscope");
            QVERIFY(window.exportBundle(exported));
            QCOMPARE(QString::fromStdString(fusescope::readBundle(exported.toStdString()).script), QString::fromUtf8(train));
        }

        // The connection lost mid-run.
        QSignalSpy died(&window.engine(), &EngineClient::engineDied);
        QVERIFY(window.openFile(project.filePath("spin.py")));
        window.runScript();
        QTRY_VERIFY_WITH_TIMEOUT(window.cppView()->text().contains("cpp_fused"), 60000);
        const int received = window.store().size();
        QVERIFY(sshd.killSessions() > 0);
        QVERIFY(died.wait(20000));
        const QString lost = QString("the connection to %1@127.0.0.1:%2 was lost").arg(QString::fromStdString(sshd.user())).arg(sshd.port());
        QVERIFY2(window.statusText().startsWith(lost) && window.statusText().endsWith("while running spin.py"), qPrintable(window.statusText()));
        QVERIFY(window.store().size() >= received);
        QCOMPARE(compileIds(window.compilesView()), QStringList{"0/0"});

        // Restart Engine: connected again.
        window.engine().restart();
        QVERIFY(runToTheEnd(window, project.filePath("train.py")));
        QCOMPARE(comparable(window.store()), comparable(local.store()));
    }

    // A script that allocates without end meets the engine's memory limit: its run fails at
    // the allocating line, the window keeps the compile and the output that came before and
    // says the limit was the cause, and the same engine serves the next run.
    void aRunThatExhaustsTheEnginesMemoryLimitKeepsWhatCameAndSaysSo() {
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("an AddressSanitizer build applies no memory limit");
#endif
        MainWindow window(QString::fromStdString(test::cliPath()));
        window.engine().setMemoryLimitMiB(384);
        QFile f(QString::fromStdString(test::sourcePath("tests/golden/inductor/seed000_fn.py")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QTemporaryDir dir;
        QFile script(dir.filePath("hog.py"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(f.readAll() + "\nkept = []\nfor i in range(1000):\n    kept.append(torch.ones(1000000))\nprint('all kept')\n");
        script.close();
        QVERIFY(window.openFile(script.fileName()));
        QSignalSpy failed(&window.engine(), &EngineClient::failed);
        window.runScript();
        QVERIFY(failed.wait(60000));
        QCOMPARE(compileIds(window.compilesView()), QStringList{"0/0"});
        QVERIFY(window.postFusionView()->text().contains("buf0_buf1"));
        QVERIFY2(window.statusText().contains("not enough memory: you tried to allocate 4000000 bytes. (the engine may take 384 MiB, "
                                              "its memory limit; what the run produced before is kept)"),
                 qPrintable(window.statusText()));
        QVERIFY(window.engine().isRunning());

        QSignalSpy answered(&window.engine(), &EngineClient::answered);
        QVERIFY(window.openFile(QString::fromStdString(test::sourcePath("tests/golden/inductor/seed000_fn.py"))));
        window.runScript();
        QVERIFY(answered.wait(60000));
    }

    // Restart Engine mid-run ends the run: the busy bar and Cancel go, the status says so.
    void restartingTheEngineMidRunLeavesNothingBusy() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        window.show();
        QTemporaryDir dir;
        QVERIFY(openWrittenScript(window, dir, "spin.py", "print('spinning')\nwhile True:\n    pass\n"));
        window.runScript();
        QTRY_VERIFY_WITH_TIMEOUT(window.engine().activeRun() != 0, 10000);
        auto* progress = window.statusBar()->findChild<QProgressBar*>();
        QVERIFY(progress && progress->isVisible());
        window.findChild<QAction*>("restartEngine")->trigger();
        QVERIFY(!progress->isVisible());
        QCOMPARE(window.statusText(), QString("Engine restarted"));
        QTRY_VERIFY_WITH_TIMEOUT(window.viewsReady(), 10000);
    }

    void aScreenshotIsTakenAndTheAppEndsWhenTheEngineDiesMidRun() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        window.show();
        QTemporaryDir dir;
        QVERIFY(openWrittenScript(window, dir, "spin.py", "print('spinning')\nwhile True:\n    pass\n"));
        QString png = dir.filePath("shot.png");
        int status = -1;
        screenshotWhenDone(window, png, true, [&](int s) { status = s; });
        window.runScript();
        QTRY_VERIFY_WITH_TIMEOUT(window.engine().activeRun() != 0, 10000);
        QTest::qWait(500);  // the script is spinning
        window.engine().kill();
        QTRY_COMPARE_WITH_TIMEOUT(status, 1, 10000);  // the engine's death ends the screenshot run
        QVERIFY(QFileInfo(png).size() > 0);
        QVERIFY2(window.statusText().contains("killed by signal 9 (SIGKILL: Killed)"), qPrintable(window.statusText()));
    }
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
