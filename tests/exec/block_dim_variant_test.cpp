// block_dim as a compile-time constant of a variant on the CPU device: the signature records
// it, a launch with another block_dim is refused with the runtime's message, and a variant
// compiled for any block_dim (0) runs under each.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "tilec/array.h"
#include "tilec/error.h"
#include "tilec/launch.h"

namespace tilec {
namespace {

constexpr const char* kSource = R"(import warp as wp

@wp.kernel
def block_sums(x: wp.array[float], y: wp.array[float]):
    i = wp.tid()
    t = wp.tile_load(x, shape=4, offset=i * 4)
    wp.tile_store(y, wp.tile_sum(t), offset=i)

@wp.kernel
def plain(y: wp.array[float]):
    i = wp.tid()
    y[i] = y[i] + 1.0
)";

rt::Module Compile(int block_dim) {
  SourceFile file("variant.tile", kSource);
  diag::DiagnosticEngine diags;
  compiler::InternalError ice;
  compiler::CompileOptions opts;
  opts.block_dim = block_dim;
  auto cm = compiler::CompileSource(file, diags, opts, ice);
  EXPECT_TRUE(cm.has_value()) << ice.message;
  return cm ? cm->ToRuntimeModule() : rt::Module();
}

std::vector<float> RunBlockSums(const rt::Module& m, int block_dim) {
  std::vector<float> xs(8);
  for (int i = 0; i < 8; ++i) xs[size_t(i)] = float(i + 1);
  rt::Array x = rt::Array::FromVector(xs, {8}, rt::Device::Cpu());
  rt::Array y = rt::Array::Zeros({2}, ScalarType::Float32, rt::Device::Cpu());
  rt::LaunchTiled(m.GetKernel("block_sums"), {2}, {x, y}, block_dim, rt::Device::Cpu());
  return y.ToVector<float>();
}

TEST(BlockDimVariant, SignatureRecordsTheLaneCountOfTiledKernels) {
  rt::Module m = Compile(64);
  EXPECT_EQ(m.GetKernel("block_sums").signature().block_dim, 64);
  EXPECT_EQ(m.GetKernel("plain").signature().block_dim, 0) << "a plain kernel has no blocks";
}

TEST(BlockDimVariant, RunsAtItsBlockDimAndRefusesAnother) {
  rt::Module m = Compile(64);
  EXPECT_EQ(RunBlockSums(m, 64), (std::vector<float>{10.0f, 26.0f}));
  try {
    RunBlockSums(m, 32);
    ADD_FAILURE() << "a launch with another block_dim ran";
  } catch (const rt::Error& e) {
    EXPECT_EQ(std::string(e.what()), "kernel `block_sums` was compiled for block_dim 64, launched with block_dim 32");
  }
}

TEST(BlockDimVariant, AnyBlockDimVariantRunsUnderEach) {
  rt::Module m = Compile(0);
  for (int b : {1, 4, 32, 256}) EXPECT_EQ(RunBlockSums(m, b), (std::vector<float>{10.0f, 26.0f})) << b;
}

}  // namespace
}  // namespace tilec
