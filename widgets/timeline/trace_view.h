#pragma once
// The Execution Trace dock: the span tree above the timeline, selecting in one selects in
// the other, and a line saying what is selected. The spans are the RunStore's TraceLog; the
// index both views use is rebuilt on a worker thread, at most a few times a second while a
// run streams.

#include <memory>

#include <QFutureWatcher>
#include <QTimer>
#include <QWidget>

#include "model/run_store.h"
#include "timeline/trace_spans.h"

class QLabel;
class QTreeView;

namespace fusescope::gui {

class TimelineView;
class TraceTreeModel;

class TraceView : public QWidget {
    Q_OBJECT
public:
    explicit TraceView(const RunStore* store, QWidget* parent = nullptr);

    const TraceSpans* spans() const { return spans_.get(); }
    bool indexPending() const { return indexing_ || debounce_.isActive(); }
    TimelineView* timeline() const { return timeline_; }
    QTreeView* tree() const { return tree_; }
    TraceTreeModel* model() const { return model_; }
    void selectSpan(int32_t span);  // in both views, without reporting it as the user's pick
    // Shows a call of `kernel` in `compileId` (the first, unless one is on show already), not
    // reporting it; false when the trace has none.
    bool showKernel(const QString& compileId, const QString& kernel);
    QString selectionText() const;

Q_SIGNALS:
    // A kernel span was selected: its compile and kernel function, for the other views.
    // `buffer`: what the kernel call computes, where its span says (extern_kernels.mm calls
    // share a name); "" otherwise.
    void kernelSelected(const QString& compileId, const QString& kernel, const QString& buffer);
    void indexReady();

private:
    void startIndexing();
    void showSelection(int32_t span, bool report);  // report: tell the other views

    const RunStore* store_;
    std::shared_ptr<const TraceSpans> spans_;
    QTimer debounce_;
    QFutureWatcher<std::shared_ptr<const TraceSpans>> watcher_;
    // From starting an index until its result is shown: the watcher says it finished before
    // its finished signal has been delivered.
    bool indexing_ = false;
    bool stale_ = false;  // records changed while the worker was indexing
    TraceTreeModel* model_;
    QTreeView* tree_;
    TimelineView* timeline_;
    QLabel* selection_;
    int32_t shownSpan_ = -1;
};

}  // namespace fusescope::gui
