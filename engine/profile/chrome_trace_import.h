#pragma once
// Profiler traces real PyTorch writes, read back into trace records so the trace views show
// them as they show ours: a Chrome trace (torch.profiler's export_chrome_trace: "X" spans
// with their categories, threads and "Record function id"s; kernels linked to their launches
// by "correlation") and, merged into it, an execution trace (ExecutionTraceObserver's nodes,
// whose rf_id is the Chrome trace's record function id: op schema, input and output shapes).

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "profile/trace_record.h"

namespace fusescope {

bool isChromeTrace(const nlohmann::json& doc);      // an object with a "traceEvents" array
bool isExecutionTrace(const nlohmann::json& doc);   // an object with "schema" and a "nodes" array

// The spans of a Chrome trace, in begin order, each with its parent (the span containing it
// on its thread) and its rf_id; "M" metadata, instants and the profiler's own span are left out.
std::vector<TraceRecord> recordsFromChromeTrace(const nlohmann::json& doc);

// Fills in each record's op schema, inputs and outputs from the execution trace node with
// its rf_id; returns how many records it matched.
size_t mergeExecutionTrace(std::vector<TraceRecord>& records, const nlohmann::json& executionTrace);

}  // namespace fusescope
