#pragma once
// The Execution Trace dock: the run's spans as a tree and a timeline (TraceView). Picking a
// kernel span selects the node its kernel computes everywhere; selecting a node elsewhere
// shows a call of its kernel here.

#include "panes/pane.h"

namespace fusescope::gui {

class TraceView;

class TracePane : public Pane {
    Q_OBJECT
public:
    explicit TracePane(SelectionContext* context, QWidget* parent = nullptr);

    TraceView* view() const { return view_; }
    // Selects the first kernel of a compiled graph (eager ops on cuda tensors launch kernels
    // too), else the first kernel, once the worker has indexed the run's spans.
    void showFirstCompiledKernel();

protected:
    void showNode(const QString& graphNode, const QString& buffer) override;

private:
    TraceView* view_;
};

}  // namespace fusescope::gui
