// SIMT lowering: kernel bodies (parameters, the loop over block programs), the SIMT side of
// op dispatch (barriers, lane 0's values for tile operations) and structured control flow
// (the plan puts barriers only where every lane arrives), and the module-level driver.
#include <cstddef>

#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "codegen/common/split_function.h"
#include "codegen/simt/emitter.h"
#include "runtime/include/tilec/abi.h"

namespace tilec::codegen::simt {

// Instructions of an outlined chunk of a large block program before optimization (about 100
// tile operations at one slot per lane): only kernels of hundreds of ops are split, whose calls
// between chunks cost little against their work.
constexpr size_t kSimtChunk = 2000;

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
  codegen::EmitCountedLoop(b_, lo, hi, {"sl", "i", /*signed_compare=*/true, /*no_wrap=*/false}, body);
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
  own_vals_.clear();
  own_arrays_.clear();
  tiles_.clear();
  arrays_.clear();
  block_uses_.clear();
  param_slots_.clear();
  B_ = f.tiled ? block_dim_ : 1;
  fn_ = &f;
  Plan plan = Plan::Build(irm_, f, B_, target_.Mma());
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
  if (f.deterministic) {
    turn_taken_ = EntryAlloca(b_.getInt1Ty(), "turn.taken", 1);
    b_.CreateStore(b_.getFalse(), turn_taken_);
  }
  EmitBlock(*body);
  if (f.deterministic) PassTurn();
  // The step has a block of its own: the body's only exit, for OutlineLoopBody.
  llvm::BasicBlock* latch = llvm::BasicBlock::Create(ctx_, "grid.latch", fn);
  b_.CreateBr(latch);
  b_.SetInsertPoint(latch);
  prog->addIncoming(b_.CreateAdd(prog, frame_.step), latch);
  b_.CreateBr(header);
  b_.SetInsertPoint(exit);
  target_.EndKernel(b_);
  OutlineLoopBody(*fn, progbb, latch, kSimtChunk);

  SimtKernelLayout layout;
  layout.name = f.name();
  layout.block_dim = f.tiled ? block_dim_ : 0;
  layout.shared_bytes = plan.shared_bytes();
  layout.barrier_sites = plan.barrier_sites();
  plan_ = nullptr;
  return layout;
}

llvm::Value* Emitter::TurnTicket() {
  return b_.CreateLoad(b_.getPtrTy(), b_.CreateConstGEP1_64(b_.getInt8Ty(), frame_.launch, offsetof(tilec_launch, order)),
                       "turn.ticket");
}

void Emitter::AwaitTurn() {
  llvm::Function* fn = b_.GetInsertBlock()->getParent();
  llvm::Value* order = TurnTicket();
  llvm::Value* wait = b_.CreateAnd(b_.CreateNot(b_.CreateLoad(b_.getInt1Ty(), turn_taken_)),
                                   b_.CreateIsNotNull(order));
  llvm::BasicBlock* waiting = llvm::BasicBlock::Create(ctx_, "turn.wait", fn);
  llvm::BasicBlock* spin = llvm::BasicBlock::Create(ctx_, "turn.spin", fn);
  llvm::BasicBlock* synced = llvm::BasicBlock::Create(ctx_, "turn.synced", fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx_, "turn.done", fn);
  b_.CreateCondBr(wait, waiting, done);  // uniform: every lane takes the same way
  b_.SetInsertPoint(waiting);
  b_.CreateCondBr(b_.CreateICmpEQ(lane_, I64(0)), spin, synced);
  b_.SetInsertPoint(spin);
  llvm::LoadInst* seen = b_.CreateLoad(b_.getInt64Ty(), order, "turn.seen");
  seen->setAtomic(llvm::AtomicOrdering::Monotonic);
  seen->setAlignment(llvm::Align(8));
  llvm::BasicBlock* acquired = llvm::BasicBlock::Create(ctx_, "turn.acquired", fn);
  b_.CreateCondBr(b_.CreateICmpEQ(seen, prog_), acquired, spin);
  b_.SetInsertPoint(acquired);
  target_.DeviceFence(b_);  // the earlier blocks' atomics are seen before ours
  b_.CreateBr(synced);
  b_.SetInsertPoint(synced);
  target_.Barrier(b_);
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  b_.CreateStore(b_.getTrue(), turn_taken_);
}

void Emitter::PassTurn() {
  AwaitTurn();
  target_.Barrier(b_);
  llvm::Function* fn = b_.GetInsertBlock()->getParent();
  llvm::Value* order = TurnTicket();
  llvm::BasicBlock* pass = llvm::BasicBlock::Create(ctx_, "turn.pass", fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx_, "turn.passed", fn);
  b_.CreateCondBr(b_.CreateAnd(b_.CreateICmpEQ(lane_, I64(0)), b_.CreateIsNotNull(order)), pass, done);
  b_.SetInsertPoint(pass);
  target_.DeviceFence(b_);  // the block's atomics (made visible to lane 0 by the barrier) go first
  llvm::StoreInst* st = b_.CreateStore(b_.CreateAdd(prog_, I64(1)), order);
  st->setAtomic(llvm::AtomicOrdering::Monotonic);
  st->setAlignment(llvm::Align(8));
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
}

llvm::Value* Emitter::LaunchRank() {
  llvm::Value* p = b_.CreateConstGEP1_64(b_.getInt8Ty(), frame_.launch, offsetof(tilec_launch, ndim));
  return b_.CreateSExt(b_.CreateLoad(b_.getInt32Ty(), p, "ndim"), b_.getInt64Ty());
}

void Emitter::EmitBlock(const ir::Block& b) {
  if (!in_map_)
    for (auto& arg : b.args()) WriteCopy(arg.get());
  const auto& ops = b.ops();
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ir::IsTerminator(ops[i]->code())) continue;
    FusedRun run;
    if (!in_map_ && PlanFusedRun(b, i, run)) {
      EmitFusedRun(b, run);
      i = run.end - 1;
      continue;
    }
    EmitOp(*ops[i]);
  }
}

void Emitter::BeforeOp(const ir::Op& op) {
  // A run's loop has its ops' barrier and lane 0's values before it (EmitFusedRun).
  if (in_map_ || fused_) return;
  if (plan_->BarrierBefore(&op)) target_.Barrier(b_);
  ReadLane0Values(op);
}

void Emitter::ReadLane0Values(const ir::Op& op) {
  const Plan::Lane0Reads* l0 = plan_->Lane0(&op);
  if (!l0) return;
  llvm::Value* base = SharedPtr(plan_->slot(l0->slot).offset);
  auto at = [&](size_t k, uint32_t extra) {
    return b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), base, l0->offsets[k] + extra);
  };
  // An array view: data pointer, then extent and stride of each dimension.
  auto dim_at = [&](size_t k, int d, bool stride) { return at(k, 8u + 16u * uint32_t(d) + (stride ? 8u : 0u)); };
  OnLane0([&] {
    for (size_t k = 0; k < l0->values.size(); ++k) {
      const ir::Value* v = l0->values[k];
      if (v->type().is_array()) {
        const bs::ArrayVal& a = arrays_.at(v);
        b_.CreateStore(a.data, at(k, 0));
        for (int d = 0; d < v->type().ndim; ++d) {
          b_.CreateStore(a.shape[d], dim_at(k, d, false));
          b_.CreateStore(a.strides[d], dim_at(k, d, true));
        }
      } else {
        b_.CreateStore(scalar_.ToMem(Get(v), v->type().elem), at(k, 0));
      }
    }
  });
  target_.Barrier(b_);
  for (size_t k = 0; k < l0->values.size(); ++k) {
    const ir::Value* v = l0->values[k];
    if (v->type().is_array()) {
      bs::ArrayVal a = arrays_.at(v);
      own_arrays_.emplace_back(v, a);
      a.data = b_.CreateLoad(a.data->getType(), at(k, 0));
      for (int d = 0; d < v->type().ndim; ++d) {
        a.shape[d] = b_.CreateLoad(b_.getInt64Ty(), dim_at(k, d, false));
        a.strides[d] = b_.CreateLoad(b_.getInt64Ty(), dim_at(k, d, true));
      }
      arrays_[v] = a;
    } else {
      own_vals_.emplace_back(v, Get(v));
      Set(v, scalar_.FromMem(b_.CreateLoad(scalar_.MemTy(v->type().elem), at(k, 0)), v->type().elem));
    }
  }
}

void Emitter::AfterOp(const ir::Op& op) {
  if (in_map_ || fused_) return;
  // Scalar code after the op sees each lane's own values again.
  for (auto& [v, lv] : own_vals_) Set(v, lv);
  for (auto& [v, a] : own_arrays_) arrays_[v] = a;
  own_vals_.clear();
  own_arrays_.clear();
  // Control flow writes its results' copies itself, after the merge.
  if (!ir::HasTrait(op.code(), ir::kRegions))
    for (auto& r : op.results()) WriteCopy(r.get());
}

// ---------------------------------------------------------------- control-flow hooks

llvm::Value* Emitter::NewTileSlot(const ir::Type& t, const char* name) {
  return EntryAlloca(llvm::ArrayType::get(scalar_.MemTy(t.elem), uint64_t(Slots(t))), name);
}

bool Emitter::TileInSlot(const ir::Value* tile, const Slot& s) {
  const TileRep& r = tiles_.at(tile);
  return !r.shared && r.ptr == s.ptr;
}

void Emitter::CopySlot(const Slot& dst, const Slot& src) {
  // Both are this lane's register slots, so a plain copy moves every element it owns.
  uint64_t bytes = mod_.getDataLayout().getTypeAllocSize(scalar_.MemTy(dst.type.elem)) * uint64_t(Slots(dst.type));
  b_.CreateMemCpy(dst.ptr, llvm::MaybeAlign(16), src.ptr, llvm::MaybeAlign(16), bytes);
}

void Emitter::BeforeRegionExit(const ir::Op& terminator) {
  if (!in_map_ && plan_->BarrierBefore(&terminator)) target_.Barrier(b_);
}

void Emitter::AfterControlResults(const ir::Op& op) {
  // Control flow writes its results' copies here, after the merge, not in AfterOp.
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
