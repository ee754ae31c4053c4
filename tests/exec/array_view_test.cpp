// Array slices in kernels (Warp's array views): `a[lo:hi:step, i]` with absent, negative and
// runtime bounds and negative steps, loaded and stored through tiles and read element-wise,
// and the gradient reaching the sliced elements of the base array. References come from
// Python's slice rules written out here.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
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

// Python's slice(lo, hi, step).indices(len) as the list of selected positions.
std::vector<int> Positions(std::optional<int> lo, std::optional<int> hi, int step, int len) {
  auto norm = [&](int v, int low, int high) {
    if (v < 0) v += len;
    return v < low ? low : v > high ? high : v;
  };
  int s, e;
  if (step > 0) {
    s = lo ? norm(*lo, 0, len) : 0;
    e = hi ? norm(*hi, 0, len) : len;
  } else {
    s = lo ? norm(*lo, -1, len - 1) : len - 1;
    e = hi ? norm(*hi, -1, len - 1) : -1;
  }
  std::vector<int> out;
  for (int i = s; step > 0 ? i < e : i > e; i += step) out.push_back(i);
  return out;
}

TEST(ArrayView, SlicesLoadStoreAndReadAsPython) {
  auto c = CompileText(R"(
@wp.kernel
def k(a: wp.array2d[float], sub: wp.array2d[float], row: wp.array[float], out: wp.array[float], n: wp.array[int],
      r: int, lo: int, hi: int):
    t = wp.tile_load(a[::2, 1:], shape=(3, 4))
    wp.tile_store(sub, t)
    v = wp.tile_load(a[r, ::-2], shape=3)
    wp.tile_store(out[1::2], v)
    w = a[r, lo:hi]
    n[0] = w.shape[0]
    if w.shape[0] > 0:
        row[0] = w[0]
    e = a[4:1]
    n[1] = e.shape[0]
    n[2] = a[-2:, :-1].shape[0] * 10 + a[-2:, :-1].shape[1]
)");
  ASSERT_TRUE(c.module);
  const int R = 6, C = 5;
  std::vector<float> a(R * C);
  for (int i = 0; i < R * C; ++i) a[size_t(i)] = float(i);
  struct Case { int r, lo, hi; };
  for (int bd : {1, 3, 32}) {
    for (Case cs : {Case{1, 1, 4}, Case{5, -3, 100}, Case{2, 4, 2}}) {
      std::vector<float> sub(12, -1), row(1, -1), out(6, -1);
      std::vector<int32_t> n(3, -1);
      tilec_array A = View(a.data(), {R, C}), S = View(sub.data(), {3, 4}), Rw = View(row.data(), {1}),
                  O = View(out.data(), {6}), N = View(n.data(), {3});
      int32_t r = cs.r, lo = cs.lo, hi = cs.hi;
      Launch(c.Entry("k"), {&A, &S, &Rw, &O, &N, &r, &lo, &hi}, {1}, bd);
      std::vector<int> rows = Positions(std::nullopt, std::nullopt, 2, R), cols = Positions(1, std::nullopt, 1, C);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
          EXPECT_EQ(sub[size_t(i * 4 + j)], a[size_t(rows[size_t(i)] * C + cols[size_t(j)])]) << "a[::2, 1:] " << i << j;
      const int rr = cs.r < 0 ? cs.r + R : cs.r;
      std::vector<int> back = Positions(std::nullopt, std::nullopt, -2, C), dst = Positions(1, std::nullopt, 2, 6);
      for (size_t k = 0; k < 3; ++k) EXPECT_EQ(out[size_t(dst[k])], a[size_t(rr * C + back[k])]) << "a[r, ::-2] " << k;
      for (int k : {0, 2, 4}) EXPECT_EQ(out[size_t(k)], -1.0f) << "out[1::2] wrote outside its view";
      std::vector<int> w = Positions(cs.lo, cs.hi, 1, C);
      EXPECT_EQ(n[0], int(w.size())) << "a[r, lo:hi] lo " << cs.lo << " hi " << cs.hi;
      EXPECT_EQ(row[0], w.empty() ? -1.0f : a[size_t(rr * C + w[0])]);
      EXPECT_EQ(n[1], 0);
      EXPECT_EQ(n[2], 24);
    }
  }
}

TEST(ArrayView, GradientReachesTheSlicedElements) {
  // loss = sum(w * a[1::2, ::-1] ** 2): d/da is 2 a w on the selected elements, 0 elsewhere.
  auto c = CompileText(R"(
@wp.kernel
def k(a: wp.array2d[wp.float64], out: wp.array2d[wp.float64]):
    t = wp.tile_load(a[1::2, ::-1], shape=(2, 3))
    wp.tile_store(out, t * t)
)");
  ASSERT_TRUE(c.module);
  void* adj = c.Entry(autodiff::AdjointName("k"));
  ASSERT_NE(adj, nullptr);
  const int R = 4, C = 3;
  std::vector<double> a(R * C);
  for (int i = 0; i < R * C; ++i) a[size_t(i)] = 0.25 * i - 1.0;
  for (int bd : {1, 32}) {
    const std::vector<double> w = {1.0, -2.0, 0.5, 3.0, 0.25, -1.0};
    std::vector<double> ga(R * C, 0.0), out(6, 0.0), gout = w;  // the adjoint consumes gout
    tilec_array A = View(a.data(), {R, C}), O = View(out.data(), {2, 3});
    A.grad = ga.data();
    O.grad = gout.data();
    Launch(adj, {&A, &O, nullptr, nullptr}, {1}, bd);
    std::vector<double> want(R * C, 0.0);
    std::vector<int> rows = Positions(1, std::nullopt, 2, R), cols = Positions(std::nullopt, std::nullopt, -1, C);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) {
        const size_t src = size_t(rows[size_t(i)] * C + cols[size_t(j)]);
        want[src] = 2 * a[src] * w[size_t(i * 3 + j)];
      }
    for (int e = 0; e < R * C; ++e) EXPECT_DOUBLE_EQ(ga[size_t(e)], want[size_t(e)]) << "element " << e << " bd " << bd;
  }
}

}  // namespace
}  // namespace tilec
