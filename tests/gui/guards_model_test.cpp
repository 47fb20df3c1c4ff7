// The Guards view on the recorded 03_recompiles run (one tensor guard per compile, failed by
// later calls on its size, dtype and rank): each compile's exact rows, failure counts and
// the expected / actual values of every failure, the same fed event by event or all at once
// under QAbstractItemModelTester; every reason form of engine/capture/guard.cpp parsed; a
// failure filed under the guard it is about; the script line from the event's `lines`;
// malformed events skipped; the recompiles with their reasons; and the view's line signal.
#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTreeView>

#include "gui_test_support.h"
#include "model/guards_model.h"
#include "model/recompile_reasons_model.h"
#include "views/empty_view_note.h"
#include "views/guards_view.h"

using namespace fusescope::gui;

namespace {

QStringList rows(const QAbstractItemModel& m) {
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m.columnCount(); ++c) cells << m.index(r, c).data().toString();
        out << cells.join(" | ");
    }
    return out;
}

const QString kGuard00 = "check_tensor(L['a'], torch.float32, device=cpu, requires_grad=False, size=[3, 4, 5], stride=[20, 5, 1])";
const QString kGuard01 = "check_tensor(L['a'], torch.float32, device=cpu, requires_grad=False, size=[2, 4, 5], stride=[20, 5, 1])";
const QString kSource = "7: return torch.add(a, 4)";  // the guard's line, then its source

QString parsed(const QString& reason) {
    GuardFailure f = parseGuardFailure(reason);
    return QStringList{f.source, f.property, f.expected, f.actual}.join(" | ");
}

nlohmann::json guardsEvent(const nlohmann::json& guards, const nlohmann::json& lines = nullptr) {
    nlohmann::json e = {{"type", "guards"}, {"compile_id", "1/0"}, {"guards", guards}};
    if (!lines.is_null()) e["lines"] = lines;
    return e;
}

nlohmann::json failureEvent(const nlohmann::json& reasons) {
    return {{"type", "guard_failure"}, {"compile_id", "1/0"}, {"function", "f"}, {"reasons", reasons}};
}

}  // namespace

class GuardsModelTest : public QObject {
    Q_OBJECT
private slots:
    void recordedRunFedIncrementallyThenByReset() {
        RunStore store;
        GuardsModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setCompileId("0/0");
        const auto events = test::loadFixture("recompiles");
        for (size_t i = 0; i < events.size(); ++i) {
            store.append(events[i]);
            if (i == 6)  // the first failure, a smaller first dim
                QCOMPARE(rows(model), QStringList{kGuard00 + " | " + kSource + " | failed (1×) | size[0] | 3 | 2"});
        }
        const QStringList compile00 = {kGuard00 + " | " + kSource + " | failed (3×) | rank | 3 | 2"};
        QCOMPARE(rows(model), compile00);
        QCOMPARE(model.index(0, GuardsModel::StatusColumn).data(GuardsModel::FailureCountRole).toInt(), 3);
        QCOMPARE(model.index(0, 0).data(GuardsModel::LineRole).toInt(), 7);  // the line the guard is about
        QCOMPARE(model.index(0, 0).data(Qt::ToolTipRole).toString(),
                 kGuard00 + "\nsize[0]: expected 3, actual 2\ndtype: expected Float, actual Double\nrank: expected 3, actual 2");

        store.replace(events);
        QCOMPARE(rows(model), compile00);

        model.setCompileId("0/1");
        QCOMPARE(rows(model), QStringList{kGuard01 + " | " + kSource + " | failed (2×) | rank | 3 | 2"});
        QCOMPARE(model.index(0, 0).data(Qt::ToolTipRole).toString(),
                 kGuard01 + "\ndtype: expected Float, actual Double\nrank: expected 3, actual 2");
        model.setCompileId("0/2");
        QCOMPARE(model.index(0, GuardsModel::StatusColumn).data().toString(), QString("failed (1×)"));
        QCOMPARE(model.index(0, GuardsModel::ExpectedColumn).data().toString(), QString("Double"));
        QCOMPARE(model.index(0, GuardsModel::ActualColumn).data().toString(), QString("Float"));
        model.setCompileId("0/3");
        QCOMPARE(model.index(0, GuardsModel::StatusColumn).data().toString(), QString("ok"));
        QCOMPARE(model.index(0, 0).data(GuardsModel::FailureCountRole).toInt(), 0);
        model.setCompileId("9/9");
        QCOMPARE(model.rowCount(), 0);

        model.setCompileId("0/0");
        store.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void everyReasonFormOfTheEngineIsParsed() {
        QCOMPARE(parsed("tensor 'L['a']' size mismatch at index 0. expected 3, actual 2"), QString("L['a'] | size[0] | 3 | 2"));
        QCOMPARE(parsed("tensor 'L['a']' stride mismatch at index 1. expected 5, actual 10"), QString("L['a'] | stride[1] | 5 | 10"));
        QCOMPARE(parsed("tensor 'L['a']' dtype mismatch. expected Float, actual Double"), QString("L['a'] | dtype | Float | Double"));
        QCOMPARE(parsed("tensor 'L['xs'][0]' dispatch key set mismatch. expected cpu, actual meta"),
                 QString("L['xs'][0] | device | cpu | meta"));
        QCOMPARE(parsed("tensor 'L['a']' Device index mismatch. expected 0, actual 1"), QString("L['a'] | device.index | 0 | 1"));
        QCOMPARE(parsed("tensor 'L['a']' requires_grad mismatch. expected requires_grad=1"),
                 QString("L['a'] | requires_grad | True | False"));
        QCOMPARE(parsed("tensor 'L['a']' rank mismatch. expected 3, actual 2"), QString("L['a'] | rank | 3 | 2"));
        QCOMPARE(parsed("expected type of 'L['a']' to be <class 'torch.Tensor'>, but found <class 'int'>"),
                 QString("L['a'] | type | Tensor | <class 'int'>"));
        // Other guards (constants, lengths, dynamic dims) fail with their own text: no values.
        QCOMPARE(parsed("L['n'] == 3  # y = x * n"), QString(" |  |  | "));
    }

    void failuresGoToTheGuardTheyAreAbout() {
        RunStore store;
        GuardsModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setCompileId("1/0");
        store.append(guardsEvent({"len(L['xs']) == 2  # for x in xs:",
                                  "check_tensor(L['xs'][0], torch.float32, device=cpu, requires_grad=False, size=[4], stride=[1])  # for x in xs:",
                                  "check_tensor(L['x'], torch.float32, device=cpu, requires_grad=False, size=[4], stride=[1])  # y = x * n",
                                  "L['n'] == 3                                                   # y = x * n"},
                                 {3, 3, 0, 5}));
        store.append(failureEvent({"L['n'] == 3                                                   # y = x * n",
                                   "tensor 'L['x']' dtype mismatch. expected Float, actual Int",
                                   "tensor 'L['nowhere']' rank mismatch. expected 1, actual 2"}));
        store.append(failureEvent({"tensor 'L['xs'][0]' size mismatch at index 0. expected 4, actual 5"}));
        QCOMPARE(rows(model), (QStringList{"len(L['xs']) == 2 | 3: for x in xs: | ok |  |  | ",
                                           "check_tensor(L['xs'][0], torch.float32, device=cpu, requires_grad=False, size=[4], stride=[1]) | "
                                           "3: for x in xs: | failed (1×) | size[0] | 4 | 5",
                                           "check_tensor(L['x'], torch.float32, device=cpu, requires_grad=False, size=[4], stride=[1]) | "
                                           "y = x * n | failed (1×) | dtype | Float | Int",
                                           "L['n'] == 3 | 5: y = x * n | failed (1×) |  |  | "}));
        QCOMPARE(model.index(3, 0).data(GuardsModel::LineRole).toInt(), 5);
        QCOMPARE(model.index(2, 0).data(GuardsModel::LineRole).toInt(), 0);
        QCOMPARE(model.index(3, 0).data(Qt::ToolTipRole).toString(), QString("L['n'] == 3\na later call failed it"));
        // The source column's tooltip is its whole line (the column is elided).
        QCOMPARE(model.index(3, GuardsModel::SourceColumn).data(Qt::ToolTipRole), model.index(3, GuardsModel::SourceColumn).data());
    }

    void malformedEventsAreSkipped() {
        RunStore store;
        GuardsModel model(&store);
        model.setCompileId("1/0");
        store.append(guardsEvent({7, "L['x'] == 3", nullptr}, {"seven", 4, 2}));
        store.append(failureEvent({"odd text", 5}));
        store.append({{"type", "guard_failure"}, {"compile_id", "1/0"}, {"reasons", "not a list"}});
        store.append({{"type", "guards"}, {"compile_id", 3}, {"guards", {"L['y'] == 1"}}});
        QCOMPARE(rows(model), QStringList{"L['x'] == 3 | 4:  | ok |  |  | "});
        store.append(guardsEvent("not a list"));
        QCOMPARE(model.rowCount(), 1);
    }

    void recompilesListTheirReasons() {
        RunStore store;
        RecompileReasonsModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto events = test::loadFixture("recompiles");
        for (const auto& e : events) store.append(e);
        const QString where = " | add_four | resources/examples/03_recompiles.py:6 | ";
        // The last column: the doctor's advice on each recompile's first failure.
        const QStringList expected = {
            "0/1" + where + "0/0: tensor 'L['a']' size mismatch at index 0. expected 3, actual 2 | the size of L['a']'s dim 0 "
                            "changed (3 to 2): mark it dynamic before the first call, `torch._dynamo.mark_dynamic(L['a'], 0)`, "
                            "or compile with `dynamic=True`; without either, this recompile makes the dim dynamic and later "
                            "sizes reuse it",
            "0/2" + where + "0/1: tensor 'L['a']' dtype mismatch. expected Float, actual Double\n"
                            "0/0: tensor 'L['a']' dtype mismatch. expected Float, actual Double | L['a']'s dtype changed "
                            "(Float to Double): each dtype compiles once; convert L['a'] to one dtype before the call",
            "0/3" + where + "0/2: tensor 'L['a']' dtype mismatch. expected Double, actual Float\n"
                            "0/1: tensor 'L['a']' rank mismatch. expected 3, actual 2\n"
                            "0/0: tensor 'L['a']' rank mismatch. expected 3, actual 2 | L['a']'s dtype changed (Double to "
                            "Float): each dtype compiles once; convert L['a'] to one dtype before the call"};
        QCOMPARE(rows(model), expected);
        QCOMPARE(model.index(1, 0).data(RecompileReasonsModel::CompileIdRole).toString(), QString("0/2"));
        QCOMPARE(model.index(1, 0).data(RecompileReasonsModel::LineRole).toInt(), 6);
        QCOMPARE(model.index(2, 0).data(RecompileReasonsModel::ReasonsRole).toStringList().size(), 3);
        store.replace(events);
        QCOMPARE(rows(model), expected);
        store.append({{"type", "recompile"}, {"compile_id", 5}, {"where", "nowhere"}, {"message", {1}}});
        QCOMPARE(rows(model).last(), QString(" |  |  |  | "));
        store.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    // A long source line is elided: the guard keeps the width.
    void aLongSourceLineLeavesTheGuardItsWidth() {
        RunStore store;
        GuardsView view(&store);
        view.resize(900, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setCompileId("1/0");
        store.append({{"type", "compile_started"}, {"compile_id", "1/0"}, {"function", "f"}});
        const std::string source = "y = " + std::string(40, 'x') + " * torch.nn.functional.scaled_dot_product_attention(q, k, v)";
        store.append(guardsEvent({"check_tensor(L['x'], torch.float32, device=cpu, size=[2, 3])  # " + source}, {7}));
        const QHeaderView* header = view.guardTable()->horizontalHeader();
        QTRY_VERIFY(header->sectionSize(GuardsModel::GuardColumn) > header->sectionSize(GuardsModel::SourceColumn));
    }

    // Empty tables say why: no run yet, no compile picked, none of them in this run.
    void emptyTablesSayWhy() {
        RunStore store;
        GuardsView view(&store);
        QCOMPARE(emptyViewNote(view.guardTable()), QString("No run yet: a compile's guards show here."));
        QCOMPARE(emptyViewNote(view.recompileList()), QString("No run yet: recompiles and the guards that failed show here."));
        store.append({{"type", "script_output"}, {"text", "eager only\n"}});
        QCOMPARE(emptyViewNote(view.guardTable()), QString("No compiles in this run."));
        store.append({{"type", "compile_started"}, {"compile_id", "1/0"}, {"function", "f"}});
        QCOMPARE(emptyViewNote(view.guardTable()), QString("Select a compile to see its guards."));
        view.setCompileId("1/0");
        QCOMPARE(emptyViewNote(view.guardTable()), QString("Compile 1/0 has no guards."));
        QCOMPARE(emptyViewNote(view.recompileList()), QString("No recompiles in this run."));
        store.append(guardsEvent({"L['n'] == 3"}));
        QCOMPARE(emptyViewNote(view.guardTable()), QString());
        store.replace(test::loadFixture("recompiles"));
        QCOMPARE(emptyViewNote(view.recompileList()), QString());
    }

    void activatingARowWithALineAsksForIt() {
        RunStore store;
        GuardsView view(&store);
        view.setCompileId("1/0");
        store.append({{"type", "compile_started"}, {"compile_id", "1/0"}, {"function", "f"}, {"where", {{"file", "pkg/m.py"}, {"line", 2}}}});
        store.append(guardsEvent({"L['n'] == 3  # y = x * n", "L['m'] == 1"}, {5, 0}));
        QSignalSpy lines(&view, &GuardsView::lineActivated);
        for (int row : {1, 0}) {
            view.guardTable()->setCurrentIndex(view.guards()->index(row, 0));
            Q_EMIT view.guardTable()->activated(view.guardTable()->currentIndex());
        }
        QCOMPARE(lines.count(), 1);  // the second guard's line is unknown
        // A line of the compiled function's file (a module of the script's own, say).
        QCOMPARE(lines.first(), (QList<QVariant>{QString("pkg/m.py"), 5}));

        store.replace(test::loadFixture("recompiles"));
        view.setCompileId("0/2");
        QCOMPARE(view.recompileList()->currentIndex().data(RecompileReasonsModel::CompileIdRole).toString(), QString("0/2"));
        Q_EMIT view.recompileList()->activated(view.recompileList()->currentIndex());
        QCOMPARE(lines.last().value(1).toInt(), 6);
        QCOMPARE(lines.last().first().toString(), QString("resources/examples/03_recompiles.py"));
    }
};

QTEST_MAIN(GuardsModelTest)
#include "guards_model_test.moc"
