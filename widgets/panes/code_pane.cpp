#include "panes/code_pane.h"

#include <QCoreApplication>
#include <QTabWidget>

#include "views/code_view.h"

namespace fusescope::gui {

namespace {

// The tabs after the source, in order. A tab shows when the compile has its artifact, and
// on every compile of its language (empty when the toolchain is missing or failed).
struct ArtifactTab {
    const char* artifact;  // the kernel_source artifact name
    const char* title;
    CodeView::Language lexer;
    const char* language;     // of the generated code it comes with
    const char* missingNote;  // shown when a compile of its language has artifacts but not this one
};

constexpr ArtifactTab kArtifactTabs[] = {
    {"llvm_ir", QT_TRANSLATE_NOOP("fusescope::gui::CodePane", "LLVM IR"), CodeView::Language::LlvmIr, "cpp", nullptr},
    {"asm", QT_TRANSLATE_NOOP("fusescope::gui::CodePane", "Assembly"), CodeView::Language::Assembly, "cpp", nullptr},
    {"ptx", QT_TRANSLATE_NOOP("fusescope::gui::CodePane", "PTX"), CodeView::Language::Ptx, "cuda", nullptr},
    {"sass", QT_TRANSLATE_NOOP("fusescope::gui::CodePane", "SASS"), CodeView::Language::Assembly, "cuda",
     QT_TRANSLATE_NOOP("fusescope::gui::CodePane", "// No SASS: the CUDA toolkit's nvdisasm was not found.")},
};

}  // namespace

CodePane::CodePane(SelectionContext* context, QWidget* parent) : Pane(context, parent) {
    tabs_ = new QTabWidget(this);
    cpp_ = new CodeView(CodeView::Language::Cpp, tabs_);
    tabs_->addTab(cpp_, tr("C++"));
    for (const ArtifactTab& tab : kArtifactTabs) {
        auto* view = new CodeView(tab.lexer, tabs_);
        artifactViews_[tab.artifact] = view;
        tabs_->addTab(view, tr(tab.title));
        tabs_->setTabVisible(tabs_->indexOf(view), std::string(tab.language) == "cpp");
    }
    setContent(tabs_, GraphPicker::Yes);
    connect(cpp_, &CodeView::lineClicked, this,
            [this](int line) { this->context().selectSchedulerNode(this->context().provenance().bufferAtCppLine(line)); });
}

void CodePane::showCompile(const CompileArtifacts& a) {
    showEmptyNote(whyNoGeneratedCode(a));
    cpp_->showText(a.source);
    QList<LineRanges> tints;
    for (const auto& n : a.provenance.preFusionNodes()) tints.append(a.provenance.cppLines(n.name));
    cpp_->tintLines(tints);
    if (a.graphNames.size() > 1) cpp_->scrollToGraph(a.graphName);
    bool cuda = a.language == "cuda";
    // A compile without generated code shows the CPU's tabs; PyTorch's output code has none of them.
    std::string language = cuda ? "cuda" : a.fromPyTorch ? "python" : "cpp";
    // Real PyTorch's output code (a TORCH_TRACE log) is its Python wrapper with the kernels in it.
    tabs_->setTabText(tabs_->indexOf(cpp_), cuda ? tr("CUDA") : a.language == "python" ? tr("Output code") : tr("C++"));
    for (const ArtifactTab& tab : kArtifactTabs) {
        auto found = a.codeArtifacts.find(tab.artifact);
        QString text = found == a.codeArtifacts.end() ? QString() : found->second;
        bool ofLanguage = language == tab.language;
        if (text.isEmpty() && tab.missingNote && ofLanguage && !a.codeArtifacts.empty()) text = tr(tab.missingNote);
        CodeView* view = artifactViews_.at(tab.artifact);
        view->showText(text);
        tabs_->setTabVisible(tabs_->indexOf(view), ofLanguage || found != a.codeArtifacts.end());
    }
}

void CodePane::showNode(const QString&, const QString& buffer) {
    cpp_->highlightLines(buffer.isEmpty() ? LineRanges{} : context().provenance().cppLines(buffer));
}

void CodePane::showModule(const QString&) {
    LineRanges lines;  // every kernel that computes part of the module
    for (const QString& buffer : context().moduleBuffers()) lines += context().provenance().cppLines(buffer);
    cpp_->highlightLines(lines);
}

}  // namespace fusescope::gui
