#pragma once
// The Minify view: the minifier's progress as it shrinks a failing compiled graph, then the
// smallest graph that still fails (drawn), the repro script (with Save), and whether the
// repro fails the same way when run (docs/debugging.md).

#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QWidget>
#include <nlohmann/json.hpp>

#include "views/code_view.h"
#include "views/graph_view.h"

namespace fusescope::gui {

class MinifyPanel : public QWidget {
    Q_OBJECT
public:
    explicit MinifyPanel(QWidget* parent = nullptr);

    void start(const QString& what);         // clears the last result
    void addProgress(const QString& line);   // one line of the minifier's progress
    void showResult(const nlohmann::json& result);  // the protocol's minify answer
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
