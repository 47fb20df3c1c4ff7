#pragma once
// Our compile beside PyTorch's: the two runs of one script (ours, and real PyTorch's
// TORCH_TRACE log of it) paired by compile id in a table whose cells read "ours | PyTorch's"
// (graphs, ops, guards, graph breaks, kernels; cells that differ tinted), and below it the
// selected pair's graph code, guards, graph breaks, recompile reasons and generated code,
// ours on the left and PyTorch's on the right. Follows the selected compile both ways.

#include <array>
#include <vector>

#include <QTimer>
#include <QWidget>

#include "model/compile_pairs.h"
#include "model/run_store.h"

class QLabel;
class QTableWidget;
class QTabWidget;

namespace fusescope::gui {

class CodeView;

class TorchCompareView : public QWidget {
    Q_OBJECT
public:
    enum class Aspect { GraphCode, Guards, GraphBreaks, RecompileReasons, Code };
    static constexpr int kAspectCount = 5;
    enum Side { Ours, Torch };

    TorchCompareView(const RunStore* ours, const RunStore* torch, QWidget* parent = nullptr);
    bool rebuildPending() const { return rebuildTimer_.isActive(); }  // events in, not yet paired

    // What PyTorch's side is ("PyTorch 2.15.0: /tmp/…/dedicated_log….log"), or why there is none.
    void setTorchSource(const QString& description);
    void showCompile(const QString& compileId);  // selects its row; unknown ids are ignored
    void setAspect(Aspect aspect);

    QString summary() const;  // "4 compiles: 3 differ; PyTorch 2.15.0: ..."
    const std::vector<CompilePair>& pairs() const { return pairs_; }
    QTableWidget* table() const { return table_; }
    CodeView* view(Aspect aspect, Side side) const { return views_[static_cast<size_t>(aspect)][side]; }
    QString shownCompile() const;

Q_SIGNALS:
    void compileSelected(const QString& compileId);  // the user picked a row our run has

private:
    void rebuild();  // both runs' compiles anew (coalesced: runs append event by event)
    void showPair(int row);

    const RunStore* ours_;
    const RunStore* torch_;
    QLabel* summary_;
    QTableWidget* table_;
    QTabWidget* aspects_;
    std::array<std::array<CodeView*, 2>, kAspectCount> views_{};
    std::vector<CompilePair> pairs_;
    QString source_;
    QString wanted_;  // the compile to show once it is there
    QTimer rebuildTimer_;
};

}  // namespace fusescope::gui
