#include "window/main_window.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDropEvent>
#include <QFile>
#include <QDateTime>
#include <QFileInfo>
#include <QMenuBar>
#include <QScopeGuard>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>
#include <Qsci/qsciscintilla.h>

#include "bundle/bundle_reader.h"
#include "core/error.h"
#include "model/json_fields.h"
#include "model/profiler_trace_run.h"
#include "model/torch_trace_run.h"
#include "panes/code_pane.h"
#include "panes/compare_pane.h"
#include "panes/compiles_pane.h"
#include "panes/fusion_pane.h"
#include "panes/graph_breaks_pane.h"
#include "panes/graph_pane.h"
#include "panes/guards_pane.h"
#include "panes/ir_pane.h"
#include "panes/minify_pane.h"
#include "panes/modules_pane.h"
#include "panes/output_pane.h"
#include "panes/ranks_pane.h"
#include "panes/torch_compare_pane.h"
#include "panes/trace_pane.h"
#include "selection/script_selection.h"
#include "timeline/trace_view.h"
#include "views/code_view.h"
#include "views/find_bar.h"
#include "views/graph_view.h"
#include "views/script_tabs.h"
#include "views/stack_trie_view.h"
#include "views/torch_compare_view.h"
#include "window/background_poll.h"
#include "window/docks.h"
#include "window/edit_menu.h"
#include "window/editor_room.h"
#include "window/exports.h"
#include "window/file_drops.h"
#include "window/file_menu.h"
#include "window/load_in_background.h"
#include "window/minify_controller.h"
#include "window/preferences_dialog.h"
#include "window/recent_files.h"
#include "window/run_options.h"
#include "window/run_status.h"
#include "window/saved_layout.h"
#include "window/script_annotations.h"
#include "window/script_file.h"
#include "window/view_menu.h"
#include "window/view_presets.h"

namespace fusescope::gui {

namespace {

// Whether the file starts as a zip archive does (a bundle saved without its extension).
bool isZipFile(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) && file.read(4) == QByteArray("PK\x03\x04", 4);
}

QString lastRunBundle() { return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + "/runs/last-run.fscope"; }

}  // namespace

MainWindow::MainWindow(const QString& cliPath, QWidget* parent) : QMainWindow(parent), engine_(cliPath), localCli_(cliPath) {
    setWindowTitle(tr("Fusescope") + "[*]");  // [*]: the unsaved-edits marker
    if (QVariant limit = QSettings().value("engine/memoryLimitMiB"); limit.isValid())  // 0: none
        engine_.setMemoryLimitMiB(limit.toLongLong());
    if (QString saved = QSettings().value("engine/address").toString(); !saved.isEmpty()) {
        QString ignored;  // a saved address that no longer reads: this machine's engine
        engine_.setAddress(saved, &ignored);
    }
    editor_ = new QsciScintilla(this);
    configureCodeEditor(*editor_, CodeView::Language::Python);
    connect(editor_, &QsciScintilla::modificationChanged, this, &QWidget::setWindowModified);
    scriptTabs_ = new ScriptTabs(editor_, &store_, this);
    auto* editing = new QWidget(this);  // the editor tabs over their find bar
    auto* column = new QVBoxLayout(editing);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(scriptTabs_, 1);
    findBar_ = new FindBar(scriptTabs_, editing);
    column->addWidget(findBar_);
    setCentralWidget(editing);
    scriptFile_ = new ScriptFile(editor_, this);
    connect(scriptFile_, &ScriptFile::status, this, &MainWindow::setStatus);
    connect(scriptFile_, &ScriptFile::failed, this, [this](const QString& title, const QString& text) { tell(QMessageBox::Warning, title, text); });
    connect(scriptFile_, &ScriptFile::pathChanged, this, [this](const QString& path) { setTitle(QFileInfo(path).fileName()); });
    annotations_ = new ScriptAnnotations(scriptTabs_, &store_, this);
    new ScriptSelection(scriptTabs_, &selection_, this);
    docks_ = std::make_unique<Docks>(this, &selection_, &engine_, &torchSide_, &traceRanks_);
    status_ = new RunStatus(statusBar(), &engine_, &store_);
    buildMenusAndToolBars();
    setAcceptDrops(true);
    new EditorFileDrops(this, editor_->viewport());

    connect(&engine_, &EngineClient::eventReceived, this, [this](int id, const nlohmann::json& event) {
        if (id == runRequest_) store_.append(event);  // onStored follows
    });
    connect(&engine_, &EngineClient::answered, this, [this](int id) {
        if (id == runRequest_) onRunFinished(true, {});
    });
    connect(&engine_, &EngineClient::failed, this, [this](int id, const QString& code, const QString& message) {
        if (id == runRequest_) onRunFinished(false, engine_.failureText(code, message));
    });
    connect(&engine_, &EngineClient::engineDied, this, &MainWindow::onEngineDied);
    connect(&engine_, &EngineClient::notice, this, [this](const QString& text) {
        docks_->output->appendMessage(text);
        setStatus(text);
    });
    connect(&store_, &RunStore::eventAppended, this, &MainWindow::onStored);  // after the panes' models
    connect(&selection_, &SelectionContext::nodeChanged, this, &MainWindow::showSelectedKernel);
    connect(&selection_, &SelectionContext::sourceLineRequested, this, &MainWindow::showSourceLine);
    connect(&selection_, &SelectionContext::fixRequested, this, &MainWindow::applyFixAndRun);
    connect(&traceRanks_, &TraceRanks::rankRequested, this, &MainWindow::showRank);
    connect(&torchSide_, &TorchSide::progress, this, &MainWindow::setStatus);
    connect(&torchSide_, &TorchSide::loaded, this, [this](const QString& description) { setStatus(tr("PyTorch's side: %1").arg(description)); });
    connect(&torchSide_, &TorchSide::failed, this, [this](const QString& message) {
        docks_->output->appendMessage(tr("PyTorch's side: %1").arg(message));
        setStatus(tr("PyTorch's side failed: %1").arg(message.section('\n', 0, 0)));
    });

    layout_ = new SavedLayout(this, editor_);
    ViewMenu::fill(menuBar()->addMenu(tr("&View")), this, layout_, [this](const QString& text) { setStatus(text); });
    new EditorRoom(this, centralWidget());
    connect(layout_, &SavedLayout::resetForNotFitting, this,
            [this] { setStatus(tr("The saved window layout did not fit this screen: the default layout is back.")); });
    scriptFile_->restoreAutosave();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenusAndToolBars() {
    recent_ = FileMenu::fill(menuBar()->addMenu(tr("&File")), this);
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    EditMenu::fill(edit, scriptTabs_, findBar_, centralWidget());
    edit->addSeparator();
    edit->addAction(tr("&Preferences..."), QKeySequence(Qt::CTRL | Qt::Key_Comma), this, [this] { PreferencesDialog(this).exec(); });

    QToolBar* bar = addToolBar(tr("Run"));
    bar->setObjectName("runToolBar");
    QAction* run = bar->addAction(tr("Run"), this, &MainWindow::runScript);
    run->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)});
    run->setToolTip(tr("Run the script (F5, Ctrl+R)"));
    bar->addAction(tr("Stop"), this, [this] {
        if (engine_.activeRun()) engine_.cancel(engine_.activeRun());
    });
    QAction* restart = bar->addAction(tr("Restart Engine"), this, [this] {
        // The old engine's run or minify ends with it, answered or not: nothing is busy any more.
        engine_.restart();
        runRequest_ = 0;
        status_->setBusy(false);
        annotations_->redo();
        minifier_->abandon(tr("the engine was restarted"));
        setStatus(tr("Engine restarted"));
    });
    restart->setObjectName("restartEngine");
    auto* minify = new QAction(tr("Minify"), this);
    connect(minify, &QAction::triggered, this, &MainWindow::minifyFailure);
    minify->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    minify->setToolTip(tr("Shrink the compiled graph that failed to the smallest graph that still fails, and "
                          "write it as a repro script (Ctrl+M)"));
    options_ = new RunOptions(this, bar, minify);
    minifier_ = new MinifyController(&engine_, docks_->minify, minify, this);
    connect(minifier_, &MinifyController::status, this, &MainWindow::setStatus);
    connect(minifier_, &MinifyController::finished, this, [this] { status_->setBusy(false); });
}

void MainWindow::setTitle(const QString& shown) { setWindowTitle(tr("Fusescope - %1").arg(shown) + "[*]"); }

void MainWindow::setRunUnderTorch(bool on) { options_->setRunUnderTorch(on); }

void MainWindow::openTorchTraceBeside(const QString& path) {
    torchSide_.open(path);
    docks_->raise("torchCompareDock");
}

QTreeView* MainWindow::compilesView() const { return docks_->compiles->view(); }
CodeView* MainWindow::preFusionView() const { return docks_->ir->preFusionView(); }
CodeView* MainWindow::postFusionView() const { return docks_->ir->postFusionView(); }
FusionStepper* MainWindow::fusionStepper() const { return docks_->fusion->stepper(); }
CodeView* MainWindow::cppView() const { return docks_->code->cppView(); }
CodeView* MainWindow::ptxView() const { return docks_->code->artifactView("ptx"); }
QTabWidget* MainWindow::codeTabs() const { return docks_->code->tabs(); }
GraphView* MainWindow::graphView() const { return docks_->graph->capturedView(); }
GraphView* MainWindow::afterFusionView() const { return docks_->graph->afterFusionView(); }
QTableView* MainWindow::graphBreaksView() const { return docks_->graphBreaks->view(); }
GuardsView* MainWindow::guardsView() const { return docks_->guards->view(); }
MinifyPane* MainWindow::minifyPane() const { return docks_->minify; }
GraphPane* MainWindow::graphPane() const { return docks_->graph; }
ModulesPane* MainWindow::modulesPane() const { return docks_->modules; }
CompilesPane* MainWindow::compilesPane() const { return docks_->compiles; }
IrPane* MainWindow::irPane() const { return docks_->ir; }
CodePane* MainWindow::codePane() const { return docks_->code; }
CompareView* MainWindow::compareView() const { return docks_->compare->view(); }
TorchCompareView* MainWindow::torchCompareView() const { return docks_->torchCompare->view(); }
TraceView* MainWindow::traceView() const { return docks_->trace->view(); }
RanksPane* MainWindow::ranksPane() const { return docks_->ranks; }
QString MainWindow::statusText() const { return status_->text(); }
QString MainWindow::followingText() const { return status_->following(); }
QStringList MainWindow::recentFiles() const { return recent_->paths(); }
QString MainWindow::autosavePathForTests() { return ScriptFile::autosavePath(); }
bool MainWindow::saveScript(bool choosePath) { return scriptFile_->save(choosePath); }
bool MainWindow::setBackend(const QString& name) { return options_->setBackend(name); }
QString MainWindow::backendText() const { return options_->backendText(); }
void MainWindow::setCheckAccuracy(bool on) { options_->setCheckAccuracy(on); }
void MainWindow::setGpuCodegenOnly(bool on) { options_->setGpuCodegenOnly(on); }
void MainWindow::setStatus(const QString& text) { status_->setText(text); }

void MainWindow::showSourceLine(const QString& file, int line) {
    if (!scriptTabs_->showLine(file, line) && line > 0) setStatus(tr("%1 is not among the files of this run").arg(file));
}

void MainWindow::applyFixAndRun(const QString& file, int line, const QString& text) {
    if (scriptTabs_->editorOf(file) != editor_ || line < 1 || line > editor_->lines()) {
        setStatus(tr("The fix edits %1, which is not the script in the editor").arg(file));
        return;
    }
    editor_->insertAt(text, line - 1, 0);
    showSourceLine(file, line);
    setStatus(tr("Applied the fix at line %1: %2").arg(line).arg(text.trimmed()));
    runScript();
}

void MainWindow::showSelectedKernel(const QString&, const QString& buffer) {
    if (buffer.isEmpty()) return;
    QString kernel = selection_.provenance().kernelOf(buffer);
    setStatus(kernel.isEmpty() ? tr("Selected %1").arg(buffer) : tr("Selected %1 (kernel %2)").arg(buffer, kernel));
}

void MainWindow::tell(QMessageBox::Icon icon, const QString& title, const QString& text) {
    if (!nonInteractive_) {
        QMessageBox(icon, title, text, QMessageBox::Ok, this).exec();
        return;
    }
    std::fprintf(stderr, "fusescope: %s: %s\n", qPrintable(title), qPrintable(text));
    // Once the event loop runs: a message at start-up comes before it does.
    QTimer::singleShot(0, qApp, [] { QApplication::exit(1); });
}

// Running.

void MainWindow::runScript() {
    forgetOpenedTrace();
    store_.clear();
    selection_.setCompileId({});
    minifier_->runStarted();
    RunRequest request = options_->request(editor_->text(), scriptFile_->runName(), true);
    QDir().mkpath(QFileInfo(lastRunBundle()).path());
    request.bundle = lastRunBundle();  // every run leaves its bundle, for File > Export Bundle
    bundlePath_.clear();
    scriptTabs_->setScriptFile(request.fileName);
    runRequest_ = engine_.run(request);
    if (options_->runUnderTorch()) torchSide_.run(request.script, request.fileName);
    status_->setBusy(true);
    setStatus(tr("Running %1...").arg(QFileInfo(request.fileName).fileName()));
}

void MainWindow::minifyFailure() {
    if (engine_.activeRun() || !minifier_->start(options_->request(editor_->text(), scriptFile_->runName()))) return;
    docks_->raise("minifyDock");
    status_->setBusy(true);
}

void MainWindow::onStored(int index) {
    const Event& event = store_.at(index);
    minifier_->eventStored(event);
    // Follow the newest compile until the user picks one.
    QString id = QString::fromStdString(compileIdOf(event));
    if (std::holds_alternative<CompileStartedEvent>(event) ||
        (std::holds_alternative<KernelSourceEvent>(event) && id == selection_.compileId())) {
        if (id == selection_.compileId()) selection_.refreshCompile();
        else selection_.setCompileId(id);
    }
}

void MainWindow::onRunFinished(bool ok, const QString& message) {
    runRequest_ = 0;
    status_->setBusy(false);
    minifier_->runEnded();
    annotations_->redo();
    if (!ok) docks_->output->appendMessage(message);
    if (QFile::exists(lastRunBundle())) bundlePath_ = lastRunBundle();
    setStatus(ok ? tr("Finished: %1 events").arg(store_.eventCount()) : message);
    if (!selection_.compileId().isEmpty()) selection_.refreshCompile();
    options_->showBackendsUsed(store_);
}

bool MainWindow::connectEngine(const QString& address, EngineChoice choice) {
    QString error;
    if (!engine_.setAddress(address.isEmpty() ? localCli_ : address, &error)) {
        tell(QMessageBox::Warning, tr("Connect to Engine"), error);
        return false;
    }
    if (choice == EngineChoice::Saved) QSettings().setValue("engine/address", address);
    setStatus(engine_.address().isRemote() ? tr("The engine runs at %1 (over SSH)").arg(engine_.address().shown())
                                           : tr("The engine runs on this machine"));
    return true;
}

QString MainWindow::engineAddressText() const {
    const EngineAddress& a = engine_.address();
    if (!a.isRemote()) return {};
    return QString("ssh://%1%2").arg(a.shown(), a.remotePath);
}

void MainWindow::onEngineDied(const QString& description, const QString& running) {
    runRequest_ = 0;
    status_->setBusy(false);
    QString text = running.isEmpty() ? description : tr("%1 while %2").arg(description, running);
    docks_->output->appendMessage(tr("%1. Everything received so far is kept; Restart Engine starts a new one.").arg(text));
    minifier_->abandon(text);
    setStatus(text);
}

bool MainWindow::showView(const QString& view) {
    if (view != "minify") return showPresetView(view, *docks_, selection_);
    // Minify the run's failure once; a later call (its answer) only shows the result.
    if (docks_->minify->repro().isEmpty() && !minifier_->isRunning()) minifyFailure();  // does nothing without a failure
    return docks_->raise("minifyDock");
}

void MainWindow::showViewOnceOpened(const QString& view) {
    if (loadsPending_ > 0) viewOnceOpened_ = view;
    else showView(view);
}

bool MainWindow::viewsReady() const {
    if (engine_.activeRun() || loadsPending_ > 0 || torchSide_.isBusy() || traceView()->indexPending()) return false;
    // Views that redo themselves once per burst of events, a moment after it.
    if (annotations_->pending() || torchCompareView()->rebuildPending() || docks_->compiles->stackTrie()->rebuildPending()) return false;
    const QList<GraphView*> graphs = findChildren<GraphView*>();
    return std::none_of(graphs.begin(), graphs.end(), [](const GraphView* g) { return g->layoutPending(); });
}

// Opening.

bool MainWindow::openFile(const QString& path) {
    if (path.endsWith(".fscope", Qt::CaseInsensitive) || isZipFile(path)) return openBundle(path);  // a bundle by any name
    if (isTorchTracePath(path.toStdString())) {
        openInBackground<TorchTraceRun>(path, tr("Open PyTorch Trace"), tr("Opening PyTorch trace %1...").arg(QFileInfo(path).fileName()),
                                        &loadTorchTraceRun, &MainWindow::showTorchTrace);
        return true;
    }
    if (path.endsWith(".json", Qt::CaseInsensitive)) {
        openInBackground<ProfilerTraceRun>(path, tr("Open Profiler Trace"), tr("Opening profiler trace %1...").arg(QFileInfo(path).fileName()),
                                           &loadProfilerTrace, &MainWindow::showProfilerTrace);
        return true;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        tell(QMessageBox::Warning, tr("Open Script"), tr("Cannot open %1: %2").arg(path, file.errorString()));
        return false;
    }
    // What was on show (a run, a bundle, a TORCH_TRACE folder) belongs to another file.
    showOpenedRun(path, QString::fromUtf8(file.readAll()), RunEvents{}, QFileInfo(path).fileName(), path);
    setTitle(QFileInfo(path).fileName());
    setStatus(tr("Opened %1").arg(QFileInfo(path).fileName()));
    return true;
}

void MainWindow::showOpenedRun(const QString& path, const QString& editorText, RunEvents events, const QString& scriptFile,
                               const QString& scriptPath) {
    scriptFile_->open(editorText, scriptPath);
    scriptTabs_->setScriptFile(scriptFile);  // the events name the script's file so
    store_.replace(std::move(events));  // the panes reload
    selection_.setCompileId({});  // of the run before: the caller picks this run's first, if any
    bundlePath_.clear();
    forgetOpenedTrace();
    recent_->add(path);
}

bool MainWindow::openBundle(const QString& path) {
    Bundle bundle;
    RunEvents run;
    try {
        QApplication::setOverrideCursor(Qt::WaitCursor);  // a traced run's bundle takes a moment
        auto restoreCursor = qScopeGuard([] { QApplication::restoreOverrideCursor(); });
        bundle = readBundle(path.toStdString(), {}, BundleEvents::Unparsed);
        run = parseRunEvents(std::move(bundle.files[kEventsEntry]));
    } catch (const Error& e) {
        tell(QMessageBox::Critical, tr("Open Bundle"), tr("%1 is not a usable bundle:\n%2").arg(path, QString::fromStdString(e.what())));
        return false;
    }
    const std::string& scriptFile = bundle.manifest.scriptPath.empty() ? bundle.manifest.script : bundle.manifest.scriptPath;
    showOpenedRun(path, QString::fromStdString(bundle.script), std::move(run), QString::fromStdString(scriptFile));
    bundlePath_ = path;
    torchSide_.openBundled(bundle.files, QFileInfo(path).fileName());
    if (!torchSide_.isBusy()) torchCompareView()->setTorchSource(tr("The bundle keeps no PyTorch side: its run was made without Run Under PyTorch Too"));
    // The run's first compile on show, and the backend it was compiled with in the picker.
    for (const Event& e : store_.events())
        if (const auto* started = std::get_if<CompileStartedEvent>(&e)) {
            selection_.setCompileId(QString::fromStdString(started->compileId));
            break;
        }
    if (!setBackend(qstringField(bundle.manifest.options, "backend"))) setBackend({});  // any JSON may be there
    options_->showBackendsUsed(store_);
    setTitle(tr("%1 (bundle)").arg(QFileInfo(path).fileName()));
    setStatus(tr("Opened bundle %1: %2 events").arg(QFileInfo(path).fileName()).arg(store_.eventCount()));
    return true;
}

template <typename Run>
void MainWindow::openInBackground(const QString& path, const QString& title, const QString& opening, Run (*load)(const std::string&),
                                  void (MainWindow::*show)(const QString&, Run)) {
    // Read on a worker thread (a large file takes a second or two); the panes change when it is in.
    loadInBackground<Run>(
        this, [load, file = path.toStdString()] { return load(file); },
        [this, path, show](Run run) {
            --loadsPending_;
            status_->setReading(false);
            (this->*show)(path, std::move(run));
            if (!viewOnceOpened_.isEmpty()) showView(std::exchange(viewOnceOpened_, {}));
        },
        [this, path, title](const QString& error) {
            --loadsPending_;
            status_->setReading(false);
            setStatus(tr("Cannot open %1").arg(path));
            tell(QMessageBox::Critical, title, tr("Cannot open %1:\n%2").arg(path, error));
        });
    ++loadsPending_;
    status_->setReading(true);
    setStatus(opening);
}

void MainWindow::showTorchTrace(const QString& path, TorchTraceRun run) {
    QString program = QString::fromStdString(run.program);  // the events name the program's file as the log does
    QString text = run.programText.empty()
                       ? tr("# A TORCH_TRACE log of PyTorch %1: %2\n# Its program, %3, is not on this machine.\n")
                             .arg(QString::fromStdString(run.torchVersion), QString::fromStdString(run.logPath), program)
                       : QString::fromStdString(run.programText);
    const bool sameRanks = run.ranks == nullptr && traceRanks_.folder() == path;  // another rank of the run on show
    std::shared_ptr<const RankComparison> ranks = sameRanks ? traceRanks_.shared() : run.ranks;
    showOpenedRun(path, text, std::move(run.events), program);
    if (ranks) traceRanks_.show(path, ranks, run.rank.value_or(-1));
    selection_.setCompileId(QString::fromStdString(run.firstCompile));  // its graph, IR and code on show at once
    const QString log = QFileInfo(QString::fromStdString(run.logPath)).fileName();
    setTitle(ranks ? tr("%1 (PyTorch trace, rank %2 of %3)").arg(log).arg(run.rank.value_or(-1)).arg(ranks->ranks.size())
                   : tr("%1 (PyTorch trace)").arg(log));
    QString status = tr("Opened PyTorch trace %1: %2 compiles, %3 events").arg(QFileInfo(path).fileName()).arg(run.compiles).arg(store_.eventCount());
    if (ranks)
        status = tr("Opened rank %1 of %2 of PyTorch trace %3: %4 compiles, %5 events; %6")
                     .arg(run.rank.value_or(-1))
                     .arg(ranks->ranks.size())
                     .arg(QFileInfo(path).fileName())
                     .arg(run.compiles)
                     .arg(store_.eventCount())
                     .arg(ranks->divergence ? tr("the ranks diverge at compile %1 (Ranks pane)").arg(QString::fromStdString(ranks->divergence->compileId))
                                            : tr("the ranks compiled alike"));
    if (run.ranks) docks_->raise("ranksDock");  // a distributed run just opened: its ranks side by side
    if (run.follower) followTorchTrace(std::move(run.follower));
    if (!run.warnings.empty())
        status += tr("; %1 warnings, the first: %2").arg(run.warnings.size()).arg(QString::fromStdString(run.warnings.front()));
    setStatus(status);
}

void MainWindow::showRank(int rank, const QString& compileId) {
    const QString folder = traceRanks_.folder();
    if (folder.isEmpty() || !traceRanks_.has(rank)) return;
    if (rank == traceRanks_.shownRank()) {
        if (!compileId.isEmpty()) selection_.setCompileId(compileId);
        return;
    }
    loadInBackground<TorchTraceRun>(
        this, [file = folder.toStdString(), rank] { return loadTorchTraceRank(file, rank); },
        [this, folder, compileId](TorchTraceRun run) {
            --loadsPending_;
            status_->setReading(false);
            if (traceRanks_.folder() != folder) return;  // something else was opened meanwhile
            showTorchTrace(folder, std::move(run));
            if (!compileId.isEmpty()) selection_.setCompileId(compileId);
        },
        [this, rank](const QString& error) {
            --loadsPending_;
            status_->setReading(false);
            tell(QMessageBox::Critical, tr("Show Rank"), tr("Cannot read rank %1's log:\n%2").arg(rank).arg(error));
        });
    ++loadsPending_;
    status_->setReading(true);
    setStatus(tr("Reading rank %1's log...").arg(rank));
}

void MainWindow::showProfilerTrace(const QString& path, ProfilerTraceRun run) {
    QString merged = run.executionTrace.empty()
                         ? tr("no execution trace beside it")
                         : tr("its execution trace %1 describes %2 of them").arg(QString::fromStdString(run.executionTrace)).arg(run.opsMerged);
    showOpenedRun(path, tr("# A profiler trace: %1\n# %2 spans; %3.\n").arg(path).arg(run.spans).arg(merged), std::move(run.events), {});
    setTitle(tr("%1 (profiler trace)").arg(QFileInfo(path).fileName()));
    setStatus(tr("Opened profiler trace %1: %2 spans").arg(QFileInfo(path).fileName()).arg(run.spans));
    showView("trace");
    followProfilerTrace(path);
}

// Following.

namespace {
constexpr int kFollowIntervalMs = 100;  // a record shows well within a second of being written
}

void MainWindow::followTorchTrace(std::shared_ptr<TraceLogFollower> follower) {
    stopFollowing();
    follow_ = new BackgroundPoll(
        [this, follower]() -> BackgroundPoll::Found {  // on a worker thread
            try {
                if (follower->poll() == TraceLogFollower::Change::None) return {};
                auto run = std::make_shared<TorchTraceRun>(torchTraceRunOf(*follower));
                return [this, run] {
                    const size_t compiles = run->compiles;
                    showFollowedRun(std::move(run->events), QString::fromStdString(run->firstCompile));
                    setStatus(tr("%1 read on as its program writes it: %2 compiles, %3 events")
                                  .arg(QFileInfo(QString::fromStdString(run->logPath)).fileName())
                                  .arg(compiles)
                                  .arg(store_.eventCount()));
                };
            } catch (const Error& e) {
                return [this, error = QString::fromUtf8(e.what())] {
                    stopFollowing();
                    setStatus(tr("Stopped following: %1").arg(error));
                };
            }
        },
        kFollowIntervalMs, this);
    status_->setFollowing(QFileInfo(QString::fromStdString(follower->logPath())).fileName());
}

void MainWindow::followProfilerTrace(const QString& path) {
    stopFollowing();
    // Read again whole when its size or time changed; a trace still being written (not JSON
    // yet) is read again when it changes next.
    auto seen = std::make_shared<std::pair<qint64, QDateTime>>(QFileInfo(path).size(), QFileInfo(path).lastModified());
    follow_ = new BackgroundPoll(
        [this, path, seen]() -> BackgroundPoll::Found {
            QFileInfo now(path);
            if (!now.exists() || (now.size() == seen->first && now.lastModified() == seen->second)) return {};
            *seen = {now.size(), now.lastModified()};
            try {
                auto run = std::make_shared<ProfilerTraceRun>(loadProfilerTrace(path.toStdString()));
                return [this, path, run] {
                    showFollowedRun(std::move(run->events), {});
                    setStatus(tr("%1 read again as its program wrote it: %2 spans").arg(QFileInfo(path).fileName()).arg(run->spans));
                };
            } catch (const Error&) {
                return {};
            }
        },
        kFollowIntervalMs, this);
    status_->setFollowing(QFileInfo(path).fileName());
}

void MainWindow::showFollowedRun(RunEvents events, const QString& firstCompile) {
    const QString shown = selection_.compileId();
    store_.replace(std::move(events));
    if (shown.isEmpty()) selection_.setCompileId(firstCompile);
    else selection_.refreshCompile();  // the compile on show stays, with what it gained
}

void MainWindow::stopFollowing() {
    if (follow_) follow_->deleteLater();  // maybe from within its own callback
    follow_ = nullptr;
    status_->setFollowing({});
}

void MainWindow::forgetOpenedTrace() {
    stopFollowing();
    traceRanks_.clear();  // a distributed run's folder says its ranks again
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) { acceptOpenableDrag(*event); }

void MainWindow::dropEvent(QDropEvent* event) {
    if (QString path = takeDroppedFile(*event); !path.isEmpty()) openFile(path);
}

// Exporting.

bool MainWindow::hasBundleToExport() {
    if (!bundlePath_.isEmpty() && QFile::exists(bundlePath_)) return true;
    tell(QMessageBox::Information, tr("Export Bundle"),
         tr("There is no bundle yet: run the script first (a run that is still going, or whose engine died, has none)."));
    return false;
}

bool MainWindow::exportBundle(const QString& path) {
    if (!hasBundleToExport()) return false;
    const QString torchLog = torchSide_.shownLog();
    if (QString error = torchLog.isEmpty() ? copyBundle(bundlePath_, path) : writeBundleWithTorchSide(bundlePath_, torchLog, path); !error.isEmpty()) {
        tell(QMessageBox::Warning, tr("Export Bundle"), error);
        return false;
    }
    setStatus(torchLog.isEmpty() ? tr("Exported the bundle to %1").arg(path) : tr("Exported the bundle, with PyTorch's side, to %1").arg(path));
    return true;
}

bool MainWindow::exportPerfettoTrace(const QString& path) {
    const QString title = tr("Export Trace for Perfetto");
    if (store_.traces().size() == 0) {
        tell(QMessageBox::Information, title, tr("There are no spans yet: run the script (every run is traced), or open a TORCH_TRACE "
                                                  "folder (its compile timeline) or a profiler trace."));
        return false;
    }
    if (QString error = writeChromeTrace(store_.traces(), path); !error.isEmpty()) {
        tell(QMessageBox::Warning, title, error);
        return false;
    }
    setStatus(tr("Exported %n span(s) to %1: open it in ui.perfetto.dev or chrome://tracing", nullptr, static_cast<int>(store_.traces().size()))
                  .arg(path));
    return true;
}

bool MainWindow::exportGraphImage(const QString& path) {
    QString error;
    if (graphView()->exportImage(path, &error)) return true;
    tell(QMessageBox::Warning, tr("Export Graph Image"), error);
    return false;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!scriptFile_->mayClose(!nonInteractive_)) {
        event->ignore();
        return;
    }
    layout_->save();
    engine_.shutdown();
    event->accept();
}

}  // namespace fusescope::gui
