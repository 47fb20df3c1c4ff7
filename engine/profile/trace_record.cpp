#include "profile/trace_record.h"

#include <stdexcept>

namespace fusescope {

const char* traceCategoryName(TraceCategory category) {
    switch (category) {
        case TraceCategory::CpuOp: return "cpu_op";
        case TraceCategory::UserAnnotation: return "user_annotation";
        case TraceCategory::Kernel: return "kernel";
        case TraceCategory::Compile: return "compile";
    }
    return "cpu_op";
}

std::optional<TraceCategory> traceCategoryFromName(std::string_view name) {
    for (TraceCategory c : {TraceCategory::CpuOp, TraceCategory::UserAnnotation, TraceCategory::Kernel, TraceCategory::Compile})
        if (name == traceCategoryName(c)) return c;
    return std::nullopt;
}

namespace {

TraceCategory categoryFromName(const std::string& name) {
    if (auto c = traceCategoryFromName(name)) return *c;
    throw std::invalid_argument("unknown trace category '" + name + "'");
}

TraceArgs argsFromJson(const nlohmann::json& j) {
    TraceArgs a;
    a.values = j.at("values");
    a.shapes = j.at("shapes");
    a.types = j.at("types");
    a.strides = j.at("strides");
    return a;
}

}  // namespace

nlohmann::json traceArgsToJson(const TraceArgs& a) {
    auto list = [](const nlohmann::json& j) { return j.is_null() ? nlohmann::json::array() : j; };
    return {{"values", list(a.values)}, {"shapes", list(a.shapes)}, {"types", list(a.types)}, {"strides", list(a.strides)}};
}

std::string traceTrackName(int64_t tid) {
    return tid < 0 ? "GPU " + std::to_string(-1 - tid) : "thread " + std::to_string(tid);
}

TraceRecord traceRecordFromJson(const nlohmann::json& j) {
    TraceRecord r;
    r.rfId = j.at("rf_id").get<int64_t>();
    r.parentId = j.at("parent").get<int64_t>();
    r.category = categoryFromName(j.at("cat").get<std::string>());
    r.name = j.at("name").get<std::string>();
    r.beginNs = j.at("begin_ns").get<int64_t>();
    r.endNs = j.at("end_ns").get<int64_t>();
    r.tid = j.at("tid").get<int64_t>();
    r.seqId = j.value("seq_id", int64_t{-1});
    r.inputs = argsFromJson(j.at("inputs"));
    r.outputs = argsFromJson(j.at("outputs"));
    r.opSchema = j.value("op_schema", "");
    r.kernelBackend = j.value("kernel_backend", "");
    r.kernelFile = j.value("kernel_file", "");
    r.compileId = j.value("compile_id", "");
    r.flowId = j.value("flow_id", int64_t{0});
    if (j.contains("buffers")) r.buffers = j.at("buffers").get<std::vector<std::string>>();
    return r;
}

}  // namespace fusescope
