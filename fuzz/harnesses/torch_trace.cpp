// A TORCH_TRACE log as real PyTorch writes it (glog prefixes, JSON envelopes, tab-indented
// payloads), read as `fusescope-cli torch-trace` and the workbench read one: the events and
// metrics its records import as (importTraceLog, one record at a time) and the compile report. The reader skips what it cannot read with a warning naming the line; nothing a
// log holds may make it throw, crash or hang.

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "torch_trace/trace_log_import.h"
#include "torch_trace/trace_log_records.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    fusescope::TorchTraceImport imported = fusescope::importTraceLog(in);
    (void)fusescope::torchTraceReport(imported);
    return 0;
}
