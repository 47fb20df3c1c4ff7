// fusescope-cli torch-trace PATH [--rank N] [--report] [--events FILE.jsonl] [--bundle FILE]:
// a TORCH_TRACE log real PyTorch wrote, read into our events (docs/torch-trace.md). The
// reader's warnings (malformed lines, payload checksums) go to stderr and never stop it.
// `torch-trace DIR --all-ranks`: every rank of a distributed run side by side, and where
// the ranks first diverge.
#include <filesystem>
#include <fstream>
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

namespace fusescope::cli {

namespace {

struct TorchTraceArgs {
    std::string path;
    std::optional<int> rank;
    bool allRanks = false;
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
    return t.allRanks ? compareAllRanks(t.path) : convert(t);
}

}  // namespace fusescope::cli
