#pragma once
// Keeps the on-disk kernel cache under a size limit, as ccache does: an entry is the files
// sharing one key (<key>.fsobj, or a kept source <key>.cpp); the least recently used go
// first. Without it every new kernel and every kept source (whose file:line comments differ
// from folder to folder) add files for ever, until the disk is full.

#include <cstdint>
#include <optional>
#include <string>

namespace fusescope {

constexpr std::uint64_t kDefaultCacheMaxBytes = std::uint64_t(2) << 30;  // 2 GiB

// "2G", "500M", "64K", "1000" (bytes; K/M/G/T are powers of 1024, case ignored); "0" means
// no limit. nullopt for anything else.
std::optional<std::uint64_t> parseCacheSize(const std::string& text);

// $FUSESCOPE_CACHE_MAX_SIZE, else the default; a value that does not parse is reported on
// stderr once and the default used.
std::uint64_t cacheMaxBytes();

// Removes the least recently used entries (by their newest file's modification time) until
// the folder holds at most `keepFraction` of maxBytes, if it holds more than maxBytes; the
// fraction leaves room so that trims are rare. Best effort: files that vanish or cannot
// be removed (another process trimming) are skipped. Returns the bytes removed.
std::uint64_t trimCacheFolder(const std::string& dir, std::uint64_t maxBytes, double keepFraction = 0.8);

// Called after each entry stored: trims the folder at most once a minute (a stamp file in
// it records the last trim), so the cost of a scan is paid rarely.
void trimCacheFolderNowAndThen(const std::string& dir);

// Marks an entry used (its modification time set to now), so it is the last to be trimmed.
void markCacheFileUsed(const std::string& path);

}  // namespace fusescope
