#include "panes/trace_pane.h"

#include <QTreeView>

#include "timeline/trace_view.h"

namespace fusescope::gui {

TracePane::TracePane(SelectionContext* context, QWidget* parent) : Pane(context, parent), view_(new TraceView(&context->store(), this)) {
    setContent(view_);
    connect(view_, &TraceView::kernelSelected, context, &SelectionContext::selectKernel);
}

void TracePane::showNode(const QString&, const QString& buffer) {
    if (QString kernel = context().provenance().kernelOf(buffer); !buffer.isEmpty() && !kernel.isEmpty())
        view_->showKernel(context().compileId(), kernel);
}

void TracePane::showFirstCompiledKernel() {
    if (view_->indexPending()) {
        auto* once = new QObject(this);
        connect(view_, &TraceView::indexReady, once, [this, once] {
            showFirstCompiledKernel();
            once->deleteLater();
        });
        return;
    }
    view_->tree()->expandToDepth(1);
    const TraceSpans* spans = view_->spans();
    if (!spans) return;
    int32_t first = -1;
    for (size_t i = 0; i < spans->spans.size(); ++i) {
        const TraceSpan& span = spans->spans[i];
        if (span.category != SpanCategory::Kernel) continue;
        if (first < 0) first = static_cast<int32_t>(i);
        if (!context().store().traces().compileIdOf(static_cast<size_t>(span.record)).empty()) {
            first = static_cast<int32_t>(i);
            break;
        }
    }
    if (first >= 0) view_->selectSpan(first);
}

}  // namespace fusescope::gui
