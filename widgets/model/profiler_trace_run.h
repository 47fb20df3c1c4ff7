#pragma once
// A Chrome trace real PyTorch's profiler wrote (export_chrome_trace), as a run the trace views
// show; an execution trace (ExecutionTraceObserver) in the same folder whose rf_ids match is
// merged in: op schemas, input and output shapes (engine/profile/chrome_trace_import.h).

#include <string>

#include "model/run_events.h"

namespace fusescope::gui {

struct ProfilerTraceRun {
    RunEvents events;
    size_t spans = 0;
    std::string executionTrace;  // the execution trace merged in, "" when none
    size_t opsMerged = 0;        // spans it described
};

// Throws Error when `path` is not a Chrome trace (JSON with "traceEvents") or cannot be read.
ProfilerTraceRun loadProfilerTrace(const std::string& path);

}  // namespace fusescope::gui
