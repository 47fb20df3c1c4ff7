#include "views/compare_view.h"

#include <algorithm>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>

#include "model/compile_artifacts.h"
#include "model/compile_diff.h"
#include "model/guards_model.h"
#include "views/code_view.h"

namespace fusescope::gui {

namespace {

using Aspect = CompareView::Aspect;

// Above CodeView's tint and highlight markers (0..8).
constexpr int kRemovedMarker = 16;
constexpr int kAddedMarker = 17;

CodeView::Language languageOf(Aspect aspect) {
    switch (aspect) {
        case Aspect::GraphCode:
        case Aspect::Guards: return CodeView::Language::Python;
        case Aspect::PreFusionIr:
        case Aspect::PostFusionIr: return CodeView::Language::IrDump;
        case Aspect::Cpp: return CodeView::Language::Cpp;
    }
    return CodeView::Language::Plain;
}

QStringList aspectLines(const RunStore& store, const QString& compileId, Aspect aspect) {
    if (aspect == Aspect::Guards) {
        QStringList lines;
        for (const GuardEntry& guard : compileGuards(store, compileId)) lines << guard.text;
        return lines;
    }
    CompileArtifacts artifacts = compileArtifacts(store, compileId);
    switch (aspect) {
        case Aspect::GraphCode: return textLines(artifacts.graphs);
        case Aspect::PreFusionIr: return textLines(artifacts.preFusion);
        case Aspect::PostFusionIr: return textLines(artifacts.postFusion);
        case Aspect::Cpp: return textLines(artifacts.source);
        case Aspect::Guards: break;
    }
    return {};
}

CodeView* makeDiffView(Aspect aspect, QWidget* parent) {
    auto* view = new CodeView(languageOf(aspect), parent);
    view->markerDefine(QsciScintilla::Background, kRemovedMarker);
    view->setMarkerBackgroundColor(QColor(255, 220, 220), kRemovedMarker);
    view->markerDefine(QsciScintilla::Background, kAddedMarker);
    view->setMarkerBackgroundColor(QColor(215, 245, 215), kAddedMarker);
    // Each line's number in the before and the after text instead of its number in the diff.
    view->setMarginType(0, QsciScintilla::TextMargin);
    view->setMarginWidth(0, "00000 00000 ");
    return view;
}

// A unified diff: every line of both texts once, "- " removed, "+ " added, "  " kept.
void showDiff(CodeView& view, const LineDiff& diff) {
    QStringList text;
    for (const DiffHunk& hunk : diff.hunks) {
        const QString mark = hunk.kind == DiffHunk::Kind::Removed ? "- " : hunk.kind == DiffHunk::Kind::Added ? "+ " : "  ";
        for (const QString& line : hunk.lines) text << mark + line;
    }
    view.showText(text.join('\n'));
    view.markerDeleteAll(kRemovedMarker);
    view.markerDeleteAll(kAddedMarker);
    view.clearMarginText();
    int row = 0;
    for (const DiffHunk& hunk : diff.hunks) {
        const bool inBefore = hunk.kind != DiffHunk::Kind::Added, inAfter = hunk.kind != DiffHunk::Kind::Removed;
        for (int i = 0; i < hunk.lines.size(); ++i, ++row) {
            QString before = inBefore ? QString::number(hunk.beforeLine + i) : QString();
            QString after = inAfter ? QString::number(hunk.afterLine + i) : QString();
            view.setMarginText(row, QString("%1 %2").arg(before, 5).arg(after, 5), QsciScintillaBase::STYLE_LINENUMBER);
            if (!inBefore) view.markerAdd(row, kAddedMarker);
            if (!inAfter) view.markerAdd(row, kRemovedMarker);
        }
    }
}

}  // namespace

CompareView::CompareView(const RunStore* store, QWidget* parent)
    : QWidget(parent),
      store_(store),
      before_(new QComboBox(this)),
      after_(new QComboBox(this)),
      aspects_(new QTabWidget(this)),
      summary_(new QLabel(this)) {
    const QString titles[kAspectCount] = {tr("Graph code"), tr("Guards"), tr("IR before fusion"), tr("IR after fusion"),
                                          tr("C++")};
    for (int i = 0; i < kAspectCount; ++i) {
        views_[i] = makeDiffView(static_cast<Aspect>(i), aspects_);
        aspects_->addTab(views_[i], titles[i]);
    }
    for (QComboBox* box : {before_, after_}) box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    before_->setToolTip(tr("The compile to compare from"));
    after_->setToolTip(tr("The compile to compare with it"));

    auto* pickers = new QHBoxLayout;
    pickers->addWidget(new QLabel(tr("Before:"), this));
    pickers->addWidget(before_);
    pickers->addWidget(new QLabel(tr("After:"), this));
    pickers->addWidget(after_);
    summary_->setWordWrap(true);  // a long summary takes lines, never the window's width
    summary_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    pickers->addWidget(summary_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(pickers);
    layout->addWidget(aspects_, 1);

    for (QComboBox* box : {before_, after_}) {
        connect(box, &QComboBox::activated, this, [this] { picked_ = true; });
        connect(box, &QComboBox::currentIndexChanged, this, &CompareView::refresh);
    }
    connect(aspects_, &QTabWidget::currentChanged, this, &CompareView::refresh);
    connect(store_, &RunStore::eventAppended, this, &CompareView::onAppended);
    connect(store_, &RunStore::reset, this, &CompareView::reload);
    reload();
}

void CompareView::setCompiles(const QString& before, const QString& after) {
    picked_ = true;
    select(before_->findData(before), after_->findData(after));
}

QString CompareView::beforeCompile() const { return before_->currentData().toString(); }

QString CompareView::afterCompile() const { return after_->currentData().toString(); }

void CompareView::setAspect(Aspect aspect) { aspects_->setCurrentIndex(static_cast<int>(aspect)); }

CompareView::Aspect CompareView::aspect() const { return static_cast<Aspect>(aspects_->currentIndex()); }

QString CompareView::summary() const { return summary_->text(); }

CodeView* CompareView::diffView() const { return views_[static_cast<size_t>(aspects_->currentIndex())]; }

void CompareView::reload() {
    picked_ = false;
    for (QComboBox* box : {before_, after_}) {
        QSignalBlocker quiet(box);
        box->clear();
    }
    for (const Event& e : store_->events())
        if (const auto* started = std::get_if<CompileStartedEvent>(&e)) addCompile(*started);
    showLastTwo();
}

void CompareView::onAppended(int index) {
    const Event& e = store_->at(index);
    if (const auto* started = std::get_if<CompileStartedEvent>(&e)) {
        addCompile(*started);
        if (!picked_) showLastTwo();
        return;
    }
    // A live run: the texts of a compile on show arrive after its compile_started.
    const auto* ir = std::get_if<IrDumpEvent>(&e);
    bool text = std::holds_alternative<GuardsEvent>(e) || std::holds_alternative<GraphCapturedEvent>(e) ||
                std::holds_alternative<KernelSourceEvent>(e) || (ir && ir->stage != "fx_graph_transformed");
    const QString id = QString::fromStdString(compileIdOf(e));
    if (text && (id == beforeCompile() || id == afterCompile())) refresh();
}

void CompareView::addCompile(const CompileStartedEvent& compileStarted) {
    const QString id = QString::fromStdString(compileStarted.compileId);
    const QString label = QString("%1  %2").arg(id, QString::fromStdString(compileStarted.function));
    for (QComboBox* box : {before_, after_}) {
        QSignalBlocker quiet(box);  // adding to an empty box selects the item: showLastTwo or the user decides
        box->addItem(label, id);
    }
}

void CompareView::showLastTwo() {
    const int last = after_->count() - 1;
    select(std::max(0, last - 1), last);
}

void CompareView::select(int beforeIndex, int afterIndex) {
    {
        const QSignalBlocker quietBefore(before_), quietAfter(after_);  // one refresh for both
        before_->setCurrentIndex(beforeIndex);
        after_->setCurrentIndex(afterIndex);
    }
    refresh();
}

void CompareView::refresh() {
    const QString before = beforeCompile(), after = afterCompile();
    CodeView& view = *diffView();
    if (before.isEmpty() || after.isEmpty()) {
        showDiff(view, {});
        summary_->setText(tr("No compiles to compare yet"));
        return;
    }
    if (before == after) {  // one compile so far (a run that failed early, say), or the same picked twice
        showDiff(view, {});
        summary_->setText(after_->count() == 1 ? tr("Only %1 so far: a second compile (a recompile, another function) is needed to compare").arg(after)
                                               : tr("Both sides are %1: pick another compile on one of them").arg(after));
        return;
    }
    const LineDiff diff = diffLines(aspectLines(*store_, before, aspect()), aspectLines(*store_, after, aspect()));
    showDiff(view, diff);
    if (diff.hunks.empty())
        summary_->setText(tr("%1: none in %2 or %3").arg(aspects_->tabText(aspects_->currentIndex()), before, after));
    else
        summary_->setText(tr("Lines added: %1, removed: %2").arg(diff.added).arg(diff.removed));
}

}  // namespace fusescope::gui
