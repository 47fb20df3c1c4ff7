#pragma once
// The Guards view: the guard table of the compile on show (GuardsModel) above the list of the
// run's recompiles with the guard failures behind each (RecompileReasonsModel).
// Activating a guard, or a recompile, with a known script line asks to show that line. A
// recompile the doctor knows an edit for (marking a dim dynamic before the first call)
// enables "Apply Fix and Run", which asks for that edit.

#include <QWidget>

#include "model/run_store.h"

class QPushButton;
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
    QPushButton* applyFixButton() const { return applyFix_; }

Q_SIGNALS:
    void lineActivated(const QString& file, int line);  // a 1-based line of a file of the run
    // Insert `text` at the start of 1-based `line` of `file`, then run again.
    void fixRequested(const QString& file, int line, const QString& text);

private:
    void offerFix();  // the button follows the recompile selected
    QModelIndex selectedRecompile() const;  // invalid when none is

    GuardsModel* guards_;
    RecompileReasonsModel* recompiles_;
    QTableView* guardTable_;
    QTreeView* recompileList_;
    QPushButton* applyFix_;
};

}  // namespace fusescope::gui
