#include "bundle/bundle_reader.h"

#include <filesystem>
#include <iterator>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "bundle/event_lines.h"
#include "bundle/zip_archive.h"
#include "core/error.h"
#include "observe/json_nesting.h"

namespace fusescope {

namespace {

bool isFolderEntry(const std::string& name) { return !name.empty() && name.back() == '/'; }

// Why an entry name cannot be used as a relative path inside the target folder, or "".
std::string unsafeNameReason(const std::string& name) {
    if (name.empty()) return "has an empty name";
    if (name[0] == '/' || name[0] == '\\' || (name.size() > 1 && name[1] == ':')) return "has an absolute path";
    if (name.find('\\') != std::string::npos) return "contains a backslash";
    for (unsigned char c : name)
        if (c < 0x20) return "contains a control character";
    std::string body = isFolderEntry(name) ? name.substr(0, name.size() - 1) : name;
    std::istringstream parts(body);
    for (std::string part; std::getline(parts, part, '/');) {
        if (part == "..") return "has a '..' component (it would leave the target folder)";
        if (part.empty() || part == ".") return "has an empty or '.' path component";
    }
    if (!body.empty() && body.back() == '/') return "has an empty or '.' path component";
    return "";
}

// Checks what the archive's directory declares, before anything is inflated.
void checkEntries(const std::vector<ZipEntryInfo>& entries, uint64_t archiveBytes, const BundleLimits& limits) {
    if (entries.size() > limits.maxEntries)
        throw Error(fmt::format("bundle has {} entries, over the limit of {}", entries.size(), limits.maxEntries));
    // Entries that share their data (many names pointing at one compressed block, the
    // overlapping zip bomb) show by size: the data of distinct entries fits in the archive.
    uint64_t compressed = 0;
    for (const auto& e : entries)
        if (__builtin_add_overflow(compressed, e.compressedSize, &compressed)) compressed = UINT64_MAX;
    if (compressed > archiveBytes)
        throw Error(fmt::format("bundle entries hold {} bytes of compressed data in a {}-byte archive: their data "
                                "overlap (a zip bomb?)", compressed, archiveBytes));
    std::set<std::string> files, folders;
    uint64_t total = 0;
    for (const auto& e : entries) {
        if (std::string why = unsafeNameReason(e.name); !why.empty())
            throw Error(fmt::format("bundle entry '{}' {}", printableEntryName(e.name), why));
        if (e.size > limits.maxEntryBytes)
            throw Error(fmt::format("bundle entry '{}' is {} bytes uncompressed, over the limit of {} bytes", printableEntryName(e.name),
                                    e.size, limits.maxEntryBytes));
        total += e.size;
        if (total > limits.maxTotalBytes)
            throw Error(fmt::format("bundle entries add up to more than the limit of {} bytes uncompressed",
                                    limits.maxTotalBytes));
        if (e.size > limits.ratioFreeBytes && static_cast<double>(e.size) > limits.maxRatio * static_cast<double>(e.compressedSize))
            throw Error(fmt::format("bundle entry '{}' expands {} bytes to {} (more than {:g} times): a zip bomb?", printableEntryName(e.name),
                                    e.compressedSize, e.size, limits.maxRatio));
        if (isFolderEntry(e.name)) {
            folders.insert(e.name.substr(0, e.name.size() - 1));
            continue;
        }
        if (!files.insert(e.name).second) throw Error(fmt::format("bundle entry '{}' appears twice", printableEntryName(e.name)));
        for (size_t slash = e.name.find('/'); slash != std::string::npos; slash = e.name.find('/', slash + 1))
            folders.insert(e.name.substr(0, slash));
    }
    for (const auto& f : folders)
        if (files.count(f)) throw Error(fmt::format("bundle entry '{}' is both a file and a folder", f));
}

const std::string& requiredFile(const Bundle& bundle, const std::string& name, const char* why) {
    auto it = bundle.files.find(name);
    if (it == bundle.files.end()) throw Error(fmt::format("bundle has no {}{}", printableEntryName(name), why));
    return it->second;
}

struct ParsedChunk {
    std::vector<nlohmann::json> events;
    int lines = 0;
    std::string error;
};

std::vector<nlohmann::json> parseEvents(const std::string& text) {
    std::vector<ParsedChunk> chunks = parseEventLines<ParsedChunk>(text, [](const EventLineChunk& chunk) {
        ParsedChunk parsed;
        parsed.lines = forEachLine(chunk, [&](std::string_view line, size_t) {
            if (jsonNestsDeeperThan(line)) {
                parsed.error = kEventTooDeep;
                return false;
            }
            nlohmann::json event = nlohmann::json::parse(line.begin(), line.end(), nullptr, false);
            if (event.is_discarded()) parsed.error = kMalformedEventLine;
            else if (!isEvent(event)) parsed.error = kNotAnEvent;
            else parsed.error = eventFieldProblem(event);
            if (parsed.error.empty()) parsed.events.push_back(std::move(event));
            return parsed.error.empty();
        });
        return parsed;
    });
    std::vector<nlohmann::json> events;
    for (ParsedChunk& chunk : chunks) std::move(chunk.events.begin(), chunk.events.end(), std::back_inserter(events));
    return events;
}

}  // namespace

Bundle readBundle(const std::string& path, const BundleLimits& limits, BundleEvents events) {
    ZipReader zip(path);
    std::error_code ec;
    uint64_t archiveBytes = std::filesystem::file_size(path, ec);
    if (ec) throw Error(fmt::format("cannot read '{}': {}", path, ec.message()));
    checkEntries(zip.entries(), archiveBytes, limits);
    Bundle bundle;
    for (size_t i = 0; i < zip.entries().size(); ++i)
        if (!isFolderEntry(zip.entries()[i].name)) bundle.files[zip.entries()[i].name] = zip.read(i);

    nlohmann::json manifest = parseUntrustedJson(requiredFile(bundle, kManifestEntry, ": not a Fusescope trace bundle"));
    if (manifest.is_discarded()) throw Error(fmt::format("{} is not valid JSON (or nests deeper than {} levels)", kManifestEntry, kMaxJsonNesting));
    bundle.manifest = BundleManifest::fromJson(manifest);
    bundle.script = requiredFile(bundle, kScriptFolder + bundle.manifest.script, " (the script manifest.json names)");
    const std::string& eventsText = requiredFile(bundle, kEventsEntry, "");
    if (events == BundleEvents::Parsed) bundle.events = parseEvents(eventsText);
    return bundle;
}

}  // namespace fusescope
