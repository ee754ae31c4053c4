// The Tile IR verifier: structure (terminators, regions, dominance) and the typing rules of
// every op. Runs after every pass in debug builds; a failure is a compiler bug, reported as
// an internal error with these messages.
#pragma once
#include <string>
#include <vector>

#include "ir/ir.h"

namespace tilec::ir {

// Returns one message per problem, each naming the kernel, the op and its source position:
//   kernel `k`: `add` (3:12): operands differ in type: float32 and int32
std::vector<std::string> Verify(const Module& m);
std::vector<std::string> VerifyFunction(const Module& m, const Function& f);

}  // namespace tilec::ir
