#pragma once
// events.jsonl, the run's event stream in a bundle: one event (a JSON object with a string
// "type") per line. A traced run of a million spans is hundreds of MB of it, so readers
// parse it in chunks of whole lines, one per core, and report the first bad line by its
// number in the whole file, as a reader going line by line would.

#include <algorithm>
#include <future>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bundle/bundle_format.h"
#include "core/error.h"
#include "observe/event_schema.h"
#include "observe/json_nesting.h"

namespace fusescope {

inline constexpr const char* kMalformedEventLine = "malformed JSON";
inline constexpr const char* kNotAnEvent = "not an event (a JSON object with a \"type\")";
inline constexpr const char* kEventTooDeep = "nests JSON deeper than 512 levels";
static_assert(kMaxJsonNesting == 512, "kEventTooDeep names the limit");

inline bool isEvent(const nlohmann::json& j) {
    auto type = j.find("type");
    return j.is_object() && type != j.end() && type->is_string();
}

struct EventLineChunk {
    std::string_view text;  // whole lines, each ending at its '\n' (the file's last may not)
    size_t offset = 0;      // of text in the file
};

// Calls onLine(line, offset) for each line of a chunk (without its '\n'), as std::getline
// splits them, until it returns false. Returns the lines visited, the stopping one included.
template <class OnLine>
int forEachLine(const EventLineChunk& chunk, OnLine onLine) {
    int lines = 0;
    for (size_t start = 0; start < chunk.text.size();) {
        size_t end = std::min(chunk.text.find('\n', start), chunk.text.size());
        ++lines;
        if (!onLine(chunk.text.substr(start, end - start), chunk.offset + start)) break;
        start = end + 1;
    }
    return lines;
}

// Splits text into chunks of whole lines: one per core, none under a few MB.
std::vector<EventLineChunk> eventLineChunks(std::string_view text);

// Runs parse(chunk) on every chunk of text, in parallel, and returns the results in order.
// A Result has `int lines` (lines read) and `std::string error` (empty, or why its last line
// is not an event); the first chunk with an error throws Error naming that line.
template <class Result, class Parse>
std::vector<Result> parseEventLines(std::string_view text, Parse parse) {
    std::vector<EventLineChunk> chunks = eventLineChunks(text);
    std::vector<std::future<Result>> others;
    for (size_t i = 1; i < chunks.size(); ++i) others.push_back(std::async(std::launch::async, parse, chunks[i]));
    std::vector<Result> results;
    results.push_back(parse(chunks[0]));
    for (auto& other : others) results.push_back(other.get());
    int linesBefore = 0;
    for (const Result& r : results) {
        if (!r.error.empty()) throw Error(fmt::format("{} line {}: {}", kEventsEntry, linesBefore + r.lines, r.error));
        linesBefore += r.lines;
    }
    return results;
}

}  // namespace fusescope
