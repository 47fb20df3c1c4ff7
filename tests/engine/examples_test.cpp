// Every bundled example runs cleanly and prints what its reviewed golden output says.
// (Each golden equals real PyTorch 2.15's stdout for the example, explain() reasons and
// guard_fail_fn's texts included.)
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>

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

// What each example logs of its graph breaks, recompiles and guards is what PyTorch 2.15 logs
// (tests/golden/examples/NAME.graph_breaks, NAME.recompiles and NAME.guards, written from real PyTorch
// by tests/scripts/reference/regenerate.py; no file: PyTorch logged none), except those
// logs_differ.txt lists with why, which must still differ.
TEST(Examples, LogGraphBreaksAndRecompilesInPyTorchsWords) {
    std::set<std::string> differ;
    std::istringstream listed(readFile(sourcePath("tests/golden/examples/logs_differ.txt")));
    for (std::string line; std::getline(listed, line);)
        if (!line.empty() && line[0] != '#') differ.insert(line.substr(0, line.find(':')));
    for (const std::string& program : examplePrograms()) {
        SCOPED_TRACE(exampleName(program));
        auto r = runCli({"run", program, "--logs", "graph_breaks,recompiles,guards"});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        for (const std::string artifact : {"graph_breaks", "recompiles", "guards"}) {
            SCOPED_TRACE(artifact);
            const std::string expected = sourcePath("tests/golden/examples/" + exampleName(program) + "." + artifact);
            const std::string theirs = std::filesystem::exists(expected) ? readFile(expected) : "";
            if (differ.count(exampleName(program) + "." + artifact)) EXPECT_NE(logText(r.err, artifact), theirs) << "now equal: leave logs_differ.txt";
            else EXPECT_EQ(logText(r.err, artifact), theirs);
        }
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
