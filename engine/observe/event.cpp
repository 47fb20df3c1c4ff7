#include "observe/event.h"

#include <unordered_map>

#include <fmt/format.h>

#include "observe/event_fields.h"

namespace fusescope {

using nlohmann::json;

std::string StackFrame::str() const {
    return fmt::format("File \"{}\", line {}, in {}", file, line, function);
}

std::string LogEvent::formatted() const {
    std::string prefix = compileId.empty() ? "" : "[" + compileId + "] ";
    prefix += isArtifact ? "[__" + name + "] " : "[" + name + "] ";
    if (level == LogLevel::Warning) prefix += "WARNING: ";
    if (level == LogLevel::Error) prefix += "ERROR: ";
    return prefix + message;
}

namespace {

// The writer: each field described, as nlohmann writes its C++ type, but for what the
// description says otherwise (a nested struct, an enum's name, a wrapper's field).
class JsonWriter {
public:
    explicit JsonWriter(json& out) : out_(out) {}

    template <class T>
    void field(const char* name, const T& value, bool written = true) {
        if constexpr (!requires { T::readOnly; })
            if (written) out_[name] = toJson(value);
    }

    template <class T>
    static json toJson(const T& value) {
        if constexpr (DescribedStruct<T>) {
            json out = json::object();
            JsonWriter writer(out);
            describeFields(writer, value);
            return out;
        } else if constexpr (DescribedList<T>) {
            json out = json::array();
            for (const auto& element : value) out.push_back(toJson(element));
            return out;
        } else if constexpr (std::is_enum_v<T>) {
            return enumName(value);
        } else if constexpr (std::same_as<T, TraceArgs>) {
            return traceArgsToJson(value);
        } else if constexpr (requires { value.texts; }) {  // NonEmptyTexts
            return value.texts;
        } else if constexpr (requires { value.lines; }) {  // LinesPer
            return value.lines;
        } else if constexpr (requires { value.number; }) {  // AnyNumber
            return value.number;
        } else {
            return value;
        }
    }

private:
    json& out_;
};

constexpr std::string_view kIrDumpStages[] = {
    "fx_graph_transformed", "ir_pre_fusion", "ir_post_fusion",  // our inductor's
    "aot_joint_graph", "aot_forward_graph", "aot_backward_graph", "aot_inference_graph", "inductor_pre_grad_graph",
    "inductor_post_grad_graph", "compiled_autograd_graph", "fx_graph_runnable"};  // real PyTorch's

}  // namespace

bool isIrDumpStage(std::string_view type) {
    for (std::string_view stage : kIrDumpStages)
        if (type == stage) return true;
    return false;
}

std::optional<size_t> eventIndexOf(std::string_view type) {
    // Looked up for every line of a large events.jsonl: hashed.
    static const std::unordered_map<std::string_view, size_t> indices = [] {
        std::unordered_map<std::string_view, size_t> out;
        for (size_t i = 0; i < std::variant_size_v<Event>; ++i)
            withEventAlternative(i, [&]<class E>(std::type_identity<E>) {
                if constexpr (std::same_as<E, IrDumpEvent>)
                    for (std::string_view stage : kIrDumpStages) out.emplace(stage, i);
                else out.emplace(kEventTypeName<E>, i);
            });
        return out;
    }();
    auto it = indices.find(type);
    return it == indices.end() ? std::nullopt : std::optional<size_t>(it->second);
}

std::string eventType(const Event& event) {
    return std::visit(
        []<class E>(const E& e) {
            if constexpr (std::same_as<E, IrDumpEvent>) return e.stage;
            else return std::string(kEventTypeName<E>);
        },
        event);
}

json eventToJson(const Event& event) {
    json j = std::visit([](const auto& e) { return JsonWriter::toJson(e); }, event);
    j["type"] = eventType(event);
    return j;
}

json traceRecordToJson(const TraceRecord& record) { return JsonWriter::toJson(record); }

}  // namespace fusescope
