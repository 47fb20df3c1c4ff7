#include "ops/ivalue.h"

#include "core/error.h"

namespace fusescope {

IValue IValue::intList(const std::vector<int64_t>& ints) {
    IValueList items;
    items.reserve(ints.size());
    for (int64_t i : ints) items.emplace_back(i);
    return list(std::move(items));
}

int64_t IValue::toInt() const {
    if (isBool()) return toBool() ? 1 : 0;
    if (const SymbolicInt* i = symbolic()) return i->specialized();
    if (isInt()) return std::get<int64_t>(v);
    throw ScriptError("TypeError", "expected an int");
}

double IValue::toDouble() const {
    if (isBool()) return toBool() ? 1.0 : 0.0;
    if (isInt()) return static_cast<double>(toInt());
    if (const SymbolicFloat* d = symbolicFloat()) return d->specialized();
    if (isDouble()) return std::get<double>(v);
    throw ScriptError("TypeError", "expected a number");
}

std::vector<int64_t> IValue::toIntList() const {
    if (isInt() || isBool()) return {toInt()};
    if (!isSequence()) throw ScriptError("TypeError", "expected a sequence of ints");
    std::vector<int64_t> out;
    out.reserve(toSequence()->items.size());
    for (const IValue& item : toSequence()->items) {
        if (!item.isInt() && !item.isBool()) throw ScriptError("TypeError", "expected a sequence of ints");
        out.push_back(item.toInt());
    }
    return out;
}

}  // namespace fusescope
