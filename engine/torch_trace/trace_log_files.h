#pragma once
// Where a TORCH_TRACE log is: PyTorch writes one file per process into the folder named by
// TORCH_TRACE, `dedicated_log_torch_trace_XXXX.log`, with `rank_N_` before the random part
// under distributed training. A user names the folder or one file.

#include <optional>
#include <string>
#include <vector>

#include "torch_trace/trace_log_import.h"

namespace fusescope {

struct TraceLogChoice {
    std::string path;                 // the log to read; empty when none fits (then `error`)
    std::vector<std::string> others;  // the folder's other logs, which were not chosen
    std::string error;
};

// `path` itself when it is a file; in a folder, the log of `rank` (an error when it has
// none), else the only log, else rank 0's, else the newest.
TraceLogChoice chooseTraceLog(const std::string& path, std::optional<int> rank);

// The rank in a log's file name, when it has one.
std::optional<int> traceLogRank(const std::string& fileName);

// Reads and imports one log file; throws Error when it cannot be opened.
TorchTraceImport loadTraceLog(const std::string& path);

// The per-rank logs of a distributed run's folder, by rank (when a rank has several, from
// runs into the same folder, its newest, the others in `left`); `error` when it has none.
struct RankedTraceLogs {
    std::vector<std::pair<int, std::string>> logs;  // rank, path
    std::vector<std::string> left;
    std::string error;
};
RankedTraceLogs rankedTraceLogs(const std::string& folder);

}  // namespace fusescope
