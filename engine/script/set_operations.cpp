#include "script/set_operations.h"

#include "script/interpreter.h"
#include "script/object_model.h"
#include "script/python_hash.h"

namespace fusescope {

namespace {

[[noreturn]] void unhashable(Interpreter& interp, const Value& value) {
    interp.fail("TypeError", "unhashable type: '" + pythonTypeName(value) + "'");
}

int64_t instanceHash(Interpreter& interp, const Value& value) {
    const Value* method = value.as<InstanceObject>()->cls->lookup("__hash__");
    if (!method || method->isNone()) unhashable(interp, value);  // __eq__ without __hash__ (classes.cpp)
    Value hash = *interp.callSpecial(value, "__hash__", {});
    if (!hash.isInt() && !hash.isBool()) interp.fail("TypeError", "__hash__ method should return an integer");
    return python_hash::ofInt(hash.isBool() ? hash.asBool() : hash.asInt());
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
    b.forEach([&](const Value& key, int64_t hash) {
        if (!a.discard(key, hash)) a.add(key, hash);
    });
}

}  // namespace

int64_t hashOf(Interpreter& interp, const Value& value) {
    if (value.isBool()) return value.asBool() ? 1 : 0;
    if (value.isInt()) return python_hash::ofInt(value.asInt());
    if (value.isFloat()) return python_hash::ofFloat(value.asFloat());
    if (value.isString()) return python_hash::ofString(value.asString());
    if (value.isNone()) return python_hash::ofNone();
    if (value.isTensor()) return python_hash::ofAddress(value.asTensor().impl());
    if (value.isDType() || value.isDevice()) return python_hash::ofString(valueRepr(value));
    if (auto* tuple = value.as<TupleObject>()) {
        NestingGuard nesting("while hashing a tuple");
        python_hash::TupleHash hash;
        for (const Value& item : tuple->items) hash.add(hashOf(interp, item));
        return hash.finish(tuple->items.size());
    }
    if (value.as<ListObject>() || value.as<DictObject>() || value.as<SetObject>()) unhashable(interp, value);
    if (value.as<InstanceObject>()) return instanceHash(interp, value);
    return python_hash::ofAddress(value.asObject().get());
}

bool setContains(Interpreter& interp, const SetObject& set, const Value& value) { return set.contains(value, hashOf(interp, value)); }
void setAdd(Interpreter& interp, SetObject& set, const Value& value) { set.add(value, hashOf(interp, value)); }
bool setDiscard(Interpreter& interp, SetObject& set, const Value& value) { return set.discard(value, hashOf(interp, value)); }

void setUpdate(Interpreter& interp, SetObject& set, const Value& iterable) {
    if (auto* other = iterable.as<SetObject>()) return set.merge(*other);
    if (auto* dict = iterable.as<DictObject>()) {
        set.reserve(dict->items.size());
        for (const auto& [key, value] : dict->items) setAdd(interp, set, key);
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
        if (a.contains(value, hash)) result->add(value, hash);
        if (result->size() >= a.size()) break;  // all of a found
    }
    return result;
}

std::shared_ptr<SetObject> setDifference(Interpreter& interp, const SetObject& a, const Value& iterable) {
    if (auto* other = iterable.as<SetObject>()) return setBinary(interp, BinaryOperator::Sub, a, *other);
    if (iterable.as<DictObject>()) {  // as a set of its keys: the same elements and table
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
    if (auto* dict = iterable.as<DictObject>()) {  // its keys in the dict's order
        for (const auto& [key, value] : dict->items) {
            const int64_t hash = hashOf(interp, key);
            if (!a.discard(key, hash)) a.add(key, hash);
        }
        return;
    }
    SetObject other;
    setUpdate(interp, other, iterable);
    toggleSet(a, other);
}

bool isSubset(const SetObject& a, const SetObject& b) {
    if (a.size() > b.size()) return false;
    bool all = true;
    a.forEach([&](const Value& key, int64_t hash) { all = all && b.contains(key, hash); });
    return all;
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
    auto set = std::make_shared<SetObject>();
    for (const Value& value : items) setAdd(interp, *set, value);
    if (!folded) return set;
    // The compiler's frozenset, which it rebuilds once from its own iteration order when it
    // merges equal constants; the display's new set merges that in.
    SetObject constant;
    set->forEach([&](const Value& key, int64_t hash) { constant.add(key, hash); });
    auto display = std::make_shared<SetObject>();
    display->merge(constant);
    return display;
}

bool foldsToConstant(const Expr& expr) {
    switch (expr.kind) {
    case ExprKind::Constant: return true;
    case ExprKind::UnaryOp: return foldsToConstant(*expr.as<UnaryOp>().operand);
    case ExprKind::BinOp: return foldsToConstant(*expr.as<BinOp>().left) && foldsToConstant(*expr.as<BinOp>().right);
    case ExprKind::Tuple:
        for (const auto& element : expr.as<Tuple>().elts)
            if (!foldsToConstant(*element)) return false;
        return true;
    default: return false;
    }
}

}  // namespace fusescope
