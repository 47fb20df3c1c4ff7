#pragma once
// Where a compiled function was first called from, kept for the doctor's one-click fix of a
// size recompile: `torch._dynamo.mark_dynamic(x, 0)` right before that call's statement, x
// being the variable the call passed for the parameter whose size changed. A call that
// passed no plain variable for it gets no edit (the advice stays words).

#include <map>
#include <string>

#include "core/error.h"
#include "observe/event.h"

namespace fusescope {

class Interpreter;
struct FunctionObject;

struct FirstCall {
    SourceLocation statement;  // the statement that made the call, in the user's script
    std::string indent;        // its line's leading white space
    std::map<std::string, std::string> variables;  // parameter (args[0]: an item of *args) -> the variable passed for it
};

// The call being made now, of `fn` (`boundSelf`: called on a module or object, so the
// call's first argument is the parameter after self).
FirstCall firstCallOf(const Interpreter& interp, const FunctionObject& fn, bool boundSelf);

// The edit that marks the changed dim of a "tensor 'x' size mismatch at index 0" failure
// dynamic before the first call; empty (no text) when the reason is of another kind or the
// first call passed no variable for x.
SourceInsert markDynamicEdit(const FirstCall& call, const std::string& reason);

}  // namespace fusescope
