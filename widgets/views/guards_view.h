#pragma once
// The Guards view: the guard table of the compile on show (GuardsModel) above the list of the
// run's recompiles with the guard failures behind each (RecompileReasonsModel).
// Activating a guard, or a recompile, with a known script line asks to show that line.

#include <QWidget>

#include "model/run_store.h"

class QTableView;
class QTreeView;

namespace fusescope::gui {

class GuardsModel;
class RecompileReasonsModel;

class GuardsView : public QWidget {
    Q_OBJECT
public:
    explicit GuardsView(const RunStore* store, QWidget* parent = nullptr);

    void setCompileId(const QString& compileId);

    GuardsModel* guards() const { return guards_; }
    QTableView* guardTable() const { return guardTable_; }
    QTreeView* recompileList() const { return recompileList_; }

Q_SIGNALS:
    void lineActivated(const QString& file, int line);  // a 1-based line of a file of the run

private:
    GuardsModel* guards_;
    RecompileReasonsModel* recompiles_;
    QTableView* guardTable_;
    QTreeView* recompileList_;
};

}  // namespace fusescope::gui
