#pragma once
// The recompiles of the run, for the list under the guard table: the new compile's id, the
// function, where it is defined, the guard failures that caused it, one per line as
// "0/0: tensor 'a' size mismatch ..." (the compile whose guard failed, then why), and the
// doctor's advice on the first: what change to the program avoids the recompile
// (observe/recompile_fixes.h).

#include <vector>

#include <QAbstractTableModel>
#include <QStringList>

#include "model/run_store.h"

namespace fusescope::gui {

class RecompileReasonsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { CompileIdColumn, FunctionColumn, WhereColumn, ReasonsColumn, FixColumn, ColumnCount };
    enum Role {
        CompileIdRole = Qt::UserRole + 1,  // QString: the new compile
        LineRole,                          // int: the function's line, 0 when unknown
        FileRole,                          // QString: the function's file, as the run's events name it
        ReasonsRole,                       // QStringList: the reasons lines
        // The doctor's one-click fix (RecompileEvent::fix): QString file and line, and the
        // text inserted at that line's start; FixTextRole is empty when there is none.
        FixFileRole,
        FixLineRole,
        FixTextRole,
    };

    explicit RecompileReasonsModel(const RunStore* store, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Recompile {
        QString compileId, function, file;
        int line = 0;
        QStringList reasons;
        QString fix;
        QString fixFile, fixText;
        int fixLine = 0;
    };
    static bool parse(const Event& event, Recompile& out);  // false for other events
    void rebuild();
    void append(int eventIndex);

    const RunStore* store_;
    std::vector<Recompile> recompiles_;
};

}  // namespace fusescope::gui
