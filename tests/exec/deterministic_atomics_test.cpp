// Deterministic tile atomics (LANGUAGE.md §5): with `deterministic=True`, or the module option
// (wp.config.deterministic), tile_atomic_add and tile_atomic_add_indexed give results and
// previous values equal bit for bit to adding the elements one after another in launch order
// (block index, then row-major element order), for any block_dim, through the runtime's
// launch (the CPU device, or under TILEC_SIMT_EMULATION the GPU lowering's ordered commit).
// The reference adds in that order in the test.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <sstream>
#include <vector>

#include "compiler/compiler.h"
#include "tilec/runtime.h"

namespace tilec {
namespace {

constexpr int kBlocks = 64, kPer = 16, kN = kBlocks * kPer;

// Magnitudes from 2^-20 to 2^19 with both signs: float32 sums that depend on the order.
std::vector<float> Values() {
  std::vector<float> v(kN);
  for (int k = 0; k < kN; ++k)
    v[size_t(k)] = std::ldexp(1.0f + float(k % 97) / 97.0f, (k * 7) % 40 - 20) * ((k % 3) ? 1.0f : -1.0f);
  return v;
}

rt::Module Compile(const std::string& body, bool module_option) {
  SourceFile file("det.tile", "import warp as wp\n" + body);
  diag::DiagnosticEngine diags;
  compiler::InternalError ice;
  compiler::CompileOptions opts;
  opts.deterministic = module_option;
  std::optional<compiler::CompiledModule> m = compiler::CompileSource(file, diags, opts, ice);
  std::ostringstream os;
  diags.Render(os);
  EXPECT_TRUE(m.has_value()) << os.str() << ice.message;
  return m ? m->ToRuntimeModule() : rt::Module();
}

const char* kIndexed = R"(
@wp.kernel
def scatter(x: wp.array1d[float], idx: wp.array1d[int], y: wp.array1d[float], prev: wp.array1d[float]):
    b = wp.tid()
    t = wp.tile_load(x, shape=16, offset=b * 16)
    i = wp.tile_load(idx, shape=16, offset=b * 16)
    p = wp.tile_atomic_add_indexed(y, i, t, axis=0{DET})
    wp.tile_store(prev, p, offset=b * 16)
    q = wp.tile_atomic_add(z, wp.tile_load(x, shape=3, offset=b * 16), offset=0{DET})
    wp.tile_store(zprev, q, offset=b * 3)
)";

std::string Source(bool kwarg) {
  std::string s = kIndexed;
  s.replace(s.find("prev: wp.array1d[float]):"), 25,
            "prev: wp.array1d[float], z: wp.array1d[float], zprev: wp.array1d[float]):");
  for (size_t p; (p = s.find("{DET}")) != std::string::npos;) s.replace(p, 5, kwarg ? ", deterministic=True" : "");
  return s;
}

void CheckInOrder(const rt::Module& m) {
  std::vector<float> x = Values();
  std::vector<int32_t> idx(kN);
  for (int k = 0; k < kN; ++k) idx[size_t(k)] = (k * 5 + k / 7) % 3;
  // The sequential reference: blocks in order, each tile's elements in row-major order.
  std::vector<float> y_ref(3, 0.f), prev_ref(kN), z_ref(3, 0.f), zprev_ref(kBlocks * 3);
  for (int b = 0; b < kBlocks; ++b) {
    for (int e = 0; e < kPer; ++e) {
      int k = b * kPer + e;
      prev_ref[size_t(k)] = y_ref[size_t(idx[size_t(k)])];
      y_ref[size_t(idx[size_t(k)])] += x[size_t(k)];
    }
    for (int e = 0; e < 3; ++e) {
      zprev_ref[size_t(b * 3 + e)] = z_ref[size_t(e)];
      z_ref[size_t(e)] += x[size_t(b * kPer + e)];
    }
  }
  rt::Kernel k = m.GetKernel("scatter");
  for (int bd : {1, 5, 16, 64}) {
    rt::Array xa = rt::Array::FromVector(x, {kN}, rt::Device::Cpu()), ia = rt::Array::FromVector(idx, {kN}, rt::Device::Cpu());
    rt::Array y = rt::Array::Zeros({3}, rt::ArrayDType(ScalarType::Float32), rt::Device::Cpu());
    rt::Array prev = rt::Array::Zeros({kN}, rt::ArrayDType(ScalarType::Float32), rt::Device::Cpu());
    rt::Array z = rt::Array::Zeros({3}, rt::ArrayDType(ScalarType::Float32), rt::Device::Cpu());
    rt::Array zprev = rt::Array::Zeros({kBlocks * 3}, rt::ArrayDType(ScalarType::Float32), rt::Device::Cpu());
    rt::LaunchTiled(k, {kBlocks}, {xa, ia, y, prev, z, zprev}, bd, rt::Device::Cpu());
    auto same_bits = [](const std::vector<float>& a, const std::vector<float>& b) {
      return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
    };
    EXPECT_TRUE(same_bits(y.ToVector<float>(), y_ref)) << "bd=" << bd;
    EXPECT_TRUE(same_bits(prev.ToVector<float>(), prev_ref)) << "bd=" << bd;
    EXPECT_TRUE(same_bits(z.ToVector<float>(), z_ref)) << "bd=" << bd;
    EXPECT_TRUE(same_bits(zprev.ToVector<float>(), zprev_ref)) << "bd=" << bd;
  }
}

TEST(DeterministicAtomics, KeywordGivesTheSequentialResultBitForBit) {
  rt::Module m = Compile(Source(true), false);
  ASSERT_TRUE(m.GetKernel("scatter").signature().deterministic);
  CheckInOrder(m);
}

TEST(DeterministicAtomics, ModuleOptionGivesTheSequentialResultBitForBit) {
  rt::Module m = Compile(Source(false), true);
  ASSERT_TRUE(m.GetKernel("scatter").signature().deterministic);
  CheckInOrder(m);
}

TEST(DeterministicAtomics, WithoutTheModeTheKernelIsNotOrdered) {
  rt::Module m = Compile(Source(false), false);
  EXPECT_FALSE(m.GetKernel("scatter").signature().deterministic);
}

}  // namespace
}  // namespace tilec
