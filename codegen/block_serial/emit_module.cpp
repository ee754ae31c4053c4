// Block-serial lowering: kernel entries (argument unpacking and the loop over the grid
// range), op dispatch, structured control flow and loop nests.
#include <cstddef>

#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "codegen/block_serial/emitter.h"
#include "codegen/codegen.h"
#include "ir/op_cases.h"
#include "runtime/include/tilec/abi.h"

namespace tilec::codegen {

std::string EntrySymbol(const std::string& kernel_name) { return "tilec_kernel_" + kernel_name; }

namespace bs {

using ir::OpCode;

Emitter::Emitter(const ir::Module& m, llvm::Module& mod)
    : irm_(m), mod_(mod), ctx_(mod.getContext()), b_(mod.getContext()) {}

llvm::Value* Emitter::EntryAlloca(llvm::Type* t, const char* name, unsigned align) {
  llvm::IRBuilder<> ab(entry_, entry_->begin());
  llvm::AllocaInst* a = ab.CreateAlloca(t, nullptr, name);
  a->setAlignment(llvm::Align(align));
  return a;
}

llvm::Value* Emitter::Get(const ir::Value* v) {
  auto it = vals_.find(v);
  return it == vals_.end() ? nullptr : it->second;
}

const ArrayVal& Emitter::GetArray(const ir::Value* v) { return arrays_.at(v); }

void Emitter::EmitKernel(const ir::Function& f) {
  vals_.clear();
  arrays_.clear();
  llvm::Type* ptr = b_.getPtrTy();
  llvm::Type* i64 = b_.getInt64Ty();
  auto* fty = llvm::FunctionType::get(b_.getVoidTy(), {ptr, ptr, i64, i64}, false);
  fn_ = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, EntrySymbol(f.name()), mod_);
  llvm::Value* args = fn_->getArg(0);
  llvm::Value* launch = fn_->getArg(1);
  fn_->getArg(0)->setName("args");
  fn_->getArg(1)->setName("launch");
  fn_->getArg(2)->setName("first");
  fn_->getArg(3)->setName("last");
  fn_->addFnAttr(llvm::Attribute::NoUnwind);

  entry_ = llvm::BasicBlock::Create(ctx_, "entry", fn_);
  b_.SetInsertPoint(entry_);
  // Parameters: args[i] points at a tilec_array, a scalar or a struct in C layout.
  const ir::Block* body = f.body();
  for (int i = 0; i < body->num_args(); ++i) {
    const ir::Value* p = body->arg(i);
    llvm::Value* slot = b_.CreateLoad(ptr, b_.CreateConstGEP1_64(ptr, args, i), p->name() + ".ptr");
    const ir::Type& t = p->type();
    if (t.is_array()) {
      ArrayVal a;
      a.data = b_.CreateLoad(ptr, slot, p->name() + ".data");
      for (int d = 0; d < t.ndim; ++d) {
        a.shape[d] = b_.CreateLoad(i64, b_.CreateConstGEP1_64(b_.getInt8Ty(), slot, offsetof(tilec_array, shape) + sizeof(int64_t) * d));
        a.strides[d] = b_.CreateLoad(i64, b_.CreateConstGEP1_64(b_.getInt8Ty(), slot, offsetof(tilec_array, strides) + sizeof(int64_t) * d));
      }
      arrays_[p] = a;
    } else {
      llvm::Value* v = b_.CreateLoad(MemTy(t.elem), slot, p->name());
      Set(p, FromMem(v, t.elem));
    }
  }
  for (int d = 0; d < ir::kMaxDims; ++d)
    launch_dims_[d] = b_.CreateLoad(
        i64, b_.CreateConstGEP1_64(b_.getInt8Ty(), launch, offsetof(tilec_launch, dim) + sizeof(int64_t) * d), "dim" + std::to_string(d));

  // for (linear = first; linear < last; ++linear) { block program }
  llvm::BasicBlock* header = llvm::BasicBlock::Create(ctx_, "grid.header", fn_);
  llvm::BasicBlock* prog = llvm::BasicBlock::Create(ctx_, "grid.body", fn_);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx_, "grid.exit", fn_);
  b_.CreateBr(header);
  b_.SetInsertPoint(header);
  llvm::PHINode* lin = b_.CreatePHI(i64, 2, "linear");
  lin->addIncoming(fn_->getArg(2), entry_);
  b_.CreateCondBr(b_.CreateICmpSLT(lin, fn_->getArg(3)), prog, exit);
  b_.SetInsertPoint(prog);
  linear_ = lin;
  EmitBlock(*body);
  llvm::Value* next = b_.CreateAdd(lin, I64(1));
  lin->addIncoming(next, b_.GetInsertBlock());
  b_.CreateBr(header);
  b_.SetInsertPoint(exit);
  b_.CreateRetVoid();
}

void Emitter::EmitTid(const ir::Op& op) {
  if (op.num_results() == 1) {
    Set(op.result(), b_.CreateTrunc(linear_, b_.getInt32Ty(), "tid"));
    return;
  }
  // Row-major coordinates over the four launch extents (unused trailing ones are 1).
  llvm::Value* rest = linear_;
  std::vector<llvm::Value*> coords(ir::kMaxDims);
  for (int d = ir::kMaxDims - 1; d >= 0; --d) {
    coords[d] = b_.CreateURem(rest, launch_dims_[d]);
    rest = b_.CreateUDiv(rest, launch_dims_[d]);
  }
  for (int k = 0; k < op.num_results(); ++k)
    Set(op.result(k), b_.CreateTrunc(coords[k], b_.getInt32Ty(), "tid" + std::to_string(k)));
}

void Emitter::EmitBlock(const ir::Block& b) {
  for (auto& op : b.ops())
    if (!ir::IsTerminator(op->code())) EmitOp(*op);
}

void Emitter::EmitOp(const ir::Op& op) {
  switch (ir::FamilyOf(op.code())) {
    case ir::OpFamily::Constant: Set(op.result(), EmitConst(op)); return;
    case ir::OpFamily::Tid: EmitTid(op); return;
    case ir::OpFamily::Select:
      Set(op.result(), b_.CreateSelect(Get(op.operand(0)), Get(op.operand(1)), Get(op.operand(2))));
      return;
    case ir::OpFamily::Elementwise: EmitElementwise(op); return;
    case ir::OpFamily::Compare:
      Set(op.result(), EmitCmp(op.pred(), op.operand(0)->type().elem.scalar, Get(op.operand(0)), Get(op.operand(1))));
      return;
    case ir::OpFamily::Logic: Set(op.result(), EmitLogic(op.code(), Get(op.operand(0)), Get(op.operand(1)))); return;
    case ir::OpFamily::Array: EmitArrayOp(op); return;
    case ir::OpFamily::Struct:
      Set(op.result(), EmitStructOp(op, Get(op.operand(0)), op.num_operands() > 1 ? Get(op.operand(1)) : nullptr));
      return;
    case ir::OpFamily::TileBuild: case ir::OpFamily::TileMap: case ir::OpFamily::TileReduce:
    case ir::OpFamily::TileScan: case ir::OpFamily::TileShape: case ir::OpFamily::TileElement:
      EmitTileOp(op);
      return;
    case ir::OpFamily::TileMemory: EmitTileMemoryOp(op); return;
    case ir::OpFamily::Print: EmitPrint(op); return;
    case ir::OpFamily::Control: EmitControl(op); return;
    case ir::OpFamily::Terminator: ir::op_cases::NotHandledHere(op, "block-serial op dispatch (terminators end regions)");
  }
}

void Emitter::EmitControl(const ir::Op& op) {
  switch (op.code()) {
    case OpCode::If: EmitIf(op); return;
    case OpCode::For: EmitFor(op); return;
    case OpCode::While: EmitWhile(op); return;
    TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Elementwise) TILEC_CASES(Compare)
    TILEC_CASES(Logic) TILEC_CASES(Array) TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap)
    TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileShape) TILEC_CASES(TileElement)
    TILEC_CASES(TileMemory) TILEC_CASES(Print) TILEC_CASES(Terminator)
      ir::op_cases::NotHandledHere(op, "block-serial control-flow emitter");
  }
}

// ---------------------------------------------------------------- slots and regions

llvm::Value* Emitter::MakeSlot(const ir::Type& t) {
  if (t.is_tile()) return AllocTile(t, "carried");
  return EntryAlloca(ValTy(t.elem), "slot", 8);
}

llvm::Value* Emitter::LoadSlot(llvm::Value* slot, const ir::Type& t) {
  if (t.is_tile()) return slot;
  return b_.CreateLoad(ValTy(t.elem), slot);
}

void Emitter::StoreSlots(const std::vector<llvm::Value*>& slots, const std::vector<ir::Value*>& vals) {
  // A yielded tile may be another slot's buffer (a loop that swaps tiles): stage through
  // temporaries whenever a source is one of the destinations.
  std::vector<llvm::Value*> srcs;
  for (size_t i = 0; i < vals.size(); ++i) srcs.push_back(Get(vals[i]));
  for (size_t i = 0; i < vals.size(); ++i) {
    if (!vals[i]->type().is_tile()) continue;
    for (size_t j = 0; j < slots.size(); ++j)
      if (j != i && srcs[i] == slots[j]) {
        llvm::Value* tmp = AllocTile(vals[i]->type(), "swap");
        CopyTile(tmp, srcs[i], vals[i]->type());
        srcs[i] = tmp;
        break;
      }
  }
  for (size_t i = 0; i < vals.size(); ++i) {
    if (vals[i]->type().is_tile()) {
      if (srcs[i] != slots[i]) CopyTile(slots[i], srcs[i], vals[i]->type());
    } else {
      b_.CreateStore(srcs[i], slots[i]);
    }
  }
}

void Emitter::EmitIf(const ir::Op& op) {
  std::vector<llvm::Value*> slots;
  for (auto& r : op.results()) slots.push_back(MakeSlot(r->type()));
  llvm::BasicBlock* then_bb = llvm::BasicBlock::Create(ctx_, "if.then", fn_);
  llvm::BasicBlock* else_bb = llvm::BasicBlock::Create(ctx_, "if.else", fn_);
  llvm::BasicBlock* merge = llvm::BasicBlock::Create(ctx_, "if.end", fn_);
  b_.CreateCondBr(Get(op.operand(0)), then_bb, else_bb);
  for (int r = 0; r < 2; ++r) {
    b_.SetInsertPoint(r == 0 ? then_bb : else_bb);
    const ir::Block& region = *op.region(r);
    EmitBlock(region);
    if (ir::Op* y = region.terminator()) StoreSlots(slots, y->operands());
    b_.CreateBr(merge);
  }
  b_.SetInsertPoint(merge);
  for (int i = 0; i < op.num_results(); ++i) Set(op.result(i), LoadSlot(slots[i], op.result(i)->type()));
}

llvm::Value* RangeContinues(llvm::IRBuilder<>& b, llvm::Value* iv, llvm::Value* hi, llvm::Value* step,
                            bool is_signed) {
  llvm::Value* zero = llvm::ConstantInt::get(iv->getType(), 0);
  llvm::Value* up = b.CreateAnd(is_signed ? b.CreateICmpSGT(step, zero) : b.CreateICmpNE(step, zero),
                                is_signed ? b.CreateICmpSLT(iv, hi) : b.CreateICmpULT(iv, hi));
  llvm::Value* down = is_signed ? b.CreateAnd(b.CreateICmpSLT(step, zero), b.CreateICmpSGT(iv, hi)) : b.getFalse();
  return b.CreateOr(up, down);
}

void Emitter::EmitFor(const ir::Op& op) {
  const ir::Block& body = *op.region(0);
  ScalarType it = op.operand(0)->type().elem.scalar;
  llvm::Value* lo = Get(op.operand(0));
  llvm::Value* hi = Get(op.operand(1));
  llvm::Value* step = Get(op.operand(2));
  std::vector<llvm::Value*> slots;
  std::vector<ir::Value*> inits;
  for (int i = 3; i < op.num_operands(); ++i) {
    slots.push_back(MakeSlot(op.operand(i)->type()));
    inits.push_back(op.operand(i));
  }
  StoreSlots(slots, inits);
  llvm::Value* iv_slot = EntryAlloca(lo->getType(), "iv", 8);
  b_.CreateStore(lo, iv_slot);
  llvm::BasicBlock* header = llvm::BasicBlock::Create(ctx_, "for.header", fn_);
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(ctx_, "for.body", fn_);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx_, "for.end", fn_);
  b_.CreateBr(header);
  b_.SetInsertPoint(header);
  llvm::Value* iv = b_.CreateLoad(lo->getType(), iv_slot, "i");
  b_.CreateCondBr(RangeContinues(b_, iv, hi, step, IsSigned(it)), loop, exit);
  b_.SetInsertPoint(loop);
  Set(body.arg(0), iv);
  for (size_t i = 0; i < slots.size(); ++i) Set(body.arg(int(i) + 1), LoadSlot(slots[i], body.arg(int(i) + 1)->type()));
  EmitBlock(body);
  if (ir::Op* y = body.terminator()) StoreSlots(slots, y->operands());
  b_.CreateStore(b_.CreateAdd(iv, step), iv_slot);
  b_.CreateBr(header);
  b_.SetInsertPoint(exit);
  for (int i = 0; i < op.num_results(); ++i) Set(op.result(i), LoadSlot(slots[i], op.result(i)->type()));
}

void Emitter::EmitWhile(const ir::Op& op) {
  const ir::Block& before = *op.region(0);
  const ir::Block& after = *op.region(1);
  std::vector<llvm::Value*> state, results;
  for (const ir::Value* v : op.operands()) state.push_back(MakeSlot(v->type()));
  for (auto& r : op.results()) results.push_back(MakeSlot(r->type()));
  StoreSlots(state, op.operands());
  llvm::BasicBlock* cond_bb = llvm::BasicBlock::Create(ctx_, "while.cond", fn_);
  llvm::BasicBlock* body_bb = llvm::BasicBlock::Create(ctx_, "while.body", fn_);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx_, "while.end", fn_);
  b_.CreateBr(cond_bb);
  b_.SetInsertPoint(cond_bb);
  for (int i = 0; i < before.num_args(); ++i) Set(before.arg(i), LoadSlot(state[i], before.arg(i)->type()));
  EmitBlock(before);
  ir::Op* c = before.terminator();
  std::vector<ir::Value*> forwarded(c->operands().begin() + 1, c->operands().end());
  StoreSlots(results, forwarded);
  b_.CreateCondBr(Get(c->operand(0)), body_bb, exit);
  b_.SetInsertPoint(body_bb);
  for (int i = 0; i < after.num_args(); ++i) Set(after.arg(i), LoadSlot(results[i], after.arg(i)->type()));
  EmitBlock(after);
  if (ir::Op* y = after.terminator()) StoreSlots(state, y->operands());
  b_.CreateBr(cond_bb);
  b_.SetInsertPoint(exit);
  for (int i = 0; i < op.num_results(); ++i) Set(op.result(i), LoadSlot(results[i], op.result(i)->type()));
}

// ---------------------------------------------------------------- loops

void Emitter::EmitCountedLoop(llvm::Value* n, const std::function<void(llvm::Value*)>& body) {
  llvm::BasicBlock* pre = b_.GetInsertBlock();
  llvm::BasicBlock* header = llvm::BasicBlock::Create(ctx_, "tl.header", fn_);
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(ctx_, "tl.body", fn_);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx_, "tl.end", fn_);
  b_.CreateBr(header);
  b_.SetInsertPoint(header);
  llvm::PHINode* i = b_.CreatePHI(b_.getInt64Ty(), 2, "e");
  i->addIncoming(I64(0), pre);
  b_.CreateCondBr(b_.CreateICmpULT(i, n), loop, exit);
  b_.SetInsertPoint(loop);
  body(i);
  i->addIncoming(b_.CreateAdd(i, I64(1), "", true, true), b_.GetInsertBlock());
  b_.CreateBr(header);
  b_.SetInsertPoint(exit);
}

void Emitter::EmitLoopNest(const ir::Type& tile,
                           const std::function<void(const std::vector<llvm::Value*>&, llvm::Value*)>& body) {
  std::vector<llvm::Value*> coords(tile.ndim);
  std::function<void(int, llvm::Value*)> level = [&](int d, llvm::Value* base) {
    EmitCountedLoop(I64(tile.shape[d]), [&](llvm::Value* c) {
      coords[d] = c;
      llvm::Value* lin = b_.CreateAdd(b_.CreateMul(base, I64(tile.shape[d]), "", true, true), c, "", true, true);
      if (d + 1 == tile.ndim) body(coords, lin);
      else level(d + 1, lin);
    });
  };
  level(0, I64(0));
}

}  // namespace bs

std::unique_ptr<llvm::Module> LowerBlockSerial(const ir::Module& m, llvm::LLVMContext& ctx, std::string& error) {
  auto mod = std::make_unique<llvm::Module>("tilec", ctx);
  bs::Emitter e(m, *mod);
  for (auto& f : m.functions()) e.EmitKernel(*f);
  std::string msg;
  llvm::raw_string_ostream os(msg);
  if (llvm::verifyModule(*mod, &os)) {
    error = "generated LLVM IR is invalid: " + os.str();
    return nullptr;
  }
  return mod;
}

}  // namespace tilec::codegen
