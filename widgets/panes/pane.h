#pragma once
// A dock's content (RenderDoc's ICaptureViewer): it fills itself from the shared
// SelectionContext and reports what the user picks there; the main window only lays panes
// out. A new pane overrides showCompile, showNode and/or showModule, calls context().select...() on a
// click, and gets a member and one dock(...) line in Docks (window/docks.cpp). A pane that shows one graph
// of the compile asks for the graph picker: a compile with graph breaks has several, and
// each pane can switch between them (all follow).

#include <QWidget>

class QComboBox;
class QLabel;

#include "selection/selection_context.h"

namespace fusescope::gui {

class Pane : public QWidget {
    Q_OBJECT
public:
    explicit Pane(SelectionContext* context, QWidget* parent = nullptr);

    enum class GraphPicker { No, Yes };
    QComboBox* graphPicker() const { return graphPicker_; }  // null without one
    QString emptyNote() const;  // why the pane is empty, as shown ("" while it shows content)

protected:
    SelectionContext& context() const { return *context_; }
    // Puts `content` over the whole pane; with the graph picker above it, shown while the
    // compile has more than one graph.
    void setContent(QWidget* content, GraphPicker picker = GraphPicker::No);
    // Says why there is nothing to show, in place of the content; "" shows the content again.
    void showEmptyNote(const QString& note);
    // The compile on show changed or gained events.
    virtual void showCompile(const CompileArtifacts&) {}
    // The selected node changed (a graph node and the scheduler node it went into).
    virtual void showNode(const QString& /*graphNode*/, const QString& /*buffer*/) {}
    // The selected module changed (a path of the graph's nn_module_stack).
    virtual void showModule(const QString& /*path*/) {}

private:
    void fillGraphPicker(const CompileArtifacts& compile);

    SelectionContext* context_;
    QWidget* pickerRow_ = nullptr;
    QWidget* content_ = nullptr;
    QLabel* emptyNote_ = nullptr;
    QComboBox* graphPicker_ = nullptr;
};

}  // namespace fusescope::gui
