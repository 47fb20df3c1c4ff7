// The inductor pipeline's debug trace on seed 000's function: the IR text before and after
// fusion must equal the reviewed golden files byte for byte.

#include <filesystem>
#include <regex>

#include <gtest/gtest.h>

#include "test_support.h"

namespace fusescope::test {
namespace {

namespace fs = std::filesystem;

std::string rstrip(std::string s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    return s;
}

struct DebugRun {
    ProcessResult result;
    std::vector<std::string> folders;  // from the `debug trace: <folder>` lines
};

DebugRun runWithDebugDir(const std::string& script) {
    std::string dir = fs::path(writeTempFile("marker", "")).parent_path() / "debug";
    DebugRun run;
    run.result = runCli({"run", script, "--debug-dir", dir});
    std::regex line(R"(\[inductor\] WARNING: debug trace: (.*))");
    std::istringstream err(run.result.err);
    for (std::string l; std::getline(err, l);) {
        std::smatch m;
        if (std::regex_search(l, m, line)) run.folders.push_back(m[1]);
    }
    return run;
}

TEST(DebugTrace, Seed000IrBeforeAndAfterFusionMatchTheGoldenFiles) {
    DebugRun run = runWithDebugDir(sourcePath("tests/golden/inductor/seed000_fn.py"));
    ASSERT_EQ(run.result.exitCode, 0) << run.result.err;
    ASSERT_EQ(run.folders.size(), 1u) << run.result.err;
    fs::path folder = run.folders[0];
    EXPECT_EQ(rstrip(readFile(folder / "ir_pre_fusion.txt")),
              rstrip(readFile(sourcePath("tests/golden/inductor/seed000_ir_pre_fusion.txt"))));
    EXPECT_EQ(rstrip(readFile(folder / "ir_post_fusion.txt")),
              rstrip(readFile(sourcePath("tests/golden/inductor/seed000_ir_post_fusion.txt"))));
}

TEST(DebugTrace, FolderHoldsEveryStageAndTheSeedsMinimumSizes) {
    DebugRun run = runWithDebugDir(sourcePath("tests/golden/inductor/seed000_fn.py"));
    ASSERT_EQ(run.folders.size(), 1u) << run.result.err;
    fs::path folder = run.folders[0];
    for (const char* f : {"fx_graph_readable.py", "fx_graph_runnable.py", "fx_graph_transformed.py"})
        EXPECT_GT(fs::file_size(folder / f), 512u) << f;
    EXPECT_GT(fs::file_size(folder / "output_code.cpp"), 1024u);
    for (const char* f : {"output_code.ll", "output_code.s", "fusion_decisions.json"})
        EXPECT_TRUE(fs::exists(folder / f)) << f;
    std::string decisions = readFile(folder / "fusion_decisions.json");
    EXPECT_NE(decisions.find("\"result\": \"buf0_buf1\""), std::string::npos) << decisions;
    EXPECT_NE(decisions.find("cannot fuse buf0_buf1 with buf2: buf2 is an extern kernel"), std::string::npos) << decisions;
}

TEST(DebugTrace, RunnableGraphRunsAndPrintsItsOutputs) {
    DebugRun run = runWithDebugDir(sourcePath("tests/golden/inductor/seed000_fn.py"));
    ASSERT_EQ(run.folders.size(), 1u) << run.result.err;
    ProcessResult runnable = runCli({"run", (fs::path(run.folders[0]) / "fx_graph_runnable.py").string()});
    EXPECT_EQ(runnable.exitCode, 0) << runnable.err;
    EXPECT_EQ(runnable.out, "torch.Size([16, 16]) torch.float32\n");
}

TEST(DebugTrace, CompileDebugEnvironmentVariableWritesIntoTheWorkingDirectory) {
    std::string dir = fs::path(writeTempFile("marker", "")).parent_path();
    std::string script = writeTempFile("t.py", "import torch\n@torch.compile\ndef f(x):\n    return x * 2\nprint(f(torch.ones(3)))\n");
    fs::path cwd = fs::current_path();
    fs::current_path(dir);
    ProcessResult r = runCli({"run", script}, {"FUSESCOPE_COMPILE_DEBUG=1"});
    fs::current_path(cwd);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(fs::exists(fs::path(dir) / "fusescope_debug" / "f_0_0" / "ir_post_fusion.txt")) << r.err;
}

}  // namespace
}  // namespace fusescope::test
