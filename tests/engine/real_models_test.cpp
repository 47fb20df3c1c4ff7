// Public model code nobody here wrote (tests/real_models/: one folder per model, its files
// verbatim beside a driver main.py of ours): Fusescope must print exactly what real PyTorch
// printed (tests/real_models/regenerate.py), eagerly, compiled and in compiled training.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "test_support.h"

namespace fs = std::filesystem;
using namespace fusescope::test;

namespace {

fs::path corpusDir() { return sourcePath("tests/real_models"); }

std::vector<std::string> models() {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(corpusDir(), ec))
        if (fs::exists(entry.path() / "main.py")) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

class RealModel : public testing::TestWithParam<std::string> {};

TEST_P(RealModel, PrintsWhatPyTorchPrinted) {
    const fs::path folder = corpusDir() / GetParam();
    ASSERT_TRUE(fs::exists(folder / "main.out")) << "no expected output: run tests/real_models/regenerate.py";
    // Six models compiled for training with no kernel cache yet took 5 minutes on 2 cores, the
    // other core busy (tests/CMakeLists.txt gives this suite 5x the per-test timeout).
    auto run = runCli({"run", (folder / "main.py").string()}, {}, 540);
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(run.out, readFile((folder / "main.out").string()));
}

INSTANTIATE_TEST_SUITE_P(Corpus, RealModel, testing::ValuesIn(models()), [](const testing::TestParamInfo<std::string>& info) {
    std::string name;
    for (char c : info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return name;
});

}  // namespace
