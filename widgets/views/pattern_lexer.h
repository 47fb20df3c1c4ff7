#pragma once
// Syntax colouring for the texts QScintilla has no lexer for: the IR dumps, LLVM IR, x86
// assembly and PTX (QScintilla's QsciLexerCustom). Each language is a
// list of regular-expression rules; a line is styled by applying them in order, a later
// rule overriding an earlier one (so comments, listed last, win over everything inside).

#include <QColor>
#include <QList>
#include <QRegularExpression>
#include <QStringList>
#include <Qsci/qscilexercustom.h>

namespace fusescope::gui {

enum class LexerStyle { Default, Comment, Keyword, Name, Number, String, Type, Directive, Count };

struct LexerRule {
    QRegularExpression pattern;
    LexerStyle style;
    int group = 0;  // the capture group styled (0: the whole match)
};

struct LexerSpec {
    const char* language;
    QList<LexerRule> rules;
};

const LexerSpec& irDumpLexerSpec();
const LexerSpec& llvmIrLexerSpec();
const LexerSpec& assemblyLexerSpec();
const LexerSpec& ptxLexerSpec();

class PatternLexer : public QsciLexerCustom {
    Q_OBJECT
public:
    PatternLexer(const LexerSpec& spec, QObject* parent = nullptr);

    const char* language() const override { return spec_.language; }
    QString description(int style) const override;
    QColor defaultColor(int style) const override;
    QFont defaultFont(int style) const override;
    void styleText(int start, int end) override;

    // The styles of one line, one per QChar (exposed for tests).
    QList<LexerStyle> styleLine(const QString& line) const;

private:
    const LexerSpec& spec_;
};

}  // namespace fusescope::gui
