#include "views/stack_trie_view.h"

#include <QFileInfo>
#include <QHeaderView>

namespace fusescope::gui {

namespace {

QString q(const std::string& text) { return QString::fromStdString(text); }

// The child of `parent` (null: the top level) for `frame`, made when it is not there yet.
QTreeWidgetItem* frameItem(QTreeWidget& tree, QTreeWidgetItem* parent, const StackFrame& frame) {
    const QString label = QString("%1 (%2:%3)").arg(q(frame.function), QFileInfo(q(frame.file)).fileName()).arg(frame.line);
    const int count = parent ? parent->childCount() : tree.topLevelItemCount();
    for (int i = 0; i < count; ++i) {
        QTreeWidgetItem* child = parent ? parent->child(i) : tree.topLevelItem(i);
        if (child->data(0, StackTrieView::CompileIdRole).isNull() && child->text(0) == label) return child;
    }
    auto* item = new QTreeWidgetItem({label, q(frame.sourceLine)});
    item->setToolTip(0, QString("%1:%2").arg(q(frame.file)).arg(frame.line));
    if (parent) parent->addChild(item);
    else tree.addTopLevelItem(item);
    return item;
}

}  // namespace

StackTrieView::StackTrieView(const RunStore* store, QWidget* parent) : QTreeWidget(parent), store_(store) {
    setHeaderLabels({tr("Call site / compile"), tr("Source")});
    setUniformRowHeights(true);
    header()->setStretchLastSection(true);
    rebuildTimer_.setSingleShot(true);
    rebuildTimer_.setInterval(100);
    connect(&rebuildTimer_, &QTimer::timeout, this, &StackTrieView::rebuild);
    connect(store_, &RunStore::reset, this, &StackTrieView::rebuild);
    connect(store_, &RunStore::eventAppended, this, [this](int index) {
        if (std::holds_alternative<CompileStartedEvent>(store_->at(index))) rebuildTimer_.start();
    });
    connect(this, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item && !item->data(0, CompileIdRole).isNull()) Q_EMIT compileSelected(item->data(0, CompileIdRole).toString());
    });
    rebuild();
}

void StackTrieView::rebuild() {
    rebuildTimer_.stop();
    const QSignalBlocker quiet(this);
    const QString current = currentItem() ? currentItem()->data(0, CompileIdRole).toString() : QString();
    clear();
    for (const Event& e : store_->events()) {
        const auto* started = std::get_if<CompileStartedEvent>(&e);
        if (!started) continue;
        QTreeWidgetItem* parent = nullptr;
        for (const StackFrame& frame : started->userStack) parent = frameItem(*this, parent, frame);
        auto* compile = new QTreeWidgetItem({QString("%1  %2").arg(q(started->compileId), q(started->function))});
        compile->setData(0, CompileIdRole, q(started->compileId));
        QFont bold = compile->font(0);
        bold.setBold(true);
        compile->setFont(0, bold);
        if (parent) parent->addChild(compile);
        else addTopLevelItem(compile);
    }
    expandAll();
    resizeColumnToContents(0);
    if (!current.isEmpty()) showCompile(current);
}

void StackTrieView::showCompile(const QString& compileId) {
    for (QTreeWidgetItemIterator it(this); *it; ++it)
        if ((*it)->data(0, CompileIdRole).toString() == compileId) {
            const QSignalBlocker quiet(this);
            setCurrentItem(*it);
            return;
        }
}

}  // namespace fusescope::gui
