#include "model/run_events.h"

#include <cstdint>
#include <iterator>
#include <limits>
#include <string_view>
#include <utility>
#include <vector>

#include "bundle/event_lines.h"
#include "model/json_fields.h"
#include "observe/event_from_json.h"

namespace fusescope::gui {

namespace {

// Reads one events.jsonl line with nlohmann's SAX parser: it checks the line is valid JSON,
// not too deep, with fields of the kinds the event schema expects (as the bundle reader
// does), and keeps only the top-level fields a trace span needs, building no JSON objects.
class EventLineReader {
public:
    using json = nlohmann::json;
    enum class Kind { Trace, Other, Malformed, NotAnEvent, TooDeep, BadField };

    Kind read(std::string_view line) {
        depth_ = 0;
        key_ = Key::None;
        tooDeep_ = badField_ = inWhere_ = false;
        expected_ = 0;
        object_ = isString_ = isTrace_ = hasRfId_ = hasBegin_ = hasEnd_ = false;
        record = {};
        name.clear();
        compileId.clear();
        if (!json::sax_parse(line.begin(), line.end(), this))
            return tooDeep_ ? Kind::TooDeep : badField_ ? Kind::BadField : Kind::Malformed;
        if (!object_ || !isString_) return Kind::NotAnEvent;
        bool span = isTrace_ && hasRfId_ && hasBegin_ && hasEnd_ && record.end >= record.begin;
        return span ? Kind::Trace : Kind::Other;  // a trace event without its times is kept as any other
    }

    TraceSpanRecord record;  // of a Trace line; its text and ids are the caller's to set
    std::string name, compileId;

    // nlohmann's SAX interface (a template parameter: nothing virtual).
    bool null() { return fieldKind(kJsonNull); }
    bool boolean(bool) { return fieldKind(kJsonBool); }
    bool number_integer(json::number_integer_t v) { return fieldKind(kJsonInteger) && integer(v); }
    bool number_unsigned(json::number_unsigned_t v) {
        if (!fieldKind(kJsonInteger)) return false;
        return v <= static_cast<json::number_unsigned_t>(std::numeric_limits<int64_t>::max()) ? integer(static_cast<int64_t>(v)) : true;
    }
    bool number_float(json::number_float_t, const json::string_t&) { return fieldKind(kJsonFloat); }
    bool binary(json::binary_t&) { return true; }
    bool string(json::string_t& v) {
        if (!fieldKind(kJsonString)) return false;
        if (depth_ != 1) return true;
        switch (key_) {
            case Key::Type: isString_ = true, isTrace_ = v == "trace_event"; break;
            case Key::Name: name.assign(v); break;
            case Key::Cat: record.category = spanCategoryOf(v); break;
            case Key::CompileId: compileId.assign(v); break;
            default: break;
        }
        return true;
    }
    bool key(json::string_t& k) {
        // The kinds the field may have, looked up once per key: no copies of its name.
        if (depth_ == 1) {
            const KnownKey* known = knownKey(k);
            key_ = known ? known->key : Key::None;
            expected_ = known ? known->kinds : expectedJsonKinds(k);
            inWhere_ = k == "where";
        }
        if (depth_ == 2 && inWhere_) expected_ = expectedJsonKinds("where." + k);
        return true;
    }
    bool start_object(std::size_t) {
        if (depth_ == 0) object_ = true;
        else if (!fieldKind(kJsonObject)) return false;
        return enter();
    }
    bool end_object() { return --depth_, true; }
    bool start_array(std::size_t) { return fieldKind(kJsonArray) && enter(); }
    bool end_array() { return --depth_, true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

private:
    enum class Key { None, Type, RfId, Parent, Tid, Begin, End, Name, Cat, CompileId };

    struct KnownKey {
        std::string_view text;
        Key key;
        unsigned kinds;  // expectedJsonKinds(text), looked up once
    };

    // The keys a span needs, with their schema kinds: the common keys of a trace line cost
    // no hash lookup.
    static const KnownKey* knownKey(const std::string& k) {
        static const std::vector<KnownKey> keys = [] {
            const std::pair<std::string_view, Key> spanKeys[] = {
                {"type", Key::Type}, {"rf_id", Key::RfId},    {"parent", Key::Parent}, {"tid", Key::Tid},
                {"begin_ns", Key::Begin}, {"end_ns", Key::End}, {"name", Key::Name}, {"cat", Key::Cat},
                {"compile_id", Key::CompileId}};
            std::vector<KnownKey> out;
            for (const auto& [text, key] : spanKeys) out.push_back({text, key, expectedJsonKinds(text)});
            return out;
        }();
        for (const KnownKey& known : keys)
            if (k == known.text) return &known;
        return nullptr;
    }

    bool integer(int64_t v) {
        if (depth_ != 1) return true;
        switch (key_) {
            case Key::RfId: record.rfId = v, hasRfId_ = true; break;
            case Key::Parent: record.parentId = v; break;
            case Key::Tid: record.tid = v; break;
            case Key::Begin: record.begin = v, hasBegin_ = true; break;
            case Key::End: record.end = v, hasEnd_ = true; break;
            default: break;
        }
        return true;
    }

    bool enter() {
        if (++depth_ > kMaxJsonNesting) tooDeep_ = true;
        return !tooDeep_;
    }

    // Checks a value's kind against the schema: a top-level field, or one of "where"'s.
    // The message comes from the bundle reader's check, run on the rare bad line.
    bool fieldKind(JsonKind kind) {
        if (object_ && (depth_ == 1 || (depth_ == 2 && inWhere_)) && expected_ && !(expected_ & kind)) badField_ = true;
        return !badField_;
    }

    int depth_ = 0;
    bool tooDeep_ = false, badField_ = false;
    bool inWhere_ = false;  // reading the top-level field "where" (the location)
    unsigned expected_ = 0;  // the JsonKinds of the field being read; 0: any
    Key key_ = Key::None;
    bool object_ = false, isString_ = false, isTrace_ = false, hasRfId_ = false, hasBegin_ = false, hasEnd_ = false;
};

struct ParsedChunk {
    RunEvents run;
    int lines = 0;
    std::string error;
};

ParsedChunk parseChunk(const EventLineChunk& chunk) {
    ParsedChunk out;
    EventLineReader reader;
    out.lines = forEachLine(chunk, [&](std::string_view line, size_t offset) {
        switch (reader.read(line)) {
            case EventLineReader::Kind::Trace:
                reader.record.textOffset = static_cast<int64_t>(offset);
                reader.record.textLength = static_cast<int32_t>(line.size());
                out.run.traces.add(reader.record, reader.name, reader.compileId);
                return true;
            case EventLineReader::Kind::Other: out.run.add(nlohmann::json::parse(line.begin(), line.end())); return true;
            case EventLineReader::Kind::BadField: {
                // The bundle reader's own check names the field; it reads a repeated key's
                // last value, so where that one is fine the line is kept, as it keeps it.
                nlohmann::json event = nlohmann::json::parse(line.begin(), line.end());
                out.error = eventFieldProblem(event);
                if (out.error.empty()) out.run.add(event);
                return out.error.empty();
            }
            case EventLineReader::Kind::Malformed: out.error = kMalformedEventLine; return false;
            case EventLineReader::Kind::NotAnEvent: out.error = kNotAnEvent; return false;
            case EventLineReader::Kind::TooDeep: out.error = kEventTooDeep; return false;
        }
        return false;
    });
    return out;
}

}  // namespace

void RunEvents::add(const nlohmann::json& event) {
    if (stringField(event, "type") == "trace_event" && traces.append(event)) return;
    if (std::optional<Event> typed = eventFromJson(event)) events.push_back(std::move(*typed));
}

void RunEvents::add(Event event) {
    if (std::holds_alternative<TraceEvent>(event)) traces.append(eventToJson(event));
    else events.push_back(std::move(event));
}

const std::string& compileIdOf(const Event& event) {
    static const std::string none;
    return std::visit(
        [](const auto& e) -> const std::string& {
            if constexpr (requires { e.compileId; }) return e.compileId;
            else if constexpr (requires { e.record.compileId; }) return e.record.compileId;
            else return none;
        },
        event);
}

RunEvents splitRunEvents(const std::vector<nlohmann::json>& events) {
    RunEvents run;
    for (const nlohmann::json& e : events) run.add(e);
    return run;
}

RunEvents parseRunEvents(std::string eventsJsonl) {
    std::vector<ParsedChunk> chunks = parseEventLines<ParsedChunk>(eventsJsonl, parseChunk);
    RunEvents run = std::move(chunks[0].run);
    for (size_t i = 1; i < chunks.size(); ++i) {
        std::move(chunks[i].run.events.begin(), chunks[i].run.events.end(), std::back_inserter(run.events));
        run.traces.addAll(chunks[i].run.traces);
    }
    run.traces.setText(std::move(eventsJsonl));
    return run;
}

}  // namespace fusescope::gui
