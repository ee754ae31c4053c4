// Checked scalar array access and tile element reads (wp.config.mode = "debug",
// ir::Module::checked_access): one
// access's bounds test, and the report of a launch's first failing access into the
// tilec_access_error that tilec_launch::error points at, for the runtime to raise.
#pragma once
#include <functional>
#include <vector>

#include <llvm/IR/IRBuilder.h>

#include "ir/ir.h"

namespace tilec::codegen {

// Runs `access` only where every index lies inside its extent; otherwise records the access
// (its source line and column, the indices and the shape; the first failure of a launch wins)
// when `error` is not null, and skips it. Returns the access's value, or `zero` where it was
// skipped; null when `access` returns null (stores).
// `of_tile`: the access reads a tile element rather than an array element (the report says so).
llvm::Value* CheckedAccess(llvm::IRBuilder<>& b, llvm::Value* error, const std::vector<llvm::Value*>& index,
                           const std::vector<llvm::Value*>& shape, const ir::Loc& where,
                           const std::function<llvm::Value*()>& access, llvm::Value* zero, bool of_tile = false);

// `assert cond` in debug mode: where `cond` is false, records the assert's line and column
// with ndim TILEC_ASSERT_FAILED (the first failure of a launch wins), for the runtime to raise
// AssertionError.
void CheckedAssert(llvm::IRBuilder<>& b, llvm::Value* error, llvm::Value* cond, const ir::Loc& where);

// The error record pointer of a launch, from a pointer to its tilec_launch.
llvm::Value* LaunchErrorPtr(llvm::IRBuilder<>& b, llvm::Value* launch);

}  // namespace tilec::codegen
