// The CUDA variant the host interpreter builds on a GPU launch: source through
// compiler::CompileSourcePtx, checked here without a GPU by its signature (PTX, block_dim,
// shared bytes, adjoint entry) and by ptxas accepting the PTX.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "compiler/compiler.h"
#include "tests/unit/ptx/ptxas.h"
#include "tilec/module.h"

namespace {

const char* kSource = R"(
TILE_M, TILE_N = 2, 4

@wp.kernel
def gather_even_rows(x: wp.array2d[float], y: wp.array2d[float]):
    rows = wp.tile_arange(TILE_M, dtype=int) * 2
    t = wp.tile_load_indexed(x, indices=rows, shape=(TILE_M, TILE_N), axis=0)
    wp.tile_store(y, t)

@wp.kernel
def square_in_place(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * a[i]
)";

TEST(DeviceVariant, SignatureCarriesPtxForTheLaunchBlockDim) {
  tilec::SourceFile file("variant.tile", kSource);
  tilec::diag::DiagnosticEngine diags;
  tilec::compiler::InternalError ice;
  auto cm = tilec::compiler::CompileSourcePtx(file, diags, {}, "sm_80", 64, ice);
  ASSERT_TRUE(cm) << ice.message;
  ASSERT_EQ(cm->signature.kernels.size(), 2u);
  const tilec::rt::KernelSignature& gather = cm->signature.kernels[0];
  EXPECT_EQ(gather.name, "gather_even_rows");
  EXPECT_TRUE(gather.tiled);
  EXPECT_EQ(gather.block_dim, 64);
  EXPECT_TRUE(gather.has_adjoint);
  // The promoted index tile (2 int32) lives in shared memory.
  EXPECT_GE(gather.shared_bytes, 8u);
  EXPECT_NE(gather.ptx.find(".entry " + gather.entry_symbol), std::string::npos);
  EXPECT_NE(gather.ptx.find(".entry " + gather.adjoint_symbol), std::string::npos);
  // A plain kernel whose adjoint is rejected still has forward code, and the reason.
  const tilec::rt::KernelSignature& square = cm->signature.kernels[1];
  EXPECT_FALSE(square.tiled);
  EXPECT_EQ(square.block_dim, 0);
  EXPECT_FALSE(square.has_adjoint);
  EXPECT_NE(square.adjoint_error.find("error[E0500]"), std::string::npos) << square.adjoint_error;
  // The signature survives the text form AOT artifacts use.
  tilec::rt::ModuleSignature back = tilec::rt::ParseSignature(tilec::rt::SerializeSignature(cm->signature));
  EXPECT_EQ(back.kernels[1].adjoint_error, square.adjoint_error);
  EXPECT_EQ(back.kernels[0].block_dim, 64);

  if (!tilec::testing::HavePtxas()) GTEST_SKIP() << "ptxas not found at " << tilec::testing::PtxasPath();
  tilec::testing::PtxasResult r = tilec::testing::RunPtxas(gather.ptx, "sm_80");
  EXPECT_EQ(r.status, 0) << r.log;
}

// The on-disk cache: the second compile of the same variant is read back (no pipeline run,
// so no new entry), and anything the output depends on (constants, block_dim) makes a new one.
TEST(DeviceVariant, PtxVariantsAreCachedOnDisk) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("tilec_cache_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  ::setenv("TILEC_CACHE_DIR", dir.c_str(), 1);
  auto entries = [&] {
    size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) n += e.path().extension() == ".ptxsig";
    return n;
  };
  auto compile = [](int m, int block_dim) {
    tilec::SourceFile file("variant.tile", kSource);
    tilec::diag::DiagnosticEngine diags;
    tilec::compiler::InternalError ice;
    tilec::compiler::CompileOptions opts;
    opts.constants["TILE_M"] = tilec::sema::ConstValue::MakeInt(m);
    auto cm = tilec::compiler::CompileSourcePtx(file, diags, opts, "sm_90", block_dim, ice);
    EXPECT_TRUE(cm) << ice.message;
    return cm ? tilec::rt::SerializeSignature(cm->signature) : std::string();
  };
  std::string first = compile(2, 32);
  EXPECT_EQ(entries(), 1u);
  std::string again = compile(2, 32);
  EXPECT_EQ(again, first);
  EXPECT_EQ(entries(), 1u);
  compile(2, 64);
  EXPECT_EQ(entries(), 2u);
  ::unsetenv("TILEC_CACHE_DIR");
  std::filesystem::remove_all(dir);
}

TEST(DeviceVariant, ArchitectureForComputeCapability) {
  EXPECT_EQ(tilec::compiler::PtxArchFor(90), "sm_90");
  EXPECT_EQ(tilec::compiler::PtxArchFor(100), "sm_90");
  EXPECT_EQ(tilec::compiler::PtxArchFor(89), "sm_89");
  EXPECT_EQ(tilec::compiler::PtxArchFor(87), "sm_86");
  EXPECT_EQ(tilec::compiler::PtxArchFor(75), "sm_75");
  EXPECT_EQ(tilec::compiler::PtxArchFor(70), "");
}

}  // namespace

namespace {

// The static shared-memory plan gives tiles that are never live together the same bytes
// (Warp gives every tile its own); the launch asks for the plan's size, and a plan over the
// architecture's limit is E0401 at compile time (tests/golden/ptx).
TEST(DeviceVariant, TilesWithDisjointLiveRangesShareSharedMemory) {
  tilec::SourceFile file("shared.tile", R"(
@wp.kernel
def apart(x: wp.array2d[wp.float64], out: wp.array2d[wp.float64]):
    t = wp.tile_load(x, shape=(64, 64), storage="shared")
    wp.tile_store(out, t)
    u = wp.tile_load(x, shape=(64, 64), storage="shared")
    wp.tile_store(out, u * 2.0)

@wp.kernel
def together(x: wp.array2d[wp.float64], out: wp.array2d[wp.float64]):
    t = wp.tile_load(x, shape=(64, 64), storage="shared")
    u = wp.tile_load(x, shape=(64, 64), storage="shared")
    wp.tile_store(out, t + u)
)");
  tilec::diag::DiagnosticEngine diags;
  tilec::compiler::InternalError ice;
  auto cm = tilec::compiler::CompileSourcePtx(file, diags, {}, "sm_90", 256, ice);
  ASSERT_TRUE(cm) << ice.message;
  ASSERT_EQ(cm->signature.kernels.size(), 2u);
  const uint32_t tile = 64 * 64 * 8;
  EXPECT_EQ(cm->signature.kernels[0].shared_bytes, tile) << "apart: one tile's bytes, reused";
  EXPECT_EQ(cm->signature.kernels[1].shared_bytes, 2 * tile) << "together: both tiles";
  for (const auto& k : cm->signature.kernels) {
    tilec::testing::PtxasResult r = tilec::testing::RunPtxas(k.ptx, "sm_90", false);
    if (tilec::testing::HavePtxas()) EXPECT_EQ(r.status, 0) << r.log;
  }
}

}  // namespace
