#include "core/json_text.h"
#include "model/trace_log.h"

#include "profile/trace_export.h"
#include "profile/trace_record.h"

namespace fusescope::gui {

namespace {

bool intField(const nlohmann::json& e, const char* key, int64_t& out) {
    auto it = e.find(key);
    if (it == e.end() || !it->is_number_integer()) return false;
    out = it->get<int64_t>();
    return true;
}

std::string_view stringView(const nlohmann::json& e, const char* key) {
    auto it = e.find(key);
    return it != e.end() && it->is_string() ? std::string_view(it->get_ref<const std::string&>()) : std::string_view();
}

}  // namespace

SpanCategory spanCategoryOf(std::string_view cat) {
    if (cat == "user_annotation") return SpanCategory::UserAnnotation;
    if (cat == "kernel") return SpanCategory::Kernel;
    if (cat == "compile") return SpanCategory::Compile;
    return SpanCategory::CpuOp;
}

std::string TraceLog::compileIdOf(size_t record) const {
    if (record >= records_.size() || records_[record].compile < 0) return {};
    return compileIds_[static_cast<size_t>(records_[record].compile)];
}

nlohmann::json TraceLog::event(size_t record) const {
    if (record >= records_.size()) return nullptr;
    const TraceSpanRecord& r = records_[record];
    std::string_view text = std::string_view(text_).substr(static_cast<size_t>(r.textOffset), static_cast<size_t>(r.textLength));
    return nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
}

bool TraceLog::append(const nlohmann::json& event) {
    TraceSpanRecord r;
    if (!intField(event, "rf_id", r.rfId) || !intField(event, "begin_ns", r.begin) || !intField(event, "end_ns", r.end) ||
        r.end < r.begin)
        return false;
    intField(event, "parent", r.parentId);
    intField(event, "tid", r.tid);
    r.category = spanCategoryOf(stringView(event, "cat"));
    std::string text = jsonText(event);
    r.textOffset = static_cast<int64_t>(text_.size());
    r.textLength = static_cast<int32_t>(text.size());
    text_ += text;
    text_ += '\n';
    add(r, stringView(event, "name"), stringView(event, "compile_id"));
    return true;
}

void TraceLog::add(TraceSpanRecord record, std::string_view name, std::string_view compileId) {
    record.name = intern(name, names_, nameIds_);
    record.compile = compileId.empty() ? -1 : intern(compileId, compileIds_, compileIdIds_);
    records_.push_back(record);
}

void TraceLog::addAll(const TraceLog& other) {
    records_.reserve(records_.size() + other.records_.size());
    std::vector<int32_t> names, compiles;
    for (const std::string& n : other.names_) names.push_back(intern(n, names_, nameIds_));
    for (const std::string& c : other.compileIds_) compiles.push_back(intern(c, compileIds_, compileIdIds_));
    for (TraceSpanRecord r : other.records_) {
        r.name = names[static_cast<size_t>(r.name)];
        if (r.compile >= 0) r.compile = compiles[static_cast<size_t>(r.compile)];
        records_.push_back(r);
    }
}

int32_t TraceLog::intern(std::string_view s, std::vector<std::string>& table, Ids& ids) {
    // Few distinct names (ops, kernels, annotations): the lookup is the common case.
    if (auto it = ids.find(s); it != ids.end()) return it->second;
    auto id = static_cast<int32_t>(table.size());
    table.emplace_back(s);
    ids.emplace(table.back(), id);
    return id;
}

std::string chromeTraceText(const TraceLog& log) {
    std::vector<TraceRecord> records;
    records.reserve(log.size());
    for (size_t i = 0; i < log.size(); ++i) try {
            records.push_back(traceRecordFromJson(log.event(i)));
        } catch (const nlohmann::json::exception&) {
        }
    return fusescope::chromeTraceText(records);
}

}  // namespace fusescope::gui
