#include "window/main_window.h"

#include <algorithm>
#include <utility>
#include <cstdio>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QScopeGuard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QSaveFile>
#include <QStandardPaths>
#include <QTimer>
#include <QDir>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QDragEnterEvent>
#include <QMimeData>
#include <QProgressBar>
#include <QRegularExpression>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyle.h>

#include "bundle/bundle_reader.h"
#include "bundle/bundle_torch_side.h"
#include "bundle/bundle_writer.h"
#include "core/error.h"
#include "model/json_fields.h"
#include "model/script_notes.h"
#include "model/profiler_trace_run.h"
#include "model/torch_trace_run.h"
#include "panes/code_pane.h"
#include "panes/compare_pane.h"
#include "panes/minify_pane.h"
#include "panes/torch_compare_pane.h"
#include "panes/trace_pane.h"
#include "panes/compiles_pane.h"
#include "views/stack_trie_view.h"
#include "panes/fusion_pane.h"
#include "panes/graph_breaks_pane.h"
#include "panes/graph_pane.h"
#include "panes/modules_pane.h"
#include "panes/guards_pane.h"
#include "panes/ir_pane.h"
#include "panes/logs_pane.h"
#include "panes/output_pane.h"
#include "selection/script_selection.h"
#include "timeline/trace_view.h"
#include "views/code_view.h"
#include "views/compare_view.h"
#include "views/torch_compare_view.h"
#include "views/find_bar.h"
#include "views/fusion_stepper.h"
#include "views/graph_view.h"
#include "views/script_tabs.h"
#include "window/docks.h"
#include "window/edit_menu.h"
#include "window/editor_room.h"
#include "window/load_in_background.h"
#include "window/minify_controller.h"
#include "window/preferences_dialog.h"
#include "window/recent_files.h"
#include "window/run_options.h"
#include "window/saved_layout.h"
#include "window/view_presets.h"

namespace fusescope::gui {

namespace {

// What each event says the engine is doing, for the status bar.
QString stageOf(const Event& event) {
    if (std::holds_alternative<CompileStartedEvent>(event)) return QObject::tr("capture");
    if (std::holds_alternative<GraphCapturedEvent>(event)) return QObject::tr("decompose");
    if (std::holds_alternative<KernelSourceEvent>(event)) return QObject::tr("run");
    const auto* ir = std::get_if<IrDumpEvent>(&event);
    if (!ir) return {};
    if (ir->stage == "fx_graph_transformed") return QObject::tr("lower");
    if (ir->stage == "ir_pre_fusion") return QObject::tr("schedule");
    if (ir->stage == "ir_post_fusion") return QObject::tr("codegen");
    return {};
}

// Compile phases are traced when they end, so the end of codegen means the C++ compiler is
// running.
QString stageOf(const TraceLog& traces, const TraceSpanRecord& span) {
    return span.category == SpanCategory::Compile && traces.nameOf(span).starts_with("codegen ") ? QObject::tr("compile") : QString();
}

// Whether the file starts as a zip archive does (a bundle saved without its extension).
bool isZipFile(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) && file.read(4) == QByteArray("PK\x03\x04", 4);
}

}  // namespace

MainWindow::MainWindow(const QString& cliPath, QWidget* parent)
    : QMainWindow(parent), engine_(cliPath) {
    setWindowTitle(tr("Fusescope") + "[*]");  // [*]: the unsaved-edits marker
    if (QVariant limit = QSettings().value("engine/memoryLimitMiB"); limit.isValid())  // 0: none
        engine_.setMemoryLimitMiB(limit.toLongLong());
    editor_ = new QsciScintilla(this);
    configureCodeEditor(*editor_, CodeView::Language::Python);
    scriptTabs_ = new ScriptTabs(editor_, &store_, this);
    auto* editing = new QWidget(this);  // the editor tabs over their find bar
    auto* column = new QVBoxLayout(editing);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(scriptTabs_, 1);
    findBar_ = new FindBar(scriptTabs_, editing);
    column->addWidget(findBar_);
    setCentralWidget(editing);
    connect(editor_, &QsciScintilla::modificationChanged, this, &QWidget::setWindowModified);
    scriptSelection_ = new ScriptSelection(scriptTabs_, &selection_, this);
    docks_ = std::make_unique<Docks>(this, &selection_, &engine_, &torchSide_);
    buildActions();
    status_ = new QLabel(tr("Ready"), this);
    statusBar()->addWidget(status_, 1);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 0);  // busy: the engine does not say how far a run has got
    progress_->setMaximumWidth(160);
    cancel_ = new QToolButton(this);
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop the run at its next statement (Esc)"));
    cancel_->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(cancel_, &QToolButton::clicked, this, [this] {
        if (engine_.activeRun()) engine_.cancel(engine_.activeRun());
    });
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    setBusy(false);
    annotateTimer_.setSingleShot(true);
    annotateTimer_.setInterval(150);
    connect(&annotateTimer_, &QTimer::timeout, this, &MainWindow::annotateScript);
    setAcceptDrops(true);
    editor_->viewport()->installEventFilter(this);  // Scintilla would paste a dropped file's path

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
    connect(&store_, &RunStore::eventAppended, this, &MainWindow::onStored);  // after the panes' models
    connect(&store_, &RunStore::traceAppended, this, [this](int record) {
        const TraceLog& traces = store_.traces();
        if (QString stage = stageOf(traces, traces.records()[static_cast<size_t>(record)]); !stage.isEmpty())
            setStatus(tr("Running: %1").arg(stage));
    });
    connect(&selection_, &SelectionContext::nodeChanged, this, &MainWindow::showSelectedKernel);
    connect(&selection_, &SelectionContext::sourceLineRequested, this, &MainWindow::showSourceLine);
    connect(&selection_, &SelectionContext::fixRequested, this, &MainWindow::applyFixAndRun);

    connectTorchSide();
    buildViewMenu();  // after the docks exist
    layout_ = new SavedLayout(this, editor_);
    new EditorRoom(this, centralWidget());
    connect(layout_, &SavedLayout::resetForNotFitting, this,
            [this] { setStatus(tr("The saved window layout did not fit this screen: the default layout is back.")); });

    // An edited script is never lost: it is copied aside every few seconds while it differs
    // from what was last saved, and the next start restores it.
    restoreAutosave();
    auto* autosave = new QTimer(this);
    connect(autosave, &QTimer::timeout, this, &MainWindow::autosave);
    autosave->start(3000);
}

QString MainWindow::autosavePath() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath("autosave.py");
}

void MainWindow::autosave() {
    if (!editor_->isModified()) return;
    QDir().mkpath(QFileInfo(autosavePath()).path());
    QSaveFile file(autosavePath());
    if (file.open(QIODevice::WriteOnly) && file.write(editor_->text().toUtf8()) >= 0 && file.commit())
        QSettings().setValue("autosave/scriptPath", scriptPath_);
}

void MainWindow::restoreAutosave() {
    QFile file(autosavePath());
    if (!file.open(QIODevice::ReadOnly)) return;
    editor_->setText(QString::fromUtf8(file.readAll()));
    editor_->setModified(true);
    scriptPath_ = QSettings().value("autosave/scriptPath").toString();
    QTimer::singleShot(0, this, [this] { setStatus(tr("Restored the unsaved script of the last session")); });
}

void MainWindow::discardAutosave() {
    QFile::remove(autosavePath());
    editor_->setModified(false);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open Script, Bundle or Trace Log..."), QKeySequence::Open, this, [this] {
        QString path = QFileDialog::getOpenFileName(this, tr("Open"), {},
                                                    tr("Scripts, bundles, PyTorch trace logs and profiler traces (*.py *.fscope *.log *.json)"));
        if (!path.isEmpty()) openFile(path);
    });
    file->addAction(tr("Open PyTorch &Trace Folder..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this, [this] {
        QString path = QFileDialog::getExistingDirectory(this, tr("Open the folder TORCH_TRACE named"));
        if (!path.isEmpty()) openFile(path);
    });
    file->addAction(tr("Open PyTorch Trace &Beside..."), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O), this, [this] {
        QString path = QFileDialog::getExistingDirectory(this, tr("The TORCH_TRACE folder of a PyTorch run of this script"));
        if (!path.isEmpty()) openTorchTraceBeside(path);
    });
    recent_ = new RecentFiles(file->addMenu(tr("Open &Recent")), this);
    connect(recent_, &RecentFiles::openRequested, this, &MainWindow::openFile);
    file->addAction(tr("&Save Script"), QKeySequence::Save, this, [this] { saveScript(); });
    file->addAction(tr("Save Script &As..."), QKeySequence::SaveAs, this, [this] { saveScript(true); });
    file->addAction(tr("E&xport Bundle..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), this, [this] {
        if (bundlePath_.isEmpty() || !QFile::exists(bundlePath_)) {
            tell(QMessageBox::Information, tr("Export Bundle"), tr("There is no bundle yet: run the script first (a run that is still going, or whose engine died, has none)."));
            return;
        }
        QString path = QFileDialog::getSaveFileName(this, tr("Export Bundle"), {}, tr("Trace bundles (*.fscope)"));
        if (!path.isEmpty()) exportBundle(QFileInfo(path).suffix().isEmpty() ? path + ".fscope" : path);
    });
    file->addAction(tr("Export Trace for &Perfetto..."), this, [this] {
        QString path = QFileDialog::getSaveFileName(this, tr("Export Trace for Perfetto"), {}, tr("Chrome trace JSON (*.json)"));
        if (!path.isEmpty()) exportPerfettoTrace(QFileInfo(path).suffix().isEmpty() ? path + ".json" : path);
    });
    file->addAction(tr("&Export Graph Image..."), this, [this] {
        QString filter;
        QString path = QFileDialog::getSaveFileName(this, tr("Export Graph Image"), {}, tr("PNG image (*.png);;SVG drawing (*.svg)"), &filter);
        if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty()) path += filter.contains("svg") ? ".svg" : ".png";  // the format the filter named
        QString error;
        if (!path.isEmpty() && !graphView()->exportImage(path, &error)) tell(QMessageBox::Warning, tr("Export Graph Image"), error);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

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
        setBusy(false);
        annotateTimer_.stop();
        annotateScript();
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
    connect(minifier_, &MinifyController::finished, this, [this] { setBusy(false); });
}

void MainWindow::buildViewMenu() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    // Every dock can be closed; this is how it comes back.
    for (QDockWidget* d : findChildren<QDockWidget*>()) view->addAction(d->toggleViewAction());
    view->addSeparator();
    view->addAction(tr("&Reset Layout"), this, [this] { layout_->reset(); });
    QMenu* language = view->addMenu(tr("&Language"));
    auto* group = new QActionGroup(language);
    const QString current = QSettings().value("ui/language").toString();
    for (const auto& [code, name] : {std::pair<QString, QString>{"", tr("System default")}, {"en", "English"}, {"zh_CN", "中文（简体）"}}) {
        QAction* a = language->addAction(name);
        a->setCheckable(true);
        a->setChecked(code == current);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, code] {
            QSettings().setValue("ui/language", code);
            setStatus(tr("The language changes at the next start."));
        });
    }
}

void MainWindow::connectTorchSide() {
    connect(&torchSide_, &TorchSide::progress, this, &MainWindow::setStatus);
    connect(&torchSide_, &TorchSide::loaded, this, [this](const QString& description) { setStatus(tr("PyTorch's side: %1").arg(description)); });
    connect(&torchSide_, &TorchSide::failed, this, [this](const QString& message) {
        docks_->output->appendMessage(tr("PyTorch's side: %1").arg(message));
        setStatus(tr("PyTorch's side failed: %1").arg(message.section('\n', 0, 0)));
    });
}

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

void MainWindow::showSourceLine(const QString& file, int line) {
    if (!scriptTabs_->showLine(file, line) && line > 0)
        setStatus(tr("%1 is not among the files of this run").arg(file));
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

bool MainWindow::openFile(const QString& path) {
    if (path.endsWith(".fscope", Qt::CaseInsensitive) || isZipFile(path)) return openBundle(path);  // a bundle by any name
    if (isTorchTracePath(path.toStdString())) return openTorchTrace(path);
    if (path.endsWith(".json", Qt::CaseInsensitive)) return openProfilerTrace(path);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        tell(QMessageBox::Warning, tr("Open Script"), tr("Cannot open %1: %2").arg(path, file.errorString()));
        return false;
    }
    // What was on show (a run, a bundle, a TORCH_TRACE folder) belongs to another file.
    showOpenedRun(path, QString::fromUtf8(file.readAll()), RunEvents{});
    scriptPath_ = path;
    runFileName_ = QFileInfo(path).fileName();
    scriptTabs_->setScriptFile(runFileName_);
    editor_->clearAnnotations();
    setWindowTitle(tr("Fusescope - %1").arg(QFileInfo(path).fileName()) + "[*]");
    setStatus(tr("Opened %1").arg(QFileInfo(path).fileName()));
    return true;
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

bool MainWindow::exportBundle(const QString& path) {
    if (!torchSide_.shownLog().isEmpty()) return exportBundleWithTorchSide(path);
    if (QFileInfo(path).absoluteFilePath() == QFileInfo(bundlePath_).absoluteFilePath()) return true;
    // Copy under a temporary name, then rename: the target is never left half written.
    QString partial = path + ".part";
    QFile::remove(partial);
    if (!QFile::copy(bundlePath_, partial) || (QFile::exists(path) && !QFile::remove(path)) || !QFile::rename(partial, path)) {
        QFile::remove(partial);
        tell(QMessageBox::Warning, tr("Export Bundle"), tr("Cannot write %1.").arg(path));
        return false;
    }
    setStatus(tr("Exported the bundle to %1").arg(path));
    return true;
}

bool MainWindow::exportPerfettoTrace(const QString& path) {
    const QString title = tr("Export Trace for Perfetto");
    if (store_.traces().size() == 0) {
        tell(QMessageBox::Information, title, tr("There are no spans yet: run the script (every run is traced), or open a TORCH_TRACE "
                                                  "folder (its compile timeline) or a profiler trace."));
        return false;
    }
    QSaveFile file(path);
    std::string text = chromeTraceText(store_.traces());
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) ||
        !file.commit()) {
        tell(QMessageBox::Warning, title, tr("Cannot write %1: %2").arg(path, file.errorString()));
        return false;
    }
    setStatus(tr("Exported %n span(s) to %1: open it in ui.perfetto.dev or chrome://tracing", nullptr, static_cast<int>(store_.traces().size()))
                  .arg(path));
    return true;
}

// The run's bundle with PyTorch's side on show added (bundle/bundle_torch_side.h), written
// anew (atomically, so exporting onto the bundle it came from is safe).
bool MainWindow::exportBundleWithTorchSide(const QString& path) {
    try {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        auto restoreCursor = qScopeGuard([] { QApplication::restoreOverrideCursor(); });
        std::map<std::string, std::string> entries = readBundle(bundlePath_.toStdString(), {}, BundleEvents::Unparsed).files;
        putTorchSide(entries, torchSide_.shownLog().toStdString());
        writeBundle(path.toStdString(), std::move(entries));
    } catch (const Error& e) {
        tell(QMessageBox::Warning, tr("Export Bundle"), tr("Cannot write %1: %2").arg(path, QString::fromStdString(e.what())));
        return false;
    }
    setStatus(tr("Exported the bundle, with PyTorch's side, to %1").arg(path));
    return true;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile() && (QRegularExpression(R"(\.(py|fscope|json)$)", QRegularExpression::CaseInsensitiveOption).match(url.toLocalFile()).hasMatch() ||
                                  isTorchTracePath(url.toLocalFile().toStdString()))) {
            event->acceptProposedAction();
            return;
        }
}

void MainWindow::dropEvent(QDropEvent* event) {
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile()) {
            event->acceptProposedAction();
            openFile(url.toLocalFile());
            return;
        }
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if (watched == editor_->viewport() && (event->type() == QEvent::DragEnter || event->type() == QEvent::Drop)) {
        auto* drop = static_cast<QDropEvent*>(event);
        if (drop->mimeData()->hasUrls()) {
            if (event->type() == QEvent::DragEnter) dragEnterEvent(static_cast<QDragEnterEvent*>(event));
            else dropEvent(drop);
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
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
    showOpenedRun(path, QString::fromStdString(bundle.script), std::move(run));
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
    runFileName_ = QString::fromStdString(bundle.manifest.scriptPath.empty() ? bundle.manifest.script : bundle.manifest.scriptPath);
    scriptTabs_->setScriptFile(runFileName_);
    annotateScript();
    setWindowTitle(tr("Fusescope - %1 (bundle)").arg(QFileInfo(path).fileName()) + "[*]");
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
            progress_->setVisible(false);
            (this->*show)(path, std::move(run));
            if (!viewOnceOpened_.isEmpty()) showView(std::exchange(viewOnceOpened_, {}));
        },
        [this, path, title](const QString& error) {
            --loadsPending_;
            progress_->setVisible(false);
            setStatus(tr("Cannot open %1").arg(path));
            tell(QMessageBox::Critical, title, tr("Cannot open %1:\n%2").arg(path, error));
        });
    ++loadsPending_;
    progress_->setVisible(true);
    setStatus(opening);
}

bool MainWindow::viewsReady() const {
    if (engine_.activeRun() || loadsPending_ > 0 || torchSide_.isBusy() || traceView()->indexPending()) return false;
    // Views that redo themselves once per burst of events, a moment after it.
    if (annotateTimer_.isActive() || torchCompareView()->rebuildPending() || docks_->compiles->stackTrie()->rebuildPending()) return false;
    const QList<GraphView*> graphs = findChildren<GraphView*>();
    return std::none_of(graphs.begin(), graphs.end(), [](const GraphView* g) { return g->layoutPending(); });
}

void MainWindow::showViewOnceOpened(const QString& view) {
    if (loadsPending_ > 0) viewOnceOpened_ = view;
    else showView(view);
}

bool MainWindow::openTorchTrace(const QString& path) {
    openInBackground<TorchTraceRun>(path, tr("Open PyTorch Trace"), tr("Opening PyTorch trace %1...").arg(QFileInfo(path).fileName()),
                                    &loadTorchTraceRun, &MainWindow::showTorchTrace);
    return true;
}

void MainWindow::showTorchTrace(const QString& path, TorchTraceRun run) {
    QString program = QString::fromStdString(run.program);
    QString text = run.programText.empty()
                       ? tr("# A TORCH_TRACE log of PyTorch %1: %2\n# Its program, %3, is not on this machine.\n")
                             .arg(QString::fromStdString(run.torchVersion), QString::fromStdString(run.logPath), program)
                       : QString::fromStdString(run.programText);
    showOpenedRun(path, text, std::move(run.events));
    selection_.setCompileId(QString::fromStdString(run.firstCompile));  // its graph, IR and code on show at once
    runFileName_ = program;  // the events name the program's file as the log does
    scriptTabs_->setScriptFile(runFileName_);
    annotateScript();
    setWindowTitle(tr("Fusescope - %1 (PyTorch trace)").arg(QFileInfo(QString::fromStdString(run.logPath)).fileName()) + "[*]");
    QString status = tr("Opened PyTorch trace %1: %2 compiles, %3 events").arg(QFileInfo(path).fileName()).arg(run.compiles).arg(store_.eventCount());
    if (!run.warnings.empty())
        status += tr("; %1 warnings, the first: %2").arg(run.warnings.size()).arg(QString::fromStdString(run.warnings.front()));
    setStatus(status);
}

void MainWindow::showOpenedRun(const QString& path, const QString& editorText, RunEvents events) {
    editor_->setText(editorText);
    scriptPath_.clear();
    discardAutosave();
    store_.replace(std::move(events));  // the panes reload
    selection_.setCompileId({});  // of the run before: the caller picks this run's first, if any
    bundlePath_.clear();
    recent_->add(path);
}

bool MainWindow::openProfilerTrace(const QString& path) {
    openInBackground<ProfilerTraceRun>(path, tr("Open Profiler Trace"), tr("Opening profiler trace %1...").arg(QFileInfo(path).fileName()),
                                       &loadProfilerTrace, &MainWindow::showProfilerTrace);
    return true;
}

void MainWindow::showProfilerTrace(const QString& path, ProfilerTraceRun run) {
    QString merged = run.executionTrace.empty()
                         ? tr("no execution trace beside it")
                         : tr("its execution trace %1 describes %2 of them").arg(QString::fromStdString(run.executionTrace)).arg(run.opsMerged);
    showOpenedRun(path, tr("# A profiler trace: %1\n# %2 spans; %3.\n").arg(path).arg(run.spans).arg(merged), std::move(run.events));
    runFileName_.clear();
    setWindowTitle(tr("Fusescope - %1 (profiler trace)").arg(QFileInfo(path).fileName()) + "[*]");
    setStatus(tr("Opened profiler trace %1: %2 spans").arg(QFileInfo(path).fileName()).arg(run.spans));
    showView("trace");
}

bool MainWindow::saveScript(bool choosePath) {
    QString path = scriptPath_;
    if (path.isEmpty() || choosePath)
        path = QFileDialog::getSaveFileName(this, choosePath ? tr("Save Script As") : tr("Save Script"), scriptPath_, tr("Scripts (*.py)"));
    if (path.isEmpty()) return false;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(editor_->text().toUtf8()) < 0) {
        tell(QMessageBox::Warning, tr("Save Script"), tr("Cannot write %1: %2").arg(path, file.errorString()));
        return false;
    }
    if (path != scriptPath_) setWindowTitle(tr("Fusescope - %1").arg(QFileInfo(path).fileName()) + "[*]");
    scriptPath_ = path;
    discardAutosave();
    setStatus(tr("Saved %1").arg(path));
    return true;
}

RunRequest MainWindow::scriptRequest(bool withLogs) const {
    // The saved script's whole path: its own modules beside it are found as Python finds them.
    return options_->request(editor_->text(), scriptPath_.isEmpty() ? QString("script.py") : scriptPath_, withLogs);
}

void MainWindow::runScript() {
    store_.clear();
    selection_.setCompileId({});
    minifier_->runStarted();
    RunRequest request = scriptRequest(true);
    // Every run leaves its bundle behind, so File > Export Bundle has it when it ends.
    QString runs = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + "/runs";
    QDir().mkpath(runs);
    request.bundle = runs + "/last-run.fscope";
    bundlePath_.clear();
    runFileName_ = request.fileName;
    scriptTabs_->setScriptFile(runFileName_);
    editor_->clearAnnotations();
    runRequest_ = engine_.run(request);
    if (options_->runUnderTorch()) torchSide_.run(request.script, request.fileName);
    setBusy(true);
    setStatus(tr("Running %1...").arg(QFileInfo(request.fileName).fileName()));
}

void MainWindow::minifyFailure() {
    if (engine_.activeRun() || !minifier_->start(scriptRequest())) return;
    docks_->raise("minifyDock");
    setBusy(true);
}

void MainWindow::onStored(int index) {
    const Event& event = store_.at(index);
    minifier_->eventStored(event);
    if (std::holds_alternative<ErrorEvent>(event) || std::holds_alternative<GraphBreakEvent>(event) ||
        std::holds_alternative<RecompileEvent>(event))
        annotateTimer_.start();  // coalesced
    if (QString stage = stageOf(event); !stage.isEmpty()) setStatus(tr("Running: %1").arg(stage));
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
    setBusy(false);
    minifier_->runEnded();
    annotateTimer_.stop();
    annotateScript();
    if (!ok) docks_->output->appendMessage(message);
    QString bundle = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + "/runs/last-run.fscope";
    if (QFile::exists(bundle)) bundlePath_ = bundle;
    setStatus(ok ? tr("Finished: %1 events").arg(store_.eventCount()) : message);
    if (!selection_.compileId().isEmpty()) selection_.refreshCompile();
    options_->showBackendsUsed(store_);
}

void MainWindow::onEngineDied(const QString& description, const QString& running) {
    runRequest_ = 0;
    setBusy(false);
    QString text = running.isEmpty() ? description : tr("%1 while %2").arg(description, running);
    docks_->output->appendMessage(tr("%1. Everything received so far is kept; Restart Engine starts a new one.").arg(text));
    minifier_->abandon(text);
    setStatus(text);
}

void MainWindow::showSelectedKernel(const QString&, const QString& buffer) {
    if (buffer.isEmpty()) return;
    QString kernel = selection_.provenance().kernelOf(buffer);
    setStatus(kernel.isEmpty() ? tr("Selected %1").arg(buffer) : tr("Selected %1 (kernel %2)").arg(buffer, kernel));
}

void MainWindow::setStatus(const QString& text) { status_->setText(text); }

bool MainWindow::setBackend(const QString& name) { return options_->setBackend(name); }
QString MainWindow::backendText() const { return options_->backendText(); }
void MainWindow::setCheckAccuracy(bool on) { options_->setCheckAccuracy(on); }
void MainWindow::setGpuCodegenOnly(bool on) { options_->setGpuCodegenOnly(on); }

bool MainWindow::showView(const QString& view) {
    if (view != "minify") return showPresetView(view, *docks_, selection_);
    // Minify the run's failure once; a later call (its answer) only shows the result.
    if (docks_->minify->repro().isEmpty() && !minifier_->isRunning()) minifyFailure();  // does nothing without a failure
    return docks_->raise("minifyDock");
}

void MainWindow::setBusy(bool busy) {
    progress_->setVisible(busy);
    cancel_->setVisible(busy);
}

void MainWindow::annotateScript() {
    static const QsciStyle error(-1, "error", QColor(150, 0, 0), QColor(255, 230, 230), editor_->font());
    static const QsciStyle graphBreak(-1, "graph break", QColor(120, 70, 0), QColor(255, 243, 214), editor_->font());
    static const QsciStyle recompile(-1, "recompile", QColor(0, 70, 140), QColor(228, 239, 255), editor_->font());
    for (QsciScintilla* editor : scriptTabs_->editors()) {  // the script's and its modules'
        editor->clearAnnotations();
        QMap<int, QList<ScriptNote>> byLine;
        for (const ScriptNote& note : scriptNotes(store_, scriptTabs_->fileOf(editor))) byLine[note.line].append(note);
        for (auto it = byLine.begin(); it != byLine.end(); ++it) {
            QStringList texts;
            for (const ScriptNote& note : it.value()) texts << note.text;
            // The most serious note colours the whole annotation.
            auto worst = std::min_element(it.value().begin(), it.value().end(),
                                          [](const ScriptNote& a, const ScriptNote& b) { return a.kind < b.kind; })->kind;
            const QsciStyle& style = worst == ScriptNote::Kind::Error ? error : worst == ScriptNote::Kind::GraphBreak ? graphBreak : recompile;
            editor->annotate(it.key() - 1, texts.join('\n'), style);
        }
        editor->setAnnotationDisplay(QsciScintilla::AnnotationBoxed);
    }
}

QString MainWindow::statusText() const { return status_->text(); }

QStringList MainWindow::recentFiles() const { return recent_->paths(); }

void MainWindow::closeEvent(QCloseEvent* event) {
    // An edit made since the last autosave would be lost: ask (the autosave timer runs every 3 s).
    if (editor_->isModified() && !nonInteractive_) {
        const QString name = scriptPath_.isEmpty() ? QString("script.py") : QFileInfo(scriptPath_).fileName();
        auto answer = QMessageBox::question(this, tr("Save Changes"), tr("Save the changes to %1 before closing?").arg(name),
                                            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        if (answer == QMessageBox::Cancel || (answer == QMessageBox::Save && !saveScript())) {
            event->ignore();
            return;
        }
        if (answer == QMessageBox::Discard) discardAutosave();
    }
    layout_->save();
    engine_.shutdown();
    event->accept();
}

}  // namespace fusescope::gui
