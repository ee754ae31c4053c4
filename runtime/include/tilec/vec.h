// C++ element types for a host program's typed arrays and launch arguments: Warp's vectors,
// matrices, quaternions and transforms as plain structs laid out exactly as the checker lays
// them out (support/composite.h: row-major scalars, packed, aligned as the scalar), plus the
// 16-bit floats. Each has a fixed name the runtime compares against a kernel's parameter.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "support/half.h"

namespace tilec {

// IEEE binary16 and bfloat16 as their bits, so that arrays of them are plain memory.
struct half {
  uint16_t bits = 0;
  static half From(float f) { half h; h.bits = FloatToHalf(f); return h; }
  explicit operator float() const { return HalfToFloat(bits); }
};
struct bfloat16 {
  uint16_t bits = 0;
  static bfloat16 From(float f) { bfloat16 h; h.bits = FloatToBFloat16(f); return h; }
  explicit operator float() const { return BFloat16ToFloat(bits); }
};

// wp.types.vector(length=N, dtype=T); N == 6 is Warp's spatial_vector.
template <typename T, int N>
struct vec_t {
  T c[N];
  static constexpr int length = N;
  T& operator[](int i) { return c[i]; }
  const T& operator[](int i) const { return c[i]; }
};

// wp.types.matrix(shape=(R, C), dtype=T), row-major; 6x6 is Warp's spatial_matrix.
template <typename T, int R, int C>
struct mat_t {
  T m[R][C];
  static constexpr int rows = R, cols = C;
  T& operator()(int r, int c) { return m[r][c]; }
  const T& operator()(int r, int c) const { return m[r][c]; }
};

// wp.quat: x, y, z, w (w the real part, as Warp stores it).
template <typename T>
struct quat_t {
  T x, y, z, w;
};

// wp.transform: the translation p, then the rotation q; seven scalars.
template <typename T>
struct transform_t {
  vec_t<T, 3> p;
  quat_t<T> q;
};

template <typename T> using spatial_vector_t = vec_t<T, 6>;
template <typename T> using spatial_matrix_t = mat_t<T, 6, 6>;

// Warp's names with its scalar suffixes (vec3f, mat33d, vec2i, quath, transformf, ...).
#define TILEC_VEC_ALIASES_(T, S)                                                       \
  using vec2##S = vec_t<T, 2>;                                                         \
  using vec3##S = vec_t<T, 3>;                                                         \
  using vec4##S = vec_t<T, 4>;                                                         \
  using mat22##S = mat_t<T, 2, 2>;                                                     \
  using mat33##S = mat_t<T, 3, 3>;                                                     \
  using mat44##S = mat_t<T, 4, 4>;
#define TILEC_FLOAT_ALIASES_(T, S)                                                     \
  TILEC_VEC_ALIASES_(T, S)                                                             \
  using quat##S = quat_t<T>;                                                           \
  using transform##S = transform_t<T>;                                                 \
  using spatial_vector##S = vec_t<T, 6>;                                               \
  using spatial_matrix##S = mat_t<T, 6, 6>;
TILEC_FLOAT_ALIASES_(half, h)
TILEC_FLOAT_ALIASES_(float, f)
TILEC_FLOAT_ALIASES_(double, d)
TILEC_VEC_ALIASES_(int8_t, b)
TILEC_VEC_ALIASES_(uint8_t, ub)
TILEC_VEC_ALIASES_(int16_t, s)
TILEC_VEC_ALIASES_(uint16_t, us)
TILEC_VEC_ALIASES_(int32_t, i)
TILEC_VEC_ALIASES_(uint32_t, ui)
TILEC_VEC_ALIASES_(int64_t, l)
TILEC_VEC_ALIASES_(uint64_t, ul)
#undef TILEC_FLOAT_ALIASES_
#undef TILEC_VEC_ALIASES_

// The layouts the checker gives these types (CompositeLayout): packed scalars.
static_assert(sizeof(vec3f) == 12 && alignof(vec3f) == 4);
static_assert(sizeof(mat33d) == 72 && alignof(mat33d) == 8);
static_assert(sizeof(quath) == 8 && sizeof(transformf) == 28 && offsetof(transformf, q) == 12);
static_assert(sizeof(spatial_matrixf) == 144);
static_assert(std::is_trivially_copyable_v<vec3f> && std::is_standard_layout_v<transformf>);

}  // namespace tilec
