#pragma once
// The GUI's side of the engine protocol (docs/protocol.md): runs `fusescope-cli serve` as a
// child process, sends requests, and turns its stdout lines into signals. The engine runs
// in its own process so a crash in generated code cannot take the workbench down
// (docs/architecture.md, principle 6): when the child dies, engineDied says what was running and
// everything received so far stays with the receivers. restart() starts a fresh child.
// The engine may run on another machine, over SSH (engine_address.h, docs/remote.md): its
// version is asked first, a run sends the script's own modules with it and gets its bundle
// back, and a dropped connection is reported as the engine's death, with ssh's words.

#include <QObject>
#include <QProcess>
#include <QString>
#include <QTimer>
#include <nlohmann/json.hpp>

#include "engine/engine_address.h"

namespace fusescope::gui {

struct RunRequest {
    QString script;    // the script text
    QString fileName;  // the script's path, as its locations name it (script.py when unsaved)
    QString backend;   // "" = what the script says
    QString device = "cpu";
    bool gpuCodegenOnly = false;  // cuda tensors on the CPU, their CUDA kernels still generated
    bool checkAccuracy = false;   // compare compiled graphs with eager
    QString logs;      // TORCH_LOGS-style spec
    bool trace = true;
    QString bundle;    // where the engine writes the run's bundle when it ends; "" for none
    QString debugDir;  // where it writes a debug-trace folder per compiled graph; "" for none
};

class EngineClient : public QObject {
    Q_OBJECT
public:
    explicit EngineClient(QString cliPath, QObject* parent = nullptr);
    ~EngineClient() override;

    bool isRunning() const { return process_.state() != QProcess::NotRunning; }
    // Where the engine runs: a local fusescope-cli or ssh://[user@]host[:port]/path; false, with
    // `error` set, for neither. A running engine is restarted there.
    bool setAddress(const QString& text, QString* error);
    const EngineAddress& address() const { return address_; }
    // The memory the child may take (serve --memory-limit), in MiB; 0 for no limit. By default
    // three quarters of this machine's memory, so a script that allocates without end fails at
    // its line and leaves the workbench room. A change applies from the next start.
    qint64 memoryLimitMiB() const { return memoryLimitMiB_; }
    void setMemoryLimitMiB(qint64 mib) { memoryLimitMiB_ = mib; }
    static qint64 defaultMemoryLimitMiB();
    int activeRun() const { return activeRun_; }  // id of the run in progress, 0 when none

    // Each returns the request id its answer and events will carry. Starting the child is
    // implicit.
    int run(const RunRequest& request);
    // Shrinks the first failing compiled graph of the script (the protocol's `minify`);
    // its progress arrives as log events, then the answer. Cancellable like a run.
    int minify(const RunRequest& request, bool accuracy);
    int explainFusion(const QString& compileId, const QString& node1, const QString& node2);
    void cancel(int requestId);
    // A failed request's message as the window shows it: "Stopped: ..." when cancelled, and
    // the memory limit named when the engine ran out of it.
    QString failureText(const QString& code, const QString& message) const;
    void shutdown();    // asks the child to exit and waits briefly
    void restart();     // kills the child if alive and starts a fresh one
    void kill();        // for tests and "Stop engine": the child dies as in a crash

signals:
    void eventReceived(int request, const nlohmann::json& event);
    void answered(int request, const nlohmann::json& result);
    void failed(int request, const QString& code, const QString& message);
    // The child exited or crashed unasked. `description` is the exit status in words,
    // `running` names the request that was in progress ("" when idle).
    void engineDied(const QString& description, const QString& running);
    void engineStarted();
    // Something the user should know of the engine that is not a failure: its version differs
    // from the workbench's, a run left some of the script's files unsent.
    void notice(const QString& text);

private:
    void ensureStarted();
    int send(const QString& method, nlohmann::json params);
    // Handles the complete lines received. A burst of output (thousands of trace events)
    // is handled in slices of a few milliseconds with the rest queued behind the GUI's other
    // events, so windows keep painting while a busy run streams in; Everything handles all.
    enum class Lines { Slice, Everything };
    void readLines(Lines lines);
    void handleLine(const QByteArray& line);
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void checkVersion(const nlohmann::json& result);
    // Writes the files a remote engine sent back in an answer; "" or what failed.
    QString writeReturnedFiles(const nlohmann::json& files) const;
    QString lastSshWords() const;  // ssh's last stderr line, for a lost connection

    EngineAddress address_;
    QProcess process_;
    QByteArray pending_;  // lines not handled yet, then a partial line
    QTimer rest_;         // handles the lines a slice left
    int nextId_ = 1;
    int activeRun_ = 0;
    QString activeDescription_;
    bool expectingExit_ = false;
    qint64 memoryLimitMiB_ = defaultMemoryLimitMiB();
    bool versionPending_ = false;  // the engine just started has not answered `version` yet
    QByteArray sshErrors_;    // the tail of ssh's stderr
};

}  // namespace fusescope::gui
