#pragma once
// The Generated Code dock: the compile's C++ or CUDA, each buffer's lines tinted, the
// selected buffer's highlighted, and a tab per artifact its toolchain made (LLVM IR and
// host assembly, or PTX and SASS).

#include <map>
#include <string>

#include "panes/pane.h"

class QTabWidget;

namespace fusescope::gui {

class CodeView;

class CodePane : public Pane {
    Q_OBJECT
public:
    explicit CodePane(SelectionContext* context, QWidget* parent = nullptr);

    CodeView* cppView() const { return cpp_; }
    // The tab of a kernel_source artifact: llvm_ir, asm, ptx or sass.
    CodeView* artifactView(const std::string& artifact) const { return artifactViews_.at(artifact); }
    QTabWidget* tabs() const { return tabs_; }

protected:
    void showCompile(const CompileArtifacts& compile) override;
    void showNode(const QString& graphNode, const QString& buffer) override;
    // A module: the kernel code of every buffer its nodes went into.
    void showModule(const QString& path) override;

private:
    QTabWidget* tabs_;
    CodeView* cpp_;
    std::map<std::string, CodeView*> artifactViews_;  // by artifact name
};

}  // namespace fusescope::gui
