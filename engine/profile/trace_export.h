#pragma once
// The two trace files users take elsewhere, written from recorded TraceRecords as JSON text
// (streamed: a long trace never stands whole as a JSON tree):
// PyTorch's execution-trace JSON (what ExecutionTraceObserver writes) and Chrome-trace JSON
// (loads in Perfetto and chrome://tracing). Node rf_ids in the one equal the
// "Record function id"s in the other.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "profile/trace_record.h"

namespace fusescope {

// Execution trace: schema, pid, time, start_ts, nodes (root process node id 1, one thread
// node per thread, then the records in begin order with ctrl_deps naming their parent),
// finish_ts. startNs/finishNs bound the recording window (steady clock).
std::string executionTraceText(const std::vector<TraceRecord>& records, int64_t startNs, int64_t finishNs);

// Chrome trace: traceEvents with "X" events per record, "M" process/thread names, and flow
// events from each compiled call to its kernels.
std::string chromeTraceText(const std::vector<TraceRecord>& records);

}  // namespace fusescope
