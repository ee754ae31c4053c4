// Warp's hybrid launch (`wp.launch(k, dim=D, block_dim=B)` of a kernel with tile operations)
// over a thread count that is not a multiple of B: the last block's lanes past the threads are
// inactive. They take part in the block's tile operations but store, add atomically and put
// into tiles nothing of their own, in the forward kernel and in its adjoint. References are
// computed here from those rules.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/autodiff/autodiff.h"
#include "runtime/include/tilec/abi.h"
#include "tests/exec/exec_util.h"
#include "tests/exec/lanes_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::View;

// The variant for hybrid launches of `block_dim` lanes (host-SIMT emulation runs its own count).
compiler::CompileOptions Hybrid(int block_dim) {
  compiler::CompileOptions o;
  o.hybrid_launch = true;
  o.block_dim = block_dim;
  return o;
}

// A hybrid launch as the runtime makes it: the thread extents in `dim`, ceil(threads / B)
// block programs.
void LaunchHybrid(void* entry, std::vector<void*> args, std::vector<int64_t> dim, int block_dim) {
  ASSERT_NE(entry, nullptr);
  tilec_launch l{};
  l.ndim = int32_t(dim.size());
  int64_t threads = 1;
  for (int d = 0; d < TILEC_MAX_DIMS; ++d) {
    l.dim[d] = d < int(dim.size()) ? dim[d] : 1;
    threads *= l.dim[d];
  }
  l.block_dim = block_dim;
  reinterpret_cast<tilec_cpu_kernel_fn>(entry)(args.data(), &l, 0, (threads + block_dim - 1) / block_dim);
}

constexpr const char* kEffects = R"(
@wp.kernel
def effects(x: wp.array[float], y: wp.array[float], count: wp.array[int], prev: wp.array[int],
            block_sum: wp.array[float], slot_sum: wp.array[float]):
    i = wp.tid()
    y[i] = x[i] * 2.0
    prev[i] = wp.atomic_add(count, 0, 1)
    # The block's lanes' values: an inactive lane's element keeps the tile's zero.
    block_sum[i] = wp.tile_sum(wp.tile(x[i]))[0]
    t = wp.tile_zeros(shape=(1024,), dtype=float)
    t[i % 1024] = x[i] + 1.0
    slot_sum[i] = wp.tile_sum(t)[0]
)";

TEST(PartialBlock, InactiveLanesHaveNoEffects) {
  const int B = testing::Lanes(32);
  auto c = CompileText(kEffects, Hybrid(B));
  ASSERT_TRUE(c.module);
  for (int n : {1, B - 1, B, B + 1, 2 * B + B / 3 + 1}) {
    if (n < 1) continue;
    std::vector<float> x(static_cast<size_t>(n)), y(static_cast<size_t>(n), -1), block_sum(size_t(n), -1), slot_sum(size_t(n), -1);
    std::vector<int32_t> count(1, 0), prev(static_cast<size_t>(n), -1);
    for (int k = 0; k < n; ++k) x[size_t(k)] = float(k % 7) - 2.5f;
    tilec_array vx = View(x.data(), {n}), vy = View(y.data(), {n}), vc = View(count.data(), {1}),
                vp = View(prev.data(), {n}), vb = View(block_sum.data(), {n}), vs = View(slot_sum.data(), {n});
    LaunchHybrid(c.Entry("effects"), {&vx, &vy, &vc, &vp, &vb, &vs}, {n}, B);
    EXPECT_EQ(count[0], n) << "n=" << n << ": one atomic per thread, none from inactive lanes";
    std::vector<bool> seen(size_t(n), false);
    for (int k = 0; k < n; ++k) {
      EXPECT_EQ(y[size_t(k)], x[size_t(k)] * 2.0f) << "n=" << n << " k=" << k;
      ASSERT_GE(prev[size_t(k)], 0);
      ASSERT_LT(prev[size_t(k)], n);
      EXPECT_FALSE(seen[size_t(prev[size_t(k)])]) << "n=" << n << ": previous value " << prev[size_t(k)] << " twice";
      seen[size_t(prev[size_t(k)])] = true;
      // The sums of the thread's own block, in lane order as the tile reduction combines.
      int first = k / B * B, last = std::min(first + B, n);
      double want = 0, want_slots = 0;
      for (int j = first; j < last; ++j) {
        want += x[size_t(j)];
        want_slots += x[size_t(j)] + 1.0f;
      }
      EXPECT_NEAR(block_sum[size_t(k)], want, 1e-4) << "n=" << n << " k=" << k;
      EXPECT_NEAR(slot_sum[size_t(k)], want_slots, 1e-4) << "n=" << n << " k=" << k;
    }
  }
}

// Coordinates over several extents: each of the 5 x 7 threads writes its own cell once.
TEST(PartialBlock, TwoDimensionalThreadsEachOnce) {
  const int B = testing::Lanes(16);
  auto c = CompileText(R"(
@wp.kernel
def cells(out: wp.array2d[int], hits: wp.array2d[int]):
    i, j = wp.tid()
    t = wp.tile_ones(shape=(4,), dtype=int)
    out[i, j] = i * 100 + j + wp.tile_sum(t)[0]
    wp.atomic_add(hits, i, j, 1)
)",
                       Hybrid(B));
  ASSERT_TRUE(c.module);
  std::vector<int32_t> out(35, -1), hits(35, 0);
  tilec_array vo = View(out.data(), {5, 7}), vh = View(hits.data(), {5, 7});
  LaunchHybrid(c.Entry("cells"), {&vo, &vh}, {5, 7}, B);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j) {
      EXPECT_EQ(out[size_t(i * 7 + j)], i * 100 + j + 4) << i << "," << j;
      EXPECT_EQ(hits[size_t(i * 7 + j)], 1) << i << "," << j;
    }
}

// The adjoint guards the same lanes: each thread's x receives its gradient once.
TEST(PartialBlock, AdjointAddsEachGradientOnce) {
  const int B = testing::Lanes(32);
  auto c = CompileText(R"(
@wp.kernel
def sq(x: wp.array[wp.float64], y: wp.array[wp.float64]):
    i = wp.tid()
    t = wp.tile_ones(shape=(2,), dtype=wp.float64)
    y[i] = x[i] * x[i] * wp.tile_sum(t)[0]
)",
                       Hybrid(B));
  ASSERT_TRUE(c.module);
  void* adj = c.Entry(autodiff::AdjointName("sq"));
  ASSERT_NE(adj, nullptr);
  const int n = B + B / 2 + 1;
  std::vector<double> x(static_cast<size_t>(n)), y(static_cast<size_t>(n), 0), gx(static_cast<size_t>(n), 0), gy(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) {
    x[size_t(k)] = 0.25 * k - 3;
    gy[size_t(k)] = 1.0 + 0.5 * (k % 3);
  }
  tilec_array vx = View(x.data(), {n}), vy = View(y.data(), {n});
  vx.grad = gx.data();
  vy.grad = gy.data();
  std::vector<double> w = gy;
  LaunchHybrid(adj, {&vx, &vy, nullptr, nullptr}, {n}, B);
  for (int k = 0; k < n; ++k) {
    const double h = 1e-6, v = x[size_t(k)];
    const double fd = w[size_t(k)] * ((v + h) * (v + h) * 2 - (v - h) * (v - h) * 2) / (2 * h);
    EXPECT_NEAR(gx[size_t(k)], fd, 1e-6 * (1 + std::abs(fd))) << "k=" << k;
  }
}

}  // namespace
}  // namespace tilec
