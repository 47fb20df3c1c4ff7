#pragma once
// Where Dynamo resumes a compiled frame after a graph break in the frame's own code. Dynamo
// runs the breaking instruction eagerly, then calls a resume function
// (torch_dynamo_resume_in_f_at_N: a code object, so a frame with its own cache and guards)
// with the values left on the stack (___stack0, ...) and the locals the rest of the code
// reads (resume_execution.py, livevars_analysis). This finds those locals on the AST.

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "script/ast.h"

namespace fusescope {

// The names the code after `at` (a call or subscript whose value the code goes on with, or an
// if's test followed into `branch`) may read before it assigns them; nullopt where Dynamo
// does not resume (a break in a loop, a with or try block, or an expression it cannot stop at).
std::optional<std::set<std::string>> liveAfter(const FunctionDef& def, const Expr& at, std::optional<bool> branch);

// The function's locals in the order its frame first binds them: the parameters (as
// co_varnames), then each name where the body first assigns it.
std::vector<std::string> localsInBindingOrder(const FunctionDef& def);

}  // namespace fusescope
