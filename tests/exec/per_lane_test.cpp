// Per-lane semantics of a tiled kernel's scalar code (LANGUAGE.md §4): every lane runs it, so
// element stores, atomics and print happen once per lane, masked lanes skip them, an atomic
// returns each lane its own previous value, and a tile operation reads lane 0's value of a
// varying argument. Every reference is counted here, lane by lane.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/codegen.h"
#include "compiler/compiler.h"
#include "tests/exec/exec_util.h"
#include "tests/exec/lanes_util.h"

namespace tilec {
namespace {

using testing::Launch;
using testing::View;

using testing::Lanes;
testing::SourceModule Compile(const std::string& text, int block_dim) { return testing::CompileForLanes(text, block_dim); }

std::set<int> BlockDims() {
  std::set<int> s;
  for (int b : {1, 7, 32, 64, 256}) s.insert(Lanes(b));
  return s;
}

TEST(PerLane, StoresAndAtomicsHappenOncePerLaneAndMaskedLanesSkipThem) {
  const char* src = R"(
@wp.kernel
def k(out: wp.array[int], hits: wp.array[int], tickets: wp.array[int], sums: wp.array[int]):
    b, lane = wp.tid()
    t = wp.tile_ones(shape=4, dtype=int)
    i = b * wp.block_dim() + lane
    out[i] = lane * 10 + b
    wp.atomic_add(hits, 0, 1)
    if lane % 3 == 0:
        wp.atomic_add(hits, 1, 1)
    else:
        out[i] = -1
    tickets[i] = wp.atomic_add(hits, 2, 1)
    wp.tile_store(sums, wp.tile_sum(t), offset=b)
)";
  for (int B : BlockDims()) {
    auto m = Compile(src, B);
    const int G = 3;
    std::vector<int32_t> out(size_t(G * B), 99), hits(3, 0), tickets(size_t(G * B), -7), sums(G, 0);
    tilec_array vo = View(out.data(), {G * B}), vh = View(hits.data(), {3}), vt = View(tickets.data(), {G * B}),
                vs = View(sums.data(), {G});
    Launch(m.Entry("k"), {&vo, &vh, &vt, &vs}, {G}, B);
    int masked_in = 0;
    for (int b = 0; b < G; ++b)
      for (int l = 0; l < B; ++l) {
        bool in = l % 3 == 0;
        masked_in += in;
        EXPECT_EQ(out[size_t(b * B + l)], in ? l * 10 + b : -1) << "B=" << B << " block " << b << " lane " << l;
      }
    EXPECT_EQ(hits[0], G * B) << "B=" << B;
    EXPECT_EQ(hits[1], masked_in) << "B=" << B;
    EXPECT_EQ(hits[2], G * B) << "B=" << B;
    // Each lane received its own previous value: together they are 0 .. G*B-1.
    std::vector<int32_t> sorted = tickets;
    std::sort(sorted.begin(), sorted.end());
    for (int k = 0; k < G * B; ++k) EXPECT_EQ(sorted[size_t(k)], k) << "B=" << B;
    for (int b = 0; b < G; ++b) EXPECT_EQ(sums[size_t(b)], 4);
  }
}

TEST(PerLane, VaryingArgumentOfATileOperationIsLaneZeros) {
  const char* src = R"(
@wp.kernel
def k(x: wp.array[float], y: wp.array[float]):
    b, lane = wp.tid()
    t = wp.tile_load(x, shape=4, offset=lane + 2)
    wp.tile_store(y, t + wp.tile_full(shape=4, value=float(lane + 1), dtype=float), offset=b * 4)
)";
  for (int B : BlockDims()) {
    auto m = Compile(src, B);
    std::vector<float> x(64), y(8, 0.0f);
    for (int i = 0; i < 64; ++i) x[size_t(i)] = float(i) * 0.5f;
    tilec_array vx = View(x.data(), {64}), vy = View(y.data(), {8});
    Launch(m.Entry("k"), {&vx, &vy}, {2}, B);
    for (int b = 0; b < 2; ++b)
      for (int e = 0; e < 4; ++e) EXPECT_EQ(y[size_t(b * 4 + e)], x[size_t(2 + e)] + 1.0f) << "B=" << B;
  }
}

TEST(PerLane, PrintRunsOncePerUnmaskedLaneInLaneOrder) {
  if (std::getenv("TILEC_SIMT_EMULATION")) GTEST_SKIP() << "lanes are threads under emulation: no print order";
  auto m = Compile(R"(
@wp.kernel
def k(x: wp.array[int]):
    b, lane = wp.tid()
    t = wp.tile_zeros(shape=2, dtype=int)
    if lane < 3:
        print(b * 100 + lane)
    wp.tile_store(x, t)
)",
                     8);
  std::vector<int32_t> x(2, 5);
  tilec_array vx = View(x.data(), {2});
  ::testing::internal::CaptureStdout();
  Launch(m.Entry("k"), {&vx}, {2}, 8);
  std::fflush(stdout);
  std::string printed = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(printed, "0\n1\n2\n100\n101\n102\n");
}

TEST(PerLane, LoopCarriedPerLaneValuesAcrossTileOperations) {
  const char* src = R"(
@wp.kernel
def k(out: wp.array[int]):
    b, lane = wp.tid()
    acc = int(0)
    t = wp.tile_ones(shape=3, dtype=int)
    for r in range(4):
        s = wp.tile_sum(t * (r + 1))
        if lane % 2 == 1:
            acc = acc + lane
        acc = acc + wp.tile_extract(s, 0)
    k2 = int(0)
    while k2 < 2:
        t = t + wp.tile_ones(shape=3, dtype=int)
        k2 += 1
    out[b * wp.block_dim() + lane] = acc + wp.tile_extract(t, 0)
)";
  for (int B : BlockDims()) {
    auto m = Compile(src, B);
    const int G = 2;
    std::vector<int32_t> out(size_t(G * B), -1);
    tilec_array vo = View(out.data(), {G * B});
    Launch(m.Entry("k"), {&vo}, {G}, B);
    for (int l = 0; l < B; ++l) {
      int acc = 0;
      for (int r = 0; r < 4; ++r) acc += (l % 2 == 1 ? l : 0) + 3 * (r + 1);
      for (int b = 0; b < G; ++b) EXPECT_EQ(out[size_t(b * B + l)], acc + 3) << "B=" << B << " lane " << l;
    }
  }
}

}  // namespace
}  // namespace tilec
