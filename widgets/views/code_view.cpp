#include "views/code_view.h"

#include <algorithm>

#include <QFontDatabase>
#include <Qsci/qscilexercpp.h>
#include <Qsci/qscilexerpython.h>

#include "views/pattern_lexer.h"

namespace fusescope::gui {

void configureCodeEditor(QsciScintilla& editor, CodeView::Language language) {
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    QsciLexer* lexer = nullptr;
    if (language == CodeView::Language::Cpp) lexer = new QsciLexerCPP(&editor);
    if (language == CodeView::Language::Python) lexer = new QsciLexerPython(&editor);
    if (language == CodeView::Language::IrDump) lexer = new PatternLexer(irDumpLexerSpec(), &editor);
    if (language == CodeView::Language::LlvmIr) lexer = new PatternLexer(llvmIrLexerSpec(), &editor);
    if (language == CodeView::Language::Assembly) lexer = new PatternLexer(assemblyLexerSpec(), &editor);
    if (language == CodeView::Language::Ptx) lexer = new PatternLexer(ptxLexerSpec(), &editor);
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

namespace {

// Background markers: one per tint colour, and the selection's above them all (Scintilla
// draws the highest-numbered background marker of a line).
constexpr int kTintMarkers = 8;
constexpr int kHighlightMarker = kTintMarkers;

const QColor& tintColour(int i) {
    static const QColor colours[kTintMarkers] = {QColor(232, 242, 255), QColor(255, 240, 225), QColor(233, 248, 233),
                                                 QColor(248, 235, 250), QColor(255, 250, 220), QColor(228, 246, 246),
                                                 QColor(250, 232, 236), QColor(238, 238, 250)};
    return colours[i % kTintMarkers];
}

}  // namespace

CodeView::CodeView(Language language, QWidget* parent) : QsciScintilla(parent) {
    configureCodeEditor(*this, language);
    setReadOnly(true);
    for (int i = 0; i < kTintMarkers; ++i) {
        markerDefine(QsciScintilla::Background, i);
        setMarkerBackgroundColor(tintColour(i), i);
    }
    markerDefine(QsciScintilla::Background, kHighlightMarker);
    setMarkerBackgroundColor(QColor(255, 214, 102), kHighlightMarker);
    connect(this, &QsciScintilla::cursorPositionChanged, this, [this](int line, int) {
        if (!settingText_) Q_EMIT lineClicked(line + 1);
    });
}

void CodeView::showText(const QString& text) {
    settingText_ = true;
    setReadOnly(false);
    setText(text);
    setReadOnly(true);
    settingText_ = false;
}

int CodeView::scrollToGraph(const QString& graphName) {
    const QString header = "# ===== " + graphName;
    for (int line = 0; line < lines(); ++line)
        if (text(line).startsWith(header)) {
            setFirstVisibleLine(line);
            return line + 1;
        }
    return 0;
}

void CodeView::markLines(const LineRange& range, int marker) {
    // Ranges come from events (possibly a bundle made elsewhere): only the document's lines.
    const int last = std::min(range.second, lines());
    for (int line = std::max(range.first, 1); line <= last; ++line) markerAdd(line - 1, marker);
}

void CodeView::tintLines(const QList<LineRanges>& groups) {
    for (int i = 0; i < kTintMarkers; ++i) markerDeleteAll(i);
    for (int g = 0; g < groups.size(); ++g)
        for (const auto& range : groups[g]) markLines(range, g % kTintMarkers);
}

void CodeView::highlightLines(const LineRanges& lines) {
    markerDeleteAll(kHighlightMarker);
    for (const auto& range : lines) markLines(range, kHighlightMarker);
    if (!lines.isEmpty()) {
        // Show the block from its first line, with a little context above.
        setFirstVisibleLine(std::max(0, lines.first().first - 3));
        ensureLineVisible(lines.first().first - 1);
    }
}

QList<int> CodeView::highlightedLines() const {
    QList<int> out;
    for (int line = markerFindNext(0, 1 << kHighlightMarker); line >= 0; line = markerFindNext(line + 1, 1 << kHighlightMarker))
        out.append(line + 1);
    return out;
}

}  // namespace fusescope::gui
