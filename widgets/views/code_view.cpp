#include "views/code_view.h"

#include <QFontDatabase>
#include <Qsci/qscilexercpp.h>
#include <Qsci/qscilexerpython.h>

namespace fusescope::gui {

void configureCodeEditor(QsciScintilla& editor, CodeView::Language language) {
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    QsciLexer* lexer = nullptr;
    if (language == CodeView::Language::Cpp) lexer = new QsciLexerCPP(&editor);
    if (language == CodeView::Language::Python) lexer = new QsciLexerPython(&editor);
    if (lexer) {
        lexer->setDefaultFont(font);
        for (int style = 0; style < 128; ++style) lexer->setFont(font, style);
        editor.setLexer(lexer);
    } else {
        editor.setFont(font);
    }
    editor.setMarginType(0, QsciScintilla::NumberMargin);
    editor.setMarginWidth(0, "00000");
    editor.setMarginsFont(font);
    editor.setUtf8(true);
}

CodeView::CodeView(Language language, QWidget* parent) : QsciScintilla(parent) {
    configureCodeEditor(*this, language);
    setReadOnly(true);
}

void CodeView::showText(const QString& text) {
    setReadOnly(false);
    setText(text);
    setReadOnly(true);
}

}  // namespace fusescope::gui
