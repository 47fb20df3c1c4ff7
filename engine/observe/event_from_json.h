#pragma once
// The inverse of eventToJson: an event read back from a bundle or a `serve` stream, typed
// once where it is read so no consumer looks fields up by name. Run it after the schema
// check (event_schema.h); it still never throws on what that check lets through: a missing
// field, or a nested value of another kind, reads as the field's default.

#include <optional>

#include <nlohmann/json.hpp>

#include "observe/event.h"

namespace fusescope {

// nullopt for a type this engine does not know (a newer engine's).
std::optional<Event> eventFromJson(const nlohmann::json& json);

}  // namespace fusescope
