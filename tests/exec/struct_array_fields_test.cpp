// Structs with array fields: the kernel takes each array as a parameter of its own after the
// struct (`s.x`, `s.inner.w`), read per lane, through a func, and as a tile; references are
// plain loops here.
#include <gtest/gtest.h>

#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

const char* kSource = R"(
@wp.struct
class Inner:
    w: wp.array2d(dtype=float)
    k: int

@wp.struct
class State:
    x: wp.array(dtype=float)
    scale: float
    inner: Inner

@wp.func
def row(inner: Inner, i: int):
    return inner.w[i, inner.k]

@wp.kernel
def per_lane(s: State, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = s.x[i] * s.scale + row(s.inner, i) + float(s.x.shape[0])

@wp.kernel
def tiled(s: State, out: wp.array(dtype=float)):
    t = wp.tile_load(s.x, shape=8)
    u = wp.tile_load(s.inner.w, shape=(8, 2))
    wp.tile_store(out, wp.tile_map(wp.mul, t, t) * s.scale + wp.tile_sum(u, axis=1))
)";

// The struct's bytes: `scale` then Inner's `k` (its only non-array field), as the kernel lays
// them out.
struct StateBytes {
  float scale;
  int32_t k;
};

TEST(StructArrayFields, ReadPerLaneThroughFuncsAndAsTiles) {
  auto c = CompileText(kSource);
  ASSERT_TRUE(c.module);
  std::vector<float> x(8), w(16);
  for (int i = 0; i < 8; ++i) x[i] = 0.5f * float(i) - 1.0f;
  for (int i = 0; i < 16; ++i) w[i] = float(i * 3 % 7);
  StateBytes s{2.0f, 1};
  tilec_array xa = View(x.data(), {8}), wa = View(w.data(), {8, 2});

  std::vector<float> out(8, -1.0f);
  tilec_array oa = View(out.data(), {8});
  Launch(c.Entry("per_lane"), {&s, &xa, &wa, &oa}, {8});
  for (int i = 0; i < 8; ++i) EXPECT_FLOAT_EQ(out[i], x[i] * 2.0f + w[i * 2 + 1] + 8.0f) << i;

  for (int block_dim : {1, 4, 32}) {
    auto ct = CompileText(kSource, [&] {
      compiler::CompileOptions o;
      o.block_dim = block_dim;
      return o;
    }());
    ASSERT_TRUE(ct.module);
    std::vector<float> t(8, -1.0f);
    tilec_array ta = View(t.data(), {8});
    Launch(ct.Entry("tiled"), {&s, &xa, &wa, &ta}, {1}, block_dim);
    for (int i = 0; i < 8; ++i) EXPECT_FLOAT_EQ(t[i], x[i] * x[i] * 2.0f + w[i * 2] + w[i * 2 + 1]) << i << " " << block_dim;
  }
}

}  // namespace
}  // namespace tilec
