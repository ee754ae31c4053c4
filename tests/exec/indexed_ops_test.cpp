// tile_load_indexed and tile_atomic_add_indexed on every axis of 2-D, 3-D and 4-D arrays:
// runtime offsets in every dimension, -1 and out-of-range indices on both sides, repeated
// indices, strided views. References walk the tile in C++ with the rules of LANGUAGE.md §5.
#include <gtest/gtest.h>

#include <map>

#include <numeric>

#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;

struct Case {
  std::string name;
  std::vector<int64_t> ashape;  // array extents
  std::vector<int64_t> tshape;  // tile extents
  int axis;
  std::vector<int32_t> offs;    // one per dimension (runtime values)
  std::vector<int32_t> idx;     // tshape[axis] values
  bool strided = false;         // view every other element of a larger buffer in the last dim
};

std::string Tuple(const std::vector<std::string>& xs) {
  if (xs.size() == 1) return xs[0];
  std::string s = "(";
  for (size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + xs[i];
  return s + ")";
}

std::string Params(int n) {
  std::string s;
  for (int d = 0; d < n; ++d) s += ", o" + std::to_string(d) + ": int";
  return s;
}

std::vector<std::string> OffsetNames(int n) {
  std::vector<std::string> v;
  for (int d = 0; d < n; ++d) v.push_back("o" + std::to_string(d));
  return v;
}

std::vector<std::string> ShapeStrs(const std::vector<int64_t>& s) {
  std::vector<std::string> v;
  for (int64_t x : s) v.push_back(std::to_string(x));
  return v;
}

int64_t Count(const std::vector<int64_t>& s) {
  return std::accumulate(s.begin(), s.end(), int64_t(1), std::multiplies<int64_t>());
}

// Row-major coordinates of linear index `l`.
std::vector<int64_t> Coords(int64_t l, const std::vector<int64_t>& shape) {
  std::vector<int64_t> c(shape.size());
  for (int d = int(shape.size()) - 1; d >= 0; --d) {
    c[d] = l % shape[d];
    l /= shape[d];
  }
  return c;
}

// A host array (row-major, or every other element along the last dim) and its view.
struct HostArray {
  std::vector<float> buf;
  std::vector<int64_t> shape, strides;  // strides in elements
  tilec_array view;
  HostArray(const std::vector<int64_t>& s, bool strided) : shape(s) {
    strides.assign(s.size(), 1);
    if (strided) strides.back() = 2;
    for (int d = int(s.size()) - 2; d >= 0; --d) strides[d] = strides[d + 1] * s[d + 1] * (d + 2 == int(s.size()) && strided ? 2 : 1);
    int64_t extent = 1;
    for (size_t d = 0; d < s.size(); ++d) extent += (s[d] - 1) * strides[d];
    buf.assign(size_t(extent), -777.0f);  // gaps keep a sentinel that must stay untouched
    view = testing::View(buf.data(), s, strides);
  }
  float& at(const std::vector<int64_t>& g) {
    int64_t o = 0;
    for (size_t d = 0; d < g.size(); ++d) o += g[d] * strides[d];
    return buf[size_t(o)];
  }
  void FillIota(float base) {
    for (int64_t l = 0; l < Count(shape); ++l) at(Coords(l, shape)) = base + float(l);
  }
};

// Global coordinate of tile element c, or nothing when out of bounds on either side.
std::optional<std::vector<int64_t>> Global(const Case& k, const std::vector<int64_t>& c) {
  std::vector<int64_t> g(c.size());
  for (size_t d = 0; d < c.size(); ++d) {
    g[d] = k.offs[d] + (int(d) == k.axis ? int64_t(k.idx[c[d]]) : c[d]);
    if (g[d] < 0 || g[d] >= k.ashape[d]) return std::nullopt;
  }
  return g;
}

std::vector<void*> OffsetArgs(Case& k) {
  std::vector<void*> v;
  for (int32_t& o : k.offs) v.push_back(&o);
  return v;
}

class IndexedOps : public ::testing::TestWithParam<Case> {};

TEST_P(IndexedOps, LoadIndexed) {
  Case k = GetParam();
  int n = int(k.ashape.size());
  std::string src = "@wp.kernel\ndef gather(x: wp.array" + std::to_string(n) + "d[float], idx: wp.array[int], y: wp.array" +
                    std::to_string(n) + "d[float]" + Params(n) + "):\n" +
                    "    ind = wp.tile_load(idx, shape=" + std::to_string(k.idx.size()) + ")\n" +
                    "    t = wp.tile_load_indexed(x, indices=ind, shape=" + Tuple(ShapeStrs(k.tshape)) +
                    ", offset=" + Tuple(OffsetNames(n)) + ", axis=" + std::to_string(k.axis) + ")\n" +
                    "    wp.tile_store(y, t)\n";
  auto c = CompileText(src);
  ASSERT_TRUE(c.module);
  HostArray x(k.ashape, k.strided), y(k.tshape, false);
  x.FillIota(1.0f);
  std::vector<int32_t> idx = k.idx;
  tilec_array ia = testing::View(idx.data(), {int64_t(idx.size())});
  std::vector<void*> args = {&x.view, &ia, &y.view};
  for (void* p : OffsetArgs(k)) args.push_back(p);
  Launch(c.Entry("gather"), args, {1}, 8);
  for (int64_t l = 0; l < Count(k.tshape); ++l) {
    auto cc = Coords(l, k.tshape);
    auto g = Global(k, cc);
    float expect = g ? x.at(*g) : 0.0f;
    EXPECT_EQ(y.at(cc), expect) << "tile element " << l;
  }
}

TEST_P(IndexedOps, AtomicAddIndexed) {
  Case k = GetParam();
  int n = int(k.ashape.size());
  std::string nd = std::to_string(n);
  std::string src = "@wp.kernel\ndef scatter(a: wp.array" + nd + "d[float], idx: wp.array[int], s: wp.array" + nd +
                    "d[float], prev: wp.array" + nd + "d[float]" + Params(n) + "):\n" +
                    "    ind = wp.tile_load(idx, shape=" + std::to_string(k.idx.size()) + ")\n" +
                    "    t = wp.tile_load(s, shape=" + Tuple(ShapeStrs(k.tshape)) + ")\n" +
                    "    p = wp.tile_atomic_add_indexed(a, indices=ind, t=t, offset=" + Tuple(OffsetNames(n)) +
                    ", axis=" + std::to_string(k.axis) + ")\n" + "    wp.tile_store(prev, p)\n";
  auto c = CompileText(src);
  ASSERT_TRUE(c.module);
  HostArray a(k.ashape, k.strided), s(k.tshape, false), prev(k.tshape, false);
  a.FillIota(100.0f);
  s.FillIota(1.0f);
  HostArray ref = a;
  ref.view = testing::View(ref.buf.data(), k.ashape, ref.strides);
  HostArray initial = ref;
  // Values are small integers, so sums are exact in any order.
  for (int64_t l = 0; l < Count(k.tshape); ++l) {
    auto cc = Coords(l, k.tshape);
    if (auto g = Global(k, cc)) ref.at(*g) += s.at(cc);
  }
  std::vector<int32_t> idx = k.idx;
  tilec_array ia = testing::View(idx.data(), {int64_t(idx.size())});
  std::vector<void*> args = {&a.view, &ia, &s.view, &prev.view};
  for (void* p : OffsetArgs(k)) args.push_back(p);
  Launch(c.Entry("scatter"), args, {1}, 8);
  EXPECT_EQ(a.buf, ref.buf);  // includes the strided gaps, which must be untouched
  // Previous values: zero where skipped; elsewhere those of some order of the updates to each
  // destination (repeated indices race, and their order is unspecified).
  std::map<std::vector<int64_t>, std::vector<std::pair<float, float>>> by_destination;
  for (int64_t l = 0; l < Count(k.tshape); ++l) {
    auto cc = Coords(l, k.tshape);
    if (auto g = Global(k, cc)) by_destination[*g].push_back({prev.at(cc), s.at(cc)});
    else EXPECT_EQ(prev.at(cc), 0.0f) << "skipped tile element " << l;
  }
  for (auto& [g, contributions] : by_destination)
    EXPECT_TRUE(testing::SomeOrderExplains(initial.at(g), contributions,
                                           [](float x, float y) { return x + y; }, ref.at(g)));
}

std::vector<Case> Cases() {
  return {
      // 2-D, both axes, with -1, past-the-end and repeated indices.
      {"d2_axis0", {5, 4}, {4, 3}, 0, {0, 1}, {4, -1, 2, 2}},
      {"d2_axis1", {3, 6}, {3, 4}, 1, {0, 0}, {5, 0, 6, 0}},
      {"d2_axis0_offsets", {6, 5}, {3, 4}, 0, {1, 2}, {0, 4, -2}},      // offset pushes index 4 out
      {"d2_axis1_negative_offset", {4, 6}, {3, 3}, 1, {-1, 3}, {0, 2, -1}},  // lower side of dim 0
      {"d2_axis0_strided", {4, 5}, {2, 5}, 0, {0, 0}, {3, 1}, true},
      {"d2_tile_larger_than_array", {2, 3}, {4, 5}, 1, {0, -1}, {0, 1, 2, 3, 4}},
      {"d2_single_element", {3, 3}, {1, 1}, 0, {0, 2}, {1}},
      // Wide rows: whole rows inside (one copy per row), a row cut by the array's end, rows out.
      {"d2_axis0_wide_rows", {5, 70}, {3, 64}, 0, {0, 3}, {4, -1, 0}},
      {"d2_axis0_wide_rows_cut", {5, 70}, {3, 64}, 0, {1, 7}, {2, 3, 9}},
      // float32 rows added four at a time where a row is 16-byte aligned (32-byte rows), and
      // element by element where it is not (36-byte rows from column 1: rows 1 and 5 at 8
      // bytes past a 16-byte boundary, row 3 on one); row 1 twice.
      {"d2_axis0_quads", {6, 8}, {4, 8}, 0, {0, 0}, {1, 3, 1, 5}},
      {"d2_axis0_quads_misaligned", {6, 9}, {4, 8}, 0, {0, 1}, {1, 3, 1, 5}},
      // 3-D, every axis.
      {"d3_axis0", {4, 3, 2}, {3, 2, 2}, 0, {0, 1, 0}, {3, -1, 0}},
      {"d3_axis1", {2, 5, 3}, {2, 3, 3}, 1, {0, 0, 1}, {4, 4, 7}},
      {"d3_axis2", {3, 2, 6}, {2, 2, 4}, 2, {1, 0, 0}, {5, 0, -1, 2}},
      {"d3_axis2_strided", {3, 2, 4}, {3, 2, 2}, 2, {0, 0, 1}, {2, 0}, true},
      // 4-D, every axis, runtime offsets in every dimension (both sides).
      {"d4_axis0", {3, 2, 2, 3}, {2, 2, 2, 3}, 0, {0, 0, 1, -1}, {2, 0}},
      {"d4_axis1", {2, 4, 2, 2}, {2, 3, 2, 2}, 1, {-1, 0, 0, 0}, {3, -1, 1}},
      {"d4_axis2", {2, 2, 5, 2}, {2, 2, 3, 2}, 2, {0, 1, 0, 0}, {4, 0, 4}},
      {"d4_axis3", {2, 2, 2, 6}, {2, 2, 2, 4}, 3, {0, 0, 0, 2}, {0, 3, 4, -3}, true},
  };
}

INSTANTIATE_TEST_SUITE_P(Cpu, IndexedOps, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.name; });

}  // namespace
}  // namespace tilec
