#include "panes/code_pane.h"

#include <QTabWidget>

#include "views/code_view.h"

namespace fusescope::gui {

CodePane::CodePane(SelectionContext* context, QWidget* parent) : Pane(context, parent) {
    tabs_ = new QTabWidget(this);
    cpp_ = new CodeView(CodeView::Language::Cpp, tabs_);
    llvmIr_ = new CodeView(CodeView::Language::LlvmIr, tabs_);
    assembly_ = new CodeView(CodeView::Language::Assembly, tabs_);
    ptx_ = new CodeView(CodeView::Language::Ptx, tabs_);
    sass_ = new CodeView(CodeView::Language::Assembly, tabs_);
    tabs_->addTab(cpp_, tr("C++"));
    tabs_->addTab(llvmIr_, tr("LLVM IR"));
    tabs_->addTab(assembly_, tr("Assembly"));
    tabs_->addTab(ptx_, tr("PTX"));
    tabs_->addTab(sass_, tr("SASS"));
    tabs_->setTabVisible(tabs_->indexOf(ptx_), false);
    tabs_->setTabVisible(tabs_->indexOf(sass_), false);
    setContent(tabs_);
    connect(cpp_, &CodeView::lineClicked, this,
            [this](int line) { this->context().selectSchedulerNode(this->context().provenance().bufferAtCppLine(line)); });
}

void CodePane::showCompile(const CompileArtifacts& a) {
    cpp_->showText(a.source);
    QList<LineRanges> tints;
    for (const auto& n : a.provenance.preFusionNodes()) tints.append(a.provenance.cppLines(n.name));
    cpp_->tintLines(tints);
    llvmIr_->showText(a.llvmIr);
    assembly_->showText(a.assembly);
    ptx_->showText(a.ptx);
    sass_->showText(a.sass.isEmpty() && !a.ptx.isEmpty() ? tr("// No SASS: the CUDA toolkit's nvdisasm was not found.") : a.sass);
    bool cuda = a.language == "cuda";
    tabs_->setTabText(tabs_->indexOf(cpp_), cuda ? tr("CUDA") : tr("C++"));
    for (CodeView* view : {llvmIr_, assembly_}) tabs_->setTabVisible(tabs_->indexOf(view), !cuda);
    for (CodeView* view : {ptx_, sass_}) tabs_->setTabVisible(tabs_->indexOf(view), cuda);
}

void CodePane::showNode(const QString&, const QString& buffer) {
    cpp_->highlightLines(buffer.isEmpty() ? LineRanges{} : context().provenance().cppLines(buffer));
}

}  // namespace fusescope::gui
