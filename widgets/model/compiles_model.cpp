#include "model/compiles_model.h"

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "model/run_store.h"

namespace fusescope::gui {

namespace {

constexpr std::string_view regionPrefix = "Torch-Compiled Region: ";  // + the compile id that ran

}  // namespace

CompilesModel::Status CompilesModel::Compile::status() const {
    return compiling && !failed ? Status::Compiling : settled();
}

CompilesModel::Status CompilesModel::Compile::settled() const {
    if (failed) return Status::Failed;
    if (eager) return Status::Eager;
    if (graphBreak) return Status::GraphBreak;
    return recompiled ? Status::Recompiled : Status::Ok;
}

void CompilesModel::Compile::addPhase(int64_t begin, int64_t end) {
    traced = true;
    phases.emplace_back(begin, end);
    std::sort(phases.begin(), phases.end());
    int64_t covered = 0, reached = INT64_MIN;
    for (const auto& [b, e] : phases) {
        int64_t from = std::max(b, reached);
        if (e > from) covered += e - from;
        reached = std::max(reached, e);
    }
    traceMs = static_cast<double>(covered) / 1e6;
}

void CompilesModel::Compile::mark(bool Compile::*flag, const std::string& why) {
    Status before = settled();
    this->*flag = true;
    if (settled() != before) reason = QString::fromStdString(why);
}

CompilesModel::CompilesModel(const RunStore* store, QObject* parent) : QAbstractItemModel(parent), store_(store) {
    connect(store, &RunStore::eventAppended, this, [this](int i) { apply(store_->at(i)); });
    connect(store, &RunStore::traceAppended, this, [this](int i) { applyTrace(static_cast<size_t>(i)); });
    connect(store, &RunStore::reset, this, &CompilesModel::rebuild);
    rebuild();
}

QString CompilesModel::statusText(Status status) {
    switch (status) {
        case Status::Failed: return tr("failed");
        case Status::Compiling: return tr("compiling");
        case Status::Eager: return tr("fell back to eager");
        case Status::GraphBreak: return tr("graph break");
        case Status::Recompiled: return tr("recompiled");
        case Status::Ok: break;
    }
    return tr("ok");
}

QModelIndex CompilesModel::indexForCompileId(const QString& id, int column) const {
    auto it = places_.constFind(id);
    if (it == places_.constEnd()) return {};
    return index(it->compile, column, index(it->function, 0));
}

void CompilesModel::rebuild() {
    beginResetModel();
    resetting_ = true;
    functions_.clear();
    functionRows_.clear();
    places_.clear();
    compiling_.clear();
    for (const auto& event : store_->events()) apply(event);
    for (size_t i = 0; i < store_->traces().size(); ++i) applyTrace(i);
    resetting_ = false;
    endResetModel();
}

void CompilesModel::applyTrace(size_t record) {
    const TraceLog& traces = store_->traces();
    const TraceSpanRecord& r = traces.records()[record];
    if (r.category == SpanCategory::Compile) {
        QString id = QString::fromStdString(traces.compileIdOf(record));
        if (Compile* c = find(id)) {
            c->addPhase(r.begin, r.end);
            changed(id);
        }
    } else if (const std::string& name = traces.nameOf(r); name.starts_with(regionPrefix)) {
        QString ran = QString::fromUtf8(name.data() + regionPrefix.size(), static_cast<qsizetype>(name.size() - regionPrefix.size()));
        if (Compile* c = find(ran)) {
            ++c->hits;
            changed(ran);
        }
    }
}

void CompilesModel::apply(const Event& event) {
    const QString id = QString::fromStdString(compileIdOf(event));
    if (const auto* started = std::get_if<CompileStartedEvent>(&event)) {
        startCompile(QString::fromStdString(started->function), id);
        compiling_ = id;
        if (Compile* c = find(id)) c->compiling = true;
    } else if (std::holds_alternative<GuardsEvent>(event)) {
        if (id == compiling_) compiling_.clear();  // guards are installed last: the compile is done
        if (Compile* c = find(id); c && c->compiling) {
            c->compiling = false;
            changed(id);
        }
    } else if (const auto* recompile = std::get_if<RecompileEvent>(&event)) {
        // Dynamo recompiles only after the guards of every cache entry failed, so every
        // earlier compile of the function was recompiled.
        auto row = functionRows_.constFind(QString::fromStdString(recompile->function));
        if (row == functionRows_.constEnd()) return;
        for (Compile& c : functions_[*row].compiles) {
            c.mark(&Compile::recompiled, recompile->message);
            changed(c.id);
        }
    } else if (const auto* error = std::get_if<ErrorEvent>(&event)) {
        // Errors carry no compile id: one raised while a compile is open failed it.
        if (Compile* c = find(compiling_)) {
            c->mark(&Compile::failed, error->message);
            changed(c->id);
        }
    } else if (Compile* c = find(id)) {
        if (const auto* captured = std::get_if<GraphCapturedEvent>(&event)) {
            ++c->graphs;
            c->ops += captured->opCount;
            if (!captured->breakReason.empty()) c->mark(&Compile::graphBreak, captured->breakReason);
        } else if (const auto* graphBreak = std::get_if<GraphBreakEvent>(&event)) {
            c->mark(&Compile::graphBreak, graphBreak->reason);
        } else if (const auto* fallback = std::get_if<EagerFallbackEvent>(&event)) {
            c->mark(&Compile::eager, fallback->reason);
            if (fallback->graph.empty()) c->compiling = false;  // the whole frame runs eagerly: no guards come
        } else if (const auto* kernel = std::get_if<KernelSourceEvent>(&event)) {
            c->kernelMs += kernel->compileSeconds * 1e3;
            if (!kernel->error.empty()) c->mark(&Compile::eager, kernel->error);
        } else {
            return;
        }
        changed(id);
    }
}

void CompilesModel::startCompile(const QString& function, const QString& id) {
    if (places_.contains(id)) return;
    auto insert = [this](const QModelIndex& parent, int row, auto&& push) {
        if (!resetting_) beginInsertRows(parent, row, row);
        push();
        if (!resetting_) endInsertRows();
    };
    auto row = functionRows_.constFind(function);
    if (row == functionRows_.constEnd()) {
        int f = static_cast<int>(functions_.size());
        insert({}, f, [&] { functions_.push_back({function, {}}); });
        row = functionRows_.insert(function, f);
    }
    int f = *row, c = static_cast<int>(functions_[f].compiles.size());
    insert(index(f, 0), c, [&] {
        functions_[f].compiles.emplace_back().id = id;
        places_.insert(id, {f, c});
    });
    changed(id);
}

CompilesModel::Compile* CompilesModel::find(const QString& id) {
    auto it = places_.constFind(id);
    return it == places_.constEnd() ? nullptr : &functions_[it->function].compiles[it->compile];
}

void CompilesModel::changed(const QString& id) {
    if (resetting_) return;
    Place p = places_.value(id);
    QModelIndex function = index(p.function, 0);
    Q_EMIT dataChanged(index(p.compile, 0, function), index(p.compile, ColumnCount - 1, function));
    Q_EMIT dataChanged(function, index(p.function, ColumnCount - 1));  // it sums its compiles
}

CompilesModel::Compile CompilesModel::summary(const Function& f) {
    Compile total;
    for (const Compile& c : f.compiles) {
        total.failed |= c.failed;
        total.compiling |= c.compiling;
        total.eager |= c.eager;
        total.graphBreak |= c.graphBreak;
        total.recompiled |= c.recompiled;
        total.graphs += c.graphs;
        total.ops += c.ops;
        total.hits += c.hits;
        total.kernelMs += c.ms();
    }
    return total;
}

QModelIndex CompilesModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent)) return {};
    // The internal id says whose child a row is: 0 for a function, function row + 1 for a compile.
    return createIndex(row, column, parent.isValid() ? quintptr(parent.row() + 1) : quintptr(0));
}

QModelIndex CompilesModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == 0) return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr(0));
}

int CompilesModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return static_cast<int>(functions_.size());
    if (parent.internalId() != 0 || parent.column() != 0) return 0;
    return static_cast<int>(functions_[parent.row()].compiles.size());
}

int CompilesModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant CompilesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    if (index.internalId() != 0)
        return compileData(functions_[index.internalId() - 1].compiles[index.row()], index.column(), role);
    const Function& f = functions_[index.row()];
    if ((role == Qt::DisplayRole || role == Qt::ToolTipRole) && index.column() == NameColumn) return f.name;  // tooltip: an elided name whole
    return compileData(summary(f), index.column(), role);
}

QVariant CompilesModel::compileData(const Compile& c, int column, int role) {
    switch (role) {
        case CompileIdRole: return c.id;
        case StatusRole: return static_cast<int>(c.status());
        // The status column may be elided: its reason, or the status itself.
        case Qt::ToolTipRole: return column == StatusColumn ? QVariant(c.reason.isEmpty() ? statusText(c.status()) : c.reason) : QVariant();
        case Qt::TextAlignmentRole:
            return column >= GraphsColumn ? QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
        case Qt::DisplayRole: break;
        default: return {};
    }
    switch (column) {
        case NameColumn: return c.id;
        case StatusColumn: return statusText(c.status());
        case GraphsColumn: return c.graphs;
        case OpsColumn: return c.ops;
        case TimeColumn: return QString::number(c.ms(), 'f', 1);
        case HitsColumn: return c.hits;
    }
    return {};
}

QVariant CompilesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == TimeColumn)
        return tr("Compile time in milliseconds: capture, lowering, scheduling, code generation and the C++ compiler");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case NameColumn: return tr("Function / compile");
        case StatusColumn: return tr("Status");
        case GraphsColumn: return tr("Graphs");
        case OpsColumn: return tr("Ops");
        case TimeColumn: return tr("ms");
        case HitsColumn: return tr("Hits");
    }
    return {};
}

}  // namespace fusescope::gui
