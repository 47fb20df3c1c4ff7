#include "model/profiler_trace_run.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <fmt/format.h>

#include "core/error.h"
#include "observe/json_nesting.h"
#include "profile/chrome_trace_import.h"

namespace fusescope::gui {

namespace {

std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(fmt::format("cannot open '{}'", path.string()));
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

ProfilerTraceRun loadProfilerTrace(const std::string& path) {
    std::string text = readText(path);
    if (jsonNestsDeeperThan(text)) throw Error(fmt::format("'{}' nests JSON deeper than {} levels", path, kMaxJsonNesting));
    nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (!isChromeTrace(doc)) throw Error(fmt::format("'{}' is not a Chrome trace (JSON with \"traceEvents\")", path));
    std::vector<TraceRecord> records = recordsFromChromeTrace(doc);
    ProfilerTraceRun run;
    // An execution trace beside it, recorded in the same profile, fills in the ops' shapes.
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(path).parent_path(), ec)) {
        if (entry.path().extension() != ".json" || std::filesystem::equivalent(entry.path(), path, ec)) continue;
        if (entry.file_size(ec) > (size_t(256) << 20)) continue;
        nlohmann::json other = parseUntrustedJson(readText(entry.path()));
        if (!isExecutionTrace(other)) continue;
        if (size_t merged = mergeExecutionTrace(records, other)) {
            run.executionTrace = entry.path().string();
            run.opsMerged = merged;
            break;
        }
    }
    run.spans = records.size();
    for (const TraceRecord& r : records) run.events.add(Event{TraceEvent{r}});
    return run;
}

}  // namespace fusescope::gui
