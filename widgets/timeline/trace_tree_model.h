#pragma once
// The Execution Trace tree: threads, then the spans that ran on each (annotations, ops,
// compiled calls, kernels) nested as they ran, with category, duration, input shapes and
// the kernel's compile. Rows are computed from the TraceSpans index, never one object per
// span, so a million spans cost nothing until they are expanded.

#include <memory>

#include <QAbstractItemModel>

#include "model/run_store.h"
#include "timeline/trace_spans.h"

namespace fusescope::gui {

class TraceTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, CategoryColumn, DurationColumn, ShapesColumn, CompileColumn, ColumnCount };
    enum Role { SpanRole = Qt::UserRole + 1 };  // int: the span index, -1 on a thread row

    explicit TraceTreeModel(const RunStore* store, QObject* parent = nullptr);

    void setSpans(std::shared_ptr<const TraceSpans> spans);
    const TraceSpans* spans() const { return spans_.get(); }
    QModelIndex indexOfSpan(int32_t span) const;
    static QString categoryName(SpanCategory category);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& index) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString shapesOf(const TraceSpan& span) const;

    const RunStore* store_;
    std::shared_ptr<const TraceSpans> spans_;
};

}  // namespace fusescope::gui
