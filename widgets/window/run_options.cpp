#include "window/run_options.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QSettings>
#include <QToolBar>

#include "window/toolbar_rows.h"

namespace fusescope::gui {

RunOptions::RunOptions(QMainWindow* window, QToolBar* runBar, QAction* minify) : QObject(window) {
    checkAccuracy_ = new QAction(tr("Check Accuracy"), this);
    checkAccuracy_->setCheckable(true);
    checkAccuracy_->setToolTip(tr("Compare every compiled graph's outputs with eager and log the first element that "
                                  "differs (--check-accuracy)"));
    runUnderTorch_ = new QAction(tr("Run Under PyTorch Too"), this);
    runUnderTorch_->setCheckable(true);
    runUnderTorch_->setChecked(QSettings().value("torch/alsoRun", false).toBool());
    runUnderTorch_->setToolTip(tr("Also run the script under real PyTorch (the Python in Edit > Preferences) with TORCH_TRACE, "
                                  "and pair its compiles with ours in the Ours vs PyTorch view"));
    // Kept when the user flips it; --under-torch is for one session.
    connect(runUnderTorch_, &QAction::triggered, this, [](bool on) { QSettings().setValue("torch/alsoRun", on); });
    runBar->addSeparator();
    runBar->addActions({checkAccuracy_, runUnderTorch_, minify});

    QToolBar* bar = window->addToolBar(tr("Run Options"));
    bar->setObjectName("runOptionsToolBar");
    bar->addWidget(new QLabel(tr("Backend:"), window));
    backend_ = new QComboBox(window);
    backend_->addItem(tr("as the script says"), QString());
    // Bisect a wrong result by going down the list: the first backend that gets it right is
    // one stage before the broken one (docs/debugging.md). The last four inject errors.
    for (const char* name : {"inductor", "aot_eager_decomp_partition", "aot_eager", "eager", "eager_noexcept",
                             "relu_compile_error_TESTING_ONLY", "relu_runtime_error_TESTING_ONLY",
                             "relu_accuracy_error_TESTING_ONLY", "non_leaf_compile_error_TESTING_ONLY"})
        backend_->addItem(name, QString(name));
    bar->addWidget(backend_);
    bar->addWidget(new QLabel(tr("Device:"), window));
    device_ = new QComboBox(window);
    device_->addItem("cpu", QString("cpu"));
    device_->addItem(tr("cuda (GPU code only)"), QString("cuda-codegen"));
    device_->setToolTip(tr("cuda (GPU code only): the script's cuda tensors run on the CPU, and every compiled graph's "
                           "CUDA kernels are generated and compiled to PTX"));
    bar->addWidget(device_);
    bar->addWidget(new QLabel(tr("Logs:"), window));
    logSpec_ = new QLineEdit(QSettings().value("run/logs", "graph_breaks,recompiles,guards").toString(), window);
    logSpec_->setToolTip(tr("What to log, as TORCH_LOGS: e.g. +dynamo,recompiles,fusion"));
    logSpec_->setMaximumWidth(260);
    bar->addWidget(logSpec_);
    new ToolBarRows(window, runBar, bar);
}

RunRequest RunOptions::request(const QString& script, const QString& fileName, bool withLogs) const {
    RunRequest request;
    request.script = script;
    request.fileName = fileName;
    request.backend = backend_->currentData().toString();
    request.gpuCodegenOnly = device_->currentData().toString() == "cuda-codegen";
    request.checkAccuracy = checkAccuracy_->isChecked();
    if (withLogs) {
        request.logs = logSpec_->text().trimmed();
        QSettings().setValue("run/logs", request.logs);
    }
    return request;
}

bool RunOptions::runUnderTorch() const { return runUnderTorch_->isChecked(); }

void RunOptions::setRunUnderTorch(bool on) { runUnderTorch_->setChecked(on); }

bool RunOptions::setBackend(const QString& name) {
    int index = backend_->findData(name);
    if (index < 0) return false;
    backend_->setCurrentIndex(index);
    return true;
}

QString RunOptions::backendText() const { return backend_->currentText(); }

void RunOptions::setGpuCodegenOnly(bool on) { device_->setCurrentIndex(device_->findData(on ? "cuda-codegen" : "cpu")); }

void RunOptions::setCheckAccuracy(bool on) { checkAccuracy_->setChecked(on); }

void RunOptions::showBackendsUsed(const RunStore& store) {
    QStringList used;
    for (const Event& e : store.events())
        if (const auto* captured = std::get_if<GraphCapturedEvent>(&e); captured && !captured->backend.empty())
            if (QString name = QString::fromStdString(captured->backend); !used.contains(name)) used << name;
    backend_->setItemText(0, used.isEmpty() ? tr("as the script says") : tr("as the script says (ran: %1)").arg(used.join(", ")));
}

}  // namespace fusescope::gui
