// wp.tile_map with a lambda: one to three tiles, scalar arguments, a captured local, a vector
// result and a parameter that shadows a local; and wp.where on scalars, vectors and mapped
// over tiles. Every element against the same formula in the test.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

struct V3 {
  float x, y, z;
};

TEST(TileMapLambda, ElementsScalarsCapturesAndVectors) {
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array2d[float], y: wp.array2d[float], n: wp.array2d[int], out: wp.array3d[float],
      vec: wp.array2d[wp.vec3], cnt: wp.array2d[int]):
    a = wp.tile_load(x, shape=(3, 5))
    b = wp.tile_load(y, shape=(3, 5))
    m = wp.tile_load(n, shape=(3, 5))
    s = x[2, 4]
    twice = wp.tile_map(lambda a: a * 2.0 + 1.0, a)
    wp.tile_store(out, wp.tile_reshape(twice, shape=(1, 3, 5)), offset=(0, 0, 0))
    wp.tile_store(out, wp.tile_reshape(wp.tile_map(lambda p, q: wp.max(p, q) - s, a, b), shape=(1, 3, 5)), offset=(1, 0, 0))
    three = wp.tile_map(lambda p, q, r: wp.where(r > 2, p * q, p + q) * 0.5, a, b, m)
    wp.tile_store(out, wp.tile_reshape(three, shape=(1, 3, 5)), offset=(2, 0, 0))
    wp.tile_store(out, wp.tile_reshape(wp.tile_map(lambda p, w: p * w, a, 3.0), shape=(1, 3, 5)), offset=(3, 0, 0))
    wp.tile_store(vec, wp.tile_map(lambda p, q: wp.vec3(p, q, p * q), a, b))
    wp.tile_store(cnt, wp.tile_map(op=lambda i: i * i - 1, a=m))
)");
  ASSERT_TRUE(c.module);
  std::vector<float> x(15), y(15);
  std::vector<int32_t> n(15);
  for (int i = 0; i < 15; ++i) {
    x[size_t(i)] = 0.25f * float(i % 7) - 0.75f;
    y[size_t(i)] = 0.5f * float((i * 3) % 5) - 1.0f;
    n[size_t(i)] = (i * 5) % 6;
  }
  const float s = x[14];
  for (int bd : {1, 3, 32}) {
    std::vector<float> out(4 * 15, -7.0f);
    std::vector<V3> vec(15, {-7, -7, -7});
    std::vector<int32_t> cnt(15, -7);
    tilec_array X = View(x.data(), {3, 5}), Y = View(y.data(), {3, 5}), N = View(n.data(), {3, 5}),
                O = View(out.data(), {4, 3, 5}), V = View(vec.data(), {3, 5}), C = View(cnt.data(), {3, 5});
    Launch(c.Entry("k"), {&X, &Y, &N, &O, &V, &C}, {1}, bd);
    for (size_t i = 0; i < 15; ++i) {
      EXPECT_EQ(out[i], x[i] * 2.0f + 1.0f) << "bd=" << bd << " @" << i;
      EXPECT_EQ(out[15 + i], std::max(x[i], y[i]) - s) << "bd=" << bd << " @" << i;
      EXPECT_EQ(out[30 + i], (n[i] > 2 ? x[i] * y[i] : x[i] + y[i]) * 0.5f) << "bd=" << bd << " @" << i;
      EXPECT_EQ(out[45 + i], x[i] * 3.0f) << "bd=" << bd << " @" << i;
      EXPECT_EQ(vec[i].x, x[i]) << "bd=" << bd << " @" << i;
      EXPECT_EQ(vec[i].y, y[i]) << "bd=" << bd << " @" << i;
      EXPECT_EQ(vec[i].z, x[i] * y[i]) << "bd=" << bd << " @" << i;
      EXPECT_EQ(cnt[i], n[i] * n[i] - 1) << "bd=" << bd << " @" << i;
    }
  }
}

// A parameter named like a local reads the element; the local keeps its value after the map.
TEST(TileMapLambda, ParametersShadowLocals) {
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array1d[float], y: wp.array1d[float], z: wp.array1d[float]):
    t = wp.tile_load(x, shape=4)
    a = x[0] + 10.0
    wp.tile_store(y, wp.tile_map(lambda a: a + 1.0, t))
    z[0] = a
)");
  ASSERT_TRUE(c.module);
  std::vector<float> x = {1, 2, 3, 4}, y(4, -7), z(1, -7);
  tilec_array X = View(x.data(), {4}), Y = View(y.data(), {4}), Z = View(z.data(), {1});
  Launch(c.Entry("k"), {&X, &Y, &Z}, {1}, 1);
  EXPECT_EQ(y, (std::vector<float>{2, 3, 4, 5}));
  EXPECT_EQ(z[0], 11.0f);
}

// wp.where: a bool or integer condition (nonzero is true), scalars and vectors, a literal
// taking the other value's type, and mapped over an integer tile with a scalar argument.
TEST(Where, SelectsScalarsVectorsAndTileElements) {
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array1d[float], n: wp.array1d[int], y: wp.array1d[float], v: wp.array1d[wp.vec2], z: wp.array1d[float]):
    i = wp.tid()
    y[i] = wp.where(n[i] > 2, x[i], 0.5)
    v[i] = wp.where(n[i], wp.vec2(1.0, 2.0), wp.vec2(x[i]))

@wp.kernel
def t(x: wp.array1d[float], n: wp.array1d[int], y: wp.array1d[float]):
    a = wp.tile_load(x, shape=6)
    m = wp.tile_load(n, shape=6)
    wp.tile_store(y, wp.tile_map(wp.where, m, a, -1.0))
)");
  ASSERT_TRUE(c.module);
  std::vector<float> x = {1.5f, -2.0f, 3.25f, 4.0f, -0.5f, 6.0f};
  std::vector<int32_t> n = {0, 1, 3, 2, 5, 0};
  std::vector<float> y(6, -7), z(6, -7), w(6, -7);
  struct V2 {
    float x, y;
  };
  std::vector<V2> v(6, {-7, -7});
  tilec_array X = View(x.data(), {6}), N = View(n.data(), {6}), Y = View(y.data(), {6}), V = View(v.data(), {6}),
              Z = View(z.data(), {6}), W = View(w.data(), {6});
  Launch(c.Entry("k"), {&X, &N, &Y, &V, &Z}, {6});
  Launch(c.Entry("t"), {&X, &N, &W}, {1}, 4);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(y[i], n[i] > 2 ? x[i] : 0.5f) << i;
    EXPECT_EQ(v[i].x, n[i] ? 1.0f : x[i]) << i;
    EXPECT_EQ(v[i].y, n[i] ? 2.0f : x[i]) << i;
    EXPECT_EQ(w[i], n[i] ? x[i] : -1.0f) << i;
  }
}

}  // namespace
}  // namespace tilec
