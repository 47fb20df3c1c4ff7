#include "panes/modules_pane.h"

#include <functional>

#include <QHeaderView>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "graph/module_groups.h"

namespace fusescope::gui {

namespace {
constexpr int kPathRole = Qt::UserRole;
}

ModulesPane::ModulesPane(SelectionContext* context, QWidget* parent) : Pane(context, parent) {
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    filter_ = new QLineEdit(content);
    filter_->setPlaceholderText(tr("Filter modules by path or class"));
    filter_->setClearButtonEnabled(true);
    tree_ = new QTreeWidget(content);
    tree_->setHeaderLabels({tr("Module"), tr("Class"), tr("Ops")});
    tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tree_->setExpandsOnDoubleClick(false);  // double-click expands the module in the graph
    layout->addWidget(filter_);
    layout->addWidget(tree_);
    setContent(content, GraphPicker::Yes);
    connect(filter_, &QLineEdit::textChanged, this, &ModulesPane::applyFilter);
    connect(tree_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        this->context().selectModule(item->data(0, kPathRole).toString());
    });
    connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {  // double-click or Enter
        this->context().toggleModule(item->data(0, kPathRole).toString());
    });
}

void ModulesPane::showCompile(const CompileArtifacts& a) {
    tree_->clear();
    items_.clear();
    moduleOfNode_.clear();
    ModuleStacks stacks = moduleStacks(a.graph);
    ModuleTree modules(stacks);
    for (size_t i = 0; i < a.graph.nodes.size(); ++i)
        if (!stacks.stacks[i].empty())
            moduleOfNode_.insert(QString::fromStdString(a.graph.nodes[i].name), QString::fromStdString(stacks.stacks[i].back().path));
    std::vector<QTreeWidgetItem*> made(modules.modules().size());
    for (size_t m = 0; m < modules.modules().size(); ++m) {  // parents come before their submodules
        const ModuleGroup& group = modules.modules()[m];
        QString path = QString::fromStdString(group.path);
        QString name = group.parent < 0 ? path : path.mid(path.lastIndexOf('.') + 1);
        auto* item = group.parent < 0 ? new QTreeWidgetItem(tree_) : new QTreeWidgetItem(made[group.parent]);
        item->setText(0, name);
        item->setText(1, QString::fromStdString(group.className));
        item->setText(2, QString::number(group.nodeCount));
        item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
        item->setToolTip(0, path);
        item->setData(0, kPathRole, path);
        made[m] = item;
        items_.insert(path, item);
    }
    tree_->expandToDepth(0);
    applyFilter(filter_->text());
}

void ModulesPane::applyFilter(const QString& text) {
    // A module is shown when it or one of its submodules matches.
    std::function<bool(QTreeWidgetItem*)> visit = [&](QTreeWidgetItem* item) {
        bool shown = text.isEmpty() || item->data(0, kPathRole).toString().contains(text, Qt::CaseInsensitive) ||
                     item->text(1).contains(text, Qt::CaseInsensitive);
        for (int i = 0; i < item->childCount(); ++i) shown |= visit(item->child(i));
        item->setHidden(!shown);
        if (shown && !text.isEmpty()) item->setExpanded(true);
        return shown;
    };
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) visit(tree_->topLevelItem(i));
}

void ModulesPane::selectItem(QTreeWidgetItem* item) {
    QSignalBlocker block(tree_);
    tree_->setCurrentItem(item);
    if (item) tree_->scrollToItem(item);
}

void ModulesPane::showNode(const QString& graphNode, const QString& buffer) {
    QString node = graphNode.isEmpty() ? context().provenance().graphNodesOf(buffer).value(0) : graphNode;
    if (QTreeWidgetItem* item = items_.value(moduleOfNode_.value(node))) selectItem(item);
}

void ModulesPane::showModule(const QString& path) { selectItem(items_.value(path)); }

}  // namespace fusescope::gui
