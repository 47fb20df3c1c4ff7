// eventFromJson reads back what eventToJson writes, field for field, and takes what a
// bundle made elsewhere may hold (missing fields, nested values of another kind, types it
// does not know) without throwing.

#include <gtest/gtest.h>

#include "observe/event_from_json.h"
#include "observe/event_schema.h"

namespace fusescope {
namespace {

using nlohmann::json;

std::vector<Event> oneOfEach() {
    SourceLocation where{"script.py", 4, 7};
    KernelSourceEvent kernel;
    kernel.compileId = "0/1";
    kernel.graph = "__compiled_fn_0";
    kernel.language = "cuda";
    kernel.source = "__global__ void k() {}";
    kernel.kernels = {"k"};
    kernel.bufferLines = {{"buf0", {{3, 5}, {9, 9}}}};
    kernel.bufferKernels = {{"buf0", "k"}};
    kernel.artifacts = {{"llvm_ir", "ir"}, {"asm", "asm"}, {"ptx", "ptx"}, {"sass", "sass"}};
    kernel.arch = "sm_90";
    kernel.fromCache = true;
    kernel.compileSeconds = 0.25;
    kernel.error = "none";
    TraceRecord record;
    record.rfId = 3;
    record.parentId = 1;
    record.category = TraceCategory::Kernel;
    record.name = "cpp_fused_add_0";
    record.beginNs = 10;
    record.endNs = 20;
    record.tid = 7;
    record.compileId = "0/1";
    return {
        CompileStartedEvent{"0/1", "fn", where},
        GraphCapturedEvent{"0/1", "fn", "__compiled_fn_0", "readable", "runnable", "tabular",
                           json{{"nodes", json::array({{{"name", "x"}}})}}, 3, "why", "inductor"},
        GuardsEvent{"0/1", {"a  # x", "b  # y"}, {4, 0}},
        GuardFailureEvent{"0/0", "fn", {"size mismatch"}},
        RecompileEvent{"0/1", "fn", where, "Recompiling function fn"},
        RecompileEvent{"0/2", "fn", where, "Recompiling function fn", {"script.py", 7, "torch._dynamo.mark_dynamic(x, 0)\n"}},
        GraphBreakEvent{"0/1", "print", {{"script.py", 5, "fn", "print(x)"}}},
        GraphBreakCostEvent{"0/1", "fn", "print", {{"script.py", 5, "fn", "print(x)"}}, "__compiled_fn_0", "__compiled_fn_1", 3, 2, 4,
                            0.25, 0.5, 0.75, 1, 2, 2},
        CacheLimitEvent{"fn", where, 8, "last"},
        GraphFailureEvent{"0/1", "fn", "__compiled_fn_0", "inductor", "runtime", "Boom", where},
        EagerFallbackEvent{"0/1", "__compiled_fn_0", "inductor", "cannot lower cumsum"},
        LogEvent{"0/1", "recompiles", true, LogLevel::Warning, "message"},
        ErrorEvent{"NameError", where},
        ScriptOutputEvent{"hello\n"},
        IrDumpEvent{"0/1", "__compiled_fn_0", "fx_graph_transformed", "text", {}},
        IrDumpEvent{"0/1", "__compiled_fn_0", "ir_pre_fusion", "text", {{"buf0", "SchedulerNode", {"add"}, {"arg0_1"}, {}}}},
        IrDumpEvent{"0/1", "__compiled_fn_0", "ir_post_fusion", "text",
                    {{"buf0_buf1", "FusedSchedulerNode", {"add", "mul"}, {"arg0_1"}, {"buf0", "buf1"}}}},
        FusionDecisionEvent{"0/1", "__compiled_fn_0", 1, "buf0", "buf1", "vertical", 42, true, "fits", "buf0_buf1"},
        kernel,
        TraceEvent{record},
    };
}

TEST(EventJsonTest, ReadsBackEveryEventAsWritten) {
    for (const Event& event : oneOfEach()) {
        json written = eventToJson(event);
        std::optional<Event> read = eventFromJson(written);
        ASSERT_TRUE(read) << written.dump();
        EXPECT_EQ(read->index(), event.index()) << written.dump();
        EXPECT_EQ(eventToJson(*read), written);
    }
}

TEST(EventJsonTest, TakesMissingAndMisshapenFieldsAsDefaults) {
    std::optional<Event> guards = eventFromJson(json{{"type", "guards"}, {"guards", json::array({"a", 1, "b"})}});
    ASSERT_TRUE(guards);
    EXPECT_EQ(std::get<GuardsEvent>(*guards).guards, (std::vector<std::string>{"a", "b"}));
    EXPECT_TRUE(std::get<GuardsEvent>(*guards).lines.empty());  // none given: none kept

    json dump = {{"type", "ir_post_fusion"}, {"nodes", json::array({{{"name", "buf0"}, {"members", json::array({1, "buf1"})}}, 3})}};
    std::optional<Event> ir = eventFromJson(dump);
    ASSERT_TRUE(ir);
    const auto& nodes = std::get<IrDumpEvent>(*ir).nodes;
    ASSERT_EQ(nodes.size(), 1u);
    EXPECT_EQ(nodes[0].members, std::vector<std::string>{"buf1"});
    EXPECT_EQ(std::get<IrDumpEvent>(*ir).stage, "ir_post_fusion");

    json kernel = {{"type", "kernel_source"}, {"buffer_lines", {{"buf0", json::array({json::array({1, 9'000'000'000LL}), "x"})}}}};
    EXPECT_EQ(std::get<KernelSourceEvent>(*eventFromJson(kernel)).bufferLines.at("buf0"),
              (std::vector<std::pair<int, int>>{{1, INT_MAX}}));
}

// Bundles written before the artifacts map carried each artifact in a field of its own.
TEST(EventJsonTest, ReadsTheArtifactFieldsOfOlderBundlesIntoTheMap) {
    json old = {{"type", "kernel_source"}, {"language", "cpp"}, {"llvm_ir", "; ModuleID"}, {"assembly", "\t.text"},
                {"ptx", ""}, {"sass", ""}, {"arch", ""}};
    EXPECT_EQ(eventFieldProblem(old), "");
    std::optional<Event> read = eventFromJson(old);
    ASSERT_TRUE(read);
    EXPECT_EQ(std::get<KernelSourceEvent>(*read).artifacts,
              (std::map<std::string, std::string>{{"llvm_ir", "; ModuleID"}, {"asm", "\t.text"}}));
    EXPECT_EQ(eventToJson(*read).at("artifacts"), json({{"llvm_ir", "; ModuleID"}, {"asm", "\t.text"}}));
}

TEST(EventJsonTest, RefusesAnArtifactThatIsNotText) {
    EXPECT_EQ(eventFieldProblem(json{{"type", "kernel_source"}, {"artifacts", {{"ptx", 3}}}}),
              "field \"artifacts.ptx\" is an integer, expected a string");
}

TEST(EventJsonTest, ReadsATraceEventWithoutItsTimes) {
    std::optional<Event> trace = eventFromJson(json{{"type", "trace_event"}, {"name", "aten::add"}, {"rf_id", 4}});
    ASSERT_TRUE(trace);
    EXPECT_EQ(std::get<TraceEvent>(*trace).record.name, "aten::add");
    EXPECT_EQ(std::get<TraceEvent>(*trace).record.rfId, 4);
}

TEST(EventJsonTest, LeavesOutWhatItCannotType) {
    EXPECT_FALSE(eventFromJson(json{{"type", "from_a_newer_engine"}}));
    EXPECT_FALSE(eventFromJson(json::array()));
}

}  // namespace
}  // namespace fusescope
