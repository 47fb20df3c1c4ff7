#pragma once
// The Graph dock: the captured graph (each node filled by the kernel it ends in), the
// scheduler nodes once every fusion step is applied, and the graphs' code.

#include "panes/pane.h"

namespace fusescope::gui {

class CodeView;
class GraphView;

class GraphPane : public Pane {
    Q_OBJECT
public:
    explicit GraphPane(SelectionContext* context, QWidget* parent = nullptr);

    GraphView* capturedView() const { return captured_; }
    GraphView* afterFusionView() const { return afterFusion_; }

protected:
    void showCompile(const CompileArtifacts& compile) override;
    void showNode(const QString& graphNode, const QString& buffer) override;
    void showModule(const QString& path) override;

private:
    GraphView* captured_;
    GraphView* afterFusion_;
    CodeView* code_;
};

}  // namespace fusescope::gui
