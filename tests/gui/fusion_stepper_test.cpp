// Provenance, fusion steps and the Fusion stepper on the recorded seed-000 run: IR blocks
// and C++ lines per buffer, the decisions table (fed one event at a time and all at once),
// the scheduler graph after each step, and the stepper's controls.
#include <QAbstractItemModelTester>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QRegularExpression>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTableView>
#include <QTest>

#include "gui_test_support.h"
#include "model/compile_artifacts.h"
#include "model/fusion_steps_model.h"
#include "views/fusion_stepper.h"
#include "views/graph_view.h"

using namespace fusescope::gui;
using nlohmann::json;

namespace {

QString eventText(const char* type) {
    for (const auto& e : test::loadFixture("seed000_inductor"))
        if (e["type"] == type) return QString::fromStdString(e["text"].get<std::string>());
    return {};
}

// The scheduler graph as "name <- inputs" lines, plus the group and what it merged.
QStringList describe(const DrawnGraph& graph) {
    QStringList out;
    for (const DrawnNode& n : graph.nodes) {
        QString line = QString::fromStdString(n.name);
        if (n.op != "placeholder") {
            QStringList inputs;
            for (const auto& i : n.inputs) inputs << QString::fromStdString(i);
            line += " <- " + inputs.join(",") + " in " + QString::fromStdString(n.group);
        }
        if (!n.members.empty()) line += " from " + QString::fromStdString(n.members[0]) + "+" + QString::fromStdString(n.members[1]);
        out << line;
    }
    return out;
}

}  // namespace

class FusionStepperTest : public QObject {
    Q_OBJECT
private slots:
    void irDumpBlocksFindEachNodeAndNestMembersInTheirGroup() {
        auto pre = irDumpBlocks(eventText("ir_pre_fusion"));
        QCOMPARE(pre.size(), 3);
        QCOMPARE(pre["buf0"], (LineRanges{{1, 21}}));
        QCOMPARE(pre["buf1"], (LineRanges{{24, 44}}));
        QCOMPARE(pre["buf2"], (LineRanges{{47, 52}}));
        auto post = irDumpBlocks(eventText("ir_post_fusion"));
        QCOMPARE(post.size(), 4);
        QCOMPARE(post["buf0_buf1"], (LineRanges{{1, 50}}));
        QCOMPARE(post["buf0"], (LineRanges{{8, 28}}));
        QCOMPARE(post["buf1"], (LineRanges{{30, 50}}));
        QCOMPARE(post["buf2"], (LineRanges{{53, 58}}));
        QVERIFY(irDumpBlocks("no nodes here\n").isEmpty());
    }

    void provenanceLinksGraphNodesBuffersKernelsAndLines() {
        RunStore store;
        store.replace(test::loadFixture("seed000_inductor"));
        CompileArtifacts a = compileArtifacts(store, "0/0");
        const CompileProvenance& p = a.provenance;
        QCOMPARE(p.bufferOfGraphNode("add"), QString("buf0"));
        QCOMPARE(p.bufferOfGraphNode("add_1"), QString("buf1"));
        QCOMPARE(p.bufferOfGraphNode("matmul"), QString("buf2"));
        QCOMPARE(p.bufferOfGraphNode("l_a_"), QString());  // an input is computed nowhere
        QCOMPARE(p.graphNodesOf("buf0"), (QStringList{"add", "realize"}));
        QCOMPARE(p.graphNodesOf("buf0_buf1"), (QStringList{"add", "realize", "add_1"}));
        QCOMPARE(p.fusedNodeOf("buf1"), QString("buf0_buf1"));
        QCOMPARE(p.fusedNodeOf("buf2"), QString("buf2"));
        QCOMPARE(p.kernelOf("buf0_buf1"), QString("cpp_fused_add_realize_0"));
        QCOMPARE(p.kernelOf("buf2"), QString("extern_kernels.mm"));
        // The texts carry a "# ===== __compiled_fn_0 =====" header line: ranges shift by one.
        QCOMPARE(p.preFusionLines("buf1"), (LineRanges{{25, 45}}));
        QCOMPARE(p.postFusionNodeAt(10), QString("buf0"));  // the member, not its group
        QCOMPARE(p.postFusionNodeAt(2), QString("buf0_buf1"));
        QCOMPARE(p.preFusionNodeAt(23), QString());  // the blank lines between blocks

        const QStringList cpp = a.source.split('\n');
        auto linesOf = [&](const LineRanges& ranges) {
            QStringList out;
            for (const auto& [first, last] : ranges)
                for (int l = first; l <= last; ++l) out << cpp[l - 1];
            return out;
        };
        QStringList buf0 = linesOf(p.cppLines("buf0"));
        QVERIFY(buf0.contains("            buf0[m0_get_index_1] = m0_add;"));
        QVERIFY(buf0.filter("m1_").isEmpty());
        QVERIFY(buf0.filter("fs_gemm").isEmpty());
        QCOMPARE(buf0.filter("m0_").size(), 6);
        QCOMPARE(linesOf(p.cppLines("buf0_buf1")).filter(QRegularExpression("m[01]_")).size(), 12);
        int gemm = static_cast<int>(cpp.indexOf(QRegularExpression(R"(\s*fs_gemm\(.*)"))) + 1;
        QCOMPARE(p.bufferAtCppLine(gemm), QString("buf2"));
        QCOMPARE(p.bufferAtCppLine(1), QString());  // the prelude computes nothing
    }

    void stepsAreTheSameFedIncrementallyOrAllAtOnce() {
        RunStore store;
        FusionStepsModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setCompile("0/0");
        auto events = test::loadFixture("seed000_inductor");
        for (const auto& e : events) store.append(e);
        auto row = [&](int r) {
            QStringList cells;
            for (int c = 0; c < model.columnCount(); ++c) cells << model.index(r, c).data().toString();
            return cells.join(" | ");
        };
        const QString first = "1 | buf0 + buf1 | vertical | 1024 | fused: buf0_buf1 | "
                              "fused (vertical): consumers read each element where it is written; iteration (256,)";
        const QString second = "2 | buf0_buf1 + buf2 | vertical | 1024 | not fused | cannot fuse buf0_buf1 with buf2: buf2 is an extern kernel";
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(row(0), first);
        QCOMPARE(row(1), second);
        store.replace(events);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(row(0), first);
        model.setCompile("0/1");
        QCOMPARE(model.rowCount(), 0);
        store.append({{"type", "fusion_decision"}, {"compile_id", "0/1"}, {"step", "x"}, {"fused", 3}});
        QCOMPARE(model.rowCount(), 1);  // malformed fields read as empty, not as exceptions
        QCOMPARE(row(0), QString("0 |  +  |  | 0 | not fused | "));
    }

    void aGroupOfTheStepsStandsForItsBuffers() {
        RunStore store;
        store.replace(test::loadFixture("seed000_inductor"));
        std::vector<FusionStep> steps = compileFusionSteps(store, "0/0");
        QCOMPARE(fusedBuffers(steps, "buf0_buf1"), (QStringList{"buf0", "buf1"}));
        QCOMPARE(fusedBuffers(steps, "buf2"), QStringList{"buf2"});
        // Made by a step of its own name: it is not taken apart again.
        std::vector<FusionStep> loop = {{1, "a", "b", "vertical", "", "b", 0, true}};
        QCOMPARE(fusedBuffers(loop, "b"), (QStringList{"a", "b"}));
    }

    void schedulerGraphAfterEachStep() {
        RunStore store;
        store.replace(test::loadFixture("seed000_inductor"));
        CompileProvenance p = compileArtifacts(store, "0/0").provenance;
        FusionStepsModel model(&store);
        model.setCompile("0/0");
        QCOMPARE(describe(schedulerGraphAt(p, model.steps(), 0)),
                 (QStringList{"arg0_1", "arg1_1", "buf0 <- arg0_1 in buf0_buf1", "buf1 <- buf0 in buf0_buf1", "buf2 <- buf1,arg1_1 in buf2"}));
        const QStringList fused = {"arg0_1", "arg1_1", "buf0_buf1 <- arg0_1 in buf0_buf1 from buf0+buf1", "buf2 <- buf0_buf1,arg1_1 in buf2"};
        QCOMPARE(describe(schedulerGraphAt(p, model.steps(), 1)), fused);
        QCOMPARE(describe(schedulerGraphAt(p, model.steps(), 2)), fused);  // step 2 refused
    }

    void stepperStepsBackAndForthAndAsksWhyForTwoSelectedNodes() {
        RunStore store;
        FusionStepper stepper(&store);
        // Before any run there is nothing to ask about.
        QVERIFY(!stepper.findChildren<QPushButton*>()[2]->isEnabled());
        QCOMPARE(stepper.pairText(), QString("Pair: none (Ctrl+click two nodes)"));
        store.replace(test::loadFixture("seed000_inductor"));
        stepper.setCompile("0/0", {}, compileArtifacts(store, "0/0").provenance);
        auto* back = stepper.findChildren<QPushButton*>()[0];
        auto* forward = stepper.findChildren<QPushButton*>()[1];
        auto* slider = stepper.findChild<QSlider*>();
        QCOMPARE(stepper.stepCount(), 2);
        QCOMPARE(slider->maximum(), 2);
        QVERIFY(!back->isEnabled());
        QCOMPARE(stepper.detailText(), QString("Before fusion: 3 scheduler node(s)."));

        QSignalSpy steps(&stepper, &FusionStepper::stepChanged);
        forward->click();
        QCOMPARE(stepper.step(), 1);
        QCOMPARE(slider->value(), 1);
        QCOMPARE(steps.takeFirst(), (QVariantList{1, "buf0", "buf1"}));
        QCOMPARE(stepper.detailText(), QString("Step 1: buf0 + buf1 (vertical, score 1024): fused into buf0_buf1. "
                                               "fused (vertical): consumers read each element where it is written; iteration (256,)"));
        QTRY_VERIFY_WITH_TIMEOUT(!stepper.graphView()->layoutPending() && stepper.graphView()->nodeCount() == 4, 10000);
        QCOMPARE(stepper.graphView()->highlighted(), QStringList{"buf0_buf1"});
        slider->setValue(2);
        QCOMPARE(steps.takeFirst(), (QVariantList{2, "buf0_buf1", "buf2"}));
        QVERIFY(!forward->isEnabled());
        QCOMPARE(stepper.graphView()->highlighted(), (QStringList{"buf0_buf1", "buf2"}));
        stepper.setStep(7);  // clamped
        QCOMPARE(stepper.step(), 2);
        back->click();
        back->click();
        QCOMPARE(stepper.step(), 0);
        QCOMPARE(steps.last(), (QVariantList{0, "", ""}));

        // "Why not fused?" needs two nodes picked in the diagram.
        QSignalSpy asked(&stepper, &FusionStepper::explainRequested);
        auto* why = stepper.findChildren<QPushButton*>()[2];
        why->click();
        QCOMPARE(asked.count(), 0);
        stepper.resize(900, 500);
        stepper.show();
        QTRY_VERIFY_WITH_TIMEOUT(!stepper.graphView()->layoutPending() && stepper.graphView()->nodeCount() == 5, 10000);
        GraphView* graph = stepper.graphView();
        // As a real pointer does it: the pointer moves onto each node before pressing.
        QTest::mouseMove(graph->viewport(), graph->nodeCentre("buf0"));
        QTest::mouseClick(graph->viewport(), Qt::LeftButton, {}, graph->nodeCentre("buf0"));
        QCOMPARE(stepper.pairText(), QString("Pair: buf0 + ? (Ctrl+click a second node)"));
        QVERIFY(!why->isEnabled());
        QTest::mouseMove(graph->viewport(), graph->nodeCentre("buf2"));
        QTest::mouseClick(graph->viewport(), Qt::LeftButton, Qt::ControlModifier, graph->nodeCentre("buf2"));
        QCOMPARE(graph->selectedNames(), (QStringList{"buf0", "buf2"}));
        QCOMPARE(stepper.pairText(), QString("Pair: buf0 + buf2"));
        why->click();
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.first(), (QVariantList{"buf0", "buf2"}));
        // Ctrl+click again takes a node out of the pair.
        QTest::mouseMove(graph->viewport(), graph->nodeCentre("buf2"));
        QTest::mouseClick(graph->viewport(), Qt::LeftButton, Qt::ControlModifier, graph->nodeCentre("buf2"));
        QCOMPARE(graph->selectedNames(), QStringList{"buf0"});

        // A row of the decisions table picks that decision's pair.
        auto* table = stepper.findChild<QTableView*>();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(stepper.model()->index(1, 0)).center());
        QCOMPARE(stepper.step(), 2);
        QCOMPARE(stepper.pairText(), QString("Pair: buf0_buf1 + buf2"));
        why->click();
        QCOMPARE(asked.count(), 2);
        QCOMPARE(asked.last(), (QVariantList{"buf0_buf1", "buf2"}));
    }

    void graphExportsAsPngAndSvg() {
        GraphView graph;
        QString error;
        QTemporaryDir dir;
        QVERIFY(!graph.exportImage(dir.filePath("empty.png"), &error));
        QCOMPARE(error, QString("There is no graph to export."));
        graph.showGraph(DrawnGraph::fromJson(
            {{"nodes", {{{"name", "x"}, {"op", "placeholder"}}, {{"name", "relu"}, {"op", "call_function"}, {"target", "relu"}, {"inputs", {"x"}}}}}}));
        QTRY_VERIFY_WITH_TIMEOUT(!graph.layoutPending() && graph.nodeCount() == 2, 10000);
        QVERIFY2(graph.exportImage(dir.filePath("g.png"), &error), qPrintable(error));
        QImage png(dir.filePath("g.png"));
        QVERIFY(png.width() > 40 && png.height() > 80);  // two nodes, one above the other
        QVERIFY(png.height() > png.width());
        QVERIFY2(graph.exportImage(dir.filePath("g.svg"), &error), qPrintable(error));
        QFile svg(dir.filePath("g.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QByteArray text = svg.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains(">relu<"));
        QVERIFY(!graph.exportImage(dir.filePath("no/such/folder/g.png"), &error));
        QVERIFY(error.startsWith("Cannot write"));
    }
};

QTEST_MAIN(FusionStepperTest)
#include "fusion_stepper_test.moc"
