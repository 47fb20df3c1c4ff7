#pragma once
// The inductor backend's stages after scheduling, shared by its CPU and its CUDA code paths
// (inductor_backend.cpp runs the stages before and picks the path by the graph's device).

#include <memory>
#include <string>

#include "graph/graph_compiler.h"
#include "lower/ir.h"
#include "observe/event.h"
#include "observe/log_registry.h"
#include "profile/profiler.h"
#include "schedule/scheduler.h"

namespace fusescope {

// Reports a compile's progress: log artifacts and records, events.
class InductorReporter {
public:
    explicit InductorReporter(const CompileRequest& r) : r_(r) {}
    void artifact(const char* name, const std::string& text) const {
        if (r_.logger) r_.logger->artifact(name, r_.compileId, text);
    }
    void log(LogLevel level, const std::string& text, const char* component = "inductor") const {
        if (r_.logger) r_.logger->log(component, level, r_.compileId, text);
    }
    void emit(const Event& e) const {
        if (r_.bus) r_.bus->emit(e);
    }

private:
    const CompileRequest& r_;
};


// A graph through decomposition, lowering and scheduling.
struct ScheduledGraph {
    std::shared_ptr<const Graph> graph;        // as captured: what runs when compiling fails
    std::shared_ptr<const Graph> transformed;  // decomposed; the lowered buffers point into it
    LoweredGraph lowered;
    Schedule schedule;
};


// The kernel_source event of generated code (GeneratedCpp or GeneratedCuda), before compiling.
template <class Generated>
KernelSourceEvent kernelSourceOf(const CompileRequest& request, const char* language, const Generated& generated) {
    KernelSourceEvent source;
    source.compileId = request.compileId;
    source.graph = request.graphName;
    source.language = language;
    source.source = generated.source;
    source.kernels = generated.kernelNames;
    source.bufferLines = generated.bufferLines;
    source.bufferKernels = generated.bufferKernels;
    return source;
}

// Runs `stage` as the compile phase `name` of the request's graph (a span in the trace).
template <class Stage>
auto compilePhase(const CompileRequest& request, const char* name, Stage&& stage) {
    RecordScope span(TraceCategory::Compile, std::string(name) + " " + request.graphName);
    if (TraceRecord* r = span.record()) r->compileId = request.compileId;
    return stage();
}

// C++ for the CPU, compiled in-process; eager when the JIT is missing or the C++ fails.
CompiledGraph compileForCpu(const ScheduledGraph& g, const CompileRequest& request, const InductorReporter& report);

// CUDA kernels compiled by NVRTC for the session's architecture. Under GPU code generation
// only, they are not launched: the results come from the same schedule compiled for the
// CPU, labelled with the graph's device.
CompiledGraph compileForCuda(const ScheduledGraph& g, const CompileRequest& request, const InductorReporter& report);

}  // namespace fusescope
