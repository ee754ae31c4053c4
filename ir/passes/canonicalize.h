// Canonicalization on Tile IR: folds scalar arithmetic, comparisons and casts of constants,
// merges equal constants of a block, and inlines `if`s whose condition is constant.
#pragma once
#include "ir/ir.h"

namespace tilec::ir {

// Returns the number of rewrites made.
int RunCanonicalize(Module& m, Function& f);

}  // namespace tilec::ir
