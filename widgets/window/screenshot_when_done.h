#pragma once
// `fusescope --screenshot FILE`: when the window's run ends (answered, failed, or the engine
// died), waits until every view is ready (MainWindow::viewsReady: no graph layout or trace
// index still running), saves the window as PNG and reports done(status): 0, or 1 when the
// engine died or the file could not be written.

#include <functional>

#include <QString>

namespace fusescope::gui {

class MainWindow;

// `running`: a run is about to start (--run); otherwise the window is grabbed at once.
void screenshotWhenDone(MainWindow& window, const QString& path, bool running, std::function<void(int status)> done);

}  // namespace fusescope::gui
