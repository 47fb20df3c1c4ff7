#pragma once
// The Modules dock: the nn.Modules of the compile's graph as a tree (path, class, how many
// graph ops ran inside). Clicking a module selects it everywhere (the Graph view opens the
// modules around it and centres it; the editor marks its class); double-clicking expands
// or collapses it in the Graph view. A selected node selects the module it ran in. The
// filter keeps the modules whose path or class contains the text.

#include <QHash>

#include "panes/pane.h"

class QLineEdit;
class QTreeWidget;
class QTreeWidgetItem;

namespace fusescope::gui {

class ModulesPane : public Pane {
    Q_OBJECT
public:
    explicit ModulesPane(SelectionContext* context, QWidget* parent = nullptr);

    QTreeWidget* tree() const { return tree_; }
    QLineEdit* filter() const { return filter_; }

protected:
    void showCompile(const CompileArtifacts& compile) override;
    void showNode(const QString& graphNode, const QString& buffer) override;
    void showModule(const QString& path) override;

private:
    void applyFilter(const QString& text);
    void selectItem(QTreeWidgetItem* item);  // without reporting it back

    QLineEdit* filter_;
    QTreeWidget* tree_;
    QHash<QString, QTreeWidgetItem*> items_;   // by path
    QHash<QString, QString> moduleOfNode_;     // graph node -> its innermost module
};

}  // namespace fusescope::gui
