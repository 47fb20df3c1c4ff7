#pragma once
// A dock's content (RenderDoc's ICaptureViewer): it fills itself from the shared
// SelectionContext and reports what the user picks there; the main window only lays panes
// out. A new pane overrides showCompile, showNode and/or showModule, calls context().select...() on a
// click, and gets one dock(...) line in MainWindow::buildDocks.

#include <QWidget>

#include "selection/selection_context.h"

namespace fusescope::gui {

class Pane : public QWidget {
    Q_OBJECT
public:
    explicit Pane(SelectionContext* context, QWidget* parent = nullptr);

protected:
    SelectionContext& context() const { return *context_; }
    // Puts `content` over the whole pane.
    void setContent(QWidget* content);
    // The compile on show changed or gained events.
    virtual void showCompile(const CompileArtifacts&) {}
    // The selected node changed (a graph node and the scheduler node it went into).
    virtual void showNode(const QString& /*graphNode*/, const QString& /*buffer*/) {}
    // The selected module changed (a path of the graph's nn_module_stack).
    virtual void showModule(const QString& /*path*/) {}

private:
    SelectionContext* context_;
};

}  // namespace fusescope::gui
