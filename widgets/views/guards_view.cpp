#include "views/guards_view.h"

#include <algorithm>

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

#include "model/guards_model.h"
#include "model/recompile_reasons_model.h"
#include "views/empty_view_note.h"

namespace fusescope::gui {

GuardsView::GuardsView(const RunStore* store, QWidget* parent)
    : QWidget(parent),
      guards_(new GuardsModel(store, this)),
      recompiles_(new RecompileReasonsModel(store, this)),
      guardTable_(new QTableView(this)),
      recompileList_(new QTreeView(this)),
      applyFix_(new QPushButton(tr("Apply Fix and Run"), this)) {
    guardTable_->setModel(guards_);
    guardTable_->verticalHeader()->hide();
    guardTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    guardTable_->setWordWrap(false);
    guardTable_->horizontalHeader()->setSectionResizeMode(GuardsModel::GuardColumn, QHeaderView::Stretch);
    // The guard is what is read: a long source line is elided (whole in its tooltip), not
    // given the guard's width.
    guardTable_->horizontalHeader()->setSectionResizeMode(GuardsModel::SourceColumn, QHeaderView::Interactive);
    guardTable_->horizontalHeader()->resizeSection(GuardsModel::SourceColumn, 220);
    guardTable_->setTextElideMode(Qt::ElideRight);

    // A tree view, not a table: rows grow to their reasons' lines.
    recompileList_->setModel(recompiles_);
    recompileList_->setRootIsDecorated(false);
    recompileList_->setAlternatingRowColors(true);
    recompileList_->setUniformRowHeights(false);
    for (int column : {RecompileReasonsModel::CompileIdColumn, RecompileReasonsModel::FunctionColumn,
                       RecompileReasonsModel::WhereColumn})
        recompileList_->header()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    // The failures keep their lines; the advice, last, takes the rest of the width and wraps.
    recompileList_->setWordWrap(true);
    recompileList_->header()->setSectionResizeMode(RecompileReasonsModel::ReasonsColumn, QHeaderView::Interactive);
    recompileList_->header()->resizeSection(RecompileReasonsModel::ReasonsColumn, 480);

    auto showLine = [this](int fileRole, int lineRole) {
        return [this, fileRole, lineRole](const QModelIndex& index) {
            if (int line = index.data(lineRole).toInt(); line > 0) Q_EMIT lineActivated(index.data(fileRole).toString(), line);
        };
    };
    connect(guardTable_, &QAbstractItemView::activated, this, showLine(GuardsModel::FileRole, GuardsModel::LineRole));
    connect(recompileList_, &QAbstractItemView::activated, this,
            showLine(RecompileReasonsModel::FileRole, RecompileReasonsModel::LineRole));

    noteWhenEmpty(guardTable_, store, [this, store] {
        const auto& events = store->events();
        auto isCompile = [](const Event& e) { return std::holds_alternative<CompileStartedEvent>(e); };
        if (events.empty()) return tr("No run yet: a compile's guards show here.");
        if (!guards_->compileId().isEmpty()) return tr("Compile %1 has no guards.").arg(guards_->compileId());
        return std::any_of(events.begin(), events.end(), isCompile) ? tr("Select a compile to see its guards.")
                                                                    : tr("No compiles in this run.");
    });
    noteWhenEmpty(recompileList_, store, [store] {
        return store->events().empty() ? tr("No run yet: recompiles and the guards that failed show here.")
                                       : tr("No recompiles in this run.");
    });
    applyFix_->setObjectName("applyRecompileFix");
    offerFix();
    connect(recompileList_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &GuardsView::offerFix);
    connect(recompiles_, &QAbstractItemModel::modelReset, this, &GuardsView::offerFix);  // a new run: no row selected
    connect(applyFix_, &QPushButton::clicked, this, [this] {
        const QModelIndex fix = selectedRecompile();
        Q_EMIT fixRequested(fix.data(RecompileReasonsModel::FixFileRole).toString(),
                            fix.data(RecompileReasonsModel::FixLineRole).toInt(), fix.data(RecompileReasonsModel::FixTextRole).toString());
    });
    auto* recompiles = new QWidget(this);
    auto* recompilesLayout = new QVBoxLayout(recompiles);
    recompilesLayout->setContentsMargins(0, 0, 0, 0);
    recompilesLayout->addWidget(recompileList_);
    recompilesLayout->addWidget(applyFix_, 0, Qt::AlignRight);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(guardTable_);
    split->addWidget(recompiles);
    split->setSizes({200, 120});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

QModelIndex GuardsView::selectedRecompile() const {
    const QModelIndexList rows = recompileList_->selectionModel()->selectedRows();
    return rows.isEmpty() ? QModelIndex() : rows.first();
}

void GuardsView::offerFix() {
    const QModelIndex fix = selectedRecompile();
    const QString text = fix.data(RecompileReasonsModel::FixTextRole).toString();
    applyFix_->setEnabled(!text.isEmpty());
    if (!fix.isValid()) applyFix_->setToolTip(tr("Select a recompile the doctor knows an edit for"));
    else if (text.isEmpty()) applyFix_->setToolTip(tr("No edit is known for this recompile: see How to avoid it"));
    else
        applyFix_->setToolTip(tr("Insert %1 before line %2 of %3, then run again")
                                  .arg(text.trimmed(), QString::number(fix.data(RecompileReasonsModel::FixLineRole).toInt()),
                                       fix.data(RecompileReasonsModel::FixFileRole).toString()));
}

void GuardsView::setCompileId(const QString& compileId) {
    guards_->setCompileId(compileId);
    // Point at the recompile that made this compile, if one did: why its guards are as they are.
    QModelIndexList made = recompiles_->match(recompiles_->index(0, 0), RecompileReasonsModel::CompileIdRole, compileId, 1,
                                              Qt::MatchExactly);
    if (made.isEmpty()) recompileList_->clearSelection();
    else recompileList_->setCurrentIndex(made.first());
}

}  // namespace fusescope::gui
