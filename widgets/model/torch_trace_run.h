#pragma once
// A TORCH_TRACE log real PyTorch wrote, as a run the panes show (docs/torch-trace.md): its
// events, and the program its compiles came from when that file is on this machine. A folder
// of a distributed run shows one rank's log at a time, with all its ranks compared.

#include <memory>
#include <string>
#include <vector>

#include "model/run_events.h"
#include "torch_trace/rank_comparison.h"
#include "torch_trace/trace_log_follower.h"

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
    std::optional<int> rank;            // the rank of the log on show, when its name has one
    // A folder with logs of several ranks: all of them side by side (null otherwise, and when
    // only one rank was read, by loadTorchTraceRank).
    std::shared_ptr<const RankComparison> ranks;
    // Goes on reading the log as its program writes it (docs/torch-trace.md, "Live runs").
    std::shared_ptr<TraceLogFollower> follower;
};

// The run of what `follower` has read so far of its log.
TorchTraceRun torchTraceRunOf(const TraceLogFollower& follower);

// `path`: a TORCH_TRACE folder or one log, read as far as its records are whole (a program may
// still be writing it: `follower` reads on). Throws Error when it holds no log or cannot be
// read. A folder of several ranks' logs shows rank 0's (else the lowest), all ranks compared.
TorchTraceRun loadTorchTraceRun(const std::string& path);

// One rank's log of a distributed run's folder, for switching between ranks.
TorchTraceRun loadTorchTraceRank(const std::string& folder, int rank);

// Whether `path` looks like something loadTorchTraceRun reads: a folder, or a file named
// dedicated_log_torch_trace_*.log.
bool isTorchTracePath(const std::string& path);

}  // namespace fusescope::gui
