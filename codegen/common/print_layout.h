// How a kernel's print lays out a tile, as NumPy (and Warp) do: nested brackets, elements of a
// row separated by spaces, rows by a newline, 2-D blocks by blank lines. Shared by the CPU and
// SIMT lowerings, which print element by element.
#pragma once
#include <llvm/IR/IRBuilder.h>

#include "ir/ir.h"

namespace tilec::codegen {

// The text printed before element `e` (an i64, row-major) of tile type `t`: the opening
// brackets before the first, then what separates it from the element before.
llvm::Value* TileElementPrefix(llvm::IRBuilder<>& b, const ir::Type& t, llvm::Value* e);
// The closing brackets after the last element.
std::string TileClose(const ir::Type& t);

}  // namespace tilec::codegen
