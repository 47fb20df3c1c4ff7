#include "timeline/trace_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "timeline/timeline_view.h"
#include "timeline/trace_tree_model.h"

namespace fusescope::gui {

TraceView::TraceView(const RunStore* store, QWidget* parent)
    : QWidget(parent), store_(store), model_(new TraceTreeModel(store, this)) {
    tree_ = new QTreeView(this);
    tree_->setModel(model_);
    tree_->setUniformRowHeights(true);  // lets the view skip measuring a million rows
    tree_->header()->setSectionResizeMode(TraceTreeModel::NameColumn, QHeaderView::Interactive);
    tree_->header()->resizeSection(TraceTreeModel::NameColumn, 320);
    timeline_ = new TimelineView(this);
    selection_ = new QLabel(tr("No trace yet: runs record one (spans of ops, compiled calls, kernels and compile phases)."), this);
    selection_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(tree_);
    split->addWidget(timeline_);
    split->setSizes({200, 200});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(selection_);
    layout->addWidget(split, 1);

    debounce_.setSingleShot(true);
    debounce_.setInterval(250);
    connect(&debounce_, &QTimer::timeout, this, &TraceView::startIndexing);
    connect(&watcher_, &QFutureWatcher<std::shared_ptr<const TraceSpans>>::finished, this, [this] {
        spans_ = watcher_.result();
        indexing_ = false;
        shownSpan_ = -1;  // the new index numbers spans anew
        model_->setSpans(spans_);
        timeline_->setSpans(spans_);
        selection_->setText(tr("%n span(s)", nullptr, static_cast<int>(spans_->spans.size())));
        if (stale_) debounce_.start();
        Q_EMIT indexReady();
    });
    connect(store_, &RunStore::traceAppended, this, [this] {
        if (!debounce_.isActive()) debounce_.start();
    });
    connect(store_, &RunStore::reset, this, &TraceView::startIndexing);
    connect(timeline_, &TimelineView::spanSelected, this, [this](int32_t span) {
        QSignalBlocker block(tree_->selectionModel());
        QModelIndex index = model_->indexOfSpan(span);
        if (index.isValid()) {
            tree_->setCurrentIndex(index);
            tree_->scrollTo(index);
            tree_->viewport()->update();
        }
        showSelection(span, true);
    });
    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& index) {
        int32_t span = index.data(TraceTreeModel::SpanRole).toInt();
        timeline_->selectSpan(span);
        showSelection(span, true);
    });
    startIndexing();
}

void TraceView::startIndexing() {
    if (watcher_.isRunning()) {
        stale_ = true;  // indexed again when this one is done
        return;
    }
    stale_ = false;
    indexing_ = true;
    // The worker gets copies: plain data, so the GUI thread goes on appending meanwhile.
    watcher_.setFuture(QtConcurrent::run([records = store_->traces().records(), names = store_->traces().names()]() mutable {
        return std::shared_ptr<const TraceSpans>(std::make_shared<TraceSpans>(indexTraceSpans(records, std::move(names))));
    }));
}

void TraceView::selectSpan(int32_t span) {
    timeline_->selectSpan(span);
    QModelIndex index = model_->indexOfSpan(span);
    QSignalBlocker block(tree_->selectionModel());  // shown, not reported: the user did not pick it
    if (index.isValid()) {
        tree_->setCurrentIndex(index);
        tree_->scrollTo(index);
        tree_->viewport()->update();
    }
    showSelection(span, false);
}

bool TraceView::showKernel(const QString& compileId, const QString& kernel) {
    if (!spans_) return false;
    const std::string id = compileId.toStdString(), name = kernel.toStdString();
    auto isCall = [&](int32_t span) {
        const TraceSpan& s = spans_->spans[static_cast<size_t>(span)];
        return s.category == SpanCategory::Kernel && spans_->nameOf(span) == name &&
               store_->traces().compileIdOf(static_cast<size_t>(s.record)) == id;
    };
    if (shownSpan_ >= 0 && shownSpan_ < static_cast<int32_t>(spans_->spans.size()) && isCall(shownSpan_)) return true;
    for (int32_t span = 0; span < static_cast<int32_t>(spans_->spans.size()); ++span)
        if (isCall(span)) {
            selectSpan(span);
            return true;
        }
    return false;
}

QString TraceView::selectionText() const { return selection_->text(); }

void TraceView::showSelection(int32_t span, bool report) {
    if (!spans_ || span < 0 || span >= static_cast<int32_t>(spans_->spans.size())) return;
    shownSpan_ = span;
    const TraceSpan& s = spans_->spans[static_cast<size_t>(span)];
    QString name = QString::fromStdString(spans_->nameOf(span));
    QString compile = QString::fromStdString(store_->traces().compileIdOf(static_cast<size_t>(s.record)));
    selection_->setText(tr("%1 (%2): %3 µs%4").arg(name, TraceTreeModel::categoryName(s.category))
                            .arg((s.end - s.begin) / 1e3, 0, 'f', 1)
                            .arg(compile.isEmpty() ? QString() : tr(", compile %1").arg(compile)));
    if (report && s.category == SpanCategory::Kernel && !compile.isEmpty()) {
        nlohmann::json event = store_->traces().event(static_cast<size_t>(s.record));
        const nlohmann::json* buffers = event.is_object() && event.contains("buffers") ? &event["buffers"] : nullptr;
        QString buffer = buffers && buffers->is_array() && !buffers->empty() && buffers->front().is_string()
                             ? QString::fromStdString(buffers->front().get<std::string>())
                             : QString();
        Q_EMIT kernelSelected(compile, name, buffer);
    }
}

}  // namespace fusescope::gui
