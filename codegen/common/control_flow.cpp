// Structured control flow shared by the block-serial and SIMT lowerings: regions are emitted
// in order into plain branches, values crossing a region boundary go through slots (LLVM's
// mem2reg/SROA turn the scalar ones back into phis).
#include "codegen/common/control_flow.h"

#include "ir/op_cases.h"

namespace tilec::codegen {

using ir::OpCode;

llvm::Value* RangeContinues(llvm::IRBuilder<>& b, llvm::Value* iv, llvm::Value* hi, llvm::Value* step,
                            bool is_signed) {
  llvm::Value* zero = llvm::ConstantInt::get(iv->getType(), 0);
  llvm::Value* up = b.CreateAnd(is_signed ? b.CreateICmpSGT(step, zero) : b.CreateICmpNE(step, zero),
                                is_signed ? b.CreateICmpSLT(iv, hi) : b.CreateICmpULT(iv, hi));
  llvm::Value* down = is_signed ? b.CreateAnd(b.CreateICmpSLT(step, zero), b.CreateICmpSGT(iv, hi)) : b.getFalse();
  return b.CreateOr(up, down);
}

void EmitCountedLoop(llvm::IRBuilder<>& b, llvm::Value* lo, llvm::Value* hi, const CountedLoopStyle& style,
                     const std::function<void(llvm::Value*)>& body) {
  // A constant trip count of 0 or 1 (a lane's one slot of a tile as wide as the block) needs no
  // loop: thousands of such loops are what LLVM's loop passes would spend their time removing.
  auto* clo = llvm::dyn_cast<llvm::ConstantInt>(lo);
  auto* chi = llvm::dyn_cast<llvm::ConstantInt>(hi);
  if (clo && chi) {
    const int64_t l = clo->getSExtValue(), h = chi->getSExtValue();
    const bool empty = style.signed_compare ? l >= h : clo->getZExtValue() >= chi->getZExtValue();
    if (empty) return;
    if (style.signed_compare ? h - l == 1 : chi->getZExtValue() - clo->getZExtValue() == 1) {
      body(b.getInt64(uint64_t(l)));
      return;
    }
  }
  llvm::LLVMContext& ctx = b.getContext();
  llvm::Function* fn = b.GetInsertBlock()->getParent();
  std::string p = style.prefix;
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* header = llvm::BasicBlock::Create(ctx, p + ".header", fn);
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(ctx, p + ".body", fn);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx, p + ".end", fn);
  b.CreateBr(header);
  b.SetInsertPoint(header);
  llvm::PHINode* i = b.CreatePHI(b.getInt64Ty(), 2, style.iv_name);
  i->addIncoming(lo, pre);
  b.CreateCondBr(style.signed_compare ? b.CreateICmpSLT(i, hi) : b.CreateICmpULT(i, hi), loop, exit);
  b.SetInsertPoint(loop);
  body(i);
  i->addIncoming(b.CreateAdd(i, b.getInt64(1), "", style.no_wrap, style.no_wrap), b.GetInsertBlock());
  b.CreateBr(header);
  b.SetInsertPoint(exit);
}

void StructuredEmitter::EmitControl(const ir::Op& op) {
  switch (op.code()) {
    case OpCode::If: EmitIf(op); return;
    case OpCode::For: EmitFor(op); return;
    case OpCode::While: EmitWhile(op); return;
    TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Elementwise) TILEC_CASES(Compare)
    TILEC_CASES(Logic) TILEC_CASES(Array) TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap)
    TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape) TILEC_CASES(TileElement)
    TILEC_CASES(TileMemory) TILEC_CASES(Print) TILEC_CASES(Terminator)
      ir::op_cases::NotHandledHere(op, "structured control-flow emitter");
  }
}

// ---------------------------------------------------------------- slots

Slot StructuredEmitter::MakeSlot(const ir::Value* v) {
  ir::Type t = SlotType(v);
  if (t.is_tile()) return {NewTileSlot(t, "carried"), t};
  return {SlotAlloca(ScalarSlotType(t.elem), "slot", 8), t};
}

void StructuredEmitter::BindSlot(const ir::Value* v, const Slot& s) {
  if (s.type.is_tile()) BindTile(v, s);
  else Define(v, Builder().CreateLoad(ScalarSlotType(s.type.elem), s.ptr));
}

void StructuredEmitter::StoreSlots(const std::vector<Slot>& slots, const std::vector<ir::Value*>& vals) {
  // A yielded tile may already be another slot's storage (a loop that swaps tiles): stage it
  // through a temporary before any slot is overwritten.
  std::vector<Slot> staged(vals.size(), Slot{nullptr, ir::Type()});
  for (size_t i = 0; i < vals.size(); ++i) {
    if (!slots[i].type.is_tile()) continue;
    for (size_t j = 0; j < slots.size(); ++j)
      if (j != i && TileInSlot(vals[i], slots[j])) {
        staged[i] = {NewTileSlot(slots[i].type, "swap"), slots[i].type};
        StoreTile(staged[i], vals[i]);
        break;
      }
  }
  for (size_t i = 0; i < vals.size(); ++i) {
    if (!slots[i].type.is_tile()) Builder().CreateStore(ValueOf(vals[i]), slots[i].ptr);
    else if (staged[i].ptr) CopySlot(slots[i], staged[i]);
    else if (!TileInSlot(vals[i], slots[i])) StoreTile(slots[i], vals[i]);
  }
}

void StructuredEmitter::ExitRegion(const ir::Op& terminator, const std::vector<Slot>& slots, size_t first) {
  BeforeRegionExit(terminator);
  std::vector<ir::Value*> vals(terminator.operands().begin() + long(first), terminator.operands().end());
  StoreSlots(slots, vals);
}

llvm::BasicBlock* StructuredEmitter::NewBlock(const char* name) {
  llvm::IRBuilder<>& b = Builder();
  return llvm::BasicBlock::Create(b.getContext(), name, b.GetInsertBlock()->getParent());
}

// ---------------------------------------------------------------- regions

void StructuredEmitter::EmitIf(const ir::Op& op) {
  llvm::IRBuilder<>& b = Builder();
  std::vector<Slot> slots;
  for (auto& r : op.results()) slots.push_back(MakeSlot(r.get()));
  llvm::BasicBlock* then_bb = NewBlock("if.then");
  llvm::BasicBlock* else_bb = NewBlock("if.else");
  llvm::BasicBlock* merge = NewBlock("if.end");
  b.CreateCondBr(ValueOf(op.operand(0)), then_bb, else_bb);
  for (int r = 0; r < 2; ++r) {
    b.SetInsertPoint(r == 0 ? then_bb : else_bb);
    const ir::Block& region = *op.region(r);
    EmitRegion(region);
    if (ir::Op* y = region.terminator()) ExitRegion(*y, slots);
    b.CreateBr(merge);
  }
  b.SetInsertPoint(merge);
  for (int i = 0; i < op.num_results(); ++i) BindSlot(op.result(i), slots[size_t(i)]);
  AfterControlResults(op);
}

void StructuredEmitter::EmitFor(const ir::Op& op) {
  llvm::IRBuilder<>& b = Builder();
  const ir::Block& body = *op.region(0);
  ScalarType it = op.operand(0)->type().elem.scalar;
  llvm::Value* lo = ValueOf(op.operand(0));
  llvm::Value* hi = ValueOf(op.operand(1));
  llvm::Value* step = ValueOf(op.operand(2));
  std::vector<Slot> slots;
  std::vector<ir::Value*> inits;
  for (int i = 3; i < op.num_operands(); ++i) {
    slots.push_back(MakeSlot(body.arg(i - 2)));
    inits.push_back(op.operand(i));
  }
  StoreSlots(slots, inits);
  llvm::Value* iv_slot = SlotAlloca(lo->getType(), "iv", 8);
  b.CreateStore(lo, iv_slot);
  llvm::BasicBlock* header = NewBlock("for.header");
  llvm::BasicBlock* loop = NewBlock("for.body");
  llvm::BasicBlock* exit = NewBlock("for.end");
  b.CreateBr(header);
  b.SetInsertPoint(header);
  llvm::Value* iv = b.CreateLoad(lo->getType(), iv_slot, "i");
  b.CreateCondBr(RangeContinues(b, iv, hi, step, IsSigned(it)), loop, exit);
  b.SetInsertPoint(loop);
  Define(body.arg(0), iv);
  for (size_t i = 0; i < slots.size(); ++i) BindSlot(body.arg(int(i) + 1), slots[i]);
  EmitRegion(body);
  if (ir::Op* y = body.terminator()) ExitRegion(*y, slots);
  b.CreateStore(b.CreateAdd(iv, step), iv_slot);
  b.CreateBr(header);
  b.SetInsertPoint(exit);
  for (int i = 0; i < op.num_results(); ++i) BindSlot(op.result(i), slots[size_t(i)]);
  AfterControlResults(op);
}

void StructuredEmitter::EmitWhile(const ir::Op& op) {
  llvm::IRBuilder<>& b = Builder();
  const ir::Block& before = *op.region(0);
  const ir::Block& after = *op.region(1);
  std::vector<Slot> state, results;
  for (int i = 0; i < before.num_args(); ++i) state.push_back(MakeSlot(before.arg(i)));
  for (auto& r : op.results()) results.push_back(MakeSlot(r.get()));
  StoreSlots(state, op.operands());
  llvm::BasicBlock* cond_bb = NewBlock("while.cond");
  llvm::BasicBlock* body_bb = NewBlock("while.body");
  llvm::BasicBlock* exit = NewBlock("while.end");
  b.CreateBr(cond_bb);
  b.SetInsertPoint(cond_bb);
  for (int i = 0; i < before.num_args(); ++i) BindSlot(before.arg(i), state[size_t(i)]);
  EmitRegion(before);
  ir::Op* c = before.terminator();
  ExitRegion(*c, results, 1);  // operand 0 is the condition, the rest are forwarded
  b.CreateCondBr(ValueOf(c->operand(0)), body_bb, exit);
  b.SetInsertPoint(body_bb);
  for (int i = 0; i < after.num_args(); ++i) BindSlot(after.arg(i), results[size_t(i)]);
  EmitRegion(after);
  if (ir::Op* y = after.terminator()) ExitRegion(*y, state);
  b.CreateBr(cond_bb);
  b.SetInsertPoint(exit);
  for (int i = 0; i < op.num_results(); ++i) BindSlot(op.result(i), results[size_t(i)]);
  AfterControlResults(op);
}

}  // namespace tilec::codegen
