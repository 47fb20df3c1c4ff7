// bytes and bytearray: their slots, their own methods (decode, hex, join, bytearray's
// append/extend/pop/clear) and the str methods they share. Script strs are UTF-8 bytes and
// str's methods work on bytes, so those are str's, called with the bytes as a str and the
// results turned back into bytes (CPython's bytes_methods.c shares them the same way).
#include "script/types/bytes_type.h"

#include <set>

#include <fmt/format.h>

#include "script/interpreter.h"
#include "script/python_hash.h"
#include "script/set_operations.h"
#include "script/text_codecs.h"
#include "script/types/indexing.h"
#include "script/types/method_table.h"
#include "script/types/numbers.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

BytesObject& bytesOf(const Value& self) { return *self.as<BytesObject>(); }

Value sameKind(const Value& self, std::string data) { return makeBytes(std::move(data), bytesOf(self).isMutable); }

// A byte's value from an int-like item; ValueError outside range(256) (`what`: "bytes" or
// "byte", as CPython words it for bytes() and bytearray's).
char byteFrom(Interpreter& in, const Value& item, const char* what) {
    if (!isIntLike(item)) in.fail("TypeError", "'" + pythonTypeName(item) + "' object cannot be interpreted as an integer");
    const int64_t v = intOf(item);
    if (v < 0 || v > 255) in.fail("ValueError", std::string(what) + " must be in range(0, 256)");
    return static_cast<char>(v);
}

// An argument by position or keyword, or its default.
std::string stringArgument(Interpreter& in, const CallArgs& a, size_t position, const char* name, const char* fallback) {
    const Value v = argumentOr(a, position, name, Value(fallback));
    if (!v.isString()) in.fail("TypeError", fmt::format("argument '{}' must be str, not {}", name, pythonTypeName(v)));
    return v.asString();
}

Value decode(Interpreter& in, const Value& self, CallArgs& a) {
    return Value(decodeBytes(in, bytesOf(self).data, stringArgument(in, a, 0, "encoding", "utf-8"), stringArgument(in, a, 1, "errors", "strict")));
}

// b.hex() and b.hex(sep): two lowercase digits a byte, sep between bytes.
Value hex(Interpreter& in, const Value& self, CallArgs& a) {
    std::string sep;
    if (!a.args.empty()) {
        if (const std::string* b = bytesData(a.args[0])) sep = *b;
        else if (a.args[0].isString()) sep = a.args[0].asString();
        if (sep.size() != 1) in.fail("ValueError", "sep must be length 1.");
    }
    std::string out;
    for (char c : bytesOf(self).data) out += (out.empty() || sep.empty() ? "" : sep) + fmt::format("{:02x}", static_cast<unsigned char>(c));
    return Value(out);
}

Value join(Interpreter& in, const Value& self, CallArgs& a) {
    std::string out;
    size_t index = 0;
    for (const Value& item : in.iterate(a.args[0])) {
        const std::string* part = bytesData(item);
        if (!part) in.fail("TypeError", fmt::format("sequence item {}: expected a bytes-like object, {} found", index, pythonTypeName(item)));
        if (index++) out += bytesOf(self).data;
        out += *part;
    }
    return sameKind(self, out);
}

Value append(Interpreter& in, const Value& self, CallArgs& a) {
    bytesOf(self).data += byteFrom(in, a.args[0], "byte");
    return Value();
}

Value extend(Interpreter& in, const Value& self, CallArgs& a) {
    std::string added;
    if (const std::string* b = bytesData(a.args[0])) added = *b;
    else
        for (const Value& item : in.iterate(a.args[0])) added += byteFrom(in, item, "byte");
    bytesOf(self).data += added;
    return Value();
}

Value pop(Interpreter& in, const Value& self, CallArgs& a) {
    std::string& data = bytesOf(self).data;
    if (data.empty()) in.fail("IndexError", "pop from empty bytearray");
    const int64_t at = normaliseIndex(a.args.empty() ? -1 : intOf(a.args[0]), static_cast<int64_t>(data.size()), in, "pop");
    const auto byte = static_cast<unsigned char>(data[at]);
    data.erase(static_cast<size_t>(at), 1);
    return Value(static_cast<int64_t>(byte));
}

Value clear(Interpreter&, const Value& self, CallArgs&) {
    bytesOf(self).data.clear();
    return Value();
}

const MethodTable& bytesMethods() {
    static const MethodTable table("bytes", {
        {"decode", decode, 0, 2},
        {"hex", hex, 0, 1},
        {"join", join, 1, 1},
    });
    return table;
}

const MethodTable& bytearrayMethods() {
    static const MethodTable table("bytearray", {
        {"append", append, 1, 1},
        {"extend", extend, 1, 1},
        {"pop", pop, 0, 1},
        {"clear", clear, 0, 0},
    });
    return table;
}

// The str methods bytes share: called on the bytes as a str, bytes arguments as strs.
bool sharedWithStr(std::string_view name) {
    static const std::set<std::string_view> names = {
        "upper", "lower", "capitalize", "title", "swapcase", "strip", "lstrip", "rstrip", "startswith", "endswith",
        "removeprefix", "removesuffix", "replace", "partition", "rpartition", "find", "rfind", "index", "rindex",
        "count", "isdigit", "isalpha", "isspace", "isalnum", "islower", "isupper", "ljust", "rjust", "splitlines",
        "split", "expandtabs"};
    return names.count(name) > 0;
}

Value asStrArgument(Interpreter& in, const Value& v) {
    if (const std::string* b = bytesData(v)) return Value(*b);
    if (v.isString()) in.fail("TypeError", "a bytes-like object is required, not 'str'");
    if (const auto* tuple = v.as<TupleObject>()) {  // startswith((b'a', b'b'))
        ValueList items;
        for (const Value& item : tuple->items) items.push_back(asStrArgument(in, item));
        return makeTuple(std::move(items));
    }
    return v;
}

Value asBytesResult(const Value& self, const Value& v) {
    if (v.isString()) return sameKind(self, v.asString());
    if (const ValueList* items = sequenceItems(v)) {
        ValueList converted;
        for (const Value& item : *items) converted.push_back(asBytesResult(self, item));
        return v.as<ListObject>() ? makeList(std::move(converted)) : makeTuple(std::move(converted));
    }
    return v;
}

Value bytesAttribute(Interpreter& in, const Value& self, std::string_view name) {
    if (self.as<BytesObject>()->isMutable)
        if (auto method = bytesMethods().bind(self, name)) return *method;
    const NativeMethod* method = sharedWithStr(name) ? strMethods().find(name) : nullptr;
    if (!method) in.fail("AttributeError", fmt::format("'{}' object has no attribute '{}'", pythonTypeName(self), name));
    return makeBuiltin(std::string(name), [method, self](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, method->minArgs, method->maxArgs, method->name);
        CallArgs converted{{}, a.kwargs, a.where};
        for (const Value& arg : a.args) converted.args.push_back(asStrArgument(in, arg));
        StrMethodsOnBytes bytewise;
        return asBytesResult(self, method->call(in, Value(bytesOf(self).data), converted));
    });
}

Value bytesItem(Interpreter& in, const Value& self, const Value& index) {
    const std::string& data = bytesOf(self).data;
    if (auto* slice = index.as<SliceObject>()) {
        std::string out;
        for (int64_t i : sliceIndices(*slice, static_cast<int64_t>(data.size()), in)) out += data[i];
        return sameKind(self, out);
    }
    if (!isIntLike(index)) in.fail("TypeError", "byte indices must be integers or slices, not " + pythonTypeName(index));
    int64_t at = intOf(index);
    if (at < 0) at += static_cast<int64_t>(data.size());
    if (at < 0 || at >= static_cast<int64_t>(data.size())) in.fail("IndexError", bytesOf(self).isMutable ? "bytearray index out of range" : "index out of range");
    return Value(static_cast<int64_t>(static_cast<unsigned char>(data[at])));
}

// bytearray[i] = byte; bytearray[a:b] = bytes-like or ints (an extended slice of as many).
void setBytearrayItem(Interpreter& in, const Value& self, const Value& index, const Value& value) {
    std::string& data = bytesOf(self).data;
    const auto size = static_cast<int64_t>(data.size());
    if (auto* slice = index.as<SliceObject>()) {
        std::string replacement;
        if (const std::string* b = bytesData(value)) replacement = *b;
        else
            for (const Value& item : in.iterate(value)) replacement += byteFrom(in, item, "byte");
        const SliceBounds bounds = sliceBounds(*slice, size, in);
        if (bounds.step == 1) {
            const int64_t stop = std::max(bounds.start, bounds.stop);
            data.replace(static_cast<size_t>(bounds.start), static_cast<size_t>(stop - bounds.start), replacement);
            return;
        }
        const std::vector<int64_t> at = sliceIndices(*slice, size, in);
        if (at.size() != replacement.size())
            in.fail("ValueError", fmt::format("attempt to assign bytes of size {} to extended slice of size {}", replacement.size(), at.size()));
        for (size_t k = 0; k < at.size(); ++k) data[at[k]] = replacement[k];
        return;
    }
    if (!isIntLike(index)) in.fail("TypeError", "bytearray indices must be integers or slices, not " + pythonTypeName(index));
    data[normaliseIndex(intOf(index), size, in, "bytearray")] = byteFrom(in, value, "byte");
}

std::optional<Value> compareBytes(Interpreter&, CompareOperator op, const Value& left, const Value& right) {
    const std::string *a = bytesData(left), *b = bytesData(right);
    if (!a || !b) return std::nullopt;
    const int c = a->compare(*b);
    return Value(orderedAs(op, c < 0 ? -1 : c > 0 ? 1 : 0));
}

bool containsInBytes(Interpreter& in, const Value& self, const Value& item) {
    const std::string& data = bytesOf(self).data;
    if (isIntLike(item)) return data.find(byteFrom(in, item, "byte")) != std::string::npos;
    return data.find(requireBytes(in, item)) != std::string::npos;
}

Value concatBytes(Interpreter& in, const Value& self, const Value& other) {
    const std::string* b = bytesData(other);
    if (!b) in.fail("TypeError", fmt::format("can't concat {} to {}", pythonTypeName(other), pythonTypeName(self)));
    return sameKind(self, bytesOf(self).data + *b);
}

Value repeatBytes(Interpreter& in, const Value& self, const Value& count) {
    const Value& bytes = self.as<BytesObject>() ? self : count;
    const Value& times = self.as<BytesObject>() ? count : self;
    if (!isIntLike(times)) in.fail("TypeError", "can't multiply sequence by non-int of type '" + pythonTypeName(times) + "'");
    std::string out;
    for (int64_t i = 0; i < intOf(times); ++i) out += bytesOf(bytes).data;
    return sameKind(bytes, out);
}

ValueList byteItems(Interpreter&, const Value& self) {
    ValueList items;
    for (char c : bytesOf(self).data) items.emplace_back(static_cast<int64_t>(static_cast<unsigned char>(c)));
    return items;
}

int64_t bytesLength(Interpreter&, const Value& self) { return static_cast<int64_t>(bytesOf(self).data.size()); }
bool bytesTruth(Interpreter&, const Value& self) { return !bytesOf(self).data.empty(); }

// bytes(), bytes(n), bytes(str, encoding[, errors]), bytes(bytes-like), bytes(iterable of ints).
std::string bytesFromArguments(Interpreter& in, const CallArgs& a, const char* type) {
    const Value* source = a.args.empty() ? a.kwarg("source") : &a.args[0];
    const Value* encoding = a.args.size() > 1 ? &a.args[1] : a.kwarg("encoding");
    const Value* errors = a.args.size() > 2 ? &a.args[2] : a.kwarg("errors");
    if (!source) return {};
    if (source->isString()) {
        if (!encoding) in.fail("TypeError", "string argument without an encoding");
        return encodeText(in, source->asString(), valueStr(*encoding), errors ? valueStr(*errors) : "strict");
    }
    if (encoding || errors) in.fail("TypeError", encoding ? "encoding without a string argument" : "errors without a string argument");
    if (isIntLike(*source)) {
        if (intOf(*source) < 0) in.fail("ValueError", "negative count");
        return std::string(static_cast<size_t>(intOf(*source)), '\0');
    }
    if (const std::string* b = bytesData(*source)) return *b;
    if (!slotsOf(*source)->items && !slotsOf(*source)->iterate && !slotsOf(*source)->next && !instanceClass(*source))
        in.fail("TypeError", fmt::format("cannot convert '{}' object to {}", pythonTypeName(*source), type));
    std::string out;
    for (const Value& item : in.iterate(*source)) out += byteFrom(in, item, std::string_view(type) == "bytes" ? "bytes" : "byte");
    return out;
}

int hexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// bytes.fromhex('de ad'): pairs of hex digits, whitespace between pairs.
std::string fromHex(Interpreter& in, const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size();) {
        if (std::isspace(static_cast<unsigned char>(text[i]))) {
            ++i;
            continue;
        }
        const int high = hexDigit(text[i]);
        const int low = i + 1 < text.size() ? hexDigit(text[i + 1]) : -1;
        if (high < 0 || low < 0)
            in.fail("ValueError", fmt::format("non-hexadecimal number found in fromhex() arg at position {}", high < 0 ? i : i + 1));
        out += static_cast<char>(high * 16 + low);
        i += 2;
    }
    return out;
}

Value bytesType(const char* name, bool isMutable) {
    Value type = makeType(name, [name, isMutable](Interpreter& in, CallArgs& a) {
        if (a.args.size() > 3) in.fail("TypeError", fmt::format("{}() takes at most 3 arguments ({} given)", name, a.args.size()));
        return makeBytes(bytesFromArguments(in, a, name), isMutable);
    });
    type.as<TypeObject>()->attrs["fromhex"] = makeBuiltin(std::string(name) + ".fromhex", [isMutable](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 1, 1, "fromhex");
        if (!a.args[0].isString()) in.fail("TypeError", "fromhex() argument must be str, not " + pythonTypeName(a.args[0]));
        return makeBytes(fromHex(in, a.args[0].asString()), isMutable);
    });
    return type;
}

bool bigEndian(Interpreter& in, const Value& byteorder) {
    if (!byteorder.isString()) in.fail("TypeError", "to_bytes() argument 'byteorder' must be str, not " + pythonTypeName(byteorder));
    if (byteorder.asString() != "big" && byteorder.asString() != "little") in.fail("ValueError", "byteorder must be either 'little' or 'big'");
    return byteorder.asString() == "big";
}

}  // namespace

Value strEncode(Interpreter& in, const Value& self, CallArgs& a) {
    return makeBytes(encodeText(in, self.asString(), stringArgument(in, a, 0, "encoding", "utf-8"), stringArgument(in, a, 1, "errors", "strict")));
}

Value intToBytes(Interpreter& in, const Value& self, CallArgs& a) {
    const Value length = argumentOr(a, 0, "length", Value(int64_t{1}));
    if (!isIntLike(length)) in.fail("TypeError", "'" + pythonTypeName(length) + "' object cannot be interpreted as an integer");
    if (intOf(length) < 0) in.fail("ValueError", "length argument must be non-negative");
    const bool big = bigEndian(in, argumentOr(a, 1, "byteorder", Value("big")));
    const bool isSigned = in.truthy(argumentOr(a, 99, "signed", Value(false)));
    const int64_t v = intOf(self);
    if (v < 0 && !isSigned) in.fail("OverflowError", "can't convert negative int to unsigned");
    const auto n = static_cast<size_t>(intOf(length));
    const int bits = static_cast<int>(n * 8);
    const bool fits = n == 0 ? v == 0
                      : n >= 8 ? true
                      : isSigned ? v >= -(int64_t{1} << (bits - 1)) && v < (int64_t{1} << (bits - 1))
                                 : v < (int64_t{1} << bits);
    if (!fits) in.fail("OverflowError", "int too big to convert");
    std::string out(n, v < 0 ? '\xff' : '\0');
    auto u = static_cast<uint64_t>(v);
    for (size_t k = 0; k < std::min<size_t>(n, 8); ++k, u >>= 8) out[big ? n - 1 - k : k] = static_cast<char>(u & 0xFF);
    return makeBytes(out);
}

Value intFromBytes(Interpreter& in, CallArgs& a) {
    const Value source = argumentOr(a, 0, "bytes", Value());
    std::string data;
    if (const std::string* b = bytesData(source)) data = *b;
    else data = bytesFromArguments(in, CallArgs{{source}, {}, a.where}, "bytes");
    const bool big = bigEndian(in, argumentOr(a, 1, "byteorder", Value("big")));
    const bool isSigned = in.truthy(argumentOr(a, 99, "signed", Value(false)));
    if (!big) std::reverse(data.begin(), data.end());
    const bool negative = isSigned && !data.empty() && (data[0] & 0x80);
    const size_t first = std::min(data.find_first_not_of(negative ? '\xff' : '\0'), data.size());  // past the sign's bytes
    if (data.size() - first > 9) in.fail("OverflowError", "int.from_bytes(): the value does not fit in 64 bits (script ints are 64-bit)");
    __int128 v = negative ? -1 : 0;
    for (size_t k = first; k < data.size(); ++k) v = v * 256 + static_cast<unsigned char>(data[k]);
    if (v > INT64_MAX || v < INT64_MIN) in.fail("OverflowError", "int.from_bytes(): the value does not fit in 64 bits (script ints are 64-bit)");
    return Value(static_cast<int64_t>(v));
}

const TypeSlots* BytesObject::slots() const {
    static const TypeSlots bytes{.name = "bytes", .methods = &bytesMethods(), .getattr = bytesAttribute, .items = byteItems,
                                 .concat = concatBytes, .repeat = repeatBytes, .compare = compareBytes,
                                 .hash = [](Interpreter&, const Value& self) { return python_hash::ofString(bytesOf(self).data); },
                                 .getitem = bytesItem, .length = bytesLength, .truth = bytesTruth, .contains = containsInBytes,
                                 .repr = [](const Value& self) { return bytesRepr(bytesOf(self).data); }};
    static const TypeSlots bytearray{.name = "bytearray", .methods = &bytearrayMethods(), .getattr = bytesAttribute, .items = byteItems,
                                     .methodsStore = true, .concat = concatBytes, .repeat = repeatBytes, .compare = compareBytes,
                                     .hash = unhashable, .getitem = bytesItem, .setitem = setBytearrayItem, .length = bytesLength,
                                     .truth = bytesTruth, .contains = containsInBytes,
                                     .inplace = [](Interpreter& in, BinaryOperator op, const Value& self, const Value& other) -> std::optional<Value> {
                                         if (op != BinaryOperator::Add) return std::nullopt;
                                         bytesOf(self).data += requireBytes(in, other);
                                         return self;
                                     },
                                     .repr = [](const Value& self) { return "bytearray(" + bytesRepr(bytesOf(self).data) + ")"; }};
    return isMutable ? &bytearray : &bytes;
}

Value makeBytes(std::string data, bool isMutable) {
    auto bytes = std::make_shared<BytesObject>();
    bytes->data = std::move(data);
    bytes->isMutable = isMutable;
    return Value(ObjectPtr(bytes));
}

const std::string* bytesData(const Value& value) {
    const auto* bytes = value.as<BytesObject>();
    return bytes ? &bytes->data : nullptr;
}

const std::string& requireBytes(Interpreter& in, const Value& value) {
    const std::string* data = bytesData(value);
    if (!data) in.fail("TypeError", "a bytes-like object is required, not '" + pythonTypeName(value) + "'");
    return *data;
}

std::string bytesRepr(std::string_view data) {
    const bool single = data.find('\'') == std::string_view::npos || data.find('"') != std::string_view::npos;
    const char quote = single ? '\'' : '"';
    std::string out = "b";
    out += quote;
    for (char c : data) {
        const auto u = static_cast<unsigned char>(c);
        if (c == quote || c == '\\') out += '\\', out += c;
        else if (c == '\t') out += "\\t";
        else if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (u < 0x20 || u >= 0x7f) out += fmt::format("\\x{:02x}", u);
        else out += c;
    }
    return out + quote;
}

void addBytesBuiltins(std::map<std::string, Value, std::less<>>& builtins) {
    builtins["bytes"] = bytesType("bytes", false);
    builtins["bytearray"] = bytesType("bytearray", true);
}

}  // namespace fusescope
