// tile_matmul on tensor cores, checked in the PTX without a GPU: float16 and bfloat16 factors
// on sm_80 and sm_90 lower to m16n8k16 mma.sync fed by ldmatrix (the B factor transposed on
// load), ptxas accepts them without local-memory spills; sm_75, float32 factors and shapes
// that are not whole instructions keep the FMA loop. (Their results are checked under
// host-SIMT emulation by tests/exec/tile_matmul_test.cpp.)
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "compiler/compiler.h"
#include "tests/unit/ptx/ptxas.h"

namespace {

std::string Source(const char* dtype, const char* out, int M, int K, int N) {
  std::string s = R"(
@wp.kernel(enable_backward=False)
def mm(a: wp.array3d[{A}], b: wp.array3d[{A}], c: wp.array3d[{C}]):
    i = wp.tid()
    ta = wp.tile_load(a[i], shape=({M}, {K}))
    tb = wp.tile_load(b[i], shape=({K}, {N}))
    tc = wp.tile_load(c[i], shape=({M}, {N}))
    wp.tile_matmul(ta, tb, tc)
    wp.tile_store(c[i], tc)
)";
  auto put = [&](const std::string& key, const std::string& v) {
    for (size_t p; (p = s.find(key)) != std::string::npos;) s.replace(p, key.size(), v);
  };
  put("{A}", dtype);
  put("{C}", out);
  put("{M}", std::to_string(M));
  put("{K}", std::to_string(K));
  put("{N}", std::to_string(N));
  return s;
}

std::string Ptx(const std::string& text, const char* arch, int block_dim) {
  tilec::SourceFile file("mm.tile", text);
  tilec::diag::DiagnosticEngine diags;
  tilec::compiler::InternalError ice;
  auto cm = tilec::compiler::CompileSourcePtx(file, diags, {}, arch, block_dim, ice);
  EXPECT_TRUE(cm && !cm->signature.kernels.empty()) << arch << ": " << ice.message;
  return cm ? cm->signature.kernels[0].ptx : std::string();
}

int Count(const std::string& text, const std::string& pattern) {
  std::regex re(pattern);
  return int(std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

void ExpectPtxasWithoutSpills(const std::string& ptx, const char* arch) {
  if (!tilec::testing::HavePtxas()) return;
  tilec::testing::PtxasResult r = tilec::testing::RunPtxas(ptx, arch);
  EXPECT_EQ(r.status, 0) << arch << ":\n" << r.log;
  EXPECT_NE(r.log.find("0 bytes spill stores, 0 bytes spill loads"), std::string::npos) << arch << ":\n" << r.log;
}

TEST(MmaPtx, Float16TileMatmulUsesTensorCores) {
  for (const char* arch : {"sm_80", "sm_90"})
    for (int bd : {32, 128, 256}) {
      std::string ptx = Ptx(Source("wp.float16", "wp.float32", 64, 64, 64), arch, bd);
      EXPECT_GT(Count(ptx, R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32)"), 0) << arch << " " << bd;
      EXPECT_GT(Count(ptx, R"(ldmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16)"), 0) << arch << " " << bd;
      EXPECT_GT(Count(ptx, R"(ldmatrix\.sync\.aligned\.m8n8\.x2\.trans\.shared\.b16)"), 0) << arch << " " << bd;
      ExpectPtxasWithoutSpills(ptx, arch);
    }
}

TEST(MmaPtx, Float16AccumulatorAndBFloat16) {
  std::string h = Ptx(Source("wp.float16", "wp.float16", 32, 32, 16), "sm_80", 64);
  EXPECT_GT(Count(h, R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32)"), 0);
  ExpectPtxasWithoutSpills(h, "sm_80");
  std::string bf = Ptx(Source("wp.bfloat16", "wp.float32", 64, 64, 64), "sm_90", 128);
  EXPECT_GT(Count(bf, R"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.bf16\.bf16\.f32)"), 0);
  EXPECT_GT(Count(bf, R"(ldmatrix\.sync\.aligned)"), 0);
  ExpectPtxasWithoutSpills(bf, "sm_90");
}

// precision="tf32": float32 factors rounded by cvt.rna.tf32.f32 into m16n8k8 tf32 mma.sync.
TEST(MmaPtx, Tf32PrecisionUsesTf32Mma) {
  const std::string src = R"(
@wp.kernel(enable_backward=False)
def mm(a: wp.array2d[float], b: wp.array2d[float], c: wp.array2d[float]):
    ta = wp.tile_load(a, shape=(64, 64))
    tb = wp.tile_load(b, shape=(64, 64))
    tc = wp.tile_load(c, shape=(64, 64))
    wp.tile_matmul(ta, tb, tc, precision="tf32")
    wp.tile_store(c, tc)
)";
  for (const char* arch : {"sm_80", "sm_90"}) {
    std::string ptx = Ptx(src, arch, 128);
    EXPECT_GT(Count(ptx, R"(mma\.sync\.aligned\.m16n8k8\.row\.col\.f32\.tf32\.tf32\.f32)"), 0) << arch;
    EXPECT_GT(Count(ptx, R"(cvt\.rna\.tf32\.f32)"), 0) << arch;
    ExpectPtxasWithoutSpills(ptx, arch);
  }
  // The same kernel with the default precision keeps float32's FMA loop.
  std::string plain = Ptx(std::string(src).replace(src.find(", precision=\"tf32\""), 18, ""), "sm_90", 128);
  EXPECT_EQ(Count(plain, R"(mma\.sync)"), 0);
  EXPECT_EQ(Count(Ptx(src, "sm_75", 128), R"(mma\.sync)"), 0);
}

// Where the tensor-core path does not apply, the FMA loop remains (and still compiles).
TEST(MmaPtx, OtherCasesKeepTheFmaLoop) {
  struct Case {
    const char* dtype;
    const char* out;
    int M, K, N, bd;
    const char* arch;
  } cases[] = {
      {"wp.float16", "wp.float32", 64, 64, 64, 128, "sm_75"},  // no m16n8k16 path before sm_80
      {"wp.float32", "wp.float32", 64, 64, 64, 128, "sm_90"},  // float32 factors
      {"wp.float16", "wp.float32", 24, 16, 16, 128, "sm_90"},  // M not a multiple of 16
      {"wp.float16", "wp.float32", 32, 24, 16, 128, "sm_90"},  // K not a multiple of 16
      {"wp.float16", "wp.float32", 32, 32, 12, 128, "sm_90"},  // N not a multiple of 8
      {"wp.float16", "wp.float32", 32, 32, 16, 48, "sm_90"},   // not whole warps
      {"wp.float16", "wp.float64", 32, 32, 16, 64, "sm_90"},   // float64 sums
  };
  for (const Case& c : cases) {
    std::string ptx = Ptx(Source(c.dtype, c.out, c.M, c.K, c.N), c.arch, c.bd);
    EXPECT_EQ(Count(ptx, R"(mma\.sync)"), 0) << c.dtype << " " << c.M << "x" << c.K << "x" << c.N << " " << c.arch;
    EXPECT_EQ(Count(ptx, R"(ldmatrix)"), 0);
    EXPECT_GT(Count(ptx, R"(fma\.rn\.f(32|64))"), 0) << c.dtype << " " << c.M << "x" << c.K << "x" << c.N;
    if (tilec::testing::HavePtxas()) EXPECT_EQ(tilec::testing::RunPtxas(ptx, c.arch, false).status, 0);
  }
}

}  // namespace
