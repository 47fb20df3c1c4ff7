#pragma once
// PyTorch's side of a run in its bundle (docs/bundle.md): the TORCH_TRACE logs real PyTorch
// wrote running the same script (the workbench's Run Under PyTorch Too, or a log opened
// beside the run), kept byte for byte under torch/, so the bundle reopens with both sides.

#include <map>
#include <string>

namespace fusescope {

// Puts the TORCH_TRACE logs at `path` (a folder's dedicated_log_torch_trace_*.log, or one log
// file, which keeps its name inside dedicated_log_torch_trace_NAME.log) into `entries` as
// torch/<file name>, in place of any PyTorch side they held. Throws Error when `path` holds
// no log or one cannot be read.
void putTorchSide(std::map<std::string, std::string>& entries, const std::string& path);

// Writes a bundle's torch/ logs into `dir` (created), for the TORCH_TRACE reader; false, writing
// nothing, when the bundle has none. Throws Error when a log cannot be written.
bool writeTorchSide(const std::map<std::string, std::string>& entries, const std::string& dir);

}  // namespace fusescope
