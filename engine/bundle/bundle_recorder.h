#pragma once
// Collects what a bundle holds from the event stream of one run. Subscribe consume() to the
// session's bus before run(), with SessionOptions::trace on so the trace files have spans;
// after the run, entries() gives the bundle's files for writeBundle().

#include <map>
#include <string>
#include <vector>

#include "bundle/bundle_format.h"
#include "observe/debug_trace_files.h"
#include "observe/event.h"

namespace fusescope {

class BundleRecorder {
public:
    void consume(const Event& event);

    // Entry name -> bytes, every entry bundle_format.h lists.
    std::map<std::string, std::string> entries(const BundleManifest& manifest, const std::string& scriptSource) const;

private:
    std::string events_;  // events.jsonl
    std::string logs_;
    std::vector<TraceRecord> records_;
    DebugTraceFiles debugTrace_;
    std::map<std::string, std::string> compiles_;  // "compiles/<folder>/<file>" -> contents
};

}  // namespace fusescope
