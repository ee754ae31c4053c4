// Compiles Tile source text with the compiler facade for execution tests, failing the test
// with the diagnostics or the internal error when compilation does not succeed.
#pragma once
#include <cstdlib>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "codegen/codegen.h"
#include "codegen/simt/simt.h"
#include "compiler/compiler.h"
#include "compiler/pipeline.h"
#include "tests/exec/exec_util.h"
#include "tests/gpu_replay/record_ir.h"
#include "tests/unit/ptx/ptxas.h"

namespace tilec::testing {

struct Compiled {
  std::unique_ptr<SourceFile> file;
  std::optional<compiler::CompiledModule> module;
  std::unique_ptr<ir::Module> emulated_ir;
  std::unique_ptr<codegen::JitModule> emulated;  // under TILEC_SIMT_EMULATION
  void* Entry(const std::string& kernel) const {
    if (emulated) return emulated->Lookup(codegen::EntrySymbol(kernel));
    return module ? module->resolve(codegen::EntrySymbol(kernel)) : nullptr;
  }
};

// Under TILEC_SIMT_EMULATION=B the kernels (and their adjoints, where every one has one) run
// through the GPU lowering with B lanes on the host instead of the CPU lowering.
inline void EmulateIfAsked(Compiled& c, const compiler::CompileOptions& copts = {}) {
  const char* lanes = std::getenv("TILEC_SIMT_EMULATION");
  if (!lanes || std::atoi(lanes) < 1 || std::atoi(lanes) > 1024) return;
  compiler::PipelineResult r;
  compiler::PipelineOptions popts;
  popts.compile = copts;
  for (compiler::Stage stage : {compiler::Stage::GradIr, compiler::Stage::TileIr}) {
    r = compiler::Run(*c.file, popts, stage);
    if (r.ok() && r.ir) break;
  }
  ASSERT_TRUE(r.ok() && r.ir) << r.ice.message;
  codegen::SimtOptions opts;
  opts.block_dim = std::atoi(lanes);
  std::string error;
  c.emulated = codegen::JitCompileSimtEmulation(*r.ir, opts, error);
  ASSERT_TRUE(c.emulated) << error;
  c.emulated_ir = std::move(r.ir);
}

// With TILEC_EXEC_PTXAS set (CTest's exec_ptxas), every kernel an execution test compiles is
// also compiled to PTX, forward and adjoint, and must be accepted by ptxas for sm_75, sm_80 and
// sm_90.
inline void CheckPtxas(const SourceFile& file, const compiler::CompileOptions& copts = {}) {
  if (!HavePtxas()) GTEST_SKIP() << "ptxas not found at " << PtxasPath();
  for (const char* arch : {"sm_75", "sm_80", "sm_90"}) {
    diag::DiagnosticEngine diags;
    compiler::InternalError ice;
    auto gpu = compiler::CompileSourcePtx(file, diags, copts, arch, 64, ice);
    ASSERT_TRUE(gpu && !gpu->signature.kernels.empty()) << arch << ": " << ice.message;
    PtxasResult r = RunPtxas(gpu->signature.kernels[0].ptx, arch, false);
    EXPECT_EQ(r.status, 0) << arch << ":\n" << r.log;
  }
}

// Under TILEC_GPU_RECORD: the module's entries for exec_util.h's recorder, the GPU variant
// compiled from the same source on first launch (per block_dim) with the IR that the replay
// flags come from.
inline void RegisterSourceForGpuRecord(const Compiled& c) {
  auto module = std::make_shared<GpuRecordModule>();
  module->host = c.module->signature;
  struct Variant { bool ok; rt::ModuleSignature sig; std::map<std::string, gpu_record::KernelFlags> flags; std::string error; };
  auto variants = std::make_shared<std::map<int, Variant>>();
  std::string path = c.file->path(), text = c.file->text();
  module->gpu = [=](int block_dim, rt::ModuleSignature& out, std::map<std::string, gpu_record::KernelFlags>& flags,
                    std::string& error) {
    auto it = variants->find(block_dim);
    if (it == variants->end()) {
      Variant v;
      SourceFile file(path, text);
      compiler::PipelineOptions po;
      po.arch = "sm_90";
      po.compile.block_dim = block_dim;
      compiler::PipelineResult r = compiler::Run(file, po, compiler::Stage::Ptx);
      v.ok = r.ok() && r.compiled && r.ir;
      if (v.ok) {
        v.sig = r.compiled->signature;
        v.flags = gpu_record::FlagsOf(*r.ir);
      } else {
        std::ostringstream os;
        r.diags.Render(os);
        v.error = os.str() + r.ice.message;
      }
      it = variants->emplace(block_dim, std::move(v)).first;
    }
    out = it->second.sig;
    flags = it->second.flags;
    error = it->second.error;
    return it->second.ok;
  };
  for (const rt::KernelSignature& k : module->host.kernels) GpuRecordRegister(c.Entry(k.name), module, k.name);
}

// `copts`: e.g. hybrid_launch for the variant of Warp's wp.launch with block_dim.
inline Compiled CompileText(const std::string& text, const compiler::CompileOptions& copts = {}) {
  Compiled c;
  c.file = std::make_unique<SourceFile>("test.tile", "import warp as wp\nimport numpy as np\n" + text);
  diag::DiagnosticEngine diags;
  compiler::InternalError ice;
  c.module = compiler::CompileSource(*c.file, diags, copts, ice);
  std::ostringstream os;
  diags.Render(os);
  EXPECT_TRUE(c.module.has_value()) << os.str() << ice.message;
  if (c.module && GpuRecordDir()) RegisterSourceForGpuRecord(c);
  if (c.module && std::getenv("TILEC_EXEC_PTXAS")) CheckPtxas(*c.file, copts);
  if (c.module) EmulateIfAsked(c, copts);
  return c;
}

// `text` with every `{T}` replaced by a dtype name, for one kernel source over several dtypes.
inline std::string WithDType(std::string text, const std::string& t) {
  for (size_t p; (p = text.find("{T}")) != std::string::npos;) text.replace(p, 3, t);
  return text;
}

// Nonzero values in [-3, 3], varied by position: exact in every dtype, so references match.
template <typename T>
std::vector<T> Inputs(int n, int seed) {
  std::vector<T> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    int x = (i * 5 + seed) % 7 - 3;
    v[size_t(i)] = T(x == 0 ? 2 : x);
  }
  return v;
}

}  // namespace tilec::testing
