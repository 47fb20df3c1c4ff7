#include "script/types/type_slots.h"

#include <fmt/format.h>

#include "script/interpreter.h"
#include "script/python_hash.h"
#include "script/set_operations.h"
#include "script/utf8.h"
#include "script/types/indexing.h"
#include "script/types/numbers.h"

namespace fusescope {

namespace {

const TypeSlots& strType() {
    static const TypeSlots type{
        .name = "str",
        .methods = &strMethods(),
        .items = [](Interpreter&, const Value& self) {  // its characters: code points
            const std::string& text = self.asString();
            ValueList chars;
            if (isAscii(text)) {
                for (char c : text) chars.push_back(Value(std::string(1, c)));
                return chars;
            }
            const std::vector<size_t> offsets = codePointOffsets(text);
            for (size_t i = 0; i + 1 < offsets.size(); ++i) chars.push_back(Value(text.substr(offsets[i], offsets[i + 1] - offsets[i])));
            return chars;
        },
        .binary = [](Interpreter& in, BinaryOperator op, const Value& left, const Value& right) -> std::optional<Value> {
            if (op != BinaryOperator::Mod || !left.isString()) return std::nullopt;
            return percentFormat(in, left.asString(), right);
        },
        .concat = concatSequences,
        .repeat = repeatSequence,
        .compare = [](Interpreter&, CompareOperator op, const Value& left, const Value& right) -> std::optional<Value> {
            if (!left.isString() || !right.isString()) return std::nullopt;
            return Value(orderedAs(op, left.asString().compare(right.asString())));
        },
        .hash = [](Interpreter&, const Value& self) { return python_hash::ofString(self.asString()); },
        .getitem = strItem,
        .length = [](Interpreter&, const Value& self) { return static_cast<int64_t>(codePointCount(self.asString())); },
        .truth = [](Interpreter&, const Value& self) { return !self.asString().empty(); },
        .contains = [](Interpreter& in, const Value& self, const Value& item) {
            if (!item.isString()) in.fail("TypeError", "'in <string>' requires string as left operand, not " + pythonTypeName(item));
            return self.asString().find(item.asString()) != std::string::npos;
        }};
    return type;
}
// A dtype or device hashes as its repr ("torch.float32", "device(type='cpu')").
int64_t hashOfRepr(Interpreter&, const Value& self) { return python_hash::ofString(valueRepr(self)); }
const TypeSlots& dtypeType() {
    static const TypeSlots type{.name = "dtype", .getters = &dtypeGetters(), .hash = hashOfRepr};
    return type;
}
const TypeSlots& deviceType() {
    static const TypeSlots type{.name = "device", .getters = &deviceGetters(), .hash = hashOfRepr};
    return type;
}

// hash((a, b)): CPython's xxHash-based combination of its items' hashes.
int64_t tupleHash(Interpreter& in, const Value& self) {
    NestingGuard nesting("while hashing a tuple");
    const ValueList& items = self.as<TupleObject>()->items;
    python_hash::TupleHash hash;
    for (const Value& item : items) hash.add(hashOf(in, item));
    return hash.finish(items.size());
}

// `key in d`: guarded where Dynamo traces the line; the script library's own lookups (nn.Module's
// attribute routing) are guarded by what they find, as Dynamo treats nn.Module.
bool dictContains(Interpreter& in, const Value& self, const Value& key) {
    requireHashable(in, key);
    bool found = self.as<DictObject>()->find(key) != nullptr;
    if (in.tracer() && self.source && in.tracesRunningLine()) in.tracer()->onContainsUse(self, key, found);
    return found;
}

// `if d:`: guarded where Dynamo traces the line (TraceHooks::onDictTruth).
bool dictTruth(Interpreter& in, const Value& self) {
    if (in.tracer() && self.source && in.tracesRunningLine()) in.tracer()->onDictTruth(self);
    return !self.as<DictObject>()->items.empty();
}

// A list's, tuple's or view's length: an input's is guarded (its items were traced); its
// truth is its length unguarded.
int64_t sequenceLength(Interpreter& in, const Value& self) {
    if (in.tracer() && self.source) in.tracer()->onLengthUse(self);
    return static_cast<int64_t>(sequenceItems(self)->size());
}

bool nonEmpty(Interpreter&, const Value& self) { return !sequenceItems(self)->empty(); }

// A list's, tuple's or view's items; an input's each sourced from it (L['xs'][0]) and
// guarded where the loop takes it out, as PyTorch guards them (at the for line).
ValueList sequenceSnapshot(Interpreter& in, const Value& self) { return sequencePrefix(in, self, SIZE_MAX); }

std::string listRepr(const Value& self) {
    return containerRepr(self.asObject().get(), "[...]", [&] { return "[" + joinRepr(self.as<ListObject>()->items) + "]"; });
}
std::string tupleRepr(const Value& self) {
    const ValueList& items = self.as<TupleObject>()->items;
    return containerRepr(self.asObject().get(), "(...)", [&] { return "(" + joinRepr(items) + (items.size() == 1 ? ",)" : ")"); });
}
std::string dictRepr(const Value& self) {
    return containerRepr(self.asObject().get(), "{...}", [&] {
        std::string out = "{";
        for (const auto& [key, value] : self.as<DictObject>()->items) out += (out.size() > 1 ? ", " : "") + valueRepr(key) + ": " + valueRepr(value);
        return out + "}";
    });
}

// The slots of the containers: what their objects' slots() return, and where the types
// derived from them (Size, OrderedDict) start.
const TypeSlots& tupleType();
const TypeSlots& dictType();

const GetterTable& defaultDictGetters() {
    static const GetterTable table({
        {"default_factory", [](Interpreter&, const Value& self) { return self.as<DefaultDictObject>()->defaultFactory; },
         [](Interpreter&, const Value& self, const Value& value) { self.as<DefaultDictObject>()->defaultFactory = value; }},
    });
    return table;
}

}  // namespace

ValueList sequencePrefix(Interpreter& in, const Value& self, size_t count) {
    const ValueList& all = *sequenceItems(self);
    const size_t n = std::min(count, all.size());
    if (!self.source) return ValueList(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
    TraceHooks* tracer = in.tracer();
    if (tracer) tracer->onLengthUse(self);
    ValueList sourced;
    sourced.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        Value v = all[i];
        if (!v.isObject() || sequenceItems(v) || !v.source) v.source = itemSource(self.source, static_cast<int64_t>(i));
        sourced.push_back(tracer && v.source ? in.loaded(std::move(v)) : std::move(v));
    }
    return sourced;
}

// A plain object's: nothing but the AttributeError naming its type.
const TypeSlots* Object::slots() const {
    static const TypeSlots type{.name = "object"};
    return &type;
}

Value TypeSlots::attribute(Interpreter& in, const Value& self, std::string_view name) const {
    if (getters)
        if (auto v = getters->read(in, self, name)) return *v;
    if (methods)
        if (auto method = methods->bind(self, name)) return *method;
    if (getattr) return getattr(in, self, name);
    in.fail("AttributeError", fmt::format("'{}' object has no attribute '{}'", pythonTypeName(self), name));
}

const TypeSlots* slotsOf(const Value& value) {
    if (value.isObject()) return value.asObject()->slots();
    if (value.isNone()) return &noneType();
    if (value.isTensor()) return &tensorType();
    if (value.isString()) return &strType();
    if (value.isFloat()) return &floatType();
    if (value.isInt()) return &intType();
    if (value.isBool()) return &boolType();
    if (value.isDType()) return &dtypeType();
    if (value.isDevice()) return &deviceType();
    return nullptr;
}

bool isIterator(const Value& value) {
    const TypeSlots* slots = value.isObject() ? value.asObject()->slots() : nullptr;
    return slots && slots->next;
}

// The container types' slots, where their objects are declared (script/value.h, set_object.h).
const TypeSlots* ListObject::slots() const {
    static const TypeSlots type{.name = "list", .methods = &listMethods(), .items = sequenceSnapshot, .methodsStore = true, .concat = concatSequences, .repeat = repeatSequence,
                                .compare = compareSequences, .hash = unhashable, .getitem = sequenceItem, .setitem = setListItem, .delitem = deleteListItem,
                                .length = sequenceLength, .truth = nonEmpty,
                                .inplace = [](Interpreter& in, BinaryOperator op, const Value& self, const Value& other) -> std::optional<Value> {
                                    if (op != BinaryOperator::Add) return std::nullopt;
                                    for (const Value& v : in.iterate(other)) self.as<ListObject>()->items.push_back(v.unsourced());
                                    in.noteStoredInto(self.asObject());
                                    return self;  // l += iterable extends l
                                },
                                .repr = listRepr};
    return &type;
}
namespace {
const TypeSlots& tupleType() {
    static const TypeSlots type{.name = "tuple", .methods = &tupleMethods(), .items = sequenceSnapshot, .concat = concatSequences, .repeat = repeatSequence,
                                .compare = compareSequences, .hash = tupleHash, .getitem = sequenceItem, .length = sequenceLength, .truth = nonEmpty,
                                .repr = tupleRepr};
    return type;
}
}  // namespace
const TypeSlots* TupleObject::slots() const { return &tupleType(); }
const TypeSlots* SizeObject::slots() const {
    static const TypeSlots type = [] {
        TypeSlots size = tupleType();
        size.name = "Size";
        size.methods = &sizeMethods();
        size.repr = [](const Value& self) {
            return containerRepr(self.asObject().get(), "(...)", [&] { return "torch.Size([" + joinRepr(self.as<TupleObject>()->items) + "])"; });
        };
        return size;
    }();
    return &type;
}
const TypeSlots* DictObject::slots() const { return &dictType(); }
const TypeSlots* OrderedDictObject::slots() const {
    static const TypeSlots type = [] {
        TypeSlots ordered = dictType();
        ordered.name = "OrderedDict";
        ordered.repr = [](const Value& self) {
            return containerRepr(self.asObject().get(), "{...}", [&] {
                const auto& items = self.as<DictObject>()->items;
                if (items.empty()) return std::string("OrderedDict()");
                std::string out = "OrderedDict([";
                for (size_t i = 0; i < items.size(); ++i)
                    out += (i ? ", (" : "(") + valueRepr(items[i].first) + ", " + valueRepr(items[i].second) + ")";
                return out + "])";
            });
        };
        return ordered;
    }();
    return &type;
}
const TypeSlots* DefaultDictObject::slots() const {
    static const TypeSlots type = [] {
        TypeSlots defaulting = dictType();
        defaulting.name = "defaultdict";
        defaulting.getters = &defaultDictGetters();
        defaulting.getitem = [](Interpreter& in, const Value& self, const Value& key) {  // CPython's __missing__
            requireHashable(in, key);
            const Value& factory = self.as<DefaultDictObject>()->defaultFactory;
            if (self.as<DictObject>()->find(key) || factory.isNone()) return dictGetItem(in, self, key);
            CallArgs none{.args = {}, .kwargs = {}, .where = in.currentLocation()};
            Value made = in.call(factory, none);
            dictSetItem(in, self, key, made);
            return made;
        };
        defaulting.repr = [](const Value& self) {  // dictRepr guards against the dict holding itself
            return "defaultdict(" + valueRepr(self.as<DefaultDictObject>()->defaultFactory) + ", " + dictRepr(self) + ")";
        };
        return defaulting;
    }();
    return &type;
}
const TypeSlots* MemoryFormatObject::slots() const {
    static const TypeSlots type{.name = "memory_format", .repr = [](const Value& self) {
        return "torch." + self.as<MemoryFormatObject>()->name;
    }};
    return &type;
}
const TypeSlots* EllipsisObject::slots() const {
    static const TypeSlots type{.name = "ellipsis", .repr = [](const Value&) { return std::string("Ellipsis"); }};
    return &type;
}
namespace {
const TypeSlots& dictType() {
    static const TypeSlots type{.name = "dict", .methods = &dictMethods(),
                                .items = [](Interpreter& in, const Value& self) {  // its keys
                                    if (in.tracer() && self.source) in.tracer()->onDictWalk(self);
                                    ValueList keys;
                                    for (const auto& kv : self.as<DictObject>()->items) keys.push_back(kv.first);
                                    return keys;
                                },
                                .methodsStore = true, .hash = unhashable,
                                .getitem = dictGetItem, .setitem = dictSetItem, .delitem = dictDeleteItem,
                                .length = [](Interpreter& in, const Value& self) {
                                    if (in.tracer() && self.source) in.tracer()->onLengthUse(self);
                                    return static_cast<int64_t>(self.as<DictObject>()->items.size());
                                },
                                .truth = dictTruth, .contains = dictContains, .repr = dictRepr};
    return type;
}
const TypeSlots& setType() {
    static const TypeSlots type{.name = "set", .methods = &setMethods(),
                                .items = [](Interpreter&, const Value& self) { return self.as<SetObject>()->items(); },
                                .methodsStore = true,
                                .binary = [](Interpreter& in, BinaryOperator op, const Value& left, const Value& right) -> std::optional<Value> {
                                    if (!left.as<SetObject>() || !right.as<SetObject>()) return std::nullopt;
                                    return Value(ObjectPtr(setBinary(in, op, *left.as<SetObject>(), *right.as<SetObject>())));
                                },
                                .compare = [](Interpreter&, CompareOperator op, const Value& left, const Value& right) -> std::optional<Value> {
                                    if (!left.as<SetObject>() || !right.as<SetObject>()) return std::nullopt;
                                    if (auto result = compareSets(op, *left.as<SetObject>(), *right.as<SetObject>())) return Value(*result);
                                    return std::nullopt;
                                },
                                .hash = unhashable,
                                .length = [](Interpreter&, const Value& self) { return static_cast<int64_t>(self.as<SetObject>()->size()); },
                                .truth = [](Interpreter&, const Value& self) { return self.as<SetObject>()->size() != 0; },
                                .contains = [](Interpreter& in, const Value& self, const Value& item) {
                                    return setContains(in, *self.as<SetObject>(), item);
                                },
                                .inplace = [](Interpreter& in, BinaryOperator op, const Value& self, const Value& other) -> std::optional<Value> {
                                    if (!other.as<SetObject>()) return std::nullopt;
                                    setBinaryInPlace(in, op, *self.as<SetObject>(), *other.as<SetObject>());  // a |= b updates a
                                    in.noteStoredInto(self.asObject());
                                    return self;
                                },
                                .repr = [](const Value& self) {
                                    const auto& set = *self.as<SetObject>();
                                    return containerRepr(&set, nullptr, [&] { return set.size() == 0 ? "set()" : "{" + joinRepr(set.items()) + "}"; });
                                }};
    return type;
}
}  // namespace
const TypeSlots* SetObject::slots() const { return &setType(); }
const TypeSlots* FrozenSetObject::slots() const {
    static const TypeSlots type = [] {
        TypeSlots frozen = setType();
        frozen.name = "frozenset";
        frozen.methods = &frozensetMethods();
        frozen.methodsStore = false;
        frozen.binary = [](Interpreter& in, BinaryOperator op, const Value& left, const Value& right) -> std::optional<Value> {
            if (!left.as<SetObject>() || !right.as<SetObject>()) return std::nullopt;
            Value result(ObjectPtr(setBinary(in, op, *left.as<SetObject>(), *right.as<SetObject>())));
            return left.as<FrozenSetObject>() ? freezeSet(result) : result;  // the left operand's type, as CPython's
        };
        frozen.hash = [](Interpreter&, const Value& self) { return self.as<SetObject>()->frozenHash(); };
        frozen.inplace = nullptr;  // fs |= other makes a new frozenset
        frozen.repr = [](const Value& self) {
            const auto& set = *self.as<SetObject>();
            return containerRepr(&set, nullptr, [&] { return set.size() == 0 ? "frozenset()" : "frozenset({" + joinRepr(set.items()) + "})"; });
        };
        return frozen;
    }();
    return &type;
}
const TypeSlots* SliceObject::slots() const {
    static const GetterTable getters({
        {"start", [](Interpreter&, const Value& self) { return self.as<SliceObject>()->start; }},
        {"stop", [](Interpreter&, const Value& self) { return self.as<SliceObject>()->stop; }},
        {"step", [](Interpreter&, const Value& self) { return self.as<SliceObject>()->step; }},
    });
    static const TypeSlots type{.name = "slice", .getters = &getters, .hash = unhashable, .repr = [](const Value& self) {
        const auto& s = *self.as<SliceObject>();
        return "slice(" + valueRepr(s.start) + ", " + valueRepr(s.stop) + ", " + valueRepr(s.step) + ")";
    }};
    return &type;
}
const TypeSlots* RangeObject::slots() const {
    static const GetterTable getters({
        {"start", [](Interpreter&, const Value& self) { return Value(self.as<RangeObject>()->start); }},
        {"stop", [](Interpreter&, const Value& self) { return Value(self.as<RangeObject>()->stop); }},
        {"step", [](Interpreter&, const Value& self) { return Value(self.as<RangeObject>()->step); }},
    });
    // Walked item by item (a loop over a huge range may break early); copied whole only
    // where it fits in memory.
    static const TypeSlots type{.name = "range", .getters = &getters,
                                .items = [](Interpreter& in, const Value& self) {
                                    const auto& range = *self.as<RangeObject>();
                                    ValueList out;
                                    const int64_t n = range.length();
                                    try {
                                        out.reserve(static_cast<size_t>(n));  // more than memory holds fails here, before any work
                                    } catch (const std::exception&) {
                                        in.fail("MemoryError", "range too large to materialise");
                                    }
                                    for (int64_t i = 0; i < n; ++i) out.push_back(Value(range.start + i * range.step));
                                    return out;
                                },
                                .iterate = [](Interpreter&, const Value& self, const ItemVisitor& visit) {
                                    const auto& range = *self.as<RangeObject>();
                                    for (int64_t i = 0, n = range.length(); i < n; ++i)
                                        if (!visit(Value(range.start + i * range.step))) return;
                                },
                                .getitem = [](Interpreter& in, const Value& self, const Value& index) {
        const auto& range = *self.as<RangeObject>();
        if (!isIntLike(index)) in.fail("TypeError", "range indices must be integers");
        return Value(range.start + normaliseIndex(intOf(index), range.length(), in, "range object") * range.step);
    },
                                .length = [](Interpreter&, const Value& self) { return self.as<RangeObject>()->length(); },
                                .truth = [](Interpreter&, const Value& self) { return self.as<RangeObject>()->length() > 0; },
                                .repr = [](const Value& self) {
                                    const auto& range = *self.as<RangeObject>();
                                    std::string out = fmt::format("range({}, {}", range.start, range.stop);
                                    if (range.step != 1) out += fmt::format(", {}", range.step);
                                    return out + ")";
                                }};
    return &type;
}
// d.keys() & other, d.items() | other, ...: set operators on a view.
const TypeSlots* DictViewObject::slots() const {
    static const TypeSlots type{.name = "dict view", .items = sequenceSnapshot,
                                .binary = [](Interpreter& in, BinaryOperator op, const Value& left, const Value& right) -> std::optional<Value> {
                                    if (auto result = dictViewBinary(in, op, left, right)) return Value(ObjectPtr(result));
                                    return std::nullopt;
                                },
                                // keys and items views are set-like, so unhashable; a values view hashes by identity
                                .hash = [](Interpreter& in, const Value& self) {
                                    if (self.as<DictViewObject>()->kind.find("values") != std::string::npos) return python_hash::ofAddress(self.asObject().get());
                                    unhashable(in, self);
                                },
                                .length = sequenceLength, .truth = nonEmpty,
                                .repr = [](const Value& self) {
                                    const auto& view = *self.as<DictViewObject>();
                                    return containerRepr(&view, "[...]", [&] { return view.kind + "([" + joinRepr(view.items) + "])"; });
                                }};
    return &type;
}
// iter() of a container: a snapshot of its items, taken one at a time.
const TypeSlots* IteratorObject::slots() const {
    static const TypeSlots type{.name = "iterator", .next = [](Interpreter&, const Value& self) -> std::optional<Value> {
        auto& it = *self.as<IteratorObject>();
        if (it.next >= it.items.size()) return std::nullopt;
        return it.items[it.next++];
    }};
    return &type;
}

}  // namespace fusescope
