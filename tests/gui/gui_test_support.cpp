#include "gui_test_support.h"

#include <fstream>
#include <stdexcept>

namespace fusescope::gui::test {

std::string sourcePath(const std::string& relative) { return std::string(FUSESCOPE_SOURCE_DIR) + "/" + relative; }

std::string cliPath() { return FUSESCOPE_CLI; }

std::vector<nlohmann::json> loadFixture(const std::string& name) {
    std::string path = sourcePath("tests/gui/fixtures/" + name + ".jsonl");
    std::ifstream in(path);
    if (!in) throw std::runtime_error("missing fixture " + path);
    std::vector<nlohmann::json> events;
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) events.push_back(nlohmann::json::parse(line));
    return events;
}

}  // namespace fusescope::gui::test
