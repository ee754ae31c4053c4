// Splitting a large function into a chain of outlined chunks, so that the cost of LLVM's
// passes, several of which grow faster than linearly with a function's size, stays linear in
// the size of a kernel.
#pragma once

#include <vector>

#include <llvm/IR/Function.h>

namespace tilec::codegen {

// Cuts `f` at blocks every path from its entry passes through (the joins between a kernel's
// ops) into outlined, noinline functions of about `chunk` instructions each, called in order
// from `f`. Local variables are promoted to SSA values first (SROA), so that what crosses a cut
// travels as arguments, not through escaped stack slots. Returns the chunks, none where `f` holds fewer
// than 2 * `chunk` instructions.
std::vector<llvm::Function*> SplitLargeFunction(llvm::Function& f, size_t chunk);

// A kernel's block programs run inside its grid loop, so every loop an op emits is a subloop of
// that one loop, and LLVM's scalar evolution forgets the whole nest each time it unrolls or
// rewrites one of them. Where the loop body (the blocks dominated by `body`, whose only exit is
// `latch`) holds 2 * `chunk` instructions or more, it moves into a function of its own, called
// once per iteration, which is then split. Returns that function, or null where it stayed.
llvm::Function* OutlineLoopBody(llvm::Function& f, llvm::BasicBlock* body, llvm::BasicBlock* latch, size_t chunk);

// Instructions in `f`.
size_t InstructionCount(const llvm::Function& f);

}  // namespace tilec::codegen
