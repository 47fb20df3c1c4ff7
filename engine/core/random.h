#pragma once
// The default random generator behind rand/randn/randint and torch.manual_seed. Values differ
// from PyTorch's but are deterministic for a seed; the initial seed is fixed (0) so runs
// are reproducible. Each session owns its generator (RandomGeneratorScope, installed on the
// thread that runs its script), so a second run in one process (serve, minify) draws what a
// fresh process draws; code outside any session draws from its thread's own.

#include <cstdint>
#include <random>

#include "core/thread_current.h"

namespace fusescope {

struct RandomGenerator {
    uint64_t seed = 0;
    std::mt19937_64 engine{0};
};

// Makes a generator the current thread's default for the scope's lifetime.
using RandomGeneratorScope = ThreadCurrent<RandomGenerator>::Scope;

void manualSeed(uint64_t seed);
uint64_t initialSeed();
std::mt19937_64& globalGenerator();  // the current default generator's engine

double randomUniform();                        // [0, 1)
double randomNormal();                         // standard normal
int64_t randomInt(int64_t low, int64_t high);  // [low, high)

}  // namespace fusescope
