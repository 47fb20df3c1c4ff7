// The inductor backend: decompose, lower to loop IR, schedule with explained fusion,
// generate C++, compile it in-process and run it. Each stage reports through events and
// log artifacts. When a stage cannot handle the graph (an op without a lowering, no C++
// toolchain in this build, a compile error in generated code) the graph runs eagerly and
// the log says why.

#include <algorithm>
#include <cstdlib>
#include <mutex>

#include <fmt/format.h>

#include "backends/backend.h"
#include "codegen/cpp/cpp_codegen.h"
#include "decompose/decompose.h"
#include "graph/graph_printer.h"
#include "lower/lowering.h"
#include "observe/log_registry.h"
#include "profile/profiler.h"
#include "runtime/cpu_runtime.h"
#include "schedule/scheduler.h"
#include "toolchain/cpp_jit.h"

namespace fusescope {

namespace {

CompiledGraph eagerRunner(std::shared_ptr<const Graph> graph) {
    return [graph](const std::vector<Tensor>& inputs) { return runGraphEagerly(*graph, inputs); };
}

// Test hook: FUSESCOPE_TEST_BREAK_CODEGEN=1 appends a line that is not C++ to every module.
bool breakCodegenForTests() {
    const char* v = std::getenv("FUSESCOPE_TEST_BREAK_CODEGEN");
    return v && std::string(v) == "1";
}

class Reporter {
public:
    explicit Reporter(const CompileRequest& r) : r_(r) {}
    void artifact(const char* name, const std::string& text) const {
        if (r_.logger) r_.logger->artifact(name, r_.compileId, text);
    }
    void log(LogLevel level, const std::string& text, const char* component = "inductor") const {
        if (r_.logger) r_.logger->log(component, level, r_.compileId, text);
    }
    void emit(const Event& e) const {
        if (r_.bus) r_.bus->emit(e);
    }
    // WON'T CONVERT: the function runs eagerly; the reason follows.
    void wontConvert(const Graph& graph, const std::string& why) const {
        std::string where;
        for (const auto& n : graph.nodes())
            if (n->where.known()) {
                where = fmt::format(" {} line {}", n->where.file, n->where.line);
                break;
            }
        log(LogLevel::Warning, fmt::format("WON'T CONVERT {}{}\ndue to:\n{}", r_.function, where, why), "dynamo");
    }

private:
    const CompileRequest& r_;
};

std::string scheduleText(const Schedule& s) {
    std::string out;
    for (const auto& name : s.removedDeadNodes) out += fmt::format("removed dead node {}\n", name);
    for (const auto& k : s.kernels) {
        std::string reads, writes;
        for (const auto& d : k.node->unmetDependencies) reads += " " + d.name;
        for (const auto& d : k.node->metDependencies) reads += " " + d.name;
        for (const auto& d : k.node->writes) writes += " " + d.name;
        out += fmt::format("{} ({}): reads{} writes{}\n", k.node->name, k.node->kindName(), reads, writes);
    }
    return out;
}

// Facts that keep the generated code from being fast.
std::vector<std::string> perfHints(const Schedule& s) {
    std::vector<std::string> hints;
    for (const auto& k : s.kernels)
        for (size_t m = 0; m < k.bodies.size(); ++m) {
            const LoopBody& body = k.bodies[m];
            if (body.vars.empty()) continue;
            const std::string& inner = body.vars.back();
            for (const auto& [buffer, indices] : body.loads())
                for (const auto& index : indices) {
                    auto c = index.linearCoefficient(inner);
                    if (c && *c != IndexExpr(0) && *c != IndexExpr(1))
                        hints.push_back(fmt::format("{} reads {} with stride {} in its innermost loop ({}): not vectorised loads",
                                                    k.nodes[m]->name, buffer, c->str(), index.str()));
                }
        }
    for (const auto& d : s.decisions)
        if (!d.fused && (d.node1.find("buf") != std::string::npos) && d.reason.find("iteration ranges differ") != std::string::npos)
            hints.push_back(fmt::format("{} and {} stay separate kernels: {}", d.node1, d.node2, d.reason));
    return hints;
}

// The provenance of scheduler nodes, for the ir_pre_fusion / ir_post_fusion events.
template <class Nodes>
std::vector<IrNodeInfo> irNodeInfos(const Nodes& nodes) {
    std::vector<IrNodeInfo> infos;
    for (const auto& node : nodes) {
        IrNodeInfo info{node->name, node->kindName(), {}, {}, {}};
        auto addUnique = [](std::vector<std::string>& list, const std::string& name) {
            if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
        };
        for (const SchedulerNode* leaf : node->leaves()) {
            for (const Node* origin : leaf->buffer->origins)
                addUnique(info.origins, origin->capturedName.empty() ? origin->name : origin->capturedName);
            if (node->kind == SchedulerNode::Kind::Fused) info.members.push_back(leaf->name);
        }
        for (const auto* deps : {&node->unmetDependencies, &node->metDependencies})
            for (const Dep& d : *deps) addUnique(info.reads, d.name);
        infos.push_back(std::move(info));
    }
    return infos;
}

class InductorBackend : public GraphCompiler {
public:
    std::string name() const override { return "inductor"; }

    CompiledGraph compile(std::shared_ptr<const Graph> graph, const CompileRequest& request) const override {
        Reporter report(request);
        try {
            return compileStages(graph, request, report);
        } catch (const Error& e) {
            // A bug in a stage must not fail the user's script: say so and run eagerly.
            report.wontConvert(*graph, fmt::format("internal error in the inductor backend while compiling {}: {}",
                                                   request.graphName, e.what()));
            return eagerRunner(graph);
        }
    }

private:
    CompiledGraph compileStages(std::shared_ptr<const Graph> graph, const CompileRequest& request, const Reporter& report) const {
        auto phase = [&](const char* name, auto&& stage) {
            RecordScope span(TraceCategory::Compile, fmt::format("{} {}", name, request.graphName));
            if (TraceRecord* r = span.record()) r->compileId = request.compileId;
            return stage();
        };
        std::shared_ptr<const Graph> transformed = phase("decompose", [&] { return decomposeForInductor(*graph); });
        std::string transformedText = graphReadable(*transformed);
        report.emit(IrDumpEvent{request.compileId, request.graphName, "fx_graph_transformed", transformedText, {}});
        report.artifact("aot_graphs", fmt::format("TRANSFORMED GRAPH\n ===== {} =====\n{}", request.graphName, transformedText));

        LoweredGraph lowered;
        try {
            lowered = phase("lower", [&] { return lowerGraph(*transformed); });
        } catch (const LoweringUnsupported& e) {
            report.log(LogLevel::Warning, fmt::format("{}: cannot lower {}; running the graph eagerly", request.graphName, e.what()));
            return eagerRunner(graph);
        }
        Schedule sched = phase("schedule", [&] { return schedule(lowered); });
        std::string pre = sched.preFusionText(), post = sched.postFusionText();
        report.emit(IrDumpEvent{request.compileId, request.graphName, "ir_pre_fusion", pre, irNodeInfos(sched.nodes)});
        report.artifact("ir_pre_fusion", pre);
        for (const auto& d : sched.decisions) {
            report.emit(FusionDecisionEvent{request.compileId, request.graphName, d.step, d.node1, d.node2, d.kind, d.score,
                                            d.fused, d.reason, d.result});
            report.artifact("fusion", fmt::format("step {}: {} + {} ({}, score {}): {}", d.step, d.node1, d.node2, d.kind,
                                                  d.score, d.reason));
        }
        report.emit(IrDumpEvent{request.compileId, request.graphName, "ir_post_fusion", post, irNodeInfos(sched.order)});
        report.artifact("ir_post_fusion", post);
        report.artifact("schedule", scheduleText(sched));
        for (const auto& hint : perfHints(sched)) report.artifact("perf_hints", hint);

        GeneratedCpp generated = phase("codegen", [&] { return generateCpp(lowered, sched); });
        if (breakCodegenForTests()) generated.source += "\nthis line is not C++;\n";
        report.artifact("output_code", fmt::format("Output code of {}:\n{}", request.graphName, generated.source));
        KernelSourceEvent source;
        source.compileId = request.compileId;
        source.graph = request.graphName;
        source.language = "cpp";
        source.source = generated.source;
        source.kernels = generated.kernelNames;
        source.bufferLines = generated.bufferLines;
        source.bufferKernels = generated.bufferKernels;

        if (!CppJit::available()) {
            std::call_once(noJitNotice_, [&] { report.log(LogLevel::Warning, CppJit::unavailableReason() + "; compiled graphs run eagerly"); });
            report.emit(source);
            return eagerRunner(graph);
        }
        std::shared_ptr<CompiledModule> module;
        try {
            module = phase("toolchain", [&] {
                registerCpuRuntimeSymbols();
                return CppJit::instance().compile(generated.source, request.graphName + ".cpp");
            });
        } catch (const Error& e) {
            source.error = e.what();
            report.emit(source);
            report.wontConvert(*graph, fmt::format("C++ compile error in the code generated for {}:\n{}", request.graphName, e.what()));
            return eagerRunner(graph);
        }
        for (const auto& remark : module->remarks) report.artifact("perf_hints", request.graphName + ": " + remark);
        source.llvmIr = module->llvmIr;
        source.assembly = module->assembly;
        source.fromCache = module->fromCache;
        source.compileSeconds = module->compileSeconds;
        if (module->fromCache)
            report.log(LogLevel::Info, fmt::format("{}: kernel cache hit ({} kernels loaded from {})", request.graphName,
                                                   generated.kernelNames.size(), CppJit::instance().cacheDir()));
        report.emit(source);
        auto runner = std::make_shared<CpuGraphRunner>(lowered, generated, module,
                                                       GraphTraceName{request.compileId, request.graphName});
        return [runner](const std::vector<Tensor>& inputs) { return (*runner)(inputs); };
    }

    mutable std::once_flag noJitNotice_;
};

}  // namespace

const GraphCompiler& inductorBackend() {
    static const InductorBackend backend;
    return backend;
}

}  // namespace fusescope
