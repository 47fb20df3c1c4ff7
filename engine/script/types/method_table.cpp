#include "script/types/method_table.h"

#include <algorithm>

#include <fmt/format.h>

#include "script/interpreter.h"

namespace fusescope {

MethodTable::MethodTable(std::string typeName, std::initializer_list<NativeMethod> methods)
    : typeName_(std::move(typeName)), methods_(methods) {}

const NativeMethod* MethodTable::find(std::string_view name) const {
    auto it = std::find_if(methods_.begin(), methods_.end(), [&](const NativeMethod& m) { return m.name == name; });
    return it == methods_.end() ? nullptr : &*it;
}

std::optional<Value> MethodTable::bind(const Value& self, std::string_view name) const {
    const NativeMethod* method = find(name);
    if (!method) return std::nullopt;
    return makeBuiltin(typeName_ + "." + std::string(name), [self, method](Interpreter& in, CallArgs& args) {
        expectArgs(in, args, method->minArgs, method->maxArgs, method->name);
        return method->call(in, self, args);
    });
}

Value MethodTable::attribute(Interpreter& in, const Value& self, std::string_view name) const {
    if (auto method = bind(self, name)) return *method;
    in.fail("AttributeError", fmt::format("'{}' object has no attribute '{}'", typeName_, name));
}

void expectArgs(Interpreter& in, const CallArgs& args, size_t lo, size_t hi, std::string_view name) {
    if (args.args.size() >= lo && args.args.size() <= hi) return;
    std::string expected = lo == hi ? std::to_string(lo) : fmt::format("{} to {}", lo, hi);
    in.fail("TypeError", fmt::format("{}() takes {} argument(s) ({} given)", name, expected, args.args.size()));
}

}  // namespace fusescope
