#include "engine/torch_side.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QSettings>
#include <QStandardPaths>

#include "bundle/bundle_torch_side.h"
#include "core/error.h"
#include "window/background_poll.h"
#include "window/load_in_background.h"

namespace fusescope::gui {

namespace {

constexpr const char* kPythonKey = "torch/python";
constexpr qsizetype kKeptOutput = 16 * 1024;  // of a failing script's output, the end

QString lastLines(const QString& text, int count) {
    QStringList lines = text.trimmed().split('\n');
    return lines.mid(std::max<qsizetype>(0, lines.size() - count)).join('\n');
}

}  // namespace

TorchSide::TorchSide(QObject* parent) : QObject(parent) {
    process_.setProcessChannelMode(QProcess::MergedChannels);
    connect(&process_, &QProcess::readyReadStandardOutput, this, [this] {
        output_ += QString::fromUtf8(process_.readAllStandardOutput());
        if (output_.size() > 2 * kKeptOutput) output_ = output_.right(kKeptOutput);
    });
    connect(&process_, &QProcess::finished, this, &TorchSide::onFinished);
    connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) Q_EMIT failed(tr("Cannot start %1: %2").arg(process_.program(), process_.errorString()));
    });
}

TorchSide::~TorchSide() { stop(); }

QString TorchSide::savedPython() { return QSettings().value(kPythonKey).toString(); }

void TorchSide::savePython(const QString& path) { QSettings().setValue(kPythonKey, path); }

QString TorchSide::python() const {
    if (!sessionPython_.isEmpty()) return sessionPython_;
    if (QString saved = savedPython(); !saved.isEmpty()) return saved;
    for (const char* name : {"python3", "python"})
        if (QString found = QStandardPaths::findExecutable(name); !found.isEmpty()) return found;
    return {};
}

bool TorchSide::run(const QString& script, const QString& scriptPath) {
    const QString fileName = QFileInfo(scriptPath).fileName();
    clear();  // an older side beside this run's would mislead
    const QString python = this->python();
    if (python.isEmpty()) {
        Q_EMIT failed(tr("No Python found to run the script under PyTorch: set one with torch in Edit > Preferences, or start with --torch-python PATH."));
        return false;
    }
    folder_ = std::make_unique<QTemporaryDir>();
    QFile file(folder_->filePath(fileName));
    if (!folder_->isValid() || !file.open(QIODevice::WriteOnly) || file.write(script.toUtf8()) < 0) {
        Q_EMIT failed(tr("Cannot write the script for PyTorch into %1").arg(folder_->path()));
        return false;
    }
    file.close();
    output_.clear();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("TORCH_TRACE", folder_->filePath("trace"));
    if (QFileInfo(scriptPath).isAbsolute()) {  // its own modules beside it import as they do when it runs there
        const QString dir = QFileInfo(scriptPath).absolutePath(), inherited = env.value("PYTHONPATH");
        env.insert("PYTHONPATH", inherited.isEmpty() ? dir : dir + QDir::listSeparator() + inherited);
    }
    process_.setProcessEnvironment(env);
    process_.setWorkingDirectory(folder_->path());
    process_.start(python, {fileName});
    Q_EMIT progress(tr("Running %1 under PyTorch (%2)...").arg(fileName, python));
    followWhileRunning(folder_->filePath("trace"));
    return true;
}

void TorchSide::stop() {
    if (!isRunning()) return;
    stopping_ = true;  // a stopped run is neither loaded nor a failure
    process_.kill();
    process_.waitForFinished(3000);
    stopping_ = false;
}

void TorchSide::clear() {
    ++generation_;  // what an earlier run or open is still loading is no longer wanted
    stopFollowing();
    stop();
    store_.clear();
    shownLog_.clear();
    description_.clear();
}

void TorchSide::open(const QString& path) {
    clear();
    load(path, QFileInfo(path).absoluteFilePath());
}

void TorchSide::openBundled(const std::map<std::string, std::string>& entries, const QString& bundleName) {
    clear();
    folder_ = std::make_unique<QTemporaryDir>();
    const QString trace = folder_->filePath("trace");
    try {
        if (!folder_->isValid() || !writeTorchSide(entries, trace.toStdString())) return;
    } catch (const Error& e) {
        Q_EMIT failed(QString::fromStdString(e.what()));
        return;
    }
    load(trace, tr("kept in %1").arg(bundleName));
}

void TorchSide::onFinished(int exitCode, QProcess::ExitStatus status) {
    stopFollowing();  // read whole below
    if (stopping_) return;
    const QString python = process_.program(), script = process_.arguments().value(0);
    const QString trace = folder_->filePath("trace");
    const bool wroteLog = !QDir(trace).entryList({"dedicated_log_torch_trace_*.log"}, QDir::Files).isEmpty();
    if (output_.contains("No module named 'torch'")) {
        Q_EMIT failed(tr("%1 has no torch: pick a Python with torch in Edit > Preferences, or start with --torch-python PATH.").arg(python));
        return;
    }
    if (!wroteLog) {
        QString how = status == QProcess::CrashExit ? tr("crashed") : tr("exited with %1").arg(exitCode);
        Q_EMIT failed(tr("%1 under PyTorch %2 and wrote no TORCH_TRACE log:\n%3").arg(script, how, lastLines(output_, 20)));
        return;
    }
    // A script that fails part way still logged what it compiled before: show that.
    QString what = tr("a run of %1").arg(script);
    if (status == QProcess::CrashExit || exitCode != 0) what += tr(" (it failed: %1)").arg(lastLines(output_, 1));
    load(trace, what);
}

void TorchSide::followWhileRunning(const QString& traceFolder) {
    stopFollowing();
    auto follower = std::make_shared<TraceLogFollower>(traceFolder.toStdString());
    const int generation = generation_;
    live_ = new BackgroundPoll(
        [this, follower, generation]() -> BackgroundPoll::Found {  // on a worker thread
            try {
                if (follower->poll() == TraceLogFollower::Change::None) return {};
            } catch (const Error&) {
                return {};  // PyTorch makes the folder with its first record
            }
            auto run = std::make_shared<TorchTraceRun>(torchTraceRunOf(*follower));
            return [this, run, generation] {
                if (generation != generation_) return;
                store_.replace(std::move(run->events));
                Q_EMIT progress(tr("PyTorch's side, read as it runs: %1 compiles so far").arg(run->compiles));
            };
        },
        250, this);
}

void TorchSide::stopFollowing() {
    if (live_) live_->deleteLater();
    live_ = nullptr;
}

void TorchSide::load(const QString& path, const QString& what) {
    const int generation = generation_;
    ++loads_;
    auto current = [this, generation] {
        --loads_;
        return generation == generation_;  // else a newer run or open started meanwhile
    };
    loadInBackground<TorchTraceRun>(
        this, [file = path.toStdString()] { return loadTorchTraceRun(file); },
        [this, current, what, path](TorchTraceRun run) {
            if (!current()) return;
            description_ = tr("PyTorch %1, %2").arg(QString::fromStdString(run.torchVersion), what);
            shownLog_ = path;
            store_.replace(std::move(run.events));
            Q_EMIT loaded(description_);
        },
        [this, current](const QString& error) {
            if (current()) Q_EMIT failed(error);
        });
    Q_EMIT progress(tr("Reading PyTorch's log %1...").arg(QFileInfo(path).fileName()));
}

}  // namespace fusescope::gui
