// Code under a lane's own condition in tiled kernels: tile_extract there (Warp's stream
// compaction: the last lane reads the block's total and reserves output space), its gradient,
// tile elements each lane writes with its own index (Warp's blocked Cholesky padding),
// arrays as conditions (None arrives empty and reads false), and kernel-local vectors made by
// wp.types.vector and tiled with wp.tile. References are loops written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
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
using testing::Lanes;
using testing::Launch;
using testing::View;

TEST(LaneBranch, StreamCompactionExtractsUnderTheLastLanesCondition) {
  for (int B : LaneCounts()) {
    auto v = CompileForLanes(R"(
@wp.func
def slot(valid: int, incl: int, base: int):
    if valid:
        return base + incl - 1
    return -1

@wp.kernel
def compact(flags: wp.array[int], data: wp.array[float], count: wp.array[int], out: wp.array[float]):
    i, j = wp.tid()
    d = wp.tile_load(data, {B}, offset=i * {B})
    f = wp.tile_load(flags, {B}, offset=i * {B})
    incl = wp.tile_scan_inclusive(f)
    base = 0
    if j == wp.block_dim() - 1:
        total = wp.tile_extract(incl, {B} - 1)
        base = wp.atomic_add(count, 0, total)
    bt = wp.tile_from_thread(shape={B}, value=base, thread_idx=wp.block_dim() - 1, storage="shared")
    wp.tile_store_indexed(out, wp.tile_map(slot, f, incl, bt), d, axis=0)
)",
                             B);
    ASSERT_TRUE(v.module);
    const int blocks = 5, n = B * blocks;
    std::vector<int32_t> flags(static_cast<size_t>(n)), count(1, 0);
    std::vector<float> data(static_cast<size_t>(n)), out(static_cast<size_t>(n), -1.0f);
    std::vector<float> kept;  // the reference: the flagged elements, in order
    for (int k = 0; k < n; ++k) {
      flags[size_t(k)] = (k * 7 + k / 3) % 5 < 2;
      data[size_t(k)] = float(k) + 0.5f;
      if (flags[size_t(k)]) kept.push_back(data[size_t(k)]);
    }
    tilec_array vf = View(flags.data(), {n}), vd = View(data.data(), {n}), vc = View(count.data(), {1}),
                vo = View(out.data(), {n});
    Launch(v.Entry("compact"), {&vf, &vd, &vc, &vo}, {blocks}, B);
    ASSERT_EQ(count[0], int32_t(kept.size())) << "B=" << B;
    // Blocks reserve their ranges in any order; each keeps its own elements in order.
    std::vector<float> got(out.begin(), out.begin() + count[0]);
    for (size_t k = 1; k < got.size(); ++k)
      if (int(got[k - 1]) / B == int(got[k]) / B) EXPECT_LT(got[k - 1], got[k]) << "B=" << B << " at " << k;
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, kept) << "B=" << B;
    for (int k = count[0]; k < n; ++k) EXPECT_EQ(out[size_t(k)], -1.0f) << "B=" << B << " wrote past the count";
  }
}

// y[j] = 3 * s[j-1] on odd lanes, s[(j+1) % B] on even ones, s = x * x: each lane reads the
// tile under its own branch; x's gradient is the sum of what every lane read.
TEST(LaneBranch, ExtractGradientUnderALaneCondition) {
  for (int B : LaneCounts()) {
    auto v = CompileForLanes(R"(
@wp.kernel
def k(x: wp.array[wp.float64], y: wp.array[wp.float64]):
    i, j = wp.tid()
    s = wp.tile_load(x, {B}) * wp.tile_load(x, {B})
    if j % 2 == 1:
        y[j] = wp.tile_extract(s, j - 1) * wp.float64(3.0)
    else:
        y[j] = s[(j + 1) % {B}]
)",
                             B);
    ASSERT_TRUE(v.module);
    const size_t nb = static_cast<size_t>(B);
    std::vector<double> x(nb), xg(nb, 0.0), y(nb, 0.0), w(nb);
    for (int k = 0; k < B; ++k) {
      x[size_t(k)] = 0.25 * k - 1.5;
      w[size_t(k)] = 1.0 + 0.125 * (k % 5);
    }
    tilec_array vx = View(x.data(), {B}), vy = View(y.data(), {B});
    vx.grad = xg.data();
    vy.grad = w.data();
    Launch(v.Entry("k"), {&vx, &vy}, {1}, B);
    std::vector<double> want_y(nb), want_g(nb, 0.0);
    for (int j = 0; j < B; ++j) {
      int at = j % 2 == 1 ? j - 1 : (j + 1) % B;
      double scale = j % 2 == 1 ? 3.0 : 1.0;
      want_y[size_t(j)] = scale * x[size_t(at)] * x[size_t(at)];
      want_g[size_t(at)] += w[size_t(j)] * scale * 2.0 * x[size_t(at)];
    }
    EXPECT_EQ(y, want_y) << "B=" << B;
    Launch(v.Entry(autodiff::AdjointName("k")), {&vx, &vy, nullptr, nullptr}, {1}, B);
    for (int k = 0; k < B; ++k) EXPECT_DOUBLE_EQ(xg[size_t(k)], want_g[size_t(k)]) << "B=" << B << " x[" << k << "]";
  }
}

// Warp's blocked Cholesky pads a shared tile with each lane writing its own elements
// (`t[row, col] = value`, row and col from the lane): every lane's write lands.
TEST(LaneBranch, EachLaneWritesItsOwnTileElement) {
  for (int B : LaneCounts()) {
    auto v = CompileForLanes(R"(
@wp.kernel
def pad(a: wp.array2d[float], out: wp.array2d[float], active: int):
    i, lane = wp.tid()
    t = wp.tile_load(a, shape=(5, 5), storage="shared")
    for it in range((25 + {B} - 1) // {B}):
        li = (lane + it * {B}) % 25
        row = li // 5
        col = li % 5
        value = t[row, col]
        if row >= active or col >= active:
            value = wp.where(row == col, 1.0, 0.0)
        t[row, col] = value
    t[0, 0] = 7.0
    wp.tile_store(out, t)
)",
                             B);
    ASSERT_TRUE(v.module);
    std::vector<float> a(25), out(25, -1.0f);
    for (int k = 0; k < 25; ++k) a[size_t(k)] = 10.0f + float(k);
    tilec_array va = View(a.data(), {5, 5}), vo = View(out.data(), {5, 5});
    int32_t active = 3;
    Launch(v.Entry("pad"), {&va, &vo, &active}, {1}, B);
    for (int r = 0; r < 5; ++r)
      for (int c = 0; c < 5; ++c) {
        float want = r < active && c < active ? a[size_t(r * 5 + c)] : (r == c ? 1.0f : 0.0f);
        if (r == 0 && c == 0) want = 7.0f;
        EXPECT_EQ(out[size_t(r * 5 + c)], want) << "B=" << B << " at (" << r << ", " << c << ")";
      }
  }
}

tilec_array NoneArray() {  // what the runtime passes for None: null, every used extent zero
  tilec_array a{};
  for (int d = 0; d < TILEC_MAX_DIMS; ++d) a.shape[d] = d < 1 ? 0 : 1;
  return a;
}

TEST(LaneBranch, ArraysAsConditions) {
  auto v = CompileForLanes(R"(
@wp.kernel
def k(a: wp.array[float], b: wp.array[float], loss: wp.array[float]):
    i = wp.tid()
    if not a:
        b[i] = 7.0
    elif a and b:
        b[i] = a[i] + 1.0
    b[i] = b[i] + (2.0 if a else 3.0)
    if loss:
        wp.atomic_add(loss, 0, b[i])
)",
                           0);
  ASSERT_TRUE(v.module);
  std::vector<float> a{1, 2, 3}, b(3, 0.0f), loss(1, 0.0f);
  tilec_array va = View(a.data(), {3}), vb = View(b.data(), {3}), vl = View(loss.data(), {1});
  tilec_array none = NoneArray();
  Launch(v.Entry("k"), {&none, &vb, &vl}, {3});
  EXPECT_EQ(b, (std::vector<float>{10, 10, 10}));
  EXPECT_EQ(loss[0], 30.0f);
  Launch(v.Entry("k"), {&va, &vb, &none}, {3});
  EXPECT_EQ(b, (std::vector<float>{4, 5, 6}));
  EXPECT_EQ(loss[0], 30.0f) << "a None `loss` was written";
  std::vector<float> empty;
  tilec_array ve = View(empty.data(), {0});  // no elements: false, as in Warp
  Launch(v.Entry("k"), {&ve, &vb, &vl}, {3});
  EXPECT_EQ(b, (std::vector<float>{10, 10, 10}));
}

// Warp's MLP example: a zero vector from wp.types.vector, filled component by component, then
// tiled across the block (one column per lane).
TEST(LaneBranch, KernelLocalVectorFromTypesVectorTiled) {
  const int B = Lanes(8);
  auto v = CompileForLanes(R"(
@wp.kernel
def k(out: wp.array2d[float]):
    i, j = wp.tid()
    local = wp.types.vector(dtype=float, length=4)
    for s in range(2):
        local[s * 2 + 0] = float(j) + float(s)
        local[s * 2 + 1] = float(j) * 2.0
    wp.tile_store(out, wp.tile(local) * 2.0)
)",
                           B);
  ASSERT_TRUE(v.module);
  std::vector<float> out(static_cast<size_t>(4 * B), -1.0f);
  tilec_array vo = View(out.data(), {4, B});
  Launch(v.Entry("k"), {&vo}, {1}, B);
  for (int j = 0; j < B; ++j) {
    const float want[4] = {float(j), 2.0f * j, float(j) + 1.0f, 2.0f * j};
    for (int c = 0; c < 4; ++c) EXPECT_EQ(out[size_t(c * B + j)], 2.0f * want[c]) << "lane " << j << " component " << c;
  }
}

}  // namespace
}  // namespace tilec
