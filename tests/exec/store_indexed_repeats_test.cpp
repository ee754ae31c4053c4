// tile_store_indexed with repeated indices: within a block program the element last in
// row-major order lands, on every device (LANGUAGE.md §5), for 1-D to 3-D tiles along every
// axis, with -1 and out-of-range entries among the repeats. The reference stores the tile's
// elements one after another in row-major order.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

// Stores `tile` (shape `ts`, row-major) into `out` (shape `os`) at indices[c[axis]] along axis.
std::vector<float> SequentialStore(std::vector<float> out, const std::vector<int64_t>& os, const std::vector<float>& tile,
                                   const std::vector<int64_t>& ts, const std::vector<int32_t>& idx, int axis) {
  int64_t n = int64_t(tile.size());
  for (int64_t lin = 0; lin < n; ++lin) {
    std::vector<int64_t> c(ts.size());
    int64_t r = lin;
    for (int d = int(ts.size()) - 1; d >= 0; --d) c[size_t(d)] = r % ts[size_t(d)], r /= ts[size_t(d)];
    c[size_t(axis)] = idx[size_t(c[size_t(axis)])];
    int64_t at = 0;
    bool in = true;
    for (size_t d = 0; d < os.size(); ++d) {
      in = in && c[d] >= 0 && c[d] < os[d];
      at = at * os[d] + c[d];
    }
    if (in) out[size_t(at)] = tile[size_t(lin)];
  }
  return out;
}

std::vector<float> Values(int n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[size_t(i)] = float(i + 1) * 0.5f;
  return v;
}

TEST(StoreIndexedRepeats, LastInRowMajorOrderLandsOnEveryAxis) {
  auto c = CompileText(R"(
@wp.kernel
def k1(x: wp.array1d[float], i: wp.array1d[int], y: wp.array1d[float]):
    wp.tile_store_indexed(y, wp.tile_load(i, shape=6), wp.tile_load(x, shape=6), axis=0)

@wp.kernel
def k2(x: wp.array2d[float], i: wp.array1d[int], y: wp.array2d[float], axis_is_1: int):
    t = wp.tile_load(x, shape=(4, 6))
    if axis_is_1 == 0:
        wp.tile_store_indexed(y, wp.tile_load(i, shape=4), t, axis=0)
    else:
        wp.tile_store_indexed(y, wp.tile_load(i, shape=6), t, axis=1)

@wp.kernel
def k3(x: wp.array3d[float], i0: wp.array1d[int], i1: wp.array1d[int], i2: wp.array1d[int],
       y0: wp.array3d[float], y1: wp.array3d[float], y2: wp.array3d[float]):
    t = wp.tile_load(x, shape=(3, 4, 5))
    wp.tile_store_indexed(y0, wp.tile_load(i0, shape=3), t, axis=0)
    wp.tile_store_indexed(y1, wp.tile_load(i1, shape=4), t, axis=1)
    wp.tile_store_indexed(y2, wp.tile_load(i2, shape=5), t, axis=2)
)");
  ASSERT_TRUE(c.module);
  for (int bd : {1, 4, 32}) {
    {
      std::vector<float> x = Values(6), y(5, -1.f);
      std::vector<int32_t> i = {2, 0, 2, -1, 2, 0};
      tilec_array xa = View(x.data(), {6}), ia = View(i.data(), {6}), ya = View(y.data(), {5});
      Launch(c.Entry("k1"), {&xa, &ia, &ya}, {1}, bd);
      EXPECT_EQ(y, SequentialStore(std::vector<float>(5, -1.f), {5}, x, {6}, i, 0)) << "bd=" << bd;
    }
    for (int axis : {0, 1}) {
      std::vector<float> x = Values(24), y(5 * 7, -1.f);
      std::vector<int32_t> i = axis == 0 ? std::vector<int32_t>{1, 3, 1, 1} : std::vector<int32_t>{0, 6, 0, 2, 6, 9};
      tilec_array xa = View(x.data(), {4, 6}), ia = View(i.data(), {int64_t(i.size())}), ya = View(y.data(), {5, 7});
      int32_t a = axis;
      Launch(c.Entry("k2"), {&xa, &ia, &ya, &a}, {1}, bd);
      EXPECT_EQ(y, SequentialStore(std::vector<float>(35, -1.f), {5, 7}, x, {4, 6}, i, axis)) << "bd=" << bd << " axis=" << axis;
    }
    {
      std::vector<float> x = Values(60), y0(4 * 4 * 5, -1.f), y1(3 * 6 * 5, -1.f), y2(3 * 4 * 6, -1.f);
      std::vector<int32_t> i0 = {3, 3, 0}, i1 = {5, 1, 5, 5}, i2 = {0, 4, 0, 4, -1};
      tilec_array xa = View(x.data(), {3, 4, 5}), a0 = View(i0.data(), {3}), a1 = View(i1.data(), {4}),
                  a2 = View(i2.data(), {5}), b0 = View(y0.data(), {4, 4, 5}), b1 = View(y1.data(), {3, 6, 5}),
                  b2 = View(y2.data(), {3, 4, 6});
      Launch(c.Entry("k3"), {&xa, &a0, &a1, &a2, &b0, &b1, &b2}, {1}, bd);
      EXPECT_EQ(y0, SequentialStore(std::vector<float>(80, -1.f), {4, 4, 5}, x, {3, 4, 5}, i0, 0)) << "bd=" << bd;
      EXPECT_EQ(y1, SequentialStore(std::vector<float>(90, -1.f), {3, 6, 5}, x, {3, 4, 5}, i1, 1)) << "bd=" << bd;
      EXPECT_EQ(y2, SequentialStore(std::vector<float>(72, -1.f), {3, 4, 6}, x, {3, 4, 5}, i2, 2)) << "bd=" << bd;
    }
  }
}

}  // namespace
}  // namespace tilec
