// Programs whose expected stdout real Python / real PyTorch produced
// (tests/scripts/reference/regenerate.py): Fusescope must print exactly the same, and a
// program that compiles must break the graph at the lines real PyTorch's log names and
// recompile with the reasons its recompiles log gives, with the guards its guards log shows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace fs = std::filesystem;
using namespace fusescope::test;

namespace {

fs::path referenceDir() { return sourcePath("tests/scripts/reference"); }

// Every .py file is a program, except in a folder holding main.py: that is a program of
// several files, main.py the one run (as regenerate.py has it).
bool isProgram(const fs::path& file) {
    if (file.extension() != ".py" || file.filename() == "regenerate.py") return false;
    for (fs::path dir = file.parent_path(); dir != referenceDir() && dir.has_relative_path(); dir = dir.parent_path())
        if (fs::exists(dir / "main.py")) return file == dir / "main.py";
    return true;
}

std::vector<std::string> referencePrograms() {
    std::vector<std::string> programs;
    std::error_code ec;
    for (const auto& entry : fs::recursive_directory_iterator(referenceDir(), ec))
        if (isProgram(entry.path())) programs.push_back(fs::relative(entry.path(), referenceDir()).string());
    std::sort(programs.begin(), programs.end());
    return programs;
}

class ReferenceProgram : public testing::TestWithParam<std::string> {};

size_t eventsOfType(const std::string& eventsFile, const std::string& type) {
    std::istringstream lines(readFile(eventsFile));
    size_t count = 0;
    for (std::string line; std::getline(lines, line);) count += line.find("\"type\":\"" + type + "\"") != std::string::npos;
    return count;
}

// The lines of `program` that a run's graph_breaks log reports a break at, one
// "NAME.py:LINE" line each, in order: what NAME.breaks holds for real PyTorch's log.
std::string breakLines(const std::string& log, const std::string& program) {
    std::set<int> lines;
    const std::regex at("Graph break in user code at (?:[^\\s]*/)?([^/\\s]+):([0-9]+)");
    for (std::sregex_iterator m(log.begin(), log.end(), at), end; m != end; ++m)
        if ((*m)[1] == program) lines.insert(std::stoi((*m)[2]));
    std::string out;
    for (int line : lines) out += program + ":" + std::to_string(line) + "\n";
    return out;
}

// The programs whose log still differs from PyTorch's (NAME_differ.txt: recompiles_differ.txt,
// graph_breaks_differ.txt, guards_differ.txt), each with why.
std::set<std::string> logsDiffer(const std::string& artifact) {
    std::set<std::string> programs;
    std::istringstream lines(readFile((referenceDir() / (artifact + "_differ.txt")).string()));
    for (std::string line; std::getline(lines, line);)
        if (!line.empty() && line[0] != '#') programs.insert(line.substr(0, line.find(':')));
    return programs;
}

// Model programs (models/) and the regressions of compiled code (compiled/: each a wrong
// result found against PyTorch once) print the same under every backend: compiled code must
// not change what a program computes. Training programs that compile (autograd/ with torch.compile)
// print the same under both backends that go through AOT Autograd (a loss's grad_fn is
// eager's under `eager`). Each compiles something: under inductor, its fusion decisions and generated code
// are in the event stream.
TEST_P(ReferenceProgram, PrintsWhatRealPythonPrinted) {
    fs::path program = referenceDir() / GetParam();
    fs::path expected = fs::path(program).replace_extension(".out");
    ASSERT_TRUE(fs::exists(expected)) << "no expected output: run tests/scripts/reference/regenerate.py";
    std::vector<std::string> backends = {""};
    const bool everyBackend = GetParam().rfind("models/", 0) == 0 || GetParam().rfind("compiled/", 0) == 0;
    if (everyBackend) backends = {"eager", "aot_eager", "inductor"};
    if (GetParam().rfind("autograd/", 0) == 0 && readFile(program.string()).find("torch.compile") != std::string::npos)
        backends = {"aot_eager", "inductor"};
    // A program that compiles breaks the graph at the lines PyTorch's Dynamo breaks it, and
    // recompiles saying what PyTorch 2.15 says. Its logs are PyTorch's as written: a backend
    // given on the command line makes its own guards (Inductor's on the sizes it sums over).
    fs::path breaks = fs::path(program).replace_extension(".breaks");
    if (fs::exists(breaks) && std::find(backends.begin(), backends.end(), "") == backends.end()) backends.push_back("");
    for (const std::string& backend : backends) {
        SCOPED_TRACE(backend.empty() ? "as written" : "--backend " + backend);
        std::vector<std::string> args = {"run", program.string()};
        if (!backend.empty()) args.insert(args.end(), {"--backend", backend});
        if (fs::exists(breaks)) args.insert(args.end(), {"--logs", "graph_breaks,recompiles,guards"});
        const std::string events = writeTempFile("events.jsonl", "");
        if (backend == "inductor") args.insert(args.end(), {"--events", events});
        auto run = runCli(args);
        EXPECT_EQ(run.exitCode, 0) << run.err;
        EXPECT_EQ(run.out, readFile(expected.string()));
        if (fs::exists(breaks)) {
            EXPECT_EQ(breakLines(run.err, program.filename().string()), readFile(breaks.string()));
            for (const std::string artifact : {"graph_breaks", "recompiles", "guards"}) {
                if (!backend.empty()) break;
                SCOPED_TRACE(artifact);
                fs::path log = fs::path(program).replace_extension("." + artifact);
                const std::string theirs = fs::exists(log) ? readFile(log.string()) : "";
                if (logsDiffer(artifact).count(GetParam())) EXPECT_NE(logText(run.err, artifact), theirs) << "now equal: leave " << artifact << "_differ.txt";
                else EXPECT_EQ(logText(run.err, artifact), theirs);
            }
        }
        // Inductor compiled each graph (a program whose graph breaks leave it none, as Dynamo
        // runs nn.Transformer's whole forward eagerly after the break inside it, has no kernel).
        if (backend != "inductor" || eventsOfType(events, "graph_captured") == 0) continue;
        EXPECT_GE(eventsOfType(events, "kernel_source"), 1u) << run.err;
        if (GetParam().rfind("compiled/", 0) != 0) {  // a regression may be one kernel, with nothing to fuse
            EXPECT_GE(eventsOfType(events, "fusion_decision"), 1u) << run.err;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Reference, ReferenceProgram, testing::ValuesIn(referencePrograms()),
                         [](const testing::TestParamInfo<std::string>& info) {
                             std::string name;
                             for (char c : info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                             return name;
                         });

TEST(ReferencePrograms, CoverPythonAndTorchNn) { EXPECT_GE(referencePrograms().size(), 10u); }

}  // namespace
