#include "torch_trace/trace_log_records.h"

#include <fmt/format.h>

#include "core/read_fields.h"
#include "observe/json_nesting.h"
#include "torch_trace/payload_md5.h"

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

TraceLog readTraceLog(std::istream& in) {
    TraceLog log;
    log.checksumsChecked = payloadMd5("").has_value();
    TraceLogRecord* open = nullptr;  // the record whose payload lines may follow
    bool payloadStarted = false;
    // A finished payload against the md5 its envelope names.
    auto checkPayload = [&] {
        if (!open || !log.checksumsChecked) return;
        auto named = open->context.find("has_payload");
        if (named == open->context.end() || !named->is_string()) return;
        std::optional<std::string> md5 = payloadMd5(open->payload);
        if (md5 && *md5 != named->get<std::string>())
            log.warnings.push_back(fmt::format("line {}: the payload's md5 is {}, not the {} its record names", open->line, *md5,
                                               named->get<std::string>()));
    };
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (!line.empty() && line[0] == '\t') {
            if (!open) {
                log.warnings.push_back(fmt::format("line {}: a payload line with no record before it", number));
                continue;
            }
            if (payloadStarted) open->payload += '\n';
            open->payload.append(line, 1);
            payloadStarted = true;
            continue;
        }
        checkPayload();
        open = nullptr;
        if (line.empty()) continue;
        const size_t end = line.find("] {");
        const std::string_view json = end == std::string::npos ? std::string_view() : std::string_view(line).substr(end + 2);
        if (jsonNestsDeeperThan(json)) {
            log.warnings.push_back(fmt::format("line {}: the record nests JSON deeper than {} levels", number, kMaxJsonNesting));
            continue;
        }
        nlohmann::json envelope = nlohmann::json::parse(json.begin(), json.end(), nullptr, false);  // none: discarded
        if (!envelope.is_object()) {
            log.warnings.push_back(fmt::format("line {}: not a TORCH_TRACE record", number));
            continue;
        }
        TraceLogRecord record;
        record.line = number;
        for (auto& [key, value] : envelope.items()) {
            if (isContextKey(key)) record.context[key] = value;
            else if (record.kind.empty()) record.kind = key, record.metadata = value;
        }
        if (record.kind.empty()) {
            log.warnings.push_back(fmt::format("line {}: a record with no entry kind", number));
            continue;
        }
        if (record.kind == "str" && record.metadata.is_array() && record.metadata.size() == 2 && record.metadata[0].is_string() &&
            record.metadata[1].is_number_integer()) {
            log.strings[record.metadata[1].get<int64_t>()] = record.metadata[0].get<std::string>();
            continue;
        }
        record.compileId = compileIdOf(record.context);
        log.records.push_back(std::move(record));
        open = &log.records.back();
        payloadStarted = false;
    }
    checkPayload();
    return log;
}

}  // namespace fusescope
