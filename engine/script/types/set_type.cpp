// The methods of set; their semantics (and the order results iterate in) are
// set_operations.h's.
#include "script/interpreter.h"
#include "script/set_operations.h"
#include "script/types/method_table.h"

namespace fusescope {

namespace {

SetObject& setOf(const Value& self) { return *self.as<SetObject>(); }
Value result(const std::shared_ptr<SetObject>& s) { return Value(ObjectPtr(s)); }

Value setMethodAdd(Interpreter& in, const Value& self, CallArgs& a) {
    setAdd(in, setOf(self), a.args[0]);
    return Value();
}

template <bool kRaiseWhenMissing>
Value setMethodDiscard(Interpreter& in, const Value& self, CallArgs& a) {
    if (!setDiscard(in, setOf(self), a.args[0]) && kRaiseWhenMissing) in.raise("KeyError", {a.args[0]});
    return Value();
}

Value setMethodPop(Interpreter& in, const Value& self, CallArgs&) {
    std::optional<Value> element = setOf(self).pop();
    if (!element) in.raise("KeyError", {Value("pop from an empty set")});
    return *element;
}

Value setMethodClear(Interpreter&, const Value& self, CallArgs&) {
    setOf(self).clear();
    return Value();
}

Value setMethodCopy(Interpreter&, const Value& self, CallArgs&) { return result(copySet(setOf(self))); }

Value setMethodUpdate(Interpreter& in, const Value& self, CallArgs& a) {
    for (const Value& other : a.args) setUpdate(in, setOf(self), other);
    return Value();
}

Value differenceUpdate(Interpreter& in, const Value& self, CallArgs& a) {
    for (const Value& other : a.args) setDifferenceUpdate(in, setOf(self), other);
    return Value();
}

Value setUnion(Interpreter& in, const Value& self, CallArgs& a) {
    auto out = copySet(setOf(self));
    for (const Value& other : a.args)
        if (!(other.isObject() && other.asObject() == self.asObject())) setUpdate(in, *out, other);
    return result(out);
}

// intersection, difference and intersection_update over any number of others.
enum class Narrowing { Intersection, Difference, IntersectionUpdate };
template <Narrowing kHow>
Value narrow(Interpreter& in, const Value& self, CallArgs& a) {
    SetObject& set = setOf(self);
    std::shared_ptr<SetObject> out;
    for (const Value& other : a.args) {
        if (kHow != Narrowing::Difference) out = setIntersection(in, out ? *out : set, other);
        else if (!out) out = setDifference(in, set, other);
        else setDifferenceUpdate(in, *out, other);  // the later ones update the first's result
    }
    if (!out) out = copySet(set);
    if (kHow != Narrowing::IntersectionUpdate) return result(out);
    set.takeTable(std::move(*out));
    return Value();
}

Value symmetricDifference(Interpreter& in, const Value& self, CallArgs& a) { return result(setSymmetricDifference(in, setOf(self), a.args[0])); }

Value symmetricDifferenceUpdate(Interpreter& in, const Value& self, CallArgs& a) {
    setSymmetricDifferenceUpdate(in, setOf(self), a.args[0]);
    return Value();
}

Value issubset(Interpreter& in, const Value& self, CallArgs& a) { return Value(setIsSubset(in, setOf(self), a.args[0])); }
Value issuperset(Interpreter& in, const Value& self, CallArgs& a) { return Value(setIsSuperset(in, setOf(self), a.args[0])); }
Value isdisjoint(Interpreter& in, const Value& self, CallArgs& a) { return Value(setIsDisjoint(in, setOf(self), a.args[0])); }

// A frozenset's operation: the set operation's result, frozen (its table taken, so it iterates
// as the set would).
template <Value (*kOperation)(Interpreter&, const Value&, CallArgs&)>
Value frozenResult(Interpreter& in, const Value& self, CallArgs& a) {
    return freezeSet(kOperation(in, self, a));
}

}  // namespace

const MethodTable& frozensetMethods() {
    static const MethodTable table("frozenset", {
        {"copy", [](Interpreter&, const Value& self, CallArgs&) { return self; }, 0, 0},
        {"union", frozenResult<setUnion>, 0, kAnyArgs},
        {"intersection", frozenResult<narrow<Narrowing::Intersection>>, 0, kAnyArgs},
        {"difference", frozenResult<narrow<Narrowing::Difference>>, 0, kAnyArgs},
        {"symmetric_difference", frozenResult<symmetricDifference>, 1, 1},
        {"issubset", issubset, 1, 1},
        {"issuperset", issuperset, 1, 1},
        {"isdisjoint", isdisjoint, 1, 1},
    });
    return table;
}

const MethodTable& setMethods() {
    static const MethodTable table("set", {
        {"add", setMethodAdd, 1, 1},
        {"discard", setMethodDiscard<false>, 1, 1},
        {"remove", setMethodDiscard<true>, 1, 1},
        {"pop", setMethodPop, 0, 0},
        {"clear", setMethodClear, 0, 0},
        {"copy", setMethodCopy, 0, 0},
        {"update", setMethodUpdate, 0, kAnyArgs},
        {"difference_update", differenceUpdate, 0, kAnyArgs},
        {"union", setUnion, 0, kAnyArgs},
        {"intersection", narrow<Narrowing::Intersection>, 0, kAnyArgs},
        {"difference", narrow<Narrowing::Difference>, 0, kAnyArgs},
        {"intersection_update", narrow<Narrowing::IntersectionUpdate>, 0, kAnyArgs},
        {"symmetric_difference", symmetricDifference, 1, 1},
        {"symmetric_difference_update", symmetricDifferenceUpdate, 1, 1},
        {"issubset", issubset, 1, 1},
        {"issuperset", issuperset, 1, 1},
        {"isdisjoint", isdisjoint, 1, 1},
    });
    return table;
}

}  // namespace fusescope
