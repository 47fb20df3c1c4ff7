// The inductor pipeline's debug trace on seed 000's function: the IR text before and after
// fusion must equal the reviewed golden files byte for byte; the events carry provenance.

#include <filesystem>
#include <regex>
#include <sstream>

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
    SKIP_WITHOUT_CPP_JIT();
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

namespace fusescope::test {
namespace {

// Provenance on the event stream (docs/architecture.md, principle 4): scheduler nodes name the captured
// graph's nodes they compute, and each generated source line names the buffers it computes.
struct Seed000Events {
    nlohmann::json preFusion, postFusion, kernelSource;
};

Seed000Events seed000Events() {
    std::string events = writeTempFile("events.jsonl", "");
    ProcessResult r = runCli({"run", sourcePath("tests/golden/inductor/seed000_fn.py"), "--events", events});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    Seed000Events out;
    std::istringstream lines(readFile(events));
    for (std::string line; std::getline(lines, line);) {
        nlohmann::json e = nlohmann::json::parse(line);
        if (e["type"] == "ir_pre_fusion") out.preFusion = e;
        if (e["type"] == "ir_post_fusion") out.postFusion = e;
        if (e["type"] == "kernel_source") out.kernelSource = e;
    }
    return out;
}

using Names = std::vector<std::string>;

TEST(Provenance, SchedulerNodesNameTheCapturedNodesTheyComputeAndWhatTheyRead) {
    Seed000Events e = seed000Events();
    const nlohmann::json& pre = e.preFusion["nodes"];
    ASSERT_EQ(pre.size(), 3u) << e.preFusion.dump();
    EXPECT_EQ(pre[0]["name"], "buf0");
    EXPECT_EQ(pre[0]["kind"], "SchedulerNode");
    EXPECT_EQ(pre[0]["origins"].get<Names>(), (Names{"add", "realize"}));
    EXPECT_EQ(pre[0]["reads"].get<Names>(), (Names{"arg0_1"}));
    EXPECT_EQ(pre[1]["name"], "buf1");
    EXPECT_EQ(pre[1]["reads"].get<Names>(), (Names{"buf0"}));
    // The captured graph calls it matmul; decomposition made it mm, the origin stays matmul.
    EXPECT_EQ(pre[2]["name"], "buf2");
    EXPECT_EQ(pre[2]["kind"], "ExternKernelSchedulerNode");
    EXPECT_EQ(pre[2]["origins"].get<Names>(), (Names{"matmul"}));
    EXPECT_EQ(pre[2]["reads"].get<Names>(), (Names{"buf1", "arg1_1"}));

    const nlohmann::json& post = e.postFusion["nodes"];
    ASSERT_EQ(post.size(), 2u) << e.postFusion.dump();
    EXPECT_EQ(post[0]["name"], "buf0_buf1");
    EXPECT_EQ(post[0]["kind"], "FusedSchedulerNode");
    EXPECT_EQ(post[0]["members"].get<Names>(), (Names{"buf0", "buf1"}));
    EXPECT_EQ(post[0]["origins"].get<Names>(), (Names{"add", "realize", "add_1"}));
    EXPECT_EQ(post[1]["name"], "buf2");
    EXPECT_TRUE(post[1]["members"].empty());
}

TEST(Provenance, EachGeneratedLineNamesTheBuffersItComputes) {
    Seed000Events e = seed000Events();
    const nlohmann::json& k = e.kernelSource;
    EXPECT_EQ(k["buffer_kernels"]["buf0"], "cpp_fused_add_realize_0");
    EXPECT_EQ(k["buffer_kernels"]["buf1"], "cpp_fused_add_realize_0");
    EXPECT_EQ(k["buffer_kernels"]["buf2"], "extern_kernels.mm");
    auto computes = [&](const std::string& buffer, int line) {
        for (const auto& range : k["buffer_lines"][buffer])
            if (range[0].get<int>() <= line && line <= range[1].get<int>()) return true;
        return false;
    };
    std::istringstream source(k["source"].get<std::string>());
    int n = 0, member0 = 0, member1 = 0, bufferRows = 0;
    for (std::string line; std::getline(source, line);) {
        ++n;
        bool m0 = line.find("m0_") != std::string::npos, m1 = line.find("m1_") != std::string::npos;
        member0 += m0;
        member1 += m1;
        if (m0) {
            EXPECT_TRUE(computes("buf0", n) && !computes("buf1", n)) << n << ": " << line;
        }
        if (m1) {
            EXPECT_TRUE(computes("buf1", n) && !computes("buf0", n)) << n << ": " << line;
        }
        if (line.rfind("// buf0: pointwise", 0) == 0) {
            EXPECT_TRUE(computes("buf0", n) && !computes("buf1", n)) << line;
        }
        if (line.find("cpp_fused_add_realize_0(arg0_1") != std::string::npos) {
            EXPECT_TRUE(computes("buf0", n) && computes("buf1", n) && !computes("buf2", n)) << line;
        }
        if (line.find("fs_gemm(0") != std::string::npos) {
            EXPECT_TRUE(computes("buf2", n) && !computes("buf0", n)) << line;
        }
        if (line.find("},  // buf0: ") != std::string::npos) {  // its row in call()'s buffer table
            EXPECT_TRUE(computes("buf0", n) && !computes("buf1", n)) << line;
            ++bufferRows;
        }
        if (line.find("fs_isnan") != std::string::npos) {
            EXPECT_FALSE(computes("buf0", n) || computes("buf1", n)) << line;
        }
    }
    EXPECT_EQ(member0, 6);  // get_index, load, constant, add, get_index_1, store
    EXPECT_EQ(member1, 6);
    EXPECT_EQ(bufferRows, 1);
}

}  // namespace
}  // namespace fusescope::test
