#pragma once
// PEP 604 unions of classes: the `|` of builtin types, classes, None and unions.

#include <optional>

#include "script/ast.h"
#include "script/value.h"

namespace fusescope {

class Interpreter;

// left | right when both are classes, builtin types, None or unions; else nullopt.
std::optional<Value> typeUnion(Interpreter& in, BinaryOperator op, const Value& left, const Value& right);

}  // namespace fusescope
