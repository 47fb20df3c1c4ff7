#include "profile/trace_export.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>
#include <set>
#include <string>

#include "core/json_text.h"

namespace fusescope {

namespace {

// The JSON text of `top` whose array at `key` is given item by item: each item is written
// as it comes, so a trace of millions of records never stands whole as a JSON tree (about
// eight times its text).
class StreamedArray {
public:
    StreamedArray(const nlohmann::json& top, const std::string& key) {
        const std::string text = jsonText(top);
        const std::string empty = jsonText(nlohmann::json(key)) + ":[]";
        const size_t at = text.find(empty);
        head_ = text.substr(0, at + empty.size() - 1);
        tail_ = text.substr(at + empty.size() - 1);
    }
    void push_back(const nlohmann::json& item) {
        head_ += first_ ? "" : ",";
        head_ += jsonText(item);
        first_ = false;
    }
    std::string finish() { return std::move(head_) + tail_; }

private:
    std::string head_, tail_;
    bool first_ = true;
};

constexpr const char* kProcessNode = "[pytorch|profiler|execution_trace|process]";
constexpr const char* kThreadNode = "[pytorch|profiler|execution_trace|thread]";
constexpr int64_t kUserScope = 7;  // PyTorch's RecordScope::USER_SCOPE (record_function)

nlohmann::json attr(const char* name, const char* type, nlohmann::json value) {
    return {{"name", name}, {"type", type}, {"value", std::move(value)}};
}

// The attributes every node has, the process and thread nodes included (with rf_id 0).
nlohmann::json commonAttrs(int64_t rfId, int64_t seqId, int64_t scope, int64_t tid, const std::string& schema) {
    return nlohmann::json::array({attr("rf_id", "uint64", rfId), attr("fw_parent", "uint64", 0), attr("seq_id", "int64", seqId),
                                  attr("scope", "uint64", scope), attr("tid", "uint64", tid), attr("fw_tid", "uint64", 0),
                                  attr("op_schema", "string", schema)});
}

nlohmann::json node(int64_t id, const std::string& name, int64_t parent, const TraceArgs& inputs,
                    const TraceArgs& outputs, nlohmann::json attrs) {
    return {{"id", id},
            {"name", name},
            {"ctrl_deps", parent},
            {"inputs", traceArgsToJson(inputs)},
            {"outputs", traceArgsToJson(outputs)},
            {"attrs", std::move(attrs)}};
}

// Parents begin before their children (ties: the parent was opened first, so has the
// smaller rf_id); spans reported by hand get their rf_id when they end.
std::vector<TraceRecord> inBeginOrder(std::vector<TraceRecord> records) {
    std::sort(records.begin(), records.end(), [](const TraceRecord& a, const TraceRecord& b) {
        return a.beginNs != b.beginNs ? a.beginNs < b.beginNs : a.rfId < b.rfId;
    });
    return records;
}

std::string localTimeNow() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
    return buf;
}

double micros(int64_t ns) { return static_cast<double>(ns) / 1000.0; }

}  // namespace

std::string executionTraceText(const std::vector<TraceRecord>& unordered, int64_t startNs, int64_t finishNs) {
    std::vector<TraceRecord> records = inBeginOrder(unordered);
    StreamedArray nodes({{"schema", "1.1.1-chakra.0.0.4"},
                         {"pid", static_cast<int64_t>(::getpid())},
                         {"time", localTimeNow()},
                         {"start_ts", static_cast<int64_t>(micros(startNs))},
                         {"nodes", nlohmann::json::array()},
                         {"finish_ts", static_cast<int64_t>(micros(finishNs))}},
                        "nodes");
    nodes.push_back(node(1, kProcessNode, 0, {}, {}, commonAttrs(0, -1, kUserScope, 0, "")));

    // One thread node per thread, in order of first appearance.
    std::map<int64_t, int64_t> threadNode;
    int64_t nextId = 2;
    for (const TraceRecord& r : records)
        if (!threadNode.count(r.tid)) threadNode[r.tid] = -1;
    for (auto& [tid, id] : threadNode) {
        id = nextId++;
        nodes.push_back(node(id, kThreadNode, 1, {}, {}, commonAttrs(0, -1, kUserScope, tid, "")));
    }

    std::map<int64_t, int64_t> nodeOfRecord;  // rf_id -> node id
    for (const TraceRecord& r : records) {
        int64_t id = nextId++;
        nodeOfRecord[r.rfId] = id;
        auto parent = nodeOfRecord.find(r.parentId);
        // A record whose parent began before the window hangs off its thread node.
        int64_t ctrlDep = parent != nodeOfRecord.end() ? parent->second : threadNode[r.tid];
        nlohmann::json attrs =
            commonAttrs(r.rfId, r.seqId, r.category == TraceCategory::UserAnnotation ? kUserScope : 0, r.tid, r.opSchema);
        attrs.push_back(attr("category", "string", traceCategoryName(r.category)));
        if (r.category == TraceCategory::Kernel) {
            attrs.push_back(attr("kernel_backend", "string", r.kernelBackend));
            attrs.push_back(attr("kernel_file", "string", r.kernelFile));
        }
        if (!r.compileId.empty()) attrs.push_back(attr("compile_id", "string", r.compileId));
        nodes.push_back(node(id, r.name, ctrlDep, r.inputs, r.outputs, std::move(attrs)));
    }
    return nodes.finish();
}

std::string chromeTraceText(const std::vector<TraceRecord>& unordered) {
    std::vector<TraceRecord> records = inBeginOrder(unordered);
    const int64_t pid = ::getpid();
    StreamedArray events({{"schemaVersion", 1}, {"displayTimeUnit", "ms"}, {"traceEvents", nlohmann::json::array()}}, "traceEvents");
    events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", pid}, {"tid", 0}, {"args", {{"name", "fusescope"}}}});
    std::set<int64_t> threads;
    for (const TraceRecord& r : records) threads.insert(r.tid);
    for (int64_t tid : threads)
        events.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", pid}, {"tid", tid},
                          {"args", {{"name", traceTrackName(tid)}}}});

    std::map<int64_t, const TraceRecord*> byId;
    for (const TraceRecord& r : records) byId[r.rfId] = &r;
    for (const TraceRecord& r : records) {
        nlohmann::json args = {{"Record function id", r.rfId}, {"External id", r.rfId}};
        if (!r.inputs.empty()) {
            args["Input Dims"] = r.inputs.shapes;
            args["Input type"] = r.inputs.types;
        }
        if (!r.kernelFile.empty()) args["kernel_file"] = r.kernelFile;
        if (!r.kernelBackend.empty()) args["kernel_backend"] = r.kernelBackend;
        if (!r.compileId.empty()) args["compile_id"] = r.compileId;
        events.push_back({{"ph", "X"},
                          {"cat", traceCategoryName(r.category)},
                          {"name", r.name},
                          {"pid", pid},
                          {"tid", r.tid},
                          {"ts", micros(r.beginNs)},
                          {"dur", micros(r.endNs - r.beginNs)},
                          {"args", std::move(args)}});
        // A flow arrow from the compiled call that launched this kernel to the kernel.
        auto launcher = byId.find(r.flowId);
        if (r.flowId && launcher != byId.end()) {
            nlohmann::json common = {{"cat", "launch"}, {"name", "launch"}, {"id", r.rfId}, {"pid", pid}};
            nlohmann::json start = common, finish = common;
            start.update({{"ph", "s"}, {"tid", launcher->second->tid}, {"ts", micros(r.beginNs)}});
            finish.update({{"ph", "f"}, {"bp", "e"}, {"tid", r.tid}, {"ts", micros(r.beginNs)}});
            events.push_back(std::move(start));
            events.push_back(std::move(finish));
        }
    }
    return events.finish();
}

}  // namespace fusescope
