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
    // Trace spans stop being recorded once the events hold this much (a compiled call in a
    // loop makes spans without end, ~0.5 KB each): memory stays bounded (writing builds the
    // trace files from the spans, about 2 GB at the budget) and the bundle within what a
    // reader accepts (bundle_format.h); its logs say how many spans were left out.
    static constexpr size_t kSpanBudgetBytes = size_t{64} << 20;

    explicit BundleRecorder(size_t spanBudgetBytes = kSpanBudgetBytes) : spanBudgetBytes_(spanBudgetBytes) {}
    void consume(const Event& event);

    // Entry name -> bytes, every entry bundle_format.h lists.
    std::map<std::string, std::string> entries(const BundleManifest& manifest, const std::string& scriptSource) const;

private:
    size_t spanBudgetBytes_;
    uint64_t spansLeftOut_ = 0;
    std::string events_;  // events.jsonl
    std::string logs_;
    std::vector<TraceRecord> records_;
    DebugTraceFiles debugTrace_;
    std::map<std::string, std::string> compiles_;  // "compiles/<folder>/<file>" -> contents
    std::map<std::string, std::string> modules_;   // the script's own modules it imported: path -> text
};

}  // namespace fusescope
