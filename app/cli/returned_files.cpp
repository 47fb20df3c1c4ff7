#include "returned_files.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/base64.h"
#include "core/error.h"

namespace fusescope::cli {

namespace fs = std::filesystem;

ReturnedFiles::ReturnedFiles() {
    std::string pattern = (fs::temp_directory_path() / "fusescope-returned-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw Error(fmt::format("cannot make a folder for the files to return in {}", fs::temp_directory_path().string()));
    folder_ = pattern;
}

ReturnedFiles::~ReturnedFiles() {
    std::error_code ec;
    fs::remove_all(folder_, ec);
}

std::string ReturnedFiles::redirect(const std::string& clientPath, const std::string& name) {
    fs::path here = folder_ / name;
    redirected_.emplace_back(clientPath, here);
    return here.string();
}

nlohmann::json ReturnedFiles::collect() const {
    auto entry = [](const std::string& path, const fs::path& file) {
        std::ifstream in(file, std::ios::binary);
        std::ostringstream bytes;
        bytes << in.rdbuf();
        return nlohmann::json{{"path", path}, {"base64", base64Encode(bytes.str())}};
    };
    nlohmann::json files = nlohmann::json::array();
    std::error_code ec;
    for (const auto& [clientPath, here] : redirected_) {
        if (fs::is_regular_file(here, ec)) {
            files.push_back(entry(clientPath, here));
        } else if (fs::is_directory(here, ec)) {
            std::vector<fs::path> inside;
            for (const auto& e : fs::recursive_directory_iterator(here, ec))
                if (e.is_regular_file(ec)) inside.push_back(e.path());
            std::sort(inside.begin(), inside.end());
            for (const fs::path& file : inside) files.push_back(entry((fs::path(clientPath) / file.lexically_relative(here)).string(), file));
        }
    }
    return files;
}

}  // namespace fusescope::cli
