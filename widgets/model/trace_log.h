#pragma once
// The run's trace_event events (profiled spans), kept compact: a traced run has a million
// of them, and a JSON object each took gigabytes and most of the time it took to open its
// bundle. A span keeps what the views draw and join on (times, thread, parent, name,
// compile) and where its event's JSON text is, parsed again only for a span on show.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

namespace fusescope::gui {

enum class SpanCategory : uint8_t { CpuOp, UserAnnotation, Kernel, Compile };
SpanCategory spanCategoryOf(std::string_view cat);  // the event's "cat"

struct TraceSpanRecord {
    int64_t rfId = 0, parentId = 0, tid = 0;
    int64_t begin = 0, end = 0;  // ns
    int64_t textOffset = 0;      // the event's JSON text in TraceLog::text()
    int32_t textLength = 0;
    int32_t name = 0;            // into names()
    int32_t compile = -1;        // into compileIds(); -1 when it names none
    SpanCategory category = SpanCategory::CpuOp;
};

class TraceLog {
public:
    const std::vector<TraceSpanRecord>& records() const { return records_; }
    const std::vector<std::string>& names() const { return names_; }
    size_t size() const { return records_.size(); }
    const std::string& nameOf(const TraceSpanRecord& r) const { return names_[static_cast<size_t>(r.name)]; }
    // The compile id of a record; "" when it names none or `record` is out of range (a view
    // may still show an index of the run before).
    std::string compileIdOf(size_t record) const;
    // The whole event, parsed again from its text; null when `record` is out of range.
    nlohmann::json event(size_t record) const;

    // Adds a trace_event event of a live run; false (nothing added) when it is not one with
    // integer rf_id, begin_ns and end_ns, end not before begin.
    bool append(const nlohmann::json& event);
    // Adds a record whose text is at textOffset in the text set with setText (bulk loading).
    void add(TraceSpanRecord record, std::string_view name, std::string_view compileId);
    // Appends other's records, their names and compile ids mapped to this log's.
    void addAll(const TraceLog& other);
    void setText(std::string text) { text_ = std::move(text); }
    void clear() { *this = {}; }

private:
    struct StringHash {  // looks strings up by string_view, without a copy
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    using Ids = std::unordered_map<std::string, int32_t, StringHash, std::equal_to<>>;
    static int32_t intern(std::string_view s, std::vector<std::string>& table, Ids& ids);

    std::vector<TraceSpanRecord> records_;
    std::vector<std::string> names_, compileIds_;
    Ids nameIds_, compileIdIds_;
    std::string text_;  // events.jsonl of a bundle, or the live events' dumps
};

// The spans as Chrome trace JSON, which Perfetto (ui.perfetto.dev) and chrome://tracing open:
// a TORCH_TRACE log's compile phases, nested as PyTorch opened them, or a run's profiled
// ops and kernels. Spans whose event cannot be read back are left out.
std::string chromeTraceText(const TraceLog& log);

}  // namespace fusescope::gui
