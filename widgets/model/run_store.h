#pragma once
// Everything one run (live from the engine child, or replayed from a bundle) reported: the
// event stream as the engine's JSON objects, in arrival order. Every model of the workbench
// is built from it, so a live run and a reopened bundle look the same (DESIGN.md, "GUI
// structure"). Appending is cheap; models listen to eventAppended and update incrementally.

#include <string>
#include <unordered_map>
#include <vector>

#include <QObject>
#include <nlohmann/json.hpp>

namespace fusescope::gui {

class RunStore : public QObject {
    Q_OBJECT
public:
    explicit RunStore(QObject* parent = nullptr) : QObject(parent) {}

    const std::vector<nlohmann::json>& events() const { return events_; }
    int size() const { return static_cast<int>(events_.size()); }
    const nlohmann::json& at(int index) const { return events_.at(static_cast<size_t>(index)); }
    // Indices of one compile's events in order, trace events left out: views of a compile
    // look only at these, so a run with a million trace events shows a compile at once.
    const std::vector<int>& compileEvents(const std::string& compileId) const;

    // One event as eventToJson wrote it (its "type" says which).
    void append(nlohmann::json event);
    // Many at once (a bundle): one reset instead of a signal per event.
    void replace(std::vector<nlohmann::json> events);
    void clear();

signals:
    void eventAppended(int index);
    void reset();  // after replace() and clear(): models rebuild from events()

private:
    void index(int i);

    std::vector<nlohmann::json> events_;
    std::unordered_map<std::string, std::vector<int>> byCompile_;
};

}  // namespace fusescope::gui
