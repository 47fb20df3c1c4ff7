// A profiler trace real PyTorch writes, read as the workbench reads one: a Chrome trace's
// spans (recordsFromChromeTrace) and an execution trace's ops merged into them
// (mergeExecutionTrace). One JSON object here can be both (traceEvents beside schema and
// nodes), so one input drives both readers and their join on rf_id. Whatever the JSON
// holds, the readers skip what they cannot use: nothing may throw, crash or hang.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "observe/json_nesting.h"
#include "profile/chrome_trace_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    nlohmann::json doc = fusescope::parseUntrustedJson(text);  // not JSON or too deep: refused, as the workbench refuses it
    if (doc.is_discarded()) return 0;
    std::vector<fusescope::TraceRecord> records = fusescope::recordsFromChromeTrace(doc);
    (void)fusescope::mergeExecutionTrace(records, doc);
    return 0;
}
