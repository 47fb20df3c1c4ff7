#pragma once
// The Graph dock: the captured graph (each node filled by the kernel it ends in), the
// scheduler nodes once every fusion step is applied, a training graph's forward, backward
// and joint graphs (AOT Autograd's), and the graphs' code. A node of the forward, backward
// or joint graph selects the captured node it computes or differentiates, and a selected
// captured node is highlighted in each of them.

#include <map>
#include <vector>

#include <QSet>

#include "panes/pane.h"

class QTabWidget;

namespace fusescope::gui {

class CodeView;
class GraphView;

class GraphPane : public Pane {
    Q_OBJECT
public:
    explicit GraphPane(SelectionContext* context, QWidget* parent = nullptr);

    GraphView* capturedView() const { return captured_; }
    GraphView* afterFusionView() const { return afterFusion_; }
    // The view of AOT Autograd's graph `stage` (aot_forward_graph, aot_backward_graph,
    // aot_joint_graph), and whether its tab is shown (the compile is a training graph's).
    GraphView* aotView(const QString& stage) const;
    bool aotTabShown(const QString& stage) const;

protected:
    void showCompile(const CompileArtifacts& compile) override;
    void showNode(const QString& graphNode, const QString& buffer) override;
    void showModule(const QString& path) override;

private:
    struct AotTab {
        QString stage;
        GraphView* view;
        std::map<QString, QString> captured;  // node -> the captured node it computes or differentiates
    };
    void showAotNodes(const QStringList& capturedNodes);

    QTabWidget* tabs_;
    QSet<QString> capturedNodes_;  // of the compile's captured graph
    GraphView* captured_;
    GraphView* afterFusion_;
    std::vector<AotTab> aot_;
    CodeView* code_;
};

}  // namespace fusescope::gui
