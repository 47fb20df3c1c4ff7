// Attribute reads: every value's through its type's slots (script/types/type_slots.h), and
// the OptimizedModule's, which answers for the model it wraps.
#include "script/interpreter.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

const CompiledFunctionObject& compiledOf(const Value& self) { return *self.as<CompiledFunctionObject>(); }

// An OptimizedModule is a module whose one child is the model, `_orig_mod`, so the names it
// lists start with that child's (the familiar "_orig_mod." of a compiled model's
// checkpoint); every other attribute is the model's own.
Value prefixedNames(Interpreter& interp, const Value& self, std::string_view name) {
    const Value& model = compiledOf(self).module;
    const bool stateDict = name == "state_dict";
    Value method = slotsOf(model)->attribute(interp, model, name);
    return makeBuiltin(std::string(name), [method, stateDict](Interpreter& in, CallArgs& a) {
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

const GetterTable& optimizedModuleGetters() {
    static const GetterTable table({
        {"_orig_mod", [](Interpreter&, const Value& self) { return compiledOf(self).module; }},
        {"state_dict", [](Interpreter& in, const Value& self) { return prefixedNames(in, self, "state_dict"); }},
        {"named_parameters", [](Interpreter& in, const Value& self) { return prefixedNames(in, self, "named_parameters"); }},
        {"named_buffers", [](Interpreter& in, const Value& self) { return prefixedNames(in, self, "named_buffers"); }},
    });
    return table;
}

Value callCompiled(Interpreter& in, const Value& self, CallArgs& args) { return in.callCompiledFunction(*self.as<CompiledFunctionObject>(), args); }

}  // namespace

// torch.compile(fn): a function that has no attributes of its own.
// torch.compile(module): an OptimizedModule, answering for the module it wraps.
const TypeSlots* CompiledFunctionObject::slots() const {
    static const TypeSlots function{.name = "function", .call = callCompiled, .repr = [](const Value&) { return std::string("<function object>"); }};
    static const TypeSlots module{
        .name = "OptimizedModule",
        .getters = &optimizedModuleGetters(),
        // Its errors take the read's location where the read is (getAttribute).
        .getattr = [](Interpreter& in, const Value& self, std::string_view name) {
            const Value& model = compiledOf(self).module;
            return slotsOf(model)->attribute(in, model, name);
        },
        .setattr = [](Interpreter& in, const Value& self, const std::string& name, const Value& value) {
            in.setAttribute(compiledOf(self).module, name, value);
        },
        .call = callCompiled,
        // Printed as PyTorch's: the module it wraps, as its _orig_mod.
        .repr = [](const Value& self) {
            std::string inner = valueRepr(compiledOf(self).module);
            for (size_t at = inner.find('\n'); at != std::string::npos; at = inner.find('\n', at + 3)) inner.insert(at + 1, "  ");
            return "OptimizedModule(\n  (_orig_mod): " + inner + "\n)";
        }};
    return isModule ? &module : &function;
}

Value Interpreter::getAttribute(const Value& object, const std::string& name, const SourceLocation& where) {
    try {
        const TypeSlots* type = touchedSlots(object);
        if (!type) fail("AttributeError", "'" + pythonTypeName(object) + "' object has no attribute '" + name + "'");
        if (type->methodsStore) noteStoredInto(object.asObject());
        if (tracer_ && object.source && object.as<ListObject>() && tracesRunningLine()) tracer_->onListMethod(object, name);
        Value result = type->attribute(*this, object, name);
        // A module reached through a global is guarded, and so is what the code calls of it
        // (torch.cat): the callable keeps where it was read from.
        if (tracer_ && object.source && object.as<ModuleObject>()) {
            tracer_->onModuleUse(object);
            if (result.as<ModuleObject>()) {  // one module reached two ways is named the first way
                Value sourced = withSource(result, attrSource(object.source, name));
                if (SourcePtr first = tracer_->firstSourceOf(sourced)) sourced.source = std::move(first);
                return sourced;
            }
            if (result.as<BuiltinFunction>() || result.as<FunctionObject>() || result.as<ClassObject>() || result.as<TypeObject>())
                return withSource(result, attrSource(object.source, name));
            if (result.isDType()) {  // torch.long: guarded as a constant (EQUALS_MATCH), as Dynamo does
                Value sourced = result;
                sourced.source = attrSource(object.source, name);
                tracer_->onInputUse(sourced);
                return result;
            }
        }
        // A class's constant (type(G['net']).__name__) keeps where it was read, guarded where it is used
        if (tracer_ && object.source && object.as<ClassObject>() && (result.isNumber() || result.isString() || result.isNone()))
            return withSource(result, attrSource(object.source, name));
        return result;
    } catch (Error& e) {
        e.setWhereIfUnknown(where);
        throw;
    }
}

}  // namespace fusescope
