#pragma once
// One thing that ran, as the profiler records it: an eager op, a script annotation
// (record_function), a compiled-function call, a kernel or extern-kernel call inside it,
// or a compile phase. Records stream as `trace_event` events; the execution trace and the
// Chrome trace are both written from a list of them (trace_export.h).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace fusescope {

// The Chrome-trace category of a record, and how the execution trace classifies its node.
enum class TraceCategory { CpuOp, UserAnnotation, Kernel, Compile };
const char* traceCategoryName(TraceCategory category);  // "cpu_op", "user_annotation", ...
std::optional<TraceCategory> traceCategoryFromName(std::string_view name);  // nullopt when unknown

// Inputs or outputs of a node in the execution-trace form: parallel lists, one entry per
// argument. A tensor value is [tensor_id, storage_id, offset, numel, itemsize, "device"].
// The lists start null (no allocation for the many records without arguments) and become
// arrays on the first push_back; traceArgsToJson writes null as [].
struct TraceArgs {
    nlohmann::json values, shapes, types, strides;
    bool empty() const { return values.empty(); }
};
nlohmann::json traceArgsToJson(const TraceArgs& args);  // {values, shapes, types, strides}

struct TraceRecord {
    int64_t rfId = 0;      // record-function id: unique in the session, in begin order
    int64_t parentId = 0;  // rf_id of the enclosing record on the same thread; 0 at top level
    TraceCategory category = TraceCategory::CpuOp;
    std::string name;      // "aten::add", "## LOOP 0 ##", "Torch-Compiled Region: 0/0", "cpp_fused_add_0"
    int64_t beginNs = 0;   // steady clock
    int64_t endNs = 0;
    int64_t tid = 0;       // OS thread id
    int64_t seqId = -1;
    std::string opSchema;  // "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor" when known
    TraceArgs inputs, outputs;
    // Kernels: the backend ("cpp"/"cuda"), the generated source's file name, the compile id.
    std::string kernelBackend, kernelFile, compileId;
    // Links a compiled call to the kernels it launched (Chrome flow events); 0 when none.
    int64_t flowId = 0;
    // Kernels: the buffers the call computes (buf3), which tell apart calls of one name
    // (every extern_kernels.mm of a graph).
    std::vector<std::string> buffers;
};

// GPU kernels run on a track of their own: a negative tid, which no OS thread has, names
// the device ("GPU 0": its default stream, where Fusescope launches everything).
constexpr int64_t gpuTrackTid(int device) { return -1 - device; }
// The track's name: "GPU 0", or "thread 1234".
std::string traceTrackName(int64_t tid);

// As a trace_event event writes it: its fields are described once, with the events'
// (observe/event_fields.h), written by observe/event.cpp and read by observe/event_from_json.cpp
// (a field missing, or of another kind, keeps its default).
nlohmann::json traceRecordToJson(const TraceRecord& record);
TraceRecord traceRecordFromJson(const nlohmann::json& json);

}  // namespace fusescope
