#!/usr/bin/env bash
# Checks the eager float math (engine/ops/float_math.h) on every float (2^32 of them; 20-25
# minutes on 2 cores), its AVX2 and SSE2 kernels compiled as engine/CMakeLists.txt compiles
# them: each function's largest error in ulps of the exact value (libm in double; an ulp is
# the spacing of floats at the exact value's magnitude, denormals counted as FLT_MIN's), the
# floats where it gives inf, 0 or NaN and the exact value does not (or the other way), where
# it differs from libm's double result rounded once (the scalar kernels'), and where the two
# instruction sets differ. Exits non-zero where an error exceeds the bound docs/eager.md
# states or any count is not 0, printing the lowest float (by bits) of each count. Names as
# arguments check only those functions (`check_float_math.sh silu log`). Not part of `make test`.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
options="-std=c++20 -O3 -ffp-contract=off -fno-math-errno -fno-trapping-math -DFUSESCOPE_EAGER_MVEC -I$root/engine"
g++ $options -mavx2 -c "$root/engine/ops/float_math_avx2.cpp" -o "$work/avx2.o"
g++ $options -c "$root/engine/ops/float_math_sse2.cpp" -o "$work/sse2.o"
cat > "$work/check.cpp" <<'CPP'
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include "ops/float_math.h"
using fusescope::FloatFunction;
namespace fusescope::avx2 { void applyFloatFunction(FloatFunction, const float*, float*, int64_t); }
namespace fusescope::sse2 { void applyFloatFunction(FloatFunction, const float*, float*, int64_t); }
struct Function {
    const char* name;
    FloatFunction f;
    double (*exact)(double);
    double bound;      // largest error allowed, in ulps (docs/eager.md)
    bool roundedOnce;  // the same bits as libm's double function rounded once to float
};
static double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }
static double silu(double x) { return x / (1 + std::exp(-x)); }
// 0.5 x (1 + tanh(u)) without the cancellation of 1 + tanh(u) at large negative u.
static double geluTanh(double x) { return x / (1 + std::exp(-2.0 * std::sqrt(2.0 / 3.141592653589793) * (x + 0.044715 * x * x * x))); }
static double ulpsOff(float got, double exact) {
    const int exponent = std::fabs(exact) < 1.1754943508222875e-38 ? -126 : std::ilogb(exact);
    return std::fabs(got - exact) / std::ldexp(1.0, exponent - 23);
}
// The lowest float (by bits) of a count, with what each kernel gave there.
struct Example {
    uint32_t bits = UINT32_MAX;
    float avx2 = 0, sse2 = 0;
    void keep(uint32_t at, float a, float s) {
        if (at < bits) bits = at, avx2 = a, sse2 = s;
    }
    void print(const char* what, double (*exact)(double)) const {
        if (bits == UINT32_MAX) return;
        float x;
        std::memcpy(&x, &bits, 4);
        std::printf("    %s first at x = %.9g (0x%08x): AVX2 %.9g, SSE2 %.9g, exact %.17g\n", what, x, bits, avx2, sse2, exact(x));
    }
};
int main(int argc, char** argv) {
    const Function functions[] = {
        {"exp", FloatFunction::Exp, [](double x) { return std::exp(x); }, 0.5001, true},
        {"log", FloatFunction::Log, [](double x) { return std::log(x); }, 0.5001, true},
        {"sin", FloatFunction::Sin, [](double x) { return std::sin(x); }, 0.5001, true},
        {"cos", FloatFunction::Cos, [](double x) { return std::cos(x); }, 0.5001, true},
        {"tanh", FloatFunction::Tanh, [](double x) { return std::tanh(x); }, 0.5001, true},
        {"gelu_tanh", FloatFunction::GeluTanh, geluTanh, 0.5001, true},
        {"sigmoid", FloatFunction::Sigmoid, sigmoid, 2.5, false},  // 2.48 at x = -16.64 (stop 106)
        {"silu", FloatFunction::Silu, silu, 2.5, false},
    };
    int failures = 0;
    for (const Function& fn : functions) {
        bool chosen = argc == 1;
        for (int k = 1; k < argc; ++k) chosen = chosen || std::string(argv[k]) == fn.name;
        if (!chosen) continue;
        Example specialAt, differAt, unlikeAt;
        double worst = 0, worstAt = 0;
        long special = 0, setsDiffer = 0, unlikeRounded = 0;
        #pragma omp parallel
        {
            std::vector<float> x(1 << 16), a(1 << 16), s(1 << 16);
            double localWorst = 0, localAt = 0;
            long localSpecial = 0, localDiffer = 0, localUnlike = 0;
            Example localSpecialAt, localDifferAt, localUnlikeAt;
            #pragma omp for schedule(dynamic)
            for (int64_t block = 0; block < (1LL << 16); ++block) {
                for (int64_t i = 0; i < (1 << 16); ++i) {
                    const uint32_t bits = static_cast<uint32_t>(block << 16 | i);
                    std::memcpy(&x[i], &bits, 4);
                }
                fusescope::avx2::applyFloatFunction(fn.f, x.data(), a.data(), 1 << 16);
                fusescope::sse2::applyFloatFunction(fn.f, x.data(), s.data(), 1 << 16);
                for (int64_t i = 0; i < (1 << 16); ++i) {
                    const uint32_t bits = static_cast<uint32_t>(block << 16 | i);
                    const bool bothNan = std::isnan(a[i]) && std::isnan(s[i]);
                    if (std::memcmp(&a[i], &s[i], 4) != 0 && !bothNan) ++localDiffer, localDifferAt.keep(bits, a[i], s[i]);
                    const double exact = fn.exact(x[i]);
                    const float once = static_cast<float>(exact);
                    if (fn.roundedOnce && std::memcmp(&a[i], &once, 4) != 0 && !(std::isnan(a[i]) && std::isnan(once)))
                        ++localUnlike, localUnlikeAt.keep(bits, a[i], s[i]);
                    bool wrong = false;
                    if (!fn.roundedOnce && std::isinf(static_cast<float>(std::exp(-static_cast<double>(x[i]))))) {
                        // exp(-x) overflows float: x / inf, as PyTorch's float kernels (0, or NaN at -inf)
                        const float expected = (fn.f == FloatFunction::Silu ? x[i] : 1.0f) / __builtin_inff();
                        wrong = std::memcmp(&a[i], &expected, 4) != 0 && !(std::isnan(a[i]) && std::isnan(expected));
                    } else if (std::isnan(exact)) {
                        wrong = !std::isnan(a[i]);
                    } else if (std::fabs(exact) > 3.4028234663852886e38) {
                        wrong = !std::isinf(a[i]) || (a[i] > 0) != (exact > 0);
                    } else if (std::isnan(a[i]) || std::isinf(a[i])) {
                        wrong = true;
                    } else {
                        const double off = ulpsOff(a[i], exact);
                        if (off > localWorst) localWorst = off, localAt = x[i];
                    }
                    if (wrong) ++localSpecial, localSpecialAt.keep(bits, a[i], s[i]);
                }
            }
            #pragma omp critical
            {
                if (localWorst > worst) worst = localWorst, worstAt = localAt;
                special += localSpecial;
                setsDiffer += localDiffer;
                unlikeRounded += localUnlike;
                specialAt.keep(localSpecialAt.bits, localSpecialAt.avx2, localSpecialAt.sse2);
                differAt.keep(localDifferAt.bits, localDifferAt.avx2, localDifferAt.sse2);
                unlikeAt.keep(localUnlikeAt.bits, localUnlikeAt.avx2, localUnlikeAt.sse2);
            }
        }
        const bool ok = worst <= fn.bound && special == 0 && setsDiffer == 0 && unlikeRounded == 0;
        std::printf("%-10s within %.4f ulp (bound %.4g; worst at %.9g); %ld wrong inf/NaN; %ld unlike libm's double rounded once; "
                    "AVX2 and SSE2 differ on %ld%s\n",
                    fn.name, worst, fn.bound, worstAt, special, fn.roundedOnce ? unlikeRounded : 0L, setsDiffer, ok ? "" : "  FAILED");
        specialAt.print("wrong inf/NaN", fn.exact);
        unlikeAt.print("unlike libm's", fn.exact);
        differAt.print("AVX2 and SSE2 differ", fn.exact);
        failures += !ok;
    }
    return failures == 0 ? 0 : 1;
}
CPP
g++ $options -fopenmp "$work/check.cpp" "$work/avx2.o" "$work/sse2.o" -lmvec -o "$work/check"
"$work/check" "$@"
