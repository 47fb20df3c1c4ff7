#include "script/types/method_table.h"

#include <algorithm>

#include <fmt/format.h>

#include "script/interpreter.h"
#include "script/types/numbers.h"

namespace fusescope {

namespace {

template <class Row>
const Row* rowNamed(const std::vector<Row>& rows, std::string_view name) {
    auto it = std::find_if(rows.begin(), rows.end(), [&](const Row& row) { return row.name == name; });
    return it == rows.end() ? nullptr : &*it;
}

}  // namespace

MethodTable::MethodTable(std::string typeName, std::initializer_list<NativeMethod> methods)
    : typeName_(std::move(typeName)), methods_(methods) {}

const NativeMethod* MethodTable::find(std::string_view name) const { return rowNamed(methods_, name); }

const NativeGetter* GetterTable::find(std::string_view name) const { return rowNamed(getters_, name); }

std::optional<Value> GetterTable::read(Interpreter& in, const Value& self, std::string_view name) const {
    const NativeGetter* getter = find(name);
    return getter ? std::optional<Value>(getter->get(in, self)) : std::nullopt;
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

void expectKeywords(Interpreter& in, const CallArgs& args, std::string_view name, std::initializer_list<std::string_view> known) {
    for (const auto& [keyword, value] : args.kwargs)
        if (std::find(known.begin(), known.end(), keyword) == known.end())
            in.fail("TypeError", fmt::format("{}() got an unexpected keyword argument '{}'", name, keyword));
}

Value argumentOr(const CallArgs& args, size_t position, const char* name, Value fallback) {
    if (const Value* v = args.kwarg(name)) return *v;
    return position < args.args.size() ? args.args[position] : fallback;
}

int64_t intArgumentOr(Interpreter& in, const CallArgs& args, size_t position, const char* name, int64_t fallback) {
    const Value v = argumentOr(args, position, name, Value(fallback));
    if (!isIntLike(v)) in.fail("TypeError", "'" + pythonTypeName(v) + "' object cannot be interpreted as an integer");
    return intOf(v);
}

}  // namespace fusescope
