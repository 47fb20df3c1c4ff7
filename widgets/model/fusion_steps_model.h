#pragma once
// The Fusion stepper's table: the ordered fusion decisions of one graph of a compile
// (step, the pair, kind, score, verdict, reason), following the run as it streams. Also
// builds the scheduler-node graph as it stood after any step, for the Graph view.

#include <optional>
#include <vector>

#include <QAbstractTableModel>
#include <QStringList>

#include "graph/drawn_graph.h"
#include "model/compile_provenance.h"
#include "model/run_store.h"

namespace fusescope::gui {

struct FusionStep {
    int step = 0;
    QString node1, node2, kind, reason, result;  // result: the fused node, when fused
    qint64 score = 0;
    bool fused = false;
};

// Picks one graph's fusion steps from a compile's events: those of `graph`, or without one,
// of the first graph with any (the graphs of a compile are not mixed).
class FusionStepFilter {
public:
    explicit FusionStepFilter(QString compileId = {}, const QString& graph = {})
        : compileId_(std::move(compileId)), graph_(graph.toStdString()) {}
    std::optional<FusionStep> step(const Event& event);  // nullopt for other events

private:
    QString compileId_;
    std::string graph_;
};

std::vector<FusionStep> compileFusionSteps(const RunStore& store, const QString& compileId, const QString& graph = {});

// The pre-fusion nodes a node of the steps stands for: a group the steps made, its operands'
// (recursively: buf0_buf1_buf2 is buf0, buf1 and buf2); any other node, itself.
QStringList fusedBuffers(const std::vector<FusionStep>& steps, const QString& node);

// A step's kind ("vertical", "horizontal") in the interface's language.
QString fusionKindInWords(const QString& kind);

class FusionStepsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { StepColumn, PairColumn, KindColumn, ScoreColumn, VerdictColumn, ReasonColumn, ColumnCount };

    explicit FusionStepsModel(const RunStore* store, QObject* parent = nullptr);

    // One graph's steps (`graph` empty: the first graph with any).
    void setCompile(const QString& compileId, const QString& graph = {});
    const QString& compileId() const { return compileId_; }
    const std::vector<FusionStep>& steps() const { return steps_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuild();
    void append(int eventIndex);

    const RunStore* store_;
    QString compileId_, graph_;
    FusionStepFilter filter_;  // of compileId_ and graph_, for the steps still to come
    std::vector<FusionStep> steps_;
};

// The scheduler nodes after the first `upTo` steps, as the Graph view draws them: one node
// per group (named as the scheduler named it: buf0_buf1), its inputs the groups and graph
// inputs it reads, `members` the two nodes the step that made it joined, and `group` the
// post-fusion node it ends up in (so colours hold across steps).
DrawnGraph schedulerGraphAt(const CompileProvenance& provenance, const std::vector<FusionStep>& steps, int upTo);

}  // namespace fusescope::gui
