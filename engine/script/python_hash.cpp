#include "script/python_hash.h"

#include <cmath>
#include <functional>

namespace fusescope::python_hash {

namespace {

constexpr int kBits = 61;
constexpr uint64_t kModulus = (uint64_t{1} << kBits) - 1;  // a Mersenne prime
constexpr int64_t kInfinity = 314159;

int64_t notMinusOne(int64_t h) { return h == -1 ? -2 : h; }  // -1 means "error" to CPython

}  // namespace

int64_t ofInt(int64_t value) {
    const uint64_t magnitude = value < 0 ? uint64_t{0} - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
    const auto reduced = static_cast<int64_t>(magnitude % kModulus);
    return notMinusOne(value < 0 ? -reduced : reduced);
}

// The value's binary digits, 28 at a time, folded modulo 2^61 - 1, then multiplied by 2^e
// (a rotation, modulo a Mersenne prime): equal to ofInt for whole values.
int64_t ofFloat(double value) {
    if (std::isinf(value)) return value > 0 ? kInfinity : -kInfinity;
    if (std::isnan(value)) return 0;  // Python hashes a NaN by its object; any fixed value is as good
    int e = 0;
    double m = std::frexp(value, &e);
    const int sign = m < 0 ? -1 : 1;
    m = std::abs(m);
    uint64_t x = 0;
    while (m != 0) {
        x = ((x << 28) & kModulus) | x >> (kBits - 28);
        m *= 268435456.0;  // 2^28
        e -= 28;
        const auto digits = static_cast<uint64_t>(m);
        m -= static_cast<double>(digits);
        x += digits;
        if (x >= kModulus) x -= kModulus;
    }
    e = e >= 0 ? e % kBits : kBits - 1 - ((-1 - e) % kBits);
    x = ((x << e) & kModulus) | x >> (kBits - e);
    return notMinusOne(static_cast<int64_t>(x * static_cast<uint64_t>(sign)));
}

int64_t ofString(std::string_view text) { return notMinusOne(static_cast<int64_t>(std::hash<std::string_view>()(text))); }

int64_t ofAddress(const void* address) {
    const auto bits = reinterpret_cast<uintptr_t>(address);
    return notMinusOne(static_cast<int64_t>((bits >> 4) | (bits << (8 * sizeof(bits) - 4))));  // low bits: alignment
}

int64_t ofNone() { return 8779688467390; }  // 0x7fc2e365bbe, one run's: the 0xbbe is every run's

void TupleHash::add(int64_t itemHash) {
    acc_ += static_cast<uint64_t>(itemHash) * 14029467366897019727ULL;
    acc_ = (acc_ << 31) | (acc_ >> 33);
    acc_ *= 11400714785074694791ULL;
}

int64_t TupleHash::finish(size_t length) const {
    const uint64_t h = acc_ + (length ^ (2870177450012600261ULL ^ 3527539ULL));
    return h == ~uint64_t{0} ? 1546275796 : static_cast<int64_t>(h);
}

}  // namespace fusescope::python_hash
