// The attributes of the small value types: float's methods, torch.dtype's and torch.device's
// attributes.
#include <cmath>

#include "script/interpreter.h"
#include "script/types/method_table.h"

namespace fusescope {

const MethodTable& floatMethods() {
    static const MethodTable table("float", {
        {"is_integer", [](Interpreter&, const Value& self, CallArgs&) {
             double d = self.asFloat();
             return Value(std::isfinite(d) && std::trunc(d) == d);
         }, 0, kAnyArgs},
    });
    return table;
}

const GetterTable& dtypeGetters() {
    static const GetterTable table({
        {"is_floating_point", [](Interpreter&, const Value& self) { return Value(isFloating(self.asDType())); }},
        {"itemsize", [](Interpreter&, const Value& self) { return Value(static_cast<int64_t>(dtypeSize(self.asDType()))); }},
    });
    return table;
}

const GetterTable& deviceGetters() {
    static const GetterTable table({
        {"type", [](Interpreter&, const Value& self) { return Value(Device{self.asDevice().kind, -1}.str()); }},
        {"index", [](Interpreter&, const Value& self) { return self.asDevice().index < 0 ? Value() : Value(int64_t{self.asDevice().index}); }},
    });
    return table;
}

}  // namespace fusescope
