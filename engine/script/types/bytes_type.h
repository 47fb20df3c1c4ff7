#pragma once
// bytes and bytearray (CPython's Objects/bytesobject.c and bytearrayobject.c, the subset
// scripts use): sequences of ints in range(256), held as the bytes of a std::string. A
// bytearray is a bytes that methods and item assignment may change.

#include <map>
#include <string>
#include <string_view>

#include "script/value.h"

namespace fusescope {

struct BytesObject : Object {
    std::string data;
    bool isMutable = false;  // a bytearray
    std::string typeName() const override { return isMutable ? "bytearray" : "bytes"; }
    const TypeSlots* slots() const override;
};

Value makeBytes(std::string data, bool isMutable = false);
// The bytes of a bytes-like value (bytes, bytearray), or null.
const std::string* bytesData(const Value& value);
// ... or TypeError "a bytes-like object is required, not 'str'".
const std::string& requireBytes(Interpreter& in, const Value& value);
// repr(b): b'...' with CPython's quoting and escapes.
std::string bytesRepr(std::string_view data);

// str.encode(encoding='utf-8', errors='strict').
Value strEncode(Interpreter& in, const Value& self, CallArgs& args);
// int.to_bytes(length=1, byteorder='big', *, signed=False) and int.from_bytes(bytes,
// byteorder='big', *, signed=False), within the 64 bits of script ints.
Value intToBytes(Interpreter& in, const Value& self, CallArgs& args);
Value intFromBytes(Interpreter& in, CallArgs& args);

// The builtins bytes and bytearray, as types callable as constructors.
void addBytesBuiltins(std::map<std::string, Value, std::less<>>& builtins);

}  // namespace fusescope
