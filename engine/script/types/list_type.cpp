// The methods of list and tuple (CPython's Objects/listobject.c and tupleobject.c method
// tables), with CPython's messages, and the sequences' + and * (str's too).
#include <algorithm>

#include <fmt/format.h>

#include "script/interpreter.h"
#include "script/types/method_table.h"
#include "script/types/indexing.h"
#include "script/types/numbers.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

ValueList& itemsOf(const Value& list) { return list.as<ListObject>()->items; }

// index(x) / count(x) of a list or tuple.
template <bool kIndex>
Value listSearch(Interpreter& in, const Value& self, CallArgs& a) {
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

// remove(x): the first item equal to x.
Value listRemove(Interpreter& in, const Value& self, CallArgs& a) {
    ValueList& items = itemsOf(self);
    for (size_t i = 0; i < items.size(); ++i) {
        if (!valuesEqual(items[i], a.args[0])) continue;
        items.erase(items.begin() + static_cast<std::ptrdiff_t>(i));
        return Value();
    }
    in.fail("ValueError", "list.remove(x): x not in list");
}

Value listAppend(Interpreter&, const Value& self, CallArgs& a) {
    itemsOf(self).push_back(a.args[0]);
    return Value();
}

Value listExtend(Interpreter& in, const Value& self, CallArgs& a) {
    for (const Value& v : in.iterate(a.args[0])) itemsOf(self).push_back(v);
    return Value();
}

Value listInsert(Interpreter&, const Value& self, CallArgs& a) {
    ValueList& items = itemsOf(self);
    int64_t n = static_cast<int64_t>(items.size());
    int64_t i = a.args[0].asInt();
    if (i < 0) i = std::max<int64_t>(0, i + n);
    i = std::min(i, n);
    items.insert(items.begin() + i, a.args[1]);
    return Value();
}

Value listPop(Interpreter& in, const Value& self, CallArgs& a) {
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

Value listClear(Interpreter&, const Value& self, CallArgs&) {
    itemsOf(self).clear();
    return Value();
}

Value listCopy(Interpreter&, const Value& self, CallArgs&) { return makeList(itemsOf(self)); }

Value listReverse(Interpreter&, const Value& self, CallArgs&) {
    std::reverse(itemsOf(self).begin(), itemsOf(self).end());
    return Value();
}

Value listSort(Interpreter& in, const Value& self, CallArgs& a) {
    if (!a.args.empty()) in.fail("TypeError", "sort() takes no positional arguments");
    itemsOf(self) = sortedValues(in, itemsOf(self), a);
    return Value();
}

}  // namespace

const MethodTable& listMethods() {
    static const MethodTable table("list", {
        {"append", listAppend, 1, 1},
        {"extend", listExtend, 1, 1},
        {"insert", listInsert, 2, 2},
        {"pop", listPop, 0, 1},
        {"remove", listRemove, 1, 1},
        {"index", listSearch<true>, 1, 1},
        {"count", listSearch<false>, 1, 1},
        {"clear", listClear, 0, kAnyArgs},
        {"copy", listCopy, 0, kAnyArgs},
        {"reverse", listReverse, 0, kAnyArgs},
        {"sort", listSort, 0, kAnyArgs},
    });
    return table;
}

const MethodTable& tupleMethods() {
    static const MethodTable table("tuple", {
        {"index", listSearch<true>, 1, 1},
        {"count", listSearch<false>, 1, 1},
    });
    return table;
}

Value sizesProduct(Interpreter& in, const ValueList& sizes) {
    Value product(int64_t{1});
    for (const Value& size : sizes) product = in.evalBinary(BinaryOperator::Mult, product, size, in.currentSite());
    return product;
}

// torch.Size's: a tuple's, and numel() (the product of its sizes; symbolic while traced).
const MethodTable& sizeMethods() {
    static const MethodTable table("Size", {
        {"index", listSearch<true>, 1, 1},
        {"count", listSearch<false>, 1, 1},
        {"numel", [](Interpreter& in, const Value& self, CallArgs&) { return sizesProduct(in, self.as<TupleObject>()->items); }, 0, 0},
    });
    return table;
}

namespace {

// torch.Size is a tuple whose slices, repeats and concatenations (with tuples too, on either
// side) stay torch.Size.
Value sequenceLike(const Value& self, ValueList items, bool size) {
    if (self.as<ListObject>()) return makeList(std::move(items));
    if (!size) return makeTuple(std::move(items));
    auto out = std::make_shared<SizeObject>();
    out->items = std::move(items);
    return Value(ObjectPtr(out));
}

bool isSize(const Value& v) { return v.as<SizeObject>() != nullptr; }

}  // namespace

Value concatSequences(Interpreter& in, const Value& self, const Value& other) {
    std::string type = pythonTypeName(self);
    const bool size = isSize(self) || isSize(other);
    if (size && !(self.as<TupleObject>() && other.as<TupleObject>()))
        in.fail("TypeError", "can only concatenate tuple (not " + pythonTypeName(other) + ") to torch.Size");
    if (!size && pythonTypeName(other) != type)
        in.fail("TypeError", "can only concatenate " + type + " (not \"" + pythonTypeName(other) + "\") to " + type);
    if (self.isString()) return Value(self.asString() + other.asString());
    ValueList items = *sequenceItems(self);
    for (const Value& v : *sequenceItems(other)) items.push_back(v);
    return sequenceLike(self, std::move(items), size);
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
    return sequenceLike(self, std::move(items), isSize(self));
}


// list[i], tuple[i] and their slices. An item of an input (L['xs'][0]) keeps its source and
// is guarded where it is taken out.
Value sequenceItem(Interpreter& in, const Value& self, const Value& index) {
    const ValueList& items = *sequenceItems(self);
    if (in.tracer() && self.source) in.tracer()->onLengthUse(self);
    if (auto* s = index.as<SliceObject>()) {
        ValueList out;
        for (int64_t i : sliceIndices(*s, static_cast<int64_t>(items.size()), in)) out.push_back(items[i]);
        return sequenceLike(self, std::move(out), isSize(self));
    }
    if (!isIntLike(index)) {
        if (auto position = in.callSpecial(index, "__index__", {}); position && isIntLike(*position)) return sequenceItem(in, self, *position);
        in.fail("TypeError", pythonTypeName(self) + " indices must be integers or slices, not " + pythonTypeName(index));
    }
    int64_t i = normaliseIndex(intOf(index), static_cast<int64_t>(items.size()), in, pythonTypeName(self).c_str());
    Value item = items[i];
    if (self.source && (!item.isObject() || sequenceItems(item))) {
        item.source = itemSource(self.source, i);
        if (in.tracer()) return in.loaded(std::move(item));
    }
    return item;
}

namespace {

// An item's position for a store or deletion; IndexError past the end.
int64_t listIndex(Interpreter& in, const ListObject& list, const Value& index) {
    if (!isIntLike(index)) in.fail("TypeError", "list indices must be integers or slices, not " + pythonTypeName(index));
    return normaliseIndex(intOf(index), static_cast<int64_t>(list.items.size()), in, "list assignment");
}

// `l[a:b] = items` replaces that run with any number of items; with a step other than 1 each
// selected index takes one item. The items are read first, so `l[:] = l` sees l unchanged.
void assignListSlice(Interpreter& in, ValueList& items, const SliceObject& slice, const Value& value) {
    int64_t n = static_cast<int64_t>(items.size());
    SliceBounds b = sliceBounds(slice, n, in);
    ValueList replacement;
    try {
        replacement = in.iterate(value);
    } catch (const ScriptError& e) {
        if (!in.matchesException(e, "TypeError")) throw;
        in.fail("TypeError", b.step == 1 ? "can only assign an iterable" : "must assign iterable to extended slice");
    }
    if (b.step == 1) {
        items.erase(items.begin() + b.start, items.begin() + std::max(b.stop, b.start));
        items.insert(items.begin() + b.start, replacement.begin(), replacement.end());
        return;
    }
    std::vector<int64_t> indices = sliceIndices(slice, n, in);
    if (indices.size() != replacement.size())
        in.fail("ValueError", fmt::format("attempt to assign sequence of size {} to extended slice of size {}", replacement.size(),
                                          indices.size()));
    for (size_t k = 0; k < indices.size(); ++k) items[indices[k]] = replacement[k];
}

}  // namespace

void setListItem(Interpreter& in, const Value& self, const Value& index, const Value& value) {
    auto& list = *self.as<ListObject>();
    if (auto* s = index.as<SliceObject>()) assignListSlice(in, list.items, *s, value);
    else list.items[listIndex(in, list, index)] = value;
    in.noteStoredInto(self.asObject());
}

void deleteListItem(Interpreter& in, const Value& self, const Value& index) {
    auto& list = *self.as<ListObject>();
    auto* slice = index.as<SliceObject>();
    if (!slice) {
        list.items.erase(list.items.begin() + listIndex(in, list, index));
        return;
    }
    std::vector<bool> gone(list.items.size());
    for (int64_t i : sliceIndices(*slice, static_cast<int64_t>(list.items.size()), in)) gone[i] = true;
    ValueList kept;  // one pass: erasing item by item would be quadratic in `del l[::2]`
    for (size_t i = 0; i < gone.size(); ++i)
        if (!gone[i]) kept.push_back(std::move(list.items[i]));
    list.items = std::move(kept);
}

}  // namespace fusescope
