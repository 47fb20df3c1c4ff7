#pragma once
// The Logs view: one row per `log` event of the run (level, compile id, artifact or
// component name, message), and the proxy that filters them. Rows follow the RunStore.

#include <optional>
#include <vector>

#include <QAbstractTableModel>
#include <QSet>
#include <QSortFilterProxyModel>

#include "observe/event.h"

namespace fusescope::gui {

class RunStore;

class LogsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { LevelColumn, CompileIdColumn, NameColumn, MessageColumn, ColumnCount };
    enum Role {
        LevelRole = Qt::UserRole + 1,  // int(LogLevel): 10 debug ... 40 error, ordered for "at least"
    };
    // DisplayRole of MessageColumn is the first line; ToolTipRole the full text.

    explicit LogsModel(const RunStore* store, QObject* parent = nullptr);

    static QString levelText(LogLevel level);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        LogLevel level;
        QString compileId, name, message;
    };
    static std::optional<Row> toRow(const Event& event);  // nullopt for other events
    void append(int index);
    void rebuild();

    const RunStore* store_;
    std::vector<Row> rows_;
};

// What the Logs view shows of a LogsModel. Every criterion left at its default lets all through.
class LogFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setNames(const QSet<QString>& names);  // artifacts/components to show; empty: all
    void setMinimumLevel(LogLevel level);
    void setCompileId(const QString& id);  // empty: every compile and none
    void setText(const QString& text);     // case-insensitive, anywhere in the full message

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    template <class T> void set(T& field, const T& value);

    QSet<QString> names_;
    LogLevel minimum_ = LogLevel::Debug;
    QString compileId_, text_;
};

}  // namespace fusescope::gui
