#pragma once
// PyTorch's side of a run (docs/torch-trace.md, "Our compile beside PyTorch's"): the script
// run under real PyTorch with TORCH_TRACE into a temporary folder, or a TORCH_TRACE log the
// user opens beside our run; either way its log is read on a worker thread into a store of
// its own, which the Ours vs PyTorch view pairs with our run's.

#include <map>
#include <memory>
#include <string>

#include <QObject>
#include <QProcess>
#include <QTemporaryDir>

#include "model/run_store.h"
#include "model/torch_trace_run.h"

namespace fusescope::gui {

class BackgroundPoll;

class TorchSide : public QObject {
    Q_OBJECT
public:
    explicit TorchSide(QObject* parent = nullptr);
    ~TorchSide() override;

    // The Python that runs scripts under PyTorch: the one set for this session (--torch-python),
    // else the setting torch/python (Preferences), else python3 or python found on PATH; ""
    // when there is none.
    QString python() const;
    void setSessionPython(const QString& path) { sessionPython_ = path; }
    static QString savedPython();
    static void savePython(const QString& path);  // "" = look on PATH

    // Runs `script` (saved under scriptPath's file name in a temporary folder, run from there)
    // under PyTorch, with scriptPath's folder, when it has one, on PYTHONPATH for its own
    // modules; a run still going is stopped first, and what was on PyTorch's side is cleared.
    // False when no Python is found (failed says why).
    bool run(const QString& script, const QString& scriptPath);
    void stop();
    bool isRunning() const { return process_.state() != QProcess::NotRunning; }
    bool isBusy() const { return isRunning() || loads_ > 0; }  // running, or reading its log
    // Reads a TORCH_TRACE folder or log as PyTorch's side (cleared meanwhile).
    void open(const QString& path);
    // PyTorch's side kept in a bundle (its torch/ entries), or none when it has none.
    void openBundled(const std::map<std::string, std::string>& entries, const QString& bundleName);
    // The TORCH_TRACE folder or log on show: what File > Export Bundle keeps; "" when none.
    QString shownLog() const { return shownLog_; }

    const RunStore& store() const { return store_; }
    QString description() const { return description_; }  // what is on PyTorch's side

Q_SIGNALS:
    void progress(const QString& text);  // for the status bar
    void loaded(const QString& description);
    void failed(const QString& message);

private:
    void clear();  // what was on PyTorch's side goes; a run stops, a load still going is dropped
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void load(const QString& path, const QString& what);  // worker thread, then into the store
    // While the script runs, its log is read on as PyTorch writes it (docs/torch-trace.md, "Live runs").
    void followWhileRunning(const QString& traceFolder);
    void stopFollowing();

    RunStore store_;
    QProcess process_;
    std::unique_ptr<QTemporaryDir> folder_;  // the running script and its log
    QString sessionPython_;
    QString description_;
    QString shownLog_;
    QString output_;  // the running script's stdout and stderr, for a failure's message
    bool stopping_ = false;
    int loads_ = 0;  // logs being read
    BackgroundPoll* live_ = nullptr;  // following the running script's log; null when none
    int generation_ = 0;  // a load finishing after a newer run or open started is dropped
};

}  // namespace fusescope::gui
