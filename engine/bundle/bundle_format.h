#pragma once
// The trace bundle (`.fscope`): one zip holding a run, to reopen anywhere (docs/bundle.md).
//
//   manifest.json               format version, engine version, created, script, device, options
//   script/<name>               the script, and beside it every module of its own it imported
//                               (script/model.py, script/pkg/__init__.py)
//   events.jsonl                the whole event stream, one eventToJson object per line
//   logs.txt                    the formatted log lines
//   compiles/<folder>/<file>    the debug-trace folders (observe/debug_trace_files.h)
//   trace/execution_trace.json  PyTorch execution-trace schema
//   trace/chrome_trace.json     Chrome trace (Perfetto, chrome://tracing)
//   torch/<log>                 PyTorch's side: the TORCH_TRACE logs of the script run under real
//                               PyTorch (bundle_torch_side.h), when the run had one

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace fusescope {

// Readers accept any minor version of their major; a newer major is refused.
inline constexpr int kBundleFormatMajor = 1;
inline constexpr const char* kBundleFormatVersion = "1.1";

inline constexpr const char* kManifestEntry = "manifest.json";
inline constexpr const char* kScriptFolder = "script/";
inline constexpr const char* kEventsEntry = "events.jsonl";
inline constexpr const char* kLogsEntry = "logs.txt";
inline constexpr const char* kCompilesFolder = "compiles/";
inline constexpr const char* kExecutionTraceEntry = "trace/execution_trace.json";
inline constexpr const char* kChromeTraceEntry = "trace/chrome_trace.json";
inline constexpr const char* kTorchSideFolder = "torch/";

// What a reader accepts before it inflates anything, so a hostile file cannot exhaust
// memory or disk.
struct BundleLimits {
    uint64_t maxEntries = 100000;
    uint64_t maxEntryBytes = uint64_t{1} << 30;  // uncompressed, per entry
    uint64_t maxTotalBytes = uint64_t{2} << 30;  // uncompressed, all entries
    // Deflate cannot pass 1032:1 (constant data), so an entry that declares more is a
    // header that lies (a zip bomb); what Fusescope writes, however repetitive (300,000
    // printed lines, a 50 MB payload of one byte), stays under it. Entries smaller than
    // ratioFreeBytes may claim what they like.
    double maxRatio = 1100;
    uint64_t ratioFreeBytes = uint64_t{1} << 20;
};

struct BundleManifest {
    std::string formatVersion = kBundleFormatVersion;
    std::string engineVersion;
    std::string created;  // ISO 8601, UTC: 2025-01-31T12:00:00Z
    std::string script;   // the script's file name; its text is script/<script>
    // The script as the run's locations name it (the path it was run by: "examples/main.py");
    // 1.1 on, "" in older bundles, where locations name it by its file name.
    std::string scriptPath;
    std::string device;   // "cpu"
    nlohmann::json options = nlohmann::json::object();  // backend, logs, trace, ...

    nlohmann::json toJson() const;
    // Throws Error when a field is missing or the format's major version is newer than ours.
    static BundleManifest fromJson(const nlohmann::json& doc);
};

// A manifest for a run made now by this engine; script is reduced to its file name.
BundleManifest makeManifest(const std::string& script, const std::string& device, nlohmann::json options);

std::string engineVersion();  // "0.1.0"

// An entry name as messages show it: control characters (a CR or LF in a hostile
// archive's name) escaped as \r, \n, \xNN, so a name cannot forge lines of output.
std::string printableEntryName(const std::string& name);

}  // namespace fusescope
