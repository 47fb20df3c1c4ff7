#include "script/types/iterator_types.h"

#include <fmt/format.h>

#include "script/interpreter.h"
#include "script/object_model.h"
#include "script/types/method_table.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

// One of the lazy iterators: its kind's slots (name and next) and what that next reads.
struct LazyIteratorObject : Object {
    const TypeSlots* type = nullptr;
    ValueList sources;  // iterators: map's and zip's arguments, filter's and enumerate's one
    Value function;     // map's and filter's function; iter(f, sentinel)'s f
    Value sentinel;
    int64_t count = 0;  // enumerate's next index
    bool strict = false;  // zip(strict=True)
    bool done = false;    // ended: its sources are not asked again
    std::string typeName() const override { return std::string(type->name); }
    const TypeSlots* slots() const override { return type; }
};

LazyIteratorObject& lazy(const Value& self) { return *self.as<LazyIteratorObject>(); }

std::optional<Value> finished(LazyIteratorObject& it) {
    it.done = true;
    it.sources.clear();
    return std::nullopt;
}

Value callWith(Interpreter& in, const Value& function, ValueList args) {
    CallArgs call;
    call.args = std::move(args);
    call.where = in.currentLocation();
    return in.call(function, call);
}

// One item from each source, or nullopt when one of them has ended.
std::optional<ValueList> nextRow(Interpreter& in, LazyIteratorObject& it, bool strict) {
    ValueList row;
    for (size_t i = 0; i < it.sources.size(); ++i) {
        std::optional<Value> item = nextOf(in, it.sources[i]);
        if (item) {
            row.push_back(std::move(*item));
            continue;
        }
        if (!strict) return std::nullopt;
        auto earlier = [](size_t n) { return n == 1 ? std::string("argument 1") : fmt::format("arguments 1-{}", n); };
        if (i > 0) in.fail("ValueError", fmt::format("zip() argument {} is shorter than {}", i + 1, earlier(i)));
        for (size_t j = 1; j < it.sources.size(); ++j)
            if (nextOf(in, it.sources[j])) in.fail("ValueError", fmt::format("zip() argument {} is longer than {}", j + 1, earlier(j)));
        return std::nullopt;
    }
    return row;
}

std::optional<Value> mapNext(Interpreter& in, const Value& self) {
    LazyIteratorObject& it = lazy(self);
    if (it.done) return std::nullopt;
    std::optional<ValueList> row = nextRow(in, it, false);
    if (!row) return finished(it);
    return callWith(in, it.function, std::move(*row));
}

std::optional<Value> filterNext(Interpreter& in, const Value& self) {
    LazyIteratorObject& it = lazy(self);
    while (!it.done) {
        std::optional<Value> item = nextOf(in, it.sources[0]);
        if (!item) return finished(it);
        if (in.truthy(it.function.isNone() ? *item : callWith(in, it.function, {*item}))) return item;
    }
    return std::nullopt;
}

std::optional<Value> zipNext(Interpreter& in, const Value& self) {
    LazyIteratorObject& it = lazy(self);
    if (it.done || it.sources.empty()) return finished(it);
    std::optional<ValueList> row = nextRow(in, it, it.strict);
    if (!row) return finished(it);
    return makeTuple(std::move(*row));
}

std::optional<Value> enumerateNext(Interpreter& in, const Value& self) {
    LazyIteratorObject& it = lazy(self);
    if (it.done) return std::nullopt;
    std::optional<Value> item = nextOf(in, it.sources[0]);
    if (!item) return finished(it);
    return makeTuple({Value(it.count++), std::move(*item)});
}

std::optional<Value> callableNext(Interpreter& in, const Value& self) {
    LazyIteratorObject& it = lazy(self);
    if (it.done) return std::nullopt;
    Value item = callWith(in, it.function, {});
    if (valuesEqual(item, it.sentinel)) return finished(it);
    return item;
}

std::string lazyRepr(const Value& self) {
    return fmt::format("<{} object at {}>", lazy(self).type->name, static_cast<const void*>(self.asObject().get()));
}

const TypeSlots kMap{.name = "map", .next = mapNext, .repr = lazyRepr};
const TypeSlots kFilter{.name = "filter", .next = filterNext, .repr = lazyRepr};
const TypeSlots kZip{.name = "zip", .next = zipNext, .repr = lazyRepr};
const TypeSlots kEnumerate{.name = "enumerate", .next = enumerateNext, .repr = lazyRepr};
const TypeSlots kCallableIterator{.name = "callable_iterator", .next = callableNext, .repr = lazyRepr};

Value makeLazy(const TypeSlots& type, Interpreter& in, const ValueList& iterables, Value function = Value()) {
    auto it = std::make_shared<LazyIteratorObject>();
    it->type = &type;
    it->function = std::move(function);
    for (const Value& v : iterables) it->sources.push_back(iteratorOf(in, v));
    return Value(ObjectPtr(it));
}

// zip's or map's iterator over lists and tuples only: each read as far as the shortest goes, as
// CPython's next() takes them (the longer one's next item, taken and dropped as the shortest ends,
// is never used: Dynamo, building items lazily, never guards it).
Value makeShortestLazy(const TypeSlots& type, Interpreter& in, const ValueList& iterables, Value function = Value()) {
    const bool sequences = std::all_of(iterables.begin(), iterables.end(), [](const Value& v) { return v.as<ListObject>() || v.as<TupleObject>(); });
    if (!sequences || iterables.empty()) return makeLazy(type, in, iterables, std::move(function));
    size_t shortest = SIZE_MAX;
    for (const Value& v : iterables) shortest = std::min(shortest, sequenceItems(v)->size());
    ValueList prefixes;
    for (const Value& v : iterables) prefixes.push_back(makeList(sequencePrefix(in, v, shortest)));
    return makeLazy(type, in, prefixes, std::move(function));
}

// A keyword argument among those `allowed`; TypeError for any other.
const Value* keyword(Interpreter& in, const CallArgs& a, std::string_view function, std::string_view allowed) {
    expectKeywords(in, a, function, {allowed});
    return a.kwargs.empty() ? nullptr : &a.kwargs.front().second;
}

}  // namespace

Value iteratorOf(Interpreter& in, const Value& iterable) {
    if (isIterator(iterable)) return iterable;
    if (auto own = in.callSpecial(iterable, "__iter__", {})) return *own;
    auto it = std::make_shared<IteratorObject>();
    it->items = in.iterate(iterable);
    it->over = pythonTypeName(iterable);
    return Value(ObjectPtr(it));
}

std::optional<Value> nextOf(Interpreter& in, const Value& iterator) {
    if (const TypeSlots* slots = slotsOf(iterator); slots && slots->next) return slots->next(in, iterator);
    try {
        if (auto item = in.callSpecial(iterator, "__next__", {})) return item;
    } catch (const ScriptError& e) {
        if (!in.matchesException(e, "StopIteration")) throw;
        return std::nullopt;
    }
    in.fail("TypeError", "'" + pythonTypeName(iterator) + "' object is not an iterator");
}

Value callableIterator(Interpreter& in, const Value& callable, const Value& sentinel) {
    Value it = makeLazy(kCallableIterator, in, {}, callable);
    lazy(it).sentinel = sentinel;
    return it;
}

void addIteratorBuiltins(std::map<std::string, Value, std::less<>>& b) {
    b["map"] = makeBuiltin("map", [](Interpreter& in, CallArgs& a) {
        keyword(in, a, "map", "");
        if (a.args.size() < 2) in.fail("TypeError", "map() must have at least two arguments.");
        return makeShortestLazy(kMap, in, ValueList(a.args.begin() + 1, a.args.end()), a.args[0]);
    });
    b["filter"] = makeBuiltin("filter", [](Interpreter& in, CallArgs& a) {
        keyword(in, a, "filter", "");
        expectArgs(in, a, 2, 2, "filter");
        return makeLazy(kFilter, in, {a.args[1]}, a.args[0]);
    });
    b["zip"] = makeBuiltin("zip", [](Interpreter& in, CallArgs& a) {
        const Value* strict = keyword(in, a, "zip", "strict");
        const bool strictly = strict && in.truthy(*strict);  // (strict reads each to its end)
        Value it = strictly ? makeLazy(kZip, in, a.args) : makeShortestLazy(kZip, in, a.args);
        lazy(it).strict = strictly;
        return it;
    });
    b["enumerate"] = makeBuiltin("enumerate", [](Interpreter& in, CallArgs& a) {
        const Value* start = keyword(in, a, "enumerate", "start");
        expectArgs(in, a, 1, start ? 1 : 2, "enumerate");
        if (!start && a.args.size() == 2) start = &a.args[1];
        Value it = makeLazy(kEnumerate, in, {a.args[0]});
        if (start) {
            if (!start->isInt() && !start->isBool())
                in.fail("TypeError", "'" + pythonTypeName(*start) + "' object cannot be interpreted as an integer");
            lazy(it).count = start->isBool() ? start->asBool() : start->asInt();
        }
        return it;
    });
}

}  // namespace fusescope
