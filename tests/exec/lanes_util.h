// Source modules compiled for a chosen lane count, for the per-lane execution tests; under
// host-SIMT emulation with a fixed lane count every variant has that many lanes instead.
#pragma once
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "codegen/codegen.h"
#include "compiler/compiler.h"

namespace tilec::testing {

inline int EmulationLanes() {
  const char* env = std::getenv("TILEC_SIMT_EMULATION");
  int b = env ? std::atoi(env) : 0;
  return b >= 1 && b <= 1024 ? b : 0;
}
inline int Lanes(int want) { return EmulationLanes() ? EmulationLanes() : want; }
// The block sizes a test runs at: one lane, an odd count, a warp and two (one under emulation).
inline std::set<int> LaneCounts() {
  std::set<int> out;
  for (int b : {1, 3, 32, 64}) out.insert(Lanes(b));
  return out;
}

struct SourceModule {
  std::unique_ptr<SourceFile> file;
  std::optional<compiler::CompiledModule> module;
  void* Entry(const std::string& kernel) const {
    return module ? module->resolve(codegen::EntrySymbol(kernel)) : nullptr;
  }
};

// `text` (after `import warp as wp`) compiled for `block_dim` lanes, `{B}` replaced by it first.
inline SourceModule CompileForLanes(std::string text, int block_dim) {
  for (size_t p; (p = text.find("{B}")) != std::string::npos;) text.replace(p, 3, std::to_string(block_dim));
  SourceModule v;
  v.file = std::make_unique<SourceFile>("lanes.tile", "import warp as wp\n" + text);
  diag::DiagnosticEngine diags;
  compiler::InternalError ice;
  compiler::CompileOptions opts;
  opts.block_dim = block_dim;
  v.module = compiler::CompileSource(*v.file, diags, opts, ice);
  std::ostringstream os;
  diags.Render(os);
  EXPECT_TRUE(v.module.has_value()) << os.str() << ice.message;
  return v;
}

}  // namespace tilec::testing
