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
    EXPECT_NE(m.minify.err.find("Strategy: remove unused inputs: "), std::string::npos) << m.minify.err;
    EXPECT_NE(m.minify.err.find("Went from 30 to 2 nodes\n"), std::string::npos) << m.minify.err;
    EXPECT_NE(m.script.find("def repro(l_sub_1_):\n"
                            "    # " ),
              std::string::npos)
        << m.script;
    EXPECT_NE(m.script.find("    relu = torch.relu(l_sub_1_)\n    return (relu,)\n"), std::string::npos) << m.script;
    EXPECT_EQ(m.repro.exitCode, 1);
    EXPECT_NE(m.repro.err.find("error: BackendCompilerFailed: backend='relu_compile_error_TESTING_ONLY' raised:\n"
                               "ReluCompileError: the graph calls relu"),
              std::string::npos)
        << m.repro.err;
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
    EXPECT_NE(m.script.find("expected = repro(l_sub_1_)\n"), std::string::npos) << m.script;
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
