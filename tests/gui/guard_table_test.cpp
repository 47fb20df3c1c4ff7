// The Guards view's models on the recorded 03_recompiles run: each compile's guard with its
// script line, how often later calls failed it and the latest expected / actual values, the
// same fed event by event or all at once; and the list of recompiles with their reasons.
#include <QAbstractItemModelTester>
#include <QFile>
#include <QTest>

#include "gui_test_support.h"
#include "model/guard_table_model.h"

using namespace fusescope::gui;

namespace {

QStringList rows(const GuardTableModel& m) {
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m.columnCount(); ++c) cells << m.index(r, c).data().toString();
        out << cells.join(" | ");
    }
    return out;
}

QString script() {
    QFile f(QString::fromStdString(test::sourcePath("resources/examples/03_recompiles.py")));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

}  // namespace

class GuardTableTest : public QObject {
    Q_OBJECT
private slots:
    void guardsWithTheirFailuresFedIncrementallyOrAllAtOnce() {
        RunStore store;
        GuardTableModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setScript(script());
        model.setCompileId("0/0");
        auto events = test::loadFixture("recompiles");
        for (const auto& e : events) store.append(e);
        const QStringList compile00 = {
            "check_tensor(L['a'], torch.float32, device=cpu, requires_grad=False, size=[3, 4, 5], stride=[20, 5, 1]) | "
            "7: return torch.add(a, 4) | failed (3×) | 3 | 2"};
        QCOMPARE(rows(model), compile00);
        QCOMPARE(model.index(0, 0).data(GuardTableModel::LineRole).toInt(), 7);
        QCOMPARE(model.index(0, 0).data(Qt::ToolTipRole).toString(),
                 QString("tensor 'L['a']' size mismatch at index 0. expected 3, actual 2\n"
                         "tensor 'L['a']' dtype mismatch. expected Float, actual Double\n"
                         "tensor 'L['a']' rank mismatch. expected 3, actual 2"));
        store.replace(events);
        QCOMPARE(rows(model), compile00);

        model.setCompileId("0/1");
        QCOMPARE(rows(model), QStringList{"check_tensor(L['a'], torch.float32, device=cpu, requires_grad=False, size=[2, 4, 5], "
                                          "stride=[20, 5, 1]) | 7: return torch.add(a, 4) | failed (2×) | 3 | 2"});
        model.setCompileId("0/3");
        QCOMPARE(model.index(0, GuardTableModel::StatusColumn).data().toString(), QString("ok"));
        QVERIFY(!model.index(0, 0).data(GuardTableModel::FailedRole).toBool());
        model.setCompileId("9/9");
        QCOMPARE(model.rowCount(), 0);
    }

    void malformedEventsAreSkipped() {
        RunStore store;
        GuardTableModel model(&store);
        model.setCompileId("0/0");
        store.append({{"type", "guards"}, {"compile_id", "0/0"}, {"guards", {7, "L['x'] == 3"}}});
        store.append({{"type", "guard_failure"}, {"compile_id", "0/0"}, {"reasons", {"odd text", 5}}});
        QCOMPARE(rows(model), QStringList{"L['x'] == 3 |  | ok |  | "});
    }

    void recompilesListTheirReasons() {
        RunStore store;
        RecompileReasonsModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto events = test::loadFixture("recompiles");
        for (const auto& e : events) store.append(e);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(0).data().toString(),
                 QString("0/1: Recompiling function add_four in resources/examples/03_recompiles.py:6\n"
                         "    triggered by the following guard failure(s):\n"
                         "    - 0/0: tensor 'L['a']' size mismatch at index 0. expected 3, actual 2"));
        store.replace(events);
        QCOMPARE(model.rowCount(), 3);
        QVERIFY(model.index(2).data().toString().startsWith("0/3: Recompiling function add_four"));
    }
};

QTEST_MAIN(GuardTableTest)
#include "guard_table_test.moc"
