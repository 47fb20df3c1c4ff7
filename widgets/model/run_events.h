#pragma once
// A run's events as the RunStore keeps them: trace events compact in a TraceLog, every
// other event as its JSON object, both in the order they came.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/trace_log.h"

namespace fusescope::gui {

struct RunEvents {
    std::vector<nlohmann::json> events;  // all but the trace events
    TraceLog traces;
};

// Splits parsed events (a live run's, a test fixture's).
RunEvents splitRunEvents(std::vector<nlohmann::json> events);

// Reads a bundle's events.jsonl: trace events straight into records (nlohmann's SAX
// parser, no JSON objects built), the others as JSON objects; in chunks of lines, one per
// core. Throws Error naming the first line that is malformed or not an event.
RunEvents parseRunEvents(std::string eventsJsonl);

}  // namespace fusescope::gui
