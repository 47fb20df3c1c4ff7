// The number types, bool, int and float: their binary operators (CPython's nb_* slots) and
// float's methods. Script ints are 64-bit: a result that does not fit is an OverflowError.
#include <bit>
#include <cmath>

#include "script/interpreter.h"
#include "script/python_hash.h"
#include "script/trace_hooks.h"
#include "script/types/bytes_type.h"
#include "script/types/numbers.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

[[noreturn]] void overflow(Interpreter& in) { in.fail("OverflowError", "integer overflow (script ints are 64-bit)"); }

std::optional<Value> intBinary(Interpreter& in, BinaryOperator op, const Value& left, const Value& right) {
    int64_t a = intOf(left), b = intOf(right), r = 0;
    switch (op) {
    case BinaryOperator::Add:
        if (__builtin_add_overflow(a, b, &r)) overflow(in);
        return Value(r);
    case BinaryOperator::Sub:
        if (__builtin_sub_overflow(a, b, &r)) overflow(in);
        return Value(r);
    case BinaryOperator::Mult:
        if (__builtin_mul_overflow(a, b, &r)) overflow(in);
        return Value(r);
    case BinaryOperator::Div:
        if (b == 0) in.fail("ZeroDivisionError", "division by zero");
        return Value(static_cast<double>(a) / static_cast<double>(b));
    case BinaryOperator::FloorDiv:
        if (b == 0) in.fail("ZeroDivisionError", "integer division or modulo by zero");
        if (a == INT64_MIN && b == -1) overflow(in);
        return Value(floorDivInt(a, b));
    case BinaryOperator::Mod:
        if (b == 0) in.fail("ZeroDivisionError", "integer modulo by zero");
        if (b == -1) return Value(int64_t{0});
        return Value(floorModInt(a, b));
    case BinaryOperator::Pow: {
        if (b < 0) {
            if (a == 0) in.fail("ZeroDivisionError", "0.0 cannot be raised to a negative power");
            return Value(std::pow(static_cast<double>(a), static_cast<double>(b)));
        }
        // By squaring: the exponent may be huge when the base is 0, 1 or -1.
        int64_t result = 1, base = a;
        for (int64_t e = b; e > 0; e >>= 1) {
            if ((e & 1) && __builtin_mul_overflow(result, base, &result)) overflow(in);
            if (e > 1 && __builtin_mul_overflow(base, base, &base)) overflow(in);
        }
        return Value(result);
    }
    case BinaryOperator::BitAnd: return left.isBool() && right.isBool() ? Value(bool(a & b)) : Value(a & b);
    case BinaryOperator::BitOr: return left.isBool() && right.isBool() ? Value(bool(a | b)) : Value(a | b);
    case BinaryOperator::BitXor: return left.isBool() && right.isBool() ? Value(bool(a ^ b)) : Value(a ^ b);
    case BinaryOperator::LShift:
        if (b < 0) in.fail("ValueError", "negative shift count");
        if (a == 0) return Value(int64_t{0});
        // Python's ints never lose bits: a shift that does not fit is an overflow.
        if (b >= 64 || (static_cast<__int128>(a) << b) != static_cast<int64_t>(static_cast<__int128>(a) << b)) overflow(in);
        return Value(static_cast<int64_t>(static_cast<__int128>(a) << b));
    case BinaryOperator::RShift:
        if (b < 0) in.fail("ValueError", "negative shift count");
        return Value(a >> std::min<int64_t>(b, 63));
    case BinaryOperator::MatMult: return std::nullopt;
    }
    return std::nullopt;
}

std::optional<Value> floatBinary(Interpreter& in, BinaryOperator op, double a, double b) {
    switch (op) {
    case BinaryOperator::Add: return Value(a + b);
    case BinaryOperator::Sub: return Value(a - b);
    case BinaryOperator::Mult: return Value(a * b);
    case BinaryOperator::Div:
        if (b == 0) in.fail("ZeroDivisionError", "float division by zero");
        return Value(a / b);
    case BinaryOperator::FloorDiv:
        if (b == 0) in.fail("ZeroDivisionError", "float floor division by zero");
        return Value(std::floor(a / b));
    case BinaryOperator::Mod: {
        if (b == 0) in.fail("ZeroDivisionError", "float modulo");
        double r = std::fmod(a, b);
        if (r != 0 && ((r < 0) != (b < 0))) r += b;
        return Value(r);
    }
    case BinaryOperator::Pow:
        if (a == 0 && b < 0) in.fail("ZeroDivisionError", "0.0 cannot be raised to a negative power");
        return Value(std::pow(a, b));
    default: return std::nullopt;
    }
}

// While traced, a SymInt or SymFloat operand keeps the result symbolic (or guarded) where it can.
bool symbolicOperand(Interpreter& in, const Value& left, const Value& right) {
    return in.tracer() && (left.symbolic() || right.symbolic() || left.symbolicFloat() || right.symbolicFloat());
}

std::optional<Value> numberCompare(Interpreter& in, CompareOperator op, const Value& left, const Value& right) {
    if (!left.isNumber() || !right.isNumber()) return std::nullopt;
    if (symbolicOperand(in, left, right))
        if (std::optional<bool> answer = in.tracer()->symbolicCompare(op, left, right)) return Value(*answer);
    if (isIntLike(left) && isIntLike(right)) {
        int64_t a = intOf(left), b = intOf(right);
        return Value(orderedAs(op, a < b ? -1 : a > b ? 1 : 0));
    }
    double a = floatOf(left), b = floatOf(right);
    if (std::isnan(a) || std::isnan(b)) return Value(op == CompareOperator::NotEq);  // NaN is unordered, unequal
    return Value(orderedAs(op, a < b ? -1 : a > b ? 1 : 0));
}

std::optional<Value> numberUnary(Interpreter& in, UnaryOperator op, const Value& self) {
    if (self.isFloat()) {
        if (op == UnaryOperator::USub && in.tracer() && self.symbolicFloat())
            if (std::optional<Value> negative = in.tracer()->symbolicNegative(self)) return *negative;
        if (op == UnaryOperator::USub) return Value(-self.asFloat());
        if (op == UnaryOperator::UAdd) return self.unsourced();
        return std::nullopt;  // ~ of a float
    }
    int64_t i = intOf(self);
    if (op == UnaryOperator::USub) {
        if (i == INT64_MIN) overflow(in);
        return Value(-i);
    }
    return Value(op == UnaryOperator::UAdd ? i : ~i);
}

// Two numbers: ints (and bools) stay ints, a float makes both floats. Anything else is the
// other operand's to answer (NotImplemented).
std::optional<Value> numberBinary(Interpreter& in, BinaryOperator op, const Value& left, const Value& right) {
    if (!left.isNumber() || !right.isNumber()) return std::nullopt;
    if (symbolicOperand(in, left, right))
        if (std::optional<Value> result = in.tracer()->symbolicArithmetic(op, left, right)) return result;
    if (isIntLike(left) && isIntLike(right)) return intBinary(in, op, left, right);
    return floatBinary(in, op, floatOf(left), floatOf(right));
}

const MethodTable& floatMethods() {
    static const MethodTable table("float", {
        {"is_integer", [](Interpreter&, const Value& self, CallArgs&) {
             double d = self.asFloat();
             return Value(std::isfinite(d) && std::trunc(d) == d);
         }, 0, kAnyArgs},
    });
    return table;
}

// int's methods; bool, an int, has them too.
const MethodTable& intMethods() {
    static const MethodTable table("int", {
        {"bit_length", [](Interpreter&, const Value& self, CallArgs&) {
             const int64_t v = self.isBool() ? int64_t{self.asBool()} : self.asInt();
             const uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
             return Value(static_cast<int64_t>(std::bit_width(magnitude)));
         }, 0, 0},
        {"to_bytes", intToBytes, 0, 2},
    });
    return table;
}

}  // namespace

const TypeSlots& noneType() {
    static const TypeSlots type{.name = "NoneType", .hash = [](Interpreter&, const Value&) { return python_hash::ofNone(); }, .truth = [](Interpreter&, const Value&) { return false; }};
    return type;
}
const TypeSlots& boolType() {
    static const TypeSlots type{.name = "bool", .methods = &intMethods(), .binary = numberBinary, .compare = numberCompare,
                                .hash = [](Interpreter&, const Value& self) { return int64_t{self.asBool()}; },
                                .truth = [](Interpreter&, const Value& self) { return self.asBool(); }, .unary = numberUnary};
    return type;
}
const TypeSlots& intType() {
    static const TypeSlots type{.name = "int", .methods = &intMethods(), .binary = numberBinary, .compare = numberCompare,
                                .hash = [](Interpreter&, const Value& self) { return python_hash::ofInt(self.asInt()); },
                                .truth = [](Interpreter&, const Value& self) { return self.asInt() != 0; }, .unary = numberUnary};
    return type;
}
const TypeSlots& floatType() {
    static const TypeSlots type{.name = "float", .methods = &floatMethods(), .binary = numberBinary, .compare = numberCompare,
                                .hash = [](Interpreter&, const Value& self) { return python_hash::ofFloat(self.asFloat()); },
                                .truth = [](Interpreter&, const Value& self) { return self.asFloat() != 0.0; }, .unary = numberUnary};
    return type;
}

}  // namespace fusescope
