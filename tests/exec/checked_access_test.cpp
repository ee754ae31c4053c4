// Checked array access (wp.config.mode = "debug", CompileOptions::checked_access): a scalar
// load, store or atomic outside its array is skipped (a load reads zero) and the launch's first
// such access is reported with its line, column, index and shape; accesses inside run as
// before. On the CPU and, under TILEC_SIMT_EMULATION, through the GPU lowering.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <vector>

#include "codegen/codegen.h"
#include "codegen/simt/simt.h"
#include "compiler/pipeline.h"
#include "tests/exec/exec_util.h"
#include "tests/unit/ptx/ptxas.h"

namespace tilec {
namespace {

using testing::View;

struct Checked {
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<ir::Module> ir;
  std::unique_ptr<codegen::JitModule> jit;
};

Checked CompileChecked(const std::string& text) {
  Checked c;
  c.file = std::make_unique<SourceFile>("checked.tile", "import warp as wp\n" + text);
  compiler::PipelineOptions po;
  po.compile.checked_access = true;
  compiler::PipelineResult r = compiler::Run(*c.file, po, compiler::Stage::GradIr);
  EXPECT_TRUE(r.ok() && r.ir) << r.ice.message;
  if (!r.ir) return c;
  std::string error;
  const char* lanes = std::getenv("TILEC_SIMT_EMULATION");
  if (lanes && std::atoi(lanes) >= 1) {
    codegen::SimtOptions opts;
    opts.block_dim = std::atoi(lanes);
    c.jit = codegen::JitCompileSimtEmulation(*r.ir, opts, error);
  } else {
    c.jit = codegen::JitCompile(*r.ir, error);
  }
  EXPECT_TRUE(c.jit) << error;
  c.ir = std::move(r.ir);
  return c;
}

void LaunchChecked(void* entry, std::vector<void*> args, int64_t n, tilec_access_error* error) {
  tilec_launch l{};
  l.ndim = 1;
  l.dim[0] = n;
  for (int d = 1; d < TILEC_MAX_DIMS; ++d) l.dim[d] = 1;
  l.error = error;
  reinterpret_cast<tilec_cpu_kernel_fn>(entry)(args.data(), &l, 0, n);
}

const char* kKernel = R"(
@wp.kernel
def k(a: wp.array1d[float], idx: wp.array1d[int], out: wp.array2d[float], hits: wp.array1d[int]):
    i = wp.tid()
    v = a[idx[i]]
    out[i, idx[i]] = v + 1.0
    wp.atomic_add(hits, idx[i], 1)
)";

TEST(CheckedAccess, InBoundsRunsAndTheFirstFailureIsReported) {
  Checked c = CompileChecked(kKernel);
  ASSERT_TRUE(c.jit);
  void* entry = c.jit->Lookup(codegen::EntrySymbol("k"));
  ASSERT_NE(entry, nullptr);
  std::vector<float> a = {10, 20, 30};
  std::vector<float> out(4 * 3, -1.f);
  std::vector<int32_t> hits(3, 0);
  // In bounds: every access runs and nothing is reported.
  {
    std::vector<int32_t> idx = {2, 0, 1, 2};
    tilec_array A = View(a.data(), {3}), I = View(idx.data(), {4}), O = View(out.data(), {4, 3}), H = View(hits.data(), {3});
    tilec_access_error e{};
    LaunchChecked(entry, {&A, &I, &O, &H}, 4, &e);
    EXPECT_EQ(e.line, 0);
    EXPECT_EQ(out, (std::vector<float>{-1, -1, 31, 11, -1, -1, -1, 21, -1, -1, -1, 31}));
    EXPECT_EQ(hits, (std::vector<int32_t>{1, 1, 2}));
  }
  // Index 5 (thread 1) and -1 (thread 3) are outside `a`: the load is the first access that
  // fails, in the statement at line 6, column 5; the failing threads' loads, stores and atomics
  // are skipped.
  {
    std::vector<int32_t> idx = {0, 5, 1, -1};
    std::fill(out.begin(), out.end(), -1.f);
    std::fill(hits.begin(), hits.end(), 0);
    tilec_array A = View(a.data(), {3}), I = View(idx.data(), {4}), O = View(out.data(), {4, 3}), H = View(hits.data(), {3});
    tilec_access_error e{};
    LaunchChecked(entry, {&A, &I, &O, &H}, 4, &e);
    EXPECT_EQ(e.line, 6);
    EXPECT_EQ(e.column, 5);
    EXPECT_EQ(e.ndim, 1);
    EXPECT_TRUE(e.index[0] == 5 || e.index[0] == -1) << e.index[0];
    EXPECT_EQ(e.shape[0], 3);
    EXPECT_EQ(out, (std::vector<float>{11, -1, -1, -1, -1, -1, -1, 21, -1, -1, -1, -1}));
    EXPECT_EQ(hits, (std::vector<int32_t>{1, 1, 0}));
    // Without a record the same launch runs, skipping the same accesses.
    std::fill(out.begin(), out.end(), -1.f);
    LaunchChecked(entry, {&A, &I, &O, &H}, 4, nullptr);
    EXPECT_EQ(out, (std::vector<float>{11, -1, -1, -1, -1, -1, -1, 21, -1, -1, -1, -1}));
  }
}

TEST(CheckedAccess, TwoDimensionalStoreReportsBothCoordinates) {
  Checked c = CompileChecked(R"(
@wp.kernel
def diag(out: wp.array2d[float]):
    i = wp.tid()
    out[i, i * 2] = 1.0
)");
  ASSERT_TRUE(c.jit);
  std::vector<float> out(3 * 4, 0.f);
  tilec_array O = View(out.data(), {3, 4});
  tilec_access_error e{};
  LaunchChecked(c.jit->Lookup(codegen::EntrySymbol("diag")), {&O}, 2, &e);
  EXPECT_EQ(e.line, 0);
  LaunchChecked(c.jit->Lookup(codegen::EntrySymbol("diag")), {&O}, 3, &e);
  EXPECT_EQ(e.line, 6);
  EXPECT_EQ(e.ndim, 2);
  EXPECT_EQ(e.index[0], 2);
  EXPECT_EQ(e.index[1], 4);
  EXPECT_EQ(e.shape[0], 3);
  EXPECT_EQ(e.shape[1], 4);
  EXPECT_EQ(out, (std::vector<float>{1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0}));
}

const char* kAsserts = R"(
@wp.kernel
def checked_sqrt(a: wp.array1d[float], out: wp.array1d[float]):
    i = wp.tid()
    assert a[i] >= 0.0, "negative input"
    out[i] = wp.sqrt(a[i])
)";

// `assert` in debug mode: a lane whose condition fails reports the assert's line with ndim
// TILEC_ASSERT_FAILED (the rest of the kernel still runs); passing conditions report nothing.
TEST(CheckedAccess, FailedAssertReportsItsLine) {
  Checked c = CompileChecked(kAsserts);
  ASSERT_TRUE(c.jit);
  void* entry = c.jit->Lookup(codegen::EntrySymbol("checked_sqrt"));
  ASSERT_NE(entry, nullptr);
  std::vector<float> a = {4, 9, 16}, out(3, -1.f);
  tilec_array A = View(a.data(), {3}), O = View(out.data(), {3});
  tilec_access_error e{};
  LaunchChecked(entry, {&A, &O}, 3, &e);
  EXPECT_EQ(e.line, 0);
  EXPECT_EQ(out, (std::vector<float>{2, 3, 4}));
  a[1] = -1.0f;
  LaunchChecked(entry, {&A, &O}, 3, &e);
  EXPECT_EQ(e.line, 6);  // the assert's line, after `import warp as wp` and a blank line
  EXPECT_EQ(e.column, 5);
  EXPECT_EQ(e.ndim, TILEC_ASSERT_FAILED);
}

// Outside debug mode an assert is compiled out, as in Warp: no op is left, and the launch runs.
TEST(CheckedAccess, AssertIsCompiledOutOfReleaseKernels) {
  SourceFile file("release.tile", std::string("import warp as wp\n") + kAsserts);
  compiler::PipelineResult r = compiler::Run(file, compiler::PipelineOptions{}, compiler::Stage::TileIr);
  ASSERT_TRUE(r.ok()) << r.ice.message;
  EXPECT_EQ(r.text.find("assert"), std::string::npos) << r.text;
  compiler::PipelineOptions po;
  po.compile.checked_access = true;
  compiler::PipelineResult d = compiler::Run(file, po, compiler::Stage::TileIr);
  ASSERT_TRUE(d.ok()) << d.ice.message;
  EXPECT_NE(d.text.find("assert "), std::string::npos) << d.text;
}

// A tile element read at a runtime index is checked too (the CPU form is tested through the
// host, tests/unit/interp).
const char* kTileRead = R"(
@wp.kernel
def tile_read(a: wp.array1d[float], j: wp.array1d[int], out: wp.array1d[float]):
    t = wp.tile_load(a, shape=4)
    out[0] = wp.tile_extract(t, j[0])
)";

// The GPU form: the record's address comes with the launch parameter, and ptxas accepts it.
TEST(CheckedAccess, PtxAcceptedByPtxas) {
  if (!testing::HavePtxas()) GTEST_SKIP() << "ptxas not found at " << testing::PtxasPath();
  SourceFile file("checked.tile", std::string("import warp as wp\n") + kKernel + kAsserts + kTileRead);
  for (const char* arch : {"sm_75", "sm_80", "sm_90"}) {
    compiler::PipelineOptions po;
    po.compile.checked_access = true;
    po.compile.target = compiler::Target::Nvptx;
    po.arch = arch;
    compiler::PipelineResult r = compiler::Run(file, po, compiler::Stage::Ptx);
    ASSERT_TRUE(r.ok()) << r.ice.message;
    EXPECT_NE(r.ptx.ptx.find("atom.global.cas.b32"), std::string::npos) << "no report in the PTX";
    testing::PtxasResult p = testing::RunPtxas(r.ptx.ptx, arch, false);
    EXPECT_EQ(p.status, 0) << arch << ":\n" << p.log;
  }
}

}  // namespace
}  // namespace tilec
