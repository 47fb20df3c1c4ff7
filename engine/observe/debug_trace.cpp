#include "observe/debug_trace.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "observe/log_registry.h"

namespace fusescope {

void DebugTraceWriter::consume(const Event& event) {
    for (const auto& update : files_.consume(event))
        if (error_.empty()) write(update);
}

void DebugTraceWriter::write(const DebugTraceFiles::Update& update) {
    namespace fs = std::filesystem;
    fs::path folder = fs::absolute(fs::path(root_) / update.folder);
    std::error_code ec;
    fs::create_directories(folder, ec);
    std::string failure = ec ? ec.message() : "";
    for (auto it = update.files.begin(); failure.empty() && it != update.files.end(); ++it) {
        std::ofstream out(folder / it->first, std::ios::binary);
        out << it->second;
        out.close();
        if (!out) failure = fmt::format("{}: {}", it->first, std::strerror(errno ? errno : EIO));
    }
    if (!failure.empty()) {
        if (update.newFolder) fs::remove_all(folder, ec);  // no half-written folder is left behind
        error_ = fmt::format("cannot write the debug trace to {}: {}", folder.string(), failure);
        logger_.log("inductor", LogLevel::Warning, update.compileId, error_);
        return;
    }
    const fs::path shown = shownRoot_.empty() ? folder : fs::absolute(fs::path(shownRoot_) / update.folder);
    if (update.newFolder) logger_.log("inductor", LogLevel::Warning, update.compileId, "debug trace: " + shown.string());
}

}  // namespace fusescope
