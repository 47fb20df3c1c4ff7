// The attributes of the object model's own objects: functions, bound methods, properties,
// builtin type objects, classmethod and staticmethod.
#include "script/interpreter.h"
#include "script/types/method_table.h"

namespace fusescope {

namespace {

// A bound method's __name__ and __qualname__ are its function's.
template <bool kQualified>
Value boundMethodName(Interpreter& in, const Value& self) {
    const auto* fn = self.as<BoundMethodObject>()->function.as<FunctionObject>();
    if (!fn) in.fail("AttributeError", std::string("'method' object has no attribute '") + (kQualified ? "__qualname__'" : "__name__'"));
    return Value(kQualified ? fn->qualname : fn->name);
}

const PropertyObject& propertyOf(const Value& self) { return *self.as<PropertyObject>(); }

// property.getter(f) / setter(f) / deleter(f): a copy of the property with that function.
template <Value PropertyObject::*kFunction>
Value withFunction(Interpreter&, const Value& self, CallArgs& a) {
    auto replaced = std::make_shared<PropertyObject>(propertyOf(self));
    (*replaced).*kFunction = a.args[0];
    return Value(ObjectPtr(replaced));
}

Value wrappedFunction(Interpreter&, const Value& self) {
    if (auto* cm = self.as<ClassMethodObject>()) return cm->function;
    return self.as<StaticMethodObject>()->function;
}

}  // namespace

const GetterTable& boundMethodGetters() {
    static const GetterTable table({
        {"__self__", [](Interpreter&, const Value& self) { return self.as<BoundMethodObject>()->self; }},
        {"__func__", [](Interpreter&, const Value& self) { return self.as<BoundMethodObject>()->function; }},
        {"__name__", boundMethodName<false>},
        {"__qualname__", boundMethodName<true>},
    });
    return table;
}

const GetterTable& propertyGetters() {
    static const GetterTable table({
        {"fget", [](Interpreter&, const Value& self) { return propertyOf(self).getter; }},
        {"fset", [](Interpreter&, const Value& self) { return propertyOf(self).setter; }},
        {"fdel", [](Interpreter&, const Value& self) { return propertyOf(self).deleter; }},
    });
    return table;
}

const MethodTable& propertyMethods() {
    static const MethodTable table("property", {
        {"getter", withFunction<&PropertyObject::getter>, 1, 1},
        {"setter", withFunction<&PropertyObject::setter>, 1, 1},
        {"deleter", withFunction<&PropertyObject::deleter>, 1, 1},
    });
    return table;
}

const GetterTable& builtinTypeGetters() {
    static const GetterTable table({
        {"__name__", [](Interpreter&, const Value& self) { return Value(self.as<TypeObject>()->name); }},
        {"__qualname__", [](Interpreter&, const Value& self) { return Value(self.as<TypeObject>()->name); }},
    });
    return table;
}

const GetterTable& functionGetters() {
    static const GetterTable table({
        {"__name__", [](Interpreter&, const Value& self) { return Value(self.as<FunctionObject>()->name); }},
        {"__qualname__", [](Interpreter&, const Value& self) { return Value(self.as<FunctionObject>()->qualname); }},
        {"__module__", [](Interpreter&, const Value&) { return Value("__main__"); }},
    });
    return table;
}

const GetterTable& wrappedFunctionGetters() {
    static const GetterTable table({{"__func__", wrappedFunction}});
    return table;
}

}  // namespace fusescope
