// Every bundled example runs cleanly and prints what its reviewed golden output says.
// (The goldens were checked against real PyTorch; 07 and 10 print Fusescope's own
// explain() reasons and guard texts.)
#include <gtest/gtest.h>

#include "test_support.h"

using namespace fusescope::test;

TEST(Examples, EachRunsAndMatchesItsGoldenOutput) {
    auto programs = examplePrograms();
    ASSERT_GE(programs.size(), 17u);
    for (const std::string& program : programs) {
        SCOPED_TRACE(exampleName(program));
        auto r = runCli({"run", program});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        std::string golden = sourcePath("tests/golden/examples/" + exampleName(program) + ".out");
        EXPECT_EQ(r.out, readFile(golden));
    }
}

// Every compiled function of every example through generated C++ (--backend inductor
// overrides the examples' own backend="eager"): the same output as eager, and no graph
// falling back.
TEST(Examples, EachMatchesItsGoldenOutputWithEveryGraphCompiledByInductor) {
    for (const std::string& program : examplePrograms()) {
        SCOPED_TRACE(exampleName(program));
        auto r = runCli({"run", program, "--backend", "inductor"});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        EXPECT_EQ(r.out, readFile(sourcePath("tests/golden/examples/" + exampleName(program) + ".out")));
        EXPECT_EQ(r.err.find("cannot lower"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("WON'T CONVERT"), std::string::npos) << r.err;
    }
}
