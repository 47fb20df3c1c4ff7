#include "core/json_text.h"
#include "torch_trace/trace_log_shapes.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace fusescope {

namespace {

// A field as PyTorch wrote it: strings bare, a list of strings joined by ", ", other lists as
// "[3, 4]", anything else as JSON; "?" when absent.
std::string field(const nlohmann::json& metadata, const char* key) {
    auto it = metadata.find(key);
    if (it == metadata.end() || it->is_null()) return "?";
    if (it->is_string()) return it->get<std::string>();
    if (!it->is_array()) return it->dump();
    std::vector<std::string> items;
    for (const auto& item : *it) items.push_back(item.is_string() ? item.get<std::string>() : jsonText(item));
    const bool names = !it->empty() && std::all_of(it->begin(), it->end(), [](const nlohmann::json& e) { return e.is_string(); });
    std::string joined = fmt::format("{}", fmt::join(items, ", "));
    return names ? joined : "[" + joined + "]";  // sizes as Python prints them: [3, 4]
}

bool flag(const nlohmann::json& metadata, const char* key) {
    auto it = metadata.find(key);
    return it != metadata.end() && it->is_boolean() && it->get<bool>();
}

std::string at(const StackFrame* where) {
    return where ? fmt::format(" ({}:{})", std::filesystem::path(where->file).filename().string(), where->line) : "";
}

}  // namespace

bool isShapeEntry(const std::string& kind) {
    static const std::set<std::string> kinds = {"describe_tensor", "describe_storage", "describe_source", "create_symbol",
                                                "create_unbacked_symbol", "guard_added", "guard_added_fast",
                                                "symbolic_shape_specialization"};
    return kinds.count(kind) > 0;
}

std::string tensorLayoutText(const nlohmann::json& m) {
    return fmt::format("{}, size {}, stride {}", field(m, "dtype"), field(m, "size"), field(m, "stride"));
}

std::string shapeEntryText(const std::string& kind, const nlohmann::json& m, const StackFrame* where) {
    if (!m.is_object()) return kind + ": " + jsonText(m);
    if (kind == "describe_tensor") {
        std::string text = fmt::format("tensor {}: {}, {}, storage {}", field(m, "id"), tensorLayoutText(m), field(m, "device"), field(m, "storage"));
        if (flag(m, "requires_grad")) text += ", requires_grad";
        if (flag(m, "is_leaf")) text += ", leaf";
        if (m.contains("base")) text += ", a view of tensor " + field(m, "base");
        return text;
    }
    if (kind == "describe_storage") return fmt::format("storage {}: {} bytes", field(m, "id"), field(m, "size"));
    if (kind == "describe_source") return fmt::format("tensor {} is {}", field(m, "id"), field(m, "source"));
    if (kind == "create_symbol")
        return fmt::format("symbol {} = {} for {}, range {}{}", field(m, "symbol"), field(m, "val"), field(m, "source"), field(m, "vr"), at(where));
    if (kind == "create_unbacked_symbol") return fmt::format("unbacked symbol {}, range {}{}", field(m, "symbol"), field(m, "vr"), at(where));
    if (kind == "guard_added" || kind == "guard_added_fast") return fmt::format("guard {}{}", field(m, "expr"), at(where));
    if (kind == "symbolic_shape_specialization")
        return fmt::format("specialized {} = {} ({}): {}{}", field(m, "symbol"), field(m, "value"), field(m, "sources"), field(m, "reason"), at(where));
    return kind + ": " + jsonText(m);
}

}  // namespace fusescope
