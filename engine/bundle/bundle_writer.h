#pragma once
// Writes a bundle atomically: the archive is built under a temporary name in the target's
// folder and renamed over the target only once complete, so the target holds either what
// it held before or the whole new bundle, never a truncated one.

#include <map>
#include <string>

namespace fusescope {

// entries: name -> bytes (BundleRecorder::entries()). Throws Error, having removed the
// temporary file, when the bundle cannot be written.
void writeBundle(const std::string& path, std::map<std::string, std::string> entries);

}  // namespace fusescope
