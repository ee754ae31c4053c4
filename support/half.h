// IEEE binary16 and bfloat16 conversions with round-to-nearest-even, as the hardware does.
// Used by the runtime (CPU atomics on 16-bit floats), the host ndarray and the tests.
#pragma once
#include <cstdint>
#include <cstring>

namespace tilec {

inline float BitsToFloat(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
inline uint32_t FloatToBits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }

inline float HalfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  if (exp == 0x1f) return BitsToFloat(sign | 0x7f800000u | (man << 13));  // inf / nan
  if (exp == 0) {
    if (man == 0) return BitsToFloat(sign);
    // Subnormal half: value = man * 2^-24, exact in float.
    float v = float(man) * (1.0f / 16777216.0f);
    return sign ? -v : v;
  }
  return BitsToFloat(sign | ((exp + 112) << 23) | (man << 13));
}

inline uint16_t FloatToHalf(float f) {
  uint32_t x = FloatToBits(f);
  uint16_t sign = uint16_t((x >> 16) & 0x8000);
  uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) return sign | 0x7c00 | (ax > 0x7f800000u ? 0x200 : 0);  // inf / nan
  if (ax >= 0x477ff000u) return sign | 0x7c00;  // rounds to >= 65520: overflow to inf
  if (ax < 0x38800000u) {
    // Result is subnormal (or zero): scale so that rounding happens at the half's ulp 2^-24.
    float a = BitsToFloat(ax);
    float scaled = a * 16777216.0f;  // exact: power of two
    // Round half to even on the integer count of ulps.
    uint32_t n = uint32_t(scaled);
    float rem = scaled - float(n);
    if (rem > 0.5f || (rem == 0.5f && (n & 1))) ++n;
    return sign | uint16_t(n);
  }
  uint32_t mant_rounded = ax + 0xfffu + ((ax >> 13) & 1u);  // round to nearest even at bit 13
  return sign | uint16_t((mant_rounded - 0x38000000u) >> 13);
}

inline float BFloat16ToFloat(uint16_t b) { return BitsToFloat(uint32_t(b) << 16); }

inline uint16_t FloatToBFloat16(float f) {
  uint32_t x = FloatToBits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return uint16_t((x >> 16) | 0x40);  // quiet nan
  x += 0x7fffu + ((x >> 16) & 1u);
  return uint16_t(x >> 16);
}

}  // namespace tilec
