#pragma once
// The JSON kinds each top-level field of an event may have, by field name, as eventToJson
// and traceRecordToJson write them. Events read from elsewhere (a bundle, a stream) are
// checked against it once, where they are read, so every consumer may then take a field of
// the expected kind without checking (or throwing through Qt's event loop). `bundle
// inspect` and the GUI refuse the same events with the same words.

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
};

// The kinds the field may have (a mask of JsonKind), or 0 for a field the schema does not
// know (kept, never read). Fields of the "where" location are named "where.line".
unsigned expectedJsonKinds(std::string_view field);

// The first wrong field of an event (top level, the "where" location, and each of
// kernel_source's artifacts, which must be strings: "artifacts.ptx"), or "":
// `field "compile_id" is an integer, expected a string`.
std::string eventFieldProblem(const nlohmann::json& event);

}  // namespace fusescope
