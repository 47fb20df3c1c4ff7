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
    void lineActivated(int line);  // 1-based script line

private:
    GuardsModel* guards_;
    RecompileReasonsModel* recompiles_;
    QTableView* guardTable_;
    QTreeView* recompileList_;
};

}  // namespace fusescope::gui
