// Loops over a constant `range` that the checker unrolls (Warp's rule): the loop variable is a
// compile-time constant in each trip (`axis=i`, `wp.static(i + 1)` as a shape), a variable
// first assigned in the body may change shape from trip to trip, unrolled loops nest, sit in
// run-time loops that carry their variables, and return early from a func. References are
// computed in the test.
#include <gtest/gtest.h>

#include <vector>

#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

TEST(UnrolledLoop, AxisAndShapeFromTheLoopVariable) {
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array3d[float], sums: wp.array3d[float], last: wp.array2d[float], pre: wp.array1d[float]):
    t = wp.tile_load(x, shape=(2, 3, 4))
    for i in range(3):
        s = wp.tile_sum(t, axis=i)
        wp.tile_store(sums[i], s)
    wp.tile_store(last, s)
    flat = wp.tile_reshape(t, shape=24)
    for i in range(1, 5):
        head = wp.tile_view(flat, offset=(0,), shape=(wp.static(i + 1),))
        pre[i] = wp.tile_sum(head)[0]
)");
  ASSERT_TRUE(c.module);
  std::vector<float> x(24);
  for (int i = 0; i < 24; ++i) x[size_t(i)] = float((i * 7) % 11) - 5.0f;
  auto X = [&](int a, int b, int d) { return x[size_t(a * 12 + b * 4 + d)]; };
  for (int bd : {1, 3, 32}) {
    std::vector<float> sums(3 * 3 * 4, -99.f), last(2 * 3, -99.f), pre(5, -99.f);
    tilec_array xa = View(x.data(), {2, 3, 4}), sa = View(sums.data(), {3, 3, 4}), la = View(last.data(), {2, 3}),
                pa = View(pre.data(), {5});
    Launch(c.Entry("k"), {&xa, &sa, &la, &pa}, {1}, bd);
    auto S = [&](int i, int r, int col) { return sums[size_t(i * 12 + r * 4 + col)]; };
    // Trip 0: shape (3, 4); trip 1: (2, 4); trip 2: (2, 3); each stored into the top-left of its slab.
    for (int b = 0; b < 3; ++b)
      for (int d = 0; d < 4; ++d) EXPECT_EQ(S(0, b, d), X(0, b, d) + X(1, b, d)) << "bd=" << bd;
    for (int a = 0; a < 2; ++a)
      for (int d = 0; d < 4; ++d) EXPECT_EQ(S(1, a, d), X(a, 0, d) + X(a, 1, d) + X(a, 2, d)) << "bd=" << bd;
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 3; ++b) {
        float r = X(a, b, 0) + X(a, b, 1) + X(a, b, 2) + X(a, b, 3);
        EXPECT_EQ(S(2, a, b), r) << "bd=" << bd;
        EXPECT_EQ(last[size_t(a * 3 + b)], r) << "bd=" << bd;  // after the loop: the last trip's value
      }
    for (int d = 3; d < 4; ++d) EXPECT_EQ(S(1, 2, d), -99.f);  // a (2, 4) tile leaves row 2 alone
    EXPECT_EQ(pre[0], -99.f);
    for (int i = 1; i < 5; ++i) {
      float r = 0;
      for (int k = 0; k <= i; ++k) r += x[size_t(k)];
      EXPECT_EQ(pre[size_t(i)], r) << "bd=" << bd << " i=" << i;
    }
  }
}

TEST(UnrolledLoop, NestedStaticValuesAndNegativeSteps) {
  auto c = CompileText(R"(
N = 3

@wp.kernel
def k(out: wp.array1d[int]):
    acc = int(0)
    for a in range(2):
        for b in range(a, N):
            acc += wp.static(a * 10 + b)
    out[0] = acc
    down = int(0)
    for i in range(10, 0, -3):
        down = down * 100 + wp.static(i)
    out[1] = down
    none = int(7)
    for i in range(2, 2):
        none = wp.static(i)
    out[2] = none
    for i in range(-2, 1):
        out[3 + wp.static(i + 2)] = wp.static(i * i)
)");
  ASSERT_TRUE(c.module);
  std::vector<int32_t> out(6, -1);
  tilec_array o = View(out.data(), {6});
  Launch(c.Entry("k"), {&o}, {1});
  EXPECT_EQ(out[0], (0 + 1 + 2) + (11 + 12));
  EXPECT_EQ(out[1], 10070401);  // 10, 7, 4, 1
  EXPECT_EQ(out[2], 7);
  EXPECT_EQ(out[3], 4);
  EXPECT_EQ(out[4], 1);
  EXPECT_EQ(out[5], 0);
}

// An unrolled loop inside a run-time loop: what its trips assign is carried by the outer loop.
TEST(UnrolledLoop, InsideARunTimeLoopItsAssignmentsAreCarried) {
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array1d[float], reps: int, y: wp.array1d[float], n: wp.array1d[int]):
    acc = wp.tile_zeros(shape=4, dtype=float)
    count = int(0)
    for r in range(reps):
        for i in range(2):
            acc = acc + wp.tile_load(x, shape=4, offset=wp.static(i * 4)) * float(r + 1)
            count += 1
    wp.tile_store(y, acc)
    n[0] = count
)");
  ASSERT_TRUE(c.module);
  std::vector<float> x(8);
  for (int i = 0; i < 8; ++i) x[size_t(i)] = float(i) - 2.5f;
  for (int reps : {0, 1, 3}) {
    for (int bd : {1, 4, 32}) {
      std::vector<float> y(4, -99.f);
      std::vector<int32_t> n(1, -1);
      tilec_array xa = View(x.data(), {8}), ya = View(y.data(), {4}), na = View(n.data(), {1});
      int32_t r = reps;
      Launch(c.Entry("k"), {&xa, &r, &ya, &na}, {1}, bd);
      float scale = 0;
      for (int k = 1; k <= reps; ++k) scale += float(k);
      for (int j = 0; j < 4; ++j) EXPECT_EQ(y[size_t(j)], (x[size_t(j)] + x[size_t(j + 4)]) * scale) << reps;
      EXPECT_EQ(n[0], 2 * reps);
    }
  }
}

// A `return` in a trip skips the later trips; a `continue` the rest of its trip (Warp 1.19
// unrolls both); a `break` keeps the loop a loop. The same answers either way.
TEST(UnrolledLoop, ReturnSkipsLaterTripsAndBreakStaysALoop) {
  auto c = CompileText(R"(
@wp.func
def first_negative(v: wp.array1d[float], row: int) -> int:
    for i in range(4):
        if v[row * 4 + i] < 0.0:
            return i
    return -1

@wp.func
def first_negative_break(v: wp.array1d[float], row: int) -> int:
    found = int(-1)
    for i in range(4):
        if v[row * 4 + i] < 0.0:
            found = i
            break
    return found

@wp.func
def weigh_non_negative(v: wp.array1d[float], row: int) -> int:
    acc = int(0)
    for i in range(4):
        if v[row * 4 + i] < 0.0:
            continue
        acc += wp.static(10 ** i)
    return acc

@wp.kernel
def k(v: wp.array1d[float], a: wp.array1d[int], b: wp.array1d[int], c: wp.array1d[int]):
    row = wp.tid()
    a[row] = first_negative(v, row)
    b[row] = first_negative_break(v, row)
    c[row] = weigh_non_negative(v, row)
)");
  ASSERT_TRUE(c.module);
  std::vector<float> v = {1, 2, 3, 4, -1, 2, -3, 4, 1, -2, 3, -4, 1, 2, 3, -4, 0, 0, 0, 0};
  std::vector<int32_t> a(5, -9), b(5, -9), w(5, -9);
  tilec_array va = View(v.data(), {20}), aa = View(a.data(), {5}), ba = View(b.data(), {5}), wa = View(w.data(), {5});
  Launch(c.Entry("k"), {&va, &aa, &ba, &wa}, {5});
  std::vector<int32_t> want = {-1, 0, 1, 3, -1};
  EXPECT_EQ(a, want);
  EXPECT_EQ(b, want);
  std::vector<int32_t> weights = {1111, 1010, 101, 111, 1111};
  EXPECT_EQ(w, weights);
}

}  // namespace
}  // namespace tilec
