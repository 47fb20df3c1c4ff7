#pragma once
// The Ranks dock: every rank of a distributed run side by side (TraceRanks): a picker of the
// rank whose log the panes show; where the ranks first diverge, with links to its source line
// and to the compile on a rank that made it; a row per rank (its compiles, graph breaks,
// recompiles, cache verdicts, compile time, and the checks it differs from the first rank
// in; activating a row shows that rank); and each check across ranks with its groups.

#include "panes/pane.h"

class QComboBox;
class QLabel;
class QTableWidget;
class QTreeWidget;

namespace fusescope::gui {

class TraceRanks;

class RanksPane : public Pane {
    Q_OBJECT
public:
    RanksPane(SelectionContext* context, TraceRanks* ranks, QWidget* parent = nullptr);

    QComboBox* picker() const { return picker_; }
    QLabel* divergence() const { return divergence_; }
    QTableWidget* table() const { return table_; }
    QTreeWidget* checks() const { return checks_; }

private:
    void fill();  // the ranks changed
    void showShownRank();  // the rank on show changed
    void followLink(const QString& link);

    TraceRanks* ranks_;
    QComboBox* picker_;
    QLabel* divergence_;
    QTableWidget* table_;
    QTreeWidget* checks_;
};

}  // namespace fusescope::gui
