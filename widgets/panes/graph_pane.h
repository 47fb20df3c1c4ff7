#pragma once
// The Graph dock: the captured graph (each node filled by the kernel it ends in), the later
// graphs of the compile in the order PyTorch makes them (pre-grad, AOT Autograd's joint,
// forward, backward or inference graph, post-grad: each tab shown where the compile has
// it), the scheduler nodes once every fusion step is applied, and the graphs' code. A node of
// our forward, backward or joint graph selects the captured node it computes or
// differentiates, and a selected captured node is highlighted in each of them. Above the
// tabs: find a node by name or target (Ctrl+F, Enter for the next), and group the graph by
// module or by source line.

#include <map>
#include <vector>

#include <QSet>

#include "panes/pane.h"

class QComboBox;
class QLabel;
class QLineEdit;
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
    // The view of the graph `stage` (aot_forward_graph, aot_backward_graph, aot_joint_graph,
    // aot_inference_graph, inductor_pre_grad_graph, inductor_post_grad_graph), and whether its
    // tab is shown (the compile has that graph).
    GraphView* stageView(const QString& stage) const;
    bool stageTabShown(const QString& stage) const;
    bool showStageGraph(const QString& stage);  // brings its tab to the front; false when not shown
    QLineEdit* findField() const { return find_; }
    QComboBox* groupingPicker() const { return grouping_; }

protected:
    void showCompile(const CompileArtifacts& compile) override;
    void showNode(const QString& graphNode, const QString& buffer) override;
    void showModule(const QString& path) override;

private:
    struct StageTab {
        QString stage;
        GraphView* view;
        std::map<QString, QString> captured;  // node -> the captured node it computes or differentiates
    };
    void showStageNodes(const QStringList& capturedNodes);
    void showPostGradNodesOfKernel(const QString& kernel);  // PyTorch's post-grad graph
    QWidget* buildToolRow();
    GraphView* viewOnShow() const;  // the graph tab in front, or null
    // Enter in the find field: chooses the match on show as a click would (every pane follows),
    // then the next one, wrapping; typing only shows the first match.
    void findNext();

    QLineEdit* find_;
    QLabel* found_;
    QComboBox* grouping_;
    QStringList matches_;
    int match_ = -1;
    bool matchChosen_ = false;  // the match on show was chosen with Enter

    QTabWidget* tabs_;
    QSet<QString> capturedNodes_;  // of the compile's captured graph
    GraphView* captured_;
    GraphView* afterFusion_;
    std::vector<StageTab> stages_;
    CodeView* code_;
};

}  // namespace fusescope::gui
