// Lexer of the script subset: token streams, literals, indentation and lexical errors.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "script/lexer.h"

using namespace fusescope;

namespace {

// Compact rendering of a token stream: names/numbers by value, strings quoted, structure
// tokens as NL/IN/DE, operators by spelling.
std::string lex(const std::string& src) {
    std::string out;
    for (const Token& t : tokenize(src, "t.py")) {
        if (!out.empty()) out += ' ';
        switch (t.kind) {
            case TokenKind::Name: out += t.text; break;
            case TokenKind::Int: out += std::to_string(t.intValue); break;
            case TokenKind::Float: out += "F" + std::to_string(t.floatValue); break;
            case TokenKind::String: out += (t.isFString ? "f<" : "<") + t.text + ">"; break;
            case TokenKind::Newline: out += "NL"; break;
            case TokenKind::Indent: out += "IN"; break;
            case TokenKind::Dedent: out += "DE"; break;
            case TokenKind::EndOfFile: out += "EOF"; break;
            default: {
                std::string name = tokenKindName(t.kind);
                out += name.substr(1, name.size() - 2);  // strip the quotes
            }
        }
    }
    return out;
}

std::string lexError(const std::string& src) {
    try {
        tokenize(src, "t.py");
    } catch (const ScriptError& e) {
        return e.kind() + " " + std::to_string(e.where().line) + ":" + std::to_string(e.where().column) + " " +
               e.what();
    }
    return "no error";
}

}  // namespace

TEST(ScriptLexer, SimpleLineEndsWithNewlineAndEof) {
    EXPECT_EQ(lex("x = a.b(1)"), "x = a . b ( 1 ) NL EOF");
    EXPECT_EQ(lex("x = 1\n"), "x = 1 NL EOF");
    EXPECT_EQ(lex(""), "EOF");
    EXPECT_EQ(lex("\n\n# only a comment\n   \n"), "EOF");
}

TEST(ScriptLexer, Keywords) {
    EXPECT_EQ(lex("if not x is None and y in z or True: pass"),
              "if not x is None and y in z or True : pass NL EOF");
    EXPECT_EQ(lex("lambda_ classy"), "lambda_ classy NL EOF");
}

TEST(ScriptLexer, OperatorsTakeLongestMatch) {
    EXPECT_EQ(lex("a **= b // c >>= d ... -> != <= @= ~"),
              "a **= b // c >>= d ... -> != <= @= ~ NL EOF");
    EXPECT_EQ(lex("x[...]"), "x [ ... ] NL EOF");
}

TEST(ScriptLexer, IndentAndDedent) {
    EXPECT_EQ(lex("if a:\n    b\n    if c:\n        d\ne\n"),
              "if a : NL IN b NL if c : NL IN d NL DE DE e NL EOF");
    // Blank and comment-only lines do not affect indentation.
    EXPECT_EQ(lex("if a:\n\n    b\n  # c\n\n    d\n"), "if a : NL IN b NL d NL DE EOF");
    // Open blocks close at end of file, even without a final newline.
    EXPECT_EQ(lex("def f():\n  if x:\n    return 1"), "def f ( ) : NL IN if x : NL IN return 1 NL DE DE EOF");
}

TEST(ScriptLexer, TabsIndentToMultiplesOfEight) {
    EXPECT_EQ(lex("if a:\n\tb\n\tc\n\t  d\n"), "if a : NL IN b NL c NL IN d NL DE DE EOF");
    EXPECT_EQ(lex("if a:\n  \tb\n  \tc\n"), "if a : NL IN b NL c NL DE EOF");
    // A tab and eight spaces are the same width but not the same indentation (as in Python).
    EXPECT_EQ(lexError("if a:\n\tb\n        c\n"), "TabError 3:9 inconsistent use of tabs and spaces in indentation");
}

TEST(ScriptLexer, ImplicitAndExplicitLineJoining) {
    EXPECT_EQ(lex("x = (1,\n       2)\ny = [\n  3\n]\n"), "x = ( 1 , 2 ) NL y = [ 3 ] NL EOF");
    EXPECT_EQ(lex("x = 1 + \\\n    2\n"), "x = 1 + 2 NL EOF");
    EXPECT_EQ(lex("d = {\n# comment\n  1: 2}\n"), "d = { 1 : 2 } NL EOF");
}

TEST(ScriptLexer, CarriageReturnLineEnds) {
    EXPECT_EQ(lex("if a:\r\n    b\r\nc\r\n"), "if a : NL IN b NL DE c NL EOF");
}

TEST(ScriptLexer, IntegerLiterals) {
    EXPECT_EQ(lex("0 7 1_000 0x1F 0XfF 0o17 0b101 0x_ff 00"), "0 7 1000 31 255 15 5 255 0 NL EOF");
    EXPECT_EQ(lex("9223372036854775807"), "9223372036854775807 NL EOF");
}

TEST(ScriptLexer, FloatLiterals) {
    std::vector<Token> toks = tokenize("1. .5 1e-5 1_000.0 2E+3 3.25e2 0.0 1_0e1_0", "t.py");
    std::vector<double> expected = {1.0, 0.5, 1e-5, 1000.0, 2000.0, 325.0, 0.0, 10e10};
    ASSERT_EQ(toks.size(), expected.size() + 2);
    for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(toks[i].kind, TokenKind::Float) << i;
        EXPECT_DOUBLE_EQ(toks[i].floatValue, expected[i]) << i;
    }
}

TEST(ScriptLexer, StringLiteralsAndEscapes) {
    EXPECT_EQ(lex(R"(x = 'a' "b")"), "x = <a> <b> NL EOF");
    EXPECT_EQ(tokenize(R"('a\tb\n\\\'\"\x41\101\u00e9\q')", "t.py")[0].text, "a\tb\n\\'\"AA\xc3\xa9\\q");
    EXPECT_EQ(tokenize(R"(r'a\n\'')", "t.py")[0].text, R"(a\n\')");
    EXPECT_EQ(tokenize("'''a\n'b'\"\"\"'''", "t.py")[0].text, "a\n'b'\"\"\"");
    EXPECT_EQ(tokenize("\"\"\"x\\\ny\"\"\"", "t.py")[0].text, "xy");  // backslash-newline
    EXPECT_EQ(tokenize("u'x'", "t.py")[0].text, "x");
}

TEST(ScriptLexer, FStringTokensKeepRawBody) {
    std::vector<Token> toks = tokenize("x = f'{x!r}\\n'", "t.py");
    ASSERT_EQ(toks[2].kind, TokenKind::String);
    EXPECT_TRUE(toks[2].isFString);
    EXPECT_EQ(toks[2].text, "{x!r}\\n");
    EXPECT_EQ(toks[2].column, 5);
    EXPECT_EQ(toks[2].bodyColumn, 7);
    EXPECT_TRUE(tokenize("Rf'x'", "t.py")[0].isRaw);
}

TEST(ScriptLexer, TokenPositions) {
    std::vector<Token> toks = tokenize("if x:\n    yy = 10 ** 2\n", "t.py");
    // if x : NL IN yy = 10 ** 2 NL DE EOF
    ASSERT_GE(toks.size(), 11u);
    EXPECT_EQ(toks[5].text, "yy");
    EXPECT_EQ(toks[5].line, 2);
    EXPECT_EQ(toks[5].column, 5);
    EXPECT_EQ(toks[5].endColumn, 7);
    EXPECT_EQ(toks[8].kind, TokenKind::DoubleStar);
    EXPECT_EQ(toks[8].column, 13);
    EXPECT_EQ(toks[8].endColumn, 15);
}

TEST(ScriptLexer, LexicalErrorsNameLineAndColumn) {
    EXPECT_EQ(lexError("x = 'abc\n"), "SyntaxError 1:5 unterminated string literal (detected at line 1)");
    EXPECT_EQ(lexError("x = 1\ny = \"\"\"abc\n\n"),
              "SyntaxError 2:5 unterminated triple-quoted string literal (detected at line 4)");
    EXPECT_EQ(lexError("  x = 1\n"), "no error");  // the parser reports the unexpected indent
    EXPECT_EQ(lexError("if a:\n    b\n  c\n"),
              "IndentationError 3:3 unindent does not match any outer indentation level");
    EXPECT_EQ(lexError("if a:\n        b\n\tc\n"), "TabError 3:2 inconsistent use of tabs and spaces in indentation");
    EXPECT_EQ(lexError("x = (1,\n2"), "SyntaxError 1:5 '(' was never closed");
    EXPECT_EQ(lexError("x = 1]"), "SyntaxError 1:6 unmatched ']'");
    EXPECT_EQ(lexError("f(a]"), "SyntaxError 1:4 closing parenthesis ']' does not match opening parenthesis '('");
    EXPECT_EQ(lexError("x = 1 \\ 2"), "SyntaxError 1:7 unexpected character after line continuation character");
    EXPECT_EQ(lexError("x = $y"), "SyntaxError 1:5 invalid character '$' (U+0024)");
    EXPECT_EQ(lexError("x = 0777"),
              "SyntaxError 1:5 leading zeros in decimal integer literals are not permitted; use an 0o prefix for "
              "octal integers");
    EXPECT_EQ(lexError("x = 1__0"), "SyntaxError 1:6 invalid decimal literal");
    EXPECT_EQ(lexError("x = 1_"), "SyntaxError 1:6 invalid decimal literal");
    EXPECT_EQ(lexError("x = 12abc"), "SyntaxError 1:5 invalid decimal literal");
    EXPECT_EQ(lexError("x = 0x"), "SyntaxError 1:5 invalid hexadecimal literal");
    EXPECT_EQ(lexError("x = 0b102"), "SyntaxError 1:5 invalid binary literal");
    EXPECT_EQ(lexError("x = 3j"), "SyntaxError 1:5 complex literals are not supported by Fusescope scripts");
    EXPECT_EQ(lexError("x = 9223372036854775808"),
              "SyntaxError 1:5 integer literal is too large (Fusescope integers are 64-bit)");
    EXPECT_EQ(lexError("x = b'\xc3\xa9'"), "SyntaxError 1:5 bytes can only contain ASCII literal characters");
    EXPECT_EQ(lexError("x = '\\x4'"), "SyntaxError 1:5 truncated \\x escape in string literal");
    EXPECT_EQ(lexError(std::string("x = 1\0", 6)), "SyntaxError 1:6 source code cannot contain null bytes");
}
