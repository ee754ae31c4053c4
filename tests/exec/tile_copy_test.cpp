// A tile loaded and stored as it is (tile_load or tile_load_indexed feeding tile_store or
// tile_store_indexed), which the CPU lowering copies from array to array row by row: rows cut
// by either array's edge, strided views, repeated and out-of-range indices on both sides, and
// destinations that overlap the source, where the whole tile must be read before any of it is
// written. The reference loads the tile into a buffer, then stores it element by element.
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

// One side of the copy: the indexed axis (-1: a plain tile_load / tile_store), its index
// tile, and the tile's offset in the array.
struct Side {
  int axis = -1;
  std::vector<int32_t> idx;
  std::vector<int32_t> offs;
};

// An array as the kernel sees it: a view into a buffer, strides in elements.
struct Array {
  float* base;
  std::vector<int64_t> shape, strides;
  float& at(const std::vector<int64_t>& g) const {
    int64_t o = 0;
    for (size_t d = 0; d < g.size(); ++d) o += g[d] * strides[d];
    return base[o];
  }
};

std::vector<int64_t> RowMajor(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int d = int(shape.size()) - 2; d >= 0; --d) s[size_t(d)] = s[size_t(d) + 1] * shape[size_t(d) + 1];
  return s;
}

// Global coordinate of tile coordinate c on side s, or false when outside the array.
bool Global(const Side& s, const Array& a, const std::vector<int64_t>& c, std::vector<int64_t>* g) {
  g->resize(c.size());
  for (size_t d = 0; d < c.size(); ++d) {
    (*g)[d] = s.offs[d] + (int(d) == s.axis ? int64_t(s.idx[size_t(c[d])]) : c[d]);
    if ((*g)[d] < 0 || (*g)[d] >= a.shape[d]) return false;
  }
  return true;
}

void ForEach(const std::vector<int64_t>& shape, const std::function<void(const std::vector<int64_t>&, int64_t)>& f) {
  int64_t n = std::accumulate(shape.begin(), shape.end(), int64_t(1), std::multiplies<int64_t>());
  std::vector<int64_t> c(shape.size());
  for (int64_t l = 0; l < n; ++l) {
    int64_t r = l;
    for (int d = int(shape.size()) - 1; d >= 0; --d) c[size_t(d)] = r % shape[size_t(d)], r /= shape[size_t(d)];
    f(c, l);
  }
}

std::string Tuple(const std::vector<std::string>& xs) {
  if (xs.size() == 1) return xs[0];
  std::string s = "(";
  for (size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + xs[i];
  return s + ")";
}

// The kernel `copy(x, xi, y, yi, a0.., b0..)` for tiles of `tshape`.
std::string Kernel(const std::vector<int64_t>& tshape, const Side& src, const Side& dst) {
  const int n = int(tshape.size());
  const std::string nd = std::to_string(n);
  std::vector<std::string> shape, a, b;
  std::string params;
  for (int d = 0; d < n; ++d) {
    shape.push_back(std::to_string(tshape[size_t(d)]));
    a.push_back("a" + std::to_string(d));
    b.push_back("b" + std::to_string(d));
    params += ", a" + std::to_string(d) + ": int, b" + std::to_string(d) + ": int";
  }
  std::string s = "@wp.kernel\ndef copy(x: wp.array" + nd + "d[float], xi: wp.array[int], y: wp.array" + nd +
                  "d[float], yi: wp.array[int]" + params + "):\n";
  if (src.axis >= 0)
    s += "    t = wp.tile_load_indexed(x, indices=wp.tile_load(xi, shape=" + std::to_string(src.idx.size()) +
         "), shape=" + Tuple(shape) + ", offset=" + Tuple(a) + ", axis=" + std::to_string(src.axis) + ")\n";
  else
    s += "    t = wp.tile_load(x, shape=" + Tuple(shape) + ", offset=" + Tuple(a) + ")\n";
  if (dst.axis >= 0)
    s += "    wp.tile_store_indexed(y, wp.tile_load(yi, shape=" + std::to_string(dst.idx.size()) + "), t, offset=" +
         Tuple(b) + ", axis=" + std::to_string(dst.axis) + ")\n";
  else
    s += "    wp.tile_store(y, t, offset=" + Tuple(b) + ")\n";
  return s;
}

// Runs the copy from x to y (views that may share `buf`) and compares all of `buf` with the
// reference: the tile read whole, then written in row-major order (the last of repeated
// destinations lands).
void Check(const std::vector<float>& buf, const Array& x0, const Array& y0, const std::vector<int64_t>& tshape, Side src,
           Side dst) {
  std::vector<float> ref = buf;
  Array xr{ref.data() + (x0.base - buf.data()), x0.shape, x0.strides};
  Array yr{ref.data() + (y0.base - buf.data()), y0.shape, y0.strides};
  std::vector<float> tile;
  std::vector<int64_t> g;
  ForEach(tshape, [&](const std::vector<int64_t>& c, int64_t) { tile.push_back(Global(src, xr, c, &g) ? xr.at(g) : 0.0f); });
  ForEach(tshape, [&](const std::vector<int64_t>& c, int64_t l) {
    if (Global(dst, yr, c, &g)) yr.at(g) = tile[size_t(l)];
  });

  std::vector<float> got = buf;
  Array x{got.data() + (x0.base - buf.data()), x0.shape, x0.strides};
  Array y{got.data() + (y0.base - buf.data()), y0.shape, y0.strides};
  tilec_array xv = View(x.base, x.shape, x.strides), yv = View(y.base, y.shape, y.strides);
  std::vector<int32_t> xi = src.idx.empty() ? std::vector<int32_t>{0} : src.idx;
  std::vector<int32_t> yi = dst.idx.empty() ? std::vector<int32_t>{0} : dst.idx;
  tilec_array xiv = View(xi.data(), {int64_t(xi.size())}), yiv = View(yi.data(), {int64_t(yi.size())});
  auto c = CompileText(Kernel(tshape, src, dst));
  ASSERT_TRUE(c.module);
  std::vector<void*> args = {&xv, &xiv, &yv, &yiv};
  for (size_t d = 0; d < tshape.size(); ++d) {
    args.push_back(&src.offs[d]);
    args.push_back(&dst.offs[d]);
  }
  Launch(c.Entry("copy"), args, {1}, 8);
  for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], ref[i]) << "buffer element " << i;
}

std::vector<float> Iota(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = float(i + 1);
  return v;
}

// Two arrays side by side in one buffer (x first, y after a gap), both row-major.
struct Pair {
  std::vector<float> buf;
  Array x, y;
  Pair(const std::vector<int64_t>& xs, const std::vector<int64_t>& ys) {
    int64_t nx = std::accumulate(xs.begin(), xs.end(), int64_t(1), std::multiplies<int64_t>());
    int64_t ny = std::accumulate(ys.begin(), ys.end(), int64_t(1), std::multiplies<int64_t>());
    buf = Iota(size_t(nx + 16 + ny));
    for (int64_t i = nx; i < nx + ny + 16; ++i) buf[size_t(i)] = -1.0f - float(i);
    x = Array{buf.data(), xs, RowMajor(xs)};
    y = Array{buf.data() + nx + 16, ys, RowMajor(ys)};
  }
};

TEST(TileCopy, GatherThenStoreWholeAndCutRows) {
  // Wide rows (one copy each where both sides hold the whole row), rows cut by the source's
  // end, by the destination's end and by a negative destination offset, source rows outside.
  Pair p({6, 70}, {5, 66});
  Side src{0, {5, -1, 0, 2, 6}, {0, 3}};
  Check(p.buf, p.x, p.y, {5, 64}, src, {-1, {}, {0, 0}});
  Check(p.buf, p.x, p.y, {5, 64}, src, {-1, {}, {0, 4}});
  Check(p.buf, p.x, p.y, {5, 64}, src, {-1, {}, {2, -3}});
  Check(p.buf, p.x, p.y, {5, 64}, {0, {5, -1, 0, 2, 6}, {1, 8}}, {-1, {}, {0, 1}});
}

TEST(TileCopy, NarrowRowsAndStridedViews) {
  Pair p({4, 3}, {4, 3});
  Check(p.buf, p.x, p.y, {3, 3}, {0, {3, 0, 1}, {0, 0}}, {-1, {}, {1, 0}});
  // Every other element along the last dimension on either side: no row is contiguous.
  std::vector<float> buf = Iota(200);
  Array xs{buf.data(), {4, 8}, {20, 2}}, yd{buf.data() + 100, {4, 8}, {20, 2}};
  Array xd{buf.data(), {4, 16}, {20, 1}};
  Check(buf, xs, yd, {3, 8}, {0, {2, 3, 0}, {0, 0}}, {-1, {}, {0, 0}});
  Check(buf, xd, yd, {3, 8}, {0, {2, 3, 0}, {0, 4}}, {-1, {}, {1, 0}});
}

TEST(TileCopy, LoadThenScatterStoreWithRepeats) {
  // tile_store_indexed rows in row-major order: the last of repeated destinations lands.
  Pair p({5, 40}, {6, 40});
  Check(p.buf, p.x, p.y, {4, 40}, {-1, {}, {1, 0}}, {0, {5, -1, 2, 5}, {0, 0}});
  Check(p.buf, p.x, p.y, {4, 40}, {0, {4, 0, 0, 3}, {0, 0}}, {0, {1, 7, 1, 0}, {1, 0}});
}

TEST(TileCopy, ThreeDimensionalGatherAlongTheMiddleAxis) {
  Pair p({3, 5, 24}, {2, 4, 24});
  Check(p.buf, p.x, p.y, {2, 4, 20}, {1, {4, 0, -2, 3}, {1, 0, 2}}, {-1, {}, {0, 0, 4}});
  Check(p.buf, p.x, p.y, {2, 4, 20}, {0, {2, 0}, {0, 1, 0}}, {1, {3, 2, 1, 0}, {0, 0, 0}});
}

TEST(TileCopy, RowsMovedWithinOneArrayArgument) {
  // One array read and written through the same parameter: rows moved down by one. Copied row
  // by row as they are read, each row would be read after it was overwritten; on every device
  // the whole tile is read first.
  auto c = CompileText(
      "@wp.kernel\n"
      "def shift(a: wp.array2d[float], ai: wp.array[int]):\n"
      "    t = wp.tile_load_indexed(a, indices=wp.tile_load(ai, shape=4), shape=(4, 32), offset=(0, 0), axis=0)\n"
      "    wp.tile_store(a, t, offset=(1, 0))\n");
  ASSERT_TRUE(c.module);
  std::vector<float> buf = Iota(6 * 32), ref = buf;
  std::vector<int32_t> idx = {0, 1, 2, 3};
  for (int r = 0; r < 4; ++r)
    for (int j = 0; j < 32; ++j) ref[size_t((r + 1) * 32 + j)] = buf[size_t(idx[size_t(r)] * 32 + j)];
  tilec_array av = View(buf.data(), {6, 32}), iv = View(idx.data(), {4});
  Launch(c.Entry("shift"), {&av, &iv}, {1}, 8);
  EXPECT_EQ(buf, ref);
}

TEST(TileCopy, DestinationOverlappingTheSourceSeesTheTileAsLoaded) {
  // Two array arguments over the same bytes. The GPU lowering assumes distinct array arguments
  // do not overlap (docs/semantics.md); the CPU reads the whole tile before storing any of it.
  const char* lanes = std::getenv("TILEC_SIMT_EMULATION");  // as EmulateIfAsked reads it
  if (lanes && std::atoi(lanes) >= 1 && std::atoi(lanes) <= 1024) GTEST_SKIP() << "overlapping array arguments are CPU-only";
  std::vector<float> buf = Iota(6 * 32);
  Array a{buf.data(), {6, 32}, {32, 1}};
  Check(buf, a, a, {4, 32}, {0, {0, 1, 2, 3}, {0, 0}}, {-1, {}, {1, 0}});
  Check(buf, a, a, {4, 32}, {-1, {}, {0, 0}}, {0, {1, 2, 3, 4}, {0, 0}});
  // Two views with different base pointers over the same bytes.
  Array lower{buf.data() + 32, {5, 32}, {32, 1}};
  Check(buf, a, lower, {4, 32}, {0, {0, 1, 2, 3}, {0, 0}}, {-1, {}, {0, 0}});
  Check(buf, lower, a, {4, 32}, {0, {3, 2, 1, 0}, {0, 0}}, {-1, {}, {1, 0}});
}

}  // namespace
}  // namespace tilec
