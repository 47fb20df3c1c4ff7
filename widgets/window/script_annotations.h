#pragma once
// The run's notes under the lines they are about, in every editor tab (the script's and its
// modules'): errors, graph breaks and recompiles (model/script_notes.h), the most serious
// colouring the box. Redone once per burst of such events, a moment after it, as the store
// fills, and at once on redo().

#include <QObject>
#include <QTimer>

namespace fusescope::gui {

class RunStore;
class ScriptTabs;

class ScriptAnnotations : public QObject {
    Q_OBJECT
public:
    ScriptAnnotations(ScriptTabs* tabs, const RunStore* store, QObject* parent = nullptr);

    void redo();  // now (the run ended, or the files the events name changed)
    bool pending() const { return timer_.isActive(); }

private:
    ScriptTabs* tabs_;
    const RunStore* store_;
    QTimer timer_;
};

}  // namespace fusescope::gui
