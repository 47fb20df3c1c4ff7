#pragma once
// The Compiles dock's "Call stacks" tab (tlparse's stack trie): every compile under the call
// sites that led to it, outermost first, so compiles reached through the same calls share
// their frames. A compile whose stack is unknown sits at the top level.

#include <QTimer>
#include <QTreeWidget>

#include "model/run_store.h"

namespace fusescope::gui {

class StackTrieView : public QTreeWidget {
    Q_OBJECT
public:
    enum { CompileIdRole = Qt::UserRole + 1 };  // on compile items; frames have none

    explicit StackTrieView(const RunStore* store, QWidget* parent = nullptr);
    bool rebuildPending() const { return rebuildTimer_.isActive(); }  // events in, not yet shown
    void showCompile(const QString& compileId);  // makes its item current, quietly

Q_SIGNALS:
    void compileSelected(const QString& compileId);

private:
    void rebuild();

    const RunStore* store_;
    QTimer rebuildTimer_;  // a run's compiles come one by one: one rebuild per burst
};

}  // namespace fusescope::gui
