#pragma once
// The debug-trace directory (TORCH_COMPILE_DEBUG's analogue): writes the folders that
// DebugTraceFiles builds from the event stream under a root, as their files complete, and
// announces each new folder by one WARNING log line `debug trace: <folder>`.

#include <string>

#include "observe/debug_trace_files.h"
#include "observe/event.h"

namespace fusescope {

class Logger;

class DebugTraceWriter {
public:
    DebugTraceWriter(std::string root, const Logger& logger) : root_(std::move(root)), logger_(logger) {}
    void consume(const Event& event);

private:
    void write(const DebugTraceFiles::Update& update);

    std::string root_;
    const Logger& logger_;
    DebugTraceFiles files_;
};

}  // namespace fusescope
