#include "model/graph_breaks_model.h"

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
    for (const StackFrame& frame : b->userStack) {
        // Outermost first, as Python prints a stack: the last frame is where the break was.
        out.file = QString::fromStdString(frame.file);
        out.source = QString::fromStdString(frame.sourceLine);
        out.line = frame.line;
        out.stack += QString("%1:%2 in %3\n    %4\n").arg(out.file).arg(out.line).arg(QString::fromStdString(frame.function), out.source);
    }
    return true;
}

void GraphBreaksModel::rebuild() {
    beginResetModel();
    breaks_.clear();
    for (const auto& e : store_->events()) {
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
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case CompileIdColumn: return b.compileIds.join(", ");
        case ReasonColumn: return inInterfaceLanguage(b.reason);
        case LocationColumn: return b.line ? QString("%1:%2").arg(b.file).arg(b.line) : b.file;
        case SourceColumn: return b.source;
        case CountColumn: return b.count;
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
    }
    return {};
}

}  // namespace fusescope::gui
