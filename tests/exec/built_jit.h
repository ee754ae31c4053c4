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
#include "ir/verifier.h"
#include "tests/unit/ptx/ptxas.h"

namespace tilec::testing {

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
  return jit;
}

}  // namespace tilec::testing
