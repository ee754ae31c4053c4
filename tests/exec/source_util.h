// Compiles Tile source text with the compiler facade for execution tests, failing the test
// with the diagnostics or the internal error when compilation does not succeed.
#pragma once
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "codegen/codegen.h"
#include "compiler/compiler.h"

namespace tilec::testing {

struct Compiled {
  std::unique_ptr<SourceFile> file;
  std::optional<compiler::CompiledModule> module;
  void* Entry(const std::string& kernel) const {
    return module ? module->resolve(codegen::EntrySymbol(kernel)) : nullptr;
  }
};

inline Compiled CompileText(const std::string& text) {
  Compiled c;
  c.file = std::make_unique<SourceFile>("test.tile", "import warp as wp\nimport numpy as np\n" + text);
  diag::DiagnosticEngine diags;
  compiler::InternalError ice;
  c.module = compiler::CompileSource(*c.file, diags, {}, ice);
  std::ostringstream os;
  diags.Render(os);
  EXPECT_TRUE(c.module.has_value()) << os.str() << ice.message;
  return c;
}

}  // namespace tilec::testing
