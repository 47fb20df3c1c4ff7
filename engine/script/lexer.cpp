#include "script/lexer.h"
#include "script/utf8.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

namespace fusescope {

std::string tokenKindName(TokenKind kind) {
    switch (kind) {
        case TokenKind::EndOfFile: return "end of file";
        case TokenKind::Newline: return "newline";
        case TokenKind::Indent: return "indent";
        case TokenKind::Dedent: return "dedent";
        case TokenKind::Name: return "name";
        case TokenKind::Int: return "integer";
        case TokenKind::Float: return "float";
        case TokenKind::String: return "string";
        case TokenKind::KwFalse: return "'False'";
        case TokenKind::KwNone: return "'None'";
        case TokenKind::KwTrue: return "'True'";
        case TokenKind::KwAnd: return "'and'";
        case TokenKind::KwAs: return "'as'";
        case TokenKind::KwAssert: return "'assert'";
        case TokenKind::KwAsync: return "'async'";
        case TokenKind::KwAwait: return "'await'";
        case TokenKind::KwBreak: return "'break'";
        case TokenKind::KwClass: return "'class'";
        case TokenKind::KwContinue: return "'continue'";
        case TokenKind::KwDef: return "'def'";
        case TokenKind::KwDel: return "'del'";
        case TokenKind::KwElif: return "'elif'";
        case TokenKind::KwElse: return "'else'";
        case TokenKind::KwExcept: return "'except'";
        case TokenKind::KwFinally: return "'finally'";
        case TokenKind::KwFor: return "'for'";
        case TokenKind::KwFrom: return "'from'";
        case TokenKind::KwGlobal: return "'global'";
        case TokenKind::KwIf: return "'if'";
        case TokenKind::KwImport: return "'import'";
        case TokenKind::KwIn: return "'in'";
        case TokenKind::KwIs: return "'is'";
        case TokenKind::KwLambda: return "'lambda'";
        case TokenKind::KwNonlocal: return "'nonlocal'";
        case TokenKind::KwNot: return "'not'";
        case TokenKind::KwOr: return "'or'";
        case TokenKind::KwPass: return "'pass'";
        case TokenKind::KwRaise: return "'raise'";
        case TokenKind::KwReturn: return "'return'";
        case TokenKind::KwTry: return "'try'";
        case TokenKind::KwWhile: return "'while'";
        case TokenKind::KwWith: return "'with'";
        case TokenKind::KwYield: return "'yield'";
        case TokenKind::LParen: return "'('";
        case TokenKind::RParen: return "')'";
        case TokenKind::LBracket: return "'['";
        case TokenKind::RBracket: return "']'";
        case TokenKind::LBrace: return "'{'";
        case TokenKind::RBrace: return "'}'";
        case TokenKind::Colon: return "':'";
        case TokenKind::Comma: return "','";
        case TokenKind::Semicolon: return "';'";
        case TokenKind::Dot: return "'.'";
        case TokenKind::Ellipsis: return "'...'";
        case TokenKind::Arrow: return "'->'";
        case TokenKind::At: return "'@'";
        case TokenKind::Assign: return "'='";
        case TokenKind::Walrus: return "':='";
        case TokenKind::Plus: return "'+'";
        case TokenKind::Minus: return "'-'";
        case TokenKind::Star: return "'*'";
        case TokenKind::Slash: return "'/'";
        case TokenKind::DoubleSlash: return "'//'";
        case TokenKind::Percent: return "'%'";
        case TokenKind::DoubleStar: return "'**'";
        case TokenKind::Tilde: return "'~'";
        case TokenKind::Amp: return "'&'";
        case TokenKind::Pipe: return "'|'";
        case TokenKind::Caret: return "'^'";
        case TokenKind::LShift: return "'<<'";
        case TokenKind::RShift: return "'>>'";
        case TokenKind::Less: return "'<'";
        case TokenKind::Greater: return "'>'";
        case TokenKind::LessEqual: return "'<='";
        case TokenKind::GreaterEqual: return "'>='";
        case TokenKind::EqualEqual: return "'=='";
        case TokenKind::NotEqual: return "'!='";
        case TokenKind::PlusAssign: return "'+='";
        case TokenKind::MinusAssign: return "'-='";
        case TokenKind::StarAssign: return "'*='";
        case TokenKind::SlashAssign: return "'/='";
        case TokenKind::DoubleSlashAssign: return "'//='";
        case TokenKind::PercentAssign: return "'%='";
        case TokenKind::DoubleStarAssign: return "'**='";
        case TokenKind::AtAssign: return "'@='";
        case TokenKind::AmpAssign: return "'&='";
        case TokenKind::PipeAssign: return "'|='";
        case TokenKind::CaretAssign: return "'^='";
        case TokenKind::LShiftAssign: return "'<<='";
        case TokenKind::RShiftAssign: return "'>>='";
    }
    return "token";
}

namespace {

const std::unordered_map<std::string_view, TokenKind>& keywords() {
    static const std::unordered_map<std::string_view, TokenKind> table = {
        {"False", TokenKind::KwFalse},       {"None", TokenKind::KwNone},
        {"True", TokenKind::KwTrue},         {"and", TokenKind::KwAnd},
        {"as", TokenKind::KwAs},             {"assert", TokenKind::KwAssert},
        {"async", TokenKind::KwAsync},       {"await", TokenKind::KwAwait},
        {"break", TokenKind::KwBreak},       {"class", TokenKind::KwClass},
        {"continue", TokenKind::KwContinue}, {"def", TokenKind::KwDef},
        {"del", TokenKind::KwDel},           {"elif", TokenKind::KwElif},
        {"else", TokenKind::KwElse},         {"except", TokenKind::KwExcept},
        {"finally", TokenKind::KwFinally},   {"for", TokenKind::KwFor},
        {"from", TokenKind::KwFrom},         {"global", TokenKind::KwGlobal},
        {"if", TokenKind::KwIf},             {"import", TokenKind::KwImport},
        {"in", TokenKind::KwIn},             {"is", TokenKind::KwIs},
        {"lambda", TokenKind::KwLambda},     {"nonlocal", TokenKind::KwNonlocal},
        {"not", TokenKind::KwNot},           {"or", TokenKind::KwOr},
        {"pass", TokenKind::KwPass},         {"raise", TokenKind::KwRaise},
        {"return", TokenKind::KwReturn},     {"try", TokenKind::KwTry},
        {"while", TokenKind::KwWhile},       {"with", TokenKind::KwWith},
        {"yield", TokenKind::KwYield},
    };
    return table;
}

// Longest first, so the scan below takes the longest match.
struct OperatorSpelling {
    std::string_view text;
    TokenKind kind;
};
constexpr OperatorSpelling kOperators[] = {
    {"**=", TokenKind::DoubleStarAssign}, {"//=", TokenKind::DoubleSlashAssign},
    {">>=", TokenKind::RShiftAssign},     {"<<=", TokenKind::LShiftAssign},
    {"...", TokenKind::Ellipsis},         {"->", TokenKind::Arrow},
    {":=", TokenKind::Walrus},            {"**", TokenKind::DoubleStar},
    {"//", TokenKind::DoubleSlash},       {">>", TokenKind::RShift},
    {"<<", TokenKind::LShift},            {"<=", TokenKind::LessEqual},
    {">=", TokenKind::GreaterEqual},      {"==", TokenKind::EqualEqual},
    {"!=", TokenKind::NotEqual},          {"+=", TokenKind::PlusAssign},
    {"-=", TokenKind::MinusAssign},       {"*=", TokenKind::StarAssign},
    {"/=", TokenKind::SlashAssign},       {"%=", TokenKind::PercentAssign},
    {"@=", TokenKind::AtAssign},          {"&=", TokenKind::AmpAssign},
    {"|=", TokenKind::PipeAssign},        {"^=", TokenKind::CaretAssign},
    {"(", TokenKind::LParen},             {")", TokenKind::RParen},
    {"[", TokenKind::LBracket},           {"]", TokenKind::RBracket},
    {"{", TokenKind::LBrace},             {"}", TokenKind::RBrace},
    {":", TokenKind::Colon},              {",", TokenKind::Comma},
    {";", TokenKind::Semicolon},          {".", TokenKind::Dot},
    {"@", TokenKind::At},                 {"=", TokenKind::Assign},
    {"+", TokenKind::Plus},               {"-", TokenKind::Minus},
    {"*", TokenKind::Star},               {"/", TokenKind::Slash},
    {"%", TokenKind::Percent},            {"~", TokenKind::Tilde},
    {"&", TokenKind::Amp},                {"|", TokenKind::Pipe},
    {"^", TokenKind::Caret},              {"<", TokenKind::Less},
    {">", TokenKind::Greater},
};

bool isIdentStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }
bool isHexDigit(char c) {
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int hexValue(char c) {
    if (isDigit(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return c - 'A' + 10;
}

// The offset of the first byte that does not start a well-formed UTF-8 sequence (no
// overlong forms, surrogates or code points past U+10FFFF), if any.
std::optional<size_t> invalidUtf8At(std::string_view text) {
    for (size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        const size_t length = byte < 0x80 ? 1 : byte >= 0xC2 && byte <= 0xDF ? 2 : byte >= 0xE0 && byte <= 0xEF ? 3 : byte >= 0xF0 && byte <= 0xF4 ? 4 : 0;
        if (length == 0 || i + length > text.size()) return i;
        for (size_t k = 1; k < length; ++k)
            if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return i;
        const auto second = static_cast<unsigned char>(length > 1 ? text[i + 1] : 0);
        if ((byte == 0xE0 && second < 0xA0) || (byte == 0xED && second > 0x9F) || (byte == 0xF0 && second < 0x90) || (byte == 0xF4 && second > 0x8F))
            return i;
        i += length;
    }
    return std::nullopt;
}

// A script file must be UTF-8, as Python 3 reads one without an encoding declaration.
void requireUtf8(std::string_view source, const std::string& fileName) {
    std::optional<size_t> at = invalidUtf8At(source);
    if (!at) return;
    const int line = 1 + static_cast<int>(std::count(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(*at), '\n'));
    const size_t lineStart = source.rfind('\n', *at == 0 ? 0 : *at - 1);
    const int column = static_cast<int>(*at - (lineStart == std::string_view::npos || *at == 0 ? 0 : lineStart + 1)) + 1;
    const bool declared = source.substr(0, source.find('\n', source.find('\n') + 1)).find("coding") != std::string_view::npos;
    throw ScriptError("SyntaxError",
                      fmt::format("Non-UTF-8 code starting with '\\x{:02x}' in file {} on line {}, but {}; see "
                                  "https://peps.python.org/pep-0263/ for details",
                                  static_cast<unsigned char>(source[*at]), fileName, line,
                                  declared ? "Fusescope reads scripts as UTF-8 only" : "no encoding declared"),
                      SourceLocation{fileName, line, column});
}

// Describes an unexpected character for "invalid character" messages.
std::string describeChar(char c) {
    unsigned char u = static_cast<unsigned char>(c);
    char buf[32];
    if (u >= 0x21 && u < 0x7F) {
        std::snprintf(buf, sizeof buf, "'%c' (U+%04X)", c, u);
    } else {
        std::snprintf(buf, sizeof buf, "byte 0x%02X", u);
    }
    return buf;
}

class Lexer {
public:
    Lexer(std::string_view src, const std::string& file, const LexerOptions& opts)
        : src_(src), file_(file), line_(opts.startLine), col_(opts.startColumn),
          insideBrackets_(opts.insideBrackets) {}

    std::vector<Token> run() {
        bool atLineStart = !insideBrackets_;
        while (true) {
            if (atLineStart && brackets_.empty()) {
                atLineStart = false;
                if (!handleIndentation()) {  // blank or comment-only line: the next one decides
                    atLineStart = true;
                    continue;
                }
            }
            skipBlanks();
            if (atEnd()) break;
            char c = peek();
            if (c == '#') {
                while (!atEnd() && peek() != '\n' && peek() != '\r') advance();
                continue;
            }
            if (c == '\n' || c == '\r') {
                int line = line_, col = col_;
                consumeLineEnd();
                if (brackets_.empty() && !insideBrackets_ && !tokens_.empty() &&
                    tokens_.back().kind != TokenKind::Newline) {
                    emitSimple(TokenKind::Newline, line, col, line, col + 1);
                }
                if (brackets_.empty() && !insideBrackets_) atLineStart = true;
                continue;
            }
            if (c == '\\') {
                int line = line_, col = col_;
                advance();
                if (atEnd()) throw syntaxError("unexpected end of file after line continuation character", line, col);
                if (peek() != '\n' && peek() != '\r')
                    throw syntaxError("unexpected character after line continuation character", line, col);
                consumeLineEnd();
                continue;
            }
            if (c == '\0') throw syntaxError("source code cannot contain null bytes", line_, col_);
            if (isIdentStart(c)) {
                lexNameOrString();
            } else if (isDigit(c) || (c == '.' && isDigit(peek(1)))) {
                lexNumber();
            } else if (c == '\'' || c == '"') {
                lexString(std::string_view(), line_, col_);
            } else {
                lexOperator();
            }
        }
        int line = line_, col = col_;
        if (!brackets_.empty()) {
            const Open& open = brackets_.back();
            throw syntaxError(std::string("'") + open.ch + "' was never closed", open.line, open.col);
        }
        if (!insideBrackets_) {
            if (!tokens_.empty() && tokens_.back().kind != TokenKind::Newline &&
                tokens_.back().kind != TokenKind::Dedent && tokens_.back().kind != TokenKind::Indent)
                emitSimple(TokenKind::Newline, line, col, line, col);
            while (indents_.size() > 1) {
                indents_.pop_back();
                emitSimple(TokenKind::Dedent, line, col, line, col);
            }
        }
        emitSimple(TokenKind::EndOfFile, line, col, line, col);
        return std::move(tokens_);
    }

private:
    struct Open {
        char ch;
        int line, col;
    };

    bool atEnd() const { return pos_ >= src_.size(); }
    char peek(size_t ahead = 0) const {
        return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
    }
    void advance() {
        ++pos_;
        ++col_;
    }
    void consumeLineEnd() {
        if (peek() == '\r' && peek(1) == '\n') ++pos_;
        ++pos_;
        ++line_;
        col_ = 1;
    }
    void skipBlanks() {
        while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\f')) advance();
    }

    ScriptError syntaxError(const std::string& msg, int line, int col,
                            const char* kind = "SyntaxError") const {
        return ScriptError(kind, msg, SourceLocation{file_, line, col});
    }

    void emitSimple(TokenKind kind, int line, int col, int endLine, int endCol) {
        Token t;
        t.kind = kind;
        t.line = line;
        t.column = col;
        t.endLine = endLine;
        t.endColumn = endCol;
        tokens_.push_back(std::move(t));
    }

    // Measures the indentation of a new logical line and emits INDENT/DEDENTs. Returns
    // false for a blank or comment-only line (which does not affect indentation).
    bool handleIndentation() {
        int width = 0, altWidth = 0;  // tabs to multiples of 8, and tabs as 1 (for TabError)
        while (!atEnd()) {
            char c = peek();
            if (c == ' ') {
                ++width;
                ++altWidth;
            } else if (c == '\t') {
                width = (width / 8 + 1) * 8;
                ++altWidth;
            } else if (c == '\f') {
                width = altWidth = 0;
            } else {
                break;
            }
            advance();
        }
        if (atEnd()) return true;  // the main loop ends; trailing blanks do not indent
        char c = peek();
        if (c == '#' || c == '\n' || c == '\r') {
            while (!atEnd() && peek() != '\n' && peek() != '\r') advance();
            if (!atEnd()) consumeLineEnd();
            return false;
        }
        if (c == '\\') return true;  // a continuation on an otherwise empty line: no indent change
        if (width == indents_.back()) {
            if (altWidth != altIndents_.back()) throw tabError();
        } else if (width > indents_.back()) {
            if (altWidth <= altIndents_.back()) throw tabError();
            indents_.push_back(width);
            altIndents_.push_back(altWidth);
            emitSimple(TokenKind::Indent, line_, 1, line_, col_);
        } else {
            while (indents_.size() > 1 && width < indents_.back()) {
                indents_.pop_back();
                altIndents_.pop_back();
                emitSimple(TokenKind::Dedent, line_, col_, line_, col_);
            }
            if (width != indents_.back())
                throw syntaxError("unindent does not match any outer indentation level", line_, col_,
                                  "IndentationError");
            if (altWidth != altIndents_.back()) throw tabError();
        }
        return true;
    }
    ScriptError tabError() const {
        return syntaxError("inconsistent use of tabs and spaces in indentation", line_, col_, "TabError");
    }

    void lexNameOrString() {
        int line = line_, col = col_;
        size_t start = pos_;
        while (!atEnd() && isIdentChar(peek())) advance();
        std::string_view word = src_.substr(start, pos_ - start);
        if ((peek() == '\'' || peek() == '"') && word.size() <= 2) {
            bool isPrefix = true;
            for (char ch : word) {
                char l = static_cast<char>(ch | 0x20);
                if (l != 'r' && l != 'u' && l != 'f' && l != 'b') isPrefix = false;
            }
            if (isPrefix) {
                lexString(word, line, col);
                return;
            }
        }
        if (static_cast<unsigned char>(peek()) >= 0x80)
            throw syntaxError("invalid character " + describeChar(peek()) +
                                  " (Fusescope scripts allow only ASCII names)", line_, col_);
        Token t;
        auto kw = keywords().find(word);
        t.kind = kw == keywords().end() ? TokenKind::Name : kw->second;
        t.text = std::string(word);
        t.line = line;
        t.column = col;
        t.endLine = line_;
        t.endColumn = col_;
        tokens_.push_back(std::move(t));
    }

    // Scans digits accepted by `pred` with single underscores between them.
    void scanDigits(bool (*pred)(char), std::string& digits, const char* what) {
        while (!atEnd()) {
            char c = peek();
            if (pred(c)) {
                digits += c;
                advance();
            } else if (c == '_') {
                advance();
                if (!pred(peek())) throw syntaxError(std::string("invalid ") + what + " literal", line_, col_ - 1);
            } else {
                break;
            }
        }
    }

    void lexNumber() {
        int line = line_, col = col_;
        Token t;
        t.line = line;
        t.column = col;
        std::string digits;
        char c0 = peek(), c1 = static_cast<char>(peek(1) | 0x20);
        if (c0 == '0' && (c1 == 'x' || c1 == 'o' || c1 == 'b')) {
            advance();
            advance();
            int base = c1 == 'x' ? 16 : c1 == 'o' ? 8 : 2;
            const char* what = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
            auto pred = base == 16 ? isHexDigit
                        : base == 8 ? +[](char c) { return c >= '0' && c <= '7'; }
                                    : +[](char c) { return c == '0' || c == '1'; };
            if (peek() == '_') advance();  // 0x_ff is allowed
            scanDigits(pred, digits, what);
            if (digits.empty() || isIdentChar(peek()))
                throw syntaxError(std::string("invalid ") + what + " literal", line, col);
            uint64_t value = 0;
            for (char d : digits) {
                uint64_t next = value * base + hexValue(d);
                if ((next - hexValue(d)) / base != value ||
                    next > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
                    throw syntaxError("integer literal is too large (Fusescope integers are 64-bit)", line, col);
                value = next;
            }
            t.kind = TokenKind::Int;
            t.intValue = static_cast<int64_t>(value);
        } else {
            bool isFloat = false;
            if (peek() != '.') scanDigits(isDigit, digits, "decimal");
            std::string text = digits;
            if (peek() == '.') {
                isFloat = true;
                advance();
                text += '.';
                std::string frac;
                if (isDigit(peek())) scanDigits(isDigit, frac, "decimal");
                text += frac;
            }
            if ((peek() | 0x20) == 'e' &&
                (isDigit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && isDigit(peek(2))))) {
                isFloat = true;
                advance();
                text += 'e';
                if (peek() == '+' || peek() == '-') {
                    text += peek();
                    advance();
                }
                std::string exp;
                scanDigits(isDigit, exp, "decimal");
                text += exp;
            }
            if ((peek() | 0x20) == 'j')
                throw syntaxError("complex literals are not supported by Fusescope scripts", line, col);
            if (isIdentChar(peek())) throw syntaxError("invalid decimal literal", line, col);
            if (isFloat) {
                t.kind = TokenKind::Float;
                t.floatValue = std::strtod(text.c_str(), nullptr);
            } else {
                if (digits.size() > 1 && digits[0] == '0' && digits.find_first_not_of('0') != std::string::npos)
                    throw syntaxError("leading zeros in decimal integer literals are not permitted; "
                                      "use an 0o prefix for octal integers", line, col);
                errno = 0;
                char* end = nullptr;
                long long v = std::strtoll(digits.c_str(), &end, 10);
                if (errno == ERANGE)
                    throw syntaxError("integer literal is too large (Fusescope integers are 64-bit)", line, col);
                t.kind = TokenKind::Int;
                t.intValue = v;
            }
        }
        t.endLine = line_;
        t.endColumn = col_;
        tokens_.push_back(std::move(t));
    }

    // Lexes a string literal whose prefix (already consumed) started at line:col.
    void lexString(std::string_view prefix, int line, int col) {
        bool raw = false, fstring = false, bytes = false;
        for (char ch : prefix) {
            char l = static_cast<char>(ch | 0x20);
            if (l == 'r') raw = true;
            if (l == 'f') fstring = true;
            if (l == 'b') bytes = true;
        }
        char quote = peek();
        bool triple = peek(1) == quote && peek(2) == quote;
        int quoteLen = triple ? 3 : 1;
        for (int i = 0; i < quoteLen; ++i) advance();
        int bodyLine = line_, bodyCol = col_;
        size_t bodyStart = pos_;
        while (true) {
            if (atEnd()) {
                throw syntaxError(std::string(triple ? "unterminated triple-quoted string literal"
                                                     : "unterminated string literal") +
                                      " (detected at line " + std::to_string(line_) + ")",
                                  line, col);
            }
            char c = peek();
            if (c == quote && (!triple || (peek(1) == quote && peek(2) == quote))) break;
            if (c == '\\') {
                advance();
                if (atEnd()) continue;
                if (peek() == '\n' || peek() == '\r') {
                    consumeLineEnd();
                } else {
                    advance();
                }
                continue;
            }
            if (c == '\n' || c == '\r') {
                if (!triple)
                    throw syntaxError("unterminated string literal (detected at line " +
                                          std::to_string(line_) + ")", line, col);
                consumeLineEnd();
                continue;
            }
            if (c == '\0') throw syntaxError("source code cannot contain null bytes", line_, col_);
            if (bytes && static_cast<unsigned char>(c) >= 0x80) throw syntaxError("bytes can only contain ASCII literal characters", line, col);
            advance();
        }
        std::string_view body = src_.substr(bodyStart, pos_ - bodyStart);
        for (int i = 0; i < quoteLen; ++i) advance();
        Token t;
        t.kind = TokenKind::String;
        t.isRaw = raw;
        t.isFString = fstring;
        t.isBytes = bytes;
        t.bodyLine = bodyLine;
        t.bodyColumn = bodyCol;
        t.line = line;
        t.column = col;
        t.endLine = line_;
        t.endColumn = col_;
        if (fstring || raw) {
            t.text = std::string(body);
        } else {
            t.text = decodeStringEscapes(body, SourceLocation{file_, line, col}, bytes);
        }
        tokens_.push_back(std::move(t));
    }

    void lexOperator() {
        int line = line_, col = col_;
        for (const OperatorSpelling& op : kOperators) {
            if (src_.substr(pos_, op.text.size()) != op.text) continue;
            for (size_t i = 0; i < op.text.size(); ++i) advance();
            char ch = op.text[0];
            if (op.text.size() == 1 && (ch == '(' || ch == '[' || ch == '{')) {
                brackets_.push_back({ch, line, col});
            } else if (op.text.size() == 1 && (ch == ')' || ch == ']' || ch == '}')) {
                if (brackets_.empty())
                    throw syntaxError(std::string("unmatched '") + ch + "'", line, col);
                char open = brackets_.back().ch;
                char expected = open == '(' ? ')' : open == '[' ? ']' : '}';
                if (ch != expected)
                    throw syntaxError(std::string("closing parenthesis '") + ch +
                                          "' does not match opening parenthesis '" + open + "'",
                                      line, col);
                brackets_.pop_back();
            }
            emitSimple(op.kind, line, col, line_, col_);
            return;
        }
        char c = peek();
        if (c == '!') throw syntaxError("invalid syntax", line, col);
        if (c == '$' || c == '?' || c == '`')
            throw syntaxError("invalid character " + describeChar(c), line, col);
        if (static_cast<unsigned char>(c) >= 0x80)
            throw syntaxError("invalid character " + describeChar(c) +
                                  " (non-ASCII characters are allowed only in strings and comments)",
                              line, col);
        throw syntaxError("invalid non-printable character " + describeChar(c), line, col);
    }

    std::string_view src_;
    const std::string& file_;
    size_t pos_ = 0;
    int line_, col_;
    bool insideBrackets_;
    std::vector<Open> brackets_;
    std::vector<int> indents_{0};
    std::vector<int> altIndents_{0};
    std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> tokenize(std::string_view source, const std::string& fileName,
                            const LexerOptions& options) {
    if (options.startLine == 1 && options.startColumn == 1 && !options.insideBrackets) requireUtf8(source, fileName);
    return Lexer(source, fileName, options).run();
}

std::string decodeStringEscapes(std::string_view body, const SourceLocation& where, bool isBytes) {
    std::string out;
    out.reserve(body.size());
    for (size_t i = 0; i < body.size(); ++i) {
        char c = body[i];
        if (c == '\r') {  // normalise line ends inside literals, as Python does
            out += '\n';
            if (i + 1 < body.size() && body[i + 1] == '\n') ++i;
            continue;
        }
        if (c != '\\' || i + 1 >= body.size()) {
            out += c;
            continue;
        }
        char e = body[++i];
        if (isBytes && (e == 'u' || e == 'U' || e == 'N')) e = '?';  // kept verbatim, as unknown escapes
        switch (e) {
            case '\n': break;
            case '\r':
                if (i + 1 < body.size() && body[i + 1] == '\n') ++i;
                break;
            case '\\': out += '\\'; break;
            case '\'': out += '\''; break;
            case '"': out += '"'; break;
            case 'a': out += '\a'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'v': out += '\v'; break;
            case 'x':
            case 'u':
            case 'U': {
                size_t n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
                uint32_t cp = 0;
                for (size_t k = 0; k < n; ++k) {
                    if (i + 1 >= body.size() || !isHexDigit(body[i + 1]))
                        throw ScriptError("SyntaxError", std::string("truncated \\") + e + " escape in string literal", where);
                    cp = cp * 16 + static_cast<uint32_t>(hexValue(body[++i]));
                }
                if (cp > 0x10FFFF)
                    throw ScriptError("SyntaxError", "illegal Unicode character in string literal", where);
                if (isBytes) out += static_cast<char>(cp);
                else appendUtf8(out, cp);
                break;
            }
            case 'N':
                throw ScriptError("SyntaxError", "\\N{...} escapes are not supported by Fusescope scripts", where);
            default:
                if (e >= '0' && e <= '7') {
                    uint32_t cp = static_cast<uint32_t>(e - '0');
                    for (int k = 0; k < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7'; ++k)
                        cp = cp * 8 + static_cast<uint32_t>(body[++i] - '0');
                    if (isBytes) out += static_cast<char>(cp & 0xFF);
                    else appendUtf8(out, cp);
                } else {
                    out += '\\';  // unknown escapes are kept verbatim
                    out += body[i];
                }
        }
    }
    return out;
}

}  // namespace fusescope
