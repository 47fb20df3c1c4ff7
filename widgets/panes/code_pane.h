#pragma once
// The Generated Code dock: the compile's C++ (with its LLVM IR and host assembly) or CUDA
// (with PTX and SASS), each buffer's lines tinted, the selected buffer's highlighted.

#include "panes/pane.h"

class QTabWidget;

namespace fusescope::gui {

class CodeView;

class CodePane : public Pane {
    Q_OBJECT
public:
    explicit CodePane(SelectionContext* context, QWidget* parent = nullptr);

    CodeView* cppView() const { return cpp_; }
    CodeView* ptxView() const { return ptx_; }
    QTabWidget* tabs() const { return tabs_; }

protected:
    void showCompile(const CompileArtifacts& compile) override;
    void showNode(const QString& graphNode, const QString& buffer) override;

private:
    QTabWidget* tabs_;
    CodeView* cpp_;
    CodeView* llvmIr_;
    CodeView* assembly_;
    CodeView* ptx_;
    CodeView* sass_;
};

}  // namespace fusescope::gui
