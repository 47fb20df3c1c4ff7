#include "toolchain/cache_size_limit.h"

#include <algorithm>
#include <chrono>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <vector>

namespace fusescope {

namespace fs = std::filesystem;

namespace {

constexpr const char* kTrimStamp = ".last-trim";
constexpr auto kTrimInterval = std::chrono::minutes(1);

struct CachedFiles {
    std::uint64_t bytes = 0;
    fs::file_time_type lastUsed;
    std::vector<fs::path> files;
};

}  // namespace

std::optional<std::uint64_t> parseCacheSize(const std::string& text) {
    if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return std::nullopt;
    size_t end = 0;
    std::uint64_t number = 0;
    try {
        number = std::stoull(text, &end);
    } catch (const std::out_of_range&) {  // more digits than 64 bits hold
        return std::nullopt;
    }
    std::string unit = text.substr(end);
    if (unit.size() == 2 && std::toupper(static_cast<unsigned char>(unit[1])) == 'B') unit.pop_back();  // "2GB"
    if (unit.size() > 1) return std::nullopt;
    int shift = 0;
    if (!unit.empty()) {
        static const std::string kUnits = "KMGT";
        auto at = kUnits.find(static_cast<char>(std::toupper(static_cast<unsigned char>(unit[0]))));
        if (at == std::string::npos) return std::nullopt;
        shift = 10 * int(at + 1);
    }
    if (number > (~std::uint64_t(0) >> shift)) return std::nullopt;
    return number << shift;
}

std::uint64_t cacheMaxBytes() {
    const char* text = std::getenv("FUSESCOPE_CACHE_MAX_SIZE");
    if (!text || !*text) return kDefaultCacheMaxBytes;
    if (auto bytes = parseCacheSize(text)) return *bytes;
    static bool reported = false;
    if (!reported) {
        reported = true;
        std::fprintf(stderr, "fusescope: FUSESCOPE_CACHE_MAX_SIZE='%s' is not a size (such as 2G or 500M); using 2G\n",
                     text);
    }
    return kDefaultCacheMaxBytes;
}

std::uint64_t trimCacheFolder(const std::string& dir, std::uint64_t maxBytes, double keepFraction) {
    if (maxBytes == 0) return 0;
    std::map<std::string, CachedFiles> entries;  // by key
    std::uint64_t total = 0;
    std::error_code error;
    for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
        auto extension = it->path().extension();
        if (extension != ".fsobj" && extension != ".cpp") continue;  // stamps, temporaries of writers
        std::error_code statError;
        auto bytes = it->file_size(statError);
        auto time = it->last_write_time(statError);
        if (statError) continue;
        CachedFiles& entry = entries[it->path().stem().string()];
        entry.bytes += bytes;
        entry.lastUsed = entry.files.empty() ? time : std::max(entry.lastUsed, time);
        entry.files.push_back(it->path());
        total += bytes;
    }
    if (total <= maxBytes) return 0;
    std::vector<CachedFiles*> oldestFirst;
    for (auto& [key, entry] : entries) oldestFirst.push_back(&entry);
    std::sort(oldestFirst.begin(), oldestFirst.end(),
              [](const CachedFiles* a, const CachedFiles* b) { return a->lastUsed < b->lastUsed; });
    auto keep = static_cast<std::uint64_t>(double(maxBytes) * keepFraction);
    std::uint64_t removed = 0;
    for (CachedFiles* entry : oldestFirst) {
        if (total - removed <= keep) break;
        for (const auto& file : entry->files) fs::remove(file, error);
        removed += entry->bytes;
    }
    return removed;
}

void trimCacheFolderNowAndThen(const std::string& dir) {
    std::uint64_t maxBytes = cacheMaxBytes();
    if (maxBytes == 0) return;
    fs::path stamp = fs::path(dir) / kTrimStamp;
    std::error_code error;
    auto lastTrim = fs::last_write_time(stamp, error);
    if (!error && fs::file_time_type::clock::now() - lastTrim < kTrimInterval) return;
    std::ofstream(stamp).put('\n');  // first, so processes storing at once do not all scan
    trimCacheFolder(dir, maxBytes);
}

void markCacheFileUsed(const std::string& path) {
    std::error_code error;
    fs::last_write_time(path, fs::file_time_type::clock::now(), error);
}

}  // namespace fusescope
