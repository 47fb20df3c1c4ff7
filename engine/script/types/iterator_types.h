#pragma once
// Iterators over other iterables, lazy as Python 3's: map, filter, zip, enumerate and
// iter(callable, sentinel), each taking an item from its sources only when asked for one.

#include <map>
#include <optional>
#include <string>

#include "script/value.h"

namespace fusescope {

Value iteratorOf(Interpreter& in, const Value& iterable);  // iter(iterable)
// The iterator's next item, or nullopt at its end (a user iterator's StopIteration).
std::optional<Value> nextOf(Interpreter& in, const Value& iterator);
Value callableIterator(Interpreter& in, const Value& callable, const Value& sentinel);  // iter(f, sentinel)
// map, filter, zip and enumerate.
void addIteratorBuiltins(std::map<std::string, Value, std::less<>>& builtins);

}  // namespace fusescope
