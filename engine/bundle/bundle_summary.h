#pragma once
// Counts over a bundle's event stream, for `fusescope-cli bundle inspect` and viewers.

#include "bundle/bundle_reader.h"

namespace fusescope {

struct BundleSummary {
    size_t files = 0;
    size_t events = 0;
    size_t compiles = 0;       // compile_started
    size_t graphs = 0;         // graph_captured
    size_t recompiles = 0;
    size_t guardFailures = 0;  // guard_failure events (a failing cache entry each)
    size_t graphBreaks = 0;
    size_t kernels = 0;        // kernel functions named by kernel_source events
    size_t traceEvents = 0;
    size_t errors = 0;
};

BundleSummary summarizeBundle(const Bundle& bundle);

}  // namespace fusescope
