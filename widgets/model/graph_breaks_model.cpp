#include "model/graph_breaks_model.h"

#include <algorithm>
#include <limits>

#include <QUrl>

#include "model/engine_words.h"
#include "observe/graph_break_registry.h"

namespace fusescope::gui {

GraphBreaksModel::GraphBreaksModel(const RunStore* store, QObject* parent) : QAbstractTableModel(parent), store_(store) {
    connect(store_, &RunStore::eventAppended, this, &GraphBreaksModel::append);
    connect(store_, &RunStore::reset, this, &GraphBreaksModel::rebuild);
    rebuild();
}

bool GraphBreaksModel::parse(const Event& event, Break& out) {
    const auto* b = std::get_if<GraphBreakEvent>(&event);
    if (!b) return false;
    out.compileIds = {QString::fromStdString(b->compileId)};
    out.reason = QString::fromStdString(b->reason);
    out.gbId = QString::fromStdString(b->gbId);
    out.explanation = QString::fromStdString(b->explanation);
    out.context = QString::fromStdString(b->context);
    for (const std::string& hint : b->hints) out.hints << QString::fromStdString(hint);
    if (!b->userStack.empty()) {  // outermost first, as Python prints a stack: the last frame is where the break was
        const StackFrame& at = b->userStack.back();
        out.file = QString::fromStdString(at.file);
        out.source = QString::fromStdString(at.sourceLine);
        out.line = at.line;
    }
    out.stack = stackText(b->userStack);
    return true;
}

QString GraphBreaksModel::stackText(const std::vector<StackFrame>& stack) {
    QString text;
    for (const StackFrame& frame : stack)
        text += QString("%1:%2 in %3\n    %4\n")
                    .arg(QString::fromStdString(frame.file))
                    .arg(frame.line)
                    .arg(QString::fromStdString(frame.function), QString::fromStdString(frame.sourceLine));
    return text;
}

bool GraphBreaksModel::addCost(const GraphBreakCostEvent& c) {
    const QString reason = QString::fromStdString(c.reason), stack = stackText(c.userStack);
    auto row = std::find_if(breaks_.begin(), breaks_.end(), [&](const Break& b) { return b.reason == reason && b.stack == stack; });
    if (row == breaks_.end()) return false;
    row->measured = true;
    row->betweenSeconds += c.pythonSeconds;
    row->fusionsLost += c.fusionsLost();
    auto kernels = [](int n) { return n < 0 ? QString("?") : QString::number(n); };
    auto ops = [](int n) { return n == 1 ? tr("1 op") : tr("%1 ops").arg(n); };
    row->cost << tr("%1 splits %2 (%3) from %4 (%5)")
                     .arg(QString::fromStdString(c.compileId), QString::fromStdString(c.graphBefore), ops(c.opsBefore),
                          QString::fromStdString(c.graphAfter), ops(c.opsAfter))
              << tr("between them: %1 ms over %2 calls; compiling them: %3 s + %4 s")
                     .arg(c.pythonSeconds * 1e3, 0, 'f', 3)
                     .arg(c.calls)
                     .arg(c.compileSecondsBefore, 0, 'f', 3)
                     .arg(c.compileSecondsAfter, 0, 'f', 3)
              << (c.kernelsJoined < 0 ? tr("kernels: %1 + %2 apart; as one graph not known (inductor can't lower one of them)")
                                            .arg(kernels(c.kernelsBefore), kernels(c.kernelsAfter))
                                      : tr("kernels: %1 + %2 apart, %3 as one graph: %4 lost")
                                            .arg(c.kernelsBefore)
                                            .arg(c.kernelsAfter)
                                            .arg(c.kernelsJoined)
                                            .arg(c.fusionsLost() == 1 ? tr("1 fusion") : tr("%1 fusions").arg(c.fusionsLost())));
    rank();
    return true;
}

// As the CLI report ranks them: by the time between the graphs, then by the fusions lost.
void GraphBreaksModel::rank() {
    std::vector<Break*> measured;
    for (Break& b : breaks_)
        if (b.measured) measured.push_back(&b);
    std::stable_sort(measured.begin(), measured.end(), [](const Break* a, const Break* b) {
        if (a->betweenSeconds != b->betweenSeconds) return a->betweenSeconds > b->betweenSeconds;
        return a->fusionsLost > b->fusionsLost;
    });
    for (size_t i = 0; i < measured.size(); ++i) measured[i]->rank = static_cast<int>(i) + 1;
}

void GraphBreaksModel::rebuild() {
    beginResetModel();
    breaks_.clear();
    for (const auto& e : store_->events()) {
        if (const auto* cost = std::get_if<GraphBreakCostEvent>(&e)) addCost(*cost);
        Break b;
        if (!parse(e, b)) continue;
        if (int row = sameBreakRow(b); row >= 0) countAgain(breaks_[static_cast<size_t>(row)], b.compileIds.front());
        else breaks_.push_back(std::move(b));
    }
    endResetModel();
}

int GraphBreaksModel::sameBreakRow(const Break& b) const {
    for (size_t row = 0; row < breaks_.size(); ++row)
        if (breaks_[row].reason == b.reason && breaks_[row].stack == b.stack) return static_cast<int>(row);
    return -1;
}

void GraphBreaksModel::countAgain(Break& seen, const QString& compileId) {
    ++seen.count;
    if (!seen.compileIds.contains(compileId)) seen.compileIds << compileId;
}

void GraphBreaksModel::append(int eventIndex) {
    if (const auto* cost = std::get_if<GraphBreakCostEvent>(&store_->at(eventIndex))) {
        if (addCost(*cost) && !breaks_.empty())
            Q_EMIT dataChanged(index(0, BetweenColumn), index(rowCount() - 1, RankColumn));
        return;
    }
    Break b;
    if (!parse(store_->at(eventIndex), b)) return;
    if (int same = sameBreakRow(b); same >= 0) {
        countAgain(breaks_[static_cast<size_t>(same)], b.compileIds.front());
        Q_EMIT dataChanged(index(same, 0), index(same, ColumnCount - 1));
        return;
    }
    int row = static_cast<int>(breaks_.size());
    beginInsertRows({}, row, row);
    breaks_.push_back(std::move(b));
    endInsertRows();
}

int GraphBreaksModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(breaks_.size()); }

int GraphBreaksModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant GraphBreaksModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const Break& b = breaks_[static_cast<size_t>(index.row())];
    if (role == LineRole) return b.line;
    if (role == FileRole) return b.file;
    if (role == Qt::ToolTipRole) return b.stack.trimmed();
    if (role == GbIdRole) return b.gbId;
    if (role == ExplanationRole) return b.explanation;
    if (role == HintsRole) return b.hints;
    if (role == ContextRole) return b.context;
    if (role == LinkRole) return QUrl(QString::fromStdString(graph_break_registry::documentationLink(b.gbId.toStdString())));
    if (role == CostRole) return b.cost;
    if (role == SortRole) {
        switch (index.column()) {  // unmeasured: below every measure, and ranked after every rank
            case BetweenColumn: return b.measured ? b.betweenSeconds : -1.0;
            case FusionsLostColumn: return b.measured ? b.fusionsLost : -1;
            case RankColumn: return b.measured ? b.rank : std::numeric_limits<int>::max();
            case CountColumn: return b.count;
            default: return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= CountColumn) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case CompileIdColumn: return b.compileIds.join(", ");
        case ReasonColumn: return inInterfaceLanguage(b.reason);
        case LocationColumn: return b.line ? QString("%1:%2").arg(b.file).arg(b.line) : b.file;
        case SourceColumn: return b.source;
        case CountColumn: return b.count;
        case BetweenColumn: return b.measured ? QString::number(b.betweenSeconds * 1e3, 'f', 3) : QString();
        case FusionsLostColumn: return b.measured ? QString::number(b.fusionsLost) : QString();
        case RankColumn: return b.measured ? QString::number(b.rank) : QString();
    }
    return {};
}

QVariant GraphBreaksModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case CompileIdColumn: return tr("Compile");
        case ReasonColumn: return tr("Reason");
        case LocationColumn: return tr("Where");
        case SourceColumn: return tr("Source line");
        case CountColumn: return tr("Count");
        case BetweenColumn: return tr("Between graphs (ms)");
        case FusionsLostColumn: return tr("Fusions lost");
        case RankColumn: return tr("Cost rank");
    }
    return {};
}

}  // namespace fusescope::gui
