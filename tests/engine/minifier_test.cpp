// fusescope-cli minify: a 30-node graph whose one relu the injector backends break shrinks
// to the relu alone, and the repro.py it writes fails the same way under fusescope-cli run.

#include <filesystem>

#include <gtest/gtest.h>

#include "test_support.h"

namespace fusescope::test {
namespace {

namespace fs = std::filesystem;

// resources/debugging/relu_chain.py (two inputs and 28 ops, one of them a relu) compiled by
// `backend`.
std::string thirtyNodeScript(const std::string& backend) {
    std::string script = readFile(sourcePath("resources/debugging/relu_chain.py"));
    const std::string named = "relu_compile_error_TESTING_ONLY";
    return script.replace(script.find(named), named.size(), backend);
}

struct Minified {
    ProcessResult minify, repro;
    std::string script;
};

Minified minifyAndRunRepro(const std::string& backend, const std::vector<std::string>& flags) {
    fs::path dir = fs::path(writeTempFile("chain.py", thirtyNodeScript(backend))).parent_path();
    fs::path out = dir / (backend + "_repro.py");
    fs::remove(out);
    std::vector<std::string> args = {"minify", (dir / "chain.py").string(), "--out", out.string()};
    args.insert(args.end(), flags.begin(), flags.end());
    Minified m;
    m.minify = runCli(args);
    m.script = fs::exists(out) ? readFile(out.string()) : "";
    m.repro = runCli({"run", out.string()});
    return m;
}

TEST(Minifier, ShrinksACompileErrorToTheRelu) {
    Minified m = minifyAndRunRepro("relu_compile_error_TESTING_ONLY", {});
    ASSERT_EQ(m.minify.exitCode, 0) << m.minify.err;
    EXPECT_NE(m.minify.err.find("Started off with 30 nodes\n"), std::string::npos) << m.minify.err;
    EXPECT_NE(m.minify.err.find("Strategy: truncate suffix: went from 30 to "), std::string::npos) << m.minify.err;
    EXPECT_NE(m.minify.err.find("Strategy: remove single nodes: went from 17 to 3 nodes\n"), std::string::npos) << m.minify.err;
    EXPECT_NE(m.minify.err.find("Strategy: remove unused inputs: "), std::string::npos) << m.minify.err;
    EXPECT_NE(m.minify.err.find("Went from 30 to 2 nodes\n"), std::string::npos) << m.minify.err;
    EXPECT_NE(m.script.find("def repro(l_x_):\n"
                            "    # " ),
              std::string::npos)
        << m.script;
    EXPECT_NE(m.script.find("    relu = torch.relu(l_x_)\n    return (relu,)\n"), std::string::npos) << m.script;
    EXPECT_EQ(m.repro.exitCode, 1);
    EXPECT_NE(m.repro.err.find("error: BackendCompilerFailed: backend='relu_compile_error_TESTING_ONLY' raised:\n"
                               "ReluCompileError: the graph calls relu"),
              std::string::npos)
        << m.repro.err;
}

// The sum cannot be bypassed (its input has another shape): its value becomes an input.
TEST(Minifier, ReplacesANodeThatCannotBeRemovedByAnInput) {
    std::string script = writeTempFile("sum.py", R"(import torch
@torch.compile(backend="relu_compile_error_TESTING_ONLY")
def f(x):
    s = x.sum(dim=0)
    t = torch.relu(s * 2)
    return t.exp() + 1
print(f(torch.ones(4, 3)))
)");
    std::string out = (fs::path(script).parent_path() / "sum_repro.py").string();
    ProcessResult r = runCli({"minify", script, "--out", out});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("Started off with 6 nodes\n"
                         "Strategy: truncate suffix: went from 6 to 4 nodes\n"
                         "Strategy: remove outputs: no smaller graph fails\n"
                         "Strategy: remove single nodes: went from 4 to 3 nodes\n"
                         "Strategy: replace nodes by inputs: went from 3 to 3 nodes (2 ops to 1)\n"
                         "Strategy: remove unused inputs: went from 3 to 2 nodes\n"),
              std::string::npos)
        << r.err;
    EXPECT_NE(readFile(out).find("def repro(l_sum_1_):\n"
                                 "    # " + script + ":5: t = torch.relu(s * 2)\n"
                                 "    relu = torch.relu(l_sum_1_)\n"
                                 "    return (relu,)\n\n\n"
                                 "l_sum_1_ = torch.tensor([4.0, 4.0, 4.0], dtype=torch.float32)\n"),
              std::string::npos)
        << readFile(out);
}

TEST(Minifier, ShrinksARuntimeErrorToTheRelu) {
    Minified m = minifyAndRunRepro("relu_runtime_error_TESTING_ONLY", {});
    ASSERT_EQ(m.minify.exitCode, 0) << m.minify.err;
    EXPECT_NE(m.minify.err.find("Went from 30 to 2 nodes\n"), std::string::npos) << m.minify.err;
    EXPECT_EQ(m.repro.exitCode, 1);
    EXPECT_NE(m.repro.err.find("error: AssertionError: ReluRuntimeError"), std::string::npos) << m.repro.err;
}

TEST(Minifier, ShrinksAnAccuracyFailureToTheRelu) {
    Minified m = minifyAndRunRepro("relu_accuracy_error_TESTING_ONLY", {"--accuracy"});
    ASSERT_EQ(m.minify.exitCode, 0) << m.minify.err;
    EXPECT_NE(m.minify.err.find("failed: accuracy error\nAccuracy failed for __compiled_fn_0"), std::string::npos) << m.minify.err;
    EXPECT_NE(m.minify.err.find("Went from 30 to 2 nodes\n"), std::string::npos) << m.minify.err;
    EXPECT_NE(m.script.find("expected = repro(l_x_)\n"), std::string::npos) << m.script;
    EXPECT_EQ(m.repro.exitCode, 1);
    EXPECT_NE(m.repro.err.find("error: AssertionError: output 0 differs from eager"), std::string::npos) << m.repro.err;
}

TEST(Minifier, SaysWhenNothingFails) {
    Minified m = minifyAndRunRepro("relu_accuracy_error_TESTING_ONLY", {});
    EXPECT_EQ(m.minify.exitCode, 1);
    EXPECT_NE(m.minify.err.find("fusescope-cli: error: no compiled graph failed to compile or to run (add --accuracy to look "
                                "for wrong results)"),
              std::string::npos)
        << m.minify.err;
    EXPECT_EQ(m.script, "");
}

TEST(Minifier, AfterAotShrinksTheDecomposedGraph) {
    Minified m = minifyAndRunRepro("relu_compile_error_TESTING_ONLY", {"--after", "aot"});
    ASSERT_EQ(m.minify.exitCode, 0) << m.minify.err;
    EXPECT_NE(m.minify.err.find("Went from 30 to 2 nodes\n"), std::string::npos) << m.minify.err;
    EXPECT_EQ(runCli({"minify", "x.py", "--after", "inductor"}).exitCode, 2);
}

}  // namespace
}  // namespace fusescope::test
