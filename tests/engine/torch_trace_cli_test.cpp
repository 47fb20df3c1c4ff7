// fusescope-cli torch-trace over the real PyTorch logs of tests/fixtures/torch_trace: the
// report by default, the events and a bundle when asked, and clear errors for a path that
// holds no log or a rank that is not a number.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "bundle/bundle_reader.h"
#include "bundle/bundle_summary.h"
#include "bundle/zip_archive.h"
#include "test_support.h"
#include "torch_trace/trace_log_files.h"

namespace fs = std::filesystem;
using namespace fusescope;
using namespace fusescope::test;

namespace {

std::string fixtureFolder(const std::string& name) { return sourcePath("tests/fixtures/torch_trace/" + name); }

TEST(TorchTraceCli, AFolderPrintsItsCompileReport) {
    ProcessResult r = runCli({"torch-trace", fixtureFolder("graph_breaks")});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out, readFile(sourcePath("tests/golden/torch_trace/graph_breaks.report")));
}

TEST(TorchTraceCli, AllRanksPutsTheRanksSideBySide) {
    for (const std::string name : {"ranks_diverge", "ddp_two_ranks"}) {
        ProcessResult r = runCli({"torch-trace", fixtureFolder(name), "--all-ranks"});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        EXPECT_EQ(r.err, "");
        EXPECT_EQ(r.out, readFile(sourcePath("tests/golden/torch_trace/" + name + ".all_ranks")));
    }
    ProcessResult oneRank = runCli({"torch-trace", fixtureFolder("ranks_diverge"), "--all-ranks", "--rank", "1"});
    EXPECT_EQ(oneRank.exitCode, 2);
    EXPECT_NE(oneRank.err.find("--all-ranks prints the ranks side by side; --rank, --report, --events and --bundle read one rank"),
              std::string::npos) << oneRank.err;
    ProcessResult notRanked = runCli({"torch-trace", fixtureFolder("recompiles"), "--all-ranks"});
    EXPECT_EQ(notRanked.exitCode, 1);
    EXPECT_EQ(notRanked.err, "fusescope-cli: error: '" + fixtureFolder("recompiles") +
                                 "' holds no per-rank log (dedicated_log_torch_trace_rank_N_*.log)\n");
}

TEST(TorchTraceCli, EventsAndABundleHoldEveryCompile) {
    fs::path dir = fs::path(testing::TempDir()) / "torch_trace_cli";
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::string events = (dir / "events.jsonl").string(), bundle = (dir / "recompiles.fscope").string();
    std::vector<std::string> args = {"torch-trace", fixtureFolder("recompiles") + "/dedicated_log_torch_trace_fixture.log", "--events",
                                     events};
    if (zipAvailable()) args.insert(args.end(), {"--bundle", bundle});
    ProcessResult r = runCli(args);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "") << "asked for files, not the report";

    std::ifstream in(events);
    std::map<std::string, int> types;
    for (std::string line; std::getline(in, line);) ++types[nlohmann::json::parse(line).at("type").get<std::string>()];
    TorchTraceImport imported = loadTraceLog(fixtureFolder("recompiles") + "/dedicated_log_torch_trace_fixture.log");
    size_t lines = 0;
    for (const auto& [type, count] : types) lines += count;
    EXPECT_EQ(lines, imported.events.size());
    EXPECT_EQ(types["compile_started"], 4);
    EXPECT_EQ(types["recompile"], 3);
    EXPECT_EQ(types["graph_captured"], 4);
    EXPECT_EQ(types["kernel_source"], 4);

    if (zipAvailable()) {
        BundleSummary s = summarizeBundle(readBundle(bundle));
        EXPECT_EQ(s.compiles, 4u);
        EXPECT_EQ(s.recompiles, 3u);
        EXPECT_EQ(s.kernels, 4u);
    }
    fs::remove_all(dir);
}

// A payload byte that is not UTF-8 (a log cut mid-character, a Latin-1 string) is written
// as U+FFFD: the events are still JSON, every one of them.
TEST(TorchTraceCli, APayloadThatIsNotUtf8StillGivesEveryEvent) {
    std::ifstream in(fixtureFolder("graph_breaks") + "/dedicated_log_torch_trace_fixture.log");
    std::string log, line;
    bool inReason = false;
    while (std::getline(in, line)) {
        if (line[0] != '\t') inReason = line.find("\"dynamo_graph_break_reason\"") != std::string::npos;
        else if (inReason) line += " caf\xe9";
        log += line + "\n";
    }
    const std::string logPath = writeTempFile("latin1_torch_trace.log", log);
    const std::string events = writeTempFile("latin1_events.jsonl", "");
    ProcessResult r = runCli({"torch-trace", logPath, "--events", events});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::ifstream written(events);
    size_t lines = 0;
    for (std::string e; std::getline(written, e); ++lines) EXPECT_TRUE(nlohmann::json::accept(e)) << e;
    EXPECT_EQ(lines, loadTraceLog(fixtureFolder("graph_breaks") + "/dedicated_log_torch_trace_fixture.log").events.size());
    EXPECT_NE(readFile(events).find("caf\xEF\xBF\xBD"), std::string::npos);
}

TEST(TorchTraceCli, APathWithoutALogOrABadRankIsAnError) {
    ProcessResult missing = runCli({"torch-trace", "/nonexistent/trace"});
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_EQ(missing.err, "fusescope-cli: error: '/nonexistent/trace' does not exist\n");

    ProcessResult empty = runCli({"torch-trace", sourcePath("tests/fixtures/torch_trace/programs")});
    EXPECT_EQ(empty.exitCode, 1);
    EXPECT_NE(empty.err.find("holds no TORCH_TRACE log (dedicated_log_torch_trace_*.log)"), std::string::npos) << empty.err;

    ProcessResult rank = runCli({"torch-trace", fixtureFolder("recompiles"), "--rank", "first"});
    EXPECT_EQ(rank.exitCode, 2);
    EXPECT_EQ(rank.err.rfind("fusescope-cli: error: --rank takes a rank number, not 'first'\n", 0), 0u) << rank.err;
}

}  // namespace
