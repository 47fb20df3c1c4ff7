#pragma once
// globals(): the running module's variables as a dict, read and written through.

#include "script/value.h"

namespace fusescope {

class Interpreter;
struct Scope;

struct GlobalsDictObject : Object {
    std::shared_ptr<Scope> scope;
    std::string typeName() const override { return "dict"; }
    const TypeSlots* slots() const override;
};

// In code Dynamo traces it breaks the graph: reads through it would not be guarded.
Value makeGlobalsDict(Interpreter& in);

}  // namespace fusescope
