#include "views/torch_compare_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include "views/code_view.h"

namespace fusescope::gui {

namespace {

using Aspect = TorchCompareView::Aspect;

enum Column { CompileColumn, FunctionColumn, GraphsColumn, OpsColumn, GuardsColumn, BreaksColumn, KernelsColumn, ColumnCount };

const QColor kDiffers(255, 236, 204);

QString count(const CompileSide& side, int value) { return side.present ? QString::number(value) : QString::fromUtf8("—"); }

QTableWidgetItem* item(const QString& text, bool differs) {
    auto* cell = new QTableWidgetItem(text);
    cell->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (differs) cell->setBackground(kDiffers);
    return cell;
}

// A count column's cell: "ours | PyTorch's".
QTableWidgetItem* countItem(const CompilePair& pair, int (*of)(const CompileSide&)) {
    const int ours = of(pair.ours), torch = of(pair.torch);
    return item(QString("%1 | %2").arg(count(pair.ours, ours), count(pair.torch, torch)),
                !pair.ours.present || !pair.torch.present || ours != torch);
}

QString aspectText(const CompileSide& side, Aspect aspect) {
    if (!side.present) return {};
    switch (aspect) {
        case Aspect::GraphCode: return side.graphCode;
        case Aspect::Guards: return side.guards.join('\n');
        case Aspect::GraphBreaks: return side.graphBreaks.join('\n');
        case Aspect::RecompileReasons: return side.recompileReasons.join('\n');
        case Aspect::Code: return side.code;
    }
    return {};
}

CodeView::Language languageOf(Aspect aspect, TorchCompareView::Side side) {
    if (aspect == Aspect::GraphCode || aspect == Aspect::Guards) return CodeView::Language::Python;
    if (aspect == Aspect::Code) return side == TorchCompareView::Ours ? CodeView::Language::Cpp : CodeView::Language::Python;
    return CodeView::Language::Plain;
}

}  // namespace

TorchCompareView::TorchCompareView(const RunStore* ours, const RunStore* torch, QWidget* parent)
    : QWidget(parent),
      ours_(ours),
      torch_(torch),
      summary_(new QLabel(this)),
      table_(new QTableWidget(0, ColumnCount, this)),
      aspects_(new QTabWidget(this)) {
    table_->setHorizontalHeaderLabels({tr("Compile"), tr("Function"), tr("Graphs"), tr("Ops"), tr("Guards"), tr("Graph breaks"), tr("Kernels")});
    for (int c = GraphsColumn; c < ColumnCount; ++c)
        table_->horizontalHeaderItem(c)->setToolTip(tr("Ours | PyTorch's; tinted where they differ"));
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row) {
        showPair(row);
        if (row < 0 || static_cast<size_t>(row) >= pairs_.size()) return;
        const CompilePair& pair = pairs_[static_cast<size_t>(row)];
        wanted_ = pair.compileId;
        if (pair.ours.present) Q_EMIT compileSelected(wanted_);  // the other panes show our run
    });

    const QString titles[kAspectCount] = {tr("Graph code"), tr("Guards"), tr("Graph breaks"), tr("Recompile reasons"), tr("Code")};
    for (int a = 0; a < kAspectCount; ++a) {
        auto* pair = new QSplitter(Qt::Horizontal, aspects_);
        for (Side side : {Ours, Torch}) {
            auto* column = new QWidget(pair);
            auto* layout = new QVBoxLayout(column);
            layout->setContentsMargins(0, 0, 0, 0);
            layout->addWidget(new QLabel(side == Ours ? tr("Ours") : tr("PyTorch"), column));
            views_[a][side] = new CodeView(languageOf(static_cast<Aspect>(a), side), column);
            layout->addWidget(views_[a][side], 1);
        }
        aspects_->addTab(pair, titles[a]);
    }

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(table_);
    split->addWidget(aspects_);
    // The two sides' code gets three quarters of the height as the dock grows or shrinks (with
    // the table taking every change, a short dock showed 3 lines of code).
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setSizes({100, 300});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    summary_->setWordWrap(true);
    layout->addWidget(summary_);
    layout->addWidget(split, 1);

    rebuildTimer_.setSingleShot(true);
    rebuildTimer_.setInterval(100);
    connect(&rebuildTimer_, &QTimer::timeout, this, &TorchCompareView::rebuild);
    for (const RunStore* store : {ours_, torch_}) {
        connect(store, &RunStore::reset, this, &TorchCompareView::rebuild);
        connect(store, &RunStore::eventAppended, &rebuildTimer_, qOverload<>(&QTimer::start));
    }
    setTorchSource(tr("No PyTorch run yet: turn on Run Under PyTorch Too in the toolbar and run, or File > Open PyTorch Trace Beside"));
}

void TorchCompareView::setTorchSource(const QString& description) {
    source_ = description;
    rebuild();
}

void TorchCompareView::showCompile(const QString& compileId) {
    wanted_ = compileId;
    for (size_t row = 0; row < pairs_.size(); ++row)
        if (pairs_[row].compileId == compileId) {
            const QSignalBlocker quiet(table_);  // not the user's pick: no compileSelected back
            table_->selectRow(static_cast<int>(row));
            showPair(static_cast<int>(row));
            return;
        }
}

void TorchCompareView::setAspect(Aspect aspect) { aspects_->setCurrentIndex(static_cast<int>(aspect)); }

QString TorchCompareView::summary() const { return summary_->text(); }

QString TorchCompareView::shownCompile() const {
    const int row = table_->currentRow();
    return row >= 0 && static_cast<size_t>(row) < pairs_.size() ? pairs_[static_cast<size_t>(row)].compileId : QString();
}

void TorchCompareView::rebuild() {
    rebuildTimer_.stop();
    pairs_ = pairCompiles(*ours_, *torch_);
    const QSignalBlocker quiet(table_);
    table_->setRowCount(static_cast<int>(pairs_.size()));
    int differ = 0;
    for (int row = 0; row < table_->rowCount(); ++row) {
        const CompilePair& pair = pairs_[static_cast<size_t>(row)];
        differ += pair.countsDiffer();
        const QString ours = pair.ours.function, torch = pair.torch.function;
        const QString function = !pair.ours.present ? torch : !pair.torch.present || ours == torch ? ours : ours + " | " + torch;
        table_->setItem(row, CompileColumn, item(pair.compileId, false));
        table_->setItem(row, FunctionColumn, item(function, false));
        table_->setItem(row, GraphsColumn, countItem(pair, [](const CompileSide& s) { return s.graphs; }));
        table_->setItem(row, OpsColumn, countItem(pair, [](const CompileSide& s) { return s.ops; }));
        table_->setItem(row, GuardsColumn, countItem(pair, [](const CompileSide& s) { return static_cast<int>(s.guards.size()); }));
        table_->setItem(row, BreaksColumn, countItem(pair, [](const CompileSide& s) { return static_cast<int>(s.graphBreaks.size()); }));
        table_->setItem(row, KernelsColumn, countItem(pair, [](const CompileSide& s) { return s.kernels; }));
    }
    table_->resizeColumnsToContents();
    summary_->setText(torch_->size() == 0 ? source_ : tr("%n compile(s), %1 with counts that differ. PyTorch's side: %2", nullptr, static_cast<int>(pairs_.size())).arg(differ).arg(source_));
    int row = 0;
    for (size_t i = 0; i < pairs_.size(); ++i)
        if (pairs_[i].compileId == wanted_) row = static_cast<int>(i);
    if (pairs_.empty()) row = -1;
    table_->selectRow(row);
    showPair(row);
}

void TorchCompareView::showPair(int row) {
    const CompilePair* pair = row >= 0 && static_cast<size_t>(row) < pairs_.size() ? &pairs_[static_cast<size_t>(row)] : nullptr;
    for (int a = 0; a < kAspectCount; ++a)
        for (Side side : {Ours, Torch}) {
            QString text;
            if (pair) {
                const CompileSide& shown = side == Ours ? pair->ours : pair->torch;
                text = !shown.present ? tr("# %1 has no compile %2").arg(side == Ours ? tr("Our run") : tr("PyTorch's run"), pair->compileId)
                                      : aspectText(shown, static_cast<Aspect>(a));
                if (shown.present && text.isEmpty()) text = tr("# none");
            }
            views_[a][side]->showText(text);
        }
}

}  // namespace fusescope::gui
