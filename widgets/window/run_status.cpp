#include "window/run_status.h"

#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>
#include <QToolButton>

#include "engine/engine_client.h"
#include "model/run_store.h"

namespace fusescope::gui {

namespace {

// What each event says the engine is doing.
QString stageOf(const Event& event) {
    if (std::holds_alternative<CompileStartedEvent>(event)) return RunStatus::tr("capture");
    if (std::holds_alternative<GraphCapturedEvent>(event)) return RunStatus::tr("decompose");
    if (std::holds_alternative<KernelSourceEvent>(event)) return RunStatus::tr("run");
    const auto* ir = std::get_if<IrDumpEvent>(&event);
    if (!ir) return {};
    if (ir->stage == "fx_graph_transformed") return RunStatus::tr("lower");
    if (ir->stage == "ir_pre_fusion") return RunStatus::tr("schedule");
    if (ir->stage == "ir_post_fusion") return RunStatus::tr("codegen");
    return {};
}

// Compile phases are traced when they end, so the end of codegen means the C++ compiler is
// running.
QString stageOf(const TraceLog& traces, const TraceSpanRecord& span) {
    return span.category == SpanCategory::Compile && traces.nameOf(span).starts_with("codegen ") ? RunStatus::tr("compile") : QString();
}

}  // namespace

RunStatus::RunStatus(QStatusBar* bar, EngineClient* engine, const RunStore* store) : QObject(bar) {
    text_ = new QLabel(tr("Ready"), bar);
    bar->addWidget(text_, 1);
    progress_ = new QProgressBar(bar);
    progress_->setRange(0, 0);  // busy: the engine does not say how far a run has got
    progress_->setMaximumWidth(160);
    cancel_ = new QToolButton(bar);
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop the run at its next statement (Esc)"));
    cancel_->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(cancel_, &QToolButton::clicked, engine, [engine] {
        if (engine->activeRun()) engine->cancel(engine->activeRun());
    });
    following_ = new QLabel(bar);
    following_->setObjectName("followingIndicator");
    following_->setToolTip(tr("The file on show is read again as its program writes it"));
    following_->hide();
    bar->addPermanentWidget(following_);
    bar->addPermanentWidget(progress_);
    bar->addPermanentWidget(cancel_);
    setBusy(false);
    connect(store, &RunStore::eventAppended, this, [this, store](int index) {
        if (QString stage = stageOf(store->at(index)); !stage.isEmpty()) setText(tr("Running: %1").arg(stage));
    });
    connect(store, &RunStore::traceAppended, this, [this, store](int record) {
        const TraceLog& traces = store->traces();
        if (QString stage = stageOf(traces, traces.records()[static_cast<size_t>(record)]); !stage.isEmpty())
            setText(tr("Running: %1").arg(stage));
    });
}

void RunStatus::setText(const QString& text) { text_->setText(text); }

QString RunStatus::text() const { return text_->text(); }

void RunStatus::setFollowing(const QString& file) {
    following_->setText(file.isEmpty() ? QString() : tr("\u25CF following %1").arg(file));
    following_->setVisible(!file.isEmpty());
}

QString RunStatus::following() const { return following_->text(); }

void RunStatus::setBusy(bool busy) {
    progress_->setVisible(busy);
    cancel_->setVisible(busy);
}

void RunStatus::setReading(bool reading) { progress_->setVisible(reading); }

}  // namespace fusescope::gui
