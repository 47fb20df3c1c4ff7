#pragma once
// The Graph Breaks dock: every graph break of the run; activating one (double-click, Enter)
// shows its line in the editor. Below the table, the selected break as PyTorch's registry
// words it: its type and GB id, explanation, hints and developer context, and the link to
// its documentation page, which opens in the browser. Once the run's costs are measured
// (the doctor), the table is sorted by cost rank, costliest first, unless the user sorted it
// by a column of their own; the details then say what the break cost.

#include "panes/pane.h"

class QSortFilterProxyModel;
class QTableView;
class QTextBrowser;

namespace fusescope::gui {

class GraphBreaksPane : public Pane {
    Q_OBJECT
public:
    explicit GraphBreaksPane(SelectionContext* context, QWidget* parent = nullptr);

    QTableView* view() const { return view_; }
    QTextBrowser* details() const { return details_; }

private:
    void showDetails(const QModelIndex& index);
    void sortByCostOnceMeasured();

    QTableView* view_;
    QSortFilterProxyModel* sorted_;
    QTextBrowser* details_;
};

}  // namespace fusescope::gui
