#include "observe/debug_trace.h"

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "observe/log_registry.h"

namespace fusescope {

void DebugTraceWriter::consume(const Event& event) {
    for (const auto& update : files_.consume(event)) write(update);
}

void DebugTraceWriter::write(const DebugTraceFiles::Update& update) {
    namespace fs = std::filesystem;
    fs::path folder = fs::absolute(fs::path(root_) / update.folder);
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) {
        logger_.log("inductor", LogLevel::Warning, update.compileId,
                    fmt::format("cannot write the debug trace to {}: {}", folder.string(), ec.message()));
        return;
    }
    for (const auto& [file, text] : update.files) std::ofstream(folder / file, std::ios::binary) << text;
    if (update.newFolder) logger_.log("inductor", LogLevel::Warning, update.compileId, "debug trace: " + folder.string());
}

}  // namespace fusescope
