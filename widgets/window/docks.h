#pragma once
// Every dock of the workbench with the pane in it, in its default place (a saved layout
// replaces it): the graph, fusion and minify tabs on the right; IR, code, logs, graph
// breaks, guards, compare, Ours vs PyTorch, the execution trace and ranks tabbed at the bottom;
// compiles, modules and output on the left. The panes wire themselves to the selection.

#include <QCoreApplication>

class QDockWidget;
class QMainWindow;

namespace fusescope::gui {

class CodePane;
class ComparePane;
class CompilesPane;
class EngineClient;
class FusionPane;
class GraphBreaksPane;
class GraphPane;
class GuardsPane;
class IrPane;
class MinifyPane;
class ModulesPane;
class OutputPane;
class RanksPane;
class SelectionContext;
class TorchComparePane;
class TorchSide;
class TracePane;
class TraceRanks;

struct Docks {
    Q_DECLARE_TR_FUNCTIONS(Docks)

public:
    Docks(QMainWindow* window, SelectionContext* selection, EngineClient* engine, TorchSide* torchSide, TraceRanks* ranks);

    // Brings the dock of that object name ("graphDock") to the front, first showing it if the
    // user closed it; false for an unknown name.
    bool raise(const QString& dockName) const;

    CompilesPane* compiles;
    GraphPane* graph;
    MinifyPane* minify;
    FusionPane* fusion;
    IrPane* ir;
    CodePane* code;
    GraphBreaksPane* graphBreaks;
    GuardsPane* guards;
    ComparePane* compare;
    TorchComparePane* torchCompare;
    TracePane* trace;
    RanksPane* ranks;
    OutputPane* output;
    ModulesPane* modules;

private:
    QMainWindow* window_;
};

}  // namespace fusescope::gui
