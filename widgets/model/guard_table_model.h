#pragma once
// The Guards view's table: the guards of one compile (what a call must match to reuse its
// code), each with the script line that made it and its status: "ok", or how many later
// calls failed it with the expected and actual values of the latest failure. Failure
// reasons name their source (tensor 'L['a']' ...); a failure goes to the guard on that source
// whose kind it is about (size, stride, dtype, ...), else to the source's first guard.

#include <vector>

#include <QAbstractTableModel>
#include <QStringList>

#include "model/run_store.h"

namespace fusescope::gui {

class GuardTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { GuardColumn, SourceColumn, StatusColumn, ExpectedColumn, ActualColumn, ColumnCount };
    enum Role { LineRole = Qt::UserRole + 1, FailedRole };  // int script line (0 unknown); bool

    explicit GuardTableModel(const RunStore* store, QObject* parent = nullptr);

    void setCompileId(const QString& compileId);
    // The script's text, to find each guard's line from the source text it quotes.
    void setScript(const QString& script);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString check, source;  // the guard without / after its "# source" comment
        int line = 0;
        int failures = 0;
        QString expected, actual;
        QStringList reasons;  // every failure's reason, for the tooltip
    };
    void rebuild();
    void onAppended(int index);
    void applyFailure(const QString& reason);

    const RunStore* store_;
    QString compileId_;
    QStringList scriptLines_;
    std::vector<Row> rows_;
};

// The recompiles of the run, for the list under the guard table: "0/1 add_four (file:6)"
// and the guard failures that caused it.
class RecompileReasonsModel : public QAbstractListModel {
    Q_OBJECT
public:
    explicit RecompileReasonsModel(const RunStore* store, QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    void rebuild();
    void onAppended(int index);
    static bool parse(const nlohmann::json& event, QString& text);

    const RunStore* store_;
    QStringList rows_;
};

}  // namespace fusescope::gui
