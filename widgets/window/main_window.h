#pragma once
// The workbench window: the script editor in the middle, every view of a run in a dock the
// user can rearrange (layout kept with QSettings), the engine child behind it all. The docks
// and their panes (window/docks.h) fill themselves from the shared SelectionContext; the
// window owns the run, what is opened and exported, and ties the parts together: the menus
// (window/file_menu.h, edit_menu.h), the run's options (run_options.h), the minifier
// (minify_controller.h), the script's file (script_file.h) and notes (script_annotations.h)
// and the status bar (run_status.h).

#include <memory>

#include <QMainWindow>
#include <QMessageBox>

#include "engine/engine_client.h"
#include "engine/torch_side.h"
#include "model/profiler_trace_run.h"
#include "model/run_store.h"
#include "model/torch_trace_run.h"
#include "model/trace_ranks.h"
#include "selection/selection_context.h"

class QsciScintilla;
class QTabWidget;
class QTableView;
class QTreeView;

namespace fusescope::gui {

class BackgroundPoll;
class CodePane;
class CodeView;
class CompareView;
class CompilesPane;
class FindBar;
class FusionStepper;
class GraphPane;
class GraphView;
class GuardsView;
class IrPane;
class MinifyController;
class MinifyPane;
class ModulesPane;
class RanksPane;
class RecentFiles;
class RunOptions;
class RunStatus;
class SavedLayout;
class ScriptAnnotations;
class ScriptFile;
class ScriptTabs;
class TorchCompareView;
class TraceView;
struct Docks;

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
    // first failing graph minified), ranks (a distributed run's). False for an unknown one.
    bool showView(const QString& view);
    // showView once the file being opened is in (a trace is read on a worker thread), else now.
    void showViewOnceOpened(const QString& view);
    // PyTorch's side of the Ours vs PyTorch view: each run also runs the script under real
    // PyTorch when on (the toolbar's Run Under PyTorch Too), or a TORCH_TRACE folder or log
    // opened beside our run (File > Open PyTorch Trace Beside).
    void setRunUnderTorch(bool on);  // for this session; the toolbar's toggle is kept in the settings
    void openTorchTraceBeside(const QString& path);
    void setTorchPython(const QString& path) { torchSide_.setSessionPython(path); }  // --torch-python
    // Where the engine runs (docs/remote.md): ssh://[user@]host[:port]/path/to/fusescope-cli, or
    // "" for this machine's; File > Connect to Engine keeps it for the next start (Saved),
    // --engine for this session. False, having said why, for an address that does not read.
    enum class EngineChoice { Saved, ThisSession };
    bool connectEngine(const QString& address, EngineChoice choice = EngineChoice::Saved);
    QString engineAddressText() const;  // "" for this machine's engine
    // Copies the bundle of what is on show (the last run's, or the bundle opened) to `path`,
    // with PyTorch's side when one is on show (its torch/ entries).
    bool exportBundle(const QString& path);
    // Writes the run's spans (a TORCH_TRACE log's compile timeline, a traced run's ops and
    // kernels) as Chrome trace JSON for Perfetto; false, having said why, when it cannot.
    bool exportPerfettoTrace(const QString& path);
    bool exportGraphImage(const QString& path);  // the Graph pane's captured graph, PNG or SVG
    // Whether there is a bundle to export; when not, says why.
    bool hasBundleToExport();

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
    RanksPane* ranksPane() const;
    TraceRanks& traceRanks() { return traceRanks_; }
    static QString autosavePathForTests();
    QString statusText() const;
    QString followingText() const;  // the status bar's "following FILE" indicator, "" when none
    QStringList recentFiles() const;

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildMenusAndToolBars();
    void setTitle(const QString& shown);  // "Fusescope - shown", with the unsaved-edits marker
    // Raises the editor tab of file ("": the script) and moves its cursor to line (1-based).
    void showSourceLine(const QString& file, int line);
    // A doctor's fix: inserted into the script's editor (undoable), then the script runs again.
    void applyFixAndRun(const QString& file, int line, const QString& text);
    void showSelectedKernel(const QString& graphNode, const QString& buffer);  // in the status bar
    void onStored(int index);  // a run's event, once the store (and so every pane) has it
    void onRunFinished(bool ok, const QString& message);
    void onEngineDied(const QString& description, const QString& running);
    bool openBundle(const QString& path);
    // Reads `path` with `load` on a worker thread (the status bar says `opening`), then
    // `show`s it, or says in a box titled `title` why it cannot.
    template <typename Run>
    void openInBackground(const QString& path, const QString& title, const QString& opening, Run (*load)(const std::string&),
                          void (MainWindow::*show)(const QString&, Run));
    void showTorchTrace(const QString& path, TorchTraceRun run);
    // Another rank's log of the distributed run on show, then `compileId` selected ("": its first).
    void showRank(int rank, const QString& compileId);
    // What is on show read again as its program writes it (docs/torch-trace.md, "Live runs"):
    // a TORCH_TRACE log by its follower, a profiler trace whole each time it changed.
    void followTorchTrace(std::shared_ptr<TraceLogFollower> follower);
    void followProfilerTrace(const QString& path);
    void showFollowedRun(RunEvents events, const QString& firstCompile);
    void stopFollowing();
    // What was opened (a TORCH_TRACE folder, a profiler trace) leaves the window: its ranks and
    // its following with it.
    void forgetOpenedTrace();
    void showProfilerTrace(const QString& path, ProfilerTraceRun run);
    // What every opened file does: `editorText` in the editor (from `scriptPath`, "" when no
    // script file is behind it), `events` in the store naming the script `scriptFile`, `path`
    // among the recent files.
    void showOpenedRun(const QString& path, const QString& editorText, RunEvents events, const QString& scriptFile,
                       const QString& scriptPath = {});
    void setStatus(const QString& text);
    // A message box, or in non-interactive mode stderr and exit status 1.
    void tell(QMessageBox::Icon icon, const QString& title, const QString& text);

    RunStore store_;
    SelectionContext selection_{&store_};
    EngineClient engine_;
    QString localCli_;  // this machine's fusescope-cli
    TorchSide torchSide_;
    TraceRanks traceRanks_;  // the ranks of the distributed run on show
    BackgroundPoll* follow_ = nullptr;  // following what is on show; null when nothing is
    int runRequest_ = 0;  // the engine request of the run on its way; 0 when none
    QString bundlePath_;  // the bundle of what is on show; "" when there is none yet
    bool nonInteractive_ = false;
    int loadsPending_ = 0;  // files being read on a worker thread
    QString viewOnceOpened_;

    QsciScintilla* editor_ = nullptr;
    ScriptTabs* scriptTabs_ = nullptr;  // the editor and the modules the run imported
    FindBar* findBar_ = nullptr;         // under the editor tabs
    ScriptFile* scriptFile_ = nullptr;
    ScriptAnnotations* annotations_ = nullptr;
    std::unique_ptr<Docks> docks_;
    RunOptions* options_ = nullptr;
    MinifyController* minifier_ = nullptr;
    RunStatus* status_ = nullptr;
    RecentFiles* recent_ = nullptr;
    SavedLayout* layout_ = nullptr;
};

}  // namespace fusescope::gui
