// The Compiles and Logs models on recorded runs (tests/gui/fixtures) and on events the
// engine would send for cases the fixtures lack (eager fallback, failures, traces, levels).

#include <QAbstractItemModelTester>
#include <QtTest>

#include "gui_test_support.h"
#include "model/compiles_model.h"
#include "model/logs_model.h"
#include "model/run_store.h"

using namespace fusescope;
using namespace fusescope::gui;
using nlohmann::json;

namespace {

constexpr auto qtTestReporting = QAbstractItemModelTester::FailureReportingMode::QtTest;

// One line per row, its columns joined by '|'; children indented under their parent.
QStringList dump(const QAbstractItemModel& model, const QModelIndex& parent = {}, const QString& indent = {}) {
    QStringList lines;
    for (int r = 0; r < model.rowCount(parent); ++r) {
        QStringList cells;
        for (int c = 0; c < model.columnCount(parent); ++c) cells << model.index(r, c, parent).data().toString();
        lines << indent + cells.join('|');
        lines << dump(model, model.index(r, 0, parent), indent + "  ");
    }
    return lines;
}

QMap<QString, int> countByName(const LogsModel& logs) {
    QMap<QString, int> counts;
    for (int r = 0; r < logs.rowCount(); ++r) ++counts[logs.index(r, LogsModel::NameColumn).data().toString()];
    return counts;
}

std::vector<json> fixture(const char* name) { return test::loadFixture(name); }

json traceEvent(TraceCategory category, const std::string& name, const std::string& compileId, int64_t ns, int64_t beginNs = 0) {
    TraceRecord r;
    r.category = category;
    r.name = name;
    r.compileId = compileId;
    r.beginNs = beginNs;
    r.endNs = beginNs + ns;
    return eventToJson(TraceEvent{r});
}

json logEvent(const std::string& compileId, const std::string& name, LogLevel level, const std::string& message) {
    return eventToJson(LogEvent{compileId, name, false, level, message});
}

// The cells as a view sees them: read only when the model signals a reset, new rows or
// changed data. It matches a fresh read only if the model signalled every change.
class Mirror {
public:
    explicit Mirror(QAbstractItemModel* model) : model_(model) {
        connect(&QAbstractItemModel::modelReset, [this] { readAll(); });
        connect(&QAbstractItemModel::rowsInserted, [this](const QModelIndex& parent, int first, int last) {
            readRows(parent, first, last);
        });
        connect(&QAbstractItemModel::dataChanged, [this](const QModelIndex& from, const QModelIndex& to) {
            for (int r = from.row(); r <= to.row(); ++r)
                for (int c = from.column(); c <= to.column(); ++c) read(model_->index(r, c, from.parent()));
        });
        readAll();
    }
    QMap<QString, QString> cells() const { return cells_; }

private:
    template <class Signal, class Slot> void connect(Signal signal, Slot slot) {
        QObject::connect(model_, signal, &context_, slot);
    }
    void readAll() {
        cells_.clear();
        readRows({}, 0, model_->rowCount() - 1);
    }
    void readRows(const QModelIndex& parent, int first, int last) {
        for (int r = first; r <= last; ++r) {
            for (int c = 0; c < model_->columnCount(parent); ++c) read(model_->index(r, c, parent));
            QModelIndex row = model_->index(r, 0, parent);
            readRows(row, 0, model_->rowCount(row) - 1);
        }
    }
    void read(const QModelIndex& index) {
        QString key = QString("%1/%2:%3").arg(index.parent().row()).arg(index.row()).arg(index.column());
        cells_[key] = index.data().toString() + '|' + index.data(Qt::ToolTipRole).toString();
    }

    QAbstractItemModel* model_;
    QObject context_;  // ends the connections with the mirror
    QMap<QString, QString> cells_;
};

// A run's store and both models, checked by QAbstractItemModelTester on every change.
struct Run {
    RunStore store;
    CompilesModel compiles{&store};
    LogsModel logs{&store};
    QAbstractItemModelTester compilesTester{&compiles, qtTestReporting};
    QAbstractItemModelTester logsTester{&logs, qtTestReporting};
    Mirror compilesSeen{&compiles}, logsSeen{&logs};

    // One by one as from a live engine, then all at once as from a bundle over the same
    // models: both paths must give the same rows, and the live one must signal each change.
    void feed(const std::vector<json>& events) {
        for (const json& e : events) store.append(e);
        QCOMPARE(compilesSeen.cells(), Mirror(&compiles).cells());
        QCOMPARE(logsSeen.cells(), Mirror(&logs).cells());
        QStringList live = dump(compiles), liveLogs = dump(logs);
        store.replace(events);
        QCOMPARE(dump(compiles), live);
        QCOMPARE(dump(logs), liveLogs);
    }
    QString statusTip(const char* compileId) const {
        return compiles.indexForCompileId(compileId, CompilesModel::StatusColumn).data(Qt::ToolTipRole).toString();
    }
};

}  // namespace

class ModelsTest : public QObject {
    Q_OBJECT
private slots:
    void recompiles();
    void seed000();
    void graphBreaks();
    void eagerAndFailedCompiles();
    void tracedTimesAndHits();
    void storeIndexesEachCompilesEventsWithoutTraceEvents();
    void logFilters();
    void fieldsOfTheWrongKindAreReadAsAbsent();
};

void ModelsTest::recompiles() {
    Run run;
    run.feed(fixture("recompiles"));
    QCOMPARE(dump(run.compiles), QStringList({"add_four|recompiled|4|4|0.0|0", "  0/0|recompiled|1|1|0.0|0",
                                              "  0/1|recompiled|1|1|0.0|0", "  0/2|recompiled|1|1|0.0|0",
                                              "  0/3|ok|1|1|0.0|0"}));
    QModelIndex second = run.compiles.indexForCompileId("0/1");
    QCOMPARE(second.row(), 1);
    QCOMPARE(second.parent().data().toString(), "add_four");
    QCOMPARE(run.compiles.compileId(second), "0/1");
    QCOMPARE(run.compiles.compileId(second.parent()), QString());
    QVERIFY(!run.compiles.indexForCompileId("1/0").isValid());
    QVERIFY(run.statusTip("0/0").contains("size mismatch at index 0"));
    QCOMPARE(countByName(run.logs), (QMap<QString, int>{{"guards", 4}, {"recompiles", 3}}));

    run.store.clear();
    QCOMPARE(run.compiles.rowCount(), 0);
    QCOMPARE(run.logs.rowCount(), 0);
    QVERIFY(!run.compiles.indexForCompileId("0/0").isValid());
}

void ModelsTest::seed000() {
    {
        // Until its guards are installed, the compile is still compiling (not "ok"), and says so.
        Run live;
        for (const json& e : fixture("seed000_inductor")) {
            if (e["type"] == "guards") {
                QCOMPARE(dump(live.compiles), QStringList({"fn|compiling|1|4|62.2|0", "  0/0|compiling|1|4|62.2|0"}));
                break;
            }
            live.store.append(e);
        }
    }
    Run run;
    run.feed(fixture("seed000_inductor"));
    // Compile time from kernel_source compile_seconds (0.1417 s): the fixture is untraced.
    QCOMPARE(dump(run.compiles), QStringList({"fn|ok|1|4|62.2|0", "  0/0|ok|1|4|62.2|0"}));
    QCOMPARE(run.compiles.indexForCompileId("0/0").data(CompilesModel::StatusRole).toInt(),
             int(CompilesModel::Status::Ok));
    QCOMPARE(run.statusTip("0/0"), "ok");  // the status column may be elided: with no reason, the status whole
    QCOMPARE(run.compiles.headerData(CompilesModel::TimeColumn, Qt::Horizontal).toString(), "ms");
    QVERIFY(run.compiles.headerData(CompilesModel::TimeColumn, Qt::Horizontal, Qt::ToolTipRole).toString().startsWith("Compile time in milliseconds"));
    QCOMPARE(countByName(run.logs), (QMap<QString, int>{{"fusion", 2}, {"output_code", 1}, {"guards", 1}}));
    QCOMPARE(dump(run.logs).at(2), "INFO|0/0|output_code|Output code of __compiled_fn_0: … (+127 lines)");  // a row per record
    QString full = run.logs.index(2, LogsModel::MessageColumn).data(Qt::ToolTipRole).toString();
    QVERIFY(full.startsWith("Output code of __compiled_fn_0:\n// Fusescope generated code"));
}

void ModelsTest::graphBreaks() {
    Run run;
    run.feed(fixture("graph_breaks"));
    QCOMPARE(dump(run.compiles),
             QStringList({"with_print|graph break|2|2|0.0|0", "  0/0|graph break|2|2|0.0|0",
                          "with_branch|graph break|3|4|0.0|0", "  1/0|graph break|3|4|0.0|0",
                          "with_explicit_break|graph break|2|2|0.0|0", "  2/0|graph break|2|2|0.0|0",
                          "with_item|graph break|2|2|0.0|0", "  3/0|graph break|2|2|0.0|0"}));
    QCOMPARE(run.statusTip("1/0"), "Data-dependent branching");
    QCOMPARE(countByName(run.logs), (QMap<QString, int>{{"graph_breaks", 4}}));
}

void ModelsTest::eagerAndFailedCompiles() {
    KernelSourceEvent badCpp;
    badCpp.compileId = "2/0";
    badCpp.compileSeconds = 0.25;
    badCpp.error = "error: expected ';'";
    std::vector<json> events = {
        eventToJson(CompileStartedEvent{"0/0", "wont", {}}),
        eventToJson(EagerFallbackEvent{"0/0", "__compiled_fn_0", "inductor", "internal error"}),
        eventToJson(GuardsEvent{"0/0", {}, {}}),
        eventToJson(CompileStartedEvent{"1/0", "unlowered", {}}),
        eventToJson(EagerFallbackEvent{"1/0", "__compiled_fn_1", "inductor", "cannot lower x"}),
        eventToJson(GuardsEvent{"1/0", {}, {}}),
        eventToJson(CompileStartedEvent{"2/0", "bad_cpp", {}}),
        eventToJson(badCpp),
        eventToJson(GuardsEvent{"2/0", {}, {}}),
        eventToJson(CompileStartedEvent{"3/0", "ran", {}}),
        eventToJson(GuardsEvent{"3/0", {}, {}}),
        eventToJson(ErrorEvent{"ZeroDivisionError: division by zero", {}}),  // after its compile: still ok
        eventToJson(CompileStartedEvent{"4/0", "broken", {}}),
        eventToJson(ErrorEvent{"NameError: name 'y' is not defined", {}}),
    };
    Run run;
    run.feed(events);
    QCOMPARE(dump(run.compiles),
             QStringList({"wont|fell back to eager|0|0|0.0|0", "  0/0|fell back to eager|0|0|0.0|0",
                          "unlowered|fell back to eager|0|0|0.0|0", "  1/0|fell back to eager|0|0|0.0|0",
                          "bad_cpp|fell back to eager|0|0|250.0|0", "  2/0|fell back to eager|0|0|250.0|0",
                          "ran|ok|0|0|0.0|0", "  3/0|ok|0|0|0.0|0", "broken|failed|0|0|0.0|0",
                          "  4/0|failed|0|0|0.0|0"}));
    QCOMPARE(run.statusTip("2/0"), "error: expected ';'");
    QCOMPARE(run.statusTip("4/0"), "NameError: name 'y' is not defined");
    QCOMPARE(run.compiles.indexForCompileId("4/0").data(CompilesModel::StatusRole).toInt(),
             int(CompilesModel::Status::Failed));
}

void ModelsTest::tracedTimesAndHits() {
    std::vector<json> events = fixture("seed000_inductor");
    events.insert(events.end(), {traceEvent(TraceCategory::Compile, "capture __compiled_fn_0", "0/0", 2'000'000),
                                 traceEvent(TraceCategory::Compile, "lower __compiled_fn_0", "0/0", 3'500'000, 2'000'000),
                                 // Around both (PyTorch's logs nest their phases): counted once.
                                 traceEvent(TraceCategory::Compile, "compile_fx", "0/0", 5'500'000),
                                 traceEvent(TraceCategory::Compile, "lower __compiled_fn_9", "9/9", 1'000'000),
                                 traceEvent(TraceCategory::CpuOp, "aten::add", "0/0", 7'000'000)});
    for (int call = 0; call < 3; ++call)
        events.push_back(traceEvent(TraceCategory::UserAnnotation, "Torch-Compiled Region: 0/0", "0/0", 10));
    Run run;
    run.feed(events);
    // Traced compile phases time the compile (2 + 3.5 ms) instead of the kernels' 62.2 ms.
    QCOMPARE(dump(run.compiles), QStringList({"fn|ok|1|4|5.5|3", "  0/0|ok|1|4|5.5|3"}));
}

void ModelsTest::storeIndexesEachCompilesEventsWithoutTraceEvents() {
    RunStore store;
    std::vector<json> events = fixture("recompiles");
    for (const auto& e : events) store.append(e);
    store.append(traceEvent(TraceCategory::Kernel, "cpp_fused_add_0", "0/1", 10));
    auto types = [&](const std::string& id) {
        QStringList out;
        for (int i : store.compileEvents(id)) out << QString::fromStdString(eventType(store.at(i)));
        return out;
    };
    const QStringList compile01 = {"log", "recompile", "compile_started", "graph_captured", "log", "guards", "guard_failure", "guard_failure"};
    QCOMPARE(types("0/1"), compile01);  // the kernel's trace event is not among them
    store.replace(events);
    QCOMPARE(types("0/1"), compile01);
    QVERIFY(store.compileEvents("9/9").empty());
    store.clear();
    QVERIFY(store.compileEvents("0/1").empty());
}

void ModelsTest::logFilters() {
    std::vector<json> events = fixture("recompiles");
    events.push_back(logEvent("0/3", "dynamo", LogLevel::Warning, "WON'T CONVERT add_four\ndue to: test"));
    events.push_back(logEvent("", "inductor", LogLevel::Error, "Boom"));
    events.push_back(logEvent("0/0", "dynamo", LogLevel::Debug, "Step 1: torchdynamo start tracing"));
    Run run;
    run.feed(events);
    QCOMPARE(dump(run.logs).mid(7), QStringList({"WARNING|0/3|dynamo|WON'T CONVERT add_four … (+1 line)", "ERROR||inductor|Boom",
                                                 "DEBUG|0/0|dynamo|Step 1: torchdynamo start tracing"}));

    LogFilterProxy proxy;
    proxy.setSourceModel(&run.logs);
    QAbstractItemModelTester proxyTester(&proxy, qtTestReporting);
    QCOMPARE(proxy.rowCount(), 10);

    proxy.setMinimumLevel(LogLevel::Info);
    QCOMPARE(proxy.rowCount(), 9);
    proxy.setMinimumLevel(LogLevel::Warning);
    QCOMPARE(proxy.rowCount(), 2);
    proxy.setMinimumLevel(LogLevel::Error);
    QCOMPARE(proxy.rowCount(), 1);
    proxy.setMinimumLevel(LogLevel::Debug);

    proxy.setNames({"guards"});
    QCOMPARE(proxy.rowCount(), 4);
    proxy.setNames({"guards", "recompiles"});
    QCOMPARE(proxy.rowCount(), 7);
    proxy.setNames({});

    proxy.setCompileId("0/3");
    QCOMPARE(proxy.rowCount(), 3);
    proxy.setCompileId({});

    // The text is on the recompile messages' later lines, in lower case.
    proxy.setText("DTYPE MISMATCH");
    QCOMPARE(proxy.rowCount(), 2);
    proxy.setText({});
    QCOMPARE(proxy.rowCount(), 10);

    proxy.setNames({"guards"});
    proxy.setCompileId("0/2");
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(proxy.index(0, LogsModel::MessageColumn).data().toString(), "GUARDS: … (+1 line)");  // not just "GUARDS:"
    run.store.append(eventToJson(LogEvent{"0/2", "guards", true, LogLevel::Info, "GUARDS:\nagain"}));
    QCOMPARE(proxy.rowCount(), 2);  // live rows pass through the filter
}

// Readers check events against the schema, but the models never rely on it: a field of the
// wrong kind reads as absent instead of throwing through Qt's event loop (which aborted).
void ModelsTest::fieldsOfTheWrongKindAreReadAsAbsent() {
    Run run;
    run.feed({json{{"type", "compile_started"}, {"compile_id", "0/0"}, {"function", 5}},
              json{{"type", "graph_captured"}, {"compile_id", "0/0"}, {"op_count", "three"}, {"break_reason", nullptr}},
              json{{"type", "graph_break"}, {"compile_id", "0/0"}, {"reason", 7}},
              json{{"type", "kernel_source"}, {"compile_id", "0/0"}, {"compile_seconds", "slow"}, {"error", false}},
              json{{"type", "log"}, {"compile_id", 1}, {"level", 30}, {"name", nullptr}, {"message", json::array()}},
              json{{"type", "error"}, {"message", 3.5}}});
    QCOMPARE(run.compiles.rowCount(), 1);
    QCOMPARE(run.logs.rowCount(), 1);
}

QTEST_MAIN(ModelsTest)
#include "models_test.moc"
