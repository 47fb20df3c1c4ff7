#pragma once
// The on-disk cache of compiled modules. An entry is one file, <key>.fsobj, holding the
// object, the optimised IR and the assembly (zstd-compressed) behind a SHA-256 of them: an
// entry that is truncated or altered fails the check and counts as absent (and is then
// rewritten).
// Entries are written to a temporary file and renamed, so readers never see half of one.
// The folder is kept under a size limit (toolchain/cache_size_limit.h): a load marks its
// entry used, a store trims the least recently used now and then.

#include <optional>
#include <string>

namespace fusescope {

struct CompiledObjectEntry {
    std::string object;
    std::string llvmIr;
    std::string assembly;
};

// SHA-256 (hex) of everything that decides the object: the source less its comment lines,
// the clang flags, the LLVM version, the host CPU and its features, and this toolchain's
// own version.
std::string cacheKey(const std::string& source);

std::optional<CompiledObjectEntry> loadCacheEntry(const std::string& dir, const std::string& key);

// Best effort: the cache only saves time, so a folder that cannot be written is skipped.
void storeCacheEntry(const std::string& dir, const std::string& key, const CompiledObjectEntry& entry);

// Keeps the module's source, comments and all, in the folder as <SHA-256 of it>.cpp, so
// traces can name a file users can open; returns its path ("" when the folder cannot be
// written). Sources that differ only in comments share one entry but keep a file each.
std::string storeCacheSource(const std::string& dir, const std::string& source);

}  // namespace fusescope
