// Following a TORCH_TRACE log while it is written (torch_trace/trace_log_follower.h): a real
// log (tests/fixtures/torch_trace, PyTorch 2.15) written into a file in pieces that cut lines
// and payloads anywhere reads, at every step, as whole records only, and in the end exactly as
// the finished log; a rotated log is read again; a folder is watched until a log is in it.
// `fusescope-cli torch-trace --follow` prints each compile as PyTorch finishes it.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/json_text.h"
#include "test_support.h"
#include "torch_trace/trace_log_files.h"
#include "torch_trace/trace_log_follower.h"

namespace fs = std::filesystem;

namespace fusescope::test {
namespace {

std::string fixtureLog(const std::string& name) {
    return sourcePath("tests/fixtures/torch_trace/" + name + "/dedicated_log_torch_trace_fixture.log");
}

std::vector<std::string> eventTexts(const TorchTraceImport& t) {
    std::vector<std::string> texts;
    for (const Event& e : t.events) texts.push_back(jsonText(eventToJson(e)));
    return texts;
}

size_t compilesIn(const TorchTraceImport& t) {
    size_t n = 0;
    for (const Event& e : t.events) n += std::holds_alternative<CompileStartedEvent>(e);
    return n;
}

fs::path freshFolder(const std::string& name) {
    fs::path dir = fs::path(testing::TempDir()) / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

void append(const fs::path& file, std::string_view text) {
    std::ofstream(file, std::ios::binary | std::ios::app) << text;
}

TEST(TraceLogFollower, ALogWrittenInPiecesReadsAsWholeRecordsAndEndsAsTheFinishedLog) {
    const std::string text = readFile(fixtureLog("recompiles"));
    const TorchTraceImport finished = loadTraceLog(fixtureLog("recompiles"));
    fs::path log = freshFolder("follow_pieces") / "dedicated_log_torch_trace_live.log";
    append(log, "");
    TraceLogFollower follower(log.string());
    size_t compiles = 0, grew = 0;
    for (size_t at = 0, piece = 1; at < text.size(); at += piece, piece = piece * 7 % 40009 + 1) {  // cuts anywhere
        append(log, std::string_view(text).substr(at, piece));
        grew += follower.poll() == TraceLogFollower::Change::Grew;
        TorchTraceImport now = follower.imported();
        ASSERT_EQ(now.warnings, std::vector<std::string>{}) << "after " << at + piece << " bytes";
        EXPECT_GE(compilesIn(now), compiles);
        compiles = compilesIn(now);
    }
    EXPECT_GT(grew, 20u);
    EXPECT_FALSE(follower.holdsBack());  // its last record's payload is whole: its md5 says so
    EXPECT_EQ(eventTexts(follower.imported()), eventTexts(finished));
    follower.finish();
    EXPECT_EQ(eventTexts(follower.imported()), eventTexts(finished));
    EXPECT_EQ(follower.bytesRead(), text.size());
}

TEST(TraceLogFollower, ARecordWhosePayloadGoesOnIsHeldBack) {
    // The graph record of the first compile: its envelope and the first line of its payload.
    const std::string text = readFile(fixtureLog("recompiles"));
    const size_t graph = text.find("{\"dynamo_output_graph\"");
    const size_t lineStart = text.rfind('\n', graph) + 1, firstPayloadLineEnd = text.find('\n', text.find('\n', graph) + 1) + 1;
    fs::path log = freshFolder("follow_held") / "dedicated_log_torch_trace_live.log";
    append(log, text.substr(0, firstPayloadLineEnd));
    TraceLogFollower follower(log.string());
    follower.poll();
    EXPECT_TRUE(follower.holdsBack());
    EXPECT_EQ(follower.wholeBytes(), lineStart);
    auto graphs = [&] {
        size_t n = 0;
        for (const Event& e : follower.imported().events) n += std::holds_alternative<GraphCapturedEvent>(e);
        return n;
    };
    EXPECT_EQ(graphs(), 0u);
    append(log, text.substr(firstPayloadLineEnd, text.find("\n", text.find("{\"", firstPayloadLineEnd)) + 1 - firstPayloadLineEnd));
    EXPECT_EQ(follower.poll(), TraceLogFollower::Change::Grew);
    EXPECT_EQ(graphs(), 1u);
}

TEST(TraceLogFollower, ARotatedLogIsReadAgainFromItsStart) {
    fs::path dir = freshFolder("follow_rotated");
    fs::path log = dir / "dedicated_log_torch_trace_live.log";
    fs::copy_file(fixtureLog("recompiles"), log);
    TraceLogFollower follower(log.string());
    EXPECT_EQ(follower.poll(), TraceLogFollower::Change::Grew);
    EXPECT_EQ(compilesIn(follower.imported()), 4u);
    EXPECT_EQ(follower.poll(), TraceLogFollower::Change::None);
    // Another file under the log's name (rotation by rename): read from its start.
    fs::copy_file(fixtureLog("graph_breaks"), dir / "next.log");
    fs::rename(dir / "next.log", log);
    EXPECT_EQ(follower.poll(), TraceLogFollower::Change::Restarted);
    EXPECT_EQ(eventTexts(follower.imported()), eventTexts(loadTraceLog(fixtureLog("graph_breaks"))));
    // The same file cut shorter (truncated, then written again).
    const std::string head = readFile(fixtureLog("recompiles")).substr(0, 3000);
    std::ofstream(log, std::ios::binary | std::ios::trunc) << head;
    EXPECT_EQ(follower.poll(), TraceLogFollower::Change::Restarted);
    EXPECT_EQ(follower.bytesRead(), head.size());
}

TEST(TraceLogFollower, AFolderIsWatchedUntilALogIsInIt) {
    fs::path dir = freshFolder("follow_folder");
    TraceLogFollower follower(dir.string());
    EXPECT_EQ(follower.poll(), TraceLogFollower::Change::None);
    EXPECT_EQ(follower.logPath(), "");
    fs::copy_file(fixtureLog("recompiles"), dir / "dedicated_log_torch_trace_abc.log");
    EXPECT_EQ(follower.poll(), TraceLogFollower::Change::Grew);
    EXPECT_EQ(follower.logPath(), (dir / "dedicated_log_torch_trace_abc.log").string());
    fs::remove_all(dir);
    EXPECT_THROW(follower.poll(), Error);
    EXPECT_THROW(TraceLogFollower("/no/such/folder").poll(), Error);
}

// The CLI follows a log a "program" writes record by record, a line per compile as its
// metrics arrive, and stops once the log has been idle for --idle seconds.
TEST(TraceLogFollower, TheCliPrintsEachCompileAsItFinishes) {
    fs::path dir = freshFolder("follow_cli");
    fs::path log = dir / "dedicated_log_torch_trace_live.log";
    append(log, "");
    const std::string out = (dir / "out.txt").string(), err = (dir / "err.txt").string();
    int pid = startCli({"torch-trace", dir.string(), "--follow", "--idle", "3"}, out, err);
    const std::string text = readFile(fixtureLog("recompiles"));
    std::vector<size_t> linesSeenAtMetrics;  // stdout's lines when each compile's metrics were written
    for (size_t at = 0; at < text.size();) {
        size_t next = text.find("\nV", at);  // a record with its payload at a time
        next = next == std::string::npos ? text.size() : next + 1;
        const bool metrics = text.substr(at, next - at).find("{\"compilation_metrics\"") != std::string::npos;
        append(log, std::string_view(text).substr(at, next - at));
        at = next;
        if (metrics) {  // the compile is done: its line comes within a second
            auto lines = [&] {
                const std::string printed = readFile(out);
                return std::count(printed.begin(), printed.end(), '\n');
            };
            auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
            while (lines() <= static_cast<long>(linesSeenAtMetrics.size()) && std::chrono::steady_clock::now() < deadline)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            linesSeenAtMetrics.push_back(static_cast<size_t>(lines()));
        }
    }
    EXPECT_EQ(waitCli(pid), 0) << readFile(err);
    EXPECT_EQ(linesSeenAtMetrics, (std::vector<size_t>{1, 2, 3, 4}));
    const std::string printed = readFile(out);
    EXPECT_EQ(printed.substr(0, printed.find('\n')),
              "[0/0] scale (<fixtures>/programs/recompiles.py:5): 1 graph, 2 ops, 0 graph breaks; compiled in 18.496 s, guard_count 9, "
              "aotautograd_cache_miss x1, fx_graph_cache_miss x1");
    EXPECT_NE(printed.find("\n[0/1] scale (<fixtures>/programs/recompiles.py:5): 1 graph, 2 ops, 0 graph breaks; recompiled: 0/0: tensor 'x' "
                           "size mismatch at index 0. expected 4, actual 6; "),
              std::string::npos) << printed;
    EXPECT_TRUE(printed.ends_with("-- 4 compiles finished; the log has not grown for 3 s\n")) << printed;
    EXPECT_EQ(readFile(err), "fusescope-cli: following " + log.string() + " until it has not grown for 3 s\n");
}

}  // namespace
}  // namespace fusescope::test
