#include "observe/event_schema.h"

#include <unordered_map>
#include <utility>

#include <fmt/format.h>

namespace fusescope {

namespace {

constexpr unsigned kNumber = kJsonInteger | kJsonFloat;

const char* kindName(unsigned kinds) {
    if (kinds == kNumber) return "a number";
    switch (kinds) {
        case kJsonNull: return "null";
        case kJsonBool: return "a boolean";
        case kJsonInteger: return "an integer";
        case kJsonFloat: return "a number";
        case kJsonString: return "a string";
        case kJsonArray: return "an array";
        case kJsonObject: return "an object";
        case kJsonString | kJsonObject: return "a string or an object";
    }
    return "another kind";
}

std::string problem(std::string_view field, unsigned expected, JsonKind actual) {
    if (!expected || (expected & actual)) return "";
    return fmt::format("field \"{}\" is {}, expected {}", field, kindName(actual), kindName(expected));
}

}  // namespace

unsigned expectedJsonKinds(std::string_view field) {
    // Looked up for every field of every line of a large events.jsonl: hashed.
    static const std::unordered_map<std::string_view, unsigned> fields = {
        // every event ("type" is the reader's first check: isEvent)
        {"compile_id", kJsonString}, {"function", kJsonString}, {"where", kJsonObject},
        {"where.file", kJsonString}, {"where.line", kJsonInteger}, {"where.column", kJsonInteger},
        {"message", kJsonString}, {"name", kJsonString}, {"text", kJsonString}, {"kind", kJsonString},
        {"reason", kJsonString}, {"error", kJsonString}, {"level", kJsonString}, {"artifact", kJsonBool},
        // graphs, guards, breaks
        {"graph", kJsonString | kJsonObject},  // a graph's name, or graph_captured's nodes
        {"graph_name", kJsonString}, {"readable", kJsonString}, {"runnable", kJsonString}, {"tabular", kJsonString},
        {"op_count", kJsonInteger}, {"break_reason", kJsonString}, {"guards", kJsonArray}, {"lines", kJsonArray},
        {"reasons", kJsonArray}, {"user_stack", kJsonArray}, {"limit", kJsonInteger}, {"last_reason", kJsonString},
        {"backend", kJsonString}, {"nodes", kJsonArray}, {"graph_json", kJsonObject}, {"gb_id", kJsonString},
        {"explanation", kJsonString}, {"hints", kJsonArray}, {"context", kJsonString},
        {"graph_before", kJsonString}, {"graph_after", kJsonString}, {"ops_before", kJsonInteger},
        {"ops_after", kJsonInteger}, {"calls", kJsonInteger}, {"python_seconds", kNumber},
        {"compile_seconds_before", kNumber}, {"compile_seconds_after", kNumber}, {"kernels_before", kJsonInteger},
        {"kernels_after", kJsonInteger}, {"kernels_joined", kJsonInteger}, {"fix_edit", kJsonObject},
        {"fix_edit.file", kJsonString}, {"fix_edit.line", kJsonInteger}, {"fix_edit.text", kJsonString},
        // fusion and code
        {"step", kJsonInteger}, {"node1", kJsonString}, {"node2", kJsonString}, {"score", kNumber},
        {"fused", kJsonBool}, {"result", kJsonString}, {"language", kJsonString}, {"source", kJsonString},
        {"kernels", kJsonArray}, {"buffer_lines", kJsonObject}, {"buffer_kernels", kJsonObject},
        {"artifacts", kJsonObject}, {"arch", kJsonString}, {"from_cache", kJsonBool}, {"compile_seconds", kNumber},
        // kernel_source's artifacts as events written before the artifacts map carried them
        {"llvm_ir", kJsonString}, {"assembly", kJsonString}, {"ptx", kJsonString}, {"sass", kJsonString},
        // trace spans
        {"rf_id", kJsonInteger}, {"parent", kJsonInteger}, {"cat", kJsonString}, {"begin_ns", kJsonInteger},
        {"end_ns", kJsonInteger}, {"tid", kJsonInteger}, {"seq_id", kJsonInteger}, {"inputs", kJsonObject},
        {"outputs", kJsonObject}, {"op_schema", kJsonString}, {"kernel_backend", kJsonString},
        {"kernel_file", kJsonString}, {"flow_id", kJsonInteger}, {"buffers", kJsonArray},
    };
    auto it = fields.find(field);
    return it == fields.end() ? 0 : it->second;
}

namespace {

JsonKind jsonKindOf(const nlohmann::json& value) {
    switch (value.type()) {
        case nlohmann::json::value_t::boolean: return kJsonBool;
        case nlohmann::json::value_t::number_integer:
        case nlohmann::json::value_t::number_unsigned: return kJsonInteger;
        case nlohmann::json::value_t::number_float: return kJsonFloat;
        case nlohmann::json::value_t::string: return kJsonString;
        case nlohmann::json::value_t::array: return kJsonArray;
        case nlohmann::json::value_t::object: return kJsonObject;
        default: return kJsonNull;
    }
}

std::string fieldProblem(std::string_view field, JsonKind actual) {
    return problem(field, expectedJsonKinds(field), actual);
}

}  // namespace

std::string eventFieldProblem(const nlohmann::json& event) {
    for (const auto& [field, value] : event.items())
        if (std::string why = fieldProblem(field, jsonKindOf(value)); !why.empty()) return why;
    if (auto where = event.find("where"); where != event.end() && where->is_object())
        for (const auto& [field, value] : where->items())
            if (std::string why = fieldProblem("where." + field, jsonKindOf(value)); !why.empty()) return why;
    // Artifacts go by any name, each a text.
    if (auto artifacts = event.find("artifacts"); artifacts != event.end() && artifacts->is_object())
        for (const auto& [name, value] : artifacts->items())
            if (std::string why = problem("artifacts." + name, kJsonString, jsonKindOf(value)); !why.empty()) return why;
    return "";
}

}  // namespace fusescope
