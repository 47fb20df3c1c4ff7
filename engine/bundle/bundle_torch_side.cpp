#include "bundle/bundle_torch_side.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "bundle/bundle_format.h"
#include "core/error.h"
#include "torch_trace/trace_log_files.h"

namespace fusescope {

namespace fs = std::filesystem;

namespace {

// The entry a log is kept as: a folder's logs by their names; a log file opened by any
// name as one the TORCH_TRACE reader finds in a folder (dedicated_log_torch_trace_*.log).
std::string entryNameOf(const std::string& log) {
    std::string name = fs::path(log).filename().string();
    if (name.starts_with("dedicated_log_torch_trace_") && name.ends_with(".log")) return kTorchSideFolder + name;
    return kTorchSideFolder + ("dedicated_log_torch_trace_" + name + ".log");
}

std::string fileText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    if (!in || !(text << in.rdbuf())) throw Error(fmt::format("cannot read PyTorch's log '{}': {}", path, std::strerror(errno)));
    return text.str();
}

}  // namespace

void putTorchSide(std::map<std::string, std::string>& entries, const std::string& path) {
    TraceLogChoice choice = chooseTraceLog(path, std::nullopt);
    if (!choice.error.empty()) throw Error(choice.error);
    std::map<std::string, std::string> logs;
    choice.others.push_back(choice.path);  // every rank's log
    for (const std::string& log : choice.others) logs[entryNameOf(log)] = fileText(log);
    std::erase_if(entries, [](const auto& entry) { return entry.first.starts_with(kTorchSideFolder); });
    entries.merge(logs);
}

bool writeTorchSide(const std::map<std::string, std::string>& entries, const std::string& dir) {
    bool wrote = false;
    for (const auto& [name, bytes] : entries) {
        if (!name.starts_with(kTorchSideFolder)) continue;
        // A log keeps its file name only: nothing a bundle names can land outside dir.
        fs::path target = fs::path(dir) / fs::path(name).filename();
        std::error_code ec;
        fs::create_directories(dir, ec);
        std::ofstream out(target, std::ios::binary | std::ios::trunc);
        if (!out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())) || !out.flush())
            throw Error(fmt::format("cannot write PyTorch's log '{}': {}", target.string(), std::strerror(errno)));
        wrote = true;
    }
    return wrote;
}

}  // namespace fusescope
