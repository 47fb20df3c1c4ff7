#pragma once
// The debug-trace directory (TORCH_COMPILE_DEBUG's analogue): writes the folders that
// DebugTraceFiles builds from the event stream under a root, as their files complete, and
// announces each new folder by one WARNING log line `debug trace: <folder>`; a failure to
// write is one WARNING line too, and error() keeps it for the caller's exit status.

#include <string>

#include "observe/debug_trace_files.h"
#include "observe/event.h"

namespace fusescope {

class Logger;

class DebugTraceWriter {
public:
    // `shownRoot`: the root as the log lines name it, when the folder is written elsewhere and
    // moved there later (a remote engine's, sent back to its client); default `root`.
    DebugTraceWriter(std::string root, const Logger& logger, std::string shownRoot = "")
        : root_(std::move(root)), shownRoot_(std::move(shownRoot)), logger_(logger) {}
    void consume(const Event& event);

    // Why the trace could not be written ("" while all is well). After the first failure
    // nothing more is written, and a folder left half-written is removed.
    const std::string& error() const { return error_; }

private:
    void write(const DebugTraceFiles::Update& update);

    std::string root_;
    std::string shownRoot_;
    std::string error_;
    const Logger& logger_;
    DebugTraceFiles files_;
};

}  // namespace fusescope
