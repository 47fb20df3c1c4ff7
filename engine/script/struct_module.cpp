// _struct: what the script library's struct module packs and unpacks with (CPython's
// Modules/_struct.c): format strings with their byte orders, sizes and alignment, each
// format character's conversion and range check, and CPython's struct.error messages.
#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "core/half.h"
#include "script/interpreter.h"
#include "script/types/bytes_type.h"
#include "script/types/method_table.h"
#include "script/types/numbers.h"

namespace fusescope {

namespace {

// One run of a format character: `count` values (or, for s and p, one value of count bytes).
struct FormatItem {
    char code;
    size_t count;
    size_t size;    // of one value
    size_t offset;  // of the first value in the packed bytes
};

struct Layout {
    bool littleEndian = true;  // this machine's order, or the format's <, >, !
    std::vector<FormatItem> items;
    size_t size = 0;
    size_t values = 0;  // how many values pack takes and unpack returns
};

[[noreturn]] void structError(Interpreter& in, const std::string& message) { in.fail("struct.error", message); }

size_t sizeOf(char code, bool native) {
    switch (code) {
    case 'x': case 'c': case 'b': case 'B': case '?': case 's': case 'p': return 1;
    case 'h': case 'H': case 'e': return 2;
    case 'i': case 'I': case 'f': return 4;
    case 'l': case 'L': return native ? 8 : 4;
    case 'q': case 'Q': case 'd': case 'n': case 'N': case 'P': return 8;
    default: return 0;
    }
}

Layout parseFormat(Interpreter& in, const std::string& format) {
    Layout layout;
    size_t i = 0;
    bool native = true;
    if (!format.empty() && std::strchr("@=<>!", format[0])) {
        native = format[0] == '@';
        layout.littleEndian = format[0] == '@' || format[0] == '=' || format[0] == '<';
        ++i;
    }
    for (; i < format.size(); ++i) {
        if (std::isspace(static_cast<unsigned char>(format[i]))) continue;
        size_t count = 1;
        if (std::isdigit(static_cast<unsigned char>(format[i]))) {
            count = 0;
            while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) count = count * 10 + static_cast<size_t>(format[i++] - '0');
            if (i == format.size()) structError(in, "repeat count given without format specifier");
        }
        const char code = format[i];
        const size_t size = sizeOf(code, native);
        if (!size || (!native && std::strchr("nNP", code))) structError(in, "bad char in struct format");
        if (native && size > 1 && layout.size % size) layout.size += size - layout.size % size;  // native alignment
        layout.items.push_back({code, count, size, layout.size});
        const bool oneValue = code == 's' || code == 'p';
        layout.size += oneValue ? count : size * count;
        if (code != 'x') layout.values += oneValue ? 1 : count;
    }
    return layout;
}

// Integer codes' ranges and the words CPython's range error uses for them.
struct IntRange {
    __int128 low, high;
    std::string message;
};

IntRange rangeOf(char code, size_t size) {
    const bool isUnsigned = std::isupper(static_cast<unsigned char>(code));
    const __int128 high = isUnsigned ? (__int128{1} << (size * 8)) - 1 : (__int128{1} << (size * 8 - 1)) - 1;
    const __int128 low = isUnsigned ? 0 : -high - 1;
    if (code == 'b') return {low, high, "byte format requires -128 <= number <= 127"};
    if (code == 'B') return {low, high, "ubyte format requires 0 <= number <= 255"};
    if (code == 'h') return {low, high, "short format requires -32768 <= number <= 32767"};
    if (code == 'H') return {low, high, "ushort format requires 0 <= number <= 65535"};
    return {low, high, fmt::format("'{}' format requires {} <= number <= {}", code, static_cast<int64_t>(low), static_cast<uint64_t>(high))};
}

void putInteger(std::string& out, size_t at, uint64_t bits, size_t size, bool littleEndian) {
    for (size_t k = 0; k < size; ++k, bits >>= 8) out[littleEndian ? at + k : at + size - 1 - k] = static_cast<char>(bits & 0xFF);
}

uint64_t getInteger(const std::string& data, size_t at, size_t size, bool littleEndian) {
    uint64_t bits = 0;
    for (size_t k = 0; k < size; ++k) bits = (bits << 8) | static_cast<unsigned char>(data[littleEndian ? at + size - 1 - k : at + k]);
    return bits;
}

// d as float16, rounded to nearest even from the double itself (not through a float).
uint16_t doubleToHalf(Interpreter& in, double d, bool fromInt) {
    if (std::isfinite(d) && std::fabs(d) >= 65520.0) {  // rounds past the largest half, 65504
        if (fromInt) structError(in, "int too large to convert");
        in.fail("OverflowError", "float too large to pack with e format");
    }
    uint16_t best = floatToHalf(static_cast<float>(d));
    if (!std::isfinite(d)) return best;
    for (uint16_t candidate : {static_cast<uint16_t>(best - 1), static_cast<uint16_t>(best + 1)}) {
        const double a = std::fabs(halfToFloat(candidate) - d), b = std::fabs(halfToFloat(best) - d);
        if ((candidate & 0x7C00) != 0x7C00 && (a < b || (a == b && !(candidate & 1)))) best = candidate;
    }
    return best;
}

void packValue(Interpreter& in, const Layout& layout, const FormatItem& item, size_t at, const Value& v, std::string& out) {
    switch (item.code) {
    case 'c': {
        const std::string* b = bytesData(v);
        if (!b || b->size() != 1) structError(in, "char format requires a bytes object of length 1");
        out[at] = (*b)[0];
        return;
    }
    case '?': out[at] = in.truthy(v) ? 1 : 0; return;
    case 'e': case 'f': case 'd': {
        if (!v.isNumber()) structError(in, "required argument is not a float");
        const double d = floatOf(v);
        if (item.code == 'd') return putInteger(out, at, std::bit_cast<uint64_t>(d), 8, layout.littleEndian);
        if (item.code == 'e') return putInteger(out, at, doubleToHalf(in, d, !v.isFloat()), 2, layout.littleEndian);
        if (std::isfinite(d) && std::isinf(static_cast<float>(d))) in.fail("OverflowError", "float too large to pack with f format");
        return putInteger(out, at, std::bit_cast<uint32_t>(static_cast<float>(d)), 4, layout.littleEndian);
    }
    default: {
        if (!isIntLike(v)) structError(in, "required argument is not an integer");
        const int64_t n = intOf(v);
        const IntRange range = rangeOf(item.code, item.size);
        if (n < 0 && range.low == 0 && item.size >= 4) structError(in, "argument out of range");
        if (n < range.low || n > range.high) structError(in, range.message);
        putInteger(out, at, static_cast<uint64_t>(n), item.size, layout.littleEndian);
    }
    }
}

Value unpackValue(const Layout& layout, const FormatItem& item, const std::string& data, size_t at) {
    const uint64_t bits = getInteger(data, at, item.size, layout.littleEndian);
    switch (item.code) {
    case 'c': return makeBytes(std::string(1, data[at]));
    case '?': return Value(data[at] != 0);
    case 'e': return Value(static_cast<double>(halfToFloat(static_cast<uint16_t>(bits))));
    case 'f': return Value(static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(bits))));
    case 'd': return Value(std::bit_cast<double>(bits));
    default:
        if (std::isupper(static_cast<unsigned char>(item.code)) || item.size == 8) return Value(static_cast<int64_t>(bits));
        const uint64_t sign = uint64_t{1} << (item.size * 8 - 1);
        return Value(static_cast<int64_t>((bits ^ sign) - sign));  // sign-extended
    }
}

std::string pack(Interpreter& in, const Layout& layout, const ValueList& values) {
    if (values.size() != layout.values) structError(in, fmt::format("pack expected {} items for packing (got {})", layout.values, values.size()));
    std::string out(layout.size, '\0');
    size_t next = 0;
    for (const FormatItem& item : layout.items) {
        if (item.code == 'x') continue;
        if (item.code == 's' || item.code == 'p') {
            const std::string* b = bytesData(values[next++]);
            if (!b) structError(in, fmt::format("argument for '{}' must be a bytes object", item.code));
            const size_t room = item.code == 'p' ? (item.count ? item.count - 1 : 0) : item.count;
            const size_t n = std::min(b->size(), room);
            std::memcpy(out.data() + item.offset + (item.code == 'p'), b->data(), n);
            if (item.code == 'p' && item.count) out[item.offset] = static_cast<char>(std::min<size_t>(n, 255));
            continue;
        }
        for (size_t k = 0; k < item.count; ++k) packValue(in, layout, item, item.offset + k * item.size, values[next++], out);
    }
    return out;
}

Value unpack(const Layout& layout, const std::string& data, size_t offset) {
    ValueList values;
    for (const FormatItem& item : layout.items) {
        const size_t at = offset + item.offset;
        if (item.code == 'x') continue;
        if (item.code == 's') values.push_back(makeBytes(data.substr(at, item.count)));
        else if (item.code == 'p') values.push_back(makeBytes(item.count ? data.substr(at + 1, std::min<size_t>(static_cast<unsigned char>(data[at]), item.count - 1)) : ""));
        else
            for (size_t k = 0; k < item.count; ++k) values.push_back(unpackValue(layout, item, data, at + k * item.size));
    }
    return makeTuple(std::move(values));
}

const std::string& formatArgument(Interpreter& in, const CallArgs& a, const char* name) {
    if (a.args.empty()) in.fail("TypeError", fmt::format("{}() missing required argument 'format' (pos 1)", name));
    if (const std::string* b = bytesData(a.args[0])) return *b;
    if (!a.args[0].isString()) in.fail("TypeError", "Struct() argument 1 must be a str or bytes object, not " + pythonTypeName(a.args[0]));
    return a.args[0].asString();
}

// An offset into a buffer of `size` bytes for `needed` bytes: negative from the end, as
// CPython's unpack_from and pack_into take it, with their errors.
size_t placeIn(Interpreter& in, int64_t offset, size_t needed, size_t size, bool packing) {
    if (offset < 0) {
        if (offset + static_cast<int64_t>(size) < 0) structError(in, fmt::format("offset {} out of range for {}-byte buffer", offset, size));
        offset += static_cast<int64_t>(size);
    }
    if (static_cast<size_t>(offset) + needed > size) {
        if (packing) structError(in, fmt::format("pack_into requires a buffer of at least {} bytes for packing {} bytes at offset {} (actual buffer size is {})",
                                                 needed + static_cast<size_t>(offset), needed, offset, size));
        structError(in, fmt::format("unpack_from requires a buffer of at least {} bytes for unpacking {} bytes at offset {} (actual buffer size is {})",
                                    needed + static_cast<size_t>(offset), needed, offset, size));
    }
    return static_cast<size_t>(offset);
}

}  // namespace

Value makeStructModule(Interpreter& interp) {
    auto module = std::make_shared<ModuleObject>();
    module->name = "_struct";
    ClassPtr error = interp.moduleExceptionClass("struct", "error");
    module->attrs["error"] = Value(ObjectPtr(error));
    module->attrs["calcsize"] = makeBuiltin("calcsize", [](Interpreter& in, CallArgs& a) {
        return Value(static_cast<int64_t>(parseFormat(in, formatArgument(in, a, "calcsize")).size));
    });
    module->attrs["pack"] = makeBuiltin("pack", [](Interpreter& in, CallArgs& a) {
        const Layout layout = parseFormat(in, formatArgument(in, a, "pack"));
        return makeBytes(pack(in, layout, ValueList(a.args.begin() + 1, a.args.end())));
    });
    module->attrs["pack_into"] = makeBuiltin("pack_into", [](Interpreter& in, CallArgs& a) {
        const Layout layout = parseFormat(in, formatArgument(in, a, "pack_into"));
        auto* buffer = a.args.size() > 1 ? a.args[1].as<BytesObject>() : nullptr;
        if (!buffer || !buffer->isMutable) in.fail("TypeError", "argument must be read-write bytes-like object, not " + (a.args.size() > 1 ? pythonTypeName(a.args[1]) : "nothing"));
        if (a.args.size() < 3) in.fail("TypeError", "pack_into expected buffer argument");
        const std::string packed = pack(in, layout, ValueList(a.args.begin() + 3, a.args.end()));
        const size_t at = placeIn(in, intArgumentOr(in, a, 2, "offset", 0), layout.size, buffer->data.size(), true);
        buffer->data.replace(at, packed.size(), packed);
        return Value();
    });
    module->attrs["unpack"] = makeBuiltin("unpack", [](Interpreter& in, CallArgs& a) {
        const Layout layout = parseFormat(in, formatArgument(in, a, "unpack"));
        const std::string& data = requireBytes(in, a.args.size() > 1 ? a.args[1] : Value());
        if (data.size() != layout.size) structError(in, fmt::format("unpack requires a buffer of {} bytes", layout.size));
        return unpack(layout, data, 0);
    });
    module->attrs["unpack_from"] = makeBuiltin("unpack_from", [](Interpreter& in, CallArgs& a) {
        const Layout layout = parseFormat(in, formatArgument(in, a, "unpack_from"));
        const Value* buffer = a.kwarg("buffer");
        const std::string& data = requireBytes(in, buffer ? *buffer : a.args.size() > 1 ? a.args[1] : Value());
        return unpack(layout, data, placeIn(in, intArgumentOr(in, a, 2, "offset", 0), layout.size, data.size(), false));
    });
    module->attrs["iter_unpack"] = makeBuiltin("iter_unpack", [](Interpreter& in, CallArgs& a) {
        const Layout layout = parseFormat(in, formatArgument(in, a, "iter_unpack"));
        const std::string& data = requireBytes(in, a.args.size() > 1 ? a.args[1] : Value());
        if (layout.size == 0) structError(in, "cannot iteratively unpack with a struct of length 0");
        if (data.size() % layout.size)
            structError(in, fmt::format("iterative unpacking requires a buffer of a multiple of {} bytes", layout.size));
        ValueList records;
        for (size_t at = 0; at < data.size(); at += layout.size) records.push_back(unpack(layout, data, at));
        CallArgs iterArgs{{makeList(std::move(records))}, {}, a.where};
        return in.call(in.builtin("iter"), iterArgs);
    });
    return Value(ObjectPtr(module));
}

}  // namespace fusescope
