// The workbench opening what real PyTorch wrote (tests/fixtures/torch_trace, PyTorch 2.15):
// a TORCH_TRACE folder fills the compiles, graph, IR, graph breaks, guards and code panes as
// a run of our engine does, by File > Open's path or by dropping it on the window; a
// profiler's Chrome trace (with its execution trace beside it) fills the trace views.
#include <functional>

#include <QApplication>
#include <QDockWidget>
#include <QDropEvent>
#include <QFile>
#include <QTemporaryDir>
#include <QTimer>
#include <QMessageBox>
#include <QMimeData>
#include <QRegularExpression>
#include <QTabWidget>
#include <Qsci/qsciscintilla.h>
#include <QSignalSpy>
#include <QComboBox>
#include <QLabel>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>
#include <QUrl>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/json_text.h"
#include "gui_test_support.h"
#include "torch_trace/trace_log_follower.h"
#include "model/logs_model.h"
#include "panes/code_pane.h"
#include "panes/compiles_pane.h"
#include "panes/graph_pane.h"
#include "panes/ir_pane.h"
#include "panes/ranks_pane.h"
#include "views/code_view.h"
#include "views/stack_trie_view.h"
#include "timeline/trace_view.h"
#include "views/graph_view.h"
#include "views/guards_view.h"
#include "window/main_window.h"

using namespace fusescope::gui;

namespace {

QString fixtureFolder(const char* name) {
    return QString::fromStdString(test::sourcePath(std::string("tests/fixtures/torch_trace/") + name));
}

QStringList compileIds(QTreeView* view) {
    QStringList ids;
    QAbstractItemModel* m = view->model();
    for (int f = 0; f < m->rowCount(); ++f)
        for (int c = 0; c < m->rowCount(m->index(f, 0)); ++c) ids << m->index(c, 0, m->index(f, 0)).data().toString();
    return ids;
}

// Closes the modal message boxes that come up, as a user would (its timer runs within their
// loop), keeping the last one's text.
struct MessageBoxCloser {
    QString said;
    QTimer timer;
    MessageBoxCloser() {
        QObject::connect(&timer, &QTimer::timeout, [this] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                said = box->text();
                box->close();
            }
        });
        timer.start(20);
    }
};

std::string textOf(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// A log's records, each with its payload lines.
std::vector<std::string> recordsOf(const std::string& text) {
    std::vector<std::string> records;
    for (size_t at = 0; at < text.size();) {
        size_t next = at;
        do next = text.find('\n', next) + 1;
        while (next != 0 && next < text.size() && text[next] == '\t');
        if (next == 0) next = text.size();
        records.push_back(text.substr(at, next - at));
        at = next;
    }
    return records;
}

std::vector<std::string> eventTexts(const std::vector<fusescope::Event>& events) {
    std::vector<std::string> texts;
    for (const auto& e : events) texts.push_back(fusescope::jsonText(fusescope::eventToJson(e)));
    return texts;
}

}  // namespace

class TorchTraceWindowTest : public QObject {
    Q_OBJECT
private slots:
    void aFolderFillsThePanes() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(fixtureFolder("graph_breaks")));  // read on a worker thread
        QTRY_COMPARE(compileIds(window.compilesView()), (QStringList{"0/0", "1/0", "2/0", "3/0"}));
        QVERIFY2(window.statusText().startsWith("Opened PyTorch trace graph_breaks: 4 compiles, "), qPrintable(window.statusText()));
        QVERIFY(window.windowTitle().endsWith("dedicated_log_torch_trace_fixture.log (PyTorch trace)[*]"));
        QCOMPARE(window.graphBreaksView()->model()->rowCount(), 2);
        // The program's path is the machine's that made the log: not here, and said so.
        QVERIFY(window.editor()->text().startsWith("# A TORCH_TRACE log of PyTorch 2.15.0+cu132: "));

        QCOMPARE(window.selection().compileId(), QString("0/0"));  // the first compile is on show
        QTRY_VERIFY_WITH_TIMEOUT(!window.graphView()->layoutPending() && window.graphView()->nodeCount() == 3, 10000);
        QVERIFY(window.cppView()->text().contains("cpp_fused_mul_sin_0 = async_compile.cpp_pybinding("));
        QCOMPARE(window.codeTabs()->tabText(window.codeTabs()->indexOf(window.cppView())), QString("Output code"));
        QCOMPARE(window.guardsView()->guardTable()->model()->rowCount(), 11);
        // PyTorch's later graphs are drawn in the Graph pane's tabs; their code is under Code.
        GraphPane* pane = window.graphPane();
        for (const char* stage : {"inductor_pre_grad_graph", "aot_inference_graph", "inductor_post_grad_graph"})
            QVERIFY2(pane->stageTabShown(stage), stage);
        for (const char* stage : {"aot_joint_graph", "aot_forward_graph", "aot_backward_graph"}) QVERIFY2(!pane->stageTabShown(stage), stage);
        GraphView* postGrad = pane->stageView("inductor_post_grad_graph");
        QTRY_VERIFY_WITH_TIMEOUT(!postGrad->layoutPending() && postGrad->nodeCount() == 3, 10000);
        QCOMPARE(postGrad->nodeNames(), (QStringList{"arg0_1", "sin", "mul"}));
    }

    // A training step's log: the joint, forward and backward graphs in tabs of their own, and
    // each pane PyTorch's log has nothing for says so instead of staying blank (issue 67 item 6).
    void aTrainingStepsGraphsHaveTabsAndEmptyPanesSayWhy() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        window.show();
        QVERIFY(window.openFile(fixtureFolder("training_step")));
        QTRY_COMPARE(window.selection().compileId(), QString("0/0"));
        GraphPane* pane = window.graphPane();
        for (const char* stage : {"inductor_pre_grad_graph", "aot_joint_graph", "aot_forward_graph", "aot_backward_graph", "inductor_post_grad_graph"})
            QVERIFY2(pane->stageTabShown(stage), stage);
        QVERIFY(!pane->stageTabShown("aot_inference_graph"));
        QVERIFY(window.showView("backward"));
        GraphView* backward = pane->stageView("aot_backward_graph");
        QTRY_VERIFY_WITH_TIMEOUT(!backward->layoutPending() && backward->nodeCount() > 0, 10000);
        // Its inputs are the forward's saved values and the incoming gradient, drawn as inputs.
        for (const char* input : {"primals_3", "relu", "addmm_1", "convert_element_type", "tangents_1"})
            QVERIFY2(backward->nodeNames().contains(input), input);
        QCOMPARE(backward->nodeCount(), 45);  // 38 calls and 7 inputs
        // No loop IR, scheduler nodes, LLVM IR or assembly in PyTorch's log: said, not blank.
        QVERIFY2(window.afterFusionView()->emptyNote().startsWith("PyTorch's TORCH_TRACE log does not list inductor's scheduler nodes"),
                 qPrintable(window.afterFusionView()->emptyNote()));
        QVERIFY2(window.irPane()->emptyNote().contains("TORCH_COMPILE_DEBUG=1"), qPrintable(window.irPane()->emptyNote()));
        QVERIFY(window.codePane()->emptyNote().isEmpty());
        QStringList codeTabs;
        for (int i = 0; i < window.codeTabs()->count(); ++i)
            if (window.codeTabs()->isTabVisible(i)) codeTabs << window.codeTabs()->tabText(i);
        QCOMPARE(codeTabs, QStringList{"Output code"});
    }

    // With provenance tracking, a post-grad node and its kernel select each other (tlparse's
    // provenance page, in the linked views): a node shows its kernel's lines in the output
    // code; a line of a kernel outlines the post-grad nodes it computes.
    void aPostGradNodeAndItsKernelSelectEachOther() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(fixtureFolder("provenance")));
        QTRY_COMPARE(window.selection().compileId(), QString("0/0"));
        GraphView* postGrad = window.graphPane()->stageView("inductor_post_grad_graph");
        QVERIFY(window.graphPane()->stageTabShown("inductor_post_grad_graph"));
        QTRY_VERIFY_WITH_TIMEOUT(!postGrad->layoutPending() && postGrad->nodeCount() > 0, 10000);
        QVERIFY(postGrad->chooseNode("sin"));  // as a click on it
        QList<int> lines = window.cppView()->highlightedLines();
        QVERIFY(!lines.isEmpty());
        QStringList text = window.cppView()->text().split('\n');
        QVERIFY2(text[lines.first() - 1].startsWith("cpp_fused_add_mul_relu_sin_sum_0 = async_compile.cpp_pybinding("),
                 qPrintable(text[lines.first() - 1]));
        QVERIFY(text[lines.last() - 1].contains("cpp_fused_add_mul_relu_sin_sum_0(buf2, buf1)"));
        // Back: a click on the mm call outlines mm alone.
        int call = static_cast<int>(text.indexOf(QRegularExpression(R"(^\s+extern_kernels\.mm\(arg0_1, arg1_1, out=buf0\))"))) + 1;
        QVERIFY(call > 0);
        Q_EMIT window.cppView()->lineClicked(call);
        QCOMPARE(postGrad->highlighted(), QStringList{"mm"});
        Q_EMIT window.cppView()->lineClicked(lines.first());
        QStringList fused = postGrad->highlighted();
        fused.sort();
        QCOMPARE(fused, (QStringList{"add", "mul", "relu", "sin", "sum_1"}));
    }

    // The compile timeline exported for Perfetto: each of PyTorch's 107 chromium spans one
    // complete event, at the time and for as long as the log says, nested as opened.
    void theCompileTimelineExportsForPerfetto() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QTemporaryDir dir;
        {
            MessageBoxCloser closer;
            QVERIFY(!window.exportPerfettoTrace(dir.filePath("empty.json")));  // nothing yet: said, not written
            QVERIFY2(closer.said.startsWith("There are no spans yet: run the script"), qPrintable(closer.said));
            QVERIFY(!QFile::exists(dir.filePath("empty.json")));
        }
        QVERIFY(window.openFile(fixtureFolder("training_step")));
        QTRY_COMPARE(window.selection().compileId(), QString("0/0"));
        QVERIFY(window.exportPerfettoTrace(dir.filePath("timeline.json")));
        QVERIFY2(window.statusText().startsWith("Exported 107 span(s) to ")  /* plural forms come from the app's translator */, qPrintable(window.statusText()));
        QFile file(dir.filePath("timeline.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        nlohmann::json doc = nlohmann::json::parse(file.readAll().toStdString());
        std::map<std::string, std::pair<double, double>> first;  // name -> (ts, end) of its first span
        int complete = 0;
        for (const auto& e : doc["traceEvents"]) {
            if (e["ph"] != "X") continue;
            ++complete;
            first.emplace(e["name"].get<std::string>(), std::pair{e["ts"].get<double>(), e["ts"].get<double>() + e["dur"].get<double>()});
        }
        QCOMPARE(complete, 107);
        // The log's dynamo span: B at 1795701466949848.2 us, E at 1795701488176398.8 us.
        QVERIFY(std::abs(first["dynamo"].first - 1795701466949848.2) < 1.0);
        QVERIFY(std::abs(first["dynamo"].second - first["dynamo"].first - 21226550.6) < 1.0);
        for (const auto& [outer, inner] : {std::pair{"dynamo", "entire_frame_compile"}, {"entire_frame_compile", "compile_attempt_0"},
                                           {"compile_attempt_0", "bytecode_tracing"}})
            QVERIFY2(first[outer].first <= first[inner].first && first[inner].second <= first[outer].second, inner);
    }

    // Opening a script after a folder leaves none of the folder's compiles, graph breaks,
    // selection or status beside the new script.
    // A distributed run's folder (torchrun, 4 ranks, two of them recompiling): rank 0's log on
    // show, the ranks side by side in the Ranks pane with their first divergence; a rank picked
    // there fills every pane with its log; the divergence's link shows its compile on a rank
    // that made it.
    void aDistributedRunsRanksAreSideBySide() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        window.show();
        window.findChild<QDockWidget*>("irDock")->raise();  // the Ranks dock behind another
        QVERIFY(window.openFile(fixtureFolder("ranks_diverge")));
        QTRY_COMPARE(compileIds(window.compilesView()), QStringList{"0/0"});
        QCOMPARE(window.windowTitle(), QString("Fusescope - dedicated_log_torch_trace_rank_0_fixture.log (PyTorch trace, rank 0 of 4)[*]"));
        QVERIFY2(window.statusText().startsWith("Opened rank 0 of 4 of PyTorch trace ranks_diverge: 1 compiles, "), qPrintable(window.statusText()));
        QVERIFY2(window.statusText().endsWith("; the ranks diverge at compile 0/1 (Ranks pane)"), qPrintable(window.statusText()));
        RanksPane* ranks = window.ranksPane();
        QVERIFY(ranks->isVisible());  // raised, the run just opened
        QCOMPARE(ranks->emptyNote(), QString());
        QCOMPARE(ranks->table()->rowCount(), 4);
        QCOMPARE(ranks->table()->item(1, 3)->text(), QString("1"));  // rank 1's recompiles
        QCOMPARE(ranks->table()->item(2, 7)->text(), QString());      // rank 2 is as rank 0
        QCOMPARE(ranks->table()->item(3, 7)->text(), QString("compile ids, compiled functions, recompile reasons, guards, tensor metadata, "
                                                             "cache hits/misses, collective sequences"));
        QVERIFY(ranks->table()->item(0, 0)->font().bold());  // the rank on show
        const QString divergence = ranks->divergence()->text();
        QVERIFY2(divergence.contains("compile 0/1 of step ran on ranks 1, 3, not on ranks 0, 2."), qPrintable(divergence));
        QVERIFY2(divergence.contains("rank 3 recompiled step: guard scale == 1.0 of 0/0 failed (&lt;fixtures&gt;/programs/ranks_diverge.py:9)"),
                 qPrintable(divergence));
        QTreeWidgetItem* collectives = ranks->checks()->topLevelItem(ranks->checks()->topLevelItemCount() - 1);
        QCOMPARE(collectives->text(0), QString("collective sequences"));
        QCOMPARE(collectives->childCount(), 2);
        QCOMPARE(collectives->child(1)->text(0), QString("ranks 1, 3"));
        QCOMPARE(collectives->child(1)->text(1), QString("0/0: all_reduce_, wait_tensor; 0/1: all_reduce_, wait_tensor"));

        // Rank 3 from the picker: its two compiles, the second one's recompile reason.
        ranks->picker()->setCurrentIndex(3);
        Q_EMIT ranks->picker()->activated(3);
        QTRY_COMPARE(compileIds(window.compilesView()), (QStringList{"0/0", "0/1"}));
        QCOMPARE(window.windowTitle(), QString("Fusescope - dedicated_log_torch_trace_rank_3_fixture.log (PyTorch trace, rank 3 of 4)[*]"));
        QVERIFY(ranks->table()->item(3, 0)->font().bold());
        QCOMPARE(ranks->table()->rowCount(), 4);  // the comparison stays
        QCOMPARE(window.selection().compileId(), QString("0/0"));

        // The divergence's link: compile 0/1 on rank 1, selected.
        Q_EMIT ranks->divergence()->linkActivated("compile:1:0/1");
        QTRY_COMPARE(window.traceRanks().shownRank(), 1);
        QTRY_COMPARE(window.selection().compileId(), QString("0/1"));
        QCOMPARE(ranks->picker()->currentText(), QString("rank 1"));

        // Another file: no ranks.
        QVERIFY(window.openFile(fixtureFolder("graph_breaks")));
        QTRY_COMPARE(compileIds(window.compilesView()).size(), 4);
        QVERIFY(ranks->emptyNote().startsWith("A distributed run's ranks show here side by side"));
    }

    void twoRanksThatCompiledAlikeSaySo() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(fixtureFolder("ddp_two_ranks")));
        QTRY_COMPARE(compileIds(window.compilesView()).size(), 5);
        QCOMPARE(window.ranksPane()->divergence()->text(), QString("<b>The ranks compiled alike:</b> every check is the same on every rank."));
        QVERIFY2(window.statusText().endsWith("; the ranks compiled alike"), qPrintable(window.statusText()));
    }

    // A log its program is still writing (issue 68): written into the open folder record by
    // record, each record is in the views within a second; a record cut in the middle shows
    // nothing until it is whole; the end is as opening the finished log.
    void aLogBeingWrittenIsFollowed() {
        QTemporaryDir dir;
        const std::string logPath = dir.filePath("dedicated_log_torch_trace_live.log").toStdString();
        const std::string finished = test::sourcePath("tests/fixtures/torch_trace/provenance/dedicated_log_torch_trace_fixture.log");
        const std::vector<std::string> records = recordsOf(textOf(finished));
        QVERIFY(records.size() > 100);
        std::ofstream log(logPath, std::ios::binary);
        log << records[0] << std::flush;
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(dir.path()));
        QTRY_COMPARE(window.followingText(), QString("\u25CF following dedicated_log_torch_trace_live.log"));
        std::string written = records[0];
        for (size_t i = 1; i < records.size(); ++i) {
            if (i == records.size() / 2) {  // half a record: nothing of it yet
                const int before = window.store().eventCount();
                log << records[i].substr(0, records[i].size() / 2) << std::flush;
                QTest::qWait(300);
                QCOMPARE(window.store().eventCount(), before);
                log << records[i].substr(records[i].size() / 2) << std::flush;
            } else {
                log << records[i] << std::flush;
            }
            written += records[i];
            std::istringstream in(written);
            const int expected = static_cast<int>(fusescope::importTraceLog(in).events.size());
            QTRY_COMPARE_WITH_TIMEOUT(window.store().eventCount(), expected, 1000);
        }
        QVERIFY2(window.statusText().startsWith("dedicated_log_torch_trace_live.log read on as its program writes it: 1 compiles, "),
                 qPrintable(window.statusText()));
        MainWindow opened(QString::fromStdString(test::cliPath()));
        QVERIFY(opened.openFile(QString::fromStdString(finished)));
        QTRY_COMPARE(opened.store().eventCount(), window.store().eventCount());
        QCOMPARE(eventTexts(window.store().events()), eventTexts(opened.store().events()));
        QCOMPARE(window.store().traces().records().size(), opened.store().traces().records().size());
        QCOMPARE(window.selection().compileId(), opened.selection().compileId());
        // Something else opened: no longer followed.
        QVERIFY(window.openFile(fixtureFolder("graph_breaks")));
        QTRY_COMPARE(compileIds(window.compilesView()).size(), 4);
        QCOMPARE(window.followingText(), QString("\u25CF following dedicated_log_torch_trace_fixture.log"));
        QVERIFY(window.openFile(QString::fromStdString(test::sourcePath("resources/examples/01_quickstart.py"))));
        QCOMPARE(window.followingText(), QString());
    }

    void aScriptOpenedAfterAFolderStartsClean() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(fixtureFolder("graph_breaks")));
        QTRY_COMPARE(compileIds(window.compilesView()).size(), 4);
        QVERIFY(window.openFile(QString::fromStdString(test::sourcePath("resources/examples/01_quickstart.py"))));
        QCOMPARE(compileIds(window.compilesView()), QStringList{});
        QCOMPARE(window.graphBreaksView()->model()->rowCount(), 0);
        QCOMPARE(window.selection().compileId(), QString());
        QCOMPARE(window.statusText(), QString("Opened 01_quickstart.py"));
        QCOMPARE(window.windowTitle(), QString("Fusescope - 01_quickstart.py[*]"));
    }

    // The Compiles dock's Call stacks tab: each compile under the calls that led to it.
    void compilesHangUnderTheirCallStacks() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(fixtureFolder("graph_breaks")));
        QTRY_COMPARE(compileIds(window.compilesView()).size(), 4);
        StackTrieView* trie = window.compilesPane()->stackTrie();
        QStringList lines;
        std::function<void(QTreeWidgetItem*, int)> walk = [&](QTreeWidgetItem* item, int depth) {
            lines << QString(depth * 2, ' ') + item->text(0);
            for (int i = 0; i < item->childCount(); ++i) walk(item->child(i), depth + 1);
        };
        for (int i = 0; i < trie->topLevelItemCount(); ++i) walk(trie->topLevelItem(i), 0);
        // As PyTorch 2.15 logged them: 0/0's stack is its own frame; the resumed frames are
        // reached from the script's two calls of step (lines 14 and 15).
        const QStringList expected = {
            "step (graph_breaks.py:5)",
            "  0/0  step",
            "<module> (graph_breaks.py:14)",
            "  torch_dynamo_resume_in_step_at_7 (graph_breaks.py:7)",
            "    1/0  torch_dynamo_resume_in_step_at_7",
            "  compile_wrapper (eval_frame.py:1265)",
            "    torch_dynamo_resume_in_step_at_8 (graph_breaks.py:8)",
            "      2/0  torch_dynamo_resume_in_step_at_8",
            "<module> (graph_breaks.py:15)",
            "  compile_wrapper (eval_frame.py:1265)",
            "    torch_dynamo_resume_in_step_at_8 (graph_breaks.py:8)",
            "      3/0  torch_dynamo_resume_in_step_at_8",
        };
        QCOMPARE(lines, expected);
        // Picking a compile there shows it everywhere, and the Functions tab follows.
        trie->setCurrentItem(trie->topLevelItem(1)->child(1)->child(0)->child(0));
        QCOMPARE(window.selection().compileId(), QString("2/0"));
        QCOMPARE(window.compilesView()->currentIndex().data().toString(), QString("2/0"));
    }

    // Tensor descriptions, symbols, shape guards and metrics are in the Logs dock.
    void shapeEntriesAreLogLines() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(fixtureFolder("dynamic_shapes")));
        QTRY_COMPARE(compileIds(window.compilesView()), QStringList{"0/0"});
        auto* logs = window.findChild<QDockWidget*>("logsDock")->findChild<QTableView*>();
        QVERIFY(logs);
        QStringList names, messages;
        for (int r = 0; r < logs->model()->rowCount(); ++r) {
            names << logs->model()->index(r, LogsModel::NameColumn).data().toString();
            messages << logs->model()->index(r, LogsModel::MessageColumn).data().toString();
        }
        QCOMPARE(names.count("create_symbol"), 3);
        QCOMPARE(names.count("guard_added_fast"), 3);
        QVERIFY(messages.contains("specialized s17 = 5 (L['y'].size()[0]): range_refined_to_singleton (dynamic_shapes.py:9)"));
        // The compile's metrics: the summary on its row, tlparse's five parts in the record.
        QVERIFY(messages.contains("compiled in 15.173 s, guard_count 13, aotautograd_cache_miss x1, fx_graph_cache_miss x1 … (+5 lines)"));
    }

    void droppingALogOpensIt() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QMimeData data;
        data.setUrls({QUrl::fromLocalFile(fixtureFolder("recompiles") + "/dedicated_log_torch_trace_fixture.log")});
        auto accepts = [&](const QString& path) {
            QMimeData offered;
            offered.setUrls({QUrl::fromLocalFile(path)});
            QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &offered, Qt::LeftButton, Qt::NoModifier);
            enter.ignore();
            static_cast<QObject&>(window).event(&enter);  // straight to the handlers: QApplication drops synthetic drag events
            return enter.isAccepted();
        };
        QVERIFY(accepts(fixtureFolder("recompiles")));
        QVERIFY(accepts(fixtureFolder("recompiles") + "/dedicated_log_torch_trace_fixture.log"));
        QVERIFY(!accepts(fixtureFolder("README.md")));
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        static_cast<QObject&>(window).event(&drop);
        QTRY_COMPARE(compileIds(window.compilesView()), (QStringList{"0/0", "0/1", "0/2", "0/3"}));
    }

    void aProfilerChromeTraceFillsTheTraceViews() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(fixtureFolder("profiled") + "/chrome_trace.json"));  // read on a worker thread
        QCOMPARE(window.statusText(), QString("Opening profiler trace chrome_trace.json..."));
        QTRY_COMPARE(window.store().traces().size(), size_t(24));
        QVERIFY2(window.statusText() == "Opened profiler trace chrome_trace.json: 24 spans", qPrintable(window.statusText()));
        QVERIFY2(window.editor()->text().contains("execution_trace.json describes 24 of them"), qPrintable(window.editor()->text()));
        QTRY_VERIFY_WITH_TIMEOUT(!window.traceView()->indexPending() && window.traceView()->spans(), 10000);
        QCOMPARE(window.traceView()->spans()->spans.size(), size_t(24));
    }

    // A profiler trace its program writes again (a later export over it): read again once it is
    // whole JSON; half written, the trace on show stays.
    void aProfilerTraceWrittenAgainIsReadAgain() {
        QTemporaryDir dir;
        const QString path = dir.filePath("chrome_trace.json");
        nlohmann::json trace = nlohmann::json::parse(textOf((fixtureFolder("profiled") + "/chrome_trace.json").toStdString()));
        nlohmann::json fewer = trace;
        auto& events = fewer["traceEvents"];
        events.erase(std::remove_if(events.begin(), events.end(), [](const nlohmann::json& e) { return e.value("ph", "") == "X" && e.value("name", "").starts_with("aten::"); }),
                     events.end());
        std::ofstream(path.toStdString(), std::ios::binary | std::ios::trunc) << fewer.dump();
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(path));
        QTRY_VERIFY(window.store().traces().size() > 0);
        const size_t before = window.store().traces().size();
        QVERIFY(before < 24);
        QCOMPARE(window.followingText(), QString("\u25CF following chrome_trace.json"));
        const std::string whole = trace.dump();
        std::ofstream(path.toStdString(), std::ios::binary | std::ios::trunc) << whole.substr(0, whole.size() / 2);
        QTest::qWait(400);
        QCOMPARE(window.store().traces().size(), before);
        std::ofstream(path.toStdString(), std::ios::binary | std::ios::trunc) << whole;
        QTRY_COMPARE_WITH_TIMEOUT(window.store().traces().size(), size_t(24), 1000);
        QCOMPARE(window.statusText(), QString("chrome_trace.json read again as its program wrote it: 24 spans"));
    }

    void aFolderWithoutALogSaysSoAndKeepsTheWindow() {
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(fixtureFolder("programs")));
        MessageBoxCloser closer;
        QTRY_VERIFY2(window.statusText().startsWith("Cannot open "), qPrintable(window.statusText()));
        QVERIFY2(closer.said.endsWith("holds no TORCH_TRACE log (dedicated_log_torch_trace_*.log)"), qPrintable(closer.said));
        QCOMPARE(compileIds(window.compilesView()), QStringList{});
    }

    void aBrokenChromeTraceSaysSoAndKeepsTheRun() {
        refusedAndTheRunKept("{\"traceEvents\": [ {\"ph\": \"X\",", [](const QString& said, const QString& file) {
            return said.startsWith("Cannot open " + file + ":\n");
        });
    }

    // Past 512 levels a Chrome trace is refused as every reader of untrusted JSON refuses it
    // (copying or printing such a value recurses once per level), and the run is kept.
    void aChromeTraceNestedAMillionDeepIsRefusedAndTheRunKept() {
        refusedAndTheRunKept("{\"traceEvents\": [], \"x\": " + QByteArray(1000000, '[') + QByteArray(1000000, ']') + "}",
                             [](const QString& said, const QString&) { return said.endsWith("nests JSON deeper than 512 levels"); });
    }

private:
    // Opens `content` as a Chrome trace over an open TORCH_TRACE run: the file is refused
    // with a message `expected` accepts, and the run stays.
    void refusedAndTheRunKept(const QByteArray& content, const std::function<bool(const QString&, const QString&)>& expected) {
        QTemporaryDir dir;
        QFile trace(dir.filePath("trace.json"));
        QVERIFY(trace.open(QIODevice::WriteOnly));
        trace.write(content);
        trace.close();
        MainWindow window(QString::fromStdString(test::cliPath()));
        QVERIFY(window.openFile(fixtureFolder("recompiles")));
        QTRY_COMPARE(compileIds(window.compilesView()).size(), 4);
        QVERIFY(window.openFile(trace.fileName()));
        MessageBoxCloser closer;
        QTRY_VERIFY2(window.statusText().startsWith("Cannot open "), qPrintable(window.statusText()));
        QVERIFY2(expected(closer.said, trace.fileName()), qPrintable(closer.said));
        QCOMPARE(compileIds(window.compilesView()).size(), 4);
    }
};

QTEST_MAIN(TorchTraceWindowTest)
#include "torch_trace_window_test.moc"
