#pragma once
// The Guards view's table: the guards of one compile (what a later call must match to reuse
// its code), each with the script line that made it and its status: "ok", or how many later
// calls failed it, with what the guard expected and what the call had.
//
// A failure reason names its source and the property that differed, in PyTorch's words
// ("tensor 'L['a']' size mismatch at index 0. expected 3, actual 2"): it goes to that
// source's check_tensor guard. A guard that is not about a tensor's properties (a constant,
// a length, a dynamic dim) fails with its own text as the reason: it goes to that guard.

#include <vector>

#include <QAbstractTableModel>
#include <QStringList>

#include "model/run_store.h"

namespace fusescope::gui {

// One guard of a `guards` event: "check  # source line" split, and the script line when
// the event's `lines` gives it.
struct GuardEntry {
    QString text;    // as the engine wrote it
    QString check;   // without the "# source" comment
    QString source;  // the source line's text, empty when none
    int line = 0;    // 0 unknown
};

// The guards of a `guards` event (entries that are not strings are skipped); empty for
// other events.
std::vector<GuardEntry> guardEntries(const Event& event);
// The guards of one compile (its last `guards` event), empty when it has none yet.
std::vector<GuardEntry> compileGuards(const RunStore& store, const QString& compileId);

// One failure reason, parsed.
struct GuardFailure {
    QString reason;    // the engine's words
    QString source;    // L['a']; empty when the reason is a guard's own text
    QString property;  // "size[0]", "stride[1]", "dtype", "device", "device index", "rank",
                       // "requires_grad", "type"; empty when the reason is a guard's own text
    QString expected, actual;
};
GuardFailure parseGuardFailure(const QString& reason);

class GuardsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { GuardColumn, SourceColumn, StatusColumn, MismatchColumn, ExpectedColumn, ActualColumn, ColumnCount };
    enum Role {
        LineRole = Qt::UserRole + 1,  // int: the guard's line, 0 when unknown
        FileRole,                     // QString: the compiled function's file, as the run's events name it
        FailureCountRole,             // int: how many later calls failed the guard
    };
    // The Mismatch, Expected and Actual columns show the latest failure; the tooltip every one.

    explicit GuardsModel(const RunStore* store, QObject* parent = nullptr);

    QString compileId() const { return compileId_; }
    void setCompileId(const QString& compileId);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        GuardEntry guard;
        std::vector<GuardFailure> failures;
    };
    void rebuild();
    void onAppended(int index);
    // Files each reason of a guard_failure event under its guard; returns the rows changed.
    std::vector<int> applyFailures(const Event& event);
    int rowFor(const GuardFailure& failure) const;  // -1 when no guard is about it
    QString tooltip(const Row& row) const;

    const RunStore* store_;
    QString compileId_;
    QString file_;  // the compiled function's file
    std::vector<Row> rows_;
};

}  // namespace fusescope::gui
