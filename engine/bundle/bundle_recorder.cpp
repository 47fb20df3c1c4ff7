#include "bundle/bundle_recorder.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "core/json_text.h"
#include "profile/trace_export.h"

namespace fusescope {

namespace {

// A module's entry under script/: its path from the script's folder, a folder above it
// (a sys.path entry outside) named __parent__, as an entry name cannot hold '..'.
std::string moduleEntryPath(const std::string& path) {
    std::string entry;
    for (const auto& part : std::filesystem::path(path).lexically_normal()) {
        if (part == "/" || part.empty()) continue;
        entry += (entry.empty() ? "" : "/") + (part == ".." ? std::string("__parent__") : part.string());
    }
    return entry;
}

}  // namespace

void BundleRecorder::consume(const Event& event) {
    if (std::holds_alternative<TraceEvent>(event) && (spansLeftOut_ > 0 || events_.size() >= spanBudgetBytes_)) {
        ++spansLeftOut_;
        return;
    }
    events_ += jsonText(eventToJson(event)) + "\n";
    if (const auto* log = std::get_if<LogEvent>(&event)) logs_ += log->formatted() + "\n";
    if (const auto* trace = std::get_if<TraceEvent>(&event)) records_.push_back(trace->record);
    if (const auto* imported = std::get_if<ModuleImportedEvent>(&event)) modules_[moduleEntryPath(imported->path)] = imported->source;
    for (const auto& update : debugTrace_.consume(event))
        for (const auto& [file, text] : update.files) compiles_[kCompilesFolder + update.folder + "/" + file] = text;
}

std::map<std::string, std::string> BundleRecorder::entries(const BundleManifest& manifest,
                                                           const std::string& scriptSource) const {
    std::map<std::string, std::string> entries = compiles_;
    entries[kManifestEntry] = jsonText(manifest.toJson(), 2) + "\n";
    entries[kScriptFolder + manifest.script] = scriptSource;
    for (const auto& [path, source] : modules_) entries[kScriptFolder + path] = source;
    entries[kEventsEntry] = events_;
    entries[kLogsEntry] = logs_;
    if (spansLeftOut_ > 0)
        entries[kLogsEntry] += fmt::format("fusescope: the trace holds the spans of the first {} of events; {} later spans were left out\n",
                                           spanBudgetBytes_ % (1 << 20) ? fmt::format("{} bytes", spanBudgetBytes_)
                                                                          : fmt::format("{} MiB", spanBudgetBytes_ >> 20),
                                           spansLeftOut_);
    // The recording window is the span of what was recorded.
    int64_t startNs = 0, finishNs = 0;
    if (!records_.empty()) {
        startNs = std::min_element(records_.begin(), records_.end(), [](const auto& a, const auto& b) {
                      return a.beginNs < b.beginNs;
                  })->beginNs;
        finishNs = std::max_element(records_.begin(), records_.end(), [](const auto& a, const auto& b) {
                       return a.endNs < b.endNs;
                   })->endNs;
    }
    entries[kExecutionTraceEntry] = executionTraceText(records_, startNs, finishNs) + "\n";
    entries[kChromeTraceEntry] = chromeTraceText(records_) + "\n";
    return entries;
}

}  // namespace fusescope
