#include "window/minify_controller.h"

#include <QAction>
#include <QFileInfo>

#include "model/json_fields.h"
#include "model/minify_answer.h"
#include "panes/minify_pane.h"

namespace fusescope::gui {

MinifyController::MinifyController(EngineClient* engine, MinifyPane* pane, QAction* action, QObject* parent)
    : QObject(parent), engine_(engine), pane_(pane), action_(action) {
    action_->setEnabled(false);
    connect(engine_, &EngineClient::eventReceived, this, [this](int id, const nlohmann::json& event) {
        if (id != request_ || !id) return;
        const QString line = qstringField(event, "message");  // the minifier's progress comes as log events
        pane_->addProgress(line);
        Q_EMIT status(tr("Minifying: %1").arg(line.section('\n', 0, 0)));
    });
    connect(engine_, &EngineClient::answered, this, [this](int id, const nlohmann::json& result) {
        if (id != request_ || !id) return;
        request_ = 0;
        const MinifyAnswer answer = MinifyAnswer::fromJson(result);
        pane_->showResult(answer);
        Q_EMIT status(tr("Minified: went from %1 to %2 nodes").arg(answer.startNodes).arg(answer.endNodes));
        Q_EMIT finished();
    });
    connect(engine_, &EngineClient::failed, this, [this](int id, const QString& code, const QString& message) {
        if (id == request_ && id) fail(engine_->failureText(code, message));
    });
}

void MinifyController::runStarted() {
    action_->setEnabled(false);
    graphFailed_ = accuracyFailed_ = false;
}

void MinifyController::eventStored(const Event& event) {
    if (const auto* failure = std::get_if<GraphFailureEvent>(&event)) {
        graphFailed_ = true;
        accuracyFailed_ = accuracyFailed_ || failure->kind == "accuracy";
    }
}

void MinifyController::runEnded() { action_->setEnabled(graphFailed_); }

bool MinifyController::start(const RunRequest& request) {
    if (request_ || !action_->isEnabled()) return false;
    request_ = engine_->minify(request, accuracyFailed_ || request.checkAccuracy);
    const QString name = QFileInfo(request.fileName).fileName();
    pane_->start(tr("Minifying the first failing graph of %1...").arg(name));
    Q_EMIT status(tr("Minifying %1...").arg(name));
    return true;
}

void MinifyController::abandon(const QString& why) {
    if (request_) fail(why);
}

void MinifyController::fail(const QString& message) {
    request_ = 0;
    pane_->showFailure(message);
    Q_EMIT status(pane_->summary());
    Q_EMIT finished();
}

}  // namespace fusescope::gui
