#include "panes/minify_pane.h"

#include <QFile>
#include <QFileDialog>
#include <QMessageBox>
#include <QSplitter>
#include <QVBoxLayout>

namespace fusescope::gui {

MinifyPane::MinifyPane(SelectionContext* context, QWidget* parent)
    : Pane(context, parent),
      summary_(new QLabel(tr("Minify shrinks the first compiled graph that fails (a compile error, a run-time error or, "
                             "with Check Accuracy, a wrong result) to the smallest graph that still fails."),
                          this)),
      progress_(new QPlainTextEdit(this)),
      graph_(new GraphView(this)),
      repro_(new CodeView(CodeView::Language::Python, this)),
      save_(new QPushButton(tr("Save repro.py..."), this)) {
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    progress_->setReadOnly(true);
    progress_->setMaximumBlockCount(2000);
    save_->setEnabled(false);
    connect(save_, &QPushButton::clicked, this, &MinifyPane::saveRepro);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(progress_);
    split->addWidget(graph_);
    split->addWidget(repro_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 2);
    split->setSizes({110, 330, 220});  // the graph gets the most room
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(summary_);
    layout->addWidget(split, 1);
    layout->addWidget(save_, 0, Qt::AlignRight);
    setContent(content);
}

void MinifyPane::start(const QString& what) {
    summary_->setText(what);
    progress_->clear();
    graph_->clearGraph();
    repro_->showText({});
    save_->setEnabled(false);
}

void MinifyPane::addProgress(const QString& line) { progress_->appendPlainText(line); }

void MinifyPane::showResult(const MinifyAnswer& answer) {
    QString verdict = answer.reproError.isEmpty() ? tr("The repro runs without failing: the failure needs more than this graph.")
                                                  : tr("The repro fails the same way: %1").arg(answer.reproError);
    summary_->setText(tr("%1 of %2 (compile %3, backend %4): %5 error. Went from %6 to %7 nodes. %8")
                          .arg(answer.graph, answer.function, answer.compileId, answer.backend, answer.kind)
                          .arg(answer.startNodes)
                          .arg(answer.endNodes)
                          .arg(verdict));
    if (!answer.minimalGraph.empty()) graph_->showGraph(answer.minimalGraph);
    repro_->showText(answer.repro);
    save_->setEnabled(true);
}

void MinifyPane::showFailure(const QString& message) { summary_->setText(tr("Minify failed: %1").arg(message)); }

void MinifyPane::saveRepro() {
    QString path = QFileDialog::getSaveFileName(this, tr("Save repro.py"), "repro.py", tr("Python scripts (*.py)"));
    if (path.isEmpty()) return;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(repro_->text().toUtf8()) < 0)
        QMessageBox::warning(this, tr("Save repro.py"), tr("Cannot write %1: %2").arg(path, file.errorString()));
}

}  // namespace fusescope::gui
