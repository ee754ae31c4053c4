// Block-strided loops with tile operations inside: `for e in range(lane, m * B, B)` runs the
// same trips on every lane, so `wp.tile(...)` and reductions in its body are cooperative.
// References are loops over the elements written here; gradients are worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "ir/autodiff/autodiff.h"
#include "tests/exec/exec_util.h"
#include "tests/exec/lanes_util.h"

namespace tilec {
namespace {

using testing::CompileForLanes;
using testing::LaneCounts;
using testing::Launch;
using testing::View;

// Warp's pattern: the stop rounded up to a multiple of the block's size, the step the block's
// size from wp.block_dim() (kernel a) or a constant equal to it (kernel b, stop m * B inline);
// lanes past the input contribute -inf.
TEST(BlockStridedLoop, MaxOverABlockStridedLoop) {
  for (int B : LaneCounts()) {
    auto v = CompileForLanes(R"(
@wp.kernel
def a(arr: wp.array[float], out: wp.array[float]):
    _tid, lane = wp.tid()
    num_threads = wp.block_dim()
    best = wp.float32(-wp.inf)
    length = arr.shape[0]
    upper = ((length + num_threads - 1) // num_threads) * num_threads
    for e in range(lane, upper, num_threads):
        val = wp.float32(-wp.inf)
        if e < length:
            val = arr[e]
        t = wp.tile(val)
        best = wp.max(best, wp.tile_max(t)[0])
    if lane == 0:
        out[0] = best

@wp.kernel
def b(arr: wp.array[float], out: wp.array[float], m: int):
    _tid, lane = wp.tid()
    total = float(0.0)
    for e in range(lane, m * {B}, {B}):
        val = float(0.0)
        if e < arr.shape[0]:
            val = arr[e]
        total += wp.tile_sum(wp.tile(val))[0]
    out[lane] = total
)",
                             B);
    ASSERT_TRUE(v.module);
    for (int n : {0, 1, B - 1, B, 2 * B + 3, 5 * B}) {
      if (n < 0) continue;
      std::vector<float> x(static_cast<size_t>(std::max(n, 1)));
      for (int k = 0; k < n; ++k) x[size_t(k)] = float((k * 37) % 101) * 0.25f - 3.0f;
      std::vector<float> out(1, 7.0f);
      tilec_array vx = View(x.data(), {n}), vo = View(out.data(), {1});
      Launch(v.Entry("a"), {&vx, &vo}, {1}, B);
      float want = -std::numeric_limits<float>::infinity();
      for (int k = 0; k < n; ++k) want = std::max(want, x[size_t(k)]);
      EXPECT_EQ(out[0], want) << "B=" << B << " n=" << n;

      for (int m : {-1, 0, 1, 3}) {
        std::vector<float> sums(static_cast<size_t>(B), -1.0f);
        tilec_array vs = View(sums.data(), {B});
        int32_t mm = m;
        Launch(v.Entry("b"), {&vx, &vs, &mm}, {1}, B);
        // Every lane adds the same block sums: the first min(n, m * B) elements, all of them.
        double ref = 0.0;
        for (int k = 0; k < std::min(n, std::max(m, 0) * B); ++k) ref += double(x[size_t(k)]);
        for (int l = 0; l < B; ++l)
          EXPECT_NEAR(sums[size_t(l)], ref, 1e-4 * (1.0 + std::abs(ref))) << "B=" << B << " n=" << n << " m=" << m;
      }
    }
  }
}

// y = sum over trips t of (t + 1) * sum_lanes(x[e]^2) for the elements e < min(n, m * B): the
// gradient of x[e] is 2 * (e // B + 1) * x[e] * dy inside that range and zero past it.
TEST(BlockStridedLoop, GradientThroughTheLoop) {
  for (int B : LaneCounts()) {
    auto v = CompileForLanes(R"(
@wp.kernel
def k(x: wp.array[wp.float64], y: wp.array[wp.float64], m: int):
    i, lane = wp.tid()
    acc = wp.float64(0.0)
    n = x.shape[0]
    for e in range(lane, m * wp.block_dim(), wp.block_dim()):
        val = wp.float64(0.0)
        if e < n:
            val = x[e]
        s = wp.tile_sum(wp.tile(val * val))
        acc += s[0] * wp.float64(e // wp.block_dim() + 1)
    if lane == 0:
        y[0] = acc
)",
                             B);
    ASSERT_TRUE(v.module);
    for (auto [n, m] : std::vector<std::pair<int, int>>{{0, 0}, {5, 1}, {2 * B + 1, 3}, {2 * B + 1, 1}, {4, -2}}) {
      std::vector<double> x(static_cast<size_t>(std::max(n, 1))), xg(x.size(), 0.0), y(1, 0.0), yg(1, 1.5);
      for (int e = 0; e < n; ++e) x[size_t(e)] = -1.0 + 0.375 * e;
      tilec_array vx = View(x.data(), {n}), vy = View(y.data(), {1});
      vx.grad = xg.data();
      vy.grad = yg.data();
      int32_t mm = m;
      Launch(v.Entry("k"), {&vx, &vy, &mm}, {1}, B);
      double want = 0.0;
      const int reach = std::min(n, std::max(m, 0) * B);
      for (int e = 0; e < reach; ++e) want += x[size_t(e)] * x[size_t(e)] * double(e / B + 1);
      EXPECT_NEAR(y[0], want, 1e-12 * (1.0 + want)) << "B=" << B << " n=" << n << " m=" << m;
      Launch(v.Entry(autodiff::AdjointName("k")), {&vx, &vy, &mm, nullptr, nullptr, nullptr}, {1}, B);
      for (int e = 0; e < n; ++e) {
        double g = e < reach ? 2.0 * double(e / B + 1) * x[size_t(e)] * 1.5 : 0.0;
        EXPECT_DOUBLE_EQ(xg[size_t(e)], g) << "B=" << B << " n=" << n << " m=" << m << " x[" << e << "]";
      }
    }
  }
}

}  // namespace
}  // namespace tilec
