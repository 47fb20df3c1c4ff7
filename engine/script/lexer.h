#pragma once
// Lexer for the Fusescope script subset: Python 3 tokens, including INDENT/DEDENT,
// implicit line joining inside brackets and backslash continuations.

#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "script/token.h"

namespace fusescope {

struct LexerOptions {
    // Where the text starts in its file (f-string fields are lexed in place).
    int startLine = 1;
    int startColumn = 1;
    // Lex as if inside brackets: no NEWLINE/INDENT/DEDENT (f-string fields).
    bool insideBrackets = false;
};

// Splits source into tokens, ending with NEWLINE (when the last line has tokens), the
// DEDENTs that close open blocks, and EndOfFile. Throws ScriptError (SyntaxError,
// IndentationError or TabError) with the location of the problem.
std::vector<Token> tokenize(std::string_view source, const std::string& fileName,
                            const LexerOptions& options = {});

// Decodes the backslash escapes of a (non-raw) string body: \n \t \\ \' \" \xHH \ooo
// \uXXXX \UXXXXXXXX, backslash-newline; unknown escapes stay as written (as in Python).
// `where` is reported for malformed escapes. In a bytes literal (isBytes) \xHH and \ooo are
// bytes, and \u, \U and \N no escapes.
std::string decodeStringEscapes(std::string_view body, const SourceLocation& where, bool isBytes = false);

}  // namespace fusescope
