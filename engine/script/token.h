#pragma once
// Tokens of the Fusescope script subset (Python 3 lexical structure).

#include <cstdint>
#include <string>
#include <string_view>

namespace fusescope {

enum class TokenKind {
    EndOfFile,
    Newline,  // end of a logical line
    Indent,
    Dedent,
    Name,
    Int,
    Float,
    String,  // one string literal (adjacent literals are joined by the parser)
    // Keywords.
    KwFalse, KwNone, KwTrue, KwAnd, KwAs, KwAssert, KwAsync, KwAwait, KwBreak, KwClass,
    KwContinue, KwDef, KwDel, KwElif, KwElse, KwExcept, KwFinally, KwFor, KwFrom, KwGlobal,
    KwIf, KwImport, KwIn, KwIs, KwLambda, KwNonlocal, KwNot, KwOr, KwPass, KwRaise,
    KwReturn, KwTry, KwWhile, KwWith, KwYield,
    // Operators and delimiters.
    LParen, RParen, LBracket, RBracket, LBrace, RBrace,
    Colon, Comma, Semicolon, Dot, Ellipsis, Arrow, At, Assign, Walrus,
    Plus, Minus, Star, Slash, DoubleSlash, Percent, DoubleStar, Tilde, Amp, Pipe, Caret,
    LShift, RShift,
    Less, Greater, LessEqual, GreaterEqual, EqualEqual, NotEqual,
    PlusAssign, MinusAssign, StarAssign, SlashAssign, DoubleSlashAssign, PercentAssign,
    DoubleStarAssign, AtAssign, AmpAssign, PipeAssign, CaretAssign, LShiftAssign,
    RShiftAssign,
};

// Spelling for messages: "'('", "name", "end of file".
std::string tokenKindName(TokenKind kind);

struct Token {
    TokenKind kind = TokenKind::EndOfFile;
    // Name: the identifier. String: the decoded value (for f-strings: the raw body, which
    // the parser splits into literal parts and embedded expressions).
    std::string text;
    int64_t intValue = 0;
    double floatValue = 0.0;
    bool isFString = false;  // String with an f prefix
    bool isRaw = false;      // String with an r prefix
    bool isBytes = false;    // String with a b prefix: its text is the bytes
    // For f-strings: where the body (after the opening quotes) starts, so embedded
    // expressions get real source positions.
    int bodyLine = 0, bodyColumn = 0;
    int line = 0, column = 0;        // first character, 1-based
    int endLine = 0, endColumn = 0;  // one past the last character, 1-based
};

}  // namespace fusescope
