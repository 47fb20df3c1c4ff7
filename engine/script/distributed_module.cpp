// torch.distributed as Fusescope, one process without process groups, has it: is_available()
// is False, as PyTorch built without distributed says, and nothing can initialize it.
// torch.distributed.tensor.DTensor is a type no value has yet: importing torch._dynamo puts it in
// the optimizers' foreach types (Interpreter::importDynamo), and a compiled step guards on them.
#include "script/interpreter.h"

namespace fusescope {

Value makeDistributedModule() {
    auto tensor = std::make_shared<ModuleObject>();
    tensor->name = "torch.distributed.tensor";
    tensor->attrs["DTensor"] = makeType(
        "DTensor",
        [](Interpreter& in, CallArgs&) -> Value {
            in.fail("NotImplementedError", "a DTensor needs a device mesh of processes (torch.distributed), which Fusescope does not run");
        },
        "torch.distributed.tensor");
    auto distributed = std::make_shared<ModuleObject>();
    distributed->name = "torch.distributed";
    auto answersFalse = [](const char* name) { return makeBuiltin(name, [](Interpreter&, CallArgs&) { return Value(false); }); };
    distributed->attrs["is_available"] = answersFalse("torch.distributed.is_available");
    distributed->attrs["is_initialized"] = answersFalse("torch.distributed.is_initialized");
    distributed->attrs["tensor"] = Value(ObjectPtr(tensor));
    return Value(ObjectPtr(distributed));
}

}  // namespace fusescope
