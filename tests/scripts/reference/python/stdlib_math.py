# math: the functions model code calls (erf for GELU, log2, isclose, prod, ...), with CPython's
# domain and range errors, on ints, floats and bools (gamma and lgamma come from the C library,
# which may differ from CPython's own in the last digit: only exact cases here).
import math

print(math.erf(0.5), math.erfc(0.5), math.log2(8), math.log10(1000), math.log(8, 2), math.log(100, 10), math.log1p(1e-10),
      math.expm1(1e-10), math.tan(1), math.asin(0.5), math.acos(0.5), math.atan(1), math.atan2(1, -1))
print(math.sinh(1), math.cosh(1), math.asinh(1), math.acosh(2), math.atanh(0.5), math.gamma(5), math.lgamma(1))
print(math.trunc(-2.7), math.floor(3), math.ceil(2.1), math.isnan(math.nan), math.isinf(-math.inf), math.isfinite(1e308),
      math.isfinite(True))
print(math.isclose(1.0, 1.0 + 1e-10), math.isclose(1.0, 1.1), math.isclose(0.0, 1e-12), math.isclose(0.0, 1e-12, abs_tol=1e-9),
      math.isclose(100, 101, rel_tol=0.02), math.isclose(math.inf, math.inf))
print(math.pow(2, 10), math.pow(2, 0.5), math.hypot(3, 4), math.hypot(1, 2, 2), math.copysign(3, -0.0), math.fmod(7, -3),
      math.remainder(7, 3), math.degrees(math.pi), math.radians(180), math.tau)
print(math.gcd(12, 18), math.gcd(0, 5), math.gcd(), math.gcd(-4, 6, 10), math.lcm(4, 6), math.lcm(), math.factorial(10),
      math.comb(10, 3), math.comb(5, 7), math.perm(5, 2), math.perm(4), math.isqrt(99), math.isqrt(100), math.isqrt(0))
print(math.prod([1, 2, 3, 4]), math.prod([]), math.prod([0.5, 4], start=3), math.fsum([0.1] * 10), sum([0.1] * 10),
      math.fsum([1e100, 1.0, -1e100, 1e-100]), math.modf(-2.5), math.frexp(12.0), math.ldexp(0.75, 4),
      math.dist((0, 0), (3, 4)))
for bad in (lambda: math.sqrt(-1), lambda: math.log(0), lambda: math.log(-2, 10), lambda: math.exp(1000),
            lambda: math.acos(2), lambda: math.gamma(0), lambda: math.gamma(-2), lambda: math.gamma(200),
            lambda: math.fmod(1, 0), lambda: math.pow(0, -1), lambda: math.factorial(-1), lambda: math.comb(-1, 2),
            lambda: math.isqrt(-4), lambda: math.isclose(1, 2, rel_tol=-1), lambda: math.log2(0), lambda: math.cosh(1000),
            lambda: math.log(10, 1), lambda: math.dist((1,), (1, 2)), lambda: math.atanh(1)):
    try:
        print(bad())
    except (ValueError, OverflowError, ZeroDivisionError) as e:
        print(type(e).__name__ + ":", e)
