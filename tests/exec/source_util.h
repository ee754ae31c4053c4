// Compiles Tile source text with the compiler facade for execution tests, failing the test
// with the diagnostics or the internal error when compilation does not succeed.
#pragma once
#include <cstdlib>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "codegen/codegen.h"
#include "compiler/compiler.h"
#include "tests/unit/ptx/ptxas.h"

namespace tilec::testing {

struct Compiled {
  std::unique_ptr<SourceFile> file;
  std::optional<compiler::CompiledModule> module;
  void* Entry(const std::string& kernel) const {
    return module ? module->resolve(codegen::EntrySymbol(kernel)) : nullptr;
  }
};

// With TILEC_EXEC_PTXAS set (CTest's exec_ptxas), every kernel an execution test compiles is
// also compiled to PTX, forward and adjoint, and must be accepted by ptxas for sm_75, sm_80 and
// sm_90.
inline void CheckPtxas(const SourceFile& file) {
  if (!HavePtxas()) GTEST_SKIP() << "ptxas not found at " << PtxasPath();
  for (const char* arch : {"sm_75", "sm_80", "sm_90"}) {
    diag::DiagnosticEngine diags;
    compiler::InternalError ice;
    auto gpu = compiler::CompileSourcePtx(file, diags, {}, arch, 64, ice);
    ASSERT_TRUE(gpu && !gpu->signature.kernels.empty()) << arch << ": " << ice.message;
    PtxasResult r = RunPtxas(gpu->signature.kernels[0].ptx, arch, false);
    EXPECT_EQ(r.status, 0) << arch << ":\n" << r.log;
  }
}

inline Compiled CompileText(const std::string& text) {
  Compiled c;
  c.file = std::make_unique<SourceFile>("test.tile", "import warp as wp\nimport numpy as np\n" + text);
  diag::DiagnosticEngine diags;
  compiler::InternalError ice;
  c.module = compiler::CompileSource(*c.file, diags, {}, ice);
  std::ostringstream os;
  diags.Render(os);
  EXPECT_TRUE(c.module.has_value()) << os.str() << ice.message;
  if (c.module && std::getenv("TILEC_EXEC_PTXAS")) CheckPtxas(*c.file);
  return c;
}

}  // namespace tilec::testing
