#pragma once
// What the inductor backend (inductor_backend.cpp: decompose, lower, schedule) shares with
// the devices it compiles the schedule for (devices/device_backend.h).

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

// Runs `stage` as the compile phase `name` of the request's graph (a span in the trace).
template <class Stage>
auto compilePhase(const CompileRequest& request, const char* name, Stage&& stage) {
    RecordScope span(TraceCategory::Compile, std::string(name) + " " + request.graphName);
    if (TraceRecord* r = span.record()) r->compileId = request.compileId;
    return stage();
}

}  // namespace fusescope
