// The execution tests' JIT for kernels built directly with ir::Builder: the IR must verify,
// then it runs through the host JIT or host-SIMT emulation, and (TILEC_EXEC_PTXAS) through
// ptxas, as the source-compiled kernels do.
#pragma once
#include <cstdlib>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "codegen/codegen.h"
#include "codegen/nvptx/nvptx.h"
#include "codegen/simt/simt.h"
#include "ir/parser.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "support/diagnostics.h"
#include "tests/exec/exec_util.h"
#include "tests/gpu_replay/record_ir.h"
#include "tests/unit/ptx/ptxas.h"

namespace tilec::testing {

// Under TILEC_GPU_RECORD: the hand-built module's entries for exec_util.h's recorder. The
// test's module may be gone by launch time, so PTX for block_dim 64 (what tiled kernels
// launched with 0 get) is compiled now and other block_dims from the module's printed IR.
inline void RegisterBuiltForGpuRecord(const ir::Module& m, codegen::JitModule& jit) {
  auto module = std::make_shared<GpuRecordModule>();
  module->host = gpu_record::SignatureFromIr(m);
  auto flags = gpu_record::FlagsOf(m);
  auto host = module->host;
  auto compile = [host](const ir::Module& ir, int block_dim, rt::ModuleSignature& out, std::string& error) {
    codegen::PtxOptions popts;
    popts.arch = "sm_90";
    popts.block_dim = block_dim;
    codegen::PtxModule ptx;
    if (!codegen::EmitPtx(ir, popts, ptx, error)) return false;
    out = host;
    gpu_record::FillPtx(out, ir, ptx, block_dim);
    return true;
  };
  struct Variant { bool ok; rt::ModuleSignature sig; std::string error; };
  auto variants = std::make_shared<std::map<int, Variant>>();
  Variant& v64 = (*variants)[64];
  v64.ok = compile(m, 64, v64.sig, v64.error);
  auto text = std::make_shared<std::string>(ir::ModuleToString(m));
  module->gpu = [=](int block_dim, rt::ModuleSignature& out, std::map<std::string, gpu_record::KernelFlags>& fl,
                    std::string& error) {
    fl = flags;
    auto it = variants->find(block_dim);
    if (it == variants->end()) {
      Variant v;
      diag::DiagnosticEngine diags;
      std::unique_ptr<ir::Module> parsed = ir::ParseModule(*text, nullptr, diags);
      v.ok = parsed && compile(*parsed, block_dim, v.sig, v.error);
      if (!parsed) v.error = "the printed IR does not parse back";
      it = variants->emplace(block_dim, std::move(v)).first;
    }
    out = it->second.sig;
    error = it->second.error;
    return it->second.ok;
  };
  for (const rt::KernelSignature& k : module->host.kernels)
    GpuRecordRegister(jit.Lookup(k.entry_symbol), module, k.name);
}

// Host JIT, or host-SIMT emulation under TILEC_SIMT_EMULATION=B; with TILEC_EXEC_PTXAS set the
// kernels must also pass ptxas for sm_75, sm_80 and sm_90 (as the source-compiled ones do).
inline std::unique_ptr<codegen::JitModule> JitBuilt(const ir::Module& m) {
  auto errors = ir::Verify(m);
  EXPECT_TRUE(errors.empty()) << errors.front();
  std::string error;
  if (std::getenv("TILEC_EXEC_PTXAS") && testing::HavePtxas()) {
    for (const char* arch : {"sm_75", "sm_80", "sm_90"}) {
      codegen::PtxOptions popts;
      popts.arch = arch;
      popts.block_dim = 64;
      codegen::PtxModule ptx;
      EXPECT_TRUE(codegen::EmitPtx(m, popts, ptx, error)) << arch << ": " << error;
      testing::PtxasResult r = testing::RunPtxas(ptx.ptx, arch, false);
      EXPECT_EQ(r.status, 0) << arch << ":\n" << r.log;
    }
  }
  const char* lanes = std::getenv("TILEC_SIMT_EMULATION");
  std::unique_ptr<codegen::JitModule> jit;
  if (lanes && std::atoi(lanes) >= 1 && std::atoi(lanes) <= 1024) {
    codegen::SimtOptions opts;
    opts.block_dim = std::atoi(lanes);
    jit = codegen::JitCompileSimtEmulation(m, opts, error);
  } else {
    jit = codegen::JitCompile(m, error);
  }
  EXPECT_TRUE(jit) << error;
  if (jit && GpuRecordDir()) RegisterBuiltForGpuRecord(m, *jit);
  return jit;
}

}  // namespace tilec::testing
