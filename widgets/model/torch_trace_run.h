#pragma once
// A TORCH_TRACE log real PyTorch wrote, as a run the panes show (docs/torch-trace.md): its
// events, and the program its compiles came from when that file is on this machine.

#include <string>
#include <vector>

#include "model/run_events.h"

namespace fusescope::gui {

struct TorchTraceRun {
    RunEvents events;
    std::string logPath;      // the log read (a folder's log of rank 0, or its only one)
    std::string program;      // the compiled program's file as the log names it ("" when it names none)
    std::string programText;  // its text when that file exists here, else ""
    std::string torchVersion;
    size_t compiles = 0;
    std::string firstCompile;  // its id, "" when the log has none
    std::vector<std::string> warnings;  // "line N: ..."
};

// `path`: a TORCH_TRACE folder or one log. Throws Error when it holds no log or cannot be read.
TorchTraceRun loadTorchTraceRun(const std::string& path);

// Whether `path` looks like something loadTorchTraceRun reads: a folder, or a file named
// dedicated_log_torch_trace_*.log.
bool isTorchTracePath(const std::string& path);

}  // namespace fusescope::gui
