// Every bundled example runs cleanly and prints what its reviewed golden output says.
// (The goldens were checked against real PyTorch; 07 and 10 print Fusescope's own
// explain() reasons and guard texts.)
#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.h"

namespace fs = std::filesystem;
using namespace fusescope::test;

TEST(Examples, EachRunsAndMatchesItsGoldenOutput) {
    auto scripts = exampleScripts();
    ASSERT_GE(scripts.size(), 10u);
    for (const fs::path script : scripts) {
        SCOPED_TRACE(script.filename().string());
        auto r = runCli({"run", script.string()});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        std::string golden = sourcePath("tests/golden/examples/" + script.stem().string() + ".out");
        EXPECT_EQ(r.out, readFile(golden));
    }
}

// Every compiled function of every example through generated C++ (--backend inductor
// overrides the examples' own backend="eager"): the same output as eager, and no graph
// falling back.
TEST(Examples, EachMatchesItsGoldenOutputWithEveryGraphCompiledByInductor) {
    for (const fs::path script : exampleScripts()) {
        SCOPED_TRACE(script.filename().string());
        auto r = runCli({"run", script.string(), "--backend", "inductor"});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        EXPECT_EQ(r.out, readFile(sourcePath("tests/golden/examples/" + script.stem().string() + ".out")));
        EXPECT_EQ(r.err.find("cannot lower"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("WON'T CONVERT"), std::string::npos) << r.err;
    }
}
