#include "model/torch_trace_run.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "torch_trace/trace_log_files.h"

namespace fusescope::gui {

bool isTorchTracePath(const std::string& path) {
    std::error_code ec;
    std::filesystem::path p(path);
    if (std::filesystem::is_directory(p, ec)) return true;
    std::string name = p.filename().string();
    return name.starts_with("dedicated_log_torch_trace_") && name.ends_with(".log");
}

namespace {

TorchTraceRun runOf(const std::string& logPath, TorchTraceImport imported) {
    TorchTraceRun run;
    run.logPath = logPath;
    run.rank = traceLogRank(std::filesystem::path(logPath).filename().string());
    run.torchVersion = imported.torchVersion;
    run.warnings = std::move(imported.warnings);
    for (Event& e : imported.events) {
        if (const auto* started = std::get_if<CompileStartedEvent>(&e)) {
            if (run.compiles++ == 0) run.firstCompile = started->compileId;
            if (run.program.empty()) run.program = started->where.file;
        }
        run.events.add(std::move(e));  // its texts are large: moved, not copied
    }
    std::ifstream program(run.program);
    if (!run.program.empty() && program) {
        std::ostringstream text;
        text << program.rdbuf();
        run.programText = text.str();
    }
    return run;
}

// The log chosen in `path` (the rank's, when given), read as far as it is whole, and followed.
TorchTraceRun followedRun(const std::string& path, std::optional<int> rank) {
    TraceLogChoice choice = chooseTraceLog(path, rank);
    if (!choice.error.empty()) throw Error(choice.error);
    auto follower = std::make_shared<TraceLogFollower>(choice.path);
    follower->poll();
    TorchTraceRun run = torchTraceRunOf(*follower);
    run.follower = std::move(follower);
    return run;
}

}  // namespace

TorchTraceRun torchTraceRunOf(const TraceLogFollower& follower) { return runOf(follower.logPath(), follower.imported()); }

TorchTraceRun loadTorchTraceRun(const std::string& path) {
    std::error_code ec;
    if (RankedTraceLogs ranked; std::filesystem::is_directory(path, ec) && (ranked = rankedTraceLogs(path)).logs.size() > 1) {
        auto ranks = std::make_shared<const RankComparison>(compareRanks(loadRankLogs(ranked)));
        TorchTraceRun run = followedRun(path, ranked.logs.front().first);
        run.ranks = std::move(ranks);
        return run;
    }
    return followedRun(path, std::nullopt);
}

TorchTraceRun loadTorchTraceRank(const std::string& folder, int rank) { return followedRun(folder, rank); }

}  // namespace fusescope::gui
