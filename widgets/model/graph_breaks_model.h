#pragma once
// The Graph Breaks view's table: one row per graph break of the run, with its compile id,
// reason, and where the user's code was (the innermost frame of its user stack; the whole
// stack in the tooltip). LineRole gives that line so the editor can jump to it.

#include <vector>

#include <QAbstractTableModel>

#include "model/run_store.h"

namespace fusescope::gui {

class GraphBreaksModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { CompileIdColumn, ReasonColumn, LocationColumn, SourceColumn, ColumnCount };
    enum Role { LineRole = Qt::UserRole + 1 };  // int: the break's line in the script, 0 when unknown

    explicit GraphBreaksModel(const RunStore* store, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Break {
        QString compileId, reason, file, source, stack;
        int line = 0;
    };
    static bool parse(const Event& event, Break& out);  // false for other events
    void rebuild();
    void append(int eventIndex);

    const RunStore* store_;
    std::vector<Break> breaks_;
};

}  // namespace fusescope::gui
