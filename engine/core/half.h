#pragma once
// float16 / bfloat16 are stored as raw 16-bit patterns and computed in float; these
// convert with round-to-nearest-even, as PyTorch (c10::Half, c10::BFloat16) does.

#include <cstdint>
#include <cstring>

namespace fusescope {

inline float bitsToFloat(uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

inline uint32_t floatToBits(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    return bits;
}

inline float halfToFloat(uint16_t h) {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0x1f) return bitsToFloat(sign | 0x7f800000u | (mant << 13));  // inf / nan
    if (exp == 0) {
        if (mant == 0) return bitsToFloat(sign);
        // Subnormal half: value = mant * 2^-24, exactly representable in float.
        float v = static_cast<float>(mant) * 5.9604644775390625e-8f;
        return sign ? -v : v;
    }
    return bitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

inline uint16_t floatToHalf(float f) {
    uint32_t x = floatToBits(f);
    uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u)  // inf or nan (keep nan quiet)
        return sign | (absx > 0x7f800000u ? 0x7e00u : 0x7c00u);
    if (absx >= 0x477ff000u) return sign | 0x7c00u;  // rounds to >= 65520: overflow to inf
    if (absx < 0x38800000u) {
        // Result is subnormal (or zero): scale to units of 2^-24 and round to nearest even.
        float a = bitsToFloat(absx) * 16777216.0f;  // exact: power-of-two scaling
        // a < 1024; rint-like RNE via the 2^23 trick.
        float r = (a + 8388608.0f) - 8388608.0f;
        return sign | static_cast<uint16_t>(r);
    }
    uint32_t mant = absx & 0x7fffffu;
    uint32_t exp = (absx >> 23) - 112;
    uint32_t h = (exp << 10) | (mant >> 13);
    uint32_t rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // carry may bump exponent: fine
    return sign | static_cast<uint16_t>(h);
}

inline float bfloat16ToFloat(uint16_t b) { return bitsToFloat(static_cast<uint32_t>(b) << 16); }

inline uint16_t floatToBfloat16(float f) {
    uint32_t x = floatToBits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet nan
    uint32_t roundingBias = 0x7fffu + ((x >> 16) & 1u);
    return static_cast<uint16_t>((x + roundingBias) >> 16);
}

}  // namespace fusescope
