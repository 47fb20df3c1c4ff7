#pragma once
// The Graph Breaks view's table: one row per distinct graph break of the run (the same reason
// at the same user stack is one break, however many compiles hit it), with the compile ids
// that hit it, its reason, where the user's code was (the innermost frame of its user stack;
// the whole stack in the tooltip) and how many times it was hit. LineRole gives that line so
// the editor can jump to it; the other roles give what PyTorch's registry entry says of it
// (its reason is the entry's gb_type). At the run's end the doctor's measures arrive
// (GraphBreakCostEvent): the time spent between the graphs the break split, the fusions it
// prevented, and the break's rank by that cost (1: costliest).

#include <vector>

#include <QAbstractTableModel>

#include "model/run_store.h"

namespace fusescope::gui {

class GraphBreaksModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        CompileIdColumn,
        ReasonColumn,
        LocationColumn,
        SourceColumn,
        CountColumn,
        BetweenColumn,      // ms between the graphs it split, over the run
        FusionsLostColumn,
        RankColumn,         // by cost; empty until measured
        ColumnCount
    };
    enum Role {
        LineRole = Qt::UserRole + 1,  // int: the break's line, 0 when unknown
        FileRole,                     // QString: the break's file, as the run's events name it
        GbIdRole,                     // QString: "GB0059"; empty for a break PyTorch does not make
        ExplanationRole,              // QString
        HintsRole,                    // QStringList
        ContextRole,                  // QString: Dynamo's developer debug context
        LinkRole,                     // QUrl: the GB id's documentation page; empty without one
        CostRole,                     // QStringList: what the break cost, one line per pair of graphs it split
        SortRole,                     // a number for the measured columns (unmeasured last), else the text
    };

    explicit GraphBreaksModel(const RunStore* store, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Break {
        QStringList compileIds;
        QString reason, file, source, stack;
        QString gbId, explanation, context;
        QStringList hints;
        int line = 0;
        int count = 1;
        // The doctor's measures, summed over the pairs of graphs it split.
        bool measured = false;
        double betweenSeconds = 0;
        int fusionsLost = 0;
        int rank = 0;
        QStringList cost;
    };
    static bool parse(const Event& event, Break& out);  // false for other events
    static QString stackText(const std::vector<StackFrame>& stack);
    void rebuild();
    void append(int eventIndex);
    // Adds a cost event to its break's row (false when it is none); ranks every row again.
    bool addCost(const GraphBreakCostEvent& cost);
    void rank();
    // The row of the same break (reason and user stack); -1 when `b` is the first of its kind.
    int sameBreakRow(const Break& b) const;
    static void countAgain(Break& seen, const QString& compileId);

    const RunStore* store_;
    std::vector<Break> breaks_;
};

}  // namespace fusescope::gui
