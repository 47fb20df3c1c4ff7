// The Graph Breaks table from the recorded 02_graph_breaks run: one row per distinct break
// with its reason, line and count, the same whether events arrive one by one or all at once.
#include <QAbstractItemModelTester>
#include <QTableView>
#include <QTest>
#include <QUrl>

#include <limits>

#include "gui_test_support.h"
#include "model/graph_breaks_model.h"
#include "panes/graph_breaks_pane.h"
#include "selection/selection_context.h"
#include "views/empty_view_note.h"

using namespace fusescope::gui;

namespace {

QStringList rows(const GraphBreaksModel& m) {
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m.columnCount(); ++c) cells << m.index(r, c).data().toString();
        cells << QString::number(m.index(r, 0).data(GraphBreaksModel::LineRole).toInt());
        out << cells.join(" | ");
    }
    return out;
}

const QStringList kExpected = {
    "0/0 | Failed to trace builtin operator | resources/examples/02_graph_breaks.py:9 | print(\"y is\", y) | 1 |  |  |  | 9",
    "1/0 | Data-dependent branching | resources/examples/02_graph_breaks.py:15 | if x.sum() > 0: | 1 |  |  |  | 15",
    "2/0 | Call to `torch._dynamo.graph_break()` | resources/examples/02_graph_breaks.py:23 | torch._dynamo.graph_break() | 1 |  |  |  | 23",
    "3/0 | Unsupported Tensor.item() call with capture_scalar_outputs=False | resources/examples/02_graph_breaks.py:29 | n = x.max().item() | 1 |  |  |  | 29",
};

}  // namespace

class GraphBreaksModelTest : public QObject {
    Q_OBJECT
private slots:
    void incrementalAndResetGiveTheSameRows() {
        RunStore store;
        GraphBreaksModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto events = test::loadFixture("graph_breaks");
        for (const auto& e : events) store.append(e);
        QCOMPARE(rows(model), kExpected);
        store.replace(events);
        QCOMPARE(rows(model), kExpected);
        QVERIFY(model.index(0, 1).data(Qt::ToolTipRole).toString().contains("in with_print"));
        // PyTorch's registry entry of each break: the print's is GB0059 with three hints.
        const QModelIndex print = model.index(0, 0);
        QCOMPARE(print.data(GraphBreaksModel::GbIdRole).toString(), QString("GB0059"));
        QCOMPARE(print.data(GraphBreaksModel::HintsRole).toStringList().size(), 3);
        QCOMPARE(print.data(GraphBreaksModel::ExplanationRole).toString(),
                 QString("Dynamo does not know how to trace builtin operator `print` with argument types ['str', 'Tensor'] "
                         "(has_kwargs False)"));
        QCOMPARE(print.data(GraphBreaksModel::LinkRole).toUrl(), QUrl("https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html"));
        store.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    // The pane's table, empty, says why: no run yet, or none in this run.
    void theEmptyTableSaysWhy() {
        RunStore store;
        SelectionContext context(&store);
        GraphBreaksPane pane(&context);
        const QTableView* table = pane.findChild<QTableView*>();
        QCOMPARE(emptyViewNote(table), QString("No run yet: graph breaks show here as the run reports them."));
        store.replace(test::loadFixture("seed000_inductor"));
        QCOMPARE(emptyViewNote(table), QString("No graph breaks in this run."));
        store.replace(test::loadFixture("graph_breaks"));
        QCOMPARE(emptyViewNote(table), QString());
    }

    // A break hit again (a recompile breaking where the first compile did) is one row.
    void aBreakHitAgainIsCountedInItsRow() {
        RunStore store;
        GraphBreaksModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const nlohmann::json stack = {{{"file", "s.py"}, {"line", 4}, {"function", "f"}, {"source", "print(x)"}}};
        const nlohmann::json other = {{{"file", "s.py"}, {"line", 9}, {"function", "f"}, {"source", "print(y)"}}};
        std::vector<nlohmann::json> events;
        for (const char* id : {"0/0", "0/1", "0/1"})
            events.push_back({{"type", "graph_break"}, {"compile_id", id}, {"reason", "print() called"}, {"user_stack", stack}});
        events.push_back({{"type", "graph_break"}, {"compile_id", "0/1"}, {"reason", "print() called"}, {"user_stack", other}});
        for (const auto& e : events) store.append(e);
        const QStringList expected = {"0/0, 0/1 | print() called | s.py:4 | print(x) | 3 |  |  |  | 4", "0/1 | print() called | s.py:9 | print(y) | 1 |  |  |  | 9"};
        QCOMPARE(rows(model), expected);
        store.replace(events);
        QCOMPARE(rows(model), expected);
    }

    // The doctor's measures: each pair of graphs a break split adds to its row; the rows
    // rank by time between, then fusions lost; unmeasured rows have no rank.
    void costsFillTheirBreaksRowsAndRankThem() {
        RunStore store;
        GraphBreaksModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto stackAt = [](int line) { return nlohmann::json{{{"file", "s.py"}, {"line", line}, {"function", "f"}, {"source", "x"}}}; };
        auto cost = [&](const char* id, int line, double seconds, int joined) {
            return nlohmann::json{{"type", "graph_break_cost"}, {"compile_id", id}, {"function", "f"}, {"reason", "print() called"},
                                  {"user_stack", stackAt(line)}, {"graph_before", "__compiled_fn_0"}, {"graph_after", "__compiled_fn_1"},
                                  {"ops_before", 2}, {"ops_after", 1}, {"calls", 3}, {"python_seconds", seconds},
                                  {"compile_seconds_before", 0.5}, {"compile_seconds_after", 0.25}, {"kernels_before", 1},
                                  {"kernels_after", 1}, {"kernels_joined", joined}};
        };
        std::vector<nlohmann::json> events;
        for (int line : {4, 9, 12})
            events.push_back({{"type", "graph_break"}, {"compile_id", "0/0"}, {"reason", "print() called"}, {"user_stack", stackAt(line)}});
        events.push_back(cost("0/0", 4, 0.001, 1));
        events.push_back(cost("0/0", 9, 0.004, 2));
        events.push_back(cost("0/1", 4, 0.002, 1));  // the break at line 4 again, in a recompile: added up
        for (const auto& e : events) store.append(e);
        auto column = [&](int c) {
            QStringList cells;
            for (int r = 0; r < model.rowCount(); ++r) cells << model.index(r, c).data().toString();
            return cells;
        };
        for (int pass = 0; pass < 2; ++pass) {
            QCOMPARE(column(GraphBreaksModel::BetweenColumn), QStringList({"3.000", "4.000", ""}));
            QCOMPARE(column(GraphBreaksModel::FusionsLostColumn), QStringList({"2", "0", ""}));
            QCOMPARE(column(GraphBreaksModel::RankColumn), QStringList({"2", "1", ""}));
            QCOMPARE(model.index(2, GraphBreaksModel::RankColumn).data(GraphBreaksModel::SortRole).toInt(),
                     std::numeric_limits<int>::max());
            const QStringList lines = model.index(0, 0).data(GraphBreaksModel::CostRole).toStringList();
            QCOMPARE(lines.size(), 6);
            QCOMPARE(lines[0], QString("0/0 splits __compiled_fn_0 (2 ops) from __compiled_fn_1 (1 op)"));
            QCOMPARE(lines[1], QString("between them: 1.000 ms over 3 calls; compiling them: 0.500 s + 0.250 s"));
            QCOMPARE(lines[2], QString("kernels: 1 + 1 apart, 1 as one graph: 1 fusion lost"));
            store.replace(events);
        }
    }

    void malformedEventsGiveEmptyCellsNotExceptions() {
        RunStore store;
        GraphBreaksModel model(&store);
        store.append({{"type", "graph_break"}, {"reason", 42}, {"user_stack", {{{"line", "x"}}, 7}}});
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, GraphBreaksModel::ReasonColumn).data().toString(), QString());
        QCOMPARE(model.index(0, 0).data(GraphBreaksModel::LineRole).toInt(), 0);
    }
};

QTEST_MAIN(GraphBreaksModelTest)
#include "graph_breaks_model_test.moc"
