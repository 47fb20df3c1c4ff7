#include "model/fusion_steps_model.h"

#include <algorithm>

#include <QColor>
#include <QHash>

#include "model/json_fields.h"

namespace fusescope::gui {

FusionStepsModel::FusionStepsModel(const RunStore* store, QObject* parent) : QAbstractTableModel(parent), store_(store) {
    connect(store_, &RunStore::eventAppended, this, &FusionStepsModel::append);
    connect(store_, &RunStore::reset, this, &FusionStepsModel::rebuild);
}

void FusionStepsModel::setCompileId(const QString& compileId) {
    if (compileId == compileId_) return;
    compileId_ = compileId;
    rebuild();
}

bool FusionStepsModel::parse(const nlohmann::json& event, FusionStep& out) {
    if (stringField(event, "type") != "fusion_decision" || qstringField(event, "compile_id") != compileId_ || compileId_.isEmpty())
        return false;
    std::string graph = stringField(event, "graph");
    if (graph_.empty()) graph_ = graph;
    if (graph != graph_) return false;
    auto integer = [&](const char* key) {
        auto it = event.find(key);
        return it != event.end() && it->is_number_integer() ? it->get<qint64>() : 0;
    };
    auto flag = event.find("fused");
    out = {static_cast<int>(integer("step")), qstringField(event, "node1"), qstringField(event, "node2"), qstringField(event, "kind"),
           qstringField(event, "reason"), qstringField(event, "result"), integer("score"),
           flag != event.end() && flag->is_boolean() && flag->get<bool>()};
    return true;
}

void FusionStepsModel::rebuild() {
    beginResetModel();
    steps_.clear();
    graph_.clear();
    for (int i : store_->compileEvents(compileId_.toStdString()))
        if (FusionStep s; parse(store_->at(i), s)) steps_.push_back(std::move(s));
    endResetModel();
}

void FusionStepsModel::append(int eventIndex) {
    FusionStep s;
    if (!parse(store_->at(eventIndex), s)) return;
    int row = static_cast<int>(steps_.size());
    beginInsertRows({}, row, row);
    steps_.push_back(std::move(s));
    endInsertRows();
}

int FusionStepsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(steps_.size()); }

int FusionStepsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant FusionStepsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const FusionStep& s = steps_[static_cast<size_t>(index.row())];
    if (role == Qt::ToolTipRole) return s.reason;
    if (role == Qt::ForegroundRole && index.column() == VerdictColumn) return s.fused ? QColor(0, 128, 0) : QColor(170, 60, 0);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case StepColumn: return s.step;
        case PairColumn: return QString("%1 + %2").arg(s.node1, s.node2);
        case KindColumn: return s.kind;
        case ScoreColumn: return s.score;
        case VerdictColumn: return s.fused ? tr("fused: %1").arg(s.result) : tr("not fused");
        case ReasonColumn: return s.reason;
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

nlohmann::json schedulerGraphAt(const CompileProvenance& provenance, const std::vector<FusionStep>& steps, int upTo) {
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
    nlohmann::json nodes = nlohmann::json::array();
    for (const auto& input : graphInputs) nodes.push_back({{"name", input.toStdString()}, {"op", "placeholder"}});
    for (const auto& group : order) {
        nlohmann::json node = {{"name", group.toStdString()}, {"op", "scheduler_node"}};
        nlohmann::json in = nlohmann::json::array();
        for (const auto& i : inputs.value(group)) in.push_back(i.toStdString());
        node["inputs"] = std::move(in);
        QString first = groupOf.key(group);  // any member: they all end in the same kernel
        node["group"] = provenance.fusedNodeOf(first).toStdString();
        if (madeFrom.contains(group)) {
            nlohmann::json members = nlohmann::json::array();
            for (const auto& m : madeFrom[group]) members.push_back(m.toStdString());
            node["members"] = std::move(members);
        }
        nodes.push_back(std::move(node));
    }
    return {{"nodes", nodes}};
}

}  // namespace fusescope::gui
