#include "model/graph_breaks_model.h"

#include "model/json_fields.h"

namespace fusescope::gui {

GraphBreaksModel::GraphBreaksModel(const RunStore* store, QObject* parent) : QAbstractTableModel(parent), store_(store) {
    connect(store_, &RunStore::eventAppended, this, &GraphBreaksModel::append);
    connect(store_, &RunStore::reset, this, &GraphBreaksModel::rebuild);
    rebuild();
}

bool GraphBreaksModel::parse(const nlohmann::json& event, Break& out) {
    if (stringField(event, "type") != "graph_break") return false;
    out.compileId = qstringField(event, "compile_id");
    out.reason = qstringField(event, "reason");
    auto stack = event.find("user_stack");
    if (stack != event.end() && stack->is_array()) {
        for (const auto& frame : *stack) {
            if (!frame.is_object()) continue;
            // Outermost first, as Python prints a stack: the last frame is where the break was.
            out.file = qstringField(frame, "file");
            out.source = qstringField(frame, "source");
            out.line = frame.value("line", nlohmann::json()).is_number_integer() ? frame["line"].get<int>() : 0;
            out.stack += QString("%1:%2 in %3\n    %4\n").arg(out.file).arg(out.line).arg(qstringField(frame, "function"), out.source);
        }
    }
    return true;
}

void GraphBreaksModel::rebuild() {
    beginResetModel();
    breaks_.clear();
    for (const auto& e : store_->events())
        if (Break b; parse(e, b)) breaks_.push_back(std::move(b));
    endResetModel();
}

void GraphBreaksModel::append(int eventIndex) {
    Break b;
    if (!parse(store_->at(eventIndex), b)) return;
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
    if (role == Qt::ToolTipRole) return b.stack.trimmed();
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case CompileIdColumn: return b.compileId;
        case ReasonColumn: return b.reason;
        case LocationColumn: return b.line ? QString("%1:%2").arg(b.file).arg(b.line) : b.file;
        case SourceColumn: return b.source;
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
    }
    return {};
}

}  // namespace fusescope::gui
