// fusescope-cli torch-trace PATH [--rank N] [--report] [--events FILE.jsonl] [--bundle FILE]:
// a TORCH_TRACE log real PyTorch wrote, read into our events (docs/torch-trace.md). The
// reader's warnings (malformed lines, payload checksums) go to stderr and never stop it.
// `torch-trace DIR --all-ranks`: every rank of a distributed run side by side, and where
// the ranks first diverge. `--follow`: a log a running program is still writing, a line per
// compile as PyTorch finishes it.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bundle/bundle_recorder.h"
#include "bundle/bundle_writer.h"
#include "bundle/zip_archive.h"
#include "cli_commands.h"
#include "core/error.h"
#include "core/json_text.h"
#include "output_paths.h"
#include "torch_trace/rank_comparison.h"
#include "torch_trace/trace_log_files.h"
#include "torch_trace/trace_log_follower.h"

namespace fusescope::cli {

namespace {

struct TorchTraceArgs {
    std::string path;
    std::optional<int> rank;
    bool allRanks = false;
    bool follow = false;
    std::optional<double> idleSeconds;  // --follow stops once the log has not grown for this long
    bool report = false;
    std::string events;
    std::string bundle;
};

int compareAllRanks(const std::string& folder) {
    RankedTraceLogs ranked = rankedTraceLogs(folder);
    if (!ranked.error.empty()) {
        std::cerr << "fusescope-cli: error: " << ranked.error << "\n";
        return 1;
    }
    for (const auto& left : ranked.left) std::cerr << fmt::format("fusescope-cli: left out {}: an older log of a rank read from a newer one\n", left);
    std::vector<RankLog> logs;
    try {
        logs = loadRankLogs(ranked);
    } catch (const Error& e) {
        std::cerr << "fusescope-cli: error: " << e.what() << "\n";
        return 1;
    }
    for (const RankLog& log : logs)
        for (const auto& w : log.imported.warnings) std::cerr << fmt::format("fusescope-cli: warning: {}: {}\n", log.path, w);
    std::cout << rankComparisonText(compareRanks(logs));
    return finishOutput(std::cout, "the overview (stdout)") ? 0 : 1;
}

// A compile PyTorch has finished (its compilation_metrics logged), in a line.
std::string finishedCompileLine(const TorchTraceImport& t, const CompileStartedEvent& started) {
    int graphs = 0, ops = 0, breaks = 0;
    for (const Event& e : t.events) {
        if (const auto* g = std::get_if<GraphCapturedEvent>(&e); g && g->compileId == started.compileId) ++graphs, ops += g->opCount;
        if (const auto* b = std::get_if<GraphBreakEvent>(&e); b && b->compileId == started.compileId) ++breaks;
    }
    const TorchCompileMetrics& m = t.metrics.at(started.compileId);
    std::string line = fmt::format("[{}] {} ({}:{}): {} graph{}, {} ops, {} graph break{}", started.compileId, started.function,
                                   started.where.file, started.where.line, graphs, graphs == 1 ? "" : "s", ops, breaks, breaks == 1 ? "" : "s");
    if (!m.recompileReasons.empty()) {
        const std::string& reason = m.recompileReasons.front();
        line += "; recompiled: " + reason.substr(0, reason.find('\n'));
    }
    const std::string metrics = metricsText(m);
    return line + "; " + metrics.substr(0, metrics.find('\n')) + "\n";
}

int followLog(const TorchTraceArgs& args) {
    using Clock = std::chrono::steady_clock;
    TraceLogFollower follower(args.path, args.rank);
    std::set<std::string> printed;
    auto lastGrowth = Clock::now();
    bool announced = false;
    auto printFinished = [&](const TorchTraceImport& t) {
        for (const Event& e : t.events)
            if (const auto* started = std::get_if<CompileStartedEvent>(&e);
                started && t.metrics.count(started->compileId) && !t.metrics.at(started->compileId).forward.is_null() &&
                printed.insert(started->compileId).second)
                std::cout << finishedCompileLine(t, *started);
        std::cout.flush();
    };
    while (true) {
        TraceLogFollower::Change change;
        try {
            change = follower.poll();
        } catch (const Error& e) {
            std::cerr << "fusescope-cli: error: " << e.what() << "\n";
            return 1;
        }
        if (!announced && !follower.logPath().empty()) {
            std::cerr << fmt::format("fusescope-cli: following {}{}\n", follower.logPath(),
                                     args.idleSeconds ? fmt::format(" until it has not grown for {:g} s", *args.idleSeconds) : " (Ctrl+C stops)");
            announced = true;
        }
        if (change == TraceLogFollower::Change::Restarted) {
            std::cout << "-- the log was replaced or cut shorter (rotated): read again from its start\n";
            printed.clear();
        }
        if (change != TraceLogFollower::Change::None) {
            lastGrowth = Clock::now();
            printFinished(follower.imported());
        }
        if (args.idleSeconds && std::chrono::duration<double>(Clock::now() - lastGrowth).count() >= *args.idleSeconds) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    follower.finish();  // the writer is taken to be done
    TorchTraceImport t = follower.imported();
    printFinished(t);
    for (const auto& w : t.warnings) std::cerr << fmt::format("fusescope-cli: warning: {}: {}\n", follower.logPath(), w);
    std::cout << fmt::format("-- {} compile{} finished; the log has not grown for {:g} s\n", printed.size(), printed.size() == 1 ? "" : "s",
                             *args.idleSeconds);
    if (args.report) std::cout << "\n" << torchTraceReport(t);
    return finishOutput(std::cout, "the followed compiles (stdout)") ? 0 : 1;
}

int convert(const TorchTraceArgs& args) {
    TraceLogChoice choice = chooseTraceLog(args.path, args.rank);
    if (!choice.error.empty()) {
        std::cerr << "fusescope-cli: error: " << choice.error << "\n";
        return 1;
    }
    if (!choice.others.empty())
        std::cerr << fmt::format("fusescope-cli: reading {} ({} other log{} in the folder; --rank N picks one)\n", choice.path,
                                 choice.others.size(), choice.others.size() == 1 ? "" : "s");
    if (auto refused = refusedOutput({{"--events", args.events}, {"--bundle", args.bundle, true}}, {choice.path})) {
        std::cerr << "fusescope-cli: error: " << *refused << "\n";
        return 2;
    }
    if (!args.bundle.empty() && !zipAvailable()) {
        std::cerr << "fusescope-cli: error: " << zipUnavailableReason() << "\n";
        return 1;
    }
    TorchTraceImport imported;
    try {
        imported = loadTraceLog(choice.path);
    } catch (const Error& e) {
        std::cerr << "fusescope-cli: error: " << e.what() << "\n";
        return 1;
    }
    for (const auto& w : imported.warnings) std::cerr << fmt::format("fusescope-cli: warning: {}: {}\n", choice.path, w);

    bool written = true;
    if (!args.events.empty()) {
        std::ofstream out(args.events, std::ios::binary | std::ios::trunc);
        if (!out) {
            std::cerr << "fusescope-cli: error: cannot write events file '" << args.events << "'\n";
            return 2;
        }
        int error = 0;
        for (const Event& e : imported.events) {
            out << jsonText(eventToJson(e)) << "\n";
            noteWriteFailure(out, error);
        }
        written = finishOutput(out, "events file '" + args.events + "'", error);
    }
    if (!args.bundle.empty()) {
        BundleRecorder recorder;
        for (const Event& e : imported.events) recorder.consume(e);
        nlohmann::json options = {{"source", "torch_trace"}, {"torch_version", imported.torchVersion}};
        if (args.rank) options["rank"] = *args.rank;
        try {
            std::string name = std::filesystem::path(choice.path).filename().string();
            writeBundle(args.bundle, recorder.entries(makeManifest(name, "cpu", options), ""));
        } catch (const Error& e) {
            std::cerr << "fusescope-cli: error: " << e.what() << "\n";
            return 1;
        }
    }
    // The report is what the command shows when asked for nothing else.
    if (args.report || (args.events.empty() && args.bundle.empty())) std::cout << torchTraceReport(imported);
    written = finishOutput(std::cout, "the report (stdout)") && written;
    return written ? 0 : 1;
}

}  // namespace

int torchTraceCommand(const std::vector<std::string>& args) {
    TorchTraceArgs t;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--rank" || a == "--events" || a == "--bundle") {
            if (i + 1 >= args.size()) return usageError(a + " needs a value");
            const std::string& v = args[++i];
            if (a == "--events") {
                t.events = v;
            } else if (a == "--bundle") {
                t.bundle = v;
            } else {
                if (v.empty() || v.size() > 6 || v.find_first_not_of("0123456789") != std::string::npos)
                    return usageError("--rank takes a rank number, not '" + v + "'");
                t.rank = std::stoi(v);
            }
        } else if (a == "--all-ranks") {
            t.allRanks = true;
        } else if (a == "--follow") {
            t.follow = true;
        } else if (a == "--idle") {
            if (i + 1 >= args.size()) return usageError("--idle needs a number of seconds");
            const std::string& v = args[++i];
            char* end = nullptr;
            double seconds = std::strtod(v.c_str(), &end);
            if (v.empty() || *end != '\0' || !(seconds > 0) || seconds > 86400)
                return usageError("--idle takes seconds (more than 0, at most 86400), not '" + v + "'");
            t.idleSeconds = seconds;
        } else if (a == "--report") {
            t.report = true;
        } else if (!a.empty() && a[0] == '-') {
            return usageError("unknown option '" + a + "'");
        } else if (t.path.empty()) {
            t.path = a;
        } else {
            return usageError("more than one PATH given");
        }
    }
    if (t.path.empty()) return usageError("torch-trace needs a PATH (a TORCH_TRACE folder or log file)");
    if (t.allRanks && (t.rank || t.report || !t.events.empty() || !t.bundle.empty()))
        return usageError("--all-ranks prints the ranks side by side; --rank, --report, --events and --bundle read one rank");
    if (t.idleSeconds && !t.follow) return usageError("--idle is for --follow");
    if (t.follow && (t.allRanks || !t.events.empty() || !t.bundle.empty()))
        return usageError("--follow prints compiles as they come; --all-ranks, --events and --bundle read a finished log");
    if (t.follow) return followLog(t);
    return t.allRanks ? compareAllRanks(t.path) : convert(t);
}

}  // namespace fusescope::cli
