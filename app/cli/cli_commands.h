#pragma once
// The commands of fusescope-cli, one file each; main.cpp dispatches on the first word.

#include <cerrno>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/test_hooks.h"

namespace fusescope::cli {

extern const char* const kUsage;

// Prints "fusescope-cli: error: MESSAGE" and the usage; returns exit status 2.
int usageError(const std::string& message);
// The value of an environment variable, if set.
std::optional<std::string> envValue(const char* name);
// A script's whole text, or nullopt with `why` set: "cannot open script 'PATH': is a
// directory", unreadable, or over kMaxScriptBytes (/dev/zero never ends).
inline constexpr size_t kMaxScriptBytes = size_t{64} << 20;
std::optional<std::string> readScript(const std::string& path, std::string& why);
// An output the user named must be whole: a failed write (a full disk, /dev/full) is an
// error ("cannot write WHAT: ... (it is incomplete)"), not a silent truncation.
// `firstError`: the errno of the stream's first failed write when the caller kept it (a
// later call may have changed errno: a full disk then read "No such file or directory").
bool finishOutput(std::ostream& out, const std::string& what, int firstError = 0);
// Keeps in `error` the errno of the first write that failed on `out` (call after each write).
inline void noteWriteFailure(const std::ostream& out, int& error) {
    if (!out && !error) error = errno ? errno : EIO;
}
// "unknown backend 'NAME'; available: eager, ..." for a name no backend has.
std::string unknownBackendMessage(const std::string& name);
// --test-hook NAME (core/test_hooks.h): switches the hook on, or gives the usage error's text.
std::optional<std::string> enableTestHookOption(TestHooks& hooks, const std::string& name);

// --memory-limit MIB (memory_limit.cpp): caps this process's memory, or gives the usage error's text.
std::optional<std::string> applyMemoryLimitOption(const std::string& mebibytes);

int runCommand(const std::vector<std::string>& args);  // fusescope-cli run ...
int bundleCommand(const std::vector<std::string>& args);  // fusescope-cli bundle inspect|extract ...
int serveCommand(const std::vector<std::string>& args);  // fusescope-cli serve
int minifyCommand(const std::vector<std::string>& args);  // fusescope-cli minify ...
int torchTraceCommand(const std::vector<std::string>& args);  // fusescope-cli torch-trace PATH ...

}  // namespace fusescope::cli
