// Warp's generic funcs (parameters annotated `Any`), overloaded funcs (one name defined for
// several parameter types) and `a.dtype` in kernels: one template called at several types runs
// each instance in that type's arithmetic (float32 rounding, float64, integer division,
// vectors), through tile_map and tile_reduce too, and takes gradients through an instance;
// a call of an overloaded name runs the definition for its argument types. References are
// computed here in the same types.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/autodiff/autodiff.h"
#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

constexpr const char* kScalars = R"(
from typing import Any

@wp.func
def blend(x: Any, y: Any):
    return x * y + x / y

@wp.func
def offset(x: Any, k: Any = 3):
    return x + k

@wp.func
def scaled_first(a: wp.array[Any], s: Any):
    return a[0] * s + a.dtype(1)

@wp.kernel
def k(f: wp.array[float], d: wp.array[wp.float64], n: wp.array[int], of: wp.array[float], od: wp.array[wp.float64],
      on: wp.array[int]):
    i = wp.tid()
    of[i] = blend(f[i], f[i] + 3.0) + scaled_first(f, f.dtype(0.5)) + offset(f[i], 0.25)
    od[i] = blend(d[i], d[i] + 3.0) + scaled_first(d, wp.float64(0.25)) + offset(d[i], wp.float64(0.5))
    on[i] = blend(n[i], n[i] + 20) + scaled_first(n, 2) + offset(n[i])
)";

TEST(GenericFunc, InstancesComputeInTheirOwnTypes) {
  auto c = CompileText(kScalars);
  ASSERT_TRUE(c.module);
  const int n = 5;
  std::vector<float> f = {0.1f, -1.7f, 2.3f, 1e-3f, 7.0f}, of(n, 0);
  std::vector<double> d = {0.1, -1.7, 2.3, 1e-3, 7.0}, od(n, 0);
  std::vector<int32_t> in = {7, -7, 3, 0, 10}, on(n, 0);
  tilec_array vf = View(f.data(), {n}), vd = View(d.data(), {n}), vn = View(in.data(), {n}),
              vof = View(of.data(), {n}), vod = View(od.data(), {n}), von = View(on.data(), {n});
  Launch(c.Entry("k"), {&vf, &vd, &vn, &vof, &vod, &von}, {n});
  for (int i = 0; i < n; ++i) {
    const float xf = f[size_t(i)], yf = xf + 3.0f;
    const double xd = d[size_t(i)], yd = xd + 3.0;
    const int32_t xn = in[size_t(i)], yn = xn + 20;
    // Each sum in the kernel's order, rounded in the instance's type (float32 stays float32).
    float ef = ((xf * yf + xf / yf) + (f[0] * 0.5f + 1.0f)) + (xf + 0.25f);
    double ed = ((xd * yd + xd / yd) + (d[0] * 0.25 + 1.0)) + (xd + 0.5);
    // `/` on ints is Warp's truncating division.
    int32_t en = ((xn * yn + xn / yn) + (in[0] * 2 + 1)) + (xn + 3);
    EXPECT_EQ(of[size_t(i)], ef) << i;
    EXPECT_EQ(od[size_t(i)], ed) << i;
    EXPECT_EQ(on[size_t(i)], en) << i;
  }
}

TEST(GenericFunc, VectorsMapsAndReductions) {
  auto c = CompileText(R"(
from typing import Any

@wp.func
def twice(x: Any):
    return x + x

@wp.func
def larger(a: Any, b: Any):
    return wp.max(a, b)

@wp.kernel
def k(v: wp.array[wp.vec3], x: wp.array[wp.float64], ov: wp.array[wp.vec3], ox: wp.array[wp.float64],
      top: wp.array[wp.float64]):
    for j in range(2):
        ov[j] = twice(v[j])
    t = wp.tile_load(x, shape=8)
    wp.tile_store(ox, wp.tile_map(twice, t))
    wp.tile_store(top, wp.tile_reduce(larger, t))
)");
  ASSERT_TRUE(c.module);
  struct V3 {
    float c[3];
  };
  std::vector<V3> v = {{{1, 2, 3}}, {{-4, 5.5f, 6}}}, ov(2);
  std::vector<double> x = {0.5, -3, 9.25, 2, 1, -8, 4, 3}, ox(8, 0), top(1, 0);
  tilec_array vv = View(v.data(), {2}), vov = View(ov.data(), {2});
  tilec_array vx = View(x.data(), {8}), vox = View(ox.data(), {8}), vt = View(top.data(), {1});
  Launch(c.Entry("k"), {&vv, &vx, &vov, &vox, &vt}, {1}, 4);
  for (int e = 0; e < 6; ++e) EXPECT_EQ(ov[size_t(e / 3)].c[e % 3], v[size_t(e / 3)].c[e % 3] * 2) << e;
  for (int e = 0; e < 8; ++e) EXPECT_EQ(ox[size_t(e)], x[size_t(e)] * 2) << e;
  EXPECT_EQ(top[0], 9.25);
}

TEST(GenericFunc, GradientThroughAnInstance) {
  auto c = CompileText(R"(
from typing import Any

@wp.func
def cube(x: Any):
    return x * x * x

@wp.kernel
def k(x: wp.array[wp.float64], y: wp.array[wp.float64]):
    i = wp.tid()
    y[i] = cube(x[i]) + cube(wp.float64(2.0)) * x[i]
)");
  ASSERT_TRUE(c.module);
  void* adj = c.Entry(autodiff::AdjointName("k"));
  ASSERT_NE(adj, nullptr);
  const int n = 4;
  std::vector<double> x = {0.5, -1.5, 2.0, 0.1}, y(n, 0), gx(n, 0), gy = {1.0, 2.0, -1.0, 0.5};
  tilec_array vx = View(x.data(), {n}), vy = View(y.data(), {n});
  vx.grad = gx.data();
  vy.grad = gy.data();
  std::vector<double> w = gy;
  Launch(adj, {&vx, &vy, nullptr, nullptr}, {n});
  for (int i = 0; i < n; ++i) {
    auto f = [](double v) { return v * v * v + 8.0 * v; };
    const double h = 1e-6, v = x[size_t(i)];
    const double fd = w[size_t(i)] * (f(v + h) - f(v - h)) / (2 * h);
    EXPECT_NEAR(gx[size_t(i)], fd, 1e-6 * (1 + std::abs(fd))) << i;
  }
}

// `-> tuple[float, float]` (Warp's example programs annotate multi-value funcs so) and
// typing's `Tuple`: the func returns that many values, unpacked by the caller.
TEST(GenericFunc, TupleReturnAnnotations) {
  auto c = CompileText(R"(
from typing import Tuple

@wp.func
def loss_coeffs(gamma: float) -> tuple[float, float]:
    h = 0.5 * gamma
    return (1.0 - h) / (1.0 + h), 1.0 / (1.0 + h)

@wp.func
def split(x: float) -> Tuple[int, float]:
    return int(x), x - float(int(x))

@wp.kernel
def k(g: wp.array[float], a: wp.array[float], b: wp.array[float], w: wp.array[int], f: wp.array[float]):
    i = wp.tid()
    a[i], b[i] = loss_coeffs(g[i])
    whole, frac = split(g[i] * 3.0)
    w[i] = whole
    f[i] = frac
)");
  ASSERT_TRUE(c.module);
  std::vector<float> g = {0.0f, 0.5f, 1.25f, 2.0f}, a(4), b(4), f(4);
  std::vector<int32_t> w(4);
  tilec_array vg = View(g.data(), {4}), va = View(a.data(), {4}), vb = View(b.data(), {4}), vw = View(w.data(), {4}),
              vf = View(f.data(), {4});
  Launch(c.Entry("k"), {&vg, &va, &vb, &vw, &vf}, {4});
  for (size_t i = 0; i < 4; ++i) {
    const float h = 0.5f * g[i];
    EXPECT_EQ(a[i], (1.0f - h) / (1.0f + h)) << i;
    EXPECT_EQ(b[i], 1.0f / (1.0f + h)) << i;
    const float x = g[i] * 3.0f;
    EXPECT_EQ(w[i], int32_t(x)) << i;
    EXPECT_EQ(f[i], x - float(int32_t(x))) << i;
  }
}

TEST(GenericFunc, OverloadsPickTheDefinitionForTheArgumentTypes) {
  auto c = CompileText(R"(
@wp.func
def f(x: wp.float32):
    return x * 2.0

@wp.func
def f(x: wp.float64):
    return x * wp.float64(3.0)

@wp.func
def f(x: int, y: int):
    return x + y

@wp.func
def comb(a: float, b: float) -> float:
    return wp.max(a, b)

@wp.func
def comb(a: wp.float64, b: wp.float64) -> wp.float64:
    return wp.min(a, b)

@wp.kernel
def k(a: wp.array[float], b: wp.array[wp.float64], c: wp.array[int]):
    i = wp.tid()
    a[i] = f(a[i])
    b[i] = f(b[i])
    c[i] = f(c[i], 10)

@wp.kernel
def r(a: wp.array[float], b: wp.array[wp.float64], out: wp.array[float], out64: wp.array[wp.float64]):
    wp.tile_store(out, wp.tile_reduce(comb, wp.tile_load(a, shape=4)))
    wp.tile_store(out64, wp.tile_reduce(comb, wp.tile_load(b, shape=4)))
    wp.tile_store(out, wp.tile_map(f, wp.tile_load(a, shape=4)), offset=1)
)");
  ASSERT_TRUE(c.module);
  std::vector<float> a = {0, 1, 2, 3}, out(5, -1);
  std::vector<double> b = {0, 1, 2, 3}, out64(1, -1);
  std::vector<int32_t> n = {0, 1, 2, 3};
  tilec_array va = View(a.data(), {4}), vb = View(b.data(), {4}), vn = View(n.data(), {4}), vo = View(out.data(), {5}),
              vo64 = View(out64.data(), {1});
  Launch(c.Entry("k"), {&va, &vb, &vn}, {4});
  EXPECT_EQ(a, (std::vector<float>{0, 2, 4, 6}));
  EXPECT_EQ(b, (std::vector<double>{0, 3, 6, 9}));
  EXPECT_EQ(n, (std::vector<int32_t>{10, 11, 12, 13}));
  Launch(c.Entry("r"), {&va, &vb, &vo, &vo64}, {1}, 8);
  EXPECT_EQ(out, (std::vector<float>{6, 0, 4, 8, 12}));  // float32: the maximum, then f doubles
  EXPECT_EQ(out64[0], 0.0);  // the float64 combiner: the minimum
}

}  // namespace
}  // namespace tilec
