#include "core/random.h"

#include <cmath>
#include <numbers>

namespace fusescope {

namespace {

RandomGenerator& state() { return ThreadCurrent<RandomGenerator>::get(); }

}  // namespace

void manualSeed(uint64_t seed) {
    state().seed = seed;
    state().engine.seed(seed);
}

uint64_t initialSeed() { return state().seed; }
std::mt19937_64& globalGenerator() { return state().engine; }

double randomUniform() {
    // 53 random bits -> exactly representable doubles in [0, 1); the std distributions are
    // implementation-defined, this is the same on every platform.
    return static_cast<double>(globalGenerator()() >> 11) * 0x1.0p-53;
}

double randomNormal() {
    // Box-Muller; one draw per call keeps the sequence independent of how callers batch.
    double u1 = 1.0 - randomUniform();  // (0, 1]: log is finite
    double u2 = randomUniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

int64_t randomInt(int64_t low, int64_t high) {
    uint64_t range = static_cast<uint64_t>(high - low);
    if (range == 0) return low;
    return low + static_cast<int64_t>(globalGenerator()() % range);
}

}  // namespace fusescope
