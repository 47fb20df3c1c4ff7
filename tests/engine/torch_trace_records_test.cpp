// The records of real PyTorch 2.15 TORCH_TRACE logs (tests/fixtures/torch_trace, made by
// scripts/make-torch-trace-fixtures): kinds, compile ids, payloads, the string table, and
// lines that are not records skipped with a warning.

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "test_support.h"
#include "torch_trace/trace_log_records.h"

namespace fusescope::test {
namespace {

TraceLog recordsOf(const std::string& name) {
    std::ifstream in(sourcePath("tests/fixtures/torch_trace/" + name + "/dedicated_log_torch_trace_fixture.log"));
    EXPECT_TRUE(in.good()) << name;
    return readTraceLog(in);
}

std::vector<std::string> compileIdsOf(const TraceLog& log, const std::string& kind) {
    std::vector<std::string> ids;
    for (const auto& r : log.records)
        if (r.kind == kind) ids.push_back(r.compileId);
    return ids;
}

size_t artifactsNamed(const TraceLog& log, const std::string& name) {
    return std::count_if(log.records.begin(), log.records.end(),
                         [&](const TraceLogRecord& r) { return r.kind == "artifact" && r.metadata.value("name", "") == name; });
}

TEST(TorchTraceRecords, GraphBreaksGiveAFrameForEachResumedPiece) {
    TraceLog log = recordsOf("graph_breaks");
    EXPECT_TRUE(log.warnings.empty());
    EXPECT_EQ(log.records.size(), 574u);
    EXPECT_EQ(log.strings.size(), 3u);
    EXPECT_EQ(compileIdsOf(log, "dynamo_start"), (std::vector<std::string>{"0/0", "1/0", "2/0", "3/0"}));
    EXPECT_EQ(artifactsNamed(log, "dynamo_graph_break_reason"), 2u);
    // The first output code: a payload of 106 lines, under the compile's second attempt.
    auto code = std::find_if(log.records.begin(), log.records.end(), [](const auto& r) { return r.kind == "inductor_output_code"; });
    ASSERT_NE(code, log.records.end());
    EXPECT_EQ(code->compileId, "0/0_1");
    EXPECT_EQ(code->payload.rfind("# AOT ID: ['0_inference']\n", 0), 0u);
    EXPECT_EQ(std::count(code->payload.begin(), code->payload.end(), '\n'), 105);
    EXPECT_TRUE(code->context.contains("has_payload"));
}

TEST(TorchTraceRecords, RecompilesShareTheFrameAndCountUp) {
    TraceLog log = recordsOf("recompiles");
    EXPECT_EQ(compileIdsOf(log, "dynamo_start"), (std::vector<std::string>{"0/0", "0/1", "0/2", "0/3"}));
    EXPECT_EQ(artifactsNamed(log, "recompile_reasons"), 3u);
    EXPECT_EQ(log.strings.size(), 15u);
}

TEST(TorchTraceRecords, ATrainingStepHasJointForwardAndBackwardGraphs) {
    TraceLog log = recordsOf("training_step");
    for (const char* kind : {"aot_joint_graph", "aot_forward_graph", "aot_backward_graph", "bwd_compilation_metrics"})
        EXPECT_EQ(compileIdsOf(log, kind).size(), 1u) << kind;
}

TEST(TorchTraceRecords, LinesThatAreNotRecordsAreSkippedWithTheirLineNumbers) {
    std::istringstream in("\tpayload with no record\n"
                          "not a record at all\n"
                          "V1124 21:53:36.613000 17397 x.py:1] {\"frame_id\": 2, \"frame_compile_id\": 1}\n"
                          "V1124 21:53:36.613000 17397 x.py:1] {\"dynamo_start\": {\"stack\": []}, \"frame_id\": 2, "
                          "\"frame_compile_id\": 1, \"attempt\": 0, \"has_payload\": \"8b0ef5cdc682ed15d4072f5aef675f3c\"}\n"
                          "\tfirst\n"
                          "\t\tsecond, indented\n"
                          "V1124 21:53:36.613000 17397 x.py:1] {\"str\": [\"a.py\", 7]}\n"
                          "V1124 21:53:36.613000 17397 x.py:1] {\"new_kind\": {}}\n");
    TraceLog log = readTraceLog(in);
    EXPECT_EQ(log.warnings, (std::vector<std::string>{"line 1: a payload line with no record before it",
                                                      "line 2: not a TORCH_TRACE record", "line 3: a record with no entry kind"}));
    ASSERT_EQ(log.records.size(), 2u);
    EXPECT_EQ(log.records[0].kind, "dynamo_start");
    EXPECT_EQ(log.records[0].line, 4);
    EXPECT_EQ(log.records[0].compileId, "2/1");
    EXPECT_EQ(log.records[0].payload, "first\n\tsecond, indented");
    EXPECT_EQ(log.records[1].kind, "new_kind");  // unknown kinds are kept, for counting
    EXPECT_EQ(log.strings.at(7), "a.py");
}

// A log of any size is held one record at a time: each record is handed over when its
// payload has been read and no more than the line after it (issue 61, item 22).
TEST(TorchTraceRecords, TheReaderHandsOverEachRecordBeforeReadingTheNext) {
    const std::string first = "V1124 21:53:36.613000 17397 x.py:1] {\"artifact\": {\"name\": \"a\"}, \"frame_id\": 0, \"frame_compile_id\": 0}\n"
                              "\tpayload of a\n";
    const std::string second = "V1124 21:53:36.613000 17397 x.py:1] {\"artifact\": {\"name\": \"b\"}}\n";
    const std::string third = "V1124 21:53:36.613000 17397 x.py:1] {\"artifact\": {\"name\": \"c\"}}\n\tpayload of c\n";
    std::istringstream in(first + second + third);
    TraceLogReader reader(in);
    TraceLogRecord record;
    ASSERT_TRUE(reader.next(record));
    EXPECT_EQ(record.payload, "payload of a");
    EXPECT_EQ(static_cast<size_t>(in.tellg()), first.size() + second.size());  // the next record's line, read ahead
    ASSERT_TRUE(reader.next(record));
    EXPECT_EQ(record.metadata["name"], "b");
    EXPECT_EQ(record.payload, "");
    EXPECT_EQ(static_cast<size_t>(in.tellg()), first.size() + second.size() + third.find('\t'));
    ASSERT_TRUE(reader.next(record));
    EXPECT_EQ(record.payload, "payload of c");
    EXPECT_EQ(record.line, 4);
    EXPECT_FALSE(reader.next(record));
    EXPECT_TRUE(reader.warnings().empty());
}

TEST(TorchTraceRecords, CompileIdsReadAsPyTorchPrintsThem) {
    EXPECT_EQ(compileIdOf({{"frame_id", 1}, {"frame_compile_id", 0}, {"attempt", 1}}), "1/0_1");
    EXPECT_EQ(compileIdOf({{"frame_id", 3}, {"frame_compile_id", 2}, {"compiled_autograd_id", 0}}), "!0/3/2");
    EXPECT_EQ(compileIdOf({{"rank", 0}}), "");
}

}  // namespace
}  // namespace fusescope::test
