// Tiles and stacks passed to a wp.func reach it by reference, as in Warp: its in-place updates
// (`+=`, element and slice writes, wp.tile_assign, stack pushes) are the caller's, also inside
// a loop and through a view argument; a func that rebinds its parameter leaves the caller's
// tile alone. References are written here from the same steps; the gradient is checked against
// central differences of the forward kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/autodiff/autodiff.h"
#include "tests/exec/exec_util.h"
#include "tests/exec/lanes_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

constexpr const char* kUpdates = R"(
@wp.func
def bump(t: wp.tile[float, 2, 4], k: float):
    t += wp.tile_ones(shape=(2, 4), dtype=float) * k

@wp.func
def set_corner(t: wp.tile[float, 2, 4], v: float):
    t[1, 3] = v

@wp.func
def fill_row(r: wp.tile[float, 4]):
    wp.tile_assign(r, wp.tile_arange(4, dtype=float) * 10.0, offset=(0,))

@wp.func
def rebinds(t: wp.tile[float, 2, 4]):
    t = wp.tile_zeros(shape=(2, 4), dtype=float)
    t[0, 0] = 99.0

@wp.kernel
def k(x: wp.array2d[float], out: wp.array2d[float], n: int):
    t = wp.tile_load(x, shape=(2, 4))
    for i in range(n):
        bump(t, 1.0)
    set_corner(t, -5.0)
    fill_row(t[0])
    rebinds(t)
    wp.tile_store(out, t)
)";

TEST(FuncReferenceArgs, UpdatesInPlaceReachTheCaller) {
  auto c = CompileText(kUpdates);
  ASSERT_TRUE(c.module);
  for (int bd : {1, 3, 32}) {
    for (int n : {0, 3}) {
      std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8}, out(8, -1.0f);
      tilec_array xa = View(x.data(), {2, 4}), oa = View(out.data(), {2, 4});
      int32_t nv = n;
      Launch(c.Entry("k"), {&xa, &oa, &nv}, {1}, bd);
      std::vector<float> want(8);
      for (int e = 0; e < 8; ++e) want[size_t(e)] = x[size_t(e)] + float(n);
      want[7] = -5.0f;
      for (int j = 0; j < 4; ++j) want[size_t(j)] = 10.0f * float(j);
      for (int e = 0; e < 8; ++e) EXPECT_EQ(out[size_t(e)], want[size_t(e)]) << "element " << e << " n " << n << " bd " << bd;
    }
  }
}

TEST(FuncReferenceArgs, StackPushedInAFuncIsTheCallers) {
  // A stack spans the lanes it was compiled for, so each block_dim compiles its own.
  const std::string text = R"(
@wp.func
def push_if(s: wp.tile_stack(capacity=1024, dtype=int), v: int, keep: bool):
    wp.tile_stack_push(s, v, keep)

@wp.kernel
def k(count: wp.array[int]):
    _i, lane = wp.tid()
    s = wp.tile_stack(capacity=1024, dtype=int)
    push_if(s, lane, lane % 3 == 0)
    push_if(s, lane, lane % 3 == 0)
    count[lane] = wp.tile_stack_count(s)
)";
  // Under SIMT emulation the block has the emulated lane count.
  for (int bd : {testing::Lanes(1), testing::Lanes(3), testing::Lanes(32)}) {
    testing::SourceModule c = testing::CompileForLanes(text, bd);
    ASSERT_TRUE(c.module);
    std::vector<int32_t> count(size_t(bd), -1);
    tilec_array ca = View(count.data(), {bd});
    Launch(c.Entry("k"), {&ca}, {1}, bd);
    const int32_t want = 2 * ((bd + 2) / 3);
    for (int l = 0; l < bd; ++l) EXPECT_EQ(count[size_t(l)], want) << "lane " << l << " bd " << bd;
  }
}

TEST(FuncReferenceArgs, GradientFlowsThroughAnUpdateInAFunc) {
  // out = (x * x + 2 x) * 3 row-wise, built by funcs that update their tile argument.
  auto c = CompileText(R"(
@wp.func
def square_plus(t: wp.tile[wp.float64, 2, 3]):
    t += t * t + t

@wp.func
def triple(t: wp.tile[wp.float64, 2, 3]):
    t *= wp.float64(3.0)

@wp.kernel
def k(x: wp.array2d[wp.float64], out: wp.array2d[wp.float64]):
    t = wp.tile_load(x, shape=(2, 3))
    square_plus(t)
    triple(t)
    wp.tile_store(out, t)
)");
  ASSERT_TRUE(c.module);
  void* adj = c.Entry(autodiff::AdjointName("k"));
  ASSERT_NE(adj, nullptr);
  std::vector<double> x = {0.5, -1.25, 2.0, 0.75, -0.3, 1.1}, w = {1.0, 0.5, -2.0, 0.25, 3.0, -1.5};
  for (int bd : {1, 32}) {
    std::vector<double> gx(6, 0.0), out(6, 0.0), gout = w;
    tilec_array xa = View(x.data(), {2, 3}), oa = View(out.data(), {2, 3});
    xa.grad = gx.data();
    oa.grad = gout.data();
    Launch(adj, {&xa, &oa, nullptr, nullptr}, {1}, bd);
    for (size_t e = 0; e < 6; ++e) {
      auto f = [&](double v) { return (v * v + 2 * v) * 3; };
      const double h = 1e-6, fd = w[e] * (f(x[e] + h) - f(x[e] - h)) / (2 * h);
      EXPECT_NEAR(gx[e], fd, 1e-6 * (1 + std::abs(fd))) << "element " << e << " bd " << bd;
    }
  }
}

}  // namespace
}  // namespace tilec
