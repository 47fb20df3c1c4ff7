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
#include "views/minify_panel.h"
#include "views/script_tabs.h"
#include "window/edit_menu.h"
#include "window/editor_room.h"
#include "window/load_in_background.h"
#include "window/preferences_dialog.h"
#include "window/recent_files.h"
#include "window/saved_layout.h"
#include "window/toolbar_rows.h"

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

// explain_fusion's answer in words (docs/protocol.md).
QString explanationText(const nlohmann::json& result) {
    QString n1 = qstringField(result, "node1"), n2 = qstringField(result, "node2"), reason = qstringField(result, "reason");
    bool fused = result.value("fused", false) == true;
    if (fused) return QObject::tr("%1 and %2 are one kernel (%3): %4").arg(n1, n2, qstringField(result, "kernel1"), reason);
    return QObject::tr("%1 and %2 are separate kernels: %3").arg(n1, n2, reason);
}

QDockWidget* dock(QMainWindow* window, const QString& title, const QString& objectName, QWidget* content,
                  Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, window);
    d->setObjectName(objectName);  // saveState() keys docks by object name
    d->setWidget(content);
    window->addDockWidget(area, d);
    return d;
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
    buildActions();
    buildDocks();
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

    connect(&engine_, &EngineClient::eventReceived, this, &MainWindow::onEvent);
    connect(&engine_, &EngineClient::answered, this, [this](int id, const nlohmann::json& result) {
        if (id == explainRequest_) fusionStepper()->showExplanation(explanationText(result));
        else if (id == minifyRequest_) onMinifyFinished(&result, {});
        else if (id > 0) onRunFinished(true, {});
    });
    connect(&engine_, &EngineClient::failed, this, [this](int id, const QString& code, const QString& message) {
        QString shown = code == "cancelled" ? tr("Stopped: %1").arg(message) : message;
        if (message.contains("not enough memory") && engine_.memoryLimitMiB() > 0)
            shown += tr(" (the engine may take %1 MiB, its memory limit; what the run produced before is kept)")
                         .arg(engine_.memoryLimitMiB());
        if (id == explainRequest_) fusionStepper()->showExplanation(message);
        else if (id == minifyRequest_) onMinifyFinished(nullptr, shown);
        else onRunFinished(false, shown);
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
        setBusy(false);
        annotateTimer_.stop();
        annotateScript();
        if (minifyRequest_) minify_->showFailure(tr("the engine was restarted"));
        minifyRequest_ = 0;
        setStatus(tr("Engine restarted"));
    });
    restart->setObjectName("restartEngine");
    bar->addSeparator();
    checkAccuracy_ = bar->addAction(tr("Check Accuracy"));
    checkAccuracy_->setCheckable(true);
    checkAccuracy_->setToolTip(tr("Compare every compiled graph's outputs with eager and log the first element that "
                                  "differs (--check-accuracy)"));
    runUnderTorch_ = bar->addAction(tr("Run Under PyTorch Too"));
    runUnderTorch_->setCheckable(true);
    runUnderTorch_->setChecked(QSettings().value("torch/alsoRun", false).toBool());
    runUnderTorch_->setToolTip(tr("Also run the script under real PyTorch (the Python in Edit > Preferences) with TORCH_TRACE, "
                                  "and pair its compiles with ours in the Ours vs PyTorch view"));
    // Kept when the user flips it; --under-torch is for one session.
    connect(runUnderTorch_, &QAction::triggered, this, [](bool on) { QSettings().setValue("torch/alsoRun", on); });
    minifyAction_ = bar->addAction(tr("Minify"), this, &MainWindow::minifyFailure);
    minifyAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    minifyAction_->setToolTip(tr("Shrink the compiled graph that failed to the smallest graph that still fails, and "
                                 "write it as a repro script (Ctrl+M)"));
    minifyAction_->setEnabled(false);
    // What a run is made with: a toolbar of its own, under the first where the window is narrow.
    bar = addToolBar(tr("Run Options"));
    bar->setObjectName("runOptionsToolBar");
    bar->addWidget(new QLabel(tr("Backend:"), this));
    backend_ = new QComboBox(this);
    backend_->addItem(tr("as the script says"), QString());
    // Bisect a wrong result by going down the list: the first backend that gets it right is
    // one stage before the broken one (docs/debugging.md). The last four inject errors.
    for (const char* name : {"inductor", "aot_eager_decomp_partition", "aot_eager", "eager", "eager_noexcept",
                             "relu_compile_error_TESTING_ONLY", "relu_runtime_error_TESTING_ONLY",
                             "relu_accuracy_error_TESTING_ONLY", "non_leaf_compile_error_TESTING_ONLY"})
        backend_->addItem(name, QString(name));
    bar->addWidget(backend_);
    bar->addWidget(new QLabel(tr("Device:"), this));
    device_ = new QComboBox(this);
    device_->addItem("cpu", QString("cpu"));
    device_->addItem(tr("cuda (GPU code only)"), QString("cuda-codegen"));
    device_->setToolTip(tr("cuda (GPU code only): the script's cuda tensors run on the CPU, and every compiled graph's "
                           "CUDA kernels are generated and compiled to PTX"));
    bar->addWidget(device_);
    bar->addWidget(new QLabel(tr("Logs:"), this));
    logSpec_ = new QLineEdit(QSettings().value("run/logs", "graph_breaks,recompiles,guards").toString(), this);
    logSpec_->setToolTip(tr("What to log, as TORCH_LOGS: e.g. +dynamo,recompiles,fusion"));
    logSpec_->setMaximumWidth(260);
    bar->addWidget(logSpec_);
    new ToolBarRows(this, findChild<QToolBar*>("runToolBar"), bar);
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

void MainWindow::buildDocks() {
    compiles_ = new CompilesPane(&selection_, this);
    QDockWidget* compilesDock = dock(this, tr("Compiles"), "compilesDock", compiles_, Qt::LeftDockWidgetArea);

    graph_ = new GraphPane(&selection_, this);
    QDockWidget* graphDock = dock(this, tr("Graph"), "graphDock", graph_, Qt::RightDockWidgetArea);

    minify_ = new MinifyPanel(this);
    QDockWidget* minifyDock = dock(this, tr("Minify"), "minifyDock", minify_, Qt::RightDockWidgetArea);

    fusion_ = new FusionPane(&selection_, this);
    QDockWidget* stepperDock = dock(this, tr("Fusion"), "fusionDock", fusion_, Qt::RightDockWidgetArea);
    tabifyDockWidget(graphDock, stepperDock);
    tabifyDockWidget(graphDock, minifyDock);
    graphDock->raise();
    connect(fusionStepper(), &FusionStepper::explainRequested, this, &MainWindow::explainFusion);

    ir_ = new IrPane(&selection_, this);
    QDockWidget* irDock = dock(this, tr("IR (before | after fusion)"), "irDock", ir_, Qt::BottomDockWidgetArea);

    code_ = new CodePane(&selection_, this);
    QDockWidget* codeDock = dock(this, tr("Generated Code"), "codeDock", code_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(irDock, codeDock);
    irDock->raise();

    QDockWidget* logsDock = dock(this, tr("Logs"), "logsDock", new LogsPane(&selection_, this), Qt::BottomDockWidgetArea);
    tabifyDockWidget(codeDock, logsDock);

    graphBreaks_ = new GraphBreaksPane(&selection_, this);
    QDockWidget* breaksDock = dock(this, tr("Graph Breaks"), "breaksDock", graphBreaks_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(logsDock, breaksDock);
    guards_ = new GuardsPane(&selection_, this);
    QDockWidget* guardsDock = dock(this, tr("Guards"), "guardsDock", guards_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(breaksDock, guardsDock);
    compareView_ = new CompareView(&store_, this);
    QDockWidget* compareDock = dock(this, tr("Compare"), "compareDock", compareView_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(guardsDock, compareDock);
    torchCompare_ = new TorchCompareView(&store_, &torchSide_.store(), this);
    QDockWidget* torchCompareDock = dock(this, tr("Ours vs PyTorch"), "torchCompareDock", torchCompare_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(compareDock, torchCompareDock);
    connect(torchCompare_, &TorchCompareView::compileSelected, &selection_, &SelectionContext::setCompileId);
    connect(&selection_, &SelectionContext::compileChanged, torchCompare_, &TorchCompareView::showCompile);
    traceView_ = new TraceView(&store_, this);
    QDockWidget* traceDock = dock(this, tr("Execution Trace"), "traceDock", traceView_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(torchCompareDock, traceDock);
    connect(traceView_, &TraceView::kernelSelected, &selection_, &SelectionContext::selectKernel);
    irDock->raise();

    // First-run proportions of the default size (a saved layout replaces them): the graph
    // docks get 40% of the width, the IR a good third of the height.
    resize(SavedLayout::defaultSize(*this));
    resizeDocks({graphDock}, {width() * 2 / 5}, Qt::Horizontal);
    resizeDocks({irDock}, {height() * 9 / 25}, Qt::Vertical);

    output_ = new OutputPane(&selection_, this);
    QDockWidget* outputDock = dock(this, tr("Output"), "outputDock", output_, Qt::LeftDockWidgetArea);
    splitDockWidget(compilesDock, outputDock, Qt::Vertical);
    modules_ = new ModulesPane(&selection_, this);
    QDockWidget* modulesDock = dock(this, tr("Modules"), "modulesDock", modules_, Qt::LeftDockWidgetArea);
    splitDockWidget(compilesDock, modulesDock, Qt::Vertical);
    resizeDocks({compilesDock}, {std::max(300, width() * 24 / 100)}, Qt::Horizontal);  // the compiles' six columns and a name
}

void MainWindow::connectTorchSide() {
    connect(&torchSide_, &TorchSide::progress, this, [this](const QString& text) {
        torchCompare_->setTorchSource(text);
        setStatus(text);
    });
    connect(&torchSide_, &TorchSide::loaded, this, [this](const QString& description) {
        torchCompare_->setTorchSource(description);
        setStatus(tr("PyTorch's side: %1").arg(description));
    });
    connect(&torchSide_, &TorchSide::failed, this, [this](const QString& message) {
        torchCompare_->setTorchSource(tr("PyTorch's side failed: %1").arg(message.section('\n', 0, 0)));
        output_->appendMessage(tr("PyTorch's side: %1").arg(message));
        setStatus(tr("PyTorch's side failed: %1").arg(message.section('\n', 0, 0)));
    });
}

void MainWindow::setRunUnderTorch(bool on) { runUnderTorch_->setChecked(on); }

void MainWindow::openTorchTraceBeside(const QString& path) {
    torchSide_.open(path);
    if (auto* d = findChild<QDockWidget*>("torchCompareDock")) {
        d->show();
        d->raise();
    }
}

QTreeView* MainWindow::compilesView() const { return compiles_->view(); }
CodeView* MainWindow::preFusionView() const { return ir_->preFusionView(); }
CodeView* MainWindow::postFusionView() const { return ir_->postFusionView(); }
FusionStepper* MainWindow::fusionStepper() const { return fusion_->stepper(); }
CodeView* MainWindow::cppView() const { return code_->cppView(); }
CodeView* MainWindow::ptxView() const { return code_->artifactView("ptx"); }
QTabWidget* MainWindow::codeTabs() const { return code_->tabs(); }
GraphView* MainWindow::graphView() const { return graph_->capturedView(); }
GraphView* MainWindow::afterFusionView() const { return graph_->afterFusionView(); }
QTableView* MainWindow::graphBreaksView() const { return graphBreaks_->view(); }
GuardsView* MainWindow::guardsView() const { return guards_->view(); }

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
    if (!torchSide_.isBusy()) torchCompare_->setTorchSource(tr("The bundle keeps no PyTorch side: its run was made without Run Under PyTorch Too"));
    // The run's first compile on show, and the backend it was compiled with in the picker.
    for (const Event& e : store_.events())
        if (const auto* started = std::get_if<CompileStartedEvent>(&e)) {
            selection_.setCompileId(QString::fromStdString(started->compileId));
            break;
        }
    if (!setBackend(qstringField(bundle.manifest.options, "backend"))) setBackend({});  // any JSON may be there
    showBackendsUsed();
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
    if (engine_.activeRun() || loadsPending_ > 0 || torchSide_.isBusy() || traceView_->indexPending()) return false;
    // Views that redo themselves once per burst of events, a moment after it.
    if (annotateTimer_.isActive() || torchCompare_->rebuildPending() || compiles_->stackTrie()->rebuildPending()) return false;
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

RunRequest MainWindow::scriptRequest() const {
    RunRequest request;
    request.script = editor_->text();
    // The saved script's whole path: its own modules beside it are found as Python finds them.
    request.fileName = scriptPath_.isEmpty() ? QString("script.py") : scriptPath_;
    request.backend = backend_->currentData().toString();
    request.gpuCodegenOnly = device_->currentData().toString() == "cuda-codegen";
    request.checkAccuracy = checkAccuracy_->isChecked();
    return request;
}

void MainWindow::runScript() {
    store_.clear();
    selection_.setCompileId({});
    minifyAction_->setEnabled(false);
    graphFailed_ = accuracyFailed_ = false;
    RunRequest request = scriptRequest();
    request.logs = logSpec_->text().trimmed();
    QSettings().setValue("run/logs", request.logs);
    // Every run leaves its bundle behind, so File > Export Bundle has it when it ends.
    QString runs = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + "/runs";
    QDir().mkpath(runs);
    request.bundle = runs + "/last-run.fscope";
    bundlePath_.clear();
    runFileName_ = request.fileName;
    scriptTabs_->setScriptFile(runFileName_);
    editor_->clearAnnotations();
    engine_.run(request);
    if (runUnderTorch_->isChecked()) torchSide_.run(request.script, request.fileName);
    setBusy(true);
    setStatus(tr("Running %1...").arg(QFileInfo(request.fileName).fileName()));
}

void MainWindow::minifyFailure() {
    if (engine_.activeRun() || !minifyAction_->isEnabled()) return;
    RunRequest request = scriptRequest();
    minifyRequest_ = engine_.minify(request, accuracyFailed_ || request.checkAccuracy);
    minify_->start(tr("Minifying the first failing graph of %1...").arg(QFileInfo(request.fileName).fileName()));
    if (auto* d = findChild<QDockWidget*>("minifyDock")) {
        d->show();
        d->raise();
    }
    setBusy(true);
    setStatus(tr("Minifying %1...").arg(QFileInfo(request.fileName).fileName()));
}

void MainWindow::onEvent(int requestId, const nlohmann::json& event) {
    if (requestId == minifyRequest_) {  // the minifier's progress, not a run's events
        minify_->addProgress(qstringField(event, "message"));
        setStatus(tr("Minifying: %1").arg(qstringField(event, "message").section('\n', 0, 0)));
        return;
    }
    store_.append(event);  // onStored follows
}

void MainWindow::onStored(int index) {
    const Event& event = store_.at(index);
    if (const auto* failure = std::get_if<GraphFailureEvent>(&event)) {
        graphFailed_ = true;
        accuracyFailed_ = accuracyFailed_ || failure->kind == "accuracy";
    }
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
    setBusy(false);
    minifyAction_->setEnabled(graphFailed_);  // minifying reruns the script: once this run is over
    annotateTimer_.stop();
    annotateScript();
    if (!ok) output_->appendMessage(message);
    QString bundle = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + "/runs/last-run.fscope";
    if (QFile::exists(bundle)) bundlePath_ = bundle;
    setStatus(ok ? tr("Finished: %1 events").arg(store_.eventCount()) : message);
    if (!selection_.compileId().isEmpty()) selection_.refreshCompile();
    showBackendsUsed();
}

void MainWindow::showBackendsUsed() {
    QStringList used;
    for (const Event& e : store_.events())
        if (const auto* captured = std::get_if<GraphCapturedEvent>(&e); captured && !captured->backend.empty())
            if (QString name = QString::fromStdString(captured->backend); !used.contains(name)) used << name;
    backend_->setItemText(0, used.isEmpty() ? tr("as the script says") : tr("as the script says (ran: %1)").arg(used.join(", ")));
}

QString MainWindow::backendText() const { return backend_->currentText(); }

void MainWindow::onMinifyFinished(const nlohmann::json* result, const QString& message) {
    minifyRequest_ = 0;
    setBusy(false);
    if (!result) {
        minify_->showFailure(message);
        setStatus(minify_->summary());
        return;
    }
    minify_->showResult(*result);
    setStatus(tr("Minified: went from %1 to %2 nodes").arg(result->value("start_nodes", 0)).arg(result->value("end_nodes", 0)));
}

void MainWindow::onEngineDied(const QString& description, const QString& running) {
    setBusy(false);
    QString text = running.isEmpty() ? description : tr("%1 while %2").arg(description, running);
    output_->appendMessage(tr("%1. Everything received so far is kept; Restart Engine starts a new one.").arg(text));
    if (minifyRequest_) minify_->showFailure(text);
    minifyRequest_ = 0;
    setStatus(text);
}

void MainWindow::showSelectedKernel(const QString&, const QString& buffer) {
    if (buffer.isEmpty()) return;
    QString kernel = selection_.provenance().kernelOf(buffer);
    setStatus(kernel.isEmpty() ? tr("Selected %1").arg(buffer) : tr("Selected %1 (kernel %2)").arg(buffer, kernel));
}

void MainWindow::explainFusion(const QString& node1, const QString& node2) {
    explainRequest_ = engine_.explainFusion(selection_.compileId(), node1, node2);
}

void MainWindow::setStatus(const QString& text) { status_->setText(text); }

bool MainWindow::setBackend(const QString& name) {
    int index = backend_->findData(name);
    if (index < 0) return false;
    backend_->setCurrentIndex(index);
    return true;
}

void MainWindow::setCheckAccuracy(bool on) { checkAccuracy_->setChecked(on); }

void MainWindow::setGpuCodegenOnly(bool on) { device_->setCurrentIndex(device_->findData(on ? "cuda-codegen" : "cpu")); }

bool MainWindow::showView(const QString& view) {
    auto raise = [this](const char* dockName) {
        auto* d = findChild<QDockWidget*>(dockName);
        if (d) d->raise();
        return d != nullptr;
    };
    if (view == "overview") return raise("graphDock") && raise("irDock");
    if (view == "minify") {
        // Minify the run's failure once; a later call (its answer) only shows the result.
        if (minify_->repro().isEmpty() && !minifyRequest_) minifyFailure();  // does nothing without a failure
        return raise("minifyDock");
    }
    if (view == "fusion") {
        fusionStepper()->setStep((fusionStepper()->stepCount() + 1) / 2);
        return raise("fusionDock") && raise("irDock");
    }
    if (view == "code") {
        const CompileProvenance& provenance = selection_.provenance();
        if (!provenance.preFusionNodes().isEmpty()) selection_.selectSchedulerNode(provenance.preFusionNodes().first().name);
        return raise("graphDock") && raise("codeDock");
    }
    if (view == "guards") {
        // The first compile whose guards a later call failed: what a recompile is about.
        for (const Event& e : store_.events())
            if (const auto* failure = std::get_if<GuardFailureEvent>(&e)) {
                selection_.setCompileId(QString::fromStdString(failure->compileId));
                break;
            }
        return raise("guardsDock");
    }
    if (view == "graph-breaks") {  // the first break, with what PyTorch says of it
        QTableView* breaks = graphBreaks_->view();
        if (breaks->model()->rowCount() > 0) breaks->setCurrentIndex(breaks->model()->index(0, 0));
        return raise("breaksDock");
    }
    if (view == "compare") {
        compareView_->setAspect(CompareView::Aspect::Guards);
        return raise("compareDock");
    }
    if (view == "forward" || view == "backward") {  // a training graph's, AOT Autograd's
        return raise("graphDock") && raise("irDock") && graph_->showStageGraph(QString("aot_%1_graph").arg(view));
    }
    if (view == "torch-compare") {
        torchCompare_->setAspect(TorchCompareView::Aspect::RecompileReasons);
        return raise("torchCompareDock");
    }
    if (view == "trace") {
        // The first kernel of a compiled graph (eager ops on cuda tensors launch kernels
        // too), else the first kernel, once the worker has indexed the run's spans.
        auto showFirstKernel = [this] {
            traceView_->tree()->expandToDepth(1);
            const TraceSpans* spans = traceView_->spans();
            if (!spans) return;
            int32_t first = -1;
            for (size_t i = 0; i < spans->spans.size(); ++i) {
                const TraceSpan& span = spans->spans[i];
                if (span.category != SpanCategory::Kernel) continue;
                if (first < 0) first = static_cast<int32_t>(i);
                if (!store_.traces().compileIdOf(static_cast<size_t>(span.record)).empty()) {
                    first = static_cast<int32_t>(i);
                    break;
                }
            }
            if (first >= 0) traceView_->selectSpan(first);
        };
        if (traceView_->indexPending()) {
            auto* once = new QObject(this);
            connect(traceView_, &TraceView::indexReady, once, [showFirstKernel, once] {
                showFirstKernel();
                once->deleteLater();
            });
        } else {
            showFirstKernel();
        }
        return raise("traceDock");
    }
    return false;
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
