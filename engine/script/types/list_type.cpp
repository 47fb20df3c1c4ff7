// The methods of list and tuple (CPython's Objects/listobject.c and tupleobject.c method
// tables), with CPython's messages, and the sequences' + and * (str's too).
#include <algorithm>

#include "script/interpreter.h"
#include "script/types/method_table.h"
#include "script/types/numbers.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

ValueList& itemsOf(const Value& list) { return list.as<ListObject>()->items; }

// index(x) / count(x) of a list or tuple.
template <bool kIndex>
Value search(Interpreter& in, const Value& self, CallArgs& a) {
    const ValueList& items = *sequenceItems(self);
    int64_t count = 0;
    for (size_t i = 0; i < items.size(); ++i) {
        if (!valuesEqual(items[i], a.args[0])) continue;
        if (kIndex) return Value(static_cast<int64_t>(i));
        ++count;
    }
    if (kIndex) in.fail("ValueError", self.as<ListObject>() ? valueRepr(a.args[0]) + " is not in list" : "tuple.index(x): x not in tuple");
    return Value(count);
}

Value append(Interpreter&, const Value& self, CallArgs& a) {
    itemsOf(self).push_back(a.args[0]);
    return Value();
}

Value extend(Interpreter& in, const Value& self, CallArgs& a) {
    for (const Value& v : in.iterate(a.args[0])) itemsOf(self).push_back(v);
    return Value();
}

Value insert(Interpreter&, const Value& self, CallArgs& a) {
    ValueList& items = itemsOf(self);
    int64_t n = static_cast<int64_t>(items.size());
    int64_t i = a.args[0].asInt();
    if (i < 0) i = std::max<int64_t>(0, i + n);
    i = std::min(i, n);
    items.insert(items.begin() + i, a.args[1]);
    return Value();
}

Value pop(Interpreter& in, const Value& self, CallArgs& a) {
    ValueList& items = itemsOf(self);
    if (items.empty()) in.fail("IndexError", "pop from empty list");
    int64_t n = static_cast<int64_t>(items.size());
    int64_t i = a.args.empty() ? n - 1 : a.args[0].asInt();
    if (i < 0) i += n;
    if (i < 0 || i >= n) in.fail("IndexError", "pop index out of range");
    Value v = items[i];
    items.erase(items.begin() + i);
    return v;
}

Value clear(Interpreter&, const Value& self, CallArgs&) {
    itemsOf(self).clear();
    return Value();
}

Value copy(Interpreter&, const Value& self, CallArgs&) { return makeList(itemsOf(self)); }

Value reverse(Interpreter&, const Value& self, CallArgs&) {
    std::reverse(itemsOf(self).begin(), itemsOf(self).end());
    return Value();
}

Value sort(Interpreter& in, const Value& self, CallArgs& a) {
    if (!a.args.empty()) in.fail("TypeError", "sort() takes no positional arguments");
    itemsOf(self) = sortedValues(in, itemsOf(self), a);
    return Value();
}

}  // namespace

const MethodTable& listMethods() {
    static const MethodTable table("list", {
        {"append", append, 1, 1},
        {"extend", extend, 1, 1},
        {"insert", insert, 2, 2},
        {"pop", pop, 0, 1},
        {"index", search<true>, 1, 1},
        {"count", search<false>, 1, 1},
        {"clear", clear, 0, kAnyArgs},
        {"copy", copy, 0, kAnyArgs},
        {"reverse", reverse, 0, kAnyArgs},
        {"sort", sort, 0, kAnyArgs},
    });
    return table;
}

const MethodTable& tupleMethods() {
    static const MethodTable table("tuple", {
        {"index", search<true>, 1, 1},
        {"count", search<false>, 1, 1},
    });
    return table;
}

Value concatSequences(Interpreter& in, const Value& self, const Value& other) {
    std::string type = pythonTypeName(self);
    if (pythonTypeName(other) != type)
        in.fail("TypeError", "can only concatenate " + type + " (not \"" + pythonTypeName(other) + "\") to " + type);
    if (self.isString()) return Value(self.asString() + other.asString());
    ValueList items = *sequenceItems(self);
    for (const Value& v : *sequenceItems(other)) items.push_back(v);
    return self.as<ListObject>() ? makeList(items) : makeTuple(items);
}

std::optional<Value> compareSequences(Interpreter& in, CompareOperator op, const Value& left, const Value& right) {
    const ValueList* a = sequenceItems(left);
    const ValueList* b = sequenceItems(right);
    if (!a || !b || pythonTypeName(left) != pythonTypeName(right)) return std::nullopt;
    if (op == CompareOperator::Eq || op == CompareOperator::NotEq) return Value(valuesEqual(left, right) == (op == CompareOperator::Eq));
    // The first items that differ decide, compared by the operator itself; else the lengths.
    for (size_t i = 0; i < std::min(a->size(), b->size()); ++i)
        if (!valuesEqual((*a)[i], (*b)[i])) return in.evalCompare(op, (*a)[i], (*b)[i], in.currentSite());
    return Value(orderedAs(op, a->size() < b->size() ? -1 : a->size() > b->size() ? 1 : 0));
}

Value repeatSequence(Interpreter& in, const Value& self, const Value& count) {
    if (!isIntLike(count)) in.fail("TypeError", "can't multiply sequence by non-int of type '" + pythonTypeName(count) + "'");
    int64_t n = intOf(count);
    int64_t length = self.isString() ? static_cast<int64_t>(self.asString().size()) : static_cast<int64_t>(sequenceItems(self)->size());
    if (n > 0 && length > 0 && n > 10'000'000 / length) in.fail("MemoryError", "sequence repetition too large to materialise");
    if (self.isString()) {
        std::string out;
        for (int64_t i = 0; i < n; ++i) out += self.asString();
        return Value(out);
    }
    ValueList items;
    for (int64_t i = 0; i < n; ++i)
        for (const Value& v : *sequenceItems(self)) items.push_back(v);
    return self.as<ListObject>() ? makeList(items) : makeTuple(items);
}

}  // namespace fusescope
