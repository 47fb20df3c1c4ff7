// Reading a bundle's events.jsonl into the RunStore's form: trace events as compact span
// records (read with a SAX parser, in chunks of lines on several threads), the others
// typed. The compact path must keep exactly what the JSON path keeps, and report a
// bad line by its number in the whole file.
#include <algorithm>
#include <fstream>
#include <sstream>

#include <QTest>

#include "core/error.h"
#include "gui_test_support.h"
#include "model/run_events.h"

using namespace fusescope;
using namespace fusescope::gui;

namespace {

std::string fixtureText(const std::string& name) {
    std::ifstream in(test::sourcePath("tests/gui/fixtures/" + name + ".jsonl"), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The same span fields, whatever path read them.
bool sameSpan(const TraceLog& a, size_t i, const TraceLog& b, size_t j) {
    const TraceSpanRecord &x = a.records()[i], &y = b.records()[j];
    return x.rfId == y.rfId && x.parentId == y.parentId && x.tid == y.tid && x.begin == y.begin && x.end == y.end &&
           x.category == y.category && a.nameOf(x) == b.nameOf(y) && a.compileIdOf(i) == b.compileIdOf(j);
}

// Typed events as the engine writes them, to compare.
std::vector<nlohmann::json> asJson(const std::vector<Event>& events) {
    std::vector<nlohmann::json> out;
    for (const Event& e : events) out.push_back(eventToJson(e));
    return out;
}

// What parsing `text` throws, or "" when it parses.
QString errorOf(std::string text) {
    try {
        parseRunEvents(std::move(text));
    } catch (const fusescope::Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

// Many copies of the fixture: past the size where reading splits the text across threads.
std::string bigText(const std::string& fixture, int copies) {
    std::string text;
    for (int i = 0; i < copies; ++i) text += fixture;
    return text;
}

}  // namespace

class RunEventsTest : public QObject {
    Q_OBJECT
private slots:
    void theCompactReadKeepsWhatTheJsonReadKeeps() {
        std::string text = fixtureText("traced_run");
        RunEvents viaJson = splitRunEvents(test::loadFixture("traced_run"));
        RunEvents compact = parseRunEvents(text);
        QCOMPARE(compact.traces.size(), size_t(25));
        QCOMPARE(compact.traces.size(), viaJson.traces.size());
        QVERIFY(asJson(compact.events) == asJson(viaJson.events));
        for (size_t i = 0; i < compact.traces.size(); ++i) {
            QVERIFY2(sameSpan(compact.traces, i, viaJson.traces, i), qPrintable(QString("span %1").arg(i)));
            // A span's whole event is there again when a view wants its details.
            QVERIFY(compact.traces.event(i) == viaJson.traces.event(i));
            QCOMPARE(compact.traces.event(i).value("type", std::string()), std::string("trace_event"));
        }
        int kernels = 0;
        for (size_t i = 0; i < compact.traces.size(); ++i)
            if (compact.traces.records()[i].category == SpanCategory::Kernel) {
                ++kernels;
                QCOMPARE(compact.traces.compileIdOf(i), std::string("0/0"));
            }
        QCOMPARE(kernels, 4);
        QVERIFY(compact.traces.event(25).is_null());
    }

    void chunksAreReadInParallelAndJoinedInOrder() {
        const std::string fixture = fixtureText("traced_run");
        const int copies = 400;  // about 23 MB
        RunEvents run = parseRunEvents(bigText(fixture, copies));
        RunEvents one = parseRunEvents(fixture);
        QCOMPARE(run.traces.size(), one.traces.size() * copies);
        QCOMPARE(run.events.size(), one.events.size() * copies);
        for (size_t i = 0; i < run.traces.size(); i += 997)
            QVERIFY2(sameSpan(run.traces, i, one.traces, i % one.traces.size()), qPrintable(QString("span %1").arg(i)));
        QVERIFY(eventToJson(run.events.back()) == eventToJson(one.events.back()));
        QVERIFY(run.traces.event(run.traces.size() - 1) == one.traces.event(one.traces.size() - 1));
    }

    void aBadLineIsNamedByItsNumberInTheWholeFile() {
        const std::string fixture = fixtureText("traced_run");
        const int lines = static_cast<int>(std::count(fixture.begin(), fixture.end(), '\n'));
        const int copies = 400;
        // Far into the text, so in another chunk than the first.
        std::string text = bigText(fixture, copies) + "{\"type\": \"log\", \"message\": \"cut sh\n" + fixture;
        QCOMPARE(errorOf(text), QString("events.jsonl line %1: malformed JSON").arg(lines * copies + 1));
        QCOMPARE(errorOf(fixture + "[1, 2]\n"), QString("events.jsonl line %1: not an event (a JSON object with a \"type\")").arg(lines + 1));
        QCOMPARE(errorOf("{\"type\": 3}\n"), QString("events.jsonl line 1: not an event (a JSON object with a \"type\")"));
        QCOMPARE(errorOf("{\"type\": \"log\"}\n\n"), QString("events.jsonl line 2: malformed JSON"));
        QCOMPARE(errorOf(""), QString());
    }

    void eventsAreCheckedAgainstTheSchemaAsTheBundleReaderChecksThem() {
        // The same words as `bundle inspect`: a field of the wrong kind, in any event or a
        // trace span, and nesting past the limit.
        QCOMPARE(errorOf("{\"type\": \"log\", \"message\": \"ok\"}\n{\"type\": \"compile_started\", \"compile_id\": 7}\n"),
                 QString("events.jsonl line 2: field \"compile_id\" is an integer, expected a string"));
        QCOMPARE(errorOf("{\"type\": \"log\", \"level\": null}\n"),
                 QString("events.jsonl line 1: field \"level\" is null, expected a string"));
        QCOMPARE(errorOf("{\"type\": \"kernel_source\", \"language\": 3}\n"),
                 QString("events.jsonl line 1: field \"language\" is an integer, expected a string"));
        // Each event type by its own fields: "graph" is graph_captured's nodes, any other's name.
        QCOMPARE(errorOf("{\"type\": \"kernel_source\", \"graph\": {}}\n"),
                 QString("events.jsonl line 1: field \"graph\" is an object, expected a string"));
        QCOMPARE(errorOf("{\"type\": \"graph_captured\", \"graph\": {\"nodes\": []}}\n"), QString());
        QCOMPARE(errorOf("{\"type\": \"error\", \"where\": {\"file\": \"s.py\", \"line\": \"4\"}}\n"),
                 QString("events.jsonl line 1: field \"where.line\" is a string, expected an integer"));
        QCOMPARE(errorOf("{\"type\": \"trace_event\", \"rf_id\": 1, \"begin_ns\": 0, \"end_ns\": 5, \"name\": 5}\n"),
                 QString("events.jsonl line 1: field \"name\" is an integer, expected a string"));
        QCOMPARE(errorOf("{\"type\": \"log\", \"x\": " + std::string(600, '[') + std::string(600, ']') + "}\n"),
                 QString("events.jsonl line 1: nests JSON deeper than 512 levels"));
        // Fields the event's type does not have, and nested fields other than the location, are kept.
        QCOMPARE(errorOf("{\"type\": \"log\", \"extra\": 5, \"nodes\": [{\"name\": 3}]}\n"), QString());
        // A repeated key counts by its last value, as the bundle reader reads it.
        QCOMPARE(errorOf("{\"type\": \"log\", \"message\": 5, \"message\": \"fine\"}\n"), QString());
        QCOMPARE(errorOf("{\"type\": \"log\", \"message\": \"fine\", \"message\": 5}\n"),
                 QString("events.jsonl line 1: field \"message\" is an integer, expected a string"));
    }

    void aTraceEventWithoutItsTimesIsKeptAsAnyOtherEvent() {
        RunEvents run = parseRunEvents(R"({"type": "trace_event", "name": "aten::add", "rf_id": 4})"
                                       "\n"
                                       R"({"type": "trace_event", "name": "aten::mul", "rf_id": 5, "begin_ns": 20, "end_ns": 10})"
                                       "\n"
                                       R"({"type": "trace_event", "name": "k", "rf_id": 6, "begin_ns": 1, "end_ns": 9, "cat": "kernel",)"
                                       R"( "inputs": {"name": "not this one", "rf_id": 99}})");
        QCOMPARE(run.events.size(), size_t(2));
        QCOMPARE(std::get<TraceEvent>(run.events[0]).record.name, std::string("aten::add"));
        QCOMPARE(run.traces.size(), size_t(1));
        const TraceSpanRecord& k = run.traces.records()[0];
        QCOMPARE(run.traces.nameOf(k), std::string("k"));  // nested fields are not the span's
        QCOMPARE(k.rfId, int64_t(6));
        QCOMPARE(k.end - k.begin, int64_t(8));
        QCOMPARE(k.category, SpanCategory::Kernel);
        QCOMPARE(run.traces.compileIdOf(0), std::string());
    }
};

QTEST_MAIN(RunEventsTest)
#include "run_events_test.moc"
