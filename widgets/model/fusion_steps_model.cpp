#include "model/fusion_steps_model.h"

#include "model/engine_words.h"

#include <algorithm>

#include <QColor>
#include <QHash>

namespace fusescope::gui {

std::optional<FusionStep> FusionStepFilter::step(const Event& event) {
    const auto* d = std::get_if<FusionDecisionEvent>(&event);
    if (!d || compileId_.isEmpty() || d->compileId != compileId_.toStdString()) return std::nullopt;
    if (graph_.empty()) graph_ = d->graph;
    if (d->graph != graph_) return std::nullopt;
    auto q = [](const std::string& s) { return QString::fromStdString(s); };
    return FusionStep{d->step, q(d->node1), q(d->node2), q(d->kind), q(d->reason), q(d->result), d->score, d->fused};
}

std::vector<FusionStep> compileFusionSteps(const RunStore& store, const QString& compileId, const QString& graph) {
    FusionStepFilter filter(compileId, graph);
    std::vector<FusionStep> steps;
    for (int i : store.compileEvents(compileId.toStdString()))
        if (std::optional<FusionStep> s = filter.step(store.at(i))) steps.push_back(std::move(*s));
    return steps;
}

namespace {

// Looks only at the steps before `end`: a group's operands were made before it, so a bundle
// naming a group after itself cannot loop.
QStringList fusedBuffersBefore(const std::vector<FusionStep>& steps, const QString& node, size_t end) {
    for (size_t i = end; i-- > 0;)
        if (steps[i].fused && steps[i].result == node)
            return fusedBuffersBefore(steps, steps[i].node1, i) + fusedBuffersBefore(steps, steps[i].node2, i);
    return {node};
}

}  // namespace

QStringList fusedBuffers(const std::vector<FusionStep>& steps, const QString& node) {
    return fusedBuffersBefore(steps, node, steps.size());
}

QString fusionKindInWords(const QString& kind) {
    if (kind == "vertical") return FusionStepsModel::tr("vertical");
    if (kind == "horizontal") return FusionStepsModel::tr("horizontal");
    return kind;
}

FusionStepsModel::FusionStepsModel(const RunStore* store, QObject* parent) : QAbstractTableModel(parent), store_(store) {
    connect(store_, &RunStore::eventAppended, this, &FusionStepsModel::append);
    connect(store_, &RunStore::reset, this, &FusionStepsModel::rebuild);
}

void FusionStepsModel::setCompile(const QString& compileId, const QString& graph) {
    if (compileId == compileId_ && graph == graph_) return;
    compileId_ = compileId;
    graph_ = graph;
    rebuild();
}

void FusionStepsModel::rebuild() {
    beginResetModel();
    filter_ = FusionStepFilter(compileId_, graph_);
    steps_.clear();
    for (int i : store_->compileEvents(compileId_.toStdString()))
        if (std::optional<FusionStep> s = filter_.step(store_->at(i))) steps_.push_back(std::move(*s));
    endResetModel();
}

void FusionStepsModel::append(int eventIndex) {
    std::optional<FusionStep> s = filter_.step(store_->at(eventIndex));
    if (!s) return;
    int row = static_cast<int>(steps_.size());
    beginInsertRows({}, row, row);
    steps_.push_back(std::move(*s));
    endInsertRows();
}

int FusionStepsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(steps_.size()); }

int FusionStepsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant FusionStepsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const FusionStep& s = steps_[static_cast<size_t>(index.row())];
    if (role == Qt::ToolTipRole) return inInterfaceLanguage(s.reason);
    if (role == Qt::ForegroundRole && index.column() == VerdictColumn) return s.fused ? QColor(0, 128, 0) : QColor(170, 60, 0);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case StepColumn: return s.step;
        case PairColumn: return QString("%1 + %2").arg(s.node1, s.node2);
        case KindColumn: return fusionKindInWords(s.kind);
        case ScoreColumn: return s.score;
        case VerdictColumn: return s.fused ? tr("fused: %1").arg(s.result) : tr("not fused");
        case ReasonColumn: return inInterfaceLanguage(s.reason);
    }
    return {};
}

QVariant FusionStepsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case StepColumn: return tr("Step");
        case PairColumn: return tr("Pair");
        case KindColumn: return tr("Kind");
        case ScoreColumn: return tr("Score");
        case VerdictColumn: return tr("Verdict");
        case ReasonColumn: return tr("Reason");
    }
    return {};
}

DrawnGraph schedulerGraphAt(const CompileProvenance& provenance, const std::vector<FusionStep>& steps, int upTo) {
    // Each pre-fusion node starts as its own group; every fused step merges two groups.
    QHash<QString, QString> groupOf;
    QStringList order;                        // groups in first-member order
    QHash<QString, QStringList> madeFrom;    // group -> the two nodes its step joined
    for (const auto& n : provenance.preFusionNodes()) {
        groupOf[n.name] = n.name;
        order << n.name;
    }
    for (const auto& s : steps) {
        if (s.step > upTo || !s.fused || s.result.isEmpty()) continue;
        for (auto it = groupOf.begin(); it != groupOf.end(); ++it)
            if (it.value() == s.node1 || it.value() == s.node2) it.value() = s.result;
        int at = std::min(order.indexOf(s.node1), order.indexOf(s.node2));
        order.removeAll(s.node1);
        order.removeAll(s.node2);
        order.insert(std::clamp(at, 0, static_cast<int>(order.size())), s.result);
        madeFrom[s.result] = {s.node1, s.node2};
    }
    QHash<QString, QStringList> inputs;  // group -> what it reads, as groups or graph inputs
    QStringList graphInputs;
    for (const auto& n : provenance.preFusionNodes()) {
        QStringList& in = inputs[groupOf[n.name]];
        for (const auto& read : n.reads) {
            QString from = groupOf.value(read, read);
            if (from == groupOf[n.name] || in.contains(from)) continue;
            in << from;
            if (!groupOf.contains(read) && !graphInputs.contains(read)) graphInputs << read;
        }
    }
    DrawnGraph graph;
    for (const auto& input : graphInputs) graph.nodes.push_back({.name = input.toStdString(), .op = "placeholder"});
    for (const auto& group : order) {
        DrawnNode node{.name = group.toStdString(), .op = "scheduler_node"};
        for (const auto& i : inputs.value(group)) node.inputs.push_back(i.toStdString());
        QString first = groupOf.key(group);  // any member: they all end in the same kernel
        node.group = provenance.fusedNodeOf(first).toStdString();
        for (const auto& m : madeFrom.value(group)) node.members.push_back(m.toStdString());
        graph.nodes.push_back(std::move(node));
    }
    return graph;
}

}  // namespace fusescope::gui
