#include "views/fusion_stepper.h"

#include <algorithm>

#include <QGraphicsScene>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "model/engine_words.h"
#include "views/elided_name.h"
#include "views/graph_view.h"

namespace fusescope::gui {

FusionStepper::FusionStepper(const RunStore* store, QWidget* parent)
    : QWidget(parent), model_(new FusionStepsModel(store, this)) {
    back_ = new QPushButton(tr("◀ Back"), this);
    back_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Left));
    back_->setToolTip(tr("Undo the last fusion step (Alt+Left)"));
    forward_ = new QPushButton(tr("Forward ▶"), this);
    forward_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Right));
    forward_->setToolTip(tr("Apply the next fusion step (Alt+Right)"));
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setPageStep(1);
    position_ = new QLabel(this);
    why_ = new QPushButton(tr("Why not fused?"), this);
    why_->setToolTip(tr("Ask the engine why the pair is or is not one kernel: click a node in the diagram and Ctrl+click a second, or pick a decision in the table"));
    pair_ = new QLabel(this);
    pair_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // a long pair is clipped, never widens the pane
    auto* controls = new QHBoxLayout;
    controls->addWidget(back_);
    controls->addWidget(slider_, 1);
    controls->addWidget(forward_);
    controls->addWidget(position_);
    auto* asking = new QHBoxLayout;
    asking->addWidget(pair_, 1);
    asking->addWidget(why_);

    detail_ = new QLabel(this);
    detail_->setWordWrap(true);
    detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    explanation_ = new QLabel(this);
    explanation_->setWordWrap(true);
    explanation_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    table_ = new QTableView(this);
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->setWordWrap(false);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->horizontalHeader()->setSectionResizeMode(FusionStepsModel::StepColumn, QHeaderView::ResizeToContents);
    graph_ = new GraphView(this);
    // The diagram above (it needs the room), the decisions below.
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(graph_);
    split->addWidget(table_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({300, 200});

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(detail_);
    layout->addLayout(asking);
    layout->addWidget(explanation_);
    layout->addWidget(split, 1);

    connect(back_, &QPushButton::clicked, this, [this] { setStep(step_ - 1); });
    connect(forward_, &QPushButton::clicked, this, [this] { setStep(step_ + 1); });
    connect(slider_, &QSlider::valueChanged, this, &FusionStepper::setStep);
    connect(table_, &QTableView::clicked, this, [this](const QModelIndex& index) { setStep(index.row() + 1); });
    connect(why_, &QPushButton::clicked, this, [this] {
        if (pairNames_.size() != 2) return;
        showExplanation(tr("Asking the engine about %1 and %2...").arg(pairNames_[0], pairNames_[1]));
        Q_EMIT explainRequested(pairNames_[0], pairNames_[1]);
    });
    // Nodes picked in the diagram make the pair; with none picked it is the step's pair.
    connect(graph_->scene(), &QGraphicsScene::selectionChanged, this, [this] {
        QStringList picked = graph_->selectedNames();
        setPair(picked.isEmpty() ? stepPair() : picked);
    });
    connect(graph_, &GraphView::nodeClicked, this, &FusionStepper::nodeClicked);
    // The run streams decisions after the stepper was set up: keep the controls in range.
    connect(model_, &QAbstractItemModel::rowsInserted, this, [this] { refresh(); });
    connect(model_, &QAbstractItemModel::modelReset, this, [this] { setStep(0); });
    refresh();
    setPair({});  // nothing to ask about before a compile is shown
}

void FusionStepper::setCompile(const QString& compileId, const QString& graph, const CompileProvenance& provenance) {
    model_->setCompile(compileId, graph);
    provenance_ = provenance;
    step_ = -1;  // redraw even if the step number stays 0
    freshLayout_ = true;
    setStep(0);
}

void FusionStepper::setStep(int step) {
    step = std::clamp(step, 0, stepCount());
    bool changed = step != step_;
    step_ = step;
    refresh();
    if (!changed) return;
    // Between steps of one compile, nodes keep their places; a new compile starts afresh.
    graph_->showGraph(schedulerGraphAt(provenance_, model_->steps(), step_), !freshLayout_);
    freshLayout_ = false;
    explanation_->clear();
    if (step_ == 0) {
        table_->clearSelection();
        graph_->setHighlighted({});
        setPair({});
        Q_EMIT stepChanged(0, {}, {});
        return;
    }
    const FusionStep& s = model_->steps()[static_cast<size_t>(step_ - 1)];
    table_->selectRow(step_ - 1);
    setPair(stepPair());
    graph_->setHighlighted(s.fused ? QStringList{s.result} : QStringList{s.node1, s.node2});
    Q_EMIT stepChanged(step_, s.node1, s.node2);
}

void FusionStepper::refresh() {
    int count = stepCount();
    QSignalBlocker block(slider_);
    slider_->setRange(0, count);
    slider_->setValue(step_);
    back_->setEnabled(step_ > 0);
    forward_->setEnabled(step_ < count);
    position_->setText(tr("step %1 of %2").arg(step_).arg(count));
    setTextElidingNames(detail_, detailText());
}

QString FusionStepper::detailText() const {
    if (stepCount() == 0) return tr("No fusion decisions in this graph.");
    if (step_ <= 0) return tr("Before fusion: %n scheduler node(s).", nullptr, static_cast<int>(provenance_.preFusionNodes().size()));
    const FusionStep& s = model_->steps()[static_cast<size_t>(step_ - 1)];
    QString verdict = s.fused ? tr("fused into %1").arg(s.result) : tr("not fused");
    return tr("Step %1: %2 + %3 (%4, score %5): %6. %7")
        .arg(s.step)
        .arg(s.node1, s.node2, fusionKindInWords(s.kind))
        .arg(s.score)
        .arg(verdict, inInterfaceLanguage(s.reason));
}

QStringList FusionStepper::stepPair() const {
    if (step_ <= 0) return {};
    const FusionStep& s = model_->steps()[static_cast<size_t>(step_ - 1)];
    return {s.node1, s.node2};
}

void FusionStepper::setPair(const QStringList& pair) {
    pairNames_ = pair.size() <= 2 ? pair : QStringList();
    why_->setEnabled(pairNames_.size() == 2);
    setTextElidingNames(pair_, pairText());
}

QString FusionStepper::pairText() const {
    if (pairNames_.size() == 2) return tr("Pair: %1 + %2").arg(pairNames_[0], pairNames_[1]);
    if (pairNames_.size() == 1) return tr("Pair: %1 + ? (Ctrl+click a second node)").arg(pairNames_[0]);
    return tr("Pair: none (Ctrl+click two nodes)");
}

void FusionStepper::showExplanation(const QString& text) { setTextElidingNames(explanation_, text); }

}  // namespace fusescope::gui
