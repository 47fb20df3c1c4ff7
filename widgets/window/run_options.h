#pragma once
// What a run is made with, on the window's toolbars: Check Accuracy and Run Under PyTorch Too
// beside the run actions, then a toolbar of its own with the backend, the device and the
// logs (under the first where the window is narrow). The logs and the PyTorch toggle are
// kept in the settings.

#include <QObject>

#include "engine/engine_client.h"
#include "model/run_store.h"

class QAction;
class QComboBox;
class QLineEdit;
class QMainWindow;
class QToolBar;

namespace fusescope::gui {

class RunOptions : public QObject {
    Q_OBJECT
public:
    // Adds the toggles to `runBar` and the second toolbar to `window`; `minify` goes last on
    // `runBar`, after the toggles.
    RunOptions(QMainWindow* window, QToolBar* runBar, QAction* minify);

    // The script's run as the options say (the logs too when `withLogs`, which keeps them).
    RunRequest request(const QString& script, const QString& fileName, bool withLogs = false) const;
    bool runUnderTorch() const;
    void setRunUnderTorch(bool on);  // for this session; a click on the toggle is kept
    // Picks the backend ("" = what the script says); false for an unknown one.
    bool setBackend(const QString& name);
    QString backendText() const;
    void setGpuCodegenOnly(bool on);
    void setCheckAccuracy(bool on);
    // Says in the backend picker what compiled the run on show.
    void showBackendsUsed(const RunStore& store);

private:
    QComboBox* backend_;
    QComboBox* device_;
    QLineEdit* logSpec_;
    QAction* checkAccuracy_;
    QAction* runUnderTorch_;
};

}  // namespace fusescope::gui
