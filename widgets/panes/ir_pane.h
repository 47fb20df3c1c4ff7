#pragma once
// The IR dock: the scheduler's IR before and after fusion, side by side. The selected node's
// blocks are highlighted, and so are the two nodes of the fusion step on show; above them,
// why the selected buffer is a buffer (inductor's realization decision and its reason).

#include "panes/pane.h"

class QLabel;

namespace fusescope::gui {

class CodeView;

class IrPane : public Pane {
    Q_OBJECT
public:
    explicit IrPane(SelectionContext* context, QWidget* parent = nullptr);

    CodeView* preFusionView() const { return preFusion_; }
    CodeView* postFusionView() const { return postFusion_; }
    QLabel* realizationLabel() const { return why_; }

protected:
    void showCompile(const CompileArtifacts& compile) override;
    void showNode(const QString& graphNode, const QString& buffer) override;
    // A module: the blocks of every buffer its nodes went into.
    void showModule(const QString& path) override;

private:
    void showFusionPair(const QString& node1, const QString& node2);
    void highlightBuffers(const QStringList& buffers);
    void showRealization(const QString& buffer);

    QLabel* why_;
    CodeView* preFusion_;
    CodeView* postFusion_;
};

}  // namespace fusescope::gui
