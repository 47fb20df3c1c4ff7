#include "views/pattern_lexer.h"

#include <QFontDatabase>
#include <Qsci/qsciscintilla.h>

namespace fusescope::gui {

namespace {

LexerRule rule(const char* pattern, LexerStyle style, int group = 0) {
    return {QRegularExpression(pattern), style, group};
}

const char* const kNumber = R"(\b-?(0x[0-9a-fA-F]+|\d+(\.\d+)?([eE][-+]?\d+)?)\b)";

}  // namespace

const LexerSpec& irDumpLexerSpec() {
    static const LexerSpec spec{
        "FusescopeIR",
        {rule(kNumber, LexerStyle::Number),
         rule(R"(\b(torch\.\w+|cpu|cuda)\b)", LexerStyle::Type),
         rule(R"(\bops\.\w+)", LexerStyle::Type),
         rule(R"(\b(SchedulerNode|FusedSchedulerNode|ExternKernelSchedulerNode|ComputedBuffer|ExternKernelOut|MemoryDep|)"
              R"(StarDep|WeakDep|NodeUser|FixedLayout|OUTPUT|None|True|False|class|def|return|self)\b)",
              LexerStyle::Keyword),
         rule(R"(\b(buf\d+(_buf\d+)*|arg\d+_\d+)\b)", LexerStyle::Name),
         rule(R"('[^']*')", LexerStyle::String),
         rule(R"(#.*$)", LexerStyle::Comment)}};
    return spec;
}

const LexerSpec& llvmIrLexerSpec() {
    static const LexerSpec spec{
        "LLVMIR",
        {rule(kNumber, LexerStyle::Number),
         rule(R"(\b(define|declare|ret|br|switch|call|tail|load|store|alloca|getelementptr|inbounds|icmp|fcmp|phi|select|)"
              R"(add|fadd|sub|fsub|mul|fmul|udiv|sdiv|fdiv|urem|srem|frem|and|or|xor|shl|lshr|ashr|sext|zext|trunc|fpext|)"
              R"(fptrunc|sitofp|uitofp|fptosi|fptoui|bitcast|extractelement|insertelement|shufflevector|nsw|nuw|exact|fast|)"
              R"(nnan|ninf|contract|reassoc|align|to|label|global|constant|private|internal|dso_local|local_unnamed_addr|)"
              R"(unnamed_addr|noundef|nocapture|readonly|writeonly|noalias|attributes|zeroinitializer|undef|poison|x|)"
              R"(eq|ne|ugt|uge|ult|ule|sgt|sge|slt|sle|oeq|one|ogt|oge|olt|ole|uno|ord|true|false)\b)",
              LexerStyle::Keyword),
         rule(R"(\b(i\d+|half|float|double|void|ptr|metadata)\b)", LexerStyle::Type),
         rule(R"([%@][-\w.$]+)", LexerStyle::Name),
         rule(R"(^[-\w.$]+:)", LexerStyle::Directive),
         rule(R"(!\w+)", LexerStyle::Directive),
         rule(R"("[^"]*")", LexerStyle::String),
         rule(R"(;.*$)", LexerStyle::Comment)}};
    return spec;
}

const LexerSpec& assemblyLexerSpec() {
    static const LexerSpec spec{
        "Assembly",
        {rule(R"(\$?-?\b(0x[0-9a-fA-F]+|\d+)\b)", LexerStyle::Number),
         rule(R"(^\s+([a-z][a-z0-9]*)\b)", LexerStyle::Keyword, 1),
         rule(R"(%[a-z0-9]+)", LexerStyle::Name),
         rule(R"(^\s*\.\w+)", LexerStyle::Directive),
         rule(R"(^[\w.$@]+:)", LexerStyle::Type),
         rule(R"("[^"]*")", LexerStyle::String),
         rule(R"(#.*$)", LexerStyle::Comment)}};
    return spec;
}

const LexerSpec& ptxLexerSpec() {
    static const LexerSpec spec{
        "PTX",
        {rule(kNumber, LexerStyle::Number),
         rule(R"(\b(ld|st|mov|add|sub|mul|mad|fma|div|rem|abs|neg|min|max|rcp|sqrt|rsqrt|ex2|lg2|sin|cos|tanh|setp|selp|)"
              R"(cvt|cvta|and|or|xor|not|shl|shr|bra|ret|exit|call|bar|atom|red|shfl|vote|membar|fence)\b)",
              LexerStyle::Keyword),
         rule(R"(\.\w+)", LexerStyle::Directive),
         rule(R"(%\w+)", LexerStyle::Name),
         rule(R"(^\s*\$?\w+:)", LexerStyle::Type),
         rule(R"("[^"]*")", LexerStyle::String),
         rule(R"(//.*$)", LexerStyle::Comment)}};
    return spec;
}

PatternLexer::PatternLexer(const LexerSpec& spec, QObject* parent) : QsciLexerCustom(parent), spec_(spec) {}

QString PatternLexer::description(int style) const {
    static const char* const names[] = {"Default", "Comment", "Keyword", "Name", "Number", "String", "Type", "Directive"};
    return style >= 0 && style < int(LexerStyle::Count) ? names[style] : QString();
}

QColor PatternLexer::defaultColor(int style) const {
    switch (LexerStyle(style)) {
        case LexerStyle::Comment: return QColor(0, 128, 0);
        case LexerStyle::Keyword: return QColor(0, 0, 160);
        case LexerStyle::Name: return QColor(128, 0, 128);
        case LexerStyle::Number: return QColor(0, 128, 128);
        case LexerStyle::String: return QColor(160, 80, 0);
        case LexerStyle::Type: return QColor(0, 96, 160);
        case LexerStyle::Directive: return QColor(128, 96, 0);
        default: return QColor(0, 0, 0);
    }
}

QFont PatternLexer::defaultFont(int style) const {
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setBold(LexerStyle(style) == LexerStyle::Keyword);
    return font;
}

QList<LexerStyle> PatternLexer::styleLine(const QString& line) const {
    QList<LexerStyle> styles(line.size(), LexerStyle::Default);
    for (const LexerRule& r : spec_.rules)
        for (auto it = r.pattern.globalMatch(line); it.hasNext();) {
            auto m = it.next();
            for (qsizetype i = m.capturedStart(r.group); i >= 0 && i < m.capturedEnd(r.group); ++i) styles[i] = r.style;
        }
    return styles;
}

void PatternLexer::styleText(int start, int end) {
    if (!editor()) return;
    // Scintilla counts bytes of UTF-8; rules see characters. Style line by line, giving
    // each character the byte length it has in UTF-8.
    const QStringList lines = editor()->text(start, end).split('\n');
    startStyling(start);
    for (qsizetype l = 0; l < lines.size(); ++l) {
        const QString& line = lines[l];
        QList<LexerStyle> styles = styleLine(line);
        for (qsizetype i = 0; i < line.size(); ++i) {
            int bytes = line[i].isHighSurrogate() ? 4 : line[i].isLowSurrogate() ? 0 : int(QString(line[i]).toUtf8().size());
            if (bytes) setStyling(bytes, int(styles[i]));
        }
        if (l + 1 < lines.size()) setStyling(1, int(LexerStyle::Default));  // the newline
    }
}

}  // namespace fusescope::gui
