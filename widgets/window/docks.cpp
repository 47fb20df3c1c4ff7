#include "window/docks.h"

#include <algorithm>
#include <tuple>

#include <QDockWidget>
#include <QMainWindow>

#include "panes/code_pane.h"
#include "panes/compare_pane.h"
#include "panes/compiles_pane.h"
#include "panes/fusion_pane.h"
#include "panes/graph_breaks_pane.h"
#include "panes/graph_pane.h"
#include "panes/guards_pane.h"
#include "panes/ir_pane.h"
#include "panes/logs_pane.h"
#include "panes/minify_pane.h"
#include "panes/modules_pane.h"
#include "panes/output_pane.h"
#include "panes/ranks_pane.h"
#include "panes/torch_compare_pane.h"
#include "panes/trace_pane.h"
#include "window/saved_layout.h"

namespace fusescope::gui {

namespace {

QDockWidget* dock(QMainWindow* window, const QString& title, const QString& objectName, QWidget* content, Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, window);
    d->setObjectName(objectName);  // saveState() keys docks by object name
    d->setWidget(content);
    window->addDockWidget(area, d);
    return d;
}

}  // namespace

Docks::Docks(QMainWindow* w, SelectionContext* selection, EngineClient* engine, TorchSide* torchSide, TraceRanks* traceRanks)
    : window_(w) {
    compiles = new CompilesPane(selection, w);
    QDockWidget* compilesDock = dock(w, tr("Compiles"), "compilesDock", compiles, Qt::LeftDockWidgetArea);

    graph = new GraphPane(selection, w);
    QDockWidget* graphDock = dock(w, tr("Graph"), "graphDock", graph, Qt::RightDockWidgetArea);
    minify = new MinifyPane(selection, w);
    QDockWidget* minifyDock = dock(w, tr("Minify"), "minifyDock", minify, Qt::RightDockWidgetArea);
    fusion = new FusionPane(selection, engine, w);
    QDockWidget* fusionDock = dock(w, tr("Fusion"), "fusionDock", fusion, Qt::RightDockWidgetArea);
    w->tabifyDockWidget(graphDock, fusionDock);
    w->tabifyDockWidget(graphDock, minifyDock);
    graphDock->raise();

    // The bottom row, each tabbed behind the one before.
    ir = new IrPane(selection, w);
    QDockWidget* irDock = dock(w, tr("IR (before | after fusion)"), "irDock", ir, Qt::BottomDockWidgetArea);
    code = new CodePane(selection, w);
    graphBreaks = new GraphBreaksPane(selection, w);
    guards = new GuardsPane(selection, w);
    compare = new ComparePane(selection, w);
    torchCompare = new TorchComparePane(selection, torchSide, w);
    trace = new TracePane(selection, w);
    ranks = new RanksPane(selection, traceRanks, w);
    QDockWidget* previous = irDock;
    for (const auto& [title, name, pane] : {std::tuple<QString, const char*, QWidget*>{tr("Generated Code"), "codeDock", code},
                                            {tr("Logs"), "logsDock", new LogsPane(selection, w)},
                                            {tr("Graph Breaks"), "breaksDock", graphBreaks},
                                            {tr("Guards"), "guardsDock", guards},
                                            {tr("Compare"), "compareDock", compare},
                                            {tr("Ours vs PyTorch"), "torchCompareDock", torchCompare},
                                            {tr("Execution Trace"), "traceDock", trace},
                                            {tr("Ranks"), "ranksDock", ranks}}) {
        QDockWidget* d = dock(w, title, name, pane, Qt::BottomDockWidgetArea);
        w->tabifyDockWidget(previous, d);
        previous = d;
    }
    irDock->raise();

    // First-run proportions of the default size: the graph docks get 40% of the width, the
    // IR a good third of the height.
    w->resize(SavedLayout::defaultSize(*w));
    w->resizeDocks({graphDock}, {w->width() * 2 / 5}, Qt::Horizontal);
    w->resizeDocks({irDock}, {w->height() * 9 / 25}, Qt::Vertical);

    output = new OutputPane(selection, w);
    QDockWidget* outputDock = dock(w, tr("Output"), "outputDock", output, Qt::LeftDockWidgetArea);
    w->splitDockWidget(compilesDock, outputDock, Qt::Vertical);
    modules = new ModulesPane(selection, w);
    QDockWidget* modulesDock = dock(w, tr("Modules"), "modulesDock", modules, Qt::LeftDockWidgetArea);
    w->splitDockWidget(compilesDock, modulesDock, Qt::Vertical);
    w->resizeDocks({compilesDock}, {std::max(300, w->width() * 24 / 100)}, Qt::Horizontal);  // the compiles' six columns and a name
}

bool Docks::raise(const QString& dockName) const {
    auto* d = window_->findChild<QDockWidget*>(dockName);
    if (!d) return false;
    d->show();
    d->raise();
    return true;
}

}  // namespace fusescope::gui
