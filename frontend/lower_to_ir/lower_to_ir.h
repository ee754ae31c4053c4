// Lowering from the checked AST to Tile IR: one IR kernel per @wp.kernel, @wp.func calls
// inlined, Python variables turned into SSA values threaded through structured if/for/while,
// and break/continue/return turned into flags that guard the rest of their block.
#pragma once
#include <memory>

#include "frontend/sema/sema.h"
#include "ir/ir.h"
#include "support/diagnostics.h"

namespace tilec::lower {

// `checked` must be free of errors. Reports E04xx for constructs the checker accepts but the
// IR cannot express; returns null when any was reported.
std::unique_ptr<ir::Module> LowerToIr(const sema::CheckedModule& checked, const SourceFile* file,
                                      diag::DiagnosticEngine& diags);

}  // namespace tilec::lower
