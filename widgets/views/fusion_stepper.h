#pragma once
// The Fusion stepper: the compile's fusion decisions in order, with back / forward buttons
// and a slider. Each step shows its pair, score, verdict and reason, draws the scheduler
// nodes as they stood after it (positions kept between steps), and reports the pair so the
// IR views highlight it. "Why not fused?" asks the engine about a pair: two nodes picked in
// the diagram (click, then Ctrl+click), or the pair of the decision picked in the table.

#include <QWidget>

#include "model/compile_provenance.h"
#include "model/fusion_steps_model.h"

class QLabel;
class QPushButton;
class QSlider;
class QTableView;

namespace fusescope::gui {

class GraphView;

class FusionStepper : public QWidget {
    Q_OBJECT
public:
    FusionStepper(const RunStore* store, QWidget* parent = nullptr);

    // The decisions and scheduler nodes of a graph of a compile; starts at step 0 (before any fusion).
    void setCompile(const QString& compileId, const QString& graph, const CompileProvenance& provenance);
    void setStep(int step);  // 0 .. stepCount()
    int step() const { return step_; }
    int stepCount() const { return static_cast<int>(model_->steps().size()); }
    const FusionStepsModel* model() const { return model_; }
    GraphView* graphView() const { return graph_; }
    QString detailText() const;
    QString pairText() const;  // which two nodes "Why not fused?" asks about
    // The engine's answer to "Why not fused?", shown under the step.
    void showExplanation(const QString& text);

Q_SIGNALS:
    // The pair of the current step (both empty at step 0).
    void stepChanged(int step, const QString& node1, const QString& node2);
    // The user asked why two scheduler nodes are (not) fused.
    void explainRequested(const QString& node1, const QString& node2);
    void nodeClicked(const QString& node);

private:
    void refresh();
    QStringList stepPair() const;  // the current decision's two nodes (none at step 0)
    void setPair(const QStringList& pair);

    FusionStepsModel* model_;
    CompileProvenance provenance_;
    int step_ = 0;
    bool freshLayout_ = true;
    QPushButton* back_;
    QPushButton* forward_;
    QPushButton* why_;
    QSlider* slider_;
    QLabel* position_;
    QLabel* detail_;
    QLabel* explanation_;
    QLabel* pair_;
    QStringList pairNames_;
    QTableView* table_;
    GraphView* graph_;
};

}  // namespace fusescope::gui
