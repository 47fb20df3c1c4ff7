#pragma once
// The File menu: open a script, bundle, trace log or profiler trace, a TORCH_TRACE folder, or
// PyTorch's trace of this script beside our run; the recent files; save; export the bundle,
// the trace for Perfetto and the graph as an image; connect to an engine elsewhere; quit. Each asks for its path here and
// leaves the work to the window.

#include <QCoreApplication>

class QMenu;

namespace fusescope::gui {

class MainWindow;
class RecentFiles;

class FileMenu {
    Q_DECLARE_TR_FUNCTIONS(FileMenu)
public:
    // Returns the recent files, which the window adds each file it opens to.
    static RecentFiles* fill(QMenu* menu, MainWindow* window);
};

}  // namespace fusescope::gui
