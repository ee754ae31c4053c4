// SIMT lowering: kernel bodies (parameters, the loop over block programs), op dispatch,
// structured control flow (conditions are block-uniform, so every lane takes the same path
// and barriers inside regions are legal), and the module-level driver.
#include <cstddef>

#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "ir/op_cases.h"
#include "codegen/simt/emitter.h"
#include "runtime/include/tilec/abi.h"

namespace tilec::codegen::simt {

using ir::OpCode;

Emitter::Emitter(const ir::Module& m, llvm::Module& mod, Target& target, int block_dim)
    : irm_(m), mod_(mod), ctx_(mod.getContext()), scalar_(m, mod), b_(scalar_.b()), target_(target),
      block_dim_(block_dim) {}

llvm::Value* Emitter::EntryAlloca(llvm::Type* t, const std::string& name, unsigned align) {
  llvm::BasicBlock& entry = frame_.fn->getEntryBlock();
  llvm::IRBuilder<> ab(&entry, entry.begin());
  llvm::AllocaInst* a = ab.CreateAlloca(t, nullptr, name);
  a->setAlignment(llvm::Align(align));
  return a;
}

void Emitter::Loop(llvm::Value* lo, llvm::Value* hi, const std::function<void(llvm::Value*)>& body) {
  llvm::Function* fn = b_.GetInsertBlock()->getParent();
  llvm::BasicBlock* pre = b_.GetInsertBlock();
  llvm::BasicBlock* header = llvm::BasicBlock::Create(ctx_, "sl.header", fn);
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(ctx_, "sl.body", fn);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx_, "sl.end", fn);
  b_.CreateBr(header);
  b_.SetInsertPoint(header);
  llvm::PHINode* i = b_.CreatePHI(b_.getInt64Ty(), 2, "i");
  i->addIncoming(lo, pre);
  b_.CreateCondBr(b_.CreateICmpSLT(i, hi), loop, exit);
  b_.SetInsertPoint(loop);
  body(i);
  i->addIncoming(b_.CreateAdd(i, I64(1)), b_.GetInsertBlock());
  b_.CreateBr(header);
  b_.SetInsertPoint(exit);
}

void Emitter::OnLane0(const std::function<void()>& body) {
  if (B_ == 1 || in_map_) {
    body();
    return;
  }
  llvm::Function* fn = b_.GetInsertBlock()->getParent();
  llvm::BasicBlock* then_bb = llvm::BasicBlock::Create(ctx_, "lane0", fn);
  llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx_, "lane0.end", fn);
  b_.CreateCondBr(b_.CreateICmpEQ(lane_, I64(0)), then_bb, join);
  b_.SetInsertPoint(then_bb);
  body();
  b_.CreateBr(join);
  b_.SetInsertPoint(join);
}

SimtKernelLayout Emitter::EmitKernel(const ir::Function& f) {
  vals_.clear();
  tiles_.clear();
  arrays_.clear();
  param_slots_.clear();
  B_ = f.tiled ? block_dim_ : 1;
  Plan plan = Plan::Build(irm_, f, B_);
  plan_ = &plan;
  frame_ = target_.BeginKernel(f, mod_, scalar_, plan, B_);
  lane_ = target_.LaneId();
  llvm::Type* ptr = b_.getPtrTy();
  llvm::Type* i64 = b_.getInt64Ty();
  const ir::Block* body = f.body();
  for (int i = 0; i < body->num_args(); ++i) {
    const ir::Value* p = body->arg(i);
    const ir::Type& t = p->type();
    llvm::Value* slot = frame_.params[size_t(i)];
    if (t.is_array()) {
      bs::ArrayVal a;
      a.data = target_.GlobalPtr(b_, b_.CreateLoad(ptr, slot, p->name() + ".data"));
      for (int d = 0; d < t.ndim; ++d) {
        a.shape[d] = b_.CreateLoad(
            i64, b_.CreateConstGEP1_64(b_.getInt8Ty(), slot, offsetof(tilec_array, shape) + sizeof(int64_t) * d));
        a.strides[d] = b_.CreateLoad(
            i64, b_.CreateConstGEP1_64(b_.getInt8Ty(), slot, offsetof(tilec_array, strides) + sizeof(int64_t) * d));
      }
      arrays_[p] = a;
      param_slots_[p] = slot;
    } else if (frame_.by_value[size_t(i)]) {
      Set(p, scalar_.FromMem(slot, t.elem));
    } else {
      Set(p, scalar_.FromMem(b_.CreateLoad(scalar_.MemTy(t.elem), slot, p->name()), t.elem));
    }
  }
  for (int d = 0; d < ir::kMaxDims; ++d)
    launch_dims_[d] = b_.CreateLoad(
        i64, b_.CreateConstGEP1_64(b_.getInt8Ty(), frame_.launch, offsetof(tilec_launch, dim) + sizeof(int64_t) * d),
        "dim" + std::to_string(d));

  // for (prog = first; prog < end; prog += step) { block program }
  llvm::Function* fn = frame_.fn;
  llvm::BasicBlock* pre = b_.GetInsertBlock();
  llvm::BasicBlock* header = llvm::BasicBlock::Create(ctx_, "grid.header", fn);
  llvm::BasicBlock* progbb = llvm::BasicBlock::Create(ctx_, "grid.body", fn);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx_, "grid.exit", fn);
  b_.CreateBr(header);
  b_.SetInsertPoint(header);
  llvm::PHINode* prog = b_.CreatePHI(i64, 2, "prog");
  prog->addIncoming(frame_.first, pre);
  b_.CreateCondBr(b_.CreateICmpSLT(prog, frame_.end), progbb, exit);
  b_.SetInsertPoint(progbb);
  prog_ = prog;
  EmitBlock(*body);
  prog->addIncoming(b_.CreateAdd(prog, frame_.step), b_.GetInsertBlock());
  b_.CreateBr(header);
  b_.SetInsertPoint(exit);
  target_.EndKernel(b_);

  SimtKernelLayout layout;
  layout.name = f.name();
  layout.block_dim = f.tiled ? block_dim_ : 0;
  layout.shared_bytes = plan.shared_bytes();
  layout.barrier_sites = plan.barrier_sites();
  plan_ = nullptr;
  return layout;
}

void Emitter::EmitTid(const ir::Op& op) {
  if (op.num_results() == 1) {
    Set(op.result(), b_.CreateTrunc(prog_, b_.getInt32Ty(), "tid"));
    return;
  }
  llvm::Value* rest = prog_;
  std::vector<llvm::Value*> coords(ir::kMaxDims);
  for (int d = ir::kMaxDims - 1; d >= 0; --d) {
    coords[size_t(d)] = b_.CreateURem(rest, launch_dims_[d]);
    rest = b_.CreateUDiv(rest, launch_dims_[d]);
  }
  for (int k = 0; k < op.num_results(); ++k)
    Set(op.result(k), b_.CreateTrunc(coords[size_t(k)], b_.getInt32Ty(), "tid" + std::to_string(k)));
}

void Emitter::EmitBlock(const ir::Block& b) {
  if (!in_map_)
    for (auto& arg : b.args()) WriteCopy(arg.get());
  for (auto& op : b.ops())
    if (!ir::IsTerminator(op->code())) EmitOp(*op);
}

void Emitter::EmitOp(const ir::Op& op) {
  if (!in_map_ && plan_->BarrierBefore(&op)) target_.Barrier(b_);
  switch (ir::FamilyOf(op.code())) {
    case ir::OpFamily::Constant: Set(op.result(), scalar_.EmitConst(op)); break;
    case ir::OpFamily::Tid: EmitTid(op); break;
    case ir::OpFamily::Select:
      Set(op.result(), b_.CreateSelect(Get(op.operand(0)), Get(op.operand(1)), Get(op.operand(2))));
      break;
    case ir::OpFamily::Elementwise: EmitElementwise(op); break;
    case ir::OpFamily::Compare:
      Set(op.result(), scalar_.EmitCmp(op.pred(), op.operand(0)->type().elem.scalar, Get(op.operand(0)), Get(op.operand(1))));
      break;
    case ir::OpFamily::Logic: Set(op.result(), scalar_.EmitLogic(op.code(), Get(op.operand(0)), Get(op.operand(1)))); break;
    case ir::OpFamily::Array: EmitArrayOp(op); break;
    case ir::OpFamily::Struct:
      Set(op.result(), scalar_.EmitStructOp(op, Get(op.operand(0)), op.num_operands() > 1 ? Get(op.operand(1)) : nullptr));
      break;
    case ir::OpFamily::TileBuild: case ir::OpFamily::TileMap: case ir::OpFamily::TileReduce:
    case ir::OpFamily::TileScan: case ir::OpFamily::TileShape: case ir::OpFamily::TileElement:
      EmitTileOp(op);
      break;
    case ir::OpFamily::TileMemory: EmitTileMemoryOp(op); break;
    case ir::OpFamily::Print: EmitPrint(op); break;
    case ir::OpFamily::Control: EmitControl(op); break;
    case ir::OpFamily::Terminator: ir::op_cases::NotHandledHere(op, "SIMT op dispatch (terminators end regions)");
  }
  // Control flow writes its results' copies itself, after the merge.
  if (!in_map_ && !ir::HasTrait(op.code(), ir::kRegions))
    for (auto& r : op.results()) WriteCopy(r.get());
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
      ir::op_cases::NotHandledHere(op, "SIMT control-flow emitter");
  }
}

// ---------------------------------------------------------------- slots and regions

Emitter::Slot Emitter::MakeSlot(const ir::Type& t) {
  if (t.is_tile()) {
    auto* arr = llvm::ArrayType::get(scalar_.MemTy(t.elem), uint64_t(Slots(t)));
    return {EntryAlloca(arr, "carried"), t};
  }
  return {EntryAlloca(scalar_.ValTy(t.elem), "slot", 8), t};
}

void Emitter::BindSlot(const ir::Value* v, const Slot& s) {
  if (s.type.is_tile()) tiles_[v] = TileRep{s.ptr, false, nullptr};
  else Set(v, b_.CreateLoad(scalar_.ValTy(s.type.elem), s.ptr));
}

void Emitter::StoreSlots(const std::vector<Slot>& slots, const std::vector<ir::Value*>& vals) {
  // Stage a yielded tile that is itself one of the destination slots (a loop that swaps).
  std::vector<llvm::Value*> staged(vals.size(), nullptr);
  for (size_t i = 0; i < vals.size(); ++i) {
    if (!vals[i]->type().is_tile()) continue;
    const TileRep& r = tiles_.at(vals[i]);
    for (size_t j = 0; j < slots.size(); ++j)
      if (j != i && !r.shared && r.ptr == slots[j].ptr) {
        Slot tmp = MakeSlot(vals[i]->type());
        CopyToRegister(vals[i], tmp.ptr);
        staged[i] = tmp.ptr;
      }
  }
  for (size_t i = 0; i < vals.size(); ++i) {
    if (!vals[i]->type().is_tile()) {
      b_.CreateStore(Get(vals[i]), slots[i].ptr);
      continue;
    }
    if (staged[i]) {
      uint64_t bytes = mod_.getDataLayout().getTypeAllocSize(scalar_.MemTy(vals[i]->type().elem)) *
                       uint64_t(Slots(vals[i]->type()));
      b_.CreateMemCpy(slots[i].ptr, llvm::MaybeAlign(16), staged[i], llvm::MaybeAlign(16), bytes);
    } else if (tiles_.at(vals[i]).shared || tiles_.at(vals[i]).ptr != slots[i].ptr) {
      CopyToRegister(vals[i], slots[i].ptr);
    }
  }
}

void Emitter::EmitIf(const ir::Op& op) {
  std::vector<Slot> slots;
  for (auto& r : op.results()) slots.push_back(MakeSlot(r->type()));
  llvm::Function* fn = b_.GetInsertBlock()->getParent();
  llvm::BasicBlock* then_bb = llvm::BasicBlock::Create(ctx_, "if.then", fn);
  llvm::BasicBlock* else_bb = llvm::BasicBlock::Create(ctx_, "if.else", fn);
  llvm::BasicBlock* merge = llvm::BasicBlock::Create(ctx_, "if.end", fn);
  b_.CreateCondBr(Get(op.operand(0)), then_bb, else_bb);
  for (int r = 0; r < 2; ++r) {
    b_.SetInsertPoint(r == 0 ? then_bb : else_bb);
    const ir::Block& region = *op.region(r);
    EmitBlock(region);
    if (ir::Op* y = region.terminator()) {
      if (!in_map_ && plan_->BarrierBefore(y)) target_.Barrier(b_);
      StoreSlots(slots, y->operands());
    }
    b_.CreateBr(merge);
  }
  b_.SetInsertPoint(merge);
  for (int i = 0; i < op.num_results(); ++i) BindSlot(op.result(i), slots[size_t(i)]);
  if (!in_map_)
    for (auto& r : op.results()) WriteCopy(r.get());
}

void Emitter::EmitFor(const ir::Op& op) {
  const ir::Block& body = *op.region(0);
  ScalarType it = op.operand(0)->type().elem.scalar;
  llvm::Value* lo = Get(op.operand(0));
  llvm::Value* hi = Get(op.operand(1));
  llvm::Value* step = Get(op.operand(2));
  std::vector<Slot> slots;
  std::vector<ir::Value*> inits;
  for (int i = 3; i < op.num_operands(); ++i) {
    slots.push_back(MakeSlot(op.operand(i)->type()));
    inits.push_back(op.operand(i));
  }
  StoreSlots(slots, inits);
  llvm::Value* iv_slot = EntryAlloca(lo->getType(), "iv", 8);
  b_.CreateStore(lo, iv_slot);
  llvm::Function* fn = b_.GetInsertBlock()->getParent();
  llvm::BasicBlock* header = llvm::BasicBlock::Create(ctx_, "for.header", fn);
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(ctx_, "for.body", fn);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx_, "for.end", fn);
  b_.CreateBr(header);
  b_.SetInsertPoint(header);
  llvm::Value* iv = b_.CreateLoad(lo->getType(), iv_slot, "i");
  b_.CreateCondBr(bs::RangeContinues(b_, iv, hi, step, IsSigned(it)), loop, exit);
  b_.SetInsertPoint(loop);
  Set(body.arg(0), iv);
  for (size_t i = 0; i < slots.size(); ++i) BindSlot(body.arg(int(i) + 1), slots[i]);
  EmitBlock(body);
  if (ir::Op* y = body.terminator()) {
    if (!in_map_ && plan_->BarrierBefore(y)) target_.Barrier(b_);
    StoreSlots(slots, y->operands());
  }
  b_.CreateStore(b_.CreateAdd(iv, step), iv_slot);
  b_.CreateBr(header);
  b_.SetInsertPoint(exit);
  for (int i = 0; i < op.num_results(); ++i) BindSlot(op.result(i), slots[size_t(i)]);
  if (!in_map_)
    for (auto& r : op.results()) WriteCopy(r.get());
}

void Emitter::EmitWhile(const ir::Op& op) {
  const ir::Block& before = *op.region(0);
  const ir::Block& after = *op.region(1);
  std::vector<Slot> state, results;
  for (const ir::Value* v : op.operands()) state.push_back(MakeSlot(v->type()));
  for (auto& r : op.results()) results.push_back(MakeSlot(r->type()));
  StoreSlots(state, op.operands());
  llvm::Function* fn = b_.GetInsertBlock()->getParent();
  llvm::BasicBlock* cond_bb = llvm::BasicBlock::Create(ctx_, "while.cond", fn);
  llvm::BasicBlock* body_bb = llvm::BasicBlock::Create(ctx_, "while.body", fn);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx_, "while.end", fn);
  b_.CreateBr(cond_bb);
  b_.SetInsertPoint(cond_bb);
  for (int i = 0; i < before.num_args(); ++i) BindSlot(before.arg(i), state[size_t(i)]);
  EmitBlock(before);
  ir::Op* c = before.terminator();
  if (!in_map_ && plan_->BarrierBefore(c)) target_.Barrier(b_);
  std::vector<ir::Value*> forwarded(c->operands().begin() + 1, c->operands().end());
  StoreSlots(results, forwarded);
  b_.CreateCondBr(Get(c->operand(0)), body_bb, exit);
  b_.SetInsertPoint(body_bb);
  for (int i = 0; i < after.num_args(); ++i) BindSlot(after.arg(i), results[size_t(i)]);
  EmitBlock(after);
  if (ir::Op* y = after.terminator()) {
    if (!in_map_ && plan_->BarrierBefore(y)) target_.Barrier(b_);
    StoreSlots(state, y->operands());
  }
  b_.CreateBr(cond_bb);
  b_.SetInsertPoint(exit);
  for (int i = 0; i < op.num_results(); ++i) BindSlot(op.result(i), results[size_t(i)]);
  if (!in_map_)
    for (auto& r : op.results()) WriteCopy(r.get());
}

bool LowerSimt(const ir::Module& m, llvm::Module& mod, Target& target, int block_dim,
               std::vector<SimtKernelLayout>& layouts, std::string& error, const ir::Function* only) {
  Emitter e(m, mod, target, block_dim);
  for (auto& f : m.functions())
    if (!only || f.get() == only) layouts.push_back(e.EmitKernel(*f));
  std::string msg;
  llvm::raw_string_ostream os(msg);
  if (llvm::verifyModule(mod, &os)) {
    error = "generated SIMT LLVM IR is invalid: " + os.str();
    return false;
  }
  return true;
}

}  // namespace tilec::codegen::simt
