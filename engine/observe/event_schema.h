#pragma once
// The JSON kinds each field of each event may have, as eventToJson and traceRecordToJson
// write them: taken from the events' descriptions (event_fields.h), so per event type (a
// graph_captured's "graph" is an object, any other event's a name). Events read from
// elsewhere (a bundle, a stream) are checked once, where they are read, so every consumer
// may then take a field of the expected kind without checking (or throwing through Qt's
// event loop). `bundle inspect` and the GUI refuse the same events with the same words.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace fusescope {

enum JsonKind : unsigned {
    kJsonNull = 1u << 0,
    kJsonBool = 1u << 1,
    kJsonInteger = 1u << 2,
    kJsonFloat = 1u << 3,
    kJsonString = 1u << 4,
    kJsonArray = 1u << 5,
    kJsonObject = 1u << 6,
    // What expectedJsonKinds gives for a field whose kind depends on the event type: no
    // value has it, so a check by name alone sends every such field to eventFieldProblem.
    kJsonKindPerEventType = 1u << 7,
};

// For a reader that checks fields by name before it knows the event's type (the GUI's
// events.jsonl reader): the kinds the field has in every event that has it (a mask of
// JsonKind), or 0 for a field no event has (kept, never read). The fields of the "where"
// location are named "where.line"; other nested fields (fix_edit.line, artifacts.ptx)
// only eventFieldProblem checks.
unsigned expectedJsonKinds(std::string_view field);

// The first wrong field of an event, for its type (an event of a type this engine does not
// know is not checked): top-level fields, then the fields of a nested object ("where.line",
// "fix_edit.line") and the entries of a map (kernel_source's artifacts: "artifacts.ptx"),
// or "": `field "compile_id" is an integer, expected a string`.
std::string eventFieldProblem(const nlohmann::json& event);

}  // namespace fusescope
