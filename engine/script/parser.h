#pragma once
// Parser for the Fusescope script subset: Python 3 statements and expressions, into the AST
// of script/ast.h. Unsupported Python syntax (class, try, yield, async, ...) is rejected
// with a SyntaxError naming the construct, at its line and column.

#include <memory>
#include <string>
#include <string_view>

#include "script/ast.h"

namespace fusescope {

// Deepest nesting of expressions/blocks the parser accepts (deeper: "expression nested too
// deeply"), so no input recurses without bound here or in later tree walks.
inline constexpr int kMaxParseDepth = 200;

// Parses a whole script. Throws ScriptError (SyntaxError / IndentationError / TabError)
// whose where() names fileName, line and column.
std::unique_ptr<Module> parseScript(std::string_view source, const std::string& fileName);

// Parses a single expression (e.g. for tests or a REPL); trailing tokens are an error.
ExprPtr parseExpression(std::string_view source, const std::string& fileName);

}  // namespace fusescope
