#pragma once
// The Minify view: the minifier's progress as it shrinks a failing compiled graph, then the
// smallest graph that still fails (drawn), the repro script (with Save), and whether the
// repro fails the same way when run (docs/debugging.md). MinifyController drives it.

#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>

#include "model/minify_answer.h"
#include "panes/pane.h"
#include "views/code_view.h"
#include "views/graph_view.h"

namespace fusescope::gui {

class MinifyPane : public Pane {
    Q_OBJECT
public:
    explicit MinifyPane(SelectionContext* context, QWidget* parent = nullptr);

    void start(const QString& what);         // clears the last result
    void addProgress(const QString& line);   // one line of the minifier's progress
    void showResult(const MinifyAnswer& answer);
    void showFailure(const QString& message);

    QString summary() const { return summary_->text(); }
    QString repro() const { return repro_->text(); }
    QString progressText() const { return progress_->toPlainText(); }
    GraphView* graphView() const { return graph_; }

private:
    void saveRepro();

    QLabel* summary_;
    QPlainTextEdit* progress_;
    GraphView* graph_;
    CodeView* repro_;
    QPushButton* save_;
};

}  // namespace fusescope::gui
