#include "bundle/bundle_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>

#include <fmt/format.h>

#include "bundle/zip_archive.h"
#include "core/error.h"

namespace fusescope {

namespace fs = std::filesystem;

namespace {

// Flushes a file (or folder) to disk so a crash after the rename cannot leave an empty
// bundle behind the final name.
void syncToDisk(const fs::path& path) {
    int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

}  // namespace

void writeBundle(const std::string& path, std::map<std::string, std::string> entries) {
    static std::atomic<int> counter{0};
    fs::path target = fs::absolute(path);
    // Renaming over a device node, a pipe or a folder would replace it with this file.
    std::error_code statusError;
    fs::file_status status = fs::status(target, statusError);
    if (fs::exists(status) && !fs::is_regular_file(status))
        throw Error(fmt::format("cannot write bundle '{}': not a regular file, and writing would replace it", path));
    // Same folder as the target: rename() is atomic only within one file system.
    fs::path temp = target.parent_path() / fmt::format(".{}.{}-{}.part", target.filename().string(), ::getpid(), counter++);
    try {
        ZipWriter zip(temp.string());
        for (auto& [name, data] : entries) zip.add(name, std::move(data));
        zip.close();
        syncToDisk(temp);
        std::error_code ec;
        fs::rename(temp, target, ec);
        if (ec) throw Error(ec.message());
        syncToDisk(target.parent_path());
    } catch (const Error& e) {
        std::error_code ignored;
        fs::remove(temp, ignored);
        throw Error(fmt::format("cannot write bundle '{}': {}", path, e.what()));
    }
}

}  // namespace fusescope
