#include "profile/trace_record.h"

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

nlohmann::json traceArgsToJson(const TraceArgs& a) {
    auto list = [](const nlohmann::json& j) { return j.is_null() ? nlohmann::json::array() : j; };
    return {{"values", list(a.values)}, {"shapes", list(a.shapes)}, {"types", list(a.types)}, {"strides", list(a.strides)}};
}

std::string traceTrackName(int64_t tid) {
    return tid < 0 ? "GPU " + std::to_string(-1 - tid) : "thread " + std::to_string(tid);
}

}  // namespace fusescope
