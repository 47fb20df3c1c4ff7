#include "script/types/type_slots.h"

#include <fmt/format.h>

#include "script/interpreter.h"
#include "script/set_operations.h"
#include "script/types/indexing.h"
#include "script/types/numbers.h"

namespace fusescope {

namespace {

const TypeSlots& strType() {
    static const TypeSlots type{
        .name = "str",
        .methods = &strMethods(),
        .concat = concatSequences,
        .repeat = repeatSequence,
        .compare = [](Interpreter&, CompareOperator op, const Value& left, const Value& right) -> std::optional<Value> {
            if (!left.isString() || !right.isString()) return std::nullopt;
            return Value(orderedAs(op, left.asString().compare(right.asString())));
        },
        .getitem = strItem,
        .length = [](Interpreter&, const Value& self) { return static_cast<int64_t>(self.asString().size()); },
        .truth = [](Interpreter&, const Value& self) { return !self.asString().empty(); },
        .contains = [](Interpreter& in, const Value& self, const Value& item) {
            if (!item.isString()) in.fail("TypeError", "'in <string>' requires string as left operand, not " + pythonTypeName(item));
            return self.asString().find(item.asString()) != std::string::npos;
        }};
    return type;
}
const TypeSlots& dtypeType() {
    static const TypeSlots type{"dtype", &dtypeGetters(), nullptr};
    return type;
}
const TypeSlots& deviceType() {
    static const TypeSlots type{"device", &deviceGetters(), nullptr};
    return type;
}

// `key in d`: guarded where the script asks; the script library's own lookups (nn.Module's
// attribute routing) are guarded by what they find, as Dynamo treats nn.Module.
bool dictContains(Interpreter& in, const Value& self, const Value& key) {
    requireHashable(in, key);
    bool found = self.as<DictObject>()->find(key) != nullptr;
    if (in.tracer() && in.currentLocation().file == in.module().fileName) in.tracer()->onContainsUse(self, key, found);
    return found;
}

// A list's, tuple's or view's length: an input's is guarded (its items were traced); its
// truth is its length unguarded.
int64_t sequenceLength(Interpreter& in, const Value& self) {
    if (in.tracer() && self.source) in.tracer()->onLengthUse(self);
    return static_cast<int64_t>(sequenceItems(self)->size());
}

bool nonEmpty(Interpreter&, const Value& self) { return !sequenceItems(self)->empty(); }

}  // namespace

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
    static const TypeSlots type{.name = "list", .methods = &listMethods(), .methodsStore = true, .concat = concatSequences, .repeat = repeatSequence,
                                .compare = compareSequences, .getitem = sequenceItem, .setitem = setListItem, .delitem = deleteListItem,
                                .length = sequenceLength, .truth = nonEmpty,
                                .inplace = [](Interpreter& in, BinaryOperator op, const Value& self, const Value& other) -> std::optional<Value> {
                                    if (op != BinaryOperator::Add) return std::nullopt;
                                    for (const Value& v : in.iterate(other)) self.as<ListObject>()->items.push_back(v.unsourced());
                                    in.noteStoredInto(self.asObject());
                                    return self;  // l += iterable extends l
                                }};
    return &type;
}
const TypeSlots* TupleObject::slots() const {
    static const TypeSlots type{.name = "tuple", .methods = &tupleMethods(), .concat = concatSequences, .repeat = repeatSequence,
                                .compare = compareSequences, .getitem = sequenceItem, .length = sequenceLength, .truth = nonEmpty};
    return &type;
}
const TypeSlots* DictObject::slots() const {
    static const TypeSlots type{.name = "dict", .methods = &dictMethods(), .methodsStore = true,
                                .getitem = dictGetItem, .setitem = dictSetItem, .delitem = dictDeleteItem,
                                .length = [](Interpreter& in, const Value& self) {
                                    if (in.tracer() && self.source) in.tracer()->onLengthUse(self);
                                    return static_cast<int64_t>(self.as<DictObject>()->items.size());
                                },
                                .truth = [](Interpreter&, const Value& self) { return !self.as<DictObject>()->items.empty(); },
                                .contains = dictContains};
    return &type;
}
const TypeSlots* SetObject::slots() const {
    static const TypeSlots type{.name = "set", .methods = &setMethods(), .methodsStore = true,
                                .binary = [](Interpreter& in, BinaryOperator op, const Value& left, const Value& right) -> std::optional<Value> {
                                    if (!left.as<SetObject>() || !right.as<SetObject>()) return std::nullopt;
                                    return Value(ObjectPtr(setBinary(in, op, *left.as<SetObject>(), *right.as<SetObject>())));
                                },
                                .compare = [](Interpreter&, CompareOperator op, const Value& left, const Value& right) -> std::optional<Value> {
                                    if (!left.as<SetObject>() || !right.as<SetObject>()) return std::nullopt;
                                    if (auto result = compareSets(op, *left.as<SetObject>(), *right.as<SetObject>())) return Value(*result);
                                    return std::nullopt;
                                },
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
                                }};
    return &type;
}
const TypeSlots* SliceObject::slots() const {
    static const GetterTable getters({
        {"start", [](Interpreter&, const Value& self) { return self.as<SliceObject>()->start; }},
        {"stop", [](Interpreter&, const Value& self) { return self.as<SliceObject>()->stop; }},
        {"step", [](Interpreter&, const Value& self) { return self.as<SliceObject>()->step; }},
    });
    static const TypeSlots type{"slice", &getters};
    return &type;
}
const TypeSlots* RangeObject::slots() const {
    static const GetterTable getters({
        {"start", [](Interpreter&, const Value& self) { return Value(self.as<RangeObject>()->start); }},
        {"stop", [](Interpreter&, const Value& self) { return Value(self.as<RangeObject>()->stop); }},
        {"step", [](Interpreter&, const Value& self) { return Value(self.as<RangeObject>()->step); }},
    });
    static const TypeSlots type{.name = "range", .getters = &getters, .getitem = [](Interpreter& in, const Value& self, const Value& index) {
        const auto& range = *self.as<RangeObject>();
        if (!isIntLike(index)) in.fail("TypeError", "range indices must be integers");
        return Value(range.start + normaliseIndex(intOf(index), range.length(), in, "range object") * range.step);
    },
                                .length = [](Interpreter&, const Value& self) { return self.as<RangeObject>()->length(); },
                                .truth = [](Interpreter&, const Value& self) { return self.as<RangeObject>()->length() > 0; }};
    return &type;
}
// d.keys() & other, d.items() | other, ...: set operators on a view.
const TypeSlots* DictViewObject::slots() const {
    static const TypeSlots type{.name = "dict view",
                                .binary = [](Interpreter& in, BinaryOperator op, const Value& left, const Value& right) -> std::optional<Value> {
                                    if (auto result = dictViewBinary(in, op, left, right)) return Value(ObjectPtr(result));
                                    return std::nullopt;
                                },
                                .length = sequenceLength, .truth = nonEmpty};
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
