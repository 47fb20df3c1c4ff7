#pragma once
// A read-only code pane (IR dumps, generated C++, LLVM IR, assembly): QScintilla with line
// numbers, a monospace font, and a lexer when the language has one.

#include <Qsci/qsciscintilla.h>

namespace fusescope::gui {

class CodeView : public QsciScintilla {
    Q_OBJECT
public:
    enum class Language { Plain, Cpp, Python };
    explicit CodeView(Language language = Language::Plain, QWidget* parent = nullptr);

    // Replaces the text, keeping the view read-only.
    void showText(const QString& text);
};

// Font, line-number margin and lexer of a code pane; the script editor uses it too.
void configureCodeEditor(QsciScintilla& editor, CodeView::Language language);

}  // namespace fusescope::gui
