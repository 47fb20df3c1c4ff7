#include "observe/log_registry.h"

#include <fmt/format.h>

#include "core/error.h"

namespace fusescope {

LogRegistry::LogRegistry() {
    components_ = {"dynamo", "aot", "inductor"};
    artifacts_ = {
        {"graph", "dynamo", "the captured graph as a table of nodes", false},
        {"graph_code", "dynamo", "the captured graph as Python code", false},
        {"graph_breaks", "dynamo", "every graph break with its reason and user stack", false},
        {"guards", "dynamo", "the guards of each compiled entry", false},
        {"verbose_guards", "dynamo", "guards with the full text of every check", true},
        {"recompiles", "dynamo", "why a function recompiled: the first failing guard per entry", false},
        {"recompiles_verbose", "dynamo", "why a function recompiled: every failing guard", true},
        {"trace_source", "dynamo", "each source line as it is traced", true},
        {"trace_call", "dynamo", "each traced call with its source position", true},
        {"dynamic", "dynamo", "symbolic shapes: dims made dynamic and their guards", false},
        {"aot_graphs", "aot", "AOT Autograd's forward and backward graphs, and each graph after decomposition", false},
        {"aot_joint_graph", "aot", "the joint forward and backward graph AOT Autograd traces", false},
        {"realize", "inductor", "why each buffer is written out rather than inlined into its consumers", false},
        {"ir_pre_fusion", "inductor", "the scheduler nodes and loop bodies before fusion", false},
        {"ir_post_fusion", "inductor", "the scheduler nodes after fusion", false},
        {"schedule", "inductor", "the kernel order and the buffers each kernel reads and writes", false},
        {"fusion", "inductor", "every fusion decision with its score and reason", false},
        {"output_code", "inductor", "the generated C++ of each compiled graph", false},
        {"perf_hints", "inductor", "what keeps generated code from being fast (unfused reductions, strided loads)", false},
    };
}

const LogRegistry& LogRegistry::instance() {
    static const LogRegistry registry;
    return registry;
}

const ArtifactInfo* LogRegistry::findArtifact(std::string_view name) const {
    for (const auto& a : artifacts_)
        if (a.name == name) return &a;
    return nullptr;
}

bool LogRegistry::isComponent(std::string_view name) const {
    for (const auto& c : components_)
        if (c == name) return true;
    return false;
}

std::string LogRegistry::validNames() const {
    std::vector<std::string> names = components_;
    for (const auto& a : artifacts_) names.push_back(a.name);
    return fmt::format("{}", fmt::join(names, ", "));
}

LogSettings LogSettings::parse(std::string_view spec) {
    const auto& registry = LogRegistry::instance();
    LogSettings settings;
    size_t pos = 0;
    while (pos <= spec.size()) {
        size_t comma = spec.find(',', pos);
        if (comma == std::string_view::npos) comma = spec.size();
        std::string item(spec.substr(pos, comma - pos));
        pos = comma + 1;
        // trim spaces
        item.erase(0, item.find_first_not_of(' '));
        item.erase(item.find_last_not_of(' ') + 1);
        if (item.empty()) continue;
        LogLevel level = LogLevel::Info;
        std::string name = item;
        if (item[0] == '+' || item[0] == '-') {
            level = item[0] == '+' ? LogLevel::Debug : LogLevel::Error;
            name = item.substr(1);
        }
        if (registry.isComponent(name)) {
            settings.setComponentLevel(name, level);
        } else if (registry.findArtifact(name) && name == item) {
            settings.enableArtifact(name);
        } else {
            throw Error(fmt::format("invalid log setting '{}': must be a comma-separated list of "
                                    "component names (optionally prefixed with + or -) or artifact names.\n"
                                    "Valid names: {}",
                                    item, registry.validNames()));
        }
    }
    return settings;
}

void LogSettings::enableArtifact(const std::string& name) { artifacts_.insert(name); }

void LogSettings::setComponentLevel(const std::string& component, LogLevel level) {
    levels_[component] = level;
}

bool LogSettings::artifactEnabled(std::string_view artifact) const {
    if (artifacts_.count(artifact)) return true;
    // "+dynamo" turns on dynamo's artifacts except the verbose ones, as TORCH_LOGS does.
    const ArtifactInfo* info = LogRegistry::instance().findArtifact(artifact);
    if (!info || info->offByDefaultUnderDebug) return false;
    auto it = levels_.find(info->component);
    return it != levels_.end() && it->second == LogLevel::Debug;
}

bool LogSettings::componentEnabled(std::string_view component, LogLevel level) const {
    auto it = levels_.find(component);
    LogLevel threshold = it == levels_.end() ? LogLevel::Warning : it->second;
    return static_cast<int>(level) >= static_cast<int>(threshold);
}

void Logger::artifact(std::string_view artifact, const std::string& compileId, const std::string& message) const {
    if (!settings_.artifactEnabled(artifact)) return;
    bus_.emit(LogEvent{compileId, std::string(artifact), true, LogLevel::Info, message});
}

void Logger::log(std::string_view component, LogLevel level, const std::string& compileId,
                 const std::string& message) const {
    if (!settings_.componentEnabled(component, level)) return;
    bus_.emit(LogEvent{compileId, std::string(component), false, level, message});
}

}  // namespace fusescope
