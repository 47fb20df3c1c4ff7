#include "script/set_operations.h"

#include "script/interpreter.h"
#include "script/object_model.h"
#include "script/python_hash.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

// CPython's set code takes a dict's shortcuts (its size, its stored hashes) for dicts only,
// not their subclasses (OrderedDict).
const DictObject* exactDict(const Value& value) {
    return value.as<OrderedDictObject>() ? nullptr : value.as<DictObject>();
}

// Removes key from a when there, adds it when not (symmetric_difference_update's step).
void toggle(SetObject& a, const Value& key, int64_t hash) {
    if (!a.discard(key, hash)) a.add(key, hash);
}

bool isSubset(const SetObject& a, const SetObject& b) {
    if (a.size() > b.size()) return false;
    bool all = true;
    a.forEach([&](const Value& key, int64_t hash) { all = all && b.contains(key, hash); });
    return all;
}

// The frozenset CPython's compiler makes of a constant display: built from the display's
// elements, then rebuilt once from its own iteration order when the compiler merges equal
// constants.
SetObject compilerFrozenset(Interpreter& interp, const ValueList& items) {
    SetObject built;
    for (const Value& value : items) setAdd(interp, built, value);
    SetObject rebuilt;
    built.forEach([&](const Value& key, int64_t hash) { rebuilt.add(key, hash); });
    return rebuilt;
}

// so & other for two sets: the smaller one's elements, in its order, that the larger holds.
std::shared_ptr<SetObject> intersectSets(const SetObject& a, const SetObject& b) {
    if (&a == &b) return copySet(a);
    auto result = std::make_shared<SetObject>();
    const SetObject& larger = b.size() > a.size() ? b : a;
    const SetObject& smaller = &larger == &a ? b : a;
    smaller.forEach([&](const Value& key, int64_t hash) {
        if (larger.contains(key, hash)) result->add(key, hash);
    });
    return result;
}

// set.difference_update with a set: every common element removed from `a`.
void removeSet(SetObject& a, const SetObject& b) {
    if (&a == &b) {
        a.clear();
        return;
    }
    b.forEach([&](const Value& key, int64_t hash) { a.discard(key, hash); });
    a.dropDummiesIfMany();
}

// set.symmetric_difference_update with a set: b's elements, in b's order, removed from `a`
// when there, added when not.
void toggleSet(SetObject& a, const SetObject& b) {
    if (&a == &b) {
        a.clear();
        return;
    }
    b.forEach([&](const Value& key, int64_t hash) { toggle(a, key, hash); });
}

}  // namespace

int64_t hashOf(Interpreter& interp, const Value& value) {
    const TypeSlots* type = interp.touchedSlots(value);
    return type->hash ? type->hash(interp, value) : python_hash::ofAddress(value.asObject().get());
}

void requireHashable(Interpreter& interp, const Value& value) {
    if (value.isObject()) hashOf(interp, value);  // every other value hashes without fail
}

int64_t unhashable(Interpreter& interp, const Value& value) {
    interp.fail("TypeError", "unhashable type: '" + pythonTypeName(value) + "'");
}

// A set as the element looked for is, in CPython, looked for as a frozenset; a set holds no
// frozensets here, so it is absent.
bool setContains(Interpreter& interp, const SetObject& set, const Value& value) {
    return !value.as<SetObject>() && set.contains(value, hashOf(interp, value));
}
void setAdd(Interpreter& interp, SetObject& set, const Value& value) { set.add(value, hashOf(interp, value)); }
bool setDiscard(Interpreter& interp, SetObject& set, const Value& value) {
    return !value.as<SetObject>() && set.discard(value, hashOf(interp, value));
}

void setUpdate(Interpreter& interp, SetObject& set, const Value& iterable) {
    if (auto* other = iterable.as<SetObject>()) return set.merge(*other);
    if (auto* dict = exactDict(iterable)) {
        set.reserve(dict->items.size());
        for (size_t i = 0; i < dict->items.size(); ++i) setAdd(interp, set, Value(dict->items[i].first));  // __hash__ may change the dict
        return;
    }
    for (const Value& value : interp.iterate(iterable)) setAdd(interp, set, value);
}

std::shared_ptr<SetObject> copySet(const SetObject& set) {
    auto copy = std::make_shared<SetObject>();
    copy->merge(set);
    return copy;
}

std::shared_ptr<SetObject> setBinary(Interpreter& interp, BinaryOperator op, const SetObject& a, const SetObject& b) {
    switch (op) {
    case BinaryOperator::BitOr: {
        auto result = copySet(a);
        if (&a != &b) result->merge(b);  // a | a is a's copy: merging in would resize it
        return result;
    }
    case BinaryOperator::BitAnd: return intersectSets(a, b);
    case BinaryOperator::Sub: {
        if ((a.size() >> 2) > b.size()) {  // much larger than b: a copy with b's elements removed
            auto result = copySet(a);
            removeSet(*result, b);
            return result;
        }
        auto result = std::make_shared<SetObject>();
        a.forEach([&](const Value& key, int64_t hash) {
            if (!b.contains(key, hash)) result->add(key, hash);
        });
        return result;
    }
    case BinaryOperator::BitXor: {
        auto result = copySet(b);
        toggleSet(*result, a);
        return result;
    }
    default:
        interp.fail("TypeError", std::string("unsupported operand type(s) for ") + binaryOperatorSymbol(op) + ": 'set' and 'set'");
    }
}

void setBinaryInPlace(Interpreter& interp, BinaryOperator op, SetObject& a, const SetObject& b) {
    switch (op) {
    case BinaryOperator::BitOr: return a.merge(b);
    case BinaryOperator::BitAnd: return a.takeTable(std::move(*intersectSets(a, b)));
    case BinaryOperator::Sub: return removeSet(a, b);
    case BinaryOperator::BitXor: return toggleSet(a, b);
    default:
        interp.fail("TypeError", std::string("unsupported operand type(s) for ") + binaryOperatorSymbol(op) + "=: 'set' and 'set'");
    }
}

std::shared_ptr<SetObject> setIntersection(Interpreter& interp, const SetObject& a, const Value& iterable) {
    if (auto* other = iterable.as<SetObject>()) return intersectSets(a, *other);
    auto result = std::make_shared<SetObject>();
    for (const Value& value : interp.iterate(iterable)) {
        const int64_t hash = hashOf(interp, value);
        if (!a.contains(value, hash)) continue;
        result->add(value, hash);
        if (result->size() >= a.size()) break;  // all of a found
    }
    return result;
}

std::shared_ptr<SetObject> setDifference(Interpreter& interp, const SetObject& a, const Value& iterable) {
    if (auto* other = iterable.as<SetObject>()) return setBinary(interp, BinaryOperator::Sub, a, *other);
    if (exactDict(iterable)) {  // as a set of its keys: the same elements and table
        SetObject keys;
        setUpdate(interp, keys, iterable);
        return setBinary(interp, BinaryOperator::Sub, a, keys);
    }
    auto result = copySet(a);
    setDifferenceUpdate(interp, *result, iterable);
    return result;
}

std::shared_ptr<SetObject> setSymmetricDifference(Interpreter& interp, const SetObject& a, const Value& iterable) {
    auto result = std::make_shared<SetObject>();
    setUpdate(interp, *result, iterable);
    toggleSet(*result, a);
    return result;
}

void setDifferenceUpdate(Interpreter& interp, SetObject& a, const Value& iterable) {
    if (auto* other = iterable.as<SetObject>()) return removeSet(a, *other);
    for (const Value& value : interp.iterate(iterable)) setDiscard(interp, a, value);
    a.dropDummiesIfMany();
}

void setSymmetricDifferenceUpdate(Interpreter& interp, SetObject& a, const Value& iterable) {
    if (auto* other = iterable.as<SetObject>()) return toggleSet(a, *other);
    if (auto* dict = exactDict(iterable)) {  // its keys in the dict's order
        for (size_t i = 0; i < dict->items.size(); ++i) {
            const Value key = dict->items[i].first;  // __hash__ may change the dict
            toggle(a, key, hashOf(interp, key));
        }
        return;
    }
    SetObject other;
    setUpdate(interp, other, iterable);
    toggleSet(a, other);
}

bool setIsSubset(Interpreter& interp, const SetObject& a, const Value& iterable) {
    if (auto* other = iterable.as<SetObject>()) return isSubset(a, *other);
    SetObject other;  // CPython 3.11 makes a set of it first
    setUpdate(interp, other, iterable);
    return isSubset(a, other);
}

bool setIsSuperset(Interpreter& interp, const SetObject& a, const Value& iterable) {
    if (auto* other = iterable.as<SetObject>()) return isSubset(*other, a);
    for (const Value& value : interp.iterate(iterable))
        if (!setContains(interp, a, value)) return false;
    return true;
}

bool setIsDisjoint(Interpreter& interp, const SetObject& a, const Value& iterable) {
    if (auto* other = iterable.as<SetObject>()) {
        const SetObject& larger = other->size() > a.size() ? *other : a;
        const SetObject& smaller = &larger == &a ? *other : a;
        bool disjoint = true;
        smaller.forEach([&](const Value& key, int64_t hash) { disjoint = disjoint && !larger.contains(key, hash); });
        return disjoint;
    }
    for (const Value& value : interp.iterate(iterable))
        if (setContains(interp, a, value)) return false;
    return true;
}

std::optional<bool> compareSets(CompareOperator op, const SetObject& a, const SetObject& b) {
    switch (op) {
    case CompareOperator::Eq: return a.size() == b.size() && isSubset(a, b);
    case CompareOperator::NotEq: return !(a.size() == b.size() && isSubset(a, b));
    case CompareOperator::LtE: return isSubset(a, b);
    case CompareOperator::Lt: return a.size() < b.size() && isSubset(a, b);
    case CompareOperator::GtE: return isSubset(b, a);
    case CompareOperator::Gt: return a.size() > b.size() && isSubset(b, a);
    default: return std::nullopt;
    }
}

std::shared_ptr<SetObject> setDisplay(Interpreter& interp, const ValueList& items, bool folded) {
    auto display = std::make_shared<SetObject>();
    if (folded) {
        display->merge(compilerFrozenset(interp, items));
    } else {
        for (const Value& value : items) setAdd(interp, *display, value);
    }
    return display;
}

ValueList constantSetIteration(Interpreter& interp, const ValueList& items) { return compilerFrozenset(interp, items).items(); }

bool foldsToConstant(const Expr& expr) {
    switch (expr.kind) {
    case ExprKind::Constant: return true;
    case ExprKind::UnaryOp: return foldsToConstant(*expr.as<UnaryOp>().operand);
    case ExprKind::BinOp: return foldsToConstant(*expr.as<BinOp>().left) && foldsToConstant(*expr.as<BinOp>().right);
    case ExprKind::Subscript: return foldsToConstant(*expr.as<Subscript>().value) && foldsToConstant(*expr.as<Subscript>().index);
    case ExprKind::Tuple:
        for (const auto& element : expr.as<Tuple>().elts)
            if (!foldsToConstant(*element)) return false;
        return true;
    default: return false;
    }
}

namespace {

bool isSetLikeView(const Value& value) {
    const auto* view = value.as<DictViewObject>();
    return view && view->kind.find("values") == std::string::npos;
}

// A keys or items view as `in` sees it: a dict of its keys (to their values).
DictObject viewLookup(const DictViewObject& view) {
    DictObject byKey;
    const bool items = view.kind.ends_with("items");
    for (const Value& item : view.items) {
        if (!items) byKey.set(item, Value());
        else byKey.set(item.as<TupleObject>()->items[0], item.as<TupleObject>()->items[1]);
    }
    return byKey;
}

// `value in view`: for an items view, a (key, value) pair whose key holds that value.
bool viewContains(Interpreter& interp, const DictViewObject& view, DictObject& byKey, const Value& value) {
    if (!view.kind.ends_with("items")) {
        requireHashable(interp, value);
        return byKey.find(value) != nullptr;
    }
    const auto* pair = value.as<TupleObject>();
    if (!pair || pair->items.size() != 2) return false;
    requireHashable(interp, pair->items[0]);
    const Value* found = byKey.find(pair->items[0]);
    return found && valuesEqual(*found, pair->items[1]);
}

// CPython's `view & other`: the elements of the other side (the smaller of two views) that
// the view contains; with a set at least as large, that set's intersection with the view.
std::shared_ptr<SetObject> intersectView(Interpreter& interp, const Value& view, const Value& other) {
    const auto& items = view.as<DictViewObject>()->items;
    if (const auto* set = other.as<SetObject>(); set && items.size() <= set->size()) return setIntersection(interp, *set, view);
    if (isSetLikeView(other) && other.as<DictViewObject>()->items.size() > items.size()) return intersectView(interp, other, view);
    DictObject byKey = viewLookup(*view.as<DictViewObject>());
    auto result = std::make_shared<SetObject>();
    for (const Value& value : interp.iterate(other))
        if (viewContains(interp, *view.as<DictViewObject>(), byKey, value)) setAdd(interp, *result, value);
    return result;
}

// set(view): a keys view of a plain dict is the dict to CPython, whose size it reserves first.
std::shared_ptr<SetObject> viewAsSet(Interpreter& interp, const Value& value) {
    auto result = std::make_shared<SetObject>();
    if (const auto* view = value.as<DictViewObject>(); view && view->kind == "dict_keys") result->reserve(view->items.size());
    setUpdate(interp, *result, value);
    return result;
}

}  // namespace

std::shared_ptr<SetObject> dictViewBinary(Interpreter& interp, BinaryOperator op, const Value& left, const Value& right) {
    if (!left.as<DictViewObject>() && !right.as<DictViewObject>()) return nullptr;
    const bool setOperator = op == BinaryOperator::BitAnd || op == BinaryOperator::BitOr || op == BinaryOperator::Sub ||
                             op == BinaryOperator::BitXor;
    if (!setOperator || (!isSetLikeView(left) && !isSetLikeView(right))) return nullptr;
    if (op == BinaryOperator::BitAnd) return isSetLikeView(left) ? intersectView(interp, left, right) : intersectView(interp, right, left);
    auto result = viewAsSet(interp, left);  // the left side as a set, a view or not (reflected)
    if (op == BinaryOperator::BitOr) setUpdate(interp, *result, right);
    else if (op == BinaryOperator::Sub) setDifferenceUpdate(interp, *result, right);
    else setSymmetricDifferenceUpdate(interp, *result, right);
    return result;
}

Value freezeSet(const Value& set) {
    auto* mutableSet = set.as<SetObject>();
    if (!mutableSet || set.as<FrozenSetObject>()) return set;
    auto frozen = std::make_shared<FrozenSetObject>();
    frozen->takeTable(std::move(*mutableSet));
    return Value(ObjectPtr(frozen));
}

}  // namespace fusescope
