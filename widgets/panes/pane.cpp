#include "panes/pane.h"

#include <QVBoxLayout>

namespace fusescope::gui {

Pane::Pane(SelectionContext* context, QWidget* parent) : QWidget(parent), context_(context) {
    connect(context, &SelectionContext::compileShown, this, [this](const CompileArtifacts& a) { showCompile(a); });
    connect(context, &SelectionContext::nodeChanged, this, [this](const QString& node, const QString& buffer) { showNode(node, buffer); });
    connect(context, &SelectionContext::moduleChanged, this, [this](const QString& path) { showModule(path); });
}

void Pane::setContent(QWidget* content) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(content);
}

}  // namespace fusescope::gui
