#pragma once
// A builtin type as data, as CPython's PyTypeObject: its name and its tables. Every object
// names its type (Object::slots()); the values that are not objects (str, float, dtype,
// device) have theirs by kind (slotsOf). Being built up slot by slot (issue 62): attribute
// reads and iterators' next so far; length, subscripts, operators and calls follow.

#include <optional>
#include <string>
#include <string_view>

#include "script/types/method_table.h"

namespace fusescope {

enum class BinaryOperator;  // script/ast.h
enum class CompareOperator;
enum class UnaryOperator;

struct TypeSlots {
    std::string_view name;
    const GetterTable* getters = nullptr;  // read first
    const MethodTable* methods = nullptr;
    // Asked after the tables (CPython's tp_getattro): what else the type answers, or its own
    // AttributeError. Null: AttributeError naming the value's type.
    Value (*getattr)(Interpreter& in, const Value& self, std::string_view name) = nullptr;
    // An iterator's next item, or nullopt when it has no more (CPython's tp_iternext). A type
    // with this slot is an iterator: iter(x) is x, and loops over it take an item at a time.
    std::optional<Value> (*next)(Interpreter& in, const Value& self) = nullptr;
    // A container's items in iteration order, a snapshot (CPython's tp_iter over a container):
    // what a loop walks (a dict or set changed meanwhile is an error) and list(x) copies.
    ValueList (*items)(Interpreter& in, const Value& self) = nullptr;
    // Walks self's items lazily until visit returns false, where the type iterates by code
    // of its own (an instance's __iter__, then __next__). Without items, iterate or next a
    // value is not iterable.
    void (*iterate)(Interpreter& in, const Value& self, const ItemVisitor& visit) = nullptr;
    // value.name = v (CPython's tp_setattro); null: the type's attributes are read-only.
    void (*setattr)(Interpreter& in, const Value& self, const std::string& name, const Value& value) = nullptr;
    // del value.name; null: none can be deleted.
    void (*delattr)(Interpreter& in, const Value& self, const std::string& name) = nullptr;
    // Its methods may store into it (list.append): the interpreter notes a container whose
    // method was read, to break the reference cycles a store can close at the end of the run.
    bool methodsStore = false;
    // A binary operator (CPython's nb_* slots, sq_concat, sq_repeat): left op right, with a
    // value of this type on either side; nullopt is NotImplemented (the other type is asked).
    std::optional<Value> (*binary)(Interpreter& in, BinaryOperator op, const Value& left, const Value& right) = nullptr;
    // A sequence's + and * (CPython's sq_concat, sq_repeat), asked when no binary slot
    // answered: self + other of the left operand, self * count of either; they raise
    // CPython's TypeError for an operand they cannot take.
    Value (*concat)(Interpreter& in, const Value& self, const Value& other) = nullptr;
    Value (*repeat)(Interpreter& in, const Value& self, const Value& count) = nullptr;
    // A rich comparison (CPython's tp_richcompare), asked as binary is: left's, then right's;
    // nullopt is NotImplemented (== and != then compare values; an ordering is a TypeError).
    std::optional<Value> (*compare)(Interpreter& in, CompareOperator op, const Value& left, const Value& right) = nullptr;
    // hash(self) (CPython's tp_hash); null: by identity, as object's. An unhashable type's
    // raises (set_operations.h's unhashable).
    int64_t (*hash)(Interpreter& in, const Value& self) = nullptr;
    // self[index] (CPython's mp_subscript); null: not subscriptable.
    Value (*getitem)(Interpreter& in, const Value& self, const Value& index) = nullptr;
    // self[index] = value; null: no item assignment.
    void (*setitem)(Interpreter& in, const Value& self, const Value& index, const Value& value) = nullptr;
    // del self[index]; null: no item deletion.
    void (*delitem)(Interpreter& in, const Value& self, const Value& index) = nullptr;
    // len(self) (CPython's sq_length); null: TypeError "has no len()".
    int64_t (*length)(Interpreter& in, const Value& self) = nullptr;
    // bool(self) (CPython's nb_bool); null: always true.
    bool (*truth)(Interpreter& in, const Value& self) = nullptr;
    // item in self (CPython's sq_contains); null: self's items are searched.
    bool (*contains)(Interpreter& in, const Value& self, const Value& item) = nullptr;
    // self(*args, **kwargs) (CPython's tp_call); null: not callable.
    Value (*call)(Interpreter& in, const Value& self, CallArgs& args) = nullptr;
    // -self, +self, ~self (CPython's nb_negative, nb_positive, nb_invert); nullopt: the type
    // has no such operator (TypeError "bad operand type for unary -").
    std::optional<Value> (*unary)(Interpreter& in, UnaryOperator op, const Value& self) = nullptr;
    // self op= other in place (CPython's nb_inplace_*): the result (self, changed), or
    // nullopt: `self = self op other` instead.
    std::optional<Value> (*inplace)(Interpreter& in, BinaryOperator op, const Value& self, const Value& other) = nullptr;
    // repr(self) (CPython's tp_repr); null: "<TYPE object>".
    std::string (*repr)(const Value& self) = nullptr;
    // str(self) (CPython's tp_str); null: its repr.
    std::string (*str)(const Value& self) = nullptr;

    // value.name from the getters, then the methods, then getattr; else AttributeError
    // naming the value's type ("'Size' object has no attribute 'x'").
    Value attribute(Interpreter& in, const Value& self, std::string_view name) const;
};

// The slots of `value`'s type: every value has them.
const TypeSlots* slotsOf(const Value& value);

// A record's attribute: its own map's (types/namespace_types.cpp; explain()'s output, a grad_fn),
// and its repr: its text.
Value recordAttribute(Interpreter& in, const Value& self, std::string_view name);
std::string recordRepr(const Value& self);

// Whether value is an iterator (its type has a next slot): a generator, iter(list), ...
bool isIterator(const Value& value);

const TypeSlots& tensorType();  // script/tensor_api.cpp
const TypeSlots& noneType();    // types/number_type.cpp
const TypeSlots& boolType();
const TypeSlots& intType();
const TypeSlots& floatType();
// str + str, list + list, tuple + tuple, and each times an int (types/list_type.cpp).
// The first `count` items of a list, tuple or view as iterating it takes them out (an input's
// sourced and guarded), the rest never read: zip(ys, zs) reads ys no further than zs.
ValueList sequencePrefix(Interpreter& in, const Value& self, size_t count);
Value concatSequences(Interpreter& in, const Value& self, const Value& other);
Value repeatSequence(Interpreter& in, const Value& self, const Value& count);
// list op list, tuple op tuple: item by item, as CPython's (types/list_type.cpp).
std::optional<Value> compareSequences(Interpreter& in, CompareOperator op, const Value& left, const Value& right);
// The subscripts of list and tuple (types/list_type.cpp), dict (dict_type.cpp), str (str_type.cpp).
Value sequenceItem(Interpreter& in, const Value& self, const Value& index);
void setListItem(Interpreter& in, const Value& self, const Value& index, const Value& value);
void deleteListItem(Interpreter& in, const Value& self, const Value& index);
Value dictGetItem(Interpreter& in, const Value& self, const Value& key);
// dict.update(other, **kwargs), as dict() and OrderedDict() take their arguments too: other a
// dict or an iterable of (key, value) pairs.
void updateDict(Interpreter& in, DictObject& d, const CallArgs& a);
void dictSetItem(Interpreter& in, const Value& self, const Value& key, const Value& value);
void dictDeleteItem(Interpreter& in, const Value& self, const Value& key);
Value strItem(Interpreter& in, const Value& self, const Value& index);

}  // namespace fusescope
