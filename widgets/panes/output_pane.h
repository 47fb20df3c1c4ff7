#pragma once
// The Output dock: what the script printed, as it comes, and the run's own messages (a
// failure, the engine dying) after it.

#include "panes/pane.h"

class QPlainTextEdit;

namespace fusescope::gui {

class OutputPane : public Pane {
    Q_OBJECT
public:
    explicit OutputPane(SelectionContext* context, QWidget* parent = nullptr);

    void appendMessage(const QString& text);  // on a line of its own

private:
    void reload();  // a new run or a bundle

    QPlainTextEdit* text_;
};

}  // namespace fusescope::gui
