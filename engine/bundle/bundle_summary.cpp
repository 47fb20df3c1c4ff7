#include "bundle/bundle_summary.h"

namespace fusescope {

BundleSummary summarizeBundle(const Bundle& bundle) {
    BundleSummary s;
    s.files = bundle.files.size();
    s.events = bundle.events.size();
    for (const auto& event : bundle.events) {
        const std::string type = event.value("type", "");
        if (type == "compile_started") ++s.compiles;
        else if (type == "graph_captured") ++s.graphs;
        else if (type == "recompile") ++s.recompiles;
        else if (type == "guard_failure") ++s.guardFailures;
        else if (type == "graph_break") ++s.graphBreaks;
        else if (type == "trace_event") ++s.traceEvents;
        else if (type == "error") ++s.errors;
        else if (type == "kernel_source" && event.contains("kernels") && event["kernels"].is_array())
            s.kernels += event["kernels"].size();
    }
    return s;
}

}  // namespace fusescope
