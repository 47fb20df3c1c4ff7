#pragma once
// A run's events as the RunStore keeps them: trace events compact in a TraceLog, every
// other event typed (eventFromJson, once, where it is read), both in the order they came.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "observe/event.h"

#include "model/trace_log.h"

namespace fusescope::gui {

struct RunEvents {
    std::vector<Event> events;  // all but the trace events
    TraceLog traces;

    // One event as eventToJson wrote it: a trace span into traces, any other typed into
    // events; a type this engine does not know is left out.
    void add(const nlohmann::json& event);
    // One typed event (a log read into events): kept as it is, a trace span compactly.
    void add(Event event);
};

// The compile an event belongs to; "" for those of no compile (errors, output, cache limits).
const std::string& compileIdOf(const Event& event);

// Splits parsed events (a live run's, a test fixture's).
RunEvents splitRunEvents(const std::vector<nlohmann::json>& events);

// Reads a bundle's events.jsonl: trace events straight into records (nlohmann's SAX
// parser, no JSON objects built), the others typed; in chunks of lines, one per
// core. Throws Error naming the first line that is malformed or not an event.
RunEvents parseRunEvents(std::string eventsJsonl);

}  // namespace fusescope::gui
