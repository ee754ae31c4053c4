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

namespace {

// Where `bad`: the first failure of the launch claims the record (a compare-and-swap on its
// line) and `fill` writes the rest. Leaves the builder in the block after the test; returns
// the blocks that branch there on the bad path, and the block that continues on the good one.
struct Reported {
  llvm::BasicBlock *report, *claim, *fill, *ok, *join;
};
Reported Report(llvm::IRBuilder<>& b, llvm::Value* error, llvm::Value* bad, const ir::Loc& where,
                const std::function<void(const std::function<void(size_t, llvm::Value*)>&)>& fill) {
  llvm::LLVMContext& ctx = b.getContext();
  llvm::Function* fn = b.GetInsertBlock()->getParent();
  Reported r;
  r.report = llvm::BasicBlock::Create(ctx, "check.bad", fn);
  r.claim = llvm::BasicBlock::Create(ctx, "check.claim", fn);
  r.fill = llvm::BasicBlock::Create(ctx, "check.fill", fn);
  r.ok = llvm::BasicBlock::Create(ctx, "check.ok", fn);
  r.join = llvm::BasicBlock::Create(ctx, "check.join", fn);
  b.CreateCondBr(bad, r.report, r.ok, llvm::MDBuilder(ctx).createBranchWeights(1, 1 << 20));

  b.SetInsertPoint(r.report);
  b.CreateCondBr(b.CreateIsNull(error), r.join, r.claim);
  b.SetInsertPoint(r.claim);
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
  b.CreateCondBr(won, r.fill, r.join);
  b.SetInsertPoint(r.fill);
  auto put = [&](size_t off, llvm::Value* v) { b.CreateStore(v, b.CreateConstGEP1_64(b.getInt8Ty(), error, off)); };
  put(offsetof(tilec_access_error, column), b.getInt32(column));
  fill(put);
  b.CreateBr(r.join);
  b.SetInsertPoint(r.ok);
  return r;
}

}  // namespace

llvm::Value* CheckedAccess(llvm::IRBuilder<>& b, llvm::Value* error, const std::vector<llvm::Value*>& index,
                           const std::vector<llvm::Value*>& shape, const ir::Loc& where,
                           const std::function<llvm::Value*()>& access, llvm::Value* zero, bool of_tile) {
  // One unsigned compare per dimension also catches negative indices.
  llvm::Value* bad = b.getFalse();
  for (size_t d = 0; d < index.size(); ++d) bad = b.CreateOr(bad, b.CreateICmpUGE(index[d], shape[d]));
  Reported r = Report(b, error, bad, where, [&](const std::function<void(size_t, llvm::Value*)>& put) {
    put(offsetof(tilec_access_error, ndim), b.getInt32(int(index.size())));
    put(offsetof(tilec_access_error, of_tile), b.getInt32(of_tile ? 1 : 0));
    for (size_t d = 0; d < index.size(); ++d) {
      put(offsetof(tilec_access_error, index) + 8 * d, index[d]);
      put(offsetof(tilec_access_error, shape) + 8 * d, shape[d]);
    }
  });
  llvm::Value* v = access();
  llvm::BasicBlock* ok_end = b.GetInsertBlock();
  b.CreateBr(r.join);
  b.SetInsertPoint(r.join);
  if (!v) return nullptr;
  llvm::PHINode* phi = b.CreatePHI(v->getType(), 4);
  phi->addIncoming(v, ok_end);
  phi->addIncoming(zero, r.report);
  phi->addIncoming(zero, r.claim);
  phi->addIncoming(zero, r.fill);
  return phi;
}

void CheckedAssert(llvm::IRBuilder<>& b, llvm::Value* error, llvm::Value* cond, const ir::Loc& where) {
  Reported r = Report(b, error, b.CreateNot(cond), where, [&](const std::function<void(size_t, llvm::Value*)>& put) {
    put(offsetof(tilec_access_error, ndim), b.getInt32(TILEC_ASSERT_FAILED));
  });
  b.CreateBr(r.join);
  b.SetInsertPoint(r.join);
}

}  // namespace tilec::codegen
