#pragma once
// The minifier's part of the window: the Minify action, enabled once a run that reported a
// graph failure is over (minifying reruns the script), the engine's `minify` request, and
// its progress and answer in the Minify pane.

#include <QObject>

#include "engine/engine_client.h"
#include "observe/event.h"

class QAction;

namespace fusescope::gui {

class MinifyPane;

class MinifyController : public QObject {
    Q_OBJECT
public:
    MinifyController(EngineClient* engine, MinifyPane* pane, QAction* action, QObject* parent = nullptr);

    // A run's life: its failures decide whether there is something to minify, and with
    // which check (an accuracy failure is looked for with --check-accuracy).
    void runStarted();
    void eventStored(const Event& event);
    void runEnded();

    // Minifies `request`'s first failing graph; false when there is none or it already runs.
    bool start(const RunRequest& request);
    bool isRunning() const { return request_ != 0; }
    // The engine went away (restarted, or it died) while minifying: says why in the pane.
    void abandon(const QString& why);

Q_SIGNALS:
    void status(const QString& text);  // for the status bar
    void finished();                   // answered or failed: the window is no longer busy

private:
    void fail(const QString& message);

    EngineClient* engine_;
    MinifyPane* pane_;
    QAction* action_;
    int request_ = 0;
    bool graphFailed_ = false;     // the run so far reported a graph failure
    bool accuracyFailed_ = false;  // ... and one of them was a wrong result
};

}  // namespace fusescope::gui
