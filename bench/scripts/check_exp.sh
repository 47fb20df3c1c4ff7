#!/usr/bin/env bash
# Checks the C++ prelude's float exps on every float (2^32 of them; a few minutes on 2
# cores), compiled as the JIT compiles them (clang 16, or $CLANG; -O3, this CPU): fs_exp's largest error in
# ulps of the exact value (double exp) and that it gives inf, 0 and NaN where exp does;
# fs_exp_nonpositive equal to fs_exp bit for bit on every x <= 0 and NaN; fs_exp_summand on
# every x in [-87, 0]. Exits non-zero when one fails. Not part of `make test`.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The prelude's float exps: from FS_INLINE's definition to the double exp.
sed -n '/^#define FS_INLINE /,/^\/\/ Below -746 exp of a double/p' "$root/engine/codegen/cpp/cpp_prelude.cpp" > "$work/exps.h"
cat > "$work/check.cpp" <<'CPP'
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include "exps.h"
static float bits(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
static uint32_t of(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
static bool same(float a, float b) { return of(a) == of(b) || (a != a && b != b); }
int main() {
    double worst = 0;
    long wrong = 0, nonpositive = 0, summand = 0;
    #pragma omp parallel for reduction(max : worst) reduction(+ : wrong, nonpositive, summand) schedule(static, 1 << 16)
    for (int64_t b = 0; b <= 0xFFFFFFFFLL; ++b) {
        const float x = bits((uint32_t)b), e = fs_exp(x);
        if (std::isnan(x)) {
            wrong += !std::isnan(e) || !std::isnan(fs_exp_nonpositive(x));
            continue;
        }
        const double exact = std::exp((double)x);
        if (exact > 3.4028234663852886e38) {
            wrong += e != INFINITY;
        } else {
            const int exponent = exact < 1.1754943508222875e-38 ? -126 : std::ilogb(exact);
            worst = std::fmax(worst, std::fabs(e - exact) / std::ldexp(1.0, exponent - 23));
        }
        if (x <= 0) nonpositive += !same(fs_exp_nonpositive(x), e);
        if (x <= 0 && x >= -87.0f) summand += !same(fs_exp_summand(x), e);
    }
    std::printf("fs_exp: within %.4f ulp of exp on every float; %ld wrong at overflow or NaN\n", worst, wrong);
    std::printf("fs_exp_nonpositive: %ld floats <= 0 where it differs from fs_exp\n", nonpositive);
    std::printf("fs_exp_summand: %ld floats in [-87, 0] where it differs from fs_exp\n", summand);
    return worst < 1.03 && wrong == 0 && nonpositive == 0 && summand == 0 ? 0 : 1;
}
CPP
"${CLANG:-clang++-16}" -std=c++17 -O3 -march=native -fopenmp -fno-math-errno -I"$work" "$work/check.cpp" -o "$work/check"
"$work/check"
