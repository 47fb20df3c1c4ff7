#include "bundle/bundle_format.h"

#include <cctype>
#include <ctime>
#include <filesystem>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "core/error.h"

#ifndef FUSESCOPE_VERSION
#error "FUSESCOPE_VERSION is set by engine/CMakeLists.txt from the project version"
#endif

namespace fusescope {

using nlohmann::json;

namespace {

// The major number of "MAJOR.MINOR"; -1 when the text has another form.
int majorVersion(const std::string& version) {
    size_t dot = version.find('.');
    if (dot == 0 || dot == std::string::npos || dot + 1 == version.size()) return -1;
    for (size_t i = 0; i < version.size(); ++i)
        if (i != dot && !std::isdigit(static_cast<unsigned char>(version[i]))) return -1;
    return dot > 6 ? -1 : std::stoi(version.substr(0, dot));
}

}  // namespace

std::string engineVersion() { return FUSESCOPE_VERSION; }

json BundleManifest::toJson() const {
    return {{"format_version", formatVersion}, {"engine_version", engineVersion}, {"created", created},
            {"script", script}, {"script_path", scriptPath}, {"device", device}, {"options", options}};
}

BundleManifest BundleManifest::fromJson(const json& doc) {
    if (!doc.is_object()) throw Error("manifest.json is not a JSON object");
    auto text = [&](const char* name) -> std::string {
        auto it = doc.find(name);
        if (it == doc.end() || !it->is_string()) throw Error(fmt::format("manifest.json has no text field '{}'", name));
        return it->get<std::string>();
    };
    BundleManifest m;
    m.formatVersion = text("format_version");
    int major = majorVersion(m.formatVersion);
    if (major < 1) throw Error(fmt::format("manifest.json: format_version '{}' is not MAJOR.MINOR", m.formatVersion));
    if (major > kBundleFormatMajor)
        throw Error(fmt::format("bundle format {} is newer than this Fusescope reads ({}.x); open it with a newer Fusescope",
                                m.formatVersion, kBundleFormatMajor));
    m.engineVersion = text("engine_version");
    m.created = text("created");
    m.script = text("script");
    if (m.script.empty() || m.script.find('/') != std::string::npos || m.script == "." || m.script == "..")
        throw Error(fmt::format("manifest.json: script '{}' is not a file name", m.script));
    if (auto it = doc.find("script_path"); it != doc.end() && it->is_string()) m.scriptPath = it->get<std::string>();
    m.device = text("device");
    if (auto it = doc.find("options"); it != doc.end()) {
        if (!it->is_object()) throw Error("manifest.json: options is not a JSON object");
        m.options = *it;
    }
    return m;
}

BundleManifest makeManifest(const std::string& script, const std::string& device, nlohmann::json options) {
    BundleManifest m;
    m.engineVersion = engineVersion();
    m.created = fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr)));
    m.script = std::filesystem::path(script).filename().string();
    if (m.script.empty() || m.script == "." || m.script == "..") m.script = "script.py";
    m.scriptPath = script;
    m.device = device;
    m.options = std::move(options);
    return m;
}

std::string printableEntryName(const std::string& name) {
    std::string out;
    for (unsigned char c : name) {
        if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\t') out += "\\t";
        else if (c < 0x20 || c == 0x7f) out += fmt::format("\\x{:02x}", c);
        else out += static_cast<char>(c);
    }
    return out;
}

}  // namespace fusescope
