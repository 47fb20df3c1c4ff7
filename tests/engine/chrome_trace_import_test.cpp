// Real PyTorch 2.15 profiler output (tests/fixtures/torch_trace/profiled: a compiled function
// called three times under torch.profiler) read back into trace records: spans with their
// threads, parents and record function ids, compiled regions with their compile id, and the
// execution trace's shapes merged in by rf_id.
#include <gtest/gtest.h>

#include <fstream>

#include "profile/chrome_trace_import.h"
#include "test_support.h"

namespace fusescope::test {
namespace {

nlohmann::json fixtureJson(const std::string& name) {
    std::ifstream in(sourcePath("tests/fixtures/torch_trace/profiled/" + name));
    return nlohmann::json::parse(in);
}

TEST(ChromeTraceImport, TorchProfilerSpansNestAsTheyRan) {
    nlohmann::json chrome = fixtureJson("chrome_trace.json");
    ASSERT_TRUE(isChromeTrace(chrome));
    EXPECT_FALSE(isExecutionTrace(chrome));
    std::vector<TraceRecord> records = recordsFromChromeTrace(chrome);
    ASSERT_EQ(records.size(), 24u);  // the cpu_op spans; metadata, instants and the profiler's own span left out
    std::map<int64_t, const TraceRecord*> byId;
    for (const auto& r : records) byId[r.rfId] = &r;
    ASSERT_EQ(byId.size(), 24u);
    const TraceRecord& region = *byId.at(5);
    EXPECT_EQ(region.name, "Torch-Compiled Region: 0/0");
    EXPECT_EQ(region.compileId, "0/0");
    EXPECT_EQ(region.category, TraceCategory::CpuOp);
    EXPECT_EQ(region.endNs - region.beginNs, 389120);
    const TraceRecord& call = *byId.at(8);
    EXPECT_EQ(call.name.rfind("## Call CompiledFxGraph ", 0), 0u);
    EXPECT_EQ(call.parentId, 5) << "the compiled graph's call runs inside its region";
    EXPECT_EQ(byId.at(2)->parentId, 1) << "aten::empty inside aten::randn";
    EXPECT_EQ(byId.at(1)->parentId, 0);
    EXPECT_TRUE(std::is_sorted(records.begin(), records.end(),
                               [](const TraceRecord& a, const TraceRecord& b) { return a.beginNs < b.beginNs; }));
}

TEST(ChromeTraceImport, TheExecutionTraceAddsSchemasAndShapesByRfId) {
    std::vector<TraceRecord> records = recordsFromChromeTrace(fixtureJson("chrome_trace.json"));
    nlohmann::json et = fixtureJson("execution_trace.json");
    ASSERT_TRUE(isExecutionTrace(et));
    EXPECT_EQ(mergeExecutionTrace(records, et), 24u);
    const TraceRecord& randn = records.front();
    EXPECT_EQ(randn.name, "aten::randn");
    EXPECT_EQ(randn.opSchema.rfind("aten::randn(SymInt[] size", 0), 0u) << randn.opSchema;
    EXPECT_EQ(randn.outputs.shapes, nlohmann::json::parse("[[64, 64]]"));
    EXPECT_EQ(randn.outputs.types, nlohmann::json::parse(R"j(["Tensor(float)"])j"));
}

// What the fuzzer found (fuzz/corpus/profiler_trace/crash-*): a field of the wrong kind
// ("ph": 6) threw; a time beyond int64's nanoseconds was converted anyway.
TEST(ChromeTraceImport, EventsWithFieldsOfTheWrongKindOrTimesOutOfRangeAreSkipped) {
    nlohmann::json doc = nlohmann::json::parse(R"({"traceEvents": [
        {"ph": 6, "name": "a", "tid": 1, "ts": 1},
        {"ph": "X", "name": "b", "tid": 1, "ts": 1e300, "dur": 1},
        {"ph": "X", "name": 7, "cat": [], "tid": 1, "ts": 2, "dur": "long", "args": 3},
        {"ph": "X", "name": "c", "tid": 1, "ts": 3, "dur": -1e300}],
        "schema": "1", "nodes": [{"name": 5, "attrs": [{"name": "rf_id", "value": 1}]}]})");
    std::vector<TraceRecord> records = recordsFromChromeTrace(doc);
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(records[0].name, "") << "a name that is not text reads as none";
    EXPECT_EQ(records[0].beginNs, 2000);
    EXPECT_EQ(records[0].endNs, 2000);
    EXPECT_EQ(records[1].name, "c");
    EXPECT_EQ(records[1].endNs, 3000);
    EXPECT_EQ(mergeExecutionTrace(records, doc), 0u);
}

}  // namespace
}  // namespace fusescope::test
