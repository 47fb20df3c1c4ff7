#pragma once
// Everything one run (live from the engine child, or replayed from a bundle) reported, in
// arrival order: its trace events (profiled spans) compact in a TraceLog, every other event
// typed, parsed once as it comes in (eventFromJson). Every model of the workbench is built from it, so a live run
// and a reopened bundle look the same (docs/architecture.md, "GUI"). Appending is cheap;
// models listen to eventAppended / traceAppended and update incrementally.

#include <string>
#include <unordered_map>
#include <vector>

#include <QObject>
#include <nlohmann/json.hpp>

#include "model/run_events.h"

namespace fusescope::gui {

class RunStore : public QObject {
    Q_OBJECT
public:
    explicit RunStore(QObject* parent = nullptr) : QObject(parent) {}

    // The events other than trace events.
    const std::vector<Event>& events() const { return run_.events; }
    int size() const { return static_cast<int>(run_.events.size()); }
    const Event& at(int index) const { return run_.events.at(static_cast<size_t>(index)); }
    // Indices of one compile's events in order: views of a compile look only at these.
    const std::vector<int>& compileEvents(const std::string& compileId) const;
    const TraceLog& traces() const { return run_.traces; }
    // Every event, trace events included.
    int eventCount() const { return size() + static_cast<int>(run_.traces.size()); }

    // One event as eventToJson wrote it (its "type" says which); one of a type this engine
    // does not know is left out.
    void append(const nlohmann::json& event);
    // Many at once (a bundle): one reset instead of a signal per event.
    void replace(const std::vector<nlohmann::json>& events) { replace(splitRunEvents(events)); }
    void replace(RunEvents run);
    void clear() { replace(RunEvents{}); }

signals:
    void eventAppended(int index);  // into events()
    void traceAppended(int record);  // into traces().records()
    void reset();  // after replace() and clear(): models rebuild from events() and traces()

private:
    void index(int i);

    RunEvents run_;
    std::unordered_map<std::string, std::vector<int>> byCompile_;
};

}  // namespace fusescope::gui
