#include "profile/chrome_trace_import.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/read_fields.h"

namespace fusescope {

namespace {

TraceCategory categoryOf(const std::string& cat) {
    if (cat == "cpu_op" || cat == "cuda_runtime" || cat == "cuda_driver" || cat == "operator") return TraceCategory::CpuOp;
    if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") return TraceCategory::Kernel;
    return TraceCategory::UserAnnotation;  // user_annotation, gpu_user_annotation, python_function, ...
}

}  // namespace

bool isChromeTrace(const nlohmann::json& doc) {
    return doc.is_object() && doc.contains("traceEvents") && doc["traceEvents"].is_array();
}

bool isExecutionTrace(const nlohmann::json& doc) {
    return doc.is_object() && doc.contains("schema") && doc.contains("nodes") && doc["nodes"].is_array();
}

std::vector<TraceRecord> recordsFromChromeTrace(const nlohmann::json& doc) {
    std::vector<TraceRecord> records;
    std::map<int64_t, int64_t> launchOf;  // correlation -> rf_id of the runtime call that launched it
    int64_t nextId = 1 << 30;             // for spans without a record function id
    if (!isChromeTrace(doc)) return records;
    for (const auto& e : doc["traceEvents"]) {
        if (!e.is_object() || stringField(e, "ph") != "X" || !e.contains("tid") || !e["tid"].is_number_integer()) continue;
        std::optional<int64_t> begin = nanosecondsOfMicros(jsonField(e, "ts"));
        if (!begin) continue;
        const nlohmann::json args = jsonField(e, "args");  // integerField reads a non-object as empty
        std::string cat = stringField(e, "cat");
        TraceRecord r;
        r.category = categoryOf(cat);
        r.name = stringField(e, "name");
        r.beginNs = *begin;
        r.endNs = r.beginNs + nanosecondsOfMicros(jsonField(e, "dur")).value_or(0);
        r.tid = e["tid"].get<int64_t>();
        if (r.category == TraceCategory::Kernel) r.tid = gpuTrackTid(static_cast<int>(integerField(args, "device", 0)));
        r.rfId = integerField(args, "Record function id", nextId++);
        if (r.name.starts_with("Torch-Compiled Region: ")) r.compileId = r.name.substr(23);
        int64_t correlation = integerField(args, "correlation", -1);
        if (correlation >= 0 && cat == "cuda_runtime") launchOf[correlation] = r.rfId;
        if (correlation >= 0 && r.category == TraceCategory::Kernel) r.flowId = -correlation;  // resolved below
        records.push_back(std::move(r));
    }
    for (auto& r : records)
        if (r.flowId < 0) {
            auto it = launchOf.find(-r.flowId);
            r.flowId = it == launchOf.end() ? 0 : it->second;
        }
    // Parents: the innermost span on the same thread that contains the span.
    std::stable_sort(records.begin(), records.end(), [](const TraceRecord& a, const TraceRecord& b) {
        return a.beginNs != b.beginNs ? a.beginNs < b.beginNs : a.endNs > b.endNs;
    });
    std::unordered_map<int64_t, std::vector<const TraceRecord*>> open;  // by thread
    for (auto& r : records) {
        auto& stack = open[r.tid];
        while (!stack.empty() && stack.back()->endNs < r.endNs) stack.pop_back();
        r.parentId = stack.empty() ? 0 : stack.back()->rfId;
        stack.push_back(&r);
    }
    return records;
}

size_t mergeExecutionTrace(std::vector<TraceRecord>& records, const nlohmann::json& executionTrace) {
    std::unordered_map<int64_t, const nlohmann::json*> byRfId;
    if (!isExecutionTrace(executionTrace)) return 0;
    for (const auto& node : executionTrace["nodes"])  // by reference: byRfId points into it
        if (node.is_object() && node.contains("attrs") && node["attrs"].is_array())
            for (const auto& attr : node["attrs"])
                if (attr.is_object() && stringField(attr, "name") == "rf_id" && attr.contains("value") && attr["value"].is_number_integer())
                    byRfId[attr["value"].get<int64_t>()] = &node;
    size_t matched = 0;
    for (auto& r : records) {
        auto it = byRfId.find(r.rfId);
        if (it == byRfId.end() || stringField(*it->second, "name") != r.name) continue;
        const nlohmann::json& node = *it->second;
        for (const auto& attr : node["attrs"])
            if (attr.is_object() && stringField(attr, "name") == "op_schema" && attr.contains("value") && attr["value"].is_string())
                r.opSchema = attr["value"].get<std::string>();
        for (auto [side, to] : {std::pair{"inputs", &r.inputs}, std::pair{"outputs", &r.outputs}}) {
            auto args = node.find(side);
            if (args == node.end() || !args->is_object()) continue;
            for (auto [key, into] : {std::pair{"values", &to->values}, std::pair{"shapes", &to->shapes},
                                     std::pair{"types", &to->types}, std::pair{"strides", &to->strides}})
                if (auto v = args->find(key); v != args->end() && v->is_array()) *into = *v;
        }
        ++matched;
    }
    return matched;
}

}  // namespace fusescope
