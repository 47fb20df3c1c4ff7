// Attribute access on non-tensor values: modules, records, the object model's objects, and
// the builtin types' method tables (script/types/).
#include <map>
#include <optional>

#include <fmt/format.h>

#include "script/interpreter.h"
#include "script/types/method_table.h"
#include "script/types/type_slots.h"
#include "script/torch_names.h"

namespace fusescope {

namespace {

// The attributes of the object model's own objects: bound methods, properties, builtin types.
std::optional<Value> objectModelAttribute(Interpreter& in, const Value& object, const std::string& name) {
    if (object.as<BoundMethodObject>()) return boundMethodGetters().read(in, object, name);
    if (object.as<PropertyObject>()) {
        if (auto v = propertyGetters().read(in, object, name)) return v;
        return propertyMethods().bind(object, name);
    }
    if (object.as<TypeObject>()) return builtinTypeGetters().read(in, object, name);
    if (object.as<ClassMethodObject>() || object.as<StaticMethodObject>()) return wrappedFunctionGetters().read(in, object, name);
    return std::nullopt;
}

// An OptimizedModule is a module whose one child is the model, `_orig_mod`, so the names it
// lists start with that child's (the familiar "_orig_mod." of a compiled model's
// checkpoint); every other attribute is the model's own.
std::optional<Value> optimizedModuleNames(Interpreter& interp, const Value& model, const std::string& name, const SourceLocation& where) {
    bool stateDict = name == "state_dict";
    if (!stateDict && name != "named_parameters" && name != "named_buffers") return std::nullopt;
    Value method = interp.getAttribute(model, name, where);
    return makeBuiltin(name, [method, stateDict](Interpreter& in, CallArgs& a) {
        CallArgs call = a;
        std::string prefix;
        for (auto it = call.kwargs.begin(); it != call.kwargs.end(); ++it)
            if (it->first == "prefix") {
                prefix = valueStr(it->second);
                call.kwargs.erase(it);
                break;
            }
        // state_dict's prefix ends with its dot; named_*'s is joined with one.
        prefix = stateDict ? prefix + "_orig_mod." : (prefix.empty() ? "" : prefix + ".") + "_orig_mod";
        call.kwargs.emplace_back("prefix", Value(prefix));
        return in.call(method, call);
    });
}

}  // namespace

Value Interpreter::getAttribute(const Value& object, const std::string& name, const SourceLocation& where) {
    try {
        if (object.as<InstanceObject>()) return instanceAttribute(object, name);
        if (object.as<ClassObject>()) return classAttribute(object, name);
        if (auto* super = object.as<SuperObject>()) return superAttribute(*super, name);
        if (auto* compiled = object.as<CompiledFunctionObject>(); compiled && compiled->isModule) {  // OptimizedModule
            if (name == "_orig_mod") return compiled->boundSelf;
            if (auto names = optimizedModuleNames(*this, compiled->boundSelf, name, where)) return *names;
            return getAttribute(compiled->boundSelf, name, where);
        }
        if (auto v = objectModelAttribute(*this, object, name)) return *v;
        // A list's, dict's or set's method reads or changes it.
        if (object.as<SetObject>() || object.as<ListObject>() || object.as<DictObject>()) {
            if (tracer_) tracer_->onObjectTouch(object);
            noteStoredInto(object.asObject());
        }
        if (const TypeSlots* type = slotsOf(object)) return type->attribute(*this, object, name);
        if (auto* m = object.as<ModuleObject>()) {
            auto it = m->attrs.find(name);
            if (it != m->attrs.end()) return it->second;
            std::vector<std::string_view> ours;
            for (const auto& [attr, value] : m->attrs)
                if (!attr.starts_with("_")) ours.push_back(attr);
            fail("AttributeError", "module '" + m->name + "' has no attribute '" + name + "'" + missingAttributeNote(m->name, name, ours));
        }
        auto boundAttribute = [&](const auto& attrs) -> std::optional<Value> {
            auto it = attrs.find(name);
            if (it == attrs.end()) return std::nullopt;
            auto* method = it->second.template as<MethodObject>();
            if (!method) return it->second;
            return makeBuiltin(method->name, [self = object.asObject(), call = method->call](Interpreter& in, CallArgs& a) {
                return call(in, a, self);
            });
        };
        if (auto v = gradFnAttribute(object, name)) return *v;
        if (auto* r = object.as<RecordObject>())
            if (auto v = boundAttribute(r->attrs)) return *v;
        if (auto* c = object.as<ContextManagerObject>())
            if (auto v = boundAttribute(c->attrs)) return *v;
        if (auto* fn = object.as<FunctionObject>()) {
            if (fn->attributes)
                if (Value* v = fn->attributes->findString(name)) return *v;
            if (auto v = functionGetters().read(*this, object, name)) return *v;
        }
        fail("AttributeError", "'" + pythonTypeName(object) + "' object has no attribute '" + name + "'");
    } catch (Error& e) {
        e.setWhereIfUnknown(where);
        throw;
    }
}

}  // namespace fusescope
