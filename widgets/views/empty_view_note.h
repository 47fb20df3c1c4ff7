#pragma once
// A line in the middle of an item view that has no rows, saying why (no run yet, none in
// this run), instead of a blank table under its headers.

#include <functional>

#include <QString>

class QAbstractItemView;

namespace fusescope::gui {

class RunStore;

// `note` is asked each time the empty view paints (again whenever the store gains events or
// is replaced), so it can say what the run has reached.
void noteWhenEmpty(QAbstractItemView* view, const RunStore* store, std::function<QString()> note);
// The note the view shows now: "" while it has rows (or none was set).
QString emptyViewNote(const QAbstractItemView* view);

}  // namespace fusescope::gui
