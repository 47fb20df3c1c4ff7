#include "panes/output_pane.h"

#include <QFontDatabase>
#include <QPlainTextEdit>

namespace fusescope::gui {

namespace {

const ScriptOutputEvent* scriptOutput(const Event& event) { return std::get_if<ScriptOutputEvent>(&event); }

}  // namespace

OutputPane::OutputPane(SelectionContext* context, QWidget* parent) : Pane(context, parent), text_(new QPlainTextEdit(this)) {
    text_->setReadOnly(true);
    text_->setLineWrapMode(QPlainTextEdit::NoWrap);  // a printed tensor keeps its rows; scroll sideways
    text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setContent(text_);
    const RunStore* store = &context->store();
    connect(store, &RunStore::eventAppended, this, [this, store](int i) {
        if (const auto* output = scriptOutput(store->at(i))) text_->insertPlainText(QString::fromStdString(output->text));
    });
    connect(store, &RunStore::reset, this, &OutputPane::reload);
}

void OutputPane::appendMessage(const QString& text) { text_->appendPlainText(text); }

void OutputPane::reload() {
    text_->clear();
    for (const Event& e : context().store().events())
        if (const auto* output = scriptOutput(e)) text_->insertPlainText(QString::fromStdString(output->text));
}

}  // namespace fusescope::gui
