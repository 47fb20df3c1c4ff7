// Real PyTorch 2.15 TORCH_TRACE logs (tests/fixtures/torch_trace) read into our events:
// compiles with their stacks, graphs, graph breaks, recompile reasons, guards, output code
// with its kernels, PyTorch's metrics, the compile phases; the report of
// `fusescope-cli torch-trace --report`; and logs that are damaged or newer than this reader
// loading the rest with a warning.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include <map>
#include <set>

#include <fmt/format.h>

#include "test_support.h"
#include "torch_trace/trace_log_files.h"
#include "torch_trace/trace_log_shapes.h"

namespace fusescope::test {
namespace {

std::string fixturePath(const std::string& name) {
    return sourcePath("tests/fixtures/torch_trace/" + name + "/dedicated_log_torch_trace_fixture.log");
}

TorchTraceImport fixture(const std::string& name) { return loadTraceLog(fixturePath(name)); }

TorchTraceImport fromText(const std::string& text) {
    std::istringstream in(text);
    return importTraceLog(in);
}

template <class E>
std::vector<E> eventsOf(const TorchTraceImport& t) {
    std::vector<E> out;
    for (const Event& e : t.events)
        if (const E* x = std::get_if<E>(&e)) out.push_back(*x);
    return out;
}

TEST(TorchTraceImport, GraphBreaksSplitTheFunctionIntoResumedCompiles) {
    TorchTraceImport t = fixture("graph_breaks");
    EXPECT_TRUE(t.warnings.empty());
    EXPECT_TRUE(t.unknownKinds.empty());
    EXPECT_EQ(t.torchVersion, "2.15.0+cu132");

    std::vector<std::string> ids, functions;
    for (const auto& c : eventsOf<CompileStartedEvent>(t)) ids.push_back(c.compileId), functions.push_back(c.function);
    EXPECT_EQ(ids, (std::vector<std::string>{"0/0", "1/0", "2/0", "3/0"}));
    EXPECT_EQ(functions, (std::vector<std::string>{"step", "torch_dynamo_resume_in_step_at_7", "torch_dynamo_resume_in_step_at_8",
                                                   "torch_dynamo_resume_in_step_at_8"}));
    CompileStartedEvent resumed = eventsOf<CompileStartedEvent>(t)[1];
    ASSERT_EQ(resumed.userStack.size(), 2u);  // the caller's line, then the resumed function
    EXPECT_EQ(resumed.userStack[0].file, "<fixtures>/programs/graph_breaks.py");
    EXPECT_EQ(resumed.userStack[0].line, 14);
    EXPECT_EQ(resumed.userStack[0].sourceLine, "compiled(torch.ones(8))");
    EXPECT_EQ(resumed.where.line, 7);

    std::vector<int> ops;
    for (const auto& g : eventsOf<GraphCapturedEvent>(t)) ops.push_back(g.opCount);
    EXPECT_EQ(ops, (std::vector<int>{2, 2, 1, 1}));
    EXPECT_NE(eventsOf<GraphCapturedEvent>(t)[0].readable.find("sin: \"f32[8][1]cpu\" = l_x_.sin()"), std::string::npos);
    // The readable graph read back into nodes the graph view draws, each with its source line.
    nlohmann::json graph = eventsOf<GraphCapturedEvent>(t)[0].graph;
    ASSERT_EQ(graph["nodes"].size(), 3u);
    EXPECT_EQ(graph["nodes"][0]["name"], "l_x_");
    EXPECT_EQ(graph["nodes"][0]["op"], "placeholder");
    EXPECT_EQ(graph["nodes"][1]["name"], "sin");
    EXPECT_EQ(graph["nodes"][1]["op"], "call_method");
    EXPECT_EQ(graph["nodes"][1]["target"], "sin");
    EXPECT_EQ(graph["nodes"][1]["inputs"], nlohmann::json::array({"l_x_"}));
    EXPECT_EQ(graph["nodes"][1]["meta"], nlohmann::json::array({"f32[8][1]cpu"}));
    EXPECT_EQ(graph["nodes"][1]["file"], "<fixtures>/programs/graph_breaks.py");
    EXPECT_EQ(graph["nodes"][1]["line"], 6);
    EXPECT_EQ(graph["nodes"][1]["source"], "y = x.sin() * 2");
    EXPECT_EQ(graph["nodes"][2]["target"], "*");
    EXPECT_EQ(graph["nodes"][2]["inputs"], nlohmann::json::array({"sin"}));
    EXPECT_EQ(graph["outputs"], nlohmann::json::array({"y"}));
    // The resumed frame's branch condition, `gt = sum_1 > 0`, is the comparison it calls.
    nlohmann::json branch = eventsOf<GraphCapturedEvent>(t)[1].graph;
    ASSERT_EQ(branch["nodes"].size(), 3u);
    EXPECT_EQ(branch["nodes"][2]["name"], "gt");
    EXPECT_EQ(branch["nodes"][2]["target"], ">");
    EXPECT_EQ(branch["nodes"][2]["inputs"], nlohmann::json::array({"sum_1"}));

    std::vector<GraphBreakEvent> breaks = eventsOf<GraphBreakEvent>(t);
    ASSERT_EQ(breaks.size(), 2u);
    EXPECT_EQ(breaks[0].compileId, "0/0");
    // Named by gb_type, as Fusescope's own breaks; the registry entry's id, the explanation,
    // hints and developer context apart.
    EXPECT_EQ(breaks[0].reason, "Failed to trace builtin operator");
    EXPECT_EQ(breaks[0].gbId, "GB0059");
    EXPECT_EQ(breaks[0].explanation,
              "Dynamo does not know how to trace builtin operator `print` with argument types ['str'] (has_kwargs False)");
    ASSERT_EQ(breaks[0].hints.size(), 3u);
    EXPECT_EQ(breaks[0].hints[1], "If you are attempting to call a logging function (e.g. `print`), you can try adding it "
                                  "to `torch._dynamo.config.reorderable_logging_functions`.");
    EXPECT_EQ(breaks[0].context, "builtin print [<class 'torch._dynamo.variables.constant.ConstantVariable'>] False");
    ASSERT_EQ(breaks[0].userStack.size(), 2u);
    EXPECT_EQ(breaks[0].userStack.back().line, 7);
    EXPECT_EQ(breaks[0].userStack.back().function, "step");
    EXPECT_EQ(breaks[0].userStack.back().sourceLine, "print(\"between graphs\")");
    EXPECT_EQ(breaks[1].compileId, "1/0");
    EXPECT_EQ(breaks[1].reason, "Data-dependent branching");
    EXPECT_EQ(breaks[1].gbId, "GB0170");
    EXPECT_EQ(breaks[1].explanation.rfind("Detected data-dependent branching (e.g. `if my_tensor.sum() > 0:`). Dynamo does "
                                          "not support tracing dynamic control flow.", 0), 0u);
    EXPECT_EQ(breaks[1].userStack.back().line, 8);

    std::vector<size_t> guards;
    for (const auto& g : eventsOf<GuardsEvent>(t)) guards.push_back(g.guards.size());
    EXPECT_EQ(guards, (std::vector<size_t>{11, 10, 10, 10}));
    EXPECT_EQ(eventsOf<GuardsEvent>(t)[0].guards[0].rfind("LAMBDA_GUARD: ", 0), 0u);

    std::vector<std::string> kernels;
    for (const auto& k : eventsOf<KernelSourceEvent>(t)) kernels.insert(kernels.end(), k.kernels.begin(), k.kernels.end());
    EXPECT_EQ(kernels, (std::vector<std::string>{"cpp_fused_mul_sin_0", "cpp_fused_gt_sum_0", "cpp_fused_cos_0", "cpp_fused_exp_0"}));

    const TorchCompileMetrics& first = t.metrics.at("0/0");
    EXPECT_EQ(first.forward.value("guard_count", 0), 9);
    ASSERT_EQ(first.forward["restart_reasons"].size(), 1u);  // the print's break restarted the trace
    EXPECT_EQ(first.cacheVerdicts.at("fx_graph_cache_miss"), 1);

    // The compile phases as spans: each entire_frame_compile closes, one per compile.
    std::vector<std::string> framePhases;
    for (const auto& e : eventsOf<TraceEvent>(t))
        if (e.record.name == "entire_frame_compile") {
            framePhases.push_back(e.record.compileId);
            EXPECT_GT(e.record.endNs, e.record.beginNs);
            EXPECT_EQ(e.record.category, TraceCategory::Compile);
        }
    EXPECT_EQ(framePhases, (std::vector<std::string>{"0/0", "1/0", "2/0", "3/0"}));

    // They nest as PyTorch opened them: dynamo > entire_frame_compile > compile_attempt_0 >
    // bytecode_tracing, each inside its parent's time.
    std::map<int64_t, TraceRecord> byId;
    for (const auto& e : eventsOf<TraceEvent>(t)) byId[e.record.rfId] = e.record;
    auto chain = [&](const TraceRecord& r) {
        std::vector<std::string> names{r.name};
        for (int64_t up = r.parentId; up != 0; up = byId.at(up).parentId) names.insert(names.begin(), byId.at(up).name);
        return names;
    };
    const TraceRecord* tracing = nullptr;
    for (const auto& [id, r] : byId)
        if (!tracing && r.name == "bytecode_tracing") tracing = &r;
    ASSERT_NE(tracing, nullptr);
    EXPECT_EQ(chain(*tracing), (std::vector<std::string>{"dynamo", "entire_frame_compile", "compile_attempt_0", "bytecode_tracing"}));
    for (const auto& [id, r] : byId) {
        if (r.parentId == 0) continue;
        const TraceRecord& parent = byId.at(r.parentId);
        EXPECT_TRUE(parent.beginNs <= r.beginNs && r.endNs <= parent.endNs) << r.name << " outside " << parent.name;
        EXPECT_LT(parent.rfId, r.rfId) << "ids in begin order";
    }
}

TEST(TorchTraceImport, AModuleGraphNamesItsLiftedParameters) {
    nlohmann::json graph = eventsOf<GraphCapturedEvent>(fixture("module_compile"))[0].graph;
    std::vector<std::string> calls;
    for (const auto& n : graph["nodes"])
        if (n["op"] != "placeholder") calls.push_back(n["target"].get<std::string>());
    EXPECT_EQ(calls, (std::vector<std::string>{"torch.nn.functional.layer_norm", "torch._C._nn.linear", "torch._C._nn.gelu",
                                               "torch._C._nn.linear", "+"}));
    EXPECT_EQ(graph["nodes"][7]["inputs"], nlohmann::json::array({"l_x_", "l_self_modules_norm_parameters_weight_",
                                                                  "l_self_modules_norm_parameters_bias_"}));
}

TEST(TorchTraceImport, RecompileReasonsNameTheGuardThatFailed) {
    TorchTraceImport t = fixture("recompiles");
    std::vector<std::string> reasons;
    for (const auto& r : eventsOf<RecompileEvent>(t)) {
        EXPECT_EQ(r.function, "scale");
        std::string first = r.message.substr(r.message.find("\n    - ") + 7);  // each cache entry's failure follows
        reasons.push_back(first.substr(0, first.find('\n')));
    }
    EXPECT_EQ(reasons, (std::vector<std::string>{"0/0: tensor 'x' size mismatch at index 0. expected 4, actual 6",
                                                 "0/1: tensor 'x' dtype mismatch. expected Float, actual Double",
                                                 "0/2: tensor 'x' dtype mismatch. expected Double, actual Float"}));
}

TEST(TorchTraceImport, TheRecompileLimitEndsCompilingTheFunction) {
    TorchTraceImport t = fixture("cache_limit");
    std::vector<CacheLimitEvent> limits = eventsOf<CacheLimitEvent>(t);
    ASSERT_EQ(limits.size(), 1u);
    EXPECT_EQ(limits[0].function, "shift");
    EXPECT_EQ(limits[0].lastReason.rfind("0/1: k == 1", 0), 0u) << limits[0].lastReason;
    EXPECT_EQ(t.metrics.at("0/2").forward.value("fail_type", ""), "Unsupported");
    EXPECT_EQ(eventsOf<CompileStartedEvent>(t).size(), 2u) << "0/2 never started";
}

TEST(TorchTraceImport, ATrainingStepHasForwardAndBackwardGraphsAndKernels) {
    TorchTraceImport t = fixture("training_step");
    std::vector<std::string> stages;
    for (const auto& d : eventsOf<IrDumpEvent>(t)) stages.push_back(d.stage);
    for (const char* stage : {"aot_joint_graph", "aot_forward_graph", "aot_backward_graph", "inductor_post_grad_graph"})
        EXPECT_NE(std::find(stages.begin(), stages.end(), stage), stages.end()) << stage;
    // Each graph read back into nodes to draw: AOT graphs take their inputs as they are (the
    // backward's signature spans lines; the joint graph declares them in its body), and their
    // outputs span lines too.
    std::map<std::string, nlohmann::json> graphs;
    for (const auto& d : eventsOf<IrDumpEvent>(t)) graphs[d.stage] = d.graphJson;
    auto node = [](const nlohmann::json& graph, const std::string& name) {
        for (const auto& n : graph["nodes"])
            if (n["name"] == name) return n;
        return nlohmann::json();
    };
    const nlohmann::json& backward = graphs["aot_backward_graph"];
    EXPECT_EQ(backward["nodes"].size(), 45u);
    EXPECT_EQ(node(backward, "tangents_1")["op"], "placeholder");
    EXPECT_EQ(node(backward, "tangents_1")["meta"], nlohmann::json::array({"f32[][]cpu"}));
    EXPECT_EQ(node(backward, "div_1")["inputs"], nlohmann::json::array({"tangents_1", "convert_element_type"}));
    EXPECT_EQ(node(backward, "div_1")["line"], 13);  // "# Backward of forward node: File: ...:13"
    EXPECT_EQ(node(backward, "iota_default")["line"], 0);  // "# No stacktrace found for following nodes"
    EXPECT_EQ(backward["outputs"], nlohmann::json::array({"mm_2", "view_1", "mm_1", "view"}));
    const nlohmann::json& joint = graphs["aot_joint_graph"];
    EXPECT_EQ(node(joint, "primals_1")["meta"], nlohmann::json::array({"f32[16, 8][8, 1]cpu"}));
    EXPECT_EQ(node(joint, "permute")["inputs"], nlohmann::json::array({"primals_1"}));
    EXPECT_EQ(joint["outputs"], nlohmann::json::array({"div", "permute_8", "view_1", "permute_5", "view"}));

    // What no view draws is a Logs record of its compile, named by its artifact, whole: the
    // runnable graph, the runtime wrappers, the forward's metadata, the graph before pre-grad
    // passes, the guards' tree, the cache verdicts with their keys.
    std::map<std::string, std::string> records;
    for (const LogEvent& e : eventsOf<LogEvent>(t))
        if (e.compileId == "0/0" && e.isArtifact) records[e.name] = e.message;
    for (const char* name : {"fx_graph_runnable", "aot_autograd_runtime_wrappers", "aot_forward_graph_fw_metadata", "before_pre_grad_graph",
                             "dynamo_cpp_guards_str", "fx_graph_cache_miss", "aotautograd_cache_miss"})
        EXPECT_TRUE(records.count(name)) << name;
    EXPECT_NE(records["aot_autograd_runtime_wrappers"].find("def _backward_prologue("), std::string::npos);
    EXPECT_EQ(records["aot_forward_graph_fw_metadata"].rfind("ViewAndMutationMeta(input_info=[", 0), 0u);
    EXPECT_NE(records["fx_graph_cache_miss"].find("\"cache_status_detailed\": \"full_miss\""), std::string::npos);

    std::vector<KernelSourceEvent> code = eventsOf<KernelSourceEvent>(t);
    ASSERT_EQ(code.size(), 2u);  // the forward's wrapper, then the backward's
    EXPECT_EQ(code[0].kernels, (std::vector<std::string>{"cpp_fused_relu_0", "cpp_fused__log_softmax_nll_loss_forward_1"}));
    EXPECT_EQ(code[1].kernels.size(), 2u);
    EXPECT_EQ(code[0].language, "python");
    const nlohmann::json& metrics = t.metrics.at("0/0").backward;
    EXPECT_EQ(metrics.value("is_forward", true), false);
    EXPECT_DOUBLE_EQ(metrics.value("inductor_compile_time_s", 0.0), 1.429872);
}

// Inductor's provenance tracking names the kernel computing each post-grad node: the output
// code gets, per node, its kernel and the lines of the kernel and of its call, as our own
// kernels' provenance has them per buffer.
TEST(TorchTraceImport, ProvenanceTrackingLinksPostGradNodesToTheirKernels) {
    TorchTraceImport t = fixture("provenance");
    std::vector<KernelSourceEvent> code = eventsOf<KernelSourceEvent>(t);
    ASSERT_EQ(code.size(), 1u);
    const std::string fused = "cpp_fused_add_mul_relu_sin_sum_0";
    EXPECT_EQ(code[0].bufferKernels, (std::map<std::string, std::string>{
                                         {"mm", "extern_kernels.mm"}, {"relu", fused}, {"mul", fused}, {"add", fused}, {"sum_1", fused}, {"sin", fused}}));
    std::vector<std::string> lines;
    std::istringstream in(code[0].source);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    // relu: the fused kernel's definition, then its call under the debug handle's comment.
    const auto& relu = code[0].bufferLines.at("relu");
    ASSERT_EQ(relu.size(), 2u);
    EXPECT_EQ(lines[relu[0].first - 1].rfind(fused + " = async_compile.cpp_pybinding(", 0), 0u);
    EXPECT_NE(lines[relu[1].first - 1].find("# [Provenance debug handles] " + fused + ":2"), std::string::npos);
    EXPECT_NE(lines[relu[1].second - 1].find(fused + "(buf2, buf1)"), std::string::npos);
    // mm: an extern kernel, defined nowhere in the code: its call only.
    const auto& mm = code[0].bufferLines.at("mm");
    ASSERT_EQ(mm.size(), 1u);
    EXPECT_NE(lines[mm[0].second - 1].find("extern_kernels.mm(arg0_1, arg1_1, out=buf0)"), std::string::npos);
}

// Tensor descriptions, symbols, shape guards and specialisations, and each compile's metrics
// are log lines of their compile, as the Logs pane shows them.
TEST(TorchTraceImport, ShapeEntriesAndMetricsBecomeLogLinesOfTheirCompile) {
    std::vector<std::string> lines;
    for (const LogEvent& e : eventsOf<LogEvent>(fixture("dynamic_shapes"))) {
        EXPECT_EQ(e.compileId, "0/0");
        EXPECT_TRUE(e.isArtifact);
        if (e.name == "compilation_metrics") {
            // The summary, then what tlparse's compilation metrics page shows, a line a part.
            EXPECT_EQ(e.message,
                      "compiled in 15.173 s, guard_count 13, aotautograd_cache_miss x1, fx_graph_cache_miss x1\n"
                      "  time (s): entire frame 15.1727, backend 14.7012, inductor 13.788, code gen 13.7174\n"
                      "  passes (ms): pre-grad 5.844, joint graph 239.563, post-grad 29.362\n"
                      "  graph: ops 3, nodes 8, inputs 4, graph breaks 0\n"
                      "  guards: count 13, shape env 3, latency us 135\n"
                      "  cache: size 0, accumulated 0, fx local hits 0, fx local misses 1, fx remote hits 0, fx remote misses 0, "
                      "aotautograd local hits 0, aotautograd local misses 1");
        } else if (isShapeEntry(e.name)) {
            lines.push_back(e.name + ": " + e.message);
        }  // the rest: PyTorch's artifacts kept whole (ATrainingStepHasForwardAndBackwardGraphsAndKernels)
    }
    const std::vector<std::string> expected = {
        "describe_storage: storage 0: 48 bytes",
        "describe_tensor: tensor 0: torch.float32, size [3, 4], stride [4, 1], device(type='cpu'), storage 0, leaf",
        "describe_source: tensor 0 is L['x']",
        "create_symbol: symbol s77 = 3 for L['x'].size()[0], range [2, int_oo] (dynamic_shapes.py:7)",
        "create_symbol: symbol s27 = 4 for L['x'].size()[1], range [2, int_oo] (dynamic_shapes.py:7)",
        "guard_added_fast: guard s77 > 2 (dynamic_shapes.py:7)",
        "describe_storage: storage 1: 80 bytes",
        "describe_tensor: tensor 1: torch.float32, size [5, 4], stride [4, 1], device(type='cpu'), storage 1, leaf",
        "describe_source: tensor 1 is L['y']",
        "create_symbol: symbol s17 = 5 for L['y'].size()[0], range [2, int_oo] (dynamic_shapes.py:9)",
        "guard_added_fast: guard Eq(s17, 5) (dynamic_shapes.py:9)",
        "symbolic_shape_specialization: specialized s17 = 5 (L['y'].size()[0]): range_refined_to_singleton (dynamic_shapes.py:9)",
        "guard_added_fast: guard s77 + 5 <= 4096",
    };
    EXPECT_EQ(lines, expected);
}

// What the workbench shows of each compile, as (compile id, tlparse's artifact name): the view
// made for an artifact, or its Logs record.
std::set<std::pair<std::string, std::string>> shownArtifacts(const TorchTraceImport& t) {
    std::set<std::pair<std::string, std::string>> shown;
    for (const Event& event : t.events) {
        if (const auto* e = std::get_if<GraphCapturedEvent>(&event)) shown.insert({e->compileId, "dynamo_output_graph"});
        if (const auto* e = std::get_if<KernelSourceEvent>(&event)) shown.insert({e->compileId, "inductor_output_code"});
        if (const auto* e = std::get_if<GraphBreakEvent>(&event)) shown.insert({e->compileId, "dynamo_graph_break_reason"});
        if (const auto* e = std::get_if<RecompileEvent>(&event)) shown.insert({e->compileId, "recompile_reasons"});
        if (const auto* e = std::get_if<LogEvent>(&event); e && e->isArtifact) shown.insert({e->compileId, e->name});
        if (const auto* e = std::get_if<IrDumpEvent>(&event); e && !e->graphJson.is_null())  // drawn in a Graph tab
            shown.insert({e->compileId, e->stage == "inductor_pre_grad_graph" ? "after_pre_grad_graph" : e->stage});
    }
    for (const auto& [id, metrics] : t.metrics)
        if (metrics.backward.is_object()) shown.insert({id, "bwd_compilation_metrics"});
    return shown;
}

// tlparse's name of an artifact file without its number and extension ("aot_forward_graph_8.txt"),
// and for output code its hash.
std::string tlparseArtifact(const std::string& file) {
    std::string name = file.substr(0, file.rfind('_'));
    return name.starts_with("inductor_output_code_") ? "inductor_output_code" : name;
}

// Every artifact tlparse 0.4.3 lists for a compile (its compile_directory.json, beside each
// log: scripts/make-torch-trace-fixtures) the workbench shows, in the view made for it or as
// a Logs record of that compile named by it; the three real models' logs among them.
TEST(TorchTraceImport, EveryArtifactTlparseListsIsShown) {
    int logs = 0, artifacts = 0;
    for (const auto& folder : std::filesystem::directory_iterator(sourcePath("tests/fixtures/torch_trace"))) {
        std::ifstream listed(folder.path() / "tlparse_compile_directory.json");
        if (!listed) continue;
        ++logs;
        TorchTraceImport t = fixture(folder.path().filename().string());
        std::set<std::pair<std::string, std::string>> shown = shownArtifacts(t);
        nlohmann::json directory = nlohmann::json::parse(listed);
        for (const auto& [key, compile] : directory.items()) {
            std::string id = key.substr(1, key.size() - 2);  // "[0/0_1]"
            if (size_t attempt = id.find('_', id.find('/')); attempt != std::string::npos) id.resize(attempt);
            for (const auto& artifact : compile["artifacts"]) {
                std::string name = tlparseArtifact(artifact["name"].get<std::string>());
                ++artifacts;
                if (id == "-/-") EXPECT_EQ(name, "torch_version") << folder.path();  // outside any compile
                else EXPECT_TRUE(shown.count({id, name})) << folder.path().filename() << " " << key << " " << name;
            }
        }
        EXPECT_FALSE(t.torchVersion.empty());
    }
    EXPECT_GE(logs, 11);
    EXPECT_GE(artifacts, 250);
}

// A span of the compile timeline: its name, when it began and how long it took (us), and the
// span it is nested in ("" at the top).
struct TimelineSpan {
    std::string name;
    double begin = 0, duration = 0;
    std::string parent;
};

std::vector<TimelineSpan> byBegin(std::vector<TimelineSpan> spans) {
    std::stable_sort(spans.begin(), spans.end(), [](const TimelineSpan& a, const TimelineSpan& b) { return a.begin < b.begin; });
    return spans;
}

// tlparse's timeline: its B/E events paired per thread, an E ending the innermost open span
// of its name (an async compile's compile_file, logged on the same thread, ends inside
// async_compile.wait though it began before it: not a stack), a span's parent the innermost
// span open where it begins.
std::vector<TimelineSpan> tlparseTimeline(const nlohmann::json& rows) {
    std::vector<TimelineSpan> spans;
    std::map<int64_t, std::vector<TimelineSpan>> open;  // tid -> spans begun, not ended
    for (const auto& row : rows) {
        auto& begun = open[row[3].get<int64_t>()];
        std::string name = row[0].get<std::string>();
        if (row[1] == "B") {
            begun.push_back({name, row[2].get<double>(), 0, begun.empty() ? "" : begun.back().name});
            continue;
        }
        auto it = std::find_if(begun.rbegin(), begun.rend(), [&](const TimelineSpan& s) { return s.name == name; });
        if (row[1] != "E" || it == begun.rend()) continue;
        TimelineSpan span = *it;
        span.duration = row[2].get<double>() - span.begin;
        spans.push_back(span);
        begun.erase(std::next(it).base());
    }
    return byBegin(spans);
}

// The compile timeline as the workbench draws and exports it: the trace spans the import made.
std::vector<TimelineSpan> ourTimeline(const TorchTraceImport& t) {
    std::map<int64_t, std::string> names;
    for (const Event& e : t.events)
        if (const auto* span = std::get_if<TraceEvent>(&e)) names[span->record.rfId] = span->record.name;
    std::vector<TimelineSpan> spans;
    for (const Event& e : t.events)
        if (const auto* span = std::get_if<TraceEvent>(&e)) {
            const TraceRecord& r = span->record;
            spans.push_back({r.name, r.beginNs / 1000.0, (r.endNs - r.beginNs) / 1000.0, r.parentId ? names[r.parentId] : ""});
        }
    return byBegin(spans);
}

// The nested compile timeline is tlparse's (its chromium_events.json, beside each log): every
// span at the same time, as long, inside the same parent.
TEST(TorchTraceImport, TheCompileTimelineNestsAsTlparsesChromiumEvents) {
    int logs = 0;
    for (const auto& folder : std::filesystem::directory_iterator(sourcePath("tests/fixtures/torch_trace"))) {
        std::ifstream listed(folder.path() / "tlparse_chromium_spans.json");
        if (!listed) continue;
        ++logs;
        std::vector<TimelineSpan> theirs = tlparseTimeline(nlohmann::json::parse(listed));
        std::vector<TimelineSpan> ours = ourTimeline(fixture(folder.path().filename().string()));
        ASSERT_EQ(ours.size(), theirs.size()) << folder.path().filename();
        for (size_t i = 0; i < ours.size(); ++i) {
            EXPECT_EQ(ours[i].name, theirs[i].name) << folder.path().filename() << " span " << i;
            EXPECT_NEAR(ours[i].begin, theirs[i].begin, 1.0) << ours[i].name;
            EXPECT_NEAR(ours[i].duration, theirs[i].duration, 1.0) << ours[i].name;
            EXPECT_EQ(ours[i].parent, theirs[i].parent) << folder.path().filename() << " " << ours[i].name;
        }
    }
    EXPECT_GE(logs, 11);
}

TEST(TorchTraceImport, OutputCodeKernelsSpanTheirSourceStrings) {
    std::string wrapper = "import torch\n"
                          "cpp_fused_add_0 = async_compile.cpp_pybinding(['float*'], r'''\n"
                          "void kernel(float* x) {}\n"
                          "''')\n"
                          "\n"
                          "triton_poi_fused_mul_1 = async_compile.triton('triton_poi_fused_mul_1', '''\n"
                          "def triton_poi_fused_mul_1(): pass\n"
                          "''', device_str='cuda')\n"
                          "async_compile.wait(globals())\n";
    std::vector<OutputCodeKernel> kernels = outputCodeKernels(wrapper);
    ASSERT_EQ(kernels.size(), 2u);
    EXPECT_EQ(kernels[0].name, "cpp_fused_add_0");
    EXPECT_EQ(kernels[0].language, "cpp");
    EXPECT_EQ(kernels[0].firstLine, 2);
    EXPECT_EQ(kernels[0].lastLine, 4);
    EXPECT_EQ(kernels[1].name, "triton_poi_fused_mul_1");
    EXPECT_EQ(kernels[1].language, "triton");
    EXPECT_EQ(kernels[1].firstLine, 6);
    EXPECT_EQ(kernels[1].lastLine, 8);
}

TEST(TorchTraceImport, TheReportOfEachLogIsItsGolden) {
    for (const char* name : {"graph_breaks", "recompiles", "cache_limit"}) {
        SCOPED_TRACE(name);
        EXPECT_EQ(torchTraceReport(fixture(name)), readFile(sourcePath(std::string("tests/golden/torch_trace/") + name + ".report")));
    }
}

// The graph_breaks log with one line changed by `edit`.
std::string editedFixture(const std::function<void(std::vector<std::string>&)>& edit) {
    std::vector<std::string> lines;
    std::istringstream in(readFile(fixturePath("graph_breaks")));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    edit(lines);
    std::string text;
    for (const auto& l : lines) text += l + "\n";
    return text;
}

size_t lineOf(const std::vector<std::string>& lines, const std::string& needle) {
    for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i].find(needle) != std::string::npos) return i;
    ADD_FAILURE() << needle << " not found";
    return 0;
}

TEST(TorchTraceImport, AMalformedLineIsAWarningAndTheRestLoads) {
    size_t at = 0;
    TorchTraceImport t = fromText(editedFixture([&](std::vector<std::string>& lines) {
        at = lineOf(lines, "\"dynamo_start\"");
        lines[at] = lines[at].substr(0, lines[at].size() / 2);  // cut in the middle of its JSON
    }));
    ASSERT_EQ(t.warnings.size(), 1u);
    EXPECT_EQ(t.warnings[0], fmt::format("line {}: not a TORCH_TRACE record", at + 1));
    EXPECT_EQ(eventsOf<CompileStartedEvent>(t).size(), 3u) << "the other compiles still start";
    EXPECT_EQ(eventsOf<GraphBreakEvent>(t).size(), 2u);
}

// What the fuzzer found (fuzz/corpus/torch_trace/crash-*): a log is read from elsewhere, so
// a field of the wrong kind reads as missing and a time out of range is skipped, where they
// threw or converted a double out of int64's range.
TEST(TorchTraceImport, FieldsOfTheWrongKindAndTimesOutOfRangeAreSkipped) {
    const std::string prefix = "V1124 21:53:36.613000 17397 t.py:1] ";
    TorchTraceImport t = fromText(prefix + R"({"dynamo_start": 5, "frame_id": 0, "frame_compile_id": "one"})" "\n" +
                                  prefix + R"({"chromium_event": {}, "frame_id": 0, "frame_compile_id": 0, "has_payload": "0"})" "\n" +
                                  "\t{\"name\": \"dynamo\", \"ph\": \"X\", \"ts\": 1e300, \"dur\": 5}\n" +
                                  prefix + R"({"chromium_event": {}, "frame_id": 0, "frame_compile_id": 0, "has_payload": "0"})" "\n" +
                                  "\t{\"name\": \"inductor\", \"ph\": \"X\", \"ts\": 12.5, \"dur\": 1e300}\n");
    std::vector<CompileStartedEvent> starts = eventsOf<CompileStartedEvent>(t);
    ASSERT_EQ(starts.size(), 1u);
    EXPECT_EQ(starts[0].compileId, "0/0") << "a frame_compile_id that is not a number reads as 0";
    std::vector<TraceEvent> spans = eventsOf<TraceEvent>(t);
    ASSERT_EQ(spans.size(), 1u) << "the span at 1e300 us is skipped";
    EXPECT_EQ(spans[0].record.name, "inductor");
    EXPECT_EQ(spans[0].record.beginNs, 12500);
    EXPECT_EQ(spans[0].record.endNs, 12500) << "a duration out of range reads as none";
}

// Lines of a hundred thousand characters (a graph that concatenates thousands of tensors
// and returns them all, a traceback through a generated function) read as short ones do:
// the line formats were std::regex patterns whose matcher recursed once per character and
// overflowed the stack from about 30,000.
TEST(TorchTraceImport, GraphAndTracebackLinesOfAnyLengthAreRead) {
    const int copies = 30000;
    std::string many;
    for (int i = 0; i < copies; ++i) many += i ? ", sin" : "sin";
    const std::string function(100000, 'f');
    TorchTraceImport t = fromText(editedFixture([&](std::vector<std::string>& lines) {
        size_t at = lineOf(lines, "y: \"f32[8][1]cpu\" = sin * 2;  sin = None");
        lines[at] = "\t        y: \"f32[80000][1]cpu\" = torch.cat([" + many + "]);  sin = None";
        lines[at + 1] = "\t        return (y, " + many + ")";
        at = lineOf(lines, "line 7, in step");
        lines[at] = "\t  File \"<fixtures>/programs/graph_breaks.py\", line 7, in " + function;
    }));
    nlohmann::json graph = eventsOf<GraphCapturedEvent>(t)[0].graph;
    ASSERT_EQ(graph["nodes"].size(), 3u);
    EXPECT_EQ(graph["nodes"][2]["target"], "torch.cat");
    EXPECT_EQ(graph["nodes"][2]["inputs"], nlohmann::json::array({"sin"}));
    EXPECT_EQ(graph["nodes"][2]["code"].get<std::string>().size(), many.size() + 13);
    EXPECT_EQ(graph["outputs"].size(), copies + 1u);
    std::vector<GraphBreakEvent> breaks = eventsOf<GraphBreakEvent>(t);
    ASSERT_FALSE(breaks.empty());
    EXPECT_EQ(breaks[0].userStack.back().function, function);
    EXPECT_EQ(breaks[0].userStack.back().line, 7);
}

// JSON nested a million deep (a record's metadata, a payload) overflowed the stack when the
// parsed value was copied; past 512 levels a record is a warning and a payload is not JSON.
TEST(TorchTraceImport, JsonNestedTooDeepIsAWarningAndTheRestLoads) {
    const std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
    size_t record = 0, payload = 0;
    TorchTraceImport t = fromText(editedFixture([&](std::vector<std::string>& lines) {
        payload = lineOf(lines, "\"chromium_event\"") + 1;
        lines[payload] = "\t" + deep;  // the whole payload: one value
        while (payload + 1 < lines.size() && lines[payload + 1].starts_with("\t")) lines.erase(lines.begin() + static_cast<long>(payload) + 1);
        record = lineOf(lines, "\"dynamo_start\"");
        std::string prefix = lines[record].substr(0, lines[record].find("] ") + 2);
        lines.insert(lines.begin() + static_cast<long>(record), prefix + R"({"dynamo_start": {"stack": )" + deep + "}}");
        if (record <= payload) ++payload;
    }));
    auto warned = [&](const std::string& w) { return std::find(t.warnings.begin(), t.warnings.end(), w) != t.warnings.end(); };
    EXPECT_TRUE(warned(fmt::format("line {}: the record nests JSON deeper than 512 levels", record + 1)));
    EXPECT_TRUE(warned(fmt::format("line {}: a chromium_event whose payload is not JSON", payload)));
    EXPECT_EQ(eventsOf<CompileStartedEvent>(t).size(), 4u) << "the log's own compiles still load";
}

TEST(TorchTraceImport, AnUnknownKindIsCountedListedAndSkipped) {
    TorchTraceImport t = fromText(editedFixture([&](std::vector<std::string>& lines) {
        size_t at = lineOf(lines, "\"dynamo_start\"");
        std::string prefix = lines[at].substr(0, lines[at].find("] ") + 2);
        lines.insert(lines.begin() + static_cast<long>(at), prefix + R"({"quantum_flux_report": {"level": 3}, "frame_id": 0, "frame_compile_id": 0})");
    }));
    EXPECT_TRUE(t.warnings.empty());
    EXPECT_EQ(t.unknownKinds, (std::map<std::string, int>{{"quantum_flux_report", 1}}));
    EXPECT_EQ(eventsOf<CompileStartedEvent>(t).size(), 4u);
    EXPECT_NE(torchTraceReport(t).find("Entry kinds not read: quantum_flux_report x1\n"), std::string::npos);
}

TEST(TorchTraceImport, APayloadWhoseMd5DiffersIsAWarningAndStillRead) {
    size_t at = 0;
    TorchTraceImport t = fromText(editedFixture([&](std::vector<std::string>& lines) {
        at = lineOf(lines, "\"dynamo_output_graph\"");
        size_t sin = lineOf(lines, "= l_x_.sin()");
        lines[sin].replace(lines[sin].find("sin()"), 5, "cos()");
    }));
    std::istringstream empty;  // whether this build checks md5s
    if (!readTraceLog(empty).checksumsChecked) GTEST_SKIP() << "built without OpenSSL: payload md5s are not checked";
    ASSERT_EQ(t.warnings.size(), 1u);
    EXPECT_EQ(t.warnings[0].rfind(fmt::format("line {}: the payload's md5 is ", at + 1), 0), 0u) << t.warnings[0];
    EXPECT_NE(t.warnings[0].find("not the ce0158b2d5db0c2c22975603f6371173 its record names"), std::string::npos) << t.warnings[0];
    EXPECT_NE(eventsOf<GraphCapturedEvent>(t)[0].readable.find("l_x_.cos()"), std::string::npos);
}

TEST(TorchTraceImport, AFolderOpensItsRankZeroLogOrTheOneAskedFor) {
    std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "torch_trace_ranks";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    for (const char* name : {"dedicated_log_torch_trace_rank_0_abc.log", "dedicated_log_torch_trace_rank_1_def.log"})
        std::ofstream(dir / name) << "\n";
    std::ofstream(dir / "notes.txt") << "not a log\n";
    TraceLogChoice zero = chooseTraceLog(dir.string(), std::nullopt);
    EXPECT_EQ(std::filesystem::path(zero.path).filename(), "dedicated_log_torch_trace_rank_0_abc.log");
    EXPECT_EQ(zero.others.size(), 1u);
    EXPECT_EQ(std::filesystem::path(chooseTraceLog(dir.string(), 1).path).filename(), "dedicated_log_torch_trace_rank_1_def.log");
    EXPECT_EQ(chooseTraceLog(dir.string(), 2).error, fmt::format("'{}' holds no log of rank 2", dir.string()));
    EXPECT_EQ(chooseTraceLog((dir / "missing").string(), std::nullopt).error, fmt::format("'{}' does not exist", (dir / "missing").string()));
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace fusescope::test
