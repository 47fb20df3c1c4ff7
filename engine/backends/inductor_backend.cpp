// The inductor backend: decompose, lower to loop IR, schedule with explained fusion, then
// render, compile and load the schedule on the graph's device (devices/: C++ for a CPU
// graph, CUDA for a cuda one).
// Each stage reports through events and log artifacts. When a stage cannot handle the
// graph (an op without a lowering, no C++ toolchain in this build, a compile error in
// generated code) the graph runs eagerly and the log says why: a stage that cannot
// lower an op says so itself; errors go to CheckedCompiler, which logs WON'T CONVERT.

#include <algorithm>

#include <fmt/format.h>

#include "aot/aot_function.h"
#include "backends/backend.h"
#include "capture/symbolic_sizes.h"
#include "codegen/cpp/chunked_sums.h"
#include "devices/inductor_stages.h"
#include "decompose/decompose.h"
#include "devices/device_backend.h"
#include "graph/graph_printer.h"
#include "lower/complex_as_pairs.h"
#include "lower/lowering.h"
#include "schedule/in_place_outputs.h"

namespace fusescope {

namespace {

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
        if (d.verdict == FusionVerdictKind::IterationRangesDiffer)
            hints.push_back(fmt::format("{} and {} stay separate kernels: {}", d.node1, d.node2, d.reason));
    return hints;
}

// The provenance of scheduler nodes, for the ir_pre_fusion / ir_post_fusion events.
template <class Nodes>
std::vector<IrNodeInfo> irNodeInfos(const Nodes& nodes) {
    std::vector<IrNodeInfo> infos;
    for (const auto& node : nodes) {
        IrNodeInfo info{node->name, node->kindName(), {}, {}, {}, {}};
        if (node->kind != SchedulerNode::Kind::Fused) info.realizedBecause = node->buffer->realizedBecause;
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
    bool throughAot() const override { return true; }

    CompiledGraph compile(std::shared_ptr<const Graph> graph, const CompileRequest& request) const override {
        return compileThroughAot(graph, request, [this](std::shared_ptr<const Graph> g, const CompileRequest& r) {
            InductorReporter report(r);
            try {
                return compileStages(g, r, report);
            } catch (const ScriptError&) {
                throw;  // a compile error in generated code, said as such
            } catch (const SymbolicSizesUnsupported&) {
                throw;  // not a bug: CheckedCompiler runs the graph eagerly, saying why
            } catch (const Error& e) {
                // A bug in a stage: CheckedCompiler says so and runs the graph eagerly.
                throw Error(fmt::format("internal error in the inductor backend while compiling {}: {}", r.graphName, e.what()),
                            e.where());
            }
        });
    }

private:
    CompiledGraph compileStages(std::shared_ptr<const Graph> graph, const CompileRequest& request,
                                const InductorReporter& report) const {
        auto runEagerly = [&](const LoweringUnsupported& e) {
            report.log(LogLevel::Warning, fmt::format("{}: cannot lower {}; running the graph eagerly", request.graphName, e.what()));
            report.emit(EagerFallbackEvent{request.compileId, request.graphName, name(), std::string("cannot lower ") + e.what()});
            return eagerRunner(graph, request.device);
        };
        // Complex values compile as their real pairs (lower/complex_as_pairs.h).
        try {
            if (std::optional<PairsGraph> pairs = graphWithComplexAsPairs(*graph))
                return withComplexBoundary(*pairs, compileStages(pairs->graph, request, report));
        } catch (const LoweringUnsupported& e) {
            return runEagerly(e);
        }
        ScheduledGraph g;
        g.graph = graph;
        g.transformed = compilePhase(request, "decompose", [&] { return decomposeForInductor(*graph, request.settings.testHooks); });
        std::string transformedText = graphReadable(*g.transformed);
        report.emit(IrDumpEvent{request.compileId, request.graphName, "fx_graph_transformed", transformedText, {}});
        report.artifact("aot_graphs", fmt::format("TRANSFORMED GRAPH\n ===== {} =====\n{}", request.graphName, transformedText));

        try {
            g.lowered = compilePhase(request, "lower", [&] { return lowerGraph(*g.transformed, request.settings); });
            if (!request.device.isCpu())  // the CUDA device's extern kernels are cuBLAS's products
                for (const Buffer& b : g.lowered.buffers)
                    if (b.kind == Buffer::Kind::Extern && b.externKernel != ExternKernelKind::Mm && b.externKernel != ExternKernelKind::Bmm)
                        throw LoweringUnsupported(fmt::format("{} on cuda (no CUDA extern kernel for it yet)", externKernelName(b.externKernel)));
        } catch (const LoweringUnsupported& e) {
            return runEagerly(e);
        }
        g.lowered.setDevice(request.device);
        for (const Buffer& b : g.lowered.buffers) report.artifact("realize", fmt::format("{}: {}", b.name, b.realizedBecause));
        g.schedule = compilePhase(request, "schedule", [&] { return schedule(g.lowered, request.settings.inductor); });
        if (request.device.isCpu()) {
            g.schedule.storedIntoInputs = inPlaceOutputs(g.lowered, g.schedule, request.outputsOfChangedInputs);
            chooseChunkedSums(g.schedule, g.lowered, request.guardSize);
        }
        const Schedule& sched = g.schedule;
        std::string pre = sched.preFusionText(), post = sched.postFusionText();
        report.emit(IrDumpEvent{request.compileId, request.graphName, "ir_pre_fusion", pre, irNodeInfos(sched.nodes)});
        report.artifact("ir_pre_fusion", pre);
        for (const auto& d : sched.decisions) {
            std::string kind(fusionKindName(d.kind));
            report.emit(FusionDecisionEvent{request.compileId, request.graphName, d.step, d.node1, d.node2, kind, d.score,
                                            d.fused(), d.reason, d.result});
            report.artifact("fusion", fmt::format("step {}: {} + {} ({}, score {}): {}", d.step, d.node1, d.node2, kind,
                                                  d.score, d.reason));
        }
        report.emit(IrDumpEvent{request.compileId, request.graphName, "ir_post_fusion", post, irNodeInfos(sched.order)});
        report.artifact("ir_post_fusion", post);
        report.artifact("schedule", scheduleText(sched));
        for (const auto& [buffer, placeholder] : sched.storedIntoInputs)
            report.artifact("schedule", fmt::format("{} is stored into input {} (changed in place): no copy back",
                                                    buffer, placeholder));
        for (const auto& hint : perfHints(sched)) report.artifact("perf_hints", hint);

        return compileOnDevice(deviceBackendFor(request.device), g, request);
    }
};

}  // namespace

const GraphCompiler& inductorBackend() {
    static const InductorBackend backend;
    return backend;
}

}  // namespace fusescope
