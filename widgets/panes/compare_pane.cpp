#include "panes/compare_pane.h"

#include <QRegularExpression>

#include "views/compare_view.h"

namespace fusescope::gui {

ComparePane::ComparePane(SelectionContext* context, QWidget* parent)
    : Pane(context, parent), view_(new CompareView(&context->store(), this)) {
    setContent(view_);
}

void ComparePane::showCompile(const CompileArtifacts&) {
    const QString id = context().compileId();
    if (id == std::exchange(shownCompile_, id)) return;
    static const QRegularExpression recompile(R"(^(\d+)/(\d+)$)");
    QRegularExpressionMatch match = recompile.match(id);
    if (!match.hasMatch() || match.captured(2).toInt() == 0) return;
    const QString before = QString("%1/%2").arg(match.captured(1)).arg(match.captured(2).toInt() - 1);
    if (view_->beforeBox()->findData(before) >= 0) view_->setCompiles(before, id);
}

}  // namespace fusescope::gui
