#include "window/main_window.h"

#include <algorithm>
#include <limits>

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
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QTableView>
#include <QVBoxLayout>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSaveFile>
#include <QStandardPaths>
#include <QTimer>
#include <QDir>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QTreeView>
#include <QDragEnterEvent>
#include <QMimeData>
#include <QProgressBar>
#include <QRegularExpression>
#include <QToolButton>
#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyle.h>

#include "bundle/bundle_reader.h"
#include "core/error.h"
#include "model/compile_artifacts.h"
#include "model/compiles_model.h"
#include "model/json_fields.h"
#include "model/logs_model.h"
#include "model/graph_breaks_model.h"
#include "model/script_notes.h"
#include "views/code_view.h"
#include "views/compare_view.h"
#include "timeline/trace_view.h"
#include "views/fusion_stepper.h"
#include "views/graph_view.h"
#include "views/minify_panel.h"
#include "views/guards_view.h"
#include "window/recent_files.h"

namespace fusescope::gui {

namespace {

// What each event says the engine is doing, for the status bar. Compile phases are traced
// when they end, so the end of codegen means the C++ compiler is running.
QString stageOf(const std::string& type, const nlohmann::json& event) {
    if (type == "trace_event")
        return stringField(event, "cat") == "compile" && stringField(event, "name").rfind("codegen ", 0) == 0
                   ? QObject::tr("compile")
                   : QString();
    if (type == "compile_started") return QObject::tr("capture");
    if (type == "graph_captured") return QObject::tr("decompose");
    if (type == "fx_graph_transformed") return QObject::tr("lower");
    if (type == "ir_pre_fusion") return QObject::tr("schedule");
    if (type == "ir_post_fusion") return QObject::tr("codegen");
    if (type == "kernel_source") return QObject::tr("run");
    return {};
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

}  // namespace

MainWindow::MainWindow(const QString& cliPath, QWidget* parent)
    : QMainWindow(parent), engine_(cliPath) {
    setWindowTitle(tr("Fusescope"));
    editor_ = new QsciScintilla(this);
    configureCodeEditor(*editor_, CodeView::Language::Python);
    setCentralWidget(editor_);
    editor_->markerDefine(QsciScintilla::Background, kEditorSelectionMarker);
    editor_->setMarkerBackgroundColor(QColor(255, 236, 179), kEditorSelectionMarker);
    // A line of the script selects the first graph node it made (in the compile on show).
    connect(editor_, &QsciScintilla::cursorPositionChanged, this, [this](int line, int) {
        if (scriptLineOfNode_.value(selection_.graphNode()) == line + 1) return;  // already one of this line's
        for (const QString& node : graphNodeOrder_)
            if (scriptLineOfNode_.value(node) == line + 1) {
                selectGraphNode(node);
                return;
            }
    });
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
        if (id == explainRequest_) stepper_->showExplanation(explanationText(result));
        else if (id == minifyRequest_) onMinifyFinished(&result, {});
        else if (id > 0) onRunFinished(true, {});
    });
    connect(&engine_, &EngineClient::failed, this, [this](int id, const QString& code, const QString& message) {
        QString shown = code == "cancelled" ? tr("Stopped: %1").arg(message) : message;
        if (id == explainRequest_) stepper_->showExplanation(message);
        else if (id == minifyRequest_) onMinifyFinished(nullptr, shown);
        else onRunFinished(false, shown);
    });
    connect(&engine_, &EngineClient::engineDied, this, &MainWindow::onEngineDied);
    connect(&selection_, &SelectionContext::compileChanged, this, &MainWindow::showCompile);
    connect(&selection_, &SelectionContext::nodeChanged, this, &MainWindow::showSelectedNode);

    buildViewMenu();  // after the docks exist
    defaultState_ = saveState();
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());

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
    file->addAction(tr("&Open Script or Bundle..."), QKeySequence::Open, this, [this] {
        QString path = QFileDialog::getOpenFileName(this, tr("Open"), {}, tr("Scripts and bundles (*.py *.fscope)"));
        if (!path.isEmpty()) openFile(path);
    });
    recent_ = new RecentFiles(file->addMenu(tr("Open &Recent")), this);
    connect(recent_, &RecentFiles::openRequested, this, &MainWindow::openFile);
    file->addAction(tr("&Save Script"), QKeySequence::Save, this, &MainWindow::saveScript);
    file->addAction(tr("E&xport Bundle..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), this, [this] {
        if (bundlePath_.isEmpty() || !QFile::exists(bundlePath_)) {
            QMessageBox::information(this, tr("Export Bundle"), tr("There is no bundle yet: run the script first (a run that is still going, or whose engine died, has none)."));
            return;
        }
        QString path = QFileDialog::getSaveFileName(this, tr("Export Bundle"), {}, tr("Trace bundles (*.fscope)"));
        if (!path.isEmpty()) exportBundle(path);
    });
    file->addAction(tr("&Export Graph Image..."), this, [this] {
        QString path = QFileDialog::getSaveFileName(this, tr("Export Graph Image"), {}, tr("PNG image (*.png);;SVG drawing (*.svg)"));
        QString error;
        if (!path.isEmpty() && !graphView_->exportImage(path, &error)) QMessageBox::warning(this, tr("Export Graph Image"), error);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QToolBar* bar = addToolBar(tr("Run"));
    bar->setObjectName("runToolBar");
    QAction* run = bar->addAction(tr("Run"), this, &MainWindow::runScript);
    run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    run->setToolTip(tr("Run the script (Ctrl+R)"));
    bar->addAction(tr("Stop"), this, [this] {
        if (engine_.activeRun()) engine_.cancel(engine_.activeRun());
    });
    bar->addAction(tr("Restart Engine"), this, [this] {
        engine_.restart();
        setStatus(tr("Engine restarted"));
    });
    bar->addSeparator();
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
    checkAccuracy_ = bar->addAction(tr("Check Accuracy"));
    checkAccuracy_->setCheckable(true);
    checkAccuracy_->setToolTip(tr("Compare every compiled graph's outputs with eager and log the first element that "
                                  "differs (--check-accuracy)"));
    minifyAction_ = bar->addAction(tr("Minify"), this, &MainWindow::minifyFailure);
    minifyAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    minifyAction_->setToolTip(tr("Shrink the compiled graph that failed to the smallest graph that still fails, and "
                                 "write it as a repro script (Ctrl+M)"));
    minifyAction_->setEnabled(false);
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
}

void MainWindow::buildViewMenu() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    // Every dock can be closed; this is how it comes back.
    for (QDockWidget* d : findChildren<QDockWidget*>()) view->addAction(d->toggleViewAction());
    view->addSeparator();
    view->addAction(tr("&Reset Layout"), this, [this] {
        restoreState(defaultState_);
        for (QDockWidget* d : findChildren<QDockWidget*>()) d->show();
    });
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
    compiles_ = new CompilesModel(&store_, this);
    compilesView_ = new QTreeView(this);
    compilesView_->setModel(compiles_);
    compilesView_->setUniformRowHeights(true);
    connect(compilesView_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& index) { selection_.setCompileId(compiles_->compileId(index)); });
    QDockWidget* compilesDock = dock(this, tr("Compiles"), "compilesDock", compilesView_, Qt::LeftDockWidgetArea);

    auto* graphTabs = new QTabWidget(this);
    graphView_ = new GraphView(graphTabs);
    afterFusionView_ = new GraphView(graphTabs);
    graphs_ = new CodeView(CodeView::Language::Python, graphTabs);
    graphTabs->addTab(graphView_, tr("Captured"));
    graphTabs->addTab(afterFusionView_, tr("After fusion"));
    graphTabs->addTab(graphs_, tr("Code"));
    connect(afterFusionView_, &GraphView::nodeClicked, this, &MainWindow::selectSchedulerNode);
    QDockWidget* graphDock = dock(this, tr("Graph"), "graphDock", graphTabs, Qt::RightDockWidgetArea);
    connect(graphView_, &GraphView::nodeClicked, this, &MainWindow::selectGraphNode);

    minify_ = new MinifyPanel(this);
    QDockWidget* minifyDock = dock(this, tr("Minify"), "minifyDock", minify_, Qt::RightDockWidgetArea);

    stepper_ = new FusionStepper(&store_, this);
    QDockWidget* stepperDock = dock(this, tr("Fusion"), "fusionDock", stepper_, Qt::RightDockWidgetArea);
    tabifyDockWidget(graphDock, stepperDock);
    tabifyDockWidget(graphDock, minifyDock);
    graphDock->raise();
    connect(stepper_, &FusionStepper::nodeClicked, this, &MainWindow::selectSchedulerNode);
    connect(stepper_, &FusionStepper::explainRequested, this, &MainWindow::explainFusion);
    connect(stepper_, &FusionStepper::stepChanged, this, [this](int, const QString& node1, const QString& node2) {
        // The step's pair in both IR dumps (a fused operand: its members' blocks before fusion).
        LineRanges pre, post;
        for (const QString& node : {node1, node2}) {
            if (node.isEmpty()) continue;
            post += provenance_.postFusionLines(node);
            QStringList parts = node.split('_');  // a group is named by its members: buf0_buf1
            for (const QString& part : parts) pre += provenance_.preFusionLines(part);
        }
        preFusion_->highlightLines(pre);
        postFusion_->highlightLines(post);
    });

    auto* ir = new QSplitter(Qt::Horizontal, this);
    preFusion_ = new CodeView(CodeView::Language::IrDump, ir);
    postFusion_ = new CodeView(CodeView::Language::IrDump, ir);
    ir->addWidget(preFusion_);
    ir->addWidget(postFusion_);
    QDockWidget* irDock = dock(this, tr("IR (before | after fusion)"), "irDock", ir, Qt::BottomDockWidgetArea);
    connect(preFusion_, &CodeView::lineClicked, this, [this](int line) { selectSchedulerNode(provenance_.preFusionNodeAt(line)); });
    connect(postFusion_, &CodeView::lineClicked, this, [this](int line) { selectSchedulerNode(provenance_.postFusionNodeAt(line)); });

    auto* code = codeTabs_ = new QTabWidget(this);
    cpp_ = new CodeView(CodeView::Language::Cpp, code);
    llvmIr_ = new CodeView(CodeView::Language::LlvmIr, code);
    assembly_ = new CodeView(CodeView::Language::Assembly, code);
    ptx_ = new CodeView(CodeView::Language::Ptx, code);
    sass_ = new CodeView(CodeView::Language::Assembly, code);
    code->addTab(cpp_, tr("C++"));
    code->addTab(llvmIr_, tr("LLVM IR"));
    code->addTab(assembly_, tr("Assembly"));
    code->addTab(ptx_, tr("PTX"));
    code->addTab(sass_, tr("SASS"));
    code->setTabVisible(code->indexOf(ptx_), false);
    code->setTabVisible(code->indexOf(sass_), false);
    connect(cpp_, &CodeView::lineClicked, this, [this](int line) { selectSchedulerNode(provenance_.bufferAtCppLine(line)); });
    QDockWidget* codeDock = dock(this, tr("Generated Code"), "codeDock", code, Qt::BottomDockWidgetArea);
    tabifyDockWidget(irDock, codeDock);
    irDock->raise();

    QDockWidget* logsDock = dock(this, tr("Logs"), "logsDock", buildLogsView(), Qt::BottomDockWidgetArea);
    tabifyDockWidget(codeDock, logsDock);

    // Graph breaks: activating a row (double-click, Enter) shows its line in the editor.
    auto* breaks = new GraphBreaksModel(&store_, this);
    breaksView_ = new QTableView(this);
    breaksView_->setModel(breaks);
    breaksView_->horizontalHeader()->setStretchLastSection(true);
    breaksView_->verticalHeader()->hide();
    breaksView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    connect(breaksView_, &QTableView::activated, this,
            [this](const QModelIndex& index) { showScriptLine(index.data(GraphBreaksModel::LineRole).toInt()); });
    QDockWidget* breaksDock = dock(this, tr("Graph Breaks"), "breaksDock", breaksView_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(logsDock, breaksDock);
    guardsView_ = new GuardsView(&store_, this);
    connect(guardsView_, &GuardsView::lineActivated, this, &MainWindow::showScriptLine);
    connect(&selection_, &SelectionContext::compileChanged, guardsView_, &GuardsView::setCompileId);
    QDockWidget* guardsDock = dock(this, tr("Guards"), "guardsDock", guardsView_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(breaksDock, guardsDock);
    compareView_ = new CompareView(&store_, this);
    QDockWidget* compareDock = dock(this, tr("Compare"), "compareDock", compareView_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(guardsDock, compareDock);
    traceView_ = new TraceView(&store_, this);
    QDockWidget* traceDock = dock(this, tr("Execution Trace"), "traceDock", traceView_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(compareDock, traceDock);
    // A kernel span selects its compile and the buffers its kernel computes.
    connect(traceView_, &TraceView::kernelSelected, this, [this](const QString& compileId, const QString& kernel) {
        selection_.setCompileId(compileId);
        for (const auto& n : provenance_.preFusionNodes())
            if (provenance_.kernelOf(n.name) == kernel) {
                selectSchedulerNode(provenance_.fusedNodeOf(n.name));
                return;
            }
    });
    irDock->raise();

    // First-run proportions (a saved layout replaces them): the graph docks get a good third.
    resizeDocks({graphDock}, {560}, Qt::Horizontal);
    resizeDocks({irDock}, {320}, Qt::Vertical);

    output_ = new QPlainTextEdit(this);
    output_->setReadOnly(true);
    output_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    QDockWidget* outputDock = dock(this, tr("Output"), "outputDock", output_, Qt::LeftDockWidgetArea);
    splitDockWidget(compilesDock, outputDock, Qt::Vertical);
}

void MainWindow::showScriptLine(int line) {
    if (line <= 0) return;
    editor_->setCursorPosition(line - 1, 0);
    editor_->ensureLineVisible(line - 1);
    editor_->setFocus();
}

QWidget* MainWindow::buildLogsView() {
    auto* logs = new LogsModel(&store_, this);
    auto* filter = new LogFilterProxy(this);
    filter->setSourceModel(logs);
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    auto* search = new QLineEdit(box);
    search->setPlaceholderText(tr("Search log messages"));
    search->setClearButtonEnabled(true);
    connect(search, &QLineEdit::textChanged, filter, &LogFilterProxy::setText);
    auto* level = new QComboBox(box);
    for (LogLevel l : {LogLevel::Debug, LogLevel::Info, LogLevel::Warning, LogLevel::Error})
        level->addItem(tr("%1 and above").arg(LogsModel::levelText(l)), static_cast<int>(l));
    connect(level, &QComboBox::currentIndexChanged, filter,
            [filter, level] { filter->setMinimumLevel(static_cast<LogLevel>(level->currentData().toInt())); });
    auto* thisCompile = new QComboBox(box);
    thisCompile->addItem(tr("All compiles"), false);
    thisCompile->addItem(tr("Selected compile"), true);
    auto applyCompile = [this, filter, thisCompile] {
        filter->setCompileId(thisCompile->currentData().toBool() ? selection_.compileId() : QString());
    };
    connect(thisCompile, &QComboBox::currentIndexChanged, filter, applyCompile);
    connect(&selection_, &SelectionContext::compileChanged, filter, applyCompile);
    // The artifacts and components seen so far (fusion, guards, dynamo, ...), one at a time.
    auto* artifact = new QComboBox(box);
    artifact->addItem(tr("All artifacts"), QString());
    auto addNames = [logs, artifact](int first, int last) {
        for (int row = first; row <= last; ++row) {
            QString name = logs->index(row, LogsModel::NameColumn).data().toString();
            if (!name.isEmpty() && artifact->findData(name) < 0) artifact->addItem(name, name);
        }
    };
    connect(logs, &QAbstractItemModel::rowsInserted, artifact, [addNames](const QModelIndex&, int first, int last) { addNames(first, last); });
    connect(logs, &QAbstractItemModel::modelReset, artifact, [logs, artifact, addNames] {
        while (artifact->count() > 1) artifact->removeItem(1);
        addNames(0, logs->rowCount() - 1);
    });
    connect(artifact, &QComboBox::currentIndexChanged, filter, [filter, artifact] {
        QString name = artifact->currentData().toString();
        filter->setNames(name.isEmpty() ? QSet<QString>{} : QSet<QString>{name});
    });
    bar->addWidget(search, 1);
    bar->addWidget(artifact);
    bar->addWidget(level);
    bar->addWidget(thisCompile);
    layout->addLayout(bar);
    auto* table = new QTableView(box);
    table->setModel(filter);
    table->setSortingEnabled(false);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->hide();
    table->setWordWrap(false);
    layout->addWidget(table);
    return box;
}

bool MainWindow::openFile(const QString& path) {
    if (path.endsWith(".fscope", Qt::CaseInsensitive)) return openBundle(path);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        QMessageBox::warning(this, tr("Open Script"), tr("Cannot open %1: %2").arg(path, file.errorString()));
        return false;
    }
    editor_->setText(QString::fromUtf8(file.readAll()));
    scriptPath_ = path;
    discardAutosave();
    recent_->add(path);
    setWindowTitle(tr("Fusescope - %1").arg(QFileInfo(path).fileName()));
    return true;
}

bool MainWindow::exportBundle(const QString& path) {
    if (QFileInfo(path).absoluteFilePath() == QFileInfo(bundlePath_).absoluteFilePath()) return true;
    // Copy under a temporary name, then rename: the target is never left half written.
    QString partial = path + ".part";
    QFile::remove(partial);
    if (!QFile::copy(bundlePath_, partial) || (QFile::exists(path) && !QFile::remove(path)) || !QFile::rename(partial, path)) {
        QFile::remove(partial);
        QMessageBox::warning(this, tr("Export Bundle"), tr("Cannot write %1.").arg(path));
        return false;
    }
    setStatus(tr("Exported the bundle to %1").arg(path));
    return true;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile() && QRegularExpression(R"(\.(py|fscope)$)", QRegularExpression::CaseInsensitiveOption).match(url.toLocalFile()).hasMatch()) {
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
        QMessageBox::critical(this, tr("Open Bundle"), tr("%1 is not a usable bundle:\n%2").arg(path, QString::fromStdString(e.what())));
        return false;
    }
    editor_->setText(QString::fromStdString(bundle.script));
    scriptPath_.clear();
    discardAutosave();
    output_->clear();
    store_.replace(std::move(run));
    bundlePath_ = path;
    recent_->add(path);
    runFileName_ = QString::fromStdString(bundle.manifest.script);
    annotateScript();
    for (const auto& e : store_.events())
        if (stringField(e, "type") == "script_output") output_->insertPlainText(qstringField(e, "text"));
    setWindowTitle(tr("Fusescope - %1 (bundle)").arg(QFileInfo(path).fileName()));
    setStatus(tr("Opened bundle %1: %2 events").arg(QFileInfo(path).fileName()).arg(store_.eventCount()));
    return true;
}

void MainWindow::saveScript() {
    QString path = scriptPath_;
    if (path.isEmpty()) path = QFileDialog::getSaveFileName(this, tr("Save Script"), {}, tr("Scripts (*.py)"));
    if (path.isEmpty()) return;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(editor_->text().toUtf8()) < 0) {
        QMessageBox::warning(this, tr("Save Script"), tr("Cannot write %1: %2").arg(path, file.errorString()));
        return;
    }
    scriptPath_ = path;
    discardAutosave();
    setStatus(tr("Saved %1").arg(path));
}

RunRequest MainWindow::scriptRequest() const {
    RunRequest request;
    request.script = editor_->text();
    request.fileName = scriptPath_.isEmpty() ? QString("script.py") : QFileInfo(scriptPath_).fileName();
    request.backend = backend_->currentData().toString();
    request.gpuCodegenOnly = device_->currentData().toString() == "cuda-codegen";
    request.checkAccuracy = checkAccuracy_->isChecked();
    return request;
}

void MainWindow::runScript() {
    store_.clear();
    output_->clear();
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
    editor_->clearAnnotations();
    engine_.run(request);
    setBusy(true);
    setStatus(tr("Running %1...").arg(request.fileName));
}

void MainWindow::minifyFailure() {
    if (engine_.activeRun() || !minifyAction_->isEnabled()) return;
    RunRequest request = scriptRequest();
    minifyRequest_ = engine_.minify(request, accuracyFailed_ || request.checkAccuracy);
    minify_->start(tr("Minifying the first failing graph of %1...").arg(request.fileName));
    if (auto* d = findChild<QDockWidget*>("minifyDock")) {
        d->show();
        d->raise();
    }
    setBusy(true);
    setStatus(tr("Minifying %1...").arg(request.fileName));
}

void MainWindow::onEvent(int requestId, const nlohmann::json& event) {
    if (requestId == minifyRequest_) {  // the minifier's progress, not a run's events
        minify_->addProgress(qstringField(event, "message"));
        setStatus(tr("Minifying: %1").arg(qstringField(event, "message").section('\n', 0, 0)));
        return;
    }
    store_.append(event);
    const std::string type = stringField(event, "type");
    if (type == "graph_failure") {
        graphFailed_ = true;
        accuracyFailed_ = accuracyFailed_ || stringField(event, "kind") == "accuracy";
    }
    if (type == "script_output") output_->insertPlainText(qstringField(event, "text"));
    if (type == "error" || type == "graph_break" || type == "recompile") annotateTimer_.start();  // coalesced
    if (QString stage = stageOf(type, event); !stage.isEmpty()) setStatus(tr("Running: %1").arg(stage));
    // Follow the newest compile until the user picks one.
    QString id = qstringField(event, "compile_id");
    if (type == "compile_started" || (type == "kernel_source" && id == selection_.compileId())) {
        if (id == selection_.compileId()) showCompile(id);
        else selection_.setCompileId(id);
    }
}

void MainWindow::onRunFinished(bool ok, const QString& message) {
    setBusy(false);
    minifyAction_->setEnabled(graphFailed_);  // minifying reruns the script: once this run is over
    annotateTimer_.stop();
    annotateScript();
    if (!ok) output_->appendPlainText(message);
    QString bundle = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + "/runs/last-run.fscope";
    if (QFile::exists(bundle)) bundlePath_ = bundle;
    setStatus(ok ? tr("Finished: %1 events").arg(store_.eventCount()) : message);
    if (!selection_.compileId().isEmpty()) showCompile(selection_.compileId());
}

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
    output_->appendPlainText(tr("%1. Everything received so far is kept; Restart Engine starts a new one.").arg(text));
    if (minifyRequest_) minify_->showFailure(text);
    minifyRequest_ = 0;
    setStatus(text);
}

void MainWindow::showCompile(const QString& compileId) {
    CompileArtifacts a = compileArtifacts(store_, compileId);
    provenance_ = a.provenance;
    // Which captured nodes each script line made, for selecting from the editor.
    scriptLineOfNode_.clear();
    graphNodeOrder_.clear();
    if (a.graph.contains("nodes") && a.graph["nodes"].is_array())
        for (const auto& node : a.graph["nodes"])
            if (node.is_object() && qstringField(node, "op") != "placeholder" && qstringField(node, "file") == runFileName_ &&
                node.value("line", nlohmann::json()).is_number_integer()) {
                scriptLineOfNode_.insert(qstringField(node, "name"), node["line"].get<int>());
                graphNodeOrder_.append(qstringField(node, "name"));
            }
    graphs_->showText(a.graphs);
    if (a.graph.is_null()) {
        graphView_->clearGraph();
    } else {
        // Each node filled by the kernel it ends up in.
        if (a.graph.contains("nodes") && a.graph["nodes"].is_array())
            for (auto& node : a.graph["nodes"])
                if (node.is_object())
                    node["group"] = provenance_.fusedNodeOf(provenance_.bufferOfGraphNode(qstringField(node, "name"))).toStdString();
        graphView_->showGraph(a.graph);
    }
    preFusion_->showText(a.preFusion);
    postFusion_->showText(a.postFusion);
    cpp_->showText(a.source);
    QList<LineRanges> tints;
    for (const auto& n : provenance_.preFusionNodes()) tints.append(provenance_.cppLines(n.name));
    cpp_->tintLines(tints);
    stepper_->setCompile(compileId, provenance_);
    if (provenance_.preFusionNodes().isEmpty()) afterFusionView_->clearGraph();
    else afterFusionView_->showGraph(schedulerGraphAt(provenance_, stepper_->model()->steps(), std::numeric_limits<int>::max()));
    llvmIr_->showText(a.llvmIr);
    assembly_->showText(a.assembly);
    ptx_->showText(a.ptx);
    sass_->showText(a.sass.isEmpty() && !a.ptx.isEmpty() ? tr("// No SASS: the CUDA toolkit's nvdisasm was not found.") : a.sass);
    bool cuda = a.language == "cuda";
    codeTabs_->setTabText(codeTabs_->indexOf(cpp_), cuda ? tr("CUDA") : tr("C++"));
    for (CodeView* view : {llvmIr_, assembly_}) codeTabs_->setTabVisible(codeTabs_->indexOf(view), !cuda);
    for (CodeView* view : {ptx_, sass_}) codeTabs_->setTabVisible(codeTabs_->indexOf(view), cuda);
    QModelIndex index = compiles_->indexForCompileId(compileId);
    if (index.isValid() && compilesView_->currentIndex() != index) compilesView_->setCurrentIndex(index);
}

void MainWindow::selectGraphNode(const QString& node) { selection_.setNode(node, provenance_.bufferOfGraphNode(node)); }

void MainWindow::selectSchedulerNode(const QString& node) {
    if (node.isEmpty()) return;
    selection_.setNode(provenance_.graphNodesOf(node).value(0), node);
}

void MainWindow::showSelectedNode() {
    const QString& node = selection_.graphNode();
    const QString& buffer = selection_.buffer();
    graphView_->setHighlighted(node.isEmpty() ? provenance_.graphNodesOf(buffer) : QStringList{node});
    afterFusionView_->setHighlighted({provenance_.fusedNodeOf(buffer)});
    // The script line the node came from, marked without moving the user's cursor.
    editor_->markerDeleteAll(kEditorSelectionMarker);
    int line = scriptLineOfNode_.value(node.isEmpty() ? provenance_.graphNodesOf(buffer).value(0) : node);
    if (line > 0) {
        editor_->markerAdd(line - 1, kEditorSelectionMarker);
        editor_->ensureLineVisible(line - 1);
    }
    if (buffer.isEmpty()) {
        for (CodeView* view : {preFusion_, postFusion_, cpp_}) view->highlightLines({});
        return;
    }
    // A fused node is its members' blocks before fusion; a buffer is its own block after it
    // (nested in its group's).
    LineRanges pre = provenance_.preFusionLines(buffer);
    for (const auto& n : provenance_.postFusionNodes())
        if (n.name == buffer)
            for (const auto& member : n.members) pre += provenance_.preFusionLines(member);
    preFusion_->highlightLines(pre);
    postFusion_->highlightLines(provenance_.postFusionLines(buffer));
    cpp_->highlightLines(provenance_.cppLines(buffer));
    QString kernel = provenance_.kernelOf(buffer);
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
        stepper_->setStep((stepper_->stepCount() + 1) / 2);
        return raise("fusionDock") && raise("irDock");
    }
    if (view == "code") {
        if (!provenance_.preFusionNodes().isEmpty()) selectSchedulerNode(provenance_.preFusionNodes().first().name);
        return raise("graphDock") && raise("codeDock");
    }
    if (view == "guards") {
        // The first compile whose guards a later call failed: what a recompile is about.
        for (const auto& e : store_.events())
            if (stringField(e, "type") == "guard_failure") {
                selection_.setCompileId(qstringField(e, "compile_id"));
                break;
            }
        return raise("guardsDock");
    }
    if (view == "compare") {
        compareView_->setAspect(CompareView::Aspect::Guards);
        return raise("compareDock");
    }
    if (view == "trace") {
        // The first kernel, once the worker has indexed the run's spans.
        auto showFirstKernel = [this] {
            traceView_->tree()->expandToDepth(1);
            if (const TraceSpans* spans = traceView_->spans())
                for (size_t i = 0; i < spans->spans.size(); ++i)
                    if (spans->spans[i].category == SpanCategory::Kernel) {
                        traceView_->selectSpan(static_cast<int32_t>(i));
                        break;
                    }
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
    editor_->clearAnnotations();
    static const QsciStyle error(-1, "error", QColor(150, 0, 0), QColor(255, 230, 230), editor_->font());
    static const QsciStyle graphBreak(-1, "graph break", QColor(120, 70, 0), QColor(255, 243, 214), editor_->font());
    static const QsciStyle recompile(-1, "recompile", QColor(0, 70, 140), QColor(228, 239, 255), editor_->font());
    QMap<int, QList<ScriptNote>> byLine;
    for (const ScriptNote& note : scriptNotes(store_, runFileName_)) byLine[note.line].append(note);
    for (auto it = byLine.begin(); it != byLine.end(); ++it) {
        QStringList texts;
        for (const ScriptNote& note : it.value()) texts << note.text;
        // The most serious note colours the whole annotation.
        auto worst = std::min_element(it.value().begin(), it.value().end(),
                                      [](const ScriptNote& a, const ScriptNote& b) { return a.kind < b.kind; })->kind;
        const QsciStyle& style = worst == ScriptNote::Kind::Error ? error : worst == ScriptNote::Kind::GraphBreak ? graphBreak : recompile;
        editor_->annotate(it.key() - 1, texts.join('\n'), style);
    }
    editor_->setAnnotationDisplay(QsciScintilla::AnnotationBoxed);
}

QString MainWindow::statusText() const { return status_->text(); }

QStringList MainWindow::recentFiles() const { return recent_->paths(); }

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    engine_.shutdown();
    event->accept();
}

}  // namespace fusescope::gui
