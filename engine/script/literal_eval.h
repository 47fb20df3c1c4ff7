// ast.literal_eval: a str holding one Python literal (numbers, strings, True/False/None,
// tuples, lists, dicts, sets, set()) evaluated without running any code.
#pragma once

#include <string>

#include "script/interpreter.h"

namespace fusescope {

Value literalEval(Interpreter& in, const std::string& text);

}  // namespace fusescope
