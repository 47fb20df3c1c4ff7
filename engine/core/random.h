#pragma once
// The global random generator behind rand/randn/randint and torch.manual_seed. Values differ
// from PyTorch's but are deterministic for a seed; the initial seed is fixed (0) so runs
// are reproducible.

#include <cstdint>
#include <random>

namespace fusescope {

void manualSeed(uint64_t seed);
uint64_t initialSeed();
std::mt19937_64& globalGenerator();

double randomUniform();                        // [0, 1)
double randomNormal();                         // standard normal
int64_t randomInt(int64_t low, int64_t high);  // [low, high)

}  // namespace fusescope
