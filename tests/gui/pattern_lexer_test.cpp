// The custom lexers colour what matters in each text: scheduler nodes and buffers in the IR
// dumps, instructions, types and values in LLVM IR, mnemonics and registers in assembly and
// PTX; comments win over everything inside them; non-ASCII text keeps styles aligned.
#include <QTest>

#include "views/code_view.h"
#include "views/pattern_lexer.h"

using namespace fusescope::gui;

namespace {

// One letter per character: . default, c comment, k keyword, n name, 0 number, s string,
// t type, d directive.
QString styles(const LexerSpec& spec, const QString& line) {
    PatternLexer lexer(spec);
    QString out;
    for (LexerStyle s : lexer.styleLine(line)) out += ".ckn0std"[int(s)];
    return out;
}

}  // namespace

class PatternLexerTest : public QObject {
    Q_OBJECT
private slots:
    void irDump() {
        QCOMPARE(styles(irDumpLexerSpec(), "buf0: SchedulerNode(ComputedBuffer)"),
                 QString("nnnn..kkkkkkkkkkkkk.kkkkkkkkkkkkkk."));
        QCOMPARE(styles(irDumpLexerSpec(), "load = ops.load('arg0_1', i)  # x"),
                 QString(".......tttttttt.ssssssss......ccc"));  // a buffer inside a string is the string
    }

    void llvmIr() {
        QCOMPARE(styles(llvmIrLexerSpec(), "  %5 = fadd fast float %4, 1.0 ; x"),
                 QString("  nn...kkkk.kkkk.ttttt.nn..000.ccc").replace(' ', '.'));
        QCOMPARE(styles(llvmIrLexerSpec(), "define void @f(ptr %a)"), QString("kkkkkk.tttt.nn.ttt.nn."));
    }

    void assembly() {
        QCOMPARE(styles(assemblyLexerSpec(), "\tvmovups\t%zmm0, 64(%rdi)  # spill"),
                 QString(".kkkkkkk.nnnnn..00.nnnn...ccccccc"));
        QCOMPARE(styles(assemblyLexerSpec(), "cpp_fused_add_0:"), QString("tttttttttttttttt"));
        QCOMPARE(styles(assemblyLexerSpec(), "\t.p2align\t4, 0x90"), QString("ddddddddd.0..0000"));
    }

    void ptx() {
        QCOMPARE(styles(ptxLexerSpec(), "\tld.global.f32 \t%f1, [%rd4]; // a"),
                 QString(".kkddddddddddd..nnn...nnnn...cccc"));
    }

    void viewsStyleNonAsciiTextWithoutShiftingLaterCharacters() {
        CodeView view(CodeView::Language::IrDump);
        view.showText("# 注释\nbuf1: SchedulerNode\n");
        view.SendScintilla(QsciScintilla::SCI_COLOURISE, 0, -1);
        long line2 = view.SendScintilla(QsciScintilla::SCI_POSITIONFROMLINE, 1);
        QCOMPARE(int(view.SendScintilla(QsciScintilla::SCI_GETSTYLEAT, 2)), int(LexerStyle::Comment));  // inside the comment
        QCOMPARE(int(view.SendScintilla(QsciScintilla::SCI_GETSTYLEAT, line2)), int(LexerStyle::Name));
        QCOMPARE(int(view.SendScintilla(QsciScintilla::SCI_GETSTYLEAT, line2 + 6)), int(LexerStyle::Keyword));
    }
};

QTEST_MAIN(PatternLexerTest)
#include "pattern_lexer_test.moc"
