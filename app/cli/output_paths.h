#pragma once
// The files a command writes (--events, --logs-out, --bundle) must not be one of its inputs
// or another of its outputs: `run s.py --events s.py` would destroy the script, `--events f
// --logs-out f` interleave two. A file written whole and renamed into place (a bundle) must
// also be new or a regular file: `--bundle /dev/full` would turn a device node into a file.
// A stream (events, logs) may go to a device or a pipe (/dev/stdout), written in place.

#include <optional>
#include <string>
#include <vector>

namespace fusescope {

struct OutputPath {
    std::string option;  // "--events"
    std::string path;    // "" when not asked for
    bool renamedIntoPlace = false;  // written beside it, then renamed over it
};

// Why these outputs can't be written over (the first problem), or nullopt when they can.
std::optional<std::string> refusedOutput(const std::vector<OutputPath>& outputs, const std::vector<std::string>& inputs);

}  // namespace fusescope
