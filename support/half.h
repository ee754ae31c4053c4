// IEEE binary16 and bfloat16 conversions with round-to-nearest-even, as the hardware does.
// Used by the runtime (CPU atomics on 16-bit floats), the host ndarray, constant folding in
// the checker and the tests.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "dtype.h"  // beside this header, in-tree and installed (include/tilec/support/)

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

// binary16 bits of a double, rounded once (through float the rounding could happen twice).
inline uint16_t DoubleToHalfBits(double v) {
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  double a = std::fabs(v);
  if (std::isnan(v)) return sign | 0x7e00;
  if (a >= 65520.0) return sign | 0x7c00;
  if (a < 0x1p-14) {
    // Subnormal range: count ulps of 2^-24, rounding half to even (the default mode).
    return sign | static_cast<uint16_t>(std::nearbyint(a * 0x1p24));
  }
  int ex = 0;
  double m = std::frexp(a, &ex);  // a = m * 2^ex, m in [0.5, 1)
  int e = ex - 1;
  double r = std::nearbyint(m * 2048.0);  // 11 significant bits
  if (r == 2048.0) {
    r = 1024.0;
    ++e;
  }
  if (e + 15 >= 31) return sign | 0x7c00;
  return sign | static_cast<uint16_t>(((e + 15) << 10) | (static_cast<int>(r) - 1024));
}

// `v` as a value of float type `t` holds it, widened back to double (other types: `v`).
inline double RoundToFloatType(double v, ScalarType t) {
  if (t == ScalarType::Float32) return static_cast<float>(v);
  if (t == ScalarType::Float16) return HalfToFloat(DoubleToHalfBits(v));
  if (t == ScalarType::BFloat16) return BFloat16ToFloat(FloatToBFloat16(static_cast<float>(v)));
  return v;
}

}  // namespace tilec
