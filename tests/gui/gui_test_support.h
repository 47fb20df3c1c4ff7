#pragma once
// Helpers of the GUI test suites: recorded event fixtures (tests/gui/fixtures/*.jsonl,
// written by `fusescope-cli run --events`) and paths of the source tree and the CLI.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fusescope::gui::test {

// The events of fixture `name` (e.g. "seed000_inductor"), one JSON object per line.
std::vector<nlohmann::json> loadFixture(const std::string& name);
std::string sourcePath(const std::string& relative);
std::string cliPath();

}  // namespace fusescope::gui::test
