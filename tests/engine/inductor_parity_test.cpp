// Op-coverage parity for the inductor backend: every script in tests/scripts/inductor
// computes `expected = fn(*inputs)` eagerly and `actual = torch.compile(fn)(*inputs)`,
// and prints one line per output, starting with "True" when the compiled output matches
// the eager one (torch.allclose / torch.equal). Each script also prints True for every
// line under real PyTorch. Besides the printed verdicts, the test checks that inductor
// really compiled code for the script instead of quietly falling back to eager.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace fs = std::filesystem;
using namespace fusescope;
using namespace fusescope::test;

namespace {

std::vector<std::string> inductorScripts() {
    std::vector<std::string> scripts;
    fs::path dir = sourcePath("tests/scripts/inductor");
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return scripts;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.is_regular_file() && entry.path().extension() == ".py") scripts.push_back(entry.path().filename().string());
    std::sort(scripts.begin(), scripts.end());
    return scripts;
}

std::string testNameFor(const std::string& fileName) {
    std::string stem = fs::path(fileName).stem().string();
    std::string name;
    for (char c : stem) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return name.empty() ? std::string("unnamed") : name;
}

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    while (!lines.empty() && lines.back().empty()) lines.pop_back();
    return lines;
}

class EachScript : public testing::TestWithParam<std::string> {};

TEST_P(EachScript, MatchesEager) {
    const std::string fileName = GetParam();
    const std::string source = readFile(sourcePath("tests/scripts/inductor/" + fileName));
    ScriptRun run = runScript(source, "", fileName);

    EXPECT_EQ(run.error, "") << "script error in " << fileName << "\nprinted:\n" << run.out << "\nlogs:\n" << run.logs;

    std::vector<std::string> lines = linesOf(run.out);
    EXPECT_FALSE(lines.empty()) << fileName << " printed nothing";
    for (size_t i = 0; i < lines.size(); ++i)
        EXPECT_TRUE(lines[i].rfind("True ", 0) == 0)
            << fileName << " output line " << i + 1 << " (output " << i << " of fn): compiled differs from eager:\n  "
            << lines[i] << "\nlogs:\n" << run.logs;

    auto sources = run.eventsOf<KernelSourceEvent>();
    size_t compiled = std::count_if(sources.begin(), sources.end(), [](const KernelSourceEvent& k) { return k.error.empty(); });
    std::string compileErrors;
    for (const auto& k : sources)
        if (!k.error.empty()) compileErrors += "--- " + k.graph + ":\n" + k.error + "\n";
    EXPECT_GE(compiled, 1u) << fileName << ": inductor compiled no code (" << sources.size()
                            << " kernel_source events)\n"
                            << compileErrors << "logs:\n" << run.logs;

    for (const auto& log : run.eventsOf<LogEvent>()) {
        bool fellBack = log.message.find("cannot lower") != std::string::npos ||
                        log.message.find("WON'T CONVERT") != std::string::npos;
        EXPECT_FALSE(fellBack) << fileName << ": inductor fell back to eager:\n" << log.formatted();
    }
}

INSTANTIATE_TEST_SUITE_P(InductorParity, EachScript, testing::ValuesIn(inductorScripts()),
                         [](const testing::TestParamInfo<std::string>& info) { return testNameFor(info.param); });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(EachScript);

TEST(InductorParity, HasAtLeastThirtyScripts) {
    EXPECT_GE(inductorScripts().size(), 30u);
}

}  // namespace
