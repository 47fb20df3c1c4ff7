#include "script/types/type_slots.h"

#include <fmt/format.h>

#include "script/interpreter.h"

namespace fusescope {

namespace {

const TypeSlots& strType() {
    static const TypeSlots type{"str", nullptr, &strMethods()};
    return type;
}
const TypeSlots& floatType() {
    static const TypeSlots type{"float", nullptr, &floatMethods()};
    return type;
}
const TypeSlots& dtypeType() {
    static const TypeSlots type{"dtype", &dtypeGetters(), nullptr};
    return type;
}
const TypeSlots& deviceType() {
    static const TypeSlots type{"device", &deviceGetters(), nullptr};
    return type;
}

}  // namespace

// A plain object's: nothing but the AttributeError naming its type.
const TypeSlots* Object::slots() const {
    static const TypeSlots type{.name = "object"};
    return &type;
}

Value TypeSlots::attribute(Interpreter& in, const Value& self, std::string_view name) const {
    if (getters)
        if (auto v = getters->read(in, self, name)) return *v;
    if (methods)
        if (auto method = methods->bind(self, name)) return *method;
    if (getattr) return getattr(in, self, name);
    in.fail("AttributeError", fmt::format("'{}' object has no attribute '{}'", pythonTypeName(self), name));
}

const TypeSlots* slotsOf(const Value& value) {
    if (value.isObject()) return value.asObject()->slots();
    if (value.isTensor()) return &tensorType();
    if (value.isString()) return &strType();
    if (value.isFloat()) return &floatType();
    if (value.isDType()) return &dtypeType();
    if (value.isDevice()) return &deviceType();
    return nullptr;
}

bool isIterator(const Value& value) {
    const TypeSlots* slots = value.isObject() ? value.asObject()->slots() : nullptr;
    return slots && slots->next;
}

// The container types' slots, where their objects are declared (script/value.h, set_object.h).
const TypeSlots* ListObject::slots() const {
    static const TypeSlots type{.name = "list", .methods = &listMethods(), .methodsStore = true};
    return &type;
}
const TypeSlots* TupleObject::slots() const {
    static const TypeSlots type{"tuple", nullptr, &tupleMethods()};
    return &type;
}
const TypeSlots* DictObject::slots() const {
    static const TypeSlots type{.name = "dict", .methods = &dictMethods(), .methodsStore = true};
    return &type;
}
const TypeSlots* SetObject::slots() const {
    static const TypeSlots type{.name = "set", .methods = &setMethods(), .methodsStore = true};
    return &type;
}
const TypeSlots* SliceObject::slots() const {
    static const GetterTable getters({
        {"start", [](Interpreter&, const Value& self) { return self.as<SliceObject>()->start; }},
        {"stop", [](Interpreter&, const Value& self) { return self.as<SliceObject>()->stop; }},
        {"step", [](Interpreter&, const Value& self) { return self.as<SliceObject>()->step; }},
    });
    static const TypeSlots type{"slice", &getters};
    return &type;
}
const TypeSlots* RangeObject::slots() const {
    static const GetterTable getters({
        {"start", [](Interpreter&, const Value& self) { return Value(self.as<RangeObject>()->start); }},
        {"stop", [](Interpreter&, const Value& self) { return Value(self.as<RangeObject>()->stop); }},
        {"step", [](Interpreter&, const Value& self) { return Value(self.as<RangeObject>()->step); }},
    });
    static const TypeSlots type{"range", &getters};
    return &type;
}
// iter() of a container: a snapshot of its items, taken one at a time.
const TypeSlots* IteratorObject::slots() const {
    static const TypeSlots type{.name = "iterator", .next = [](Interpreter&, const Value& self) -> std::optional<Value> {
        auto& it = *self.as<IteratorObject>();
        if (it.next >= it.items.size()) return std::nullopt;
        return it.items[it.next++];
    }};
    return &type;
}

}  // namespace fusescope
