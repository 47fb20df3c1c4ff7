#pragma once
// The workbench window: the script editor in the middle, every view of a run in a dock the
// user can rearrange (layout kept with QSettings), the engine child behind it all. Each
// dock holds a pane (panes/) that fills itself from the shared SelectionContext; the window
// lays them out and owns the actions, menus, runs, the minifier and the status bar.

#include <QMainWindow>
#include <QMessageBox>
#include <QTimer>

#include <memory>

#include "engine/engine_client.h"
#include "model/run_store.h"
#include "model/profiler_trace_run.h"
#include "model/torch_trace_run.h"
#include "selection/selection_context.h"
#include "engine/torch_side.h"

class QsciScintilla;
class QComboBox;
class QLabel;
class QLineEdit;
class QTreeView;
class QTabWidget;
class QTableView;
class QProgressBar;
class QToolButton;

namespace fusescope::gui {

class CodeView;
class FindBar;
class GraphView;
class FusionStepper;
class CompareView;
class TorchCompareView;
class GuardsView;
class TraceView;
class RecentFiles;
class SavedLayout;
class MinifyPane;
class MinifyController;
class RunOptions;
struct Docks;
class CompilesPane;
class GraphPane;
class ModulesPane;
class FusionPane;
class IrPane;
class CodePane;
class GraphBreaksPane;
class GuardsPane;
class OutputPane;
class ScriptSelection;
class ScriptTabs;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const QString& cliPath, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a script (.py), a trace bundle (.fscope), what real PyTorch's TORCH_TRACE wrote (its
    // folder or a dedicated_log_torch_trace_*.log) or a profiler's Chrome trace (.json); false
    // with a message shown on failure.
    bool openFile(const QString& path);
    void runScript();  // F5, Ctrl+R
    // Saves the script (Ctrl+S), asking where first when it has no file yet or choosePath
    // (Save Script As, Ctrl+Shift+S); false when not saved (cancelled or failed).
    bool saveScript(bool choosePath = false);
    // Picks the backend runs use ("" = what the script says); false for an unknown one.
    bool setBackend(const QString& name);
    QString backendText() const;  // the Backend picker as shown
    // Nothing is still coming or being laid out: no run, no file being read, no graph layout
    // or trace index on a worker thread, no view waiting to redo itself after a burst of
    // events. What a screenshot waits for.
    bool viewsReady() const;
    // Runs cuda tensors on the CPU while generating their CUDA kernels (the Device picker's
    // "cuda (GPU code only)").
    void setGpuCodegenOnly(bool on);
    void setCheckAccuracy(bool on);
    // No one is there to answer a dialog (`--screenshot`): what a message box would say goes
    // to stderr and the application exits with status 1.
    void setNonInteractive(bool on) { nonInteractive_ = on; }
    // Shrinks the last run's first failing graph (Ctrl+M; enabled after a graph failure).
    void minifyFailure();
    // Brings a view to the front, for screenshots and `--view`: overview, fusion (stepped
    // half way), code (the first kernel selected), guards, compare (the last two compiles'
    // guards), trace (the first kernel of a compiled graph selected), minify (the run's
    // first failing graph minified). False for an unknown one.
    bool showView(const QString& view);
    // showView once the file being opened is in (a trace is read on a worker thread), else now.
    void showViewOnceOpened(const QString& view);
    // PyTorch's side of the Ours vs PyTorch view: each run also runs the script under real
    // PyTorch when on (the toolbar's Run Under PyTorch Too), or a TORCH_TRACE folder or log
    // opened beside our run (File > Open PyTorch Trace Beside).
    void setRunUnderTorch(bool on);  // for this session; the toolbar's toggle is kept in the settings
    void openTorchTraceBeside(const QString& path);
    void setTorchPython(const QString& path) { torchSide_.setSessionPython(path); }  // --torch-python
    // Copies the bundle of what is on show (the last run's, or the bundle opened) to `path`,
    // with PyTorch's side when one is on show (its torch/ entries).
    bool exportBundle(const QString& path);
    // Writes the run's spans (a TORCH_TRACE log's compile timeline, a traced run's ops and
    // kernels) as Chrome trace JSON for Perfetto; false, having said why, when it cannot.
    bool exportPerfettoTrace(const QString& path);

    // For tests and screenshots.
    RunStore& store() { return store_; }
    SelectionContext& selection() { return selection_; }
    MinifyPane* minifyPane() const;
    EngineClient& engine() { return engine_; }
    QTreeView* compilesView() const;
    CodeView* preFusionView() const;
    CodeView* postFusionView() const;
    FusionStepper* fusionStepper() const;
    CodeView* cppView() const;
    CodeView* ptxView() const;
    QTabWidget* codeTabs() const;
    GraphView* graphView() const;
    GraphPane* graphPane() const;
    ModulesPane* modulesPane() const;
    CompilesPane* compilesPane() const;
    IrPane* irPane() const;
    CodePane* codePane() const;
    GraphView* afterFusionView() const;
    QsciScintilla* editor() const { return editor_; }
    ScriptTabs* scriptTabs() const { return scriptTabs_; }
    FindBar* findBar() const { return findBar_; }
    QTableView* graphBreaksView() const;
    GuardsView* guardsView() const;
    CompareView* compareView() const;
    TorchCompareView* torchCompareView() const;
    TorchSide& torchSide() { return torchSide_; }
    TraceView* traceView() const;
    static QString autosavePathForTests() { return autosavePath(); }
    QString statusText() const;
    QStringList recentFiles() const;

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;  // file drops on the editor

private:
    void buildActions();
    void buildViewMenu();  // docks to show again, reset layout, language
    void connectTorchSide();  // its progress and failures in the status bar and Output
    bool exportBundleWithTorchSide(const QString& path);
    // Raises the editor tab of file ("": the script) and moves its cursor to line (1-based).
    void showSourceLine(const QString& file, int line);
    // A doctor's fix: inserted into the script's editor (undoable), then the script runs again.
    void applyFixAndRun(const QString& file, int line, const QString& text);
    void showSelectedKernel(const QString& graphNode, const QString& buffer);  // in the status bar
    void onStored(int index);  // a run's event, once the store (and so every pane) has it
    void onRunFinished(bool ok, const QString& message);
    // The editor's script with the toolbars' options (and their logs when withLogs).
    RunRequest scriptRequest(bool withLogs = false) const;
    void onEngineDied(const QString& description, const QString& running);
    bool openBundle(const QString& path);
    // Reads `path` with `load` on a worker thread (the status bar says `opening`), then
    // `show`s it, or says in a box titled `title` why it cannot.
    template <typename Run>
    void openInBackground(const QString& path, const QString& title, const QString& opening, Run (*load)(const std::string&),
                          void (MainWindow::*show)(const QString&, Run));
    // A TORCH_TRACE folder or log (docs/torch-trace.md), read on a worker thread; true once started.
    bool openTorchTrace(const QString& path);
    void showTorchTrace(const QString& path, TorchTraceRun run);
    // What every opened log or trace does: `editorText` in the editor (no script file behind
    // it), `events` in the store, `path` among the recent files.
    void showOpenedRun(const QString& path, const QString& editorText, RunEvents events);
    // A Chrome trace (.json), with an execution trace beside it merged in, read on a worker thread.
    bool openProfilerTrace(const QString& path);
    void showProfilerTrace(const QString& path, ProfilerTraceRun run);
    void setStatus(const QString& text);
    // A message box, or in non-interactive mode stderr and exit status 1.
    void tell(QMessageBox::Icon icon, const QString& title, const QString& text);
    void setBusy(bool busy);      // the status bar's progress and Cancel while a run works
    void annotateScript();        // errors, graph breaks and recompiles under their lines
    void autosave();          // copies an edited script aside (timer)
    void restoreAutosave();   // at start: brings back what the last session left unsaved
    void discardAutosave();   // after open/save: the copy is no longer needed
    static QString autosavePath();

    RunStore store_;
    SelectionContext selection_{&store_};
    EngineClient engine_;
    TorchSide torchSide_;
    QString scriptPath_;

    QsciScintilla* editor_ = nullptr;
    std::unique_ptr<Docks> docks_;
    RunOptions* options_ = nullptr;
    MinifyController* minifier_ = nullptr;
    int runRequest_ = 0;  // the engine request of the run on its way; 0 when none
    QLabel* status_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QToolButton* cancel_ = nullptr;
    RecentFiles* recent_ = nullptr;
    QString bundlePath_;  // the bundle of what is on show; "" when there is none yet
    bool nonInteractive_ = false;
    QString runFileName_; // the script name the running or last run used
    ScriptTabs* scriptTabs_ = nullptr;  // the editor and the modules the run imported
    FindBar* findBar_ = nullptr;         // under the editor tabs
    ScriptSelection* scriptSelection_ = nullptr;  // the editors' part in the selection
    QTimer annotateTimer_;  // notes are redone once per burst of events, not per event
    int loadsPending_ = 0;  // files being read on a worker thread
    QString viewOnceOpened_;
    SavedLayout* layout_ = nullptr;
};

}  // namespace fusescope::gui
