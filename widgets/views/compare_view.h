#pragma once
// The Compare view: what changed between two compiles of the run (typically a function and
// its recompile): their graph code, guards, IR before and after fusion, or generated C++,
// as a unified line diff with removed lines red and added lines green, each line numbered
// in both texts, and a summary "Lines added: N, removed: M". The two compiles default to the
// run's last two and follow new compiles until the user picks others.

#include <array>

#include <QWidget>

#include "model/run_store.h"

class QComboBox;
class QLabel;
class QTabWidget;

namespace fusescope::gui {

class CodeView;

class CompareView : public QWidget {
    Q_OBJECT
public:
    enum class Aspect { GraphCode, Guards, PreFusionIr, PostFusionIr, Cpp };
    static constexpr int kAspectCount = 5;

    explicit CompareView(const RunStore* store, QWidget* parent = nullptr);

    // Compares `before` with `after` (compile ids), as if the user had picked them.
    void setCompiles(const QString& before, const QString& after);
    QString beforeCompile() const;
    QString afterCompile() const;

    void setAspect(Aspect aspect);
    Aspect aspect() const;

    QString summary() const;           // "Lines added: N, removed: M", or why there is nothing
    CodeView* diffView() const;        // the shown aspect's diff
    QComboBox* beforeBox() const { return before_; }
    QComboBox* afterBox() const { return after_; }

private:
    void reload();                     // the store was reset: compiles anew, the last two shown
    void onAppended(int index);
    void addCompile(const CompileStartedEvent& compileStarted);
    void showLastTwo();
    void select(int beforeIndex, int afterIndex);  // combo rows, then one refresh
    void refresh();

    const RunStore* store_;
    QComboBox* before_;
    QComboBox* after_;
    QTabWidget* aspects_;
    std::array<CodeView*, kAspectCount> views_{};
    QLabel* summary_;
    bool picked_ = false;              // the user chose the compiles: new ones no longer move them
};

}  // namespace fusescope::gui
