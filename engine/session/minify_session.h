#pragma once
// fusescope-cli minify and the workbench's Minify action: run a script until its first
// compiled graph fails (a compile error, a run-time error, or with accuracy checking an
// accuracy failure), shrink that graph (backends/minifier.h), write the repro script, and
// check that running the repro fails the same way.

#include <functional>
#include <string>

#include "backends/minifier.h"
#include "session/script_session.h"

namespace fusescope {

struct MinifyRequest {
    std::string source, fileName;  // the script
    SessionOptions options;        // as for a run (backend, GPU code generation, ...)
    std::string after = "dynamo";  // minify the graph as captured, or after AOT decompositions ("aot")
    bool accuracy = false;         // look for accuracy failures too
    std::string reproName = "repro.py";  // the repro's file name, in its error messages
    // Told of each script session while it runs (then of null), so it can be cancelled.
    std::function<void(ScriptSession*)> setRunning;
};

struct MinifyResult {
    GraphFailure failure;     // the first failing graph, as the script ran it
    MinifiedGraph minified;
    std::string repro;        // repro.py
    std::string reproError;   // what running repro.py raised ("repro.py:9:10: error: ..."); empty: it ran clean
};

// Throws Error when no compiled graph fails, or when the failure needs more than the graph.
MinifyResult minifyScript(const MinifyRequest& request, const MinifyOptions& options);

}  // namespace fusescope
