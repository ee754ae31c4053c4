// Tiles larger than a thread's stack: a 1024x1024 float32 tile is 4 MiB, and the CPU lowering
// keeps such buffers in a heap block per kernel call instead of the stack frame (which they
// overflowed). Results against references computed in the test. On a GPU the same kernel does
// not fit in a block's shared memory: a compile error that names the tiles and the shortfall.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <sstream>
#include <vector>

#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::Launch;
using testing::View;

const char* kBigKernel = R"(import warp as wp

@wp.kernel
def big(x: wp.array2d[float], y: wp.array2d[float], rows: wp.array1d[float], n: int):
    t = wp.tile_load(x, shape=(1024, 1024))
    for r in range(n):
        t = t * 0.5 + wp.tile_transpose(t) * 0.25
    wp.tile_store(y, t)
    wp.tile_store(rows, wp.tile_sum(t, axis=1))
)";

// The CPU device only: host-SIMT emulation runs the GPU lowering, which refuses this kernel.
TEST(LargeTile, MegabyteTilesLoadComputeReduceAndStore) {
  if (std::getenv("TILEC_SIMT_EMULATION") || std::getenv("TILEC_EXEC_PTXAS") || testing::GpuRecordDir())
    GTEST_SKIP() << "a CPU-only kernel: the GPU lowering refuses it (LargeTile.GpuCompileNamesTheShortfall)";
  SourceFile file("big.tile", kBigKernel);
  diag::DiagnosticEngine diags;
  compiler::InternalError ice;
  std::optional<compiler::CompiledModule> module = compiler::CompileSource(file, diags, {}, ice);
  ASSERT_TRUE(module.has_value()) << ice.message;
  void* entry = module->resolve(codegen::EntrySymbol("big"));
  const int n = 1024;
  std::vector<float> x(size_t(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) x[size_t(i) * n + j] = float((i * 3 + j * 5) % 8);
  // Two rounds of t = t/2 + t^T/4, exact in float32 (multiples of 1/16 below 8).
  std::vector<float> ref = x;
  for (int r = 0; r < 2; ++r) {
    std::vector<float> next(ref.size());
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) next[size_t(i) * n + j] = ref[size_t(i) * n + j] * 0.5f + ref[size_t(j) * n + i] * 0.25f;
    ref = next;
  }
  for (int bd : {1, 64}) {
    std::vector<float> y(x.size(), -1.f), rows(n, -1.f);
    tilec_array xa = View(x.data(), {n, n}), ya = View(y.data(), {n, n}), ra = View(rows.data(), {n});
    int32_t rounds = 2;
    Launch(entry, {&xa, &ya, &ra, &rounds}, {1}, bd);
    ASSERT_EQ(y, ref) << "bd=" << bd;
    for (int i = 0; i < n; i += 97) {
      double s = 0;
      for (int j = 0; j < n; ++j) s += ref[size_t(i) * n + j];
      EXPECT_EQ(rows[size_t(i)], float(s)) << "row " << i;  // sums of 1/16ths below 2^24/16: exact
    }
  }
}

TEST(LargeTile, GpuCompileNamesTheShortfall) {
  SourceFile file("big.tile", kBigKernel);
  diag::DiagnosticEngine diags;
  compiler::InternalError ice;
  auto gpu = compiler::CompileSourcePtx(file, diags, {}, "sm_90", 64, ice);
  EXPECT_FALSE(gpu.has_value());
  std::ostringstream os;
  diags.Render(os);
  EXPECT_NE(os.str().find("error[E0401]: kernel `big` needs 8388608 bytes of shared memory per block on sm_90 with "
                          "block_dim 64, 8156160 more than the 232448 a block can have"),
            std::string::npos)
      << os.str();
  EXPECT_NE(os.str().find("tile<float32, 1024x1024>, 4194304 bytes"), std::string::npos) << os.str();
}

}  // namespace
}  // namespace tilec
