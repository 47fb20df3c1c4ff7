#include "window/view_presets.h"

#include <QTableView>

#include "panes/code_pane.h"
#include "panes/compare_pane.h"
#include "panes/fusion_pane.h"
#include "panes/graph_breaks_pane.h"
#include "panes/graph_pane.h"
#include "panes/torch_compare_pane.h"
#include "panes/trace_pane.h"
#include "selection/selection_context.h"
#include "views/compare_view.h"
#include "views/fusion_stepper.h"
#include "views/torch_compare_view.h"
#include "window/docks.h"

namespace fusescope::gui {

bool showPresetView(const QString& view, const Docks& docks, SelectionContext& selection) {
    auto raise = [&docks](std::initializer_list<const char*> names) {
        return std::all_of(names.begin(), names.end(), [&docks](const char* name) { return docks.raise(name); });
    };
    if (view == "overview") return raise({"graphDock", "irDock"});
    if (view == "fusion") {
        FusionStepper* stepper = docks.fusion->stepper();
        stepper->setStep((stepper->stepCount() + 1) / 2);
        return raise({"fusionDock", "irDock"});
    }
    if (view == "code") {
        const CompileProvenance& provenance = selection.provenance();
        if (!provenance.preFusionNodes().isEmpty()) selection.selectSchedulerNode(provenance.preFusionNodes().first().name);
        return raise({"graphDock", "codeDock"});
    }
    if (view == "guards") {
        // The first compile whose guards a later call failed: what a recompile is about.
        for (const Event& e : selection.store().events())
            if (const auto* failure = std::get_if<GuardFailureEvent>(&e)) {
                selection.setCompileId(QString::fromStdString(failure->compileId));
                break;
            }
        return raise({"guardsDock"});
    }
    if (view == "graph-breaks") {  // the first break, with what PyTorch says of it
        QTableView* breaks = docks.graphBreaks->view();
        if (breaks->model()->rowCount() > 0) breaks->setCurrentIndex(breaks->model()->index(0, 0));
        return raise({"breaksDock"});
    }
    if (view == "compare") {
        docks.compare->view()->setAspect(CompareView::Aspect::Guards);
        return raise({"compareDock"});
    }
    if (view == "forward" || view == "backward")  // a training graph's, AOT Autograd's
        return raise({"graphDock", "irDock"}) && docks.graph->showStageGraph(QString("aot_%1_graph").arg(view));
    if (view == "torch-compare") {
        docks.torchCompare->view()->setAspect(TorchCompareView::Aspect::RecompileReasons);
        return raise({"torchCompareDock"});
    }
    if (view == "ranks") return raise({"ranksDock"});  // a distributed run's ranks side by side
    if (view == "trace") {
        docks.trace->showFirstCompiledKernel();
        return raise({"traceDock"});
    }
    return false;
}

}  // namespace fusescope::gui
