// Attribute reads: every value's through its type's slots (script/types/type_slots.h), and
// the OptimizedModule's, which answers for the model it wraps.
#include <optional>

#include <fmt/format.h>

#include "script/interpreter.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

// An OptimizedModule is a module whose one child is the model, `_orig_mod`, so the names it
// lists start with that child's (the familiar "_orig_mod." of a compiled model's
// checkpoint); every other attribute is the model's own.
std::optional<Value> optimizedModuleNames(Interpreter& interp, const Value& model, std::string_view name) {
    bool stateDict = name == "state_dict";
    if (!stateDict && name != "named_parameters" && name != "named_buffers") return std::nullopt;
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

Value compiledAttribute(Interpreter& in, const Value& self, std::string_view name) {
    const auto& compiled = *self.as<CompiledFunctionObject>();
    if (!compiled.isModule) in.fail("AttributeError", fmt::format("'function' object has no attribute '{}'", name));
    if (name == "_orig_mod") return compiled.boundSelf;
    if (auto names = optimizedModuleNames(in, compiled.boundSelf, name)) return *names;
    // Its errors take the read's location where the read is (getAttribute).
    return slotsOf(compiled.boundSelf)->attribute(in, compiled.boundSelf, name);
}

// An OptimizedModule prints as PyTorch's does: the module it wraps, as its _orig_mod.
std::string compiledFunctionRepr(const Value& self) {
    const auto& compiled = *self.as<CompiledFunctionObject>();
    if (!compiled.isModule) return "<function object>";
    std::string inner = valueRepr(compiled.boundSelf);
    for (size_t at = inner.find('\n'); at != std::string::npos; at = inner.find('\n', at + 3)) inner.insert(at + 1, "  ");
    return "OptimizedModule(\n  (_orig_mod): " + inner + "\n)";
}

}  // namespace

const TypeSlots* CompiledFunctionObject::slots() const {
    static const TypeSlots type{.name = "function",
                                .getattr = compiledAttribute,
                                .setattr = [](Interpreter& in, const Value& self, const std::string& name, const Value& value) {
                                    const auto& compiled = *self.as<CompiledFunctionObject>();
                                    if (!compiled.isModule) in.fail("AttributeError", "'function' object attribute '" + name + "' is read-only");
                                    in.setAttribute(compiled.boundSelf, name, value);
                                },
                                .call = [](Interpreter& in, const Value& self, CallArgs& args) {
                                    return in.callCompiledFunction(*self.as<CompiledFunctionObject>(), args);
                                },
                                .repr = compiledFunctionRepr};
    return &type;
}

Value Interpreter::getAttribute(const Value& object, const std::string& name, const SourceLocation& where) {
    try {
        const TypeSlots* type = touchedSlots(object);
        if (!type) fail("AttributeError", "'" + pythonTypeName(object) + "' object has no attribute '" + name + "'");
        if (type->methodsStore) noteStoredInto(object.asObject());
        return type->attribute(*this, object, name);
    } catch (Error& e) {
        e.setWhereIfUnknown(where);
        throw;
    }
}

}  // namespace fusescope
