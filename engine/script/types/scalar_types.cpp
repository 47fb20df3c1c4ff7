// The attributes of torch.dtype and torch.device.
#include "script/interpreter.h"
#include "script/types/method_table.h"

namespace fusescope {

const GetterTable& dtypeGetters() {
    static const GetterTable table({
        {"is_floating_point", [](Interpreter&, const Value& self) { return Value(isFloating(self.asDType())); }},
        {"is_complex", [](Interpreter&, const Value& self) { return Value(isComplex(self.asDType())); }},
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
