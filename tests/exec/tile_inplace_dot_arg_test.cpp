// The in-place tile operators (*=, /=, &=, |=, ^=, and `&`, `|`, `^` on tiles) and the
// builtins tile_extract, tile_empty, tile_astype, tile_dot, tile_axpy, tile_argmin and
// tile_argmax, compiled from source, for int32 and float32 tiles where the builtin allows.
// References are plain loops here; inputs are small integers so float results are exact.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::Inputs;
using testing::View;
using testing::WithDType;

constexpr int R = 3, C = 4, N = R * C;

template <typename T>
void ArithmeticInPlace(const std::string& dtype) {
  auto c = CompileText(WithDType(R"(
@wp.kernel
def k(x: wp.array2d[{T}], y: wp.array2d[{T}], prod: wp.array2d[{T}], quot: wp.array2d[{T}]):
    a = wp.tile_load(x, shape=(3, 4))
    b = wp.tile_load(y, shape=(3, 4))
    p = wp.tile_ones(shape=(3, 4), dtype={T})
    p *= a
    p *= b
    p *= {T}(2)
    wp.tile_store(prod, p)
    q = a * {T}(12)
    q /= b
    q /= {T}(2)
    wp.tile_store(quot, q)
)",
                                 dtype));
  ASSERT_TRUE(c.module);
  std::vector<T> x = Inputs<T>(N, 1), y = Inputs<T>(N, 4), prod(N, -99), quot(N, -99);
  tilec_array xa = View(x.data(), {R, C}), ya = View(y.data(), {R, C}), pa = View(prod.data(), {R, C}),
              qa = View(quot.data(), {R, C});
  for (int bd : {1, 4, 7}) {
    Launch(c.Entry("k"), {&xa, &ya, &pa, &qa}, {1}, bd);
    for (int i = 0; i < N; ++i) {
      EXPECT_EQ(prod[i], T(x[i] * y[i] * T(2))) << dtype << " bd=" << bd << " at " << i;
      EXPECT_EQ(quot[i], T(T(x[i] * T(12)) / y[i]) / T(2)) << dtype << " bd=" << bd << " at " << i;
    }
  }
}

TEST(TileInPlace, MulDivInt32) { ArithmeticInPlace<int32_t>("int"); }
TEST(TileInPlace, MulDivFloat32) { ArithmeticInPlace<float>("float"); }

TEST(TileInPlace, BitwiseInt32) {
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array[int], y: wp.array[int], o0: wp.array[int], o1: wp.array[int], o2: wp.array[int],
      o3: wp.array[int]):
    a = wp.tile_load(x, shape=12)
    b = wp.tile_load(y, shape=12)
    t = a
    t &= b
    wp.tile_store(o0, t)
    t = a
    t |= b
    wp.tile_store(o1, t)
    t = a
    t ^= b
    wp.tile_store(o2, t)
    wp.tile_store(o3, (a & b) | (a ^ b))
)");
  ASSERT_TRUE(c.module);
  std::vector<int32_t> x(N), y(N), out(4 * N, -1);
  for (int i = 0; i < N; ++i) {
    x[i] = (i * 37 + 11) % 64;
    y[i] = (i * 23 + 5) % 64;
  }
  tilec_array xa = View(x.data(), {N}), ya = View(y.data(), {N}), o0 = View(out.data(), {N}),
              o1 = View(out.data() + N, {N}), o2 = View(out.data() + 2 * N, {N}), o3 = View(out.data() + 3 * N, {N});
  Launch(c.Entry("k"), {&xa, &ya, &o0, &o1, &o2, &o3}, {1}, 4);
  for (int i = 0; i < N; ++i) {
    EXPECT_EQ(out[i], x[i] & y[i]) << i;
    EXPECT_EQ(out[N + i], x[i] | y[i]) << i;
    EXPECT_EQ(out[2 * N + i], x[i] ^ y[i]) << i;
    EXPECT_EQ(out[3 * N + i], (x[i] & y[i]) | (x[i] ^ y[i])) << i;
  }
}

template <typename T>
void ExtractEmptyAstype(const std::string& dtype) {
  auto c = CompileText(WithDType(R"(
@wp.kernel
def k(x: wp.array2d[{T}], v: wp.array[{T}], picks: wp.array[{T}], zeros: wp.array2d[{T}], asf: wp.array2d[float],
      asi: wp.array2d[int]):
    t = wp.tile_load(x, shape=(3, 4))
    u = wp.tile_load(v, shape=5)
    picks[0] = wp.tile_extract(t, 2, 1)
    picks[1] = wp.tile_extract(t, 0, 3)
    picks[2] = wp.tile_extract(u, 4)
    i = 1
    picks[3] = wp.tile_extract(t, i + 1, i + 2)
    wp.tile_store(zeros, wp.tile_empty(shape=(3, 4), dtype={T}))
    wp.tile_store(asf, wp.tile_astype(t, dtype=float))
    wp.tile_store(asi, wp.tile_astype(t * {T}(3) / {T}(2), dtype=wp.int32))
)",
                                 dtype));
  ASSERT_TRUE(c.module);
  std::vector<T> x = Inputs<T>(N, 2), v = Inputs<T>(5, 3), picks(4, -99), zeros(N, -99);
  std::vector<float> asf(N, -99);
  std::vector<int32_t> asi(N, -99);
  tilec_array xa = View(x.data(), {R, C}), va = View(v.data(), {5}), pa = View(picks.data(), {4}),
              za = View(zeros.data(), {R, C}), fa = View(asf.data(), {R, C}), ia = View(asi.data(), {R, C});
  for (int bd : {1, 4}) {
    Launch(c.Entry("k"), {&xa, &va, &pa, &za, &fa, &ia}, {1}, bd);
    EXPECT_EQ(picks[0], x[2 * C + 1]) << dtype;
    EXPECT_EQ(picks[1], x[0 * C + 3]) << dtype;
    EXPECT_EQ(picks[2], v[4]) << dtype;
    EXPECT_EQ(picks[3], x[2 * C + 3]) << dtype;
    for (int e = 0; e < N; ++e) {
      EXPECT_EQ(zeros[e], T(0)) << dtype << " at " << e;
      EXPECT_EQ(asf[e], float(x[e])) << dtype << " at " << e;
      // C truncation toward zero, as Warp's float-to-int conversion.
      EXPECT_EQ(asi[e], int32_t(T(x[e] * T(3)) / T(2))) << dtype << " at " << e;
    }
  }
}

TEST(TileExtractEmptyAstype, Int32) { ExtractEmptyAstype<int32_t>("int"); }
TEST(TileExtractEmptyAstype, Float32) { ExtractEmptyAstype<float>("float"); }

template <typename T>
void DotAxpy(const std::string& dtype) {
  auto c = CompileText(WithDType(R"(
@wp.kernel
def k(x: wp.array2d[{T}], y: wp.array2d[{T}], v: wp.array[{T}], dots: wp.array[{T}], acc: wp.array2d[{T}]):
    a = wp.tile_load(x, shape=(3, 4))
    b = wp.tile_load(y, shape=(3, 4))
    u = wp.tile_load(v, shape=5)
    dots[0] = wp.tile_dot(a, b)[0]
    wp.tile_store(dots, wp.tile_dot(u, u), offset=1)
    d = b
    wp.tile_axpy({T}(3), a, d)
    for it in range(2):
        wp.tile_axpy({T}(-1), b, dest=d)
    wp.tile_store(acc, d)
)",
                                 dtype));
  ASSERT_TRUE(c.module);
  std::vector<T> x = Inputs<T>(N, 1), y = Inputs<T>(N, 5), v = Inputs<T>(5, 2), dots(2, -99), acc(N, -99);
  tilec_array xa = View(x.data(), {R, C}), ya = View(y.data(), {R, C}), va = View(v.data(), {5}),
              da = View(dots.data(), {2}), aa = View(acc.data(), {R, C});
  for (int bd : {1, 4, 7}) {
    Launch(c.Entry("k"), {&xa, &ya, &va, &da, &aa}, {1}, bd);
    T d0 = 0, d1 = 0;
    for (int e = 0; e < N; ++e) d0 += x[e] * y[e];
    for (T e : v) d1 += e * e;
    EXPECT_EQ(dots[0], d0) << dtype << " bd=" << bd;
    EXPECT_EQ(dots[1], d1) << dtype << " bd=" << bd;
    for (int e = 0; e < N; ++e) EXPECT_EQ(acc[e], T(3) * x[e] + y[e] - y[e] - y[e]) << dtype << " at " << e;
  }
}

TEST(TileDotAxpy, Int32) { DotAxpy<int32_t>("int"); }
TEST(TileDotAxpy, Float32) { DotAxpy<float>("float"); }

template <typename T>
void ArgMinMax(const std::string& dtype) {
  auto c = CompileText(WithDType(R"(
@wp.kernel
def k(x: wp.array2d[{T}], v: wp.array[{T}], idx: wp.array[int]):
    t = wp.tile_load(x, shape=(3, 4))
    u = wp.tile_load(v, shape=5)
    wp.tile_store(idx, wp.tile_argmin(t), offset=0)
    wp.tile_store(idx, wp.tile_argmax(t), offset=1)
    idx[2] = wp.tile_argmin(u)[0]
    idx[3] = wp.tile_argmax(u)[0]
)",
                                 dtype));
  ASSERT_TRUE(c.module);
  // Repeated minima and maxima: the first in row-major order is the answer.
  std::vector<T> x = Inputs<T>(N, 1), v = {T(4), T(-2), T(7), T(-2), T(7)};
  std::vector<int32_t> idx(4, -99);
  tilec_array xa = View(x.data(), {R, C}), va = View(v.data(), {5}), ia = View(idx.data(), {4});
  auto first = [](const std::vector<T>& a, bool want_min) {
    int best = 0;
    for (int i = 1; i < int(a.size()); ++i)
      if (want_min ? a[i] < a[best] : a[i] > a[best]) best = i;
    return best;
  };
  for (int bd : {1, 4, 7}) {
    Launch(c.Entry("k"), {&xa, &va, &ia}, {1}, bd);
    EXPECT_EQ(idx[0], first(x, true)) << dtype << " bd=" << bd;
    EXPECT_EQ(idx[1], first(x, false)) << dtype << " bd=" << bd;
    EXPECT_EQ(idx[2], 1) << dtype << " bd=" << bd;
    EXPECT_EQ(idx[3], 2) << dtype << " bd=" << bd;
  }
}

TEST(TileArgMinMax, Int32) { ArgMinMax<int32_t>("int"); }
TEST(TileArgMinMax, Float32) { ArgMinMax<float>("float"); }

}  // namespace
}  // namespace tilec
