#include "engine/engine_client.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSaveFile>
#include <unistd.h>

#include <csignal>
#include <cstring>

#include "bundle/bundle_format.h"
#include "core/json_text.h"
#include "engine/project_files.h"
#include "model/json_fields.h"
#include "observe/event_schema.h"
#include "observe/protocol.h"

namespace fusescope::gui {

namespace {
constexpr const char* kVersionRequest = "version";  // the id of the `version` asked first; work has integer ids
}

EngineClient::EngineClient(QString cliPath, QObject* parent) : QObject(parent) {
    address_.localPath = std::move(cliPath);
    process_.setProcessChannelMode(QProcess::SeparateChannels);
    connect(&process_, &QProcess::readyReadStandardOutput, this, [this] { readLines(Lines::Slice); });
    // The protocol is on stdout only; stderr is kept, a little, for what ssh says of a failure.
    connect(&process_, &QProcess::readyReadStandardError, this, [this] { sshErrors_ = (sshErrors_ + process_.readAllStandardError()).right(4096); });
    rest_.setSingleShot(true);
    connect(&rest_, &QTimer::timeout, this, [this] { readLines(Lines::Slice); });
    connect(&process_, &QProcess::finished, this, &EngineClient::onFinished);
}

EngineClient::~EngineClient() {
    disconnect(&process_, nullptr, this, nullptr);
    if (isRunning()) {
        process_.closeWriteChannel();  // the server exits at end of input
        if (!process_.waitForFinished(1000)) process_.kill();
        process_.waitForFinished(1000);
    }
}

qint64 EngineClient::defaultMemoryLimitMiB() {
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? qint64(pages) * pageSize / 4 * 3 >> 20 : 0;
}

bool EngineClient::setAddress(const QString& text, QString* error) {
    std::optional<EngineAddress> address = EngineAddress::parse(text, error);
    if (!address) return false;
    address_ = *address;
    if (isRunning()) restart();
    return true;
}

void EngineClient::ensureStarted() {
    if (isRunning()) return;
    pending_.clear();
    sshErrors_.clear();
    expectingExit_ = false;
    QStringList serveArgs;
    // This machine's memory says nothing of another's: a remote engine takes what it is given there.
    if (memoryLimitMiB_ > 0 && !address_.isRemote()) serveArgs << "--memory-limit" << QString::number(memoryLimitMiB_);
    process_.start(address_.program(), address_.arguments(serveArgs));
    if (!process_.waitForStarted(5000)) return;
    Q_EMIT engineStarted();
    versionPending_ = true;  // asked before any work: a remote engine may be another build
    process_.write(QByteArray::fromStdString(jsonText(nlohmann::json{{"id", kVersionRequest}, {"method", "version"}}) + "\n"));
}

void EngineClient::checkVersion(const nlohmann::json& result) {
    const int protocolVersion = result.contains("protocol") && result["protocol"].is_number_integer() ? result["protocol"].get<int>() : 0;
    const QString version = qstringField(result, "fusescope");
    if (protocolVersion != protocol::kVersion) {
        expectingExit_ = true;
        process_.kill();
        process_.waitForFinished(2000);
        Q_EMIT engineDied(tr("the engine at %1 speaks protocol %2, this workbench %3: install this Fusescope (%4) there")
                              .arg(address_.shown())
                              .arg(protocolVersion)
                              .arg(protocol::kVersion)
                              .arg(QString::fromStdString(engineVersion())),
                          {});
    } else if (version != QString::fromStdString(engineVersion())) {
        Q_EMIT notice(tr("The engine at %1 is Fusescope %2, this workbench %3: what it reports may differ from this build's")
                          .arg(address_.shown(), version, QString::fromStdString(engineVersion())));
    }
}

int EngineClient::send(const QString& method, nlohmann::json params) {
    ensureStarted();
    int id = nextId_++;
    nlohmann::json request = {{"id", id}, {"method", method.toStdString()}, {"params", std::move(params)}};
    process_.write(QByteArray::fromStdString(jsonText(request) + "\n"));
    return id;
}

namespace {

// What `run` and `minify` share: the script and how to run it.
nlohmann::json scriptParams(const RunRequest& r) {
    nlohmann::json params = {{"script", r.script.toStdString()}, {"file_name", r.fileName.toStdString()},
                             {"device", r.device.toStdString()}};
    if (!r.backend.isEmpty()) params["backend"] = r.backend.toStdString();
    if (r.gpuCodegenOnly) params["gpu_codegen_only"] = true;
    return params;
}

}  // namespace

int EngineClient::run(const RunRequest& r) {
    nlohmann::json params = scriptParams(r);
    params["trace"] = r.trace;
    if (r.checkAccuracy) params["check_accuracy"] = true;
    if (!r.logs.isEmpty()) params["logs"] = r.logs.toStdString();
    if (!r.bundle.isEmpty()) params["bundle"] = r.bundle.toStdString();
    if (!r.debugDir.isEmpty()) params["debug_dir"] = r.debugDir.toStdString();
    if (address_.isRemote()) {  // what the other machine cannot read from ours, and what comes back
        ProjectFiles project = projectFiles(r.fileName);
        params["files"] = project.texts;
        if (project.leftOut)
            Q_EMIT notice(tr("%n file(s) or folder(s) beside %1 were not sent to the engine (past 2000 files or 32 MiB, or not UTF-8)", "",
                             project.leftOut)
                              .arg(QFileInfo(r.fileName).fileName()));
        params["return_files"] = true;
    }
    activeRun_ = send("run", std::move(params));
    activeDescription_ = tr("running %1").arg(QFileInfo(r.fileName).fileName());
    return activeRun_;
}

int EngineClient::minify(const RunRequest& r, bool accuracy) {
    nlohmann::json params = scriptParams(r);
    params["accuracy"] = accuracy;
    activeRun_ = send("minify", std::move(params));
    activeDescription_ = tr("minifying %1").arg(QFileInfo(r.fileName).fileName());
    return activeRun_;
}

int EngineClient::explainFusion(const QString& compileId, const QString& node1, const QString& node2) {
    return send("explain_fusion", {{"compile_id", compileId.toStdString()},
                                   {"node1", node1.toStdString()},
                                   {"node2", node2.toStdString()}});
}

QString EngineClient::failureText(const QString& code, const QString& message) const {
    QString shown = code == "cancelled" ? tr("Stopped: %1").arg(message) : message;
    if (message.contains("not enough memory") && memoryLimitMiB_ > 0)
        shown += tr(" (the engine may take %1 MiB, its memory limit; what the run produced before is kept)").arg(memoryLimitMiB_);
    return shown;
}

void EngineClient::cancel(int requestId) {
    if (isRunning()) send("cancel", {{"id", requestId}});
}

void EngineClient::shutdown() {
    if (!isRunning()) return;
    expectingExit_ = true;
    send("shutdown", nlohmann::json::object());
    if (!process_.waitForFinished(2000)) process_.kill();
}

void EngineClient::kill() {
    if (isRunning()) ::kill(static_cast<pid_t>(process_.processId()), SIGKILL);
}

void EngineClient::restart() {
    if (isRunning()) {
        expectingExit_ = true;
        process_.kill();
        process_.waitForFinished(2000);
    }
    activeRun_ = 0;
    ensureStarted();
}

void EngineClient::readLines(Lines lines) {
    constexpr qint64 kSliceMs = 8;  // well under a frame: the window stays fluid
    pending_ += process_.readAllStandardOutput();
    QElapsedTimer slice;
    slice.start();
    qsizetype start = 0;
    for (qsizetype end; (end = pending_.indexOf('\n', start)) >= 0; start = end + 1) {
        if (lines == Lines::Slice && slice.elapsed() >= kSliceMs) {
            rest_.start(0);
            break;
        }
        handleLine(pending_.mid(start, end - start));
    }
    pending_.remove(0, start);
}

void EngineClient::handleLine(const QByteArray& line) {
    nlohmann::json message = nlohmann::json::parse(line.constBegin(), line.constEnd(), nullptr, false);
    if (message.is_discarded() || !message.is_object()) return;  // not ours: ignore rather than guess
    auto intField = [&](const char* key) { return message[key].is_number_integer() ? message[key].get<int>() : 0; };
    if (message.contains("event")) {
        // Checked as a bundle's events are, so no view meets a field of the wrong kind.
        if (message["event"].is_object() && eventFieldProblem(message["event"]).empty())
            Q_EMIT eventReceived(intField("request"), message["event"]);
        return;
    }
    if (message["id"] == kVersionRequest) {
        versionPending_ = false;
        checkVersion(message.contains("result") ? message["result"] : nlohmann::json::object());
        return;
    }
    int id = intField("id");
    if (id == activeRun_) activeRun_ = 0;
    for (const char* part : {"result", "error"})  // a remote engine's bundle and debug folder, sent back
        if (message.contains(part) && message[part].is_object() && message[part].contains("files")) {
            if (QString error = writeReturnedFiles(message[part]["files"]); !error.isEmpty()) {
                message[part].erase("bundle");
                message[part]["bundle_error"] = error.toStdString();
            }
            message[part].erase("files");
        }
    if (message.contains("result")) {
        Q_EMIT answered(id, message["result"]);
    } else if (message.contains("error")) {
        const auto& e = message["error"];
        Q_EMIT failed(id, qstringField(e, "code"), qstringField(e, "message"));
    }
}

QString EngineClient::writeReturnedFiles(const nlohmann::json& files) const {
    if (!files.is_array()) return tr("the engine sent back files in a form this workbench does not read");
    for (const auto& f : files) {
        const QString path = qstringField(f, "path");
        const QByteArray bytes = QByteArray::fromBase64(QByteArray::fromStdString(f.value("base64", std::string())),
                                                        QByteArray::AbortOnBase64DecodingErrors);
        QSaveFile out(path);
        if (path.isEmpty() || !QDir().mkpath(QFileInfo(path).absolutePath()) || !out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size() ||
            !out.commit())
            return tr("cannot write %1, which the engine sent back: %2").arg(path, out.errorString());
    }
    return {};
}

QString EngineClient::lastSshWords() const {
    const QList<QByteArray> lines = sshErrors_.trimmed().split('\n');
    QString last = lines.isEmpty() ? QString() : QString::fromUtf8(lines.back()).trimmed();
    return last.startsWith("ssh: ") ? last.mid(5) : last;  // shown after "ssh: " already
}

namespace {

// "killed by signal 11 (SIGSEGV: Segmentation fault)"
QString signalDescription(int signal) {
    const char* abbreviation = sigabbrev_np(signal);
    const char* meaning = strsignal(signal);
    if (!abbreviation) return EngineClient::tr("killed by signal %1").arg(signal);
    return EngineClient::tr("killed by signal %1 (SIG%2: %3)").arg(signal).arg(abbreviation).arg(meaning ? meaning : "");
}

}  // namespace

void EngineClient::onFinished(int exitCode, QProcess::ExitStatus status) {
    readLines(Lines::Everything);  // whatever the child wrote before it died is kept
    bool asked = expectingExit_;
    expectingExit_ = false;
    QString running = activeRun_ ? activeDescription_ : QString();
    activeRun_ = 0;
    if (asked) return;
    // On a crash Qt's exit code is the signal's number. Status 3: the server's GPU context
    // was lost to a kernel fault (docs/protocol.md "Crashes"); the run's error said which.
    constexpr int kGpuContextLost = 3;
    constexpr int kSshFailed = 255;  // ssh's own failure: the connection, not the engine
    if (address_.isRemote() && status == QProcess::NormalExit && exitCode == kSshFailed) {
        const QString words = lastSshWords();
        const QString what = versionPending_ ? tr("cannot reach the engine at %1").arg(address_.shown())  // never answered
                                             : tr("the connection to %1 was lost").arg(address_.shown());
        versionPending_ = false;
        Q_EMIT engineDied(words.isEmpty() ? what : tr("%1 (ssh: %2)").arg(what, words), running);
        return;
    }
    QString description = status == QProcess::CrashExit  ? tr("the engine crashed: %1").arg(signalDescription(exitCode))
                          : exitCode == kGpuContextLost ? tr("the engine exited: a GPU kernel faulted and the GPU context is lost")
                                                        : tr("the engine exited with status %1").arg(exitCode);
    Q_EMIT engineDied(description, running);
}

}  // namespace fusescope::gui
