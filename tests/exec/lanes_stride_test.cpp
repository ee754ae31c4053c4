// Per-lane element loads and stores through arrays of every layout: the CPU's loops over the
// lanes are versioned on unit innermost strides, so the same kernels run on contiguous arrays,
// on strided views (every other element, a transposed matrix's column, a broadcast of stride 0,
// a sub-block whose rows are apart) and on a mix of both; each result is checked against a
// reference computed here from the views' own strides, sums in the documented order.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "tests/exec/exec_util.h"
#include "tests/exec/lanes_util.h"

namespace tilec {
namespace {

using testing::Launch;
using testing::Lanes;
using testing::View;

std::set<int> BlockDims() {
  std::set<int> s;
  for (int b : {1, 7, 64, 256}) s.insert(Lanes(b));
  return s;
}

// A 1-D layout over a buffer: element i at buf[i * stride].
struct Layout1 {
  const char* name;
  int64_t stride;  // in elements
};
const Layout1 kLayouts1[] = {{"contiguous", 1}, {"every_other", 2}, {"every_third", 3}, {"broadcast", 0}};

TEST(LanesStride, LoadsAndStoresOfOneDimensionalViews) {
  const char* src = R"(
@wp.kernel
def k(x: wp.array[float], y: wp.array[float], sums: wp.array[float]):
    b, lane = wp.tid()
    i = b * wp.block_dim() + lane
    v = x[i] * 2.0 + 1.0
    y[i] = v
    wp.tile_store(sums, wp.tile_sum(wp.tile(v)), offset=b)
)";
  for (int B : BlockDims()) {
    auto m = testing::CompileForLanes(src, B);
    const int G = 3, n = G * B;
    for (const Layout1& lx : kLayouts1)
      for (const Layout1& ly : kLayouts1) {
        if (ly.stride == 0) continue;  // a broadcast store has one surviving lane: not this test
        std::vector<float> xb(size_t(n * 3 + 1)), yb(size_t(n * ly.stride), -5.0f), sums(G, 0.0f);
        for (size_t k = 0; k < xb.size(); ++k) xb[k] = float(int(k % 97) - 48) * 0.25f;
        tilec_array vx = View(xb.data(), {n}, {lx.stride}), vy = View(yb.data(), {n}, {ly.stride}),
                    vs = View(sums.data(), {G});
        Launch(m.Entry("k"), {&vx, &vy, &vs}, {G}, B);
        std::vector<float> want_y(yb.size(), -5.0f);
        for (int b = 0; b < G; ++b) {
          std::vector<float> v(static_cast<size_t>(B));
          for (int l = 0; l < B; ++l) {
            int i = b * B + l;
            v[size_t(l)] = xb[size_t(i * lx.stride)] * 2.0f + 1.0f;
            want_y[size_t(i * ly.stride)] = v[size_t(l)];
          }
          float want = testing::FoldInDocumentedOrder(v, -0.0f, [](float a, float c) { return a + c; });
          EXPECT_EQ(sums[size_t(b)], want) << "B=" << B << " x " << lx.name << " y " << ly.name << " block " << b;
        }
        // Also the gaps of a strided y, which no lane may touch.
        EXPECT_EQ(yb, want_y) << "B=" << B << " x " << lx.name << " y " << ly.name;
      }
  }
}

// A 2-D layout of an R x C matrix over a buffer: element (r, c) at buf[r * rs + c * cs].
struct Layout2 {
  const char* name;
  int64_t rs, cs;  // in elements
};

TEST(LanesStride, RowsAndColumnsOfTwoDimensionalViews) {
  // q is a row picked per lane, made in the first loop over the lanes and remade in the
  // second (after the tile operation); r a row of the block; m[lane % R, j] a column.
  const char* src = R"(
@wp.kernel
def k(m: wp.array2d[float], out: wp.array2d[float], j: int):
    b, lane = wp.tid()
    r = m[b]
    q = m[(b + lane) % m.shape[0]]
    v = r[lane % m.shape[1]] + q[lane % m.shape[1]] * 3.0 + m[lane % m.shape[0], j]
    s = wp.tile_sum(wp.tile(v))
    o = out[b]
    o[lane] = q[(lane + 1) % m.shape[1]] - wp.tile_extract(s, 0)
)";
  const int R = 5, C = 9, j = 4;
  const Layout2 layouts[] = {
      {"contiguous", C, 1}, {"transposed", 1, R}, {"sub_block", 2 * C + 3, 1}, {"strided_rows", 3 * C, 2}};
  for (int B : BlockDims()) {
    auto m = testing::CompileForLanes(src, B);
    const int G = 3;  // blocks: rows 0..2 of m
    for (const Layout2& L : layouts) {
      std::vector<float> mb(size_t((R - 1) * L.rs + (C - 1) * L.cs + 1), 0.0f);
      auto at = [&](int r, int c) -> float& { return mb[size_t(r * L.rs + c * L.cs)]; };
      for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) at(r, c) = float(r * 16 + c) * 0.5f - 7.0f;
      // out: G rows of B, every other column, so the per-lane stores are strided too when the
      // matrix is; contiguous otherwise.
      int64_t ocs = L.cs == 1 ? 1 : 2;
      std::vector<float> ob(size_t(G * B * ocs), 123.0f);
      tilec_array vm = View(mb.data(), {R, C}, {L.rs, L.cs}), vo = View(ob.data(), {G, B}, {B * ocs, ocs});
      int32_t jj = j;
      Launch(m.Entry("k"), {&vm, &vo, &jj}, {G}, B);
      std::vector<float> want(ob.size(), 123.0f);
      for (int b = 0; b < G; ++b) {
        std::vector<float> v(static_cast<size_t>(B));
        for (int l = 0; l < B; ++l) {
          int qr = (b + l) % R;
          v[size_t(l)] = at(b, l % C) + at(qr, l % C) * 3.0f + at(l % R, j);
        }
        float s = testing::FoldInDocumentedOrder(v, -0.0f, [](float a, float c) { return a + c; });
        for (int l = 0; l < B; ++l) want[size_t((b * B + l) * ocs)] = at((b + l) % R, (l + 1) % C) - s;
      }
      EXPECT_EQ(ob, want) << "B=" << B << " layout " << L.name;
    }
  }
}

TEST(LanesStride, IntegerAndDoubleElementsMixedWithStridedArrays) {
  // Three arrays, each contiguous or not: the unit-stride copy runs only when all are.
  const char* src = R"(
@wp.kernel
def k(a: wp.array[wp.float64], c: wp.array[int], out: wp.array[wp.float64]):
    b, lane = wp.tid()
    i = b * wp.block_dim() + lane
    c[i] = c[i] * 3 + lane
    out[i] = a[i] * wp.float64(c[i]) + wp.float64(wp.tile_extract(wp.tile_ones(shape=2, dtype=int), 0))
)";
  for (int B : BlockDims()) {
    auto m = testing::CompileForLanes(src, B);
    const int G = 2, n = G * B;
    for (int mask = 0; mask < 8; ++mask) {
      int64_t sa = mask & 1 ? 2 : 1, sc = mask & 2 ? 3 : 1, so = mask & 4 ? 2 : 1;
      std::vector<double> ab(size_t(n * sa)), ob(size_t(n * so), -1.0);
      std::vector<int32_t> cb(size_t(n * sc));
      for (size_t k = 0; k < ab.size(); ++k) ab[k] = double(k) * 0.125 - 3.0;
      for (size_t k = 0; k < cb.size(); ++k) cb[k] = int32_t(k % 11) - 5;
      std::vector<double> want_o = ob;
      std::vector<int32_t> want_c = cb;
      for (int b = 0; b < G; ++b)
        for (int l = 0; l < B; ++l) {
          int i = b * B + l;
          want_c[size_t(i * sc)] = cb[size_t(i * sc)] * 3 + l;
          want_o[size_t(i * so)] = ab[size_t(i * sa)] * double(want_c[size_t(i * sc)]) + 1.0;
        }
      tilec_array va = View(ab.data(), {n}, {sa}), vc = View(cb.data(), {n}, {sc}), vo = View(ob.data(), {n}, {so});
      Launch(m.Entry("k"), {&va, &vc, &vo}, {G}, B);
      EXPECT_EQ(cb, want_c) << "B=" << B << " mask " << mask;
      EXPECT_EQ(ob, want_o) << "B=" << B << " mask " << mask;
    }
  }
}

}  // namespace
}  // namespace tilec
