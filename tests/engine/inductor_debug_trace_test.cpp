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

namespace fusescope::test {
namespace {

TEST(InductorLogs, EachStageHasItsArtifact) {
    ProcessResult r = runCli({"run", sourcePath("tests/golden/inductor/seed000_fn.py"), "--logs",
                              "aot_graphs,ir_pre_fusion,ir_post_fusion,fusion,schedule,output_code"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const char* expected : {"[0/0] [__aot_graphs] TRANSFORMED GRAPH", "[0/0] [__ir_pre_fusion] buf0: SchedulerNode(ComputedBuffer)",
                                 "[0/0] [__ir_post_fusion] buf0_buf1: FusedSchedulerNode(SchedulerNode,SchedulerNode)",
                                 "[0/0] [__fusion] step 1: buf0 + buf1 (vertical, score 1024): fused (vertical)",
                                 "[0/0] [__fusion] step 2: buf0_buf1 + buf2 (vertical, score 1024): cannot fuse buf0_buf1 with buf2: "
                                 "buf2 is an extern kernel",
                                 "[0/0] [__schedule] buf0_buf1 (FusedSchedulerNode): reads arg0_1 writes buf0 buf1",
                                 "\nbuf2 (ExternKernelSchedulerNode): reads buf1 arg1_1 writes buf2",
                                 "[0/0] [__output_code] Output code of __compiled_fn_0:"})
        EXPECT_NE(r.err.find(expected), std::string::npos) << expected << "\n" << r.err;
}

TEST(InductorLogs, PerfHintsNameStridedLoadsInTheInnermostLoop) {
    std::string script = writeTempFile("t.py", R"(import torch
@torch.compile
def f(x):
    return x.t() + 1
print(f(torch.ones(64, 48)).shape)
)");
    ProcessResult r = runCli({"run", script, "--logs", "perf_hints"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("[0/0] [__perf_hints] buf0 reads arg0_1 with stride 48 in its innermost loop"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace fusescope::test
