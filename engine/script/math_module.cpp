// math: CPython's math module on script numbers (ints are 64-bit here), with its errors: a
// result outside a function's domain is ValueError("math domain error"), one too large to
// hold OverflowError("math range error"), as Modules/mathmodule.c decides them.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>

#include "script/interpreter.h"
#include "script/types/method_table.h"
#include "script/whole_float.h"

namespace fusescope {

namespace {

double realOf(Interpreter& in, const Value& x, const std::string& name) {
    if (x.isFloat()) return x.asFloat();
    if (x.isInt()) return static_cast<double>(x.asInt());
    if (x.isBool()) return x.asBool() ? 1.0 : 0.0;
    in.fail("TypeError", "must be real number, not " + pythonTypeName(x) + " (in math." + name + ")");
}

int64_t integerOf(Interpreter& in, const Value& x, const std::string& name) {
    if (x.isInt()) return x.asInt();
    if (x.isBool()) return x.asBool();
    in.fail("TypeError", "'" + pythonTypeName(x) + "' object cannot be interpreted as an integer (in math." + name + ")");
}

// CPython's is_error/math_1: NaN out of a non-NaN input is outside the domain; an infinity
// out of a finite input overflowed where the function can overflow, else (log(0)) is a
// domain error too.
double checked(Interpreter& in, double result, std::initializer_list<double> inputs, bool canOverflow) {
    bool anyNan = false, allFinite = true;
    for (double x : inputs) anyNan |= std::isnan(x), allFinite &= std::isfinite(x);
    if (std::isnan(result) && !anyNan) in.fail("ValueError", "math domain error");
    if (std::isinf(result) && allFinite) in.fail(canOverflow ? "OverflowError" : "ValueError", canOverflow ? "math range error" : "math domain error");
    return result;
}

void add(ModuleObject& math, const std::string& name, std::function<Value(Interpreter&, CallArgs&)> fn) {
    math.attrs[name] = makeBuiltin("math." + name, std::move(fn));
}

void unary(ModuleObject& math, const std::string& name, double (*fn)(double), bool canOverflow = false) {
    add(math, name, [name, fn, canOverflow](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 1, 1, name);
        const double x = realOf(in, a.args[0], name);
        return Value(checked(in, fn(x), {x}, canOverflow));
    });
}

void binary(ModuleObject& math, const std::string& name, double (*fn)(double, double), bool canOverflow = false) {
    add(math, name, [name, fn, canOverflow](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 2, 2, name);
        const double x = realOf(in, a.args[0], name), y = realOf(in, a.args[1], name);
        return Value(checked(in, fn(x, y), {x, y}, canOverflow));
    });
}

// math.fsum: Shewchuk's exactly rounded sum of partials, as CPython's.
double exactSum(const std::vector<double>& values) {
    std::vector<double> partials;
    double special = 0.0;
    for (double x : values) {
        if (!std::isfinite(x)) {
            special += x;
            continue;
        }
        size_t i = 0;
        for (double y : partials) {
            if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
            const double hi = x + y, lo = y - (hi - x);
            if (lo != 0.0) partials[i++] = lo;
            x = hi;
        }
        partials.resize(i);
        partials.push_back(x);
    }
    if (special != 0.0 || std::isnan(special)) return special;
    double hi = 0.0;
    if (!partials.empty()) {
        size_t n = partials.size();
        hi = partials[--n];
        double lo = 0.0;
        while (n > 0) {
            const double x = hi, y = partials[--n];
            hi = x + y;
            lo = y - (hi - x);
            if (lo != 0.0) break;
        }
        // Round half-even across the remaining partials, as CPython does.
        if (n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0))) {
            const double y = lo * 2.0, x = hi + y;
            if (y == x - hi) hi = x;
        }
    }
    return hi;
}

int64_t checkedProduct(Interpreter& in, int64_t a, int64_t b) {
    int64_t out = 0;
    if (__builtin_mul_overflow(a, b, &out)) in.fail("OverflowError", "integer overflow (script ints are 64-bit)");
    return out;
}

}  // namespace

Value makeMathModule() {
    auto math = std::make_shared<ModuleObject>();
    math->name = "math";
    math->attrs["pi"] = Value(std::numbers::pi);
    math->attrs["e"] = Value(std::numbers::e);
    math->attrs["tau"] = Value(2 * std::numbers::pi);
    math->attrs["inf"] = Value(std::numeric_limits<double>::infinity());
    math->attrs["nan"] = Value(std::numeric_limits<double>::quiet_NaN());
    ModuleObject& m = *math;
    unary(m, "sqrt", [](double x) { return std::sqrt(x); });
    unary(m, "exp", [](double x) { return std::exp(x); }, true);
    unary(m, "exp2", [](double x) { return std::exp2(x); }, true);
    unary(m, "expm1", [](double x) { return std::expm1(x); }, true);
    unary(m, "log2", [](double x) { return x <= 0 ? std::nan("") : std::log2(x); });
    unary(m, "log10", [](double x) { return x <= 0 ? std::nan("") : std::log10(x); });
    unary(m, "log1p", [](double x) { return x <= -1 ? std::nan("") : std::log1p(x); });
    for (auto [name, fn] : std::initializer_list<std::pair<const char*, double (*)(double)>>{
             {"sin", [](double x) { return std::sin(x); }},   {"cos", [](double x) { return std::cos(x); }},
             {"tan", [](double x) { return std::tan(x); }},   {"asin", [](double x) { return std::asin(x); }},
             {"acos", [](double x) { return std::acos(x); }}, {"atan", [](double x) { return std::atan(x); }},
             {"tanh", [](double x) { return std::tanh(x); }}, {"asinh", [](double x) { return std::asinh(x); }},
             {"acosh", [](double x) { return std::acosh(x); }}, {"atanh", [](double x) { return std::atanh(x); }},
             {"erf", [](double x) { return std::erf(x); }},   {"erfc", [](double x) { return std::erfc(x); }},
             {"fabs", [](double x) { return std::fabs(x); }},
             {"degrees", [](double x) { return x * (180.0 / std::numbers::pi); }},
             {"radians", [](double x) { return x * (std::numbers::pi / 180.0); }}})
        unary(m, name, fn);
    unary(m, "sinh", [](double x) { return std::sinh(x); }, true);
    unary(m, "cosh", [](double x) { return std::cosh(x); }, true);
    // gamma and lgamma: poles at 0 and the negative integers are outside the domain.
    unary(m, "gamma", [](double x) { return x <= 0 && x == std::floor(x) ? std::nan("") : std::tgamma(x); }, true);
    unary(m, "lgamma", [](double x) { return x <= 0 && x == std::floor(x) ? std::nan("") : std::lgamma(x); }, true);
    binary(m, "atan2", [](double y, double x) { return std::atan2(y, x); });
    binary(m, "copysign", [](double x, double y) { return std::copysign(x, y); });
    binary(m, "fmod", [](double x, double y) { return std::isinf(x) || y == 0 ? std::nan("") : std::fmod(x, y); });
    binary(m, "remainder", [](double x, double y) { return std::isinf(x) || y == 0 ? std::nan("") : std::remainder(x, y); });
    binary(m, "pow", [](double x, double y) { return x == 0 && y < 0 ? std::nan("") : std::pow(x, y); }, true);
    add(m, "log", [](Interpreter& in, CallArgs& a) {  // log(x[, base])
        expectArgs(in, a, 1, 2, "log");
        auto natural = [&](const Value& v) {
            const double x = realOf(in, v, "log");
            return checked(in, x <= 0 ? std::nan("") : std::log(x), {x}, false);
        };
        const double num = natural(a.args[0]);
        if (a.args.size() == 1) return Value(num);
        const double den = natural(a.args[1]);
        if (den == 0) in.fail("ZeroDivisionError", "float division by zero");
        return Value(num / den);
    });
    for (const char* name : {"floor", "ceil", "trunc"}) {
        std::string n = name;
        add(m, n, [n](Interpreter& in, CallArgs& a) {
            expectArgs(in, a, 1, 1, n);
            if (a.args[0].isInt()) return a.args[0];
            const double x = realOf(in, a.args[0], n);
            return Value(wholeFloatToInt(in, n == "floor" ? std::floor(x) : n == "ceil" ? std::ceil(x) : std::trunc(x)));
        });
    }
    for (const char* name : {"isnan", "isinf", "isfinite"}) {
        std::string n = name;
        add(m, n, [n](Interpreter& in, CallArgs& a) {
            expectArgs(in, a, 1, 1, n);
            const double x = realOf(in, a.args[0], n);
            return Value(n == "isnan" ? std::isnan(x) : n == "isinf" ? std::isinf(x) : std::isfinite(x));
        });
    }
    add(m, "isclose", [](Interpreter& in, CallArgs& a) {  // CPython's symmetric test
        expectArgs(in, a, 2, 2, "isclose");
        const double x = realOf(in, a.args[0], "isclose"), y = realOf(in, a.args[1], "isclose");
        const Value* rel = a.kwarg("rel_tol");
        const Value* abs = a.kwarg("abs_tol");
        const double relTol = rel ? realOf(in, *rel, "isclose") : 1e-9, absTol = abs ? realOf(in, *abs, "isclose") : 0.0;
        if (relTol < 0 || absTol < 0) in.fail("ValueError", "tolerances must be non-negative");
        if (x == y) return Value(true);
        if (std::isinf(x) || std::isinf(y)) return Value(false);
        const double diff = std::fabs(y - x);
        return Value(diff <= std::fabs(relTol * y) || diff <= std::fabs(relTol * x) || diff <= absTol);
    });
    add(m, "hypot", [](Interpreter& in, CallArgs& a) {
        double out = 0;
        bool finite = true;
        for (const Value& v : a.args) {
            const double x = realOf(in, v, "hypot");
            finite &= std::isfinite(x);
            out = std::hypot(out, x);
        }
        return Value(checked(in, out, {finite ? 0.0 : INFINITY}, true));
    });
    add(m, "dist", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 2, 2, "dist");
        const ValueList p = in.iterate(a.args[0]), q = in.iterate(a.args[1]);
        if (p.size() != q.size()) in.fail("ValueError", "both points must have the same number of dimensions");
        double out = 0;
        for (size_t i = 0; i < p.size(); ++i) out = std::hypot(out, realOf(in, p[i], "dist") - realOf(in, q[i], "dist"));
        return Value(out);
    });
    add(m, "fsum", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 1, 1, "fsum");
        std::vector<double> values;
        for (const Value& v : in.iterate(a.args[0])) values.push_back(realOf(in, v, "fsum"));
        return Value(exactSum(values));
    });
    add(m, "prod", [](Interpreter& in, CallArgs& a) {  // any values *, tensors too, from start
        expectArgs(in, a, 1, 1, "prod");
        const Value* start = a.kwarg("start");
        Value out = start ? *start : Value(int64_t{1});
        for (const Value& v : in.iterate(a.args[0])) out = in.evalBinary(BinaryOperator::Mult, out, v, in.currentSite());
        return out;
    });
    add(m, "modf", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 1, 1, "modf");
        double whole = 0;
        const double fraction = std::modf(realOf(in, a.args[0], "modf"), &whole);
        return makeTuple({Value(fraction), Value(whole)});
    });
    add(m, "frexp", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 1, 1, "frexp");
        int exponent = 0;
        const double mantissa = std::frexp(realOf(in, a.args[0], "frexp"), &exponent);
        return makeTuple({Value(mantissa), Value(static_cast<int64_t>(exponent))});
    });
    add(m, "ldexp", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 2, 2, "ldexp");
        const double x = realOf(in, a.args[0], "ldexp");
        const int64_t i = integerOf(in, a.args[1], "ldexp");
        const double out = std::ldexp(x, static_cast<int>(std::clamp<int64_t>(i, -100000, 100000)));
        return Value(checked(in, out, {x}, true));
    });
    for (const char* name : {"gcd", "lcm"}) {
        std::string n = name;
        add(m, n, [n](Interpreter& in, CallArgs& a) {
            int64_t out = n == "gcd" ? 0 : 1;
            for (const Value& v : a.args) {
                const int64_t x = std::abs(integerOf(in, v, n));
                out = n == "gcd" ? std::gcd(out, x) : (x == 0 || out == 0 ? 0 : checkedProduct(in, out / std::gcd(out, x), x));
            }
            return Value(out);
        });
    }
    add(m, "factorial", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 1, 1, "factorial");
        const int64_t n = integerOf(in, a.args[0], "factorial");
        if (n < 0) in.fail("ValueError", "factorial() not defined for negative values");
        int64_t out = 1;
        for (int64_t k = 2; k <= n; ++k) out = checkedProduct(in, out, k);
        return Value(out);
    });
    add(m, "perm", [](Interpreter& in, CallArgs& a) {  // perm(n, k=None): n! / (n - k)!
        expectArgs(in, a, 1, 2, "perm");
        const int64_t n = integerOf(in, a.args[0], "perm");
        const int64_t k = a.args.size() < 2 || a.args[1].isNone() ? n : integerOf(in, a.args[1], "perm");
        if (n < 0) in.fail("ValueError", "n must be a non-negative integer");
        if (k < 0) in.fail("ValueError", "k must be a non-negative integer");
        if (k > n) return Value(int64_t{0});
        int64_t out = 1;
        for (int64_t i = 0; i < k; ++i) out = checkedProduct(in, out, n - i);
        return Value(out);
    });
    add(m, "comb", [](Interpreter& in, CallArgs& a) {  // n choose k, exactly: each partial product divides
        expectArgs(in, a, 2, 2, "comb");
        const int64_t n = integerOf(in, a.args[0], "comb"), k0 = integerOf(in, a.args[1], "comb");
        if (n < 0) in.fail("ValueError", "n must be a non-negative integer");
        if (k0 < 0) in.fail("ValueError", "k must be a non-negative integer");
        if (k0 > n) return Value(int64_t{0});
        const int64_t k = std::min(k0, n - k0);
        int64_t out = 1;
        for (int64_t i = 1; i <= k; ++i) out = checkedProduct(in, out, n - k + i) / i;
        return Value(out);
    });
    add(m, "isqrt", [](Interpreter& in, CallArgs& a) {
        expectArgs(in, a, 1, 1, "isqrt");
        const int64_t n = integerOf(in, a.args[0], "isqrt");
        if (n < 0) in.fail("ValueError", "isqrt() argument must be nonnegative");
        auto root = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
        while (root > 0 && root > n / root) --root;  // the double's root may be one too large
        while ((root + 1) <= n / (root + 1)) ++root;
        return Value(root);
    });
    return Value(ObjectPtr(math));
}

}  // namespace fusescope
