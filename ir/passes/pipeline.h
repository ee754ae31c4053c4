// The standard Tile IR pass pipeline between lowering and code generation. In debug builds
// (or when asked) the verifier runs after every pass.
#pragma once
#include <string>
#include <vector>

#include "ir/ir.h"

namespace tilec::ir {

#ifdef NDEBUG
inline constexpr bool kVerifyEachDefault = false;
#else
inline constexpr bool kVerifyEachDefault = true;
#endif

// Runs canonicalization and DCE on every kernel. Returns verifier messages (empty on
// success); a non-empty result means a pass broke the IR.
std::vector<std::string> RunDefaultPasses(Module& m, bool verify_each = kVerifyEachDefault);


}  // namespace tilec::ir
