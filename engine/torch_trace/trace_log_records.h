#pragma once
// The records of a TORCH_TRACE log, as real PyTorch writes them (the first layer of reading
// real PyTorch's logs, issue 22): each line a glog prefix
// (`V1124 21:53:36.613000 17397 path:309] `), then a one-line JSON envelope whose one
// non-context key names the entry kind (its value the metadata), beside context keys
// (frame_id, frame_compile_id, attempt, compiled_autograd_id, rank, has_payload); a payload
// follows as lines starting with a tab.
// `{"str": [path, id]}` records fill the string table stack frames refer to. Lines that are
// not records are skipped with a warning naming their line, and so is a payload whose md5
// differs from the one its record names; nothing is fatal.

#include <istream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fusescope {

struct TraceLogRecord {
    int line = 0;            // 1-based line of the envelope
    std::string kind;        // dynamo_start, artifact, chromium_event, ...
    nlohmann::json metadata;  // the kind's value
    nlohmann::json context;   // the envelope's other keys
    std::string payload;      // the tab-indented lines, tab stripped, joined by newlines
    std::string compileId;    // "0/1", "1/0_1", "!0/2/0"; empty outside a compile
};

struct TraceLog {
    std::vector<TraceLogRecord> records;  // string-table records excluded
    std::map<int64_t, std::string> strings;
    std::vector<std::string> warnings;  // "line 12: ...", in order
    bool checksumsChecked = false;      // each payload against its md5 (a build with OpenSSL)
};

// Reads a log's records one at a time, so a log of any size is held one record at a time.
class TraceLogReader {
public:
    explicit TraceLogReader(std::istream& in);
    // The next record with its payload; false at the end of the log.
    bool next(TraceLogRecord& record);

    const std::map<int64_t, std::string>& strings() const { return strings_; }  // those read so far
    std::vector<std::string>& warnings() { return warnings_; }
    bool checksumsChecked() const { return checksumsChecked_; }

private:
    void readPayload(TraceLogRecord& record);

    std::istream& in_;
    std::string line_;          // the last line read
    bool lineUnused_ = false;   // whether line_ ended a payload and still has to be read as a record
    int lineNumber_ = 0;
    std::map<int64_t, std::string> strings_;
    std::vector<std::string> warnings_;
    bool checksumsChecked_ = false;
};

// The whole log at once (for tests and small logs; importTraceLog streams).
TraceLog readTraceLog(std::istream& in);

// PyTorch's compile id text: frame_id/frame_compile_id, "_attempt" when non-zero, and
// "!<compiled_autograd_id>/" in front under compiled autograd; empty without a frame id.
std::string compileIdOf(const nlohmann::json& context);

}  // namespace fusescope
