// eventFromJson reads back what eventToJson writes, field for field, and takes what a
// bundle made elsewhere may hold (missing fields, nested values of another kind, types it
// does not know) without throwing; eventFieldProblem checks each field for its event type.
// All three walk the one description of each event (observe/event_fields.h).

#include <map>
#include <set>

#include <gtest/gtest.h>

#include "observe/event_fields.h"
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
    record.seqId = 5;
    record.opSchema = "aten::add.Tensor(Tensor self, Tensor other) -> Tensor";
    record.inputs.values = json::array({json::array({1, 2, 0, 4, 4, "cpu"})});
    record.inputs.shapes = json::array({json::array({4})});
    record.inputs.types = json::array({"Tensor(float)"});
    record.inputs.strides = json::array({json::array({1})});
    record.kernelBackend = "cpp";
    record.kernelFile = "cpp_fused_add_0.cpp";
    record.compileId = "0/1";
    record.flowId = 9;
    record.buffers = {"buf0"};
    StackFrame frame{"script.py", 5, "fn", "print(x)", "~~~~~^^^"};
    return {
        CompileStartedEvent{"0/1", "fn", where},
        CompileStartedEvent{"0/1", "fn", where, {frame}},
        GraphCapturedEvent{"0/1", "fn", "__compiled_fn_0", "readable", "runnable", "tabular",
                           json{{"nodes", json::array({{{"name", "x"}}})}}, 3, "why", "inductor"},
        GuardsEvent{"0/1", {"a  # x", "b  # y"}, {4, 0}},
        GuardFailureEvent{"0/0", "fn", {"size mismatch"}},
        RecompileEvent{"0/1", "fn", where, "Recompiling function fn"},
        RecompileEvent{"0/2", "fn", where, "Recompiling function fn", {"script.py", 7, "torch._dynamo.mark_dynamic(x, 0)\n"}},
        GraphBreakEvent{"0/1", "print", {{"script.py", 5, "fn", "print(x)"}}},
        GraphBreakEvent{"0/1", "print", {frame}, "GB0001", "print() is not traceable", {"remove the print"}, "print(x)"},
        GraphBreakCostEvent{"0/1", "fn", "print", {{"script.py", 5, "fn", "print(x)"}}, "__compiled_fn_0", "__compiled_fn_1", 3, 2, 4,
                            0.25, 0.5, 0.75, 1, 2, 2},
        CacheLimitEvent{"fn", where, 8, "last"},
        GraphFailureEvent{"0/1", "fn", "__compiled_fn_0", "inductor", "runtime", "Boom", where},
        EagerFallbackEvent{"0/1", "__compiled_fn_0", "inductor", "cannot lower cumsum"},
        LogEvent{"0/1", "recompiles", true, LogLevel::Warning, "message"},
        ErrorEvent{"NameError", where},
        ScriptOutputEvent{"hello\n"},
        ModuleImportedEvent{"/work/model.py", "model.py", "class GPT: ..."},
        IrDumpEvent{"0/1", "__compiled_fn_0", "aot_forward_graph", "text", {}, json{{"nodes", json::array()}}},
        IrDumpEvent{"0/1", "__compiled_fn_0", "fx_graph_transformed", "text", {}},
        IrDumpEvent{"0/1", "__compiled_fn_0", "ir_pre_fusion", "text", {{"buf0", "SchedulerNode", {"add"}, {"arg0_1"}, {}, "used twice"}}},
        IrDumpEvent{"0/1", "__compiled_fn_0", "ir_post_fusion", "text",
                    {{"buf0_buf1", "FusedSchedulerNode", {"add", "mul"}, {"arg0_1"}, {"buf0", "buf1"}}}},
        FusionDecisionEvent{"0/1", "__compiled_fn_0", 1, "buf0", "buf1", "vertical", 42, true, "fits", "buf0_buf1"},
        kernel,
        TraceEvent{record},
    };
}

// Written, checked and read back, each event is what it was.
TEST(EventJsonTest, ReadsBackEveryEventAsWritten) {
    for (const Event& event : oneOfEach()) {
        json written = eventToJson(event);
        EXPECT_EQ(eventFieldProblem(written), "") << written.dump();
        std::optional<Event> read = eventFromJson(written);
        ASSERT_TRUE(read) << written.dump();
        EXPECT_EQ(read->index(), event.index()) << written.dump();
        EXPECT_EQ(eventToJson(*read), written);
    }
}

// The names of the fields a description writes (the read-only ones of older bundles left out).
struct WrittenFieldNames {
    std::set<std::string> names;
    template <class T>
    void field(const char* name, T&&, bool = true) {
        if constexpr (!requires { std::remove_cvref_t<T>::readOnly; }) names.insert(name);
    }
};

// So the round trip above covers every field: each is written by one event of its type.
TEST(EventJsonTest, OneOfEachWritesEveryFieldOfEveryEvent) {
    std::map<size_t, std::set<std::string>> written;
    for (const Event& event : oneOfEach()) {
        json fields = eventToJson(event);
        for (const auto& [field, value] : fields.items()) written[event.index()].insert(field);
    }
    ASSERT_EQ(written.size(), std::variant_size_v<Event>);
    for (const Event& event : oneOfEach())
        std::visit(
            [&](const auto& e) {
                WrittenFieldNames described;
                describeFields(described, e);
                for (const std::string& name : described.names)
                    EXPECT_TRUE(written[event.index()].contains(name)) << eventType(event) << "." << name;
            },
            event);
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

// A field is checked for the event type that has it: graph_captured's "graph" is the
// graph's nodes, any other event's the graph's name; a field the type has not is kept.
TEST(EventJsonTest, RefusesAFieldOfTheWrongKindForItsEventType) {
    EXPECT_EQ(eventFieldProblem(json{{"type", "graph_captured"}, {"graph", "__compiled_fn_0"}}),
              "field \"graph\" is a string, expected an object");
    EXPECT_EQ(eventFieldProblem(json{{"type", "kernel_source"}, {"graph", json::object()}}),
              "field \"graph\" is an object, expected a string");
    EXPECT_EQ(eventFieldProblem(json{{"type", "graph_captured"}, {"graph", json::object()}}), "");
    EXPECT_EQ(eventFieldProblem(json{{"type", "kernel_source"}, {"graph", "__compiled_fn_0"}}), "");
    EXPECT_EQ(eventFieldProblem(json{{"type", "guards"}, {"compile_id", 3}}), "field \"compile_id\" is an integer, expected a string");
    EXPECT_EQ(eventFieldProblem(json{{"type", "guards"}, {"function", 3}}), "");
    EXPECT_EQ(eventFieldProblem(json{{"type", "from_a_newer_engine"}, {"compile_id", 3}}), "");
    EXPECT_EQ(eventFieldProblem(json{{"type", "error"}, {"where", {{"file", "script.py"}, {"line", "4"}}}}),
              "field \"where.line\" is a string, expected an integer");
    EXPECT_EQ(eventFieldProblem(json{{"type", "recompile"}, {"fix_edit", {{"line", "7"}}}}),
              "field \"fix_edit.line\" is a string, expected an integer");
    EXPECT_EQ(eventFieldProblem(json{{"type", "trace_event"}, {"rf_id", 4.5}}), "field \"rf_id\" is a number, expected an integer");
    // Top-level fields first, whatever sorts before them.
    EXPECT_EQ(eventFieldProblem(json{{"type", "error"}, {"message", 1}, {"where", {{"line", "4"}}}}),
              "field \"message\" is an integer, expected a string");
}

// The GUI checks fields by name before it knows the type: a field whose kind depends on the
// type passes no such check, so the event's own check decides.
TEST(EventJsonTest, ExpectsByNameTheKindsEveryEventAgreesOn) {
    EXPECT_EQ(expectedJsonKinds("compile_id"), kJsonString);
    EXPECT_EQ(expectedJsonKinds("where.line"), kJsonInteger);
    EXPECT_EQ(expectedJsonKinds("score"), kJsonInteger | kJsonFloat);
    EXPECT_EQ(expectedJsonKinds("graph"), kJsonKindPerEventType);
    EXPECT_EQ(expectedJsonKinds("no_such_field"), 0u);
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
