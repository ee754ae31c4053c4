// Checked scalar array access: the bounds test, the first-failure report (a compare-and-swap
// on the record's line claims it), and the skip. Shared by the CPU and SIMT lowerings.
#include "codegen/common/checked_access.h"

#include <cstddef>

#include <llvm/IR/MDBuilder.h>

#include "runtime/include/tilec/abi.h"

namespace tilec::codegen {

llvm::Value* LaunchErrorPtr(llvm::IRBuilder<>& b, llvm::Value* launch) {
  return b.CreateLoad(b.getPtrTy(), b.CreateConstGEP1_64(b.getInt8Ty(), launch, offsetof(tilec_launch, error)),
                      "access.error");
}

llvm::Value* CheckedAccess(llvm::IRBuilder<>& b, llvm::Value* error, const std::vector<llvm::Value*>& index,
                           const std::vector<llvm::Value*>& shape, const ir::Loc& where,
                           const std::function<llvm::Value*()>& access, llvm::Value* zero) {
  llvm::LLVMContext& ctx = b.getContext();
  llvm::Function* fn = b.GetInsertBlock()->getParent();
  // One unsigned compare per dimension also catches negative indices.
  llvm::Value* bad = b.getFalse();
  for (size_t d = 0; d < index.size(); ++d) bad = b.CreateOr(bad, b.CreateICmpUGE(index[d], shape[d]));
  llvm::BasicBlock* report = llvm::BasicBlock::Create(ctx, "access.bad", fn);
  llvm::BasicBlock* claim = llvm::BasicBlock::Create(ctx, "access.claim", fn);
  llvm::BasicBlock* fill = llvm::BasicBlock::Create(ctx, "access.fill", fn);
  llvm::BasicBlock* ok = llvm::BasicBlock::Create(ctx, "access.ok", fn);
  llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx, "access.join", fn);
  b.CreateCondBr(bad, report, ok, llvm::MDBuilder(ctx).createBranchWeights(1, 1 << 20));

  b.SetInsertPoint(report);
  b.CreateCondBr(b.CreateIsNull(error), join, claim);
  b.SetInsertPoint(claim);
  int line = 0, column = 0;
  if (where.file) {
    LineCol lc = where.file->Locate(where.range.begin);
    line = lc.line, column = lc.col;
  }
  llvm::Value* line_ptr = b.CreateConstGEP1_64(b.getInt8Ty(), error, offsetof(tilec_access_error, line));
  llvm::Value* won = b.CreateExtractValue(
      b.CreateAtomicCmpXchg(line_ptr, b.getInt32(0), b.getInt32(line > 0 ? line : -1), llvm::MaybeAlign(4),
                            llvm::AtomicOrdering::Monotonic, llvm::AtomicOrdering::Monotonic),
      1);
  b.CreateCondBr(won, fill, join);
  b.SetInsertPoint(fill);
  auto put32 = [&](size_t off, llvm::Value* v) { b.CreateStore(v, b.CreateConstGEP1_64(b.getInt8Ty(), error, off)); };
  put32(offsetof(tilec_access_error, column), b.getInt32(column));
  put32(offsetof(tilec_access_error, ndim), b.getInt32(int(index.size())));
  for (size_t d = 0; d < index.size(); ++d) {
    put32(offsetof(tilec_access_error, index) + 8 * d, index[d]);
    put32(offsetof(tilec_access_error, shape) + 8 * d, shape[d]);
  }
  b.CreateBr(join);

  b.SetInsertPoint(ok);
  llvm::Value* v = access();
  llvm::BasicBlock* ok_end = b.GetInsertBlock();
  b.CreateBr(join);
  b.SetInsertPoint(join);
  if (!v) return nullptr;
  llvm::PHINode* phi = b.CreatePHI(v->getType(), 4);
  phi->addIncoming(v, ok_end);
  phi->addIncoming(zero, report);
  phi->addIncoming(zero, claim);
  phi->addIncoming(zero, fill);
  return phi;
}

}  // namespace tilec::codegen
