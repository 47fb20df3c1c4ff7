#pragma once
// Python's set operations on SetObject, each as CPython 3.11 performs it: which set a result
// starts from and in which order elements go in decides the order the result iterates in
// (a | b copies a's table and adds b's elements; b ^ a starts from a copy of a; ...).

#include <memory>
#include <optional>

#include "script/ast.h"
#include "script/set_object.h"

namespace fusescope {

class Interpreter;

// hash(value): its type's hash slot, else its address (CPython's for numbers, strings,
// tuples and None; __hash__ for instances).
int64_t hashOf(Interpreter& interp, const Value& value);
// hashOf's TypeError for a value it refuses, computing only an object's hash (a dict's
// key: dicts find keys by equality and their own index; __hash__ runs as in CPython).
void requireHashable(Interpreter& interp, const Value& value);
// The hash slot of an unhashable type (list, dict, set, slice): CPython's TypeError.
[[noreturn]] int64_t unhashable(Interpreter& interp, const Value& value);

bool setContains(Interpreter& interp, const SetObject& set, const Value& value);
void setAdd(Interpreter& interp, SetObject& set, const Value& value);
bool setDiscard(Interpreter& interp, SetObject& set, const Value& value);
// set.update(iterable) and {*iterable}: a set merged, a dict's keys after one resize,
// anything else element by element.
void setUpdate(Interpreter& interp, SetObject& set, const Value& iterable);
std::shared_ptr<SetObject> copySet(const SetObject& set);
// A set result as a frozenset (anything else as it is): what a frozenset's operations give.
Value freezeSet(const Value& set);

// a | b, a & b, a - b, a ^ b; the in-place forms |=, &=, -=, ^= update `a`.
std::shared_ptr<SetObject> setBinary(Interpreter& interp, BinaryOperator op, const SetObject& a, const SetObject& b);
void setBinaryInPlace(Interpreter& interp, BinaryOperator op, SetObject& a, const SetObject& b);
// The methods' forms taking any iterable: a.intersection(it), a.difference(it),
// a.symmetric_difference(it), and the updates a.difference_update(it),
// a.symmetric_difference_update(it).
std::shared_ptr<SetObject> setIntersection(Interpreter& interp, const SetObject& a, const Value& iterable);
std::shared_ptr<SetObject> setDifference(Interpreter& interp, const SetObject& a, const Value& iterable);
std::shared_ptr<SetObject> setSymmetricDifference(Interpreter& interp, const SetObject& a, const Value& iterable);
void setDifferenceUpdate(Interpreter& interp, SetObject& a, const Value& iterable);
void setSymmetricDifferenceUpdate(Interpreter& interp, SetObject& a, const Value& iterable);
// a.issubset(it), a.issuperset(it), a.isdisjoint(it).
bool setIsSubset(Interpreter& interp, const SetObject& a, const Value& iterable);
bool setIsSuperset(Interpreter& interp, const SetObject& a, const Value& iterable);
bool setIsDisjoint(Interpreter& interp, const SetObject& a, const Value& iterable);
// a == b, a != b, a <= b, a < b, a >= b, a > b (subsets); none for other operators.
std::optional<bool> compareSets(CompareOperator op, const SetObject& a, const SetObject& b);
// `left op right` where either is a dict view: keys and items views are sets to & | - ^ (the
// other side a set, a view or any iterable; a new set, as CPython's dictviews_* make it);
// every other operator, and any on a values view, is a TypeError. Null when neither is a view.
// Null when the operator is not a set operator on a keys or items view (NotImplemented).
std::shared_ptr<SetObject> dictViewBinary(Interpreter& interp, BinaryOperator op, const Value& left, const Value& right);

// The set a display {a, b, c} builds. CPython folds a display of more than two constants
// into a frozenset constant (built twice over: the compiler rebuilds it from its own order)
// and merges that into the new set, which can place elements other than adding them in
// order would: `folded` says the display was such a one.
std::shared_ptr<SetObject> setDisplay(Interpreter& interp, const ValueList& items, bool folded);
// The order a loop over a constant display (`for x in {3, 1}`, a comprehension's too) visits
// its elements: CPython's optimiser makes it that frozenset, at any size, and no set.
ValueList constantSetIteration(Interpreter& interp, const ValueList& items);
// Whether CPython's AST optimiser turns `expr` into a constant (literals, signs of them,
// arithmetic on them, tuples of them, subscripts of them).
bool foldsToConstant(const Expr& expr);

}  // namespace fusescope
