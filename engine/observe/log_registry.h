#pragma once
// TORCH_LOGS-style log settings. Components ("dynamo", "aot", "inductor") have levels;
// artifacts ("graph_breaks", "recompiles", ...) are on or off. A spec is a comma-separated
// list: "+dynamo" (debug), "dynamo" (info), "-dynamo" (error), "recompiles" (artifact on).

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "observe/event.h"

namespace fusescope {

struct ArtifactInfo {
    std::string name;
    std::string component;  // the component it belongs to
    std::string description;
    bool offByDefaultUnderDebug = false;  // verbose artifacts don't come with "+component"
};

class LogRegistry {
public:
    static const LogRegistry& instance();

    const std::vector<std::string>& components() const { return components_; }
    const std::vector<ArtifactInfo>& artifacts() const { return artifacts_; }
    const ArtifactInfo* findArtifact(std::string_view name) const;
    bool isComponent(std::string_view name) const;
    std::string validNames() const;  // "dynamo, aot, inductor, graph, graph_code, ..."

private:
    LogRegistry();
    std::vector<std::string> components_;
    std::vector<ArtifactInfo> artifacts_;
};

class LogSettings {
public:
    // Components log warnings and errors by default; no artifacts are on.
    LogSettings() = default;
    // Throws Error("invalid log setting 'x'; valid names: ...") on an unknown name.
    static LogSettings parse(std::string_view spec);
    // Applies a spec on top of these settings (used by torch._logging.set_logs).
    void enableArtifact(const std::string& name);
    void setComponentLevel(const std::string& component, LogLevel level);

    bool artifactEnabled(std::string_view artifact) const;
    bool componentEnabled(std::string_view component, LogLevel level) const;

private:
    std::map<std::string, LogLevel, std::less<>> levels_;
    std::set<std::string, std::less<>> artifacts_;
};

// What the engine logs through: checks the settings and emits LogEvents.
class Logger {
public:
    Logger(const EventBus& bus, LogSettings settings) : bus_(bus), settings_(std::move(settings)) {}

    LogSettings& settings() { return settings_; }
    bool enabled(std::string_view artifact) const { return settings_.artifactEnabled(artifact); }
    void artifact(std::string_view artifact, const std::string& compileId, const std::string& message) const;
    void log(std::string_view component, LogLevel level, const std::string& compileId,
             const std::string& message) const;
    void warning(std::string_view component, const std::string& compileId, const std::string& message) const {
        log(component, LogLevel::Warning, compileId, message);
    }

private:
    const EventBus& bus_;
    LogSettings settings_;
};

}  // namespace fusescope
