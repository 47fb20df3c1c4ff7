// The eager float32 math (ops/float_math.h): accuracy on sampled floats (every float is
// bench/scripts/check_float_math.sh's), results that do not depend on where a value sits or
// how its tensor is laid out, and the row kernels of softmax and layer_norm against double.
#include <cmath>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "ops/float_math.h"
#include "test_support.h"

namespace fusescope {
namespace {

uint32_t bitsOf(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

// |got - exact| in ulps of floats at exact's magnitude (FLT_MIN's below it).
double ulpsOff(float got, double exact) {
    const int exponent = std::fabs(exact) < 1.1754943508222875e-38 ? -126 : std::ilogb(exact);
    return std::fabs(got - exact) / std::ldexp(1.0, exponent - 23);
}

double sigmoidExact(double x) { return 1 / (1 + std::exp(-x)); }
double siluExact(double x) { return x / (1 + std::exp(-x)); }
// 0.5 x (1 + tanh(u)) without the cancellation of 1 + tanh(u) at large negative u.
double geluTanhExact(double x) { return x / (1 + std::exp(-2.0 * std::sqrt(2.0 / 3.141592653589793) * (x + 0.044715 * x * x * x))); }

struct Case {
    FloatFunction f;
    double (*exact)(double);
    double bound;             // docs/eager.md's, in ulps
    bool scalarLibmInDouble;  // the same bits as libm's double function rounded once
};

const Case kCases[] = {
    {FloatFunction::Exp, [](double x) { return std::exp(x); }, 0.5001, true},
    {FloatFunction::Log, [](double x) { return std::log(x); }, 0.5001, true},
    {FloatFunction::Sin, [](double x) { return std::sin(x); }, 0.5001, true},
    {FloatFunction::Cos, [](double x) { return std::cos(x); }, 0.5001, true},
    {FloatFunction::Tanh, [](double x) { return std::tanh(x); }, 0.5001, true},
    {FloatFunction::GeluTanh, geluTanhExact, 0.5001, true},
    {FloatFunction::Sigmoid, sigmoidExact, 2.5, false},
    {FloatFunction::Silu, siluExact, 2.5, false},
};

// Every 65537th bit pattern: 65536 floats of every sign and exponent.
std::vector<float> sampledFloats() {
    std::vector<float> x;
    for (uint64_t b = 0; b < (1ULL << 32); b += 65537) {
        const uint32_t bits = static_cast<uint32_t>(b);
        float f;
        std::memcpy(&f, &bits, 4);
        x.push_back(f);
    }
    return x;
}

TEST(FloatMath, FunctionsStayWithinTheirUlpBoundsOnSampledFloats) {
    const std::vector<float> x = sampledFloats();
    std::vector<float> y(x.size());
    for (const Case& c : kCases) {
        applyFloatFunction(c.f, x.data(), y.data(), static_cast<int64_t>(x.size()));
        double worst = 0;
        int wrongSpecial = 0, unlikeScalar = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
            const double exact = c.exact(x[i]);
            if (c.scalarLibmInDouble && bitsOf(y[i]) != bitsOf(static_cast<float>(exact)) && !(std::isnan(y[i]) && std::isnan(exact)))
                ++unlikeScalar;
            if (!c.scalarLibmInDouble && std::isinf(static_cast<float>(std::exp(-static_cast<double>(x[i]))))) {
                // exp(-x) overflows float: x / inf as PyTorch's float kernels give (0; silu(-inf) NaN)
                const float expected = (c.f == FloatFunction::Silu ? x[i] : 1.0f) / INFINITY;
                wrongSpecial += bitsOf(y[i]) != bitsOf(expected) && !(std::isnan(y[i]) && std::isnan(expected));
            } else if (std::isnan(exact)) {
                wrongSpecial += !std::isnan(y[i]);
            } else if (std::fabs(exact) > 3.4028234663852886e38) {
                wrongSpecial += !std::isinf(y[i]) || (y[i] > 0) != (exact > 0);
            } else if (std::isnan(y[i]) || std::isinf(y[i])) {
                ++wrongSpecial;
            } else {
                worst = std::max(worst, ulpsOff(y[i], exact));
            }
        }
        EXPECT_LE(worst, c.bound) << static_cast<int>(c.f);
        EXPECT_EQ(wrongSpecial, 0) << static_cast<int>(c.f);
        EXPECT_EQ(unlikeScalar, 0) << static_cast<int>(c.f);
    }
}

// A value's result is the same alone, in a vector's last lanes (padded) or in its body.
TEST(FloatMath, AValuesResultDoesNotDependOnWhereItSits) {
    std::vector<float> x;
    for (int i = 0; i < 203; ++i) x.push_back(std::sin(i * 1.7f) * (i % 7 == 0 ? 90.0f : 4.0f));
    for (FloatFunction f : {FloatFunction::Exp, FloatFunction::Log, FloatFunction::Sin, FloatFunction::Cos, FloatFunction::Tanh,
                            FloatFunction::Sigmoid, FloatFunction::Silu, FloatFunction::GeluTanh}) {
        std::vector<float> whole(x.size());
        applyFloatFunction(f, x.data(), whole.data(), static_cast<int64_t>(x.size()));
        for (std::size_t i = 0; i < x.size(); ++i) {
            float alone;
            applyFloatFunction(f, &x[i], &alone, 1);
            ASSERT_EQ(bitsOf(alone), bitsOf(whole[i])) << "function " << static_cast<int>(f) << " value " << x[i];
        }
        std::vector<float> inPlace = x;  // in and out the same array
        applyFloatFunction(f, inPlace.data(), inPlace.data(), static_cast<int64_t>(x.size()));
        for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(bitsOf(inPlace[i]), bitsOf(whole[i]));
    }
}

TEST(FloatMath, RowKernelsAgreeWithDouble) {
    std::vector<float> x;
    for (int i = 0; i < 1000; ++i) x.push_back(std::cos(i * 0.37f) * 6.0f + 0.25f);
    const auto n = static_cast<int64_t>(x.size());
    double sum = 0, max = -INFINITY;
    for (float v : x) sum += v, max = std::max<double>(max, v);
    EXPECT_EQ(maxOfRow(x.data(), n), static_cast<float>(max));
    EXPECT_NEAR(sumOfRow(x.data(), n), sum, 1e-9 * std::fabs(sum) + 1e-9);
    const double mean = sum / static_cast<double>(n);
    double squares = 0;
    for (float v : x) squares += (v - mean) * (v - mean);
    EXPECT_NEAR(squaredDeviationsOfRow(x.data(), mean, n), squares, 1e-9 * squares);

    std::vector<double> exps(x.size());
    std::vector<float> softmax(x.size()), logSoftmax(x.size());
    const double total = expsBelowShift(x.data(), max, exps.data(), n);
    divideRow(exps.data(), total, softmax.data(), n);
    logSoftmaxRow(x.data(), max, std::log(total), logSoftmax.data(), n);
    double exactTotal = 0;
    for (float v : x) exactTotal += std::exp(v - max);
    EXPECT_NEAR(total, exactTotal, 1e-12 * exactTotal);
    for (std::size_t i = 0; i < x.size(); ++i) {  // rounded once from double: within half an ulp, and a little
        const double p = std::exp(x[i] - max) / exactTotal;
        EXPECT_LE(ulpsOff(softmax[i], p), 0.501) << i;
        EXPECT_LE(ulpsOff(logSoftmax[i], x[i] - max - std::log(exactTotal)), 0.501) << i;
    }
    EXPECT_TRUE(std::isinf(maxOfRow(nullptr, 0)));
    const float withNan[3] = {1.0f, NAN, 2.0f};
    EXPECT_EQ(maxOfRow(withNan, 3), 2.0f);
}

// Eager ops give the same bits whatever the float32 tensor's layout: the vectorised math runs
// on a transposed tensor, or into one, (through a contiguous copy) as on a contiguous one.
TEST(FloatMath, EagerOpsGiveTheSameBitsWhateverTheLayout) {
    test::ScriptRun run = test::runScript(R"(
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(67, 45) * 3
for fn in [torch.exp, torch.sin, torch.cos, torch.tanh, torch.sigmoid, F.silu, lambda t: F.gelu(t, approximate="tanh"),
           lambda t: torch.log(t.abs()), lambda t: torch.softmax(t, -1), lambda t: torch.log_softmax(t, -1),
           lambda t: F.layer_norm(t, (67,))]:
    print(torch.equal(fn(x.t()), fn(x.t().contiguous())), end=" ")
into = torch.empty(67, 45).t()  # out= a transposed tensor
torch.exp(x.t().contiguous(), out=into)
print(torch.equal(into, torch.exp(x.t().contiguous())))
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "True True True True True True True True True True True True\n");
}

}  // namespace
}  // namespace fusescope
