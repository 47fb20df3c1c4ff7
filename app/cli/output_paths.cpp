#include "output_paths.h"

#include <filesystem>

#include <fmt/format.h>

namespace fusescope {

namespace {

namespace fs = std::filesystem;

// Whether two paths name one file: the same inode when both exist, else the same absolute path.
bool sameFile(const std::string& a, const std::string& b) {
    std::error_code ec;
    if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
    return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
}

}  // namespace

std::optional<std::string> refusedOutput(const std::vector<OutputPath>& outputs, const std::vector<std::string>& inputs) {
    for (size_t i = 0; i < outputs.size(); ++i) {
        const OutputPath& out = outputs[i];
        if (out.path.empty()) continue;
        std::error_code ec;
        fs::file_status status = fs::status(out.path, ec);
        if (fs::is_directory(status) || (out.renamedIntoPlace && fs::exists(status) && !fs::is_regular_file(status)))
            return fmt::format("{} {}: not a regular file; give a file's path", out.option, out.path);
        for (const std::string& input : inputs)
            if (sameFile(out.path, input)) return fmt::format("{} {}: that is the input {}, which writing would destroy", out.option, out.path, input);
        for (size_t j = 0; j < i; ++j)
            if (!outputs[j].path.empty() && sameFile(out.path, outputs[j].path))
                return fmt::format("{} and {} name one file ({}): give each its own", outputs[j].option, out.option, out.path);
    }
    return std::nullopt;
}

}  // namespace fusescope
