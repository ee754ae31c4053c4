// Structs with array fields at the ABI: the kernel takes each array as a parameter of its own
// after the struct (`s.x`, `s.springs.rest`), read per lane, through a func, and as a tile;
// references are plain loops here.
#include <gtest/gtest.h>

#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

// Array fields between scalar fields, and two in a nested struct: the kernel's parameters are
// the struct, its own arrays in declaration order, then each nested struct's.
const char* kSource = R"(
@wp.struct
class Springs:
    rest: wp.array(dtype=float)
    k: float
    stiff: wp.array2d(dtype=float)

@wp.struct
class System:
    x: wp.array(dtype=float)
    scale: float
    springs: Springs
    v: wp.array(dtype=float)

@wp.func
def force(sp: Springs, i: int, xi: float):
    return sp.k * sp.stiff[i, 1] * (xi - sp.rest[i])

@wp.kernel
def per_lane(s: System, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = force(s.springs, i, s.x[i]) * s.scale + s.v[i] + float(s.springs.rest.shape[0])

@wp.kernel
def tiled(s: System, out: wp.array(dtype=float)):
    x = wp.tile_load(s.x, shape=8)
    r = wp.tile_load(s.springs.rest, shape=8)
    w = wp.tile_load(s.springs.stiff, shape=(8, 2))
    wp.tile_store(out, wp.tile_map(wp.mul, x - r, x - r) * s.springs.k + wp.tile_sum(w, axis=1))
)";

// The struct's bytes: `scale`, then Springs' `k` (each struct's only non-array field).
struct SystemBytes {
  float scale;
  float k;
};

TEST(StructArrayFields, ParametersInDeclarationOrderPerLaneAndAsTiles) {
  auto c = CompileText(kSource);
  ASSERT_TRUE(c.module);
  std::vector<float> x(8), v(8), rest(8), stiff(16);
  for (int i = 0; i < 8; ++i) {
    x[i] = 0.5f * float(i) - 1.0f;
    v[i] = float(i % 3);
    rest[i] = 0.25f * float(i);
  }
  for (int i = 0; i < 16; ++i) stiff[i] = float(i * 3 % 7);
  SystemBytes s{2.0f, 3.0f};
  tilec_array xa = View(x.data(), {8}), va = View(v.data(), {8}), ra = View(rest.data(), {8}),
              wa = View(stiff.data(), {8, 2});

  std::vector<float> out(8, -1.0f);
  tilec_array oa = View(out.data(), {8});
  Launch(c.Entry("per_lane"), {&s, &xa, &va, &ra, &wa, &oa}, {8});
  for (int i = 0; i < 8; ++i)
    EXPECT_FLOAT_EQ(out[i], 3.0f * stiff[i * 2 + 1] * (x[i] - rest[i]) * 2.0f + v[i] + 8.0f) << i;

  for (int block_dim : {1, 4, 32}) {
    compiler::CompileOptions o;
    o.block_dim = block_dim;
    auto ct = CompileText(kSource, o);
    ASSERT_TRUE(ct.module);
    std::vector<float> t(8, -1.0f);
    tilec_array ta = View(t.data(), {8});
    Launch(ct.Entry("tiled"), {&s, &xa, &va, &ra, &wa, &ta}, {1}, block_dim);
    for (int i = 0; i < 8; ++i) {
      float d = x[i] - rest[i];
      EXPECT_FLOAT_EQ(t[i], d * d * 3.0f + stiff[i * 2] + stiff[i * 2 + 1]) << i << " " << block_dim;
    }
  }
}

// Array fields of vector and matrix types, as Warp's FFT examples keep their complex scratch
// buffers (`wp.array2d[wp.vec2f]`): the field is there, and reads and writes whole elements
// and components.
TEST(StructArrayFields, VectorAndMatrixElements) {
  auto c = CompileText(R"(
@wp.struct
class Buffers:
    z: wp.array2d[wp.vec2f]
    m: wp.array(dtype=wp.mat22)
    n: int

@wp.kernel
def k(b: Buffers, out: wp.array(dtype=float)):
    i = wp.tid()
    v = b.z[i, 1]
    b.z[i, 0] = wp.vec2f(v[1], v[0])
    out[i] = b.m[i][0, 1] * float(b.n) + wp.length_sq(v)
)");
  ASSERT_TRUE(c.module);
  std::vector<float> z(12), m(12), out(3, -1.0f);  // z: (3, 2) of vec2f; m: 3 of mat22
  for (int i = 0; i < 12; ++i) z[size_t(i)] = 0.5f * float(i), m[size_t(i)] = float(i) - 4.0f;
  const std::vector<float> z0 = z;
  int32_t n = 3;
  tilec_array za = View(z.data(), {3, 2}), ma = View(m.data(), {3}), oa = View(out.data(), {3});
  za.strides[0] = 16, za.strides[1] = 8;
  ma.strides[0] = 16;
  Launch(c.Entry("k"), {&n, &za, &ma, &oa}, {3});
  for (int i = 0; i < 3; ++i) {
    const float a = z0[size_t(i * 4 + 2)], b = z0[size_t(i * 4 + 3)];
    EXPECT_EQ(z[size_t(i * 4)], b) << i;
    EXPECT_EQ(z[size_t(i * 4 + 1)], a) << i;
    EXPECT_FLOAT_EQ(out[size_t(i)], m[size_t(i * 4 + 1)] * 3.0f + (a * a + b * b)) << i;
  }
}

}  // namespace
}  // namespace tilec
