#pragma once
// Helpers shared by the engine test executables.

#include <string>
#include <vector>

namespace fusescope::test {

struct ProcessResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

// Runs build/bin/fusescope-cli with args; env entries are "NAME=value" added to the
// environment of the child. stdin is /dev/null.
ProcessResult runCli(const std::vector<std::string>& args, const std::vector<std::string>& env = {});

// Writes text to a fresh file in a per-test temporary directory and returns its path.
std::string writeTempFile(const std::string& name, const std::string& text);
std::string readFile(const std::string& path);
// Path of a file in the source tree, e.g. sourcePath("resources/examples/x.py").
std::string sourcePath(const std::string& relative);

}  // namespace fusescope::test
