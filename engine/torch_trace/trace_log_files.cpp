#include "torch_trace/trace_log_files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include <fmt/format.h>

#include "core/error.h"
#include "core/read_fields.h"

namespace fusescope {

namespace fs = std::filesystem;

std::optional<int> traceLogRank(const std::string& fileName) {
    static const std::regex ranked(R"(^dedicated_log_torch_trace_rank_(\d+)_.*\.log$)");
    std::smatch m;
    if (!std::regex_match(fileName, m, ranked)) return std::nullopt;
    int rank = intOfDigits(m[1].str(), -1);  // too many digits: not a rank
    return rank < 0 ? std::nullopt : std::optional<int>(rank);
}

namespace {

// The folder's TORCH_TRACE logs, sorted by name; `error` when there are none.
std::vector<fs::path> traceLogsIn(const std::string& path, std::string& error) {
    std::error_code ec;
    std::vector<fs::path> logs;
    for (const auto& entry : fs::directory_iterator(path, ec)) {
        std::string name = entry.path().filename().string();
        if (entry.is_regular_file(ec) && name.starts_with("dedicated_log_torch_trace_") && name.ends_with(".log"))
            logs.push_back(entry.path());
    }
    std::sort(logs.begin(), logs.end());
    if (logs.empty()) error = fmt::format("'{}' holds no TORCH_TRACE log (dedicated_log_torch_trace_*.log)", path);
    return logs;
}

bool olderThan(const fs::path& a, const fs::path& b) {
    std::error_code e;
    return fs::last_write_time(a, e) < fs::last_write_time(b, e);
}

}  // namespace

RankedTraceLogs rankedTraceLogs(const std::string& folder) {
    RankedTraceLogs ranked;
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) {
        ranked.error = fmt::format("'{}' is not a folder (--all-ranks reads a TORCH_TRACE folder of a distributed run)", folder);
        return ranked;
    }
    std::map<int, std::vector<fs::path>> byRank;
    for (const fs::path& log : traceLogsIn(folder, ranked.error))
        if (auto rank = traceLogRank(log.filename().string())) byRank[*rank].push_back(log);
    if (byRank.empty() && ranked.error.empty())
        ranked.error = fmt::format("'{}' holds no per-rank log (dedicated_log_torch_trace_rank_N_*.log)", folder);
    for (auto& [rank, logs] : byRank) {
        auto newest = std::max_element(logs.begin(), logs.end(), olderThan);
        ranked.logs.emplace_back(rank, newest->string());
        for (auto it = logs.begin(); it != logs.end(); ++it)
            if (it != newest) ranked.left.push_back(it->string());
    }
    return ranked;
}

TraceLogChoice chooseTraceLog(const std::string& path, std::optional<int> rank) {
    TraceLogChoice choice;
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        choice.error = fmt::format("'{}' does not exist", path);
        return choice;
    }
    if (!fs::is_directory(path, ec)) {
        choice.path = path;
        return choice;
    }
    std::vector<fs::path> logs = traceLogsIn(path, choice.error);
    if (logs.empty()) return choice;
    auto rankOf = [](const fs::path& p) { return traceLogRank(p.filename().string()); };
    auto chosen = logs.end();
    if (rank) {
        chosen = std::find_if(logs.begin(), logs.end(), [&](const fs::path& p) { return rankOf(p) == rank; });
        if (chosen == logs.end()) {
            choice.error = fmt::format("'{}' holds no log of rank {}", path, *rank);
            return choice;
        }
    } else if (logs.size() == 1) {
        chosen = logs.begin();
    } else {
        chosen = std::find_if(logs.begin(), logs.end(), [&](const fs::path& p) { return rankOf(p) == 0; });
        if (chosen == logs.end())
            chosen = std::max_element(logs.begin(), logs.end(), olderThan);
    }
    choice.path = chosen->string();
    for (auto it = logs.begin(); it != logs.end(); ++it)
        if (it != chosen) choice.others.push_back(it->string());
    return choice;
}

TorchTraceImport loadTraceLog(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(fmt::format("cannot open TORCH_TRACE log '{}': {}", path, std::strerror(errno)));
    return importTraceLog(in);
}

}  // namespace fusescope
