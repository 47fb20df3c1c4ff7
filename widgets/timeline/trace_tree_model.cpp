#include "timeline/trace_tree_model.h"

#include "model/json_fields.h"

namespace fusescope::gui {

// internalId: 0 for a thread row, span index + 1 for a span.
TraceTreeModel::TraceTreeModel(const RunStore* store, QObject* parent) : QAbstractItemModel(parent), store_(store) {}

void TraceTreeModel::setSpans(std::shared_ptr<const TraceSpans> spans) {
    beginResetModel();
    spans_ = std::move(spans);
    endResetModel();
}

QString TraceTreeModel::categoryName(SpanCategory category) {
    switch (category) {
        case SpanCategory::UserAnnotation: return tr("annotation");
        case SpanCategory::Kernel: return tr("kernel");
        case SpanCategory::Compile: return tr("compile");
        case SpanCategory::CpuOp: break;
    }
    return tr("op");
}

QModelIndex TraceTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!spans_ || row < 0 || column < 0 || column >= ColumnCount) return {};
    if (!parent.isValid()) return row < static_cast<int>(spans_->tracks.size()) ? createIndex(row, column, quintptr(0)) : QModelIndex();
    if (parent.internalId() == 0) {
        const auto& roots = spans_->tracks[static_cast<size_t>(parent.row())].roots;
        return row < static_cast<int>(roots.size()) ? createIndex(row, column, quintptr(roots[static_cast<size_t>(row)]) + 1) : QModelIndex();
    }
    size_t span = parent.internalId() - 1;
    int32_t first = spans_->childStart[span], count = spans_->childStart[span + 1] - first;
    return row < count ? createIndex(row, column, quintptr(spans_->children[static_cast<size_t>(first + row)]) + 1) : QModelIndex();
}

QModelIndex TraceTreeModel::indexOfSpan(int32_t span) const {
    if (!spans_ || span < 0 || span >= static_cast<int32_t>(spans_->spans.size())) return {};
    return createIndex(spans_->rowInParent[static_cast<size_t>(span)], 0, quintptr(span) + 1);
}

QModelIndex TraceTreeModel::parent(const QModelIndex& index) const {
    if (!spans_ || !index.isValid() || index.internalId() == 0) return {};
    const TraceSpan& s = spans_->spans[index.internalId() - 1];
    if (s.parent < 0) return createIndex(s.track, 0, quintptr(0));
    return indexOfSpan(s.parent);
}

int TraceTreeModel::rowCount(const QModelIndex& parent) const {
    if (!spans_) return 0;
    if (!parent.isValid()) return static_cast<int>(spans_->tracks.size());
    if (parent.column() != 0) return 0;
    if (parent.internalId() == 0) return static_cast<int>(spans_->tracks[static_cast<size_t>(parent.row())].roots.size());
    size_t span = parent.internalId() - 1;
    return spans_->childStart[span + 1] - spans_->childStart[span];
}

int TraceTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QString TraceTreeModel::shapesOf(const TraceSpan& span) const {
    nlohmann::json e = store_->traces().event(static_cast<size_t>(span.record));
    if (!e.is_object()) return {};
    auto inputs = e.find("inputs");
    if (inputs == e.end() || !inputs->is_object()) return {};
    auto shapes = inputs->find("shapes");
    return shapes != inputs->end() && shapes->is_array() && !shapes->empty() ? QString::fromStdString(shapes->dump()) : QString();
}

QVariant TraceTreeModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !spans_) return {};
    if (index.internalId() == 0) {
        if (role == SpanRole) return -1;
        const TraceTrack& track = spans_->tracks[static_cast<size_t>(index.row())];
        if (role == Qt::DisplayRole && index.column() == NameColumn) return (track.tid < 0 ? tr("GPU %1").arg(-1 - track.tid) : tr("Thread %1").arg(track.tid));
        if (role == Qt::DisplayRole && index.column() == DurationColumn) return tr("%n span(s)", nullptr, static_cast<int>(track.roots.size()));
        return {};
    }
    int32_t spanIndex = static_cast<int32_t>(index.internalId() - 1);
    const TraceSpan& s = spans_->spans[static_cast<size_t>(spanIndex)];
    if (role == SpanRole) return spanIndex;
    if (role == Qt::TextAlignmentRole && index.column() == DurationColumn) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    switch (index.column()) {
        case NameColumn: return QString::fromStdString(spans_->nameOf(spanIndex));
        case CategoryColumn: return s.warmUp ? tr("kernel (warm-up: first call)") : categoryName(s.category);
        case DurationColumn: return QString::number((s.end - s.begin) / 1e3, 'f', 1);
        case ShapesColumn: return shapesOf(s);
        case CompileColumn: {
            nlohmann::json e = store_->traces().event(static_cast<size_t>(s.record));
            if (!e.is_object()) return {};
            QString compile = qstringField(e, "compile_id"), file = qstringField(e, "kernel_file");
            return file.isEmpty() ? compile : QString("%1 %2").arg(compile, file.section('/', -1));
        }
    }
    return {};
}

QVariant TraceTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case NameColumn: return tr("Name");
        case CategoryColumn: return tr("Category");
        case DurationColumn: return tr("Duration (µs)");
        case ShapesColumn: return tr("Input shapes");
        case CompileColumn: return tr("Compile / kernel file");
    }
    return {};
}

}  // namespace fusescope::gui
