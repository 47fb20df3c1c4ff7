#include "panes/pane.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace fusescope::gui {

Pane::Pane(SelectionContext* context, QWidget* parent) : QWidget(parent), context_(context) {
    connect(context, &SelectionContext::compileShown, this, [this](const CompileArtifacts& a) {
        fillGraphPicker(a);
        showCompile(a);
    });
    connect(context, &SelectionContext::nodeChanged, this, [this](const QString& node, const QString& buffer) { showNode(node, buffer); });
    connect(context, &SelectionContext::moduleChanged, this, [this](const QString& path) { showModule(path); });
}

void Pane::setContent(QWidget* content, GraphPicker picker) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    if (picker == GraphPicker::Yes) {
        pickerRow_ = new QWidget(this);
        auto* row = new QHBoxLayout(pickerRow_);
        row->setContentsMargins(4, 2, 4, 2);
        graphPicker_ = new QComboBox(pickerRow_);
        graphPicker_->setToolTip(tr("This compile has several graphs (a graph break splits the function): pick the one to show in every pane"));
        row->addWidget(new QLabel(tr("Graph:"), pickerRow_));
        row->addWidget(graphPicker_);
        row->addStretch(1);
        pickerRow_->hide();
        connect(graphPicker_, &QComboBox::activated, this, [this](int index) { context_->setGraph(graphPicker_->itemData(index).toString()); });
        layout->addWidget(pickerRow_);
    }
    content_ = content;
    emptyNote_ = new QLabel(this);
    emptyNote_->setObjectName("emptyNote");
    emptyNote_->setWordWrap(true);
    emptyNote_->setAlignment(Qt::AlignCenter);
    emptyNote_->setMargin(24);
    emptyNote_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    emptyNote_->hide();
    layout->addWidget(content, 1);
    layout->addWidget(emptyNote_, 1);
}

void Pane::showEmptyNote(const QString& note) {
    emptyNote_->setText(note);
    emptyNote_->setVisible(!note.isEmpty());
    content_->setVisible(note.isEmpty());
}

QString Pane::emptyNote() const { return emptyNote_ && !emptyNote_->isHidden() ? emptyNote_->text() : QString(); }

void Pane::fillGraphPicker(const CompileArtifacts& a) {
    if (!graphPicker_) return;
    QSignalBlocker block(graphPicker_);
    graphPicker_->clear();
    for (qsizetype i = 0; i < a.graphNames.size(); ++i)
        graphPicker_->addItem(tr("%1 (%2 of %3)").arg(a.graphNames[i]).arg(i + 1).arg(a.graphNames.size()), a.graphNames[i]);
    graphPicker_->setCurrentIndex(static_cast<int>(a.graphNames.indexOf(a.graphName)));
    pickerRow_->setVisible(a.graphNames.size() > 1);
}

}  // namespace fusescope::gui
