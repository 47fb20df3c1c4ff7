#pragma once
// A read-only code pane (IR dumps, generated C++, LLVM IR, assembly): QScintilla with line
// numbers, a monospace font, and a lexer when the language has one. Lines can be tinted by
// where they came from (Compiler Explorer style) and the selection's lines highlighted.

#include <QList>
#include <Qsci/qsciscintilla.h>

#include "model/compile_provenance.h"

namespace fusescope::gui {

class CodeView : public QsciScintilla {
    Q_OBJECT
public:
    enum class Language { Plain, Cpp, Python, IrDump, LlvmIr, Assembly, Ptx };
    explicit CodeView(Language language = Language::Plain, QWidget* parent = nullptr);

    // Replaces the text, keeping the view read-only; tints and highlight go with the old text.
    void showText(const QString& text);

    // Tints each group of lines with its own pale colour (one group per buffer).
    void tintLines(const QList<LineRanges>& groups);
    // Marks the selection's lines and scrolls the first into view; empty clears.
    void highlightLines(const LineRanges& lines);
    QList<int> highlightedLines() const;  // 1-based, for tests
    // Of a text holding several graphs (compile_artifacts.h): puts the header line of
    // `graphName` at the top. Returns its line (1-based), 0 when there is none.
    int scrollToGraph(const QString& graphName);

Q_SIGNALS:
    // The user put the cursor on a line (click or keys); 1-based.
    void lineClicked(int line);

private:
    void markLines(const LineRange& range, int marker);  // clamped to the document

    bool settingText_ = false;
};

// Font, line-number margin and lexer of a code pane; the script editor uses it too.
void configureCodeEditor(QsciScintilla& editor, CodeView::Language language);

}  // namespace fusescope::gui
