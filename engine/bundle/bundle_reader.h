#pragma once
// Reading a bundle back: the GUI opens bundles through this, `fusescope-cli bundle`
// inspects and extracts them. Everything is validated before use: a bundle comes from
// elsewhere and may be hostile (docs/bundle.md, "Safety").

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bundle/bundle_format.h"

namespace fusescope {

struct Bundle {
    BundleManifest manifest;
    std::string script;                        // the script's text
    std::vector<nlohmann::json> events;        // events.jsonl, one eventToJson object per line
    std::map<std::string, std::string> files;  // every file entry, name -> bytes
};

// Reads and validates the whole bundle. Throws Error naming the problem: not a zip; an
// entry name that is absolute, has a '..', '.' or empty component, or is both a file and a
// folder; too many entries; an entry over the size limit or expanding beyond maxRatio (a
// zip bomb); no manifest.json, or one of a newer major format; no script; a malformed
// events.jsonl line (with its number). With BundleEvents::Unparsed, events stays empty and
// events.jsonl is only checked to be there: for a reader that parses it its own way (the
// GUI keeps trace events compact), in files[kEventsEntry].
enum class BundleEvents { Parsed, Unparsed };
Bundle readBundle(const std::string& path, const BundleLimits& limits = {}, BundleEvents events = BundleEvents::Parsed);

// Validates the whole bundle (readBundle), then writes its files under dir, created when
// missing: into a staging folder inside dir first, moved into place when all are written.
// Writes nothing when validation fails, never outside dir, and replaces nothing: a name
// that already exists in dir is an error before anything is written.
void extractBundle(const std::string& path, const std::string& dir, const BundleLimits& limits = {});

}  // namespace fusescope
