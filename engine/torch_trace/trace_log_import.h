#pragma once
// A TORCH_TRACE log's records as the events our own engine emits (the second layer of
// reading real PyTorch's logs): each compile's start with its user stack, Dynamo's graph,
// graph breaks, recompile reasons, guards, the AOT and inductor graphs, the output code with
// its kernels, and the compile phases as trace spans. So the report, the bundle and the
// workbench's panes serve PyTorch's compiles as they serve ours.
//
// Compiles are keyed as PyTorch's compilation_metrics key them, frame_id/frame_compile_id
// (with "!N/" under compiled autograd): a restarted attempt ("0/0_1") belongs to its compile.

#include <istream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "observe/event.h"
#include "torch_trace/trace_log_records.h"

namespace fusescope {

// What PyTorch measured of one compile (compilation_metrics, bwd_compilation_metrics), the
// cache verdicts logged for it, and what the ranks of a distributed run are compared by
// (rank_comparison.h).
struct TorchCompileMetrics {
    nlohmann::json forward;   // compilation_metrics' fields, null when absent
    nlohmann::json backward;  // bwd_compilation_metrics'
    std::map<std::string, int> cacheVerdicts;  // artifact name (fx_graph_cache_miss, ...) -> count
    std::vector<std::string> recompileReasons;  // the guard failures that caused it
    std::vector<std::string> inputs;            // "L['x']: torch.float32, size [4, 8], stride [8, 1]", as described
    std::vector<std::string> collectives;       // inductor_collective_schedule's ops, in order, of all its graphs
};

struct TorchTraceImport {
    std::vector<Event> events;
    std::map<std::string, TorchCompileMetrics> metrics;  // by compile id
    std::map<std::string, int> unknownKinds;              // entry kinds this reader does not know, with counts
    std::map<std::string, int> kindCounts;                // every entry kind read, with counts
    std::vector<std::string> warnings;                    // the reader's and the importer's, "line N: ..."
    std::string torchVersion;                             // from the torch_version artifact, when logged
};

// Besides the events of the views, each compile's metrics and each tensor-description and
// symbolic-shape entry become log events (artifact compilation_metrics, describe_tensor, ...).
// One pass over the log, holding one record at a time.
TorchTraceImport importTraceLog(std::istream& in);

// What compilation_metrics and the cache verdicts say of one compile: "compiled in 1.544 s,
// guard_count 9, fx_graph_cache_miss x1", then a line for each restart and the failure.
std::string metricsText(const TorchCompileMetrics& m);

// The kernels of an inductor_output_code payload (PyTorch's Python wrapper): each
// `NAME = async_compile.<kind>(...)` definition with its 1-based, inclusive lines.
struct OutputCodeKernel {
    std::string name;      // cpp_fused_add_0, triton_poi_fused_add_0
    std::string language;  // cpp, triton, cuda
    int firstLine = 0;
    int lastLine = 0;
};
std::vector<OutputCodeKernel> outputCodeKernels(const std::string& wrapper);

// The compile report of `fusescope-cli torch-trace --report`: the one `run --report` prints
// from the events, then what PyTorch alone logs (restart and failure reasons, phase times,
// cache verdicts) and what the reader skipped.
std::string torchTraceReport(const TorchTraceImport& imported);

}  // namespace fusescope
