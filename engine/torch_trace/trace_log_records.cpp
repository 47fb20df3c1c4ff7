#include "torch_trace/trace_log_records.h"

#include <fmt/format.h>

#include "core/read_fields.h"
#include "observe/json_nesting.h"
#include "core/digest.h"

namespace fusescope {

namespace {

constexpr const char* kContextKeys[] = {"frame_id", "frame_compile_id", "attempt", "compiled_autograd_id", "rank", "has_payload"};

bool isContextKey(const std::string& key) {
    for (const char* k : kContextKeys)
        if (key == k) return true;
    return false;
}

}  // namespace

std::string compileIdOf(const nlohmann::json& context) {
    if (!context.contains("frame_id") || !context["frame_id"].is_number_integer()) return "";
    std::string id = fmt::format("{}/{}", context["frame_id"].get<int64_t>(), integerField(context, "frame_compile_id"));
    if (int64_t attempt = integerField(context, "attempt"); attempt != 0) id += fmt::format("_{}", attempt);
    if (context.contains("compiled_autograd_id") && context["compiled_autograd_id"].is_number_integer())
        id = fmt::format("!{}/{}", context["compiled_autograd_id"].get<int64_t>(), id);
    return id;
}

TraceLogReader::TraceLogReader(std::istream& in) : in_(in), checksumsChecked_(hexDigest(DigestKind::Md5, "").has_value()) {}

bool TraceLogReader::next(TraceLogRecord& record) {
    while (lineUnused_ || std::getline(in_, line_)) {
        if (!lineUnused_) ++lineNumber_;
        lineUnused_ = false;
        const int number = lineNumber_;
        if (!line_.empty() && line_[0] == '\t') {
            warnings_.push_back(fmt::format("line {}: a payload line with no record before it", number));
            continue;
        }
        if (line_.empty()) continue;
        const size_t end = line_.find("] {");
        const std::string_view json = end == std::string::npos ? std::string_view() : std::string_view(line_).substr(end + 2);
        if (jsonNestsDeeperThan(json)) {
            warnings_.push_back(fmt::format("line {}: the record nests JSON deeper than {} levels", number, kMaxJsonNesting));
            continue;
        }
        nlohmann::json envelope = nlohmann::json::parse(json.begin(), json.end(), nullptr, false);  // none: discarded
        if (!envelope.is_object()) {
            warnings_.push_back(fmt::format("line {}: not a TORCH_TRACE record", number));
            continue;
        }
        record = TraceLogRecord{};
        record.line = number;
        for (auto& [key, value] : envelope.items()) {
            if (isContextKey(key)) record.context[key] = std::move(value);
            else if (record.kind.empty()) record.kind = key, record.metadata = std::move(value);
        }
        if (record.kind.empty()) {
            warnings_.push_back(fmt::format("line {}: a record with no entry kind", number));
            continue;
        }
        if (record.kind == "str" && record.metadata.is_array() && record.metadata.size() == 2 && record.metadata[0].is_string() &&
            record.metadata[1].is_number_integer()) {
            strings_[record.metadata[1].get<int64_t>()] = record.metadata[0].get<std::string>();
            continue;
        }
        record.compileId = compileIdOf(record.context);
        readPayload(record);
        return true;
    }
    return false;
}

// The tab-indented lines after a record, then the payload against the md5 its record names.
void TraceLogReader::readPayload(TraceLogRecord& record) {
    for (bool started = false; std::getline(in_, line_); started = true) {
        ++lineNumber_;
        if (line_.empty() || line_[0] != '\t') {
            lineUnused_ = true;
            break;
        }
        if (started) record.payload += '\n';
        record.payload.append(line_, 1);
    }
    auto named = record.context.find("has_payload");
    if (!checksumsChecked_ || named == record.context.end() || !named->is_string()) return;
    std::optional<std::string> md5 = hexDigest(DigestKind::Md5, record.payload);
    if (md5 && *md5 != named->get<std::string>())
        warnings_.push_back(fmt::format("line {}: the payload's md5 is {}, not the {} its record names", record.line, *md5,
                                        named->get<std::string>()));
}

TraceLog readTraceLog(std::istream& in) {
    TraceLogReader reader(in);
    TraceLog log;
    for (TraceLogRecord record; reader.next(record);) log.records.push_back(std::move(record));
    log.strings = reader.strings();
    log.warnings = std::move(reader.warnings());
    log.checksumsChecked = reader.checksumsChecked();
    return log;
}

}  // namespace fusescope
