// Builtin functions, and objects that are namespaces of named values: modules (torch, ...),
// records (explain()'s output, ...) and the engine's context managers; their attributes are
// their own maps.
#include <fmt/format.h>

#include "script/interpreter.h"
#include "script/torch_names.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

Value moduleAttribute(Interpreter& in, const Value& self, std::string_view name) {
    const auto& module = *self.as<ModuleObject>();
    if (const Value* found = module.find(name)) return *found;
    std::vector<std::string_view> ours;
    for (const auto& [attr, value] : module.attrs)
        if (!attr.starts_with("_")) ours.push_back(attr);
    if (module.globals)
        for (const auto& [attr, value] : module.globals->vars)
            if (!attr.starts_with("_")) ours.push_back(attr);
    in.fail("AttributeError", fmt::format("module '{}' has no attribute '{}'{}", module.name, name, missingAttributeNote(module.name, name, ours)));
}

// The attribute `name` of `attrs`: a stored method bound to self, as Python binds one.
std::optional<Value> namedAttribute(const std::map<std::string, Value, std::less<>>& attrs, const Value& self, std::string_view name) {
    auto it = attrs.find(name);
    if (it == attrs.end()) return std::nullopt;
    auto* method = it->second.as<MethodObject>();
    if (!method) return it->second;
    return makeBuiltin(method->name, [self = self.asObject(), call = method->call](Interpreter& in, CallArgs& a) { return call(in, a, self); });
}

[[noreturn]] void noAttribute(Interpreter& in, const Value& self, std::string_view name) {
    in.fail("AttributeError", fmt::format("'{}' object has no attribute '{}'", pythonTypeName(self), name));
}

Value contextManagerAttribute(Interpreter& in, const Value& self, std::string_view name) {
    if (auto v = namedAttribute(self.as<ContextManagerObject>()->attrs, self, name)) return *v;
    noAttribute(in, self, name);
}

}  // namespace

Value recordAttribute(Interpreter& in, const Value& self, std::string_view name) {
    if (auto v = namedAttribute(self.as<RecordObject>()->attrs, self, name)) return *v;
    noAttribute(in, self, name);
}

// A builtin (len, torch.add, a bound native method): its C++ function.
const TypeSlots* BuiltinFunction::slots() const {
    static const TypeSlots type{.name = "builtin_function_or_method",
                                .call = [](Interpreter& in, const Value& self, CallArgs& args) { return self.as<BuiltinFunction>()->call(in, args); },
                                .repr = [](const Value& self) { return "<built-in function " + self.as<BuiltinFunction>()->name + ">"; }};
    return &type;
}

const Value* ModuleObject::find(std::string_view attr) const {
    if (globals) {
        auto it = globals->vars.find(std::string(attr));
        return it == globals->vars.end() ? nullptr : &it->second;
    }
    if (auto alias = aliases.find(attr); alias != aliases.end()) attr = alias->second;
    auto it = attrs.find(attr);
    return it == attrs.end() ? nullptr : &it->second;
}

const TypeSlots* ModuleObject::slots() const {
    static const TypeSlots type{.name = "module",
                                .getattr = moduleAttribute,
                                .setattr = [](Interpreter&, const Value& self, const std::string& name, const Value& value) {
                                    auto& module = *self.as<ModuleObject>();
                                    auto alias = module.aliases.find(name);
                                    const std::string& to = alias != module.aliases.end() ? alias->second : name;
                                    (module.globals ? module.globals->vars[to] : module.attrs[to]) = value.unsourced();
                                    definitionsChanged();
                                },
                                .repr = [](const Value& self) { return "<module '" + self.as<ModuleObject>()->name + "'>"; }};
    return &type;
}
std::string recordRepr(const Value& self) { return self.as<RecordObject>()->text; }

const TypeSlots* RecordObject::slots() const {
    static const TypeSlots type{.name = "record", .getattr = recordAttribute, .repr = recordRepr};
    return &type;
}
const TypeSlots* ContextManagerObject::slots() const {
    static const TypeSlots type{.name = "context manager", .getattr = contextManagerAttribute, .call = [](Interpreter& in, const Value& self, CallArgs& args) {
                                    const auto& manager = *self.as<ContextManagerObject>();
                                    if (!manager.remake) in.fail("TypeError", "'" + manager.name + "' object is not callable");
                                    if (args.args.size() != 1 || !args.kwargs.empty())
                                        in.fail("TypeError", manager.name + ".__call__() takes the function to decorate");
                                    return in.decorateWithContext(manager, args.args[0]);
                                }};
    return &type;
}

}  // namespace fusescope
