// The two examples of the normative spec pages, compiled from source and run on the CPU
// device; expected values are the pages' testoutput blocks.
#include <gtest/gtest.h>

#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

TEST(SpecExamples, GatherEvenRows) {
  auto c = CompileText(R"(
TILE_M, TILE_N = 2, 4
TILE_THREADS = 4

@wp.kernel
def gather_even_rows(x: wp.array2d[float], y: wp.array2d[float]):
    # gather rows 0, 2, 4, ... of `x`
    rows = wp.tile_arange(TILE_M, dtype=int) * 2
    t = wp.tile_load_indexed(x, indices=rows, shape=(TILE_M, TILE_N), axis=0)
    wp.tile_store(y, t)
)");
  ASSERT_TRUE(c.module);
  std::vector<float> x(16), y(8, 0.0f);
  for (int i = 0; i < 16; ++i) x[i] = float(i + 1);
  tilec_array xa = View(x.data(), {4, 4}), ya = View(y.data(), {2, 4});
  Launch(c.Entry("gather_even_rows"), {&xa, &ya}, {1}, 4);
  EXPECT_EQ(y, (std::vector<float>{1, 2, 3, 4, 9, 10, 11, 12}));
}

TEST(SpecExamples, AccumulateEvenRows) {
  auto c = CompileText(R"(
TILE_M, TILE_N = 2, 4
TILE_THREADS = 4

@wp.kernel
def accumulate_even_rows(x: wp.array2d[float], y: wp.array2d[float], previous: wp.array2d[float]):
    t = wp.tile_load(x, shape=(TILE_M, TILE_N))
    # tile row k accumulates into row 2*k of `y`
    rows = wp.tile_arange(TILE_M, dtype=int) * 2
    p = wp.tile_atomic_add_indexed(y, indices=rows, t=t, axis=0)
    wp.tile_store(previous, p)
)");
  ASSERT_TRUE(c.module);
  std::vector<float> x(8), y(16), prev(8, 0.0f);
  for (int i = 0; i < 8; ++i) x[i] = float(i + 1);
  for (int i = 0; i < 16; ++i) y[i] = float(i);
  tilec_array xa = View(x.data(), {2, 4}), ya = View(y.data(), {4, 4}), pa = View(prev.data(), {2, 4});
  Launch(c.Entry("accumulate_even_rows"), {&xa, &ya, &pa}, {1}, 4);
  EXPECT_EQ(y, (std::vector<float>{1, 3, 5, 7, 4, 5, 6, 7, 13, 15, 17, 19, 12, 13, 14, 15}));
  EXPECT_EQ(prev, (std::vector<float>{0, 1, 2, 3, 8, 9, 10, 11}));
}

}  // namespace
}  // namespace tilec
