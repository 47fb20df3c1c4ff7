// Python builtins of the script subset: print len range zip enumerate round abs min max
// sum tuple list dict float int bool str any all sorted reversed repr. The object model's
// builtins (object, type, isinstance, exceptions, ...) are in object_builtins.cpp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "script/graph_break_kinds.h"
#include "script/interpreter.h"
#include "script/utf8.h"
#include "script/set_operations.h"
#include "script/types/bytes_type.h"
#include "script/types/method_table.h"
#include "script/types/type_slots.h"
#include "script/types/iterator_types.h"
#include "script/whole_float.h"

namespace fusescope {

namespace {

// int(text, base) as CPython reads it: blanks around, a sign, a 0x/0o/0b prefix (required by
// base 0, allowed by its own base), underscores between digits; 64-bit, as script ints are.
int64_t parseIntLiteral(Interpreter& in, const std::string& text, int64_t base) {
    if (base != 0 && (base < 2 || base > 36)) in.fail("ValueError", "int() base must be >= 2 and <= 36, or 0");
    auto invalid = [&]() -> int64_t {
        in.fail("ValueError", fmt::format("invalid literal for int() with base {}: {}", base, valueRepr(Value(text))));
    };
    size_t i = text.find_first_not_of(" \t\n\r\f\v"), end = text.find_last_not_of(" \t\n\r\f\v");
    if (i == std::string::npos) return invalid();
    ++end;
    const bool negative = text[i] == '-';
    if (text[i] == '-' || text[i] == '+') ++i;
    int64_t radix = base;
    bool afterPrefix = false;  // an underscore may follow a prefix directly
    if (i + 1 < end && text[i] == '0') {
        const char p = static_cast<char>(std::tolower(static_cast<unsigned char>(text[i + 1])));
        const int64_t prefixed = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
        if (prefixed && (base == 0 || base == prefixed)) radix = prefixed, i += 2, afterPrefix = true;
    }
    if (radix == 0) radix = 10;
    uint64_t magnitude = 0;
    bool digits = false, lastUnderscore = false, overflow = false;
    for (; i < end; ++i) {
        const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
        if (c == '_') {
            if (lastUnderscore || (!digits && !afterPrefix)) return invalid();
            lastUnderscore = true;
            continue;
        }
        const int digit = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : std::isalpha(static_cast<unsigned char>(c)) ? c - 'a' + 10 : 99;
        if (digit >= radix) return invalid();
        overflow = overflow || magnitude > (UINT64_MAX - static_cast<uint64_t>(digit)) / static_cast<uint64_t>(radix);
        magnitude = magnitude * static_cast<uint64_t>(radix) + static_cast<uint64_t>(digit);
        digits = true, lastUnderscore = false;
    }
    if (!digits || lastUnderscore) return invalid();
    // base 0 keeps Python's rule that a decimal literal has no leading zeros ("010").
    if (base == 0 && radix == 10 && magnitude != 0 && text[text.find_first_not_of(" \t\n\r\f\v+-")] == '0') return invalid();
    const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
    if (overflow || magnitude > limit) in.fail("OverflowError", "integer overflow (script ints are 64-bit)");
    return negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
}

void expectCount(Interpreter& in, const CallArgs& a, size_t lo, size_t hi, const char* name) {
    if (a.args.size() < lo || a.args.size() > hi) {
        std::string expected = lo == hi ? std::to_string(lo) : fmt::format("{} to {}", lo, hi);
        in.fail("TypeError", fmt::format("{}() takes {} positional argument(s) but {} were given", name, expected,
                                         a.args.size()));
    }
}

int64_t toInt(Interpreter& in, const Value& v, const char* what) {
    if (v.isInt()) return v.asInt();
    if (v.isBool()) return v.asBool() ? 1 : 0;
    in.fail("TypeError", fmt::format("'{}' object cannot be interpreted as an integer ({})", pythonTypeName(v), what));
}

// Python's round(x, n): rounds the exact binary value of x (so round(2.675, 2) is 2.67,
// as 2.675 is stored as 2.67499...). fmt's fixed formatting is exactly that rounding.
double roundDigits(double x, int64_t n) {
    if (!std::isfinite(x)) return x;
    if (n >= 0) return std::stod(fmt::format("{:.{}f}", x, std::min<int64_t>(n, 340)));
    double scale = std::pow(10.0, static_cast<double>(-n));
    return std::nearbyint(x / scale) * scale;  // ties to even
}

// Python's round(v, -places) of an int, exactly (halves to even), or nullopt when the result
// does not fit in 64 bits. Doubles would lose the low digits of large ints.
std::optional<int64_t> roundIntDigits(int64_t v, int64_t places) {
    if (places > 38) return int64_t{0};  // 10**39 exceeds every int64 many times over
    __int128 unit = 1;
    for (int64_t i = 0; i < places; ++i) unit *= 10;
    __int128 quotient = v / unit, remainder = v % unit;
    if (remainder < 0) remainder += unit, quotient -= 1;  // floor division
    if (remainder > unit - remainder || (remainder == unit - remainder && quotient % 2 != 0)) quotient += 1;
    __int128 result = quotient * unit;
    if (result > INT64_MAX || result < INT64_MIN) return std::nullopt;
    return static_cast<int64_t>(result);
}

Value extremum(Interpreter& in, CallArgs& a, bool wantMax) {
    const char* name = wantMax ? "max" : "min";
    ValueList items = a.args.size() == 1 ? in.iterate(a.args[0]) : a.args;
    if (items.empty()) {
        if (const Value* d = a.kwarg("default")) return *d;
        in.fail("ValueError", std::string(name) + "() arg is an empty sequence");
    }
    Value best = items[0];
    for (size_t i = 1; i < items.size(); ++i) {
        CompareOperator op = wantMax ? CompareOperator::Gt : CompareOperator::Lt;
        if (in.truthy(in.evalCompare(op, items[i], best, in.currentSite()))) best = items[i];
    }
    return best;
}

}  // namespace

ValueList sortedValues(Interpreter& in, const ValueList& items, CallArgs& a) {
    bool reverse = a.kwarg("reverse") && in.truthy(*a.kwarg("reverse"));
    const Value* key = a.kwarg("key");
    std::vector<std::pair<Value, Value>> keyed;
    for (const Value& v : items) {
        CallArgs ka;
        ka.args.push_back(v);
        keyed.emplace_back(key && !key->isNone() ? in.call(*key, ka) : v, v);
    }
    // reverse=True keeps equal items in their original order, as Python's does.
    std::stable_sort(keyed.begin(), keyed.end(), [&](const auto& x, const auto& y) {
        const Value& lo = reverse ? y.first : x.first;
        const Value& hi = reverse ? x.first : y.first;
        return in.truthy(in.evalCompare(CompareOperator::Lt, lo, hi, in.currentSite()));
    });
    ValueList out;
    for (auto& kv : keyed) out.push_back(kv.second);
    return out;
}

void addPythonBuiltins(std::map<std::string, Value, std::less<>>& b) {
    addIteratorBuiltins(b);
    b["print"] = makeBuiltin("print", [](Interpreter& in, CallArgs& a) {
        if (in.tracer()) in.tracer()->graphBreak(graph_breaks::builtinCall("print", a.args, !a.kwargs.empty()));
        std::string sep = " ", end = "\n";
        if (const Value* v = a.kwarg("sep"); v && !v->isNone()) sep = valueStr(*v);
        if (const Value* v = a.kwarg("end"); v && !v->isNone()) end = valueStr(*v);
        for (const auto& [k, _] : a.kwargs)
            if (k != "sep" && k != "end" && k != "flush" && k != "file")
                in.fail("TypeError", "print() got an unsupported keyword argument '" + k + "'");
        std::string out;
        for (size_t i = 0; i < a.args.size(); ++i) {
            if (i) out += sep;
            out += valueStr(a.args[i]);
        }
        if (const Value* file = a.kwarg("file"); file && !file->isNone()) {  // sys.stderr, or any object with write()
            CallArgs text{.args = {Value(out + end)}, .kwargs = {}, .where = a.where};
            in.call(in.getAttribute(*file, "write", a.where), text);
            return Value();
        }
        in.host().writeStdout(out + end);
        return Value();
    });
    b["len"] = makeBuiltin("len", [](Interpreter& in, CallArgs& a) {
        expectCount(in, a, 1, 1, "len");
        return Value(in.length(a.args[0]));
    });
    b["range"] = makeType("range", [](Interpreter& in, CallArgs& a) {
        expectCount(in, a, 1, 3, "range");
        auto r = std::make_shared<RangeObject>();
        if (a.args.size() == 1) {
            r->stop = toInt(in, a.args[0], "range");
        } else {
            r->start = toInt(in, a.args[0], "range");
            r->stop = toInt(in, a.args[1], "range");
            if (a.args.size() == 3) r->step = toInt(in, a.args[2], "range");
        }
        if (r->step == 0) in.fail("ValueError", "range() arg 3 must not be zero");
        return Value(ObjectPtr(r));
    });
    b["round"] = makeBuiltin("round", [](Interpreter& in, CallArgs& a) {
        expectCount(in, a, 1, 2, "round");
        const Value& x = a.args[0];
        bool hasDigits = a.args.size() == 2 && !a.args[1].isNone();
        if (x.isTensor()) {
            ValueList args{x};
            std::vector<std::pair<std::string, Value>> kwargs;
            if (hasDigits) kwargs.emplace_back("decimals", a.args[1]);
            return in.callOp("round", CallStyle::TorchFunction, args, kwargs, in.currentSite());
        }
        if (x.isInt() || x.isBool()) {
            int64_t v = toInt(in, x, "round");
            if (!hasDigits || toInt(in, a.args[1], "round") >= 0) return Value(v);
            std::optional<int64_t> rounded = roundIntDigits(v, -toInt(in, a.args[1], "round"));
            if (!rounded) in.fail("OverflowError", "integer overflow (script ints are 64-bit)");
            return Value(*rounded);
        }
        if (!x.isFloat()) in.fail("TypeError", "type " + pythonTypeName(x) + " doesn't define __round__ method");
        if (!hasDigits) {
            return Value(wholeFloatToInt(in, std::nearbyint(x.asFloat())));
        }
        return Value(roundDigits(x.asFloat(), toInt(in, a.args[1], "round")));
    });
    b["abs"] = makeBuiltin("abs", [](Interpreter& in, CallArgs& a) {
        expectCount(in, a, 1, 1, "abs");
        const Value& x = a.args[0];
        if (x.isTensor()) return in.callOp("abs", CallStyle::TorchFunction, {x}, {}, in.currentSite());
        if (x.isFloat()) return Value(std::fabs(x.asFloat()));
        int64_t v = toInt(in, x, "abs");
        if (v == INT64_MIN) in.fail("OverflowError", "integer overflow (script ints are 64-bit)");
        return Value(v < 0 ? -v : v);
    });
    b["min"] = makeBuiltin("min", [](Interpreter& in, CallArgs& a) { return extremum(in, a, false); });
    b["max"] = makeBuiltin("max", [](Interpreter& in, CallArgs& a) { return extremum(in, a, true); });
    b["sum"] = makeBuiltin("sum", [](Interpreter& in, CallArgs& a) {
        expectCount(in, a, 1, 2, "sum");
        Value total = a.args.size() > 1 ? a.args[1] : Value(int64_t{0});
        if (const Value* s = a.kwarg("start")) total = *s;
        for (const Value& v : in.iterate(a.args[0])) total = in.evalBinary(BinaryOperator::Add, total, v, in.currentSite());
        return total;
    });
    // any and all stop at the first item that decides, as Python's: a generator is not run on.
    for (const bool wantTrue : {true, false})
        b[wantTrue ? "any" : "all"] = makeBuiltin(wantTrue ? "any" : "all", [wantTrue](Interpreter& in, CallArgs& a) {
            expectCount(in, a, 1, 1, wantTrue ? "any" : "all");
            bool decided = false;
            in.forEachItem(a.args[0], [&](const Value& v) {
                decided = in.truthy(v) == wantTrue;
                return !decided;
            });
            return Value(decided == wantTrue);
        });
    b["sorted"] = makeBuiltin("sorted", [](Interpreter& in, CallArgs& a) {
        expectCount(in, a, 1, 1, "sorted");
        return makeList(sortedValues(in, in.iterate(a.args[0]), a));
    });
    b["reversed"] = makeBuiltin("reversed", [](Interpreter& in, CallArgs& a) {
        expectCount(in, a, 1, 1, "reversed");
        ValueList items = in.iterate(a.args[0]);
        std::reverse(items.begin(), items.end());
        return makeList(items);
    });
    // divmod(a, b): (a // b, a % b), each as its operator computes it (numbers, tensors, __divmod__ aside).
    b["divmod"] = makeBuiltin("divmod", [](Interpreter& in, CallArgs& a) {
        expectCount(in, a, 2, 2, "divmod");
        if (auto v = in.callSpecial(a.args[0], "__divmod__", {a.args[1]})) return *v;
        CallSite site;
        site.where = a.where;
        return makeTuple({in.evalBinary(BinaryOperator::FloorDiv, a.args[0], a.args[1], site),
                          in.evalBinary(BinaryOperator::Mod, a.args[0], a.args[1], site)});
    });
    b["ord"] = makeBuiltin("ord", [](Interpreter& in, CallArgs& a) {
        expectCount(in, a, 1, 1, "ord");
        if (!a.args[0].isString()) in.fail("TypeError", "ord() expected string of length 1, but " + pythonTypeName(a.args[0]) + " found");
        const std::vector<uint32_t> points = codePoints(a.args[0].asString());
        if (points.size() != 1)
            in.fail("TypeError", fmt::format("ord() expected a character, but string of length {} found", points.size()));
        return Value(static_cast<int64_t>(points[0]));
    });
    b["chr"] = makeBuiltin("chr", [](Interpreter& in, CallArgs& a) {
        expectCount(in, a, 1, 1, "chr");
        if (!a.args[0].isInt()) in.fail("TypeError", "'" + pythonTypeName(a.args[0]) + "' object cannot be interpreted as an integer");
        const int64_t code = a.args[0].asInt();
        if (code < 0 || code > 0x10FFFF) in.fail("ValueError", "chr() arg not in range(0x110000)");
        std::string out;
        appendUtf8(out, static_cast<uint32_t>(code));
        return Value(out);
    });
    // exit() and quit() (site's, in every CPython script): SystemExit, as sys.exit.
    for (const char* name : {"exit", "quit"})
        b[name] = makeBuiltin(name, [name](Interpreter& in, CallArgs& a) -> Value {
            expectCount(in, a, 0, 1, name);
            in.raise("SystemExit", a.args);
        });
    b["format"] = makeBuiltin("format", [](Interpreter& in, CallArgs& a) {
        expectCount(in, a, 1, 2, "format");
        if (a.args.size() == 2 && !a.args[1].isString())
            in.fail("TypeError", "format() argument 2 must be str, not " + pythonTypeName(a.args[1]));
        return Value(in.formatValue(a.args[0], a.args.size() == 2 ? a.args[1].asString() : std::string()));
    });
    b["repr"] = makeBuiltin("repr", [](Interpreter& in, CallArgs& a) {
        expectCount(in, a, 1, 1, "repr");
        if (a.args[0].isTensor()) in.realTensor(a.args[0].asTensor(), graph_breaks::tensorRepr);
        return Value(in.repr(a.args[0]));
    });
    // Types, callable as conversions.
    b["int"] = makeType("int", [](Interpreter& in, CallArgs& a) -> Value {
        expectCount(in, a, 0, 2, "int");
        if (a.args.empty()) return Value(int64_t{0});
        const Value& x = a.args[0];
        const Value base = argumentOr(a, 1, "base");
        if (!base.isNone()) {
            if (!base.isInt()) in.fail("TypeError", "'" + pythonTypeName(base) + "' object cannot be interpreted as an integer");
            if (!x.isString() && !bytesData(x)) in.fail("TypeError", "int() can't convert non-string with explicit base");
        }
        if (x.isString() || bytesData(x)) return Value(parseIntLiteral(in, x.isString() ? x.asString() : *bytesData(x), base.isNone() ? 10 : base.asInt()));
        if (x.isTensor()) {
            Tensor t = in.realTensor(x.asTensor(), graph_breaks::itemCall);
            if (t.numel() != 1) in.fail("ValueError", "only one element tensors can be converted to Python scalars");
            return Value(wholeFloatToInt(in, std::trunc(t.item())));
        }
        if (x.isFloat()) return Value(wholeFloatToInt(in, std::trunc(x.asFloat())));
        if (x.isInt() || x.isBool()) return Value(toInt(in, x, "int"));
        for (const char* special : {"__int__", "__index__"})  // an object's own conversion
            if (auto v = in.callSpecial(x, special, {})) {
                if (!v->isInt() && !v->isBool()) in.fail("TypeError", fmt::format("{} returned non-int (type {})", special, pythonTypeName(*v)));
                return Value(toInt(in, *v, "int"));
            }
        in.fail("TypeError", "int() argument must be a string, a bytes-like object or a real number, not '" + pythonTypeName(x) + "'");
    });
    b["float"] = makeType("float", [](Interpreter& in, CallArgs& a) -> Value {
        expectCount(in, a, 0, 1, "float");
        if (a.args.empty()) return Value(0.0);
        const Value& x = a.args[0];
        if (x.isTensor()) {
            Tensor t = in.realTensor(x.asTensor(), graph_breaks::itemCall);
            if (t.numel() != 1) in.fail("ValueError", "only one element tensors can be converted to Python scalars");
            return Value(t.item());
        }
        if (x.isFloat()) return x.unsourced();
        if (x.isString()) {
            std::string s = x.asString();
            if (s == "inf" || s == "+inf") return Value(std::numeric_limits<double>::infinity());
            if (s == "-inf") return Value(-std::numeric_limits<double>::infinity());
            if (s == "nan") return Value(std::numeric_limits<double>::quiet_NaN());
            try {
                size_t used = 0;
                double v = std::stod(s, &used);
                if (used == s.size()) return Value(v);
            } catch (...) {
            }
            in.fail("ValueError", "could not convert string to float: " + valueRepr(x));
        }
        if (x.isInt() || x.isBool()) return Value(static_cast<double>(toInt(in, x, "float")));
        if (auto v = in.callSpecial(x, "__float__", {})) {
            if (!v->isFloat()) in.fail("TypeError", "__float__ returned non-float (type " + pythonTypeName(*v) + ")");
            return *v;
        }
        if (auto v = in.callSpecial(x, "__index__", {})) return Value(static_cast<double>(toInt(in, *v, "float")));
        in.fail("TypeError", "float() argument must be a string or a real number, not '" + pythonTypeName(x) + "'");
    });
    b["bool"] = makeType("bool", [](Interpreter& in, CallArgs& a) {
        expectCount(in, a, 0, 1, "bool");
        // bool(x) of a tensor is Tensor.item() to Dynamo (an `if x:` is a data-dependent jump instead).
        if (!a.args.empty() && a.args[0].isTensor()) {
            const Tensor t = in.realTensor(a.args[0].asTensor(), graph_breaks::itemCall);
            if (t.numel() == 1) return Value(t.item() != 0.0);  // else truthy's error: ambiguous
        }
        return Value(!a.args.empty() && in.truthy(a.args[0]));
    });
    b["str"] = makeType("str", [](Interpreter& in, CallArgs& a) {
        expectCount(in, a, 0, 1, "str");
        if (a.args.empty()) return Value(std::string());
        if (a.args[0].isTensor()) in.realTensor(a.args[0].asTensor(), graph_breaks::tensorRepr);
        return Value(in.str(a.args[0]));
    });
    b["list"] = makeType("list", [](Interpreter& in, CallArgs& a) {
        expectCount(in, a, 0, 1, "list");
        return makeList(a.args.empty() ? ValueList{} : in.iterate(a.args[0]));
    });
    b["tuple"] = makeType("tuple", [](Interpreter& in, CallArgs& a) {
        expectCount(in, a, 0, 1, "tuple");
        return makeTuple(a.args.empty() ? ValueList{} : in.iterate(a.args[0]));
    });
    addBytesBuiltins(b);
    b["int"].as<TypeObject>()->attrs["from_bytes"] = makeBuiltin("int.from_bytes", intFromBytes);
    b["dict"] = makeType("dict", [](Interpreter& in, CallArgs& a) {
        expectCount(in, a, 0, 1, "dict");
        auto d = std::make_shared<DictObject>();
        updateDict(in, *d, a);
        return Value(ObjectPtr(d));
    });
}

}  // namespace fusescope
