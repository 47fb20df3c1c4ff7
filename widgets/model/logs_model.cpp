#include "model/logs_model.h"

#include "model/run_store.h"

namespace fusescope::gui {

LogsModel::LogsModel(const RunStore* store, QObject* parent) : QAbstractTableModel(parent), store_(store) {
    connect(store, &RunStore::eventAppended, this, &LogsModel::append);
    connect(store, &RunStore::reset, this, &LogsModel::rebuild);
    rebuild();
}

QString LogsModel::levelText(LogLevel level) {
    switch (level) {
        case LogLevel::Debug: return tr("DEBUG");
        case LogLevel::Warning: return tr("WARNING");
        case LogLevel::Error: return tr("ERROR");
        case LogLevel::Info: break;
    }
    return tr("INFO");
}

std::optional<LogsModel::Row> LogsModel::toRow(const Event& event) {
    const auto* log = std::get_if<LogEvent>(&event);
    if (!log) return std::nullopt;
    return Row{log->level, QString::fromStdString(log->compileId), QString::fromStdString(log->name), QString::fromStdString(log->message)};
}

void LogsModel::append(int index) {
    std::optional<Row> row = toRow(store_->at(index));
    if (!row) return;
    beginInsertRows({}, rowCount(), rowCount());
    rows_.push_back(std::move(*row));
    endInsertRows();
}

void LogsModel::rebuild() {
    beginResetModel();
    rows_.clear();
    for (const auto& event : store_->events())
        if (std::optional<Row> row = toRow(event)) rows_.push_back(std::move(*row));
    endResetModel();
}

int LogsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int LogsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant LogsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const Row& row = rows_[static_cast<size_t>(index.row())];
    if (role == LevelRole) return static_cast<int>(row.level);
    if (role == Qt::ToolTipRole && index.column() == MessageColumn) return row.message;
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case LevelColumn: return levelText(row.level);
        case CompileIdColumn: return row.compileId;
        case NameColumn: return row.name;
        case MessageColumn: {
            // One line per row; the record's other lines are counted (the Logs pane shows it whole).
            qsizetype more = row.message.trimmed().count(QLatin1Char('\n'));
            QString first = row.message.section(QLatin1Char('\n'), 0, 0);
            if (more == 0) return first;
            return more == 1 ? tr("%1 … (+1 line)").arg(first) : tr("%1 … (+%2 lines)").arg(first).arg(more);
        }
    }
    return {};
}

QVariant LogsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case LevelColumn: return tr("Level");
        case CompileIdColumn: return tr("Compile");
        case NameColumn: return tr("Name");
        case MessageColumn: return tr("Message");
    }
    return {};
}

template <class T> void LogFilterProxy::set(T& field, const T& value) {
    if (field == value) return;
    field = value;
    invalidateFilter();
}

void LogFilterProxy::setNames(const QSet<QString>& names) { set(names_, names); }
void LogFilterProxy::setMinimumLevel(LogLevel level) { set(minimum_, level); }
void LogFilterProxy::setCompileId(const QString& id) { set(compileId_, id); }
void LogFilterProxy::setText(const QString& text) { set(text_, text); }

bool LogFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    auto cell = [&](int column, int role = Qt::DisplayRole) {
        return sourceModel()->index(sourceRow, column, sourceParent).data(role);
    };
    if (cell(LogsModel::LevelColumn, LogsModel::LevelRole).toInt() < static_cast<int>(minimum_)) return false;
    if (!names_.isEmpty() && !names_.contains(cell(LogsModel::NameColumn).toString())) return false;
    if (!compileId_.isEmpty() && cell(LogsModel::CompileIdColumn).toString() != compileId_) return false;
    return text_.isEmpty() ||
           cell(LogsModel::MessageColumn, Qt::ToolTipRole).toString().contains(text_, Qt::CaseInsensitive);
}

}  // namespace fusescope::gui
