// extractBundle (bundle_reader.h): validate everything, stage inside the target, move into place.

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <set>

#include <fmt/format.h>

#include "bundle/bundle_reader.h"
#include "core/error.h"

namespace fusescope {

namespace fs = std::filesystem;

namespace {

std::string topName(const std::string& entry) { return entry.substr(0, entry.find('/')); }

void writeFile(const fs::path& path, const std::string& bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) throw Error(fmt::format("cannot write '{}'", path.string()));
}

}  // namespace

void extractBundle(const std::string& path, const std::string& dir, const BundleLimits& limits) {
    Bundle bundle = readBundle(path, limits);
    fs::path root = fs::absolute(dir);
    std::set<std::string> tops;
    for (const auto& [name, bytes] : bundle.files) tops.insert(topName(name));
    std::error_code ec;
    for (const auto& top : tops)
        if (fs::exists(fs::symlink_status(root / top, ec)))
            throw Error(fmt::format("'{}' already exists; extract into an empty or new folder", (root / top).string()));
    fs::create_directories(root, ec);
    if (ec) throw Error(fmt::format("cannot create '{}': {}", root.string(), ec.message()));

    // A fresh staging folder of our own: nothing in it (a planted symlink) can redirect a write.
    std::string pattern = (root / ".fscope-extract-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw Error(fmt::format("cannot create a folder in '{}'", root.string()));
    fs::path staging = pattern;
    try {
        for (const auto& [name, bytes] : bundle.files) writeFile(staging / name, bytes);
        for (const auto& top : tops) fs::rename(staging / top, root / top);
        fs::remove(staging);
    } catch (const std::exception& e) {
        fs::remove_all(staging, ec);
        throw Error(fmt::format("cannot extract into '{}': {}", root.string(), e.what()));
    }
}

}  // namespace fusescope
