// Per-lane code on the block-serial CPU lowering: the ops between two cooperative operations
// run as one loop over the block's lanes (region formation at tile operations), and a
// lane-varying scalar that outlives its loop lives in a (lanes,) tile, one element per lane.
#include <algorithm>

#include <llvm/IR/IRBuilder.h>

#include "codegen/block_serial/emitter.h"
#include "codegen/codegen.h"
#include "ir/op_cases.h"
#include "runtime/include/tilec/abi.h"

namespace tilec::codegen::bs {

using ir::OpCode;

namespace {

bool AnyTileValue(const ir::Op& op) {
  for (const ir::Value* v : op.operands())
    if (v->type().is_tile()) return true;
  for (auto& r : op.results())
    if (r->type().is_tile()) return true;
  return false;
}

bool PerLaneEffect(const ir::Op& op) { return OpDispatcher::LaneEffect(op); }

bool LaneScalar(const ir::Value* v) { return v->lane_varying() && !v->type().is_tile() && !v->type().is_array(); }

bool AnyOp(const ir::Block& b, const std::function<bool(const ir::Op&)>& pred) {
  for (auto& op : b.ops()) {
    if (pred(*op)) return true;
    for (auto& r : op->regions())
      if (AnyOp(*r, pred)) return true;
  }
  return false;
}

}  // namespace

bool Emitter::NeedsLanes(const ir::Function& f) {
  if (!f.tiled) return false;
  const ir::Block& body = *f.body();
  return AnyOp(body, [](const ir::Op& op) {
    if (PerLaneEffect(op)) return true;
    // Every lane contributes to a scatter, also when its operands are the same in every lane
    // (`s[0] += 1.0` in a block of 8 adds 8), so the block's lanes must exist.
    if (op.code() == OpCode::TileScatterLanes) return true;
    for (auto& r : op.results())
      if (LaneScalar(r.get())) return true;
    for (auto& r : op.regions())
      for (auto& a : r->args())
        if (LaneScalar(a.get())) return true;
    return false;
  });
}

ir::Type Emitter::LaneType(const ir::Value* v) const {
  return ir::Type::Tile(v->type().elem, {int64_t(lanes_)});
}

ir::Type Emitter::SlotType(const ir::Value* v) {
  if (lanes_ && !lane_ && LaneScalar(v)) return LaneType(v);
  return v->type();
}

llvm::Value* Emitter::LaunchRank() {
  llvm::Value* p = b_.CreateConstGEP1_64(b_.getInt8Ty(), fn_->getArg(1), offsetof(tilec_launch, ndim));
  return b_.CreateSExt(b_.CreateLoad(b_.getInt32Ty(), p, "ndim"), b_.getInt64Ty());
}

void Emitter::FillLanes(llvm::Value* buf, const ir::Value* v) {
  llvm::Value* x = ToMem(Get(v), v->type().elem);
  EmitCountedLoop(I64(lanes_), [&](llvm::Value* l) { b_.CreateStore(x, TileElemPtr(buf, v->type().elem, l)); });
}

void Emitter::StoreTile(const Slot& dst, const ir::Value* tile) {
  if (tile->type().is_tile() || IsLaneBuffer(tile)) CopyTile(dst.ptr, vals_.at(tile), dst.type);
  else FillLanes(dst.ptr, tile);  // a uniform value carried in a per-lane slot
}

bool Emitter::BlockLevel(const ir::Op& op) {
  if (auto it = block_level_.find(&op); it != block_level_.end()) return it->second;
  bool level = FamilyOf(op.code()) == ir::OpFamily::TileMemory || AnyTileValue(op);
  // A read of a tile element runs inside the lanes' loop: each lane may read its own element,
  // and lanes may read under their own conditions.
  if (op.code() == OpCode::TileExtract) level = false;
  if (FamilyOf(op.code()) == ir::OpFamily::Print && !AnyTileValue(op)) level = false;
  for (auto& r : op.regions())
    level = level || AnyOp(*r, [&](const ir::Op& inner) { return BlockLevel(inner); });
  return block_level_[&op] = level;
}

bool Emitter::NeedsLaneLoop(const ir::Op& op) {
  if (auto it = needs_loop_.find(&op); it != needs_loop_.end()) return it->second;
  bool needs = PerLaneEffect(op);
  for (const ir::Value* v : op.operands()) needs = needs || LaneScalar(v);
  for (auto& r : op.results()) needs = needs || LaneScalar(r.get());
  for (auto& r : op.regions())
    needs = needs || AnyOp(*r, [&](const ir::Op& inner) {
              if (PerLaneEffect(inner)) return true;
              for (const ir::Value* v : inner.operands())
                if (LaneScalar(v)) return true;
              for (auto& res : inner.results())
                if (LaneScalar(res.get())) return true;
              return false;
            });
  return needs_loop_[&op] = needs;
}

void Emitter::EmitLaneRun(const std::vector<const ir::Op*>& run) {
  // Pure block-uniform ops that need nothing computed in the loop run once, before it; memory
  // operations keep their order, so they stay in the loop with the per-lane ones.
  std::unordered_set<const ir::Value*> inside;
  std::vector<const ir::Op*> loop_ops;
  bool any_loop = false;
  for (const ir::Op* op : run) any_loop = any_loop || NeedsLaneLoop(*op);
  if (!any_loop) {
    for (const ir::Op* op : run) EmitOp(*op);
    return;
  }
  for (const ir::Op* op : run) {
    bool depends = false;
    for (const ir::Value* v : op->operands()) depends = depends || inside.count(v);
    const ir::OpInfo& info = ir::InfoOf(op->code());
    bool pure = (info.traits & (ir::kReadsMemory | ir::kWritesMemory | ir::kSideEffect)) == 0 && op->num_regions() == 0;
    if (pure && !depends && !NeedsLaneLoop(*op)) {
      EmitOp(*op);
      continue;
    }
    loop_ops.push_back(op);
    for (auto& r : op->results()) inside.insert(r.get());
  }
  // What the loop defines is kept for the code after it: per lane, or once when uniform.
  struct Kept {
    const ir::Value* v;
    llvm::Value* slot;
    bool per_lane;
  };
  std::vector<Kept> kept;
  for (const ir::Op* op : loop_ops)
    for (auto& r : op->results()) {
      const ir::Type& t = r->type();
      if (t.is_array() || t.is_tile()) continue;
      if (LaneScalar(r.get())) kept.push_back({r.get(), AllocTile(LaneType(r.get()), "lanes"), true});
      else kept.push_back({r.get(), EntryAlloca(ValTy(t.elem), "uniform", 16), false});
    }
  // An adjoint runs the lanes in reverse order, the reverse of the forward's: the lane whose
  // store survived (the last) is the first to read and clear that element's gradient.
  bool reverse = !kernel_->adjoint_of.empty();
  auto emit_loop = [&] {
    // A number of its own per copy, so that each copy remakes the views it uses.
    int loop = lane_loops_++;
    EmitCountedLoop(I64(lanes_), [&](llvm::Value* i) {
      llvm::Value* lane = reverse ? b_.CreateSub(I64(lanes_ - 1), i, "lane") : i;
      lane_ = lane;
      lane_loop_ = loop;
      for (const ir::Op* op : loop_ops) EmitOp(*op);
      for (const Kept& k : kept) {
        llvm::Value* v = Get(k.v);
        if (k.per_lane) b_.CreateStore(ToMem(v, k.v->type().elem), TileElemPtr(k.slot, k.v->type().elem, lane));
        else b_.CreateStore(v, k.slot);
      }
      lane_ = nullptr;
      lane_loop_ = -1;
    });
  };
  // Arrays carry runtime byte strides, so to LLVM a lane's x[base + lane] has an unknown step
  // and vectorizes into a gather. The loop is versioned instead: where every array its lanes
  // index along the last dimension has unit stride there, a copy that sees that stride as a
  // constant runs (plain vector loads and stores); strided views take the general copy. Both
  // compute the same addresses, so results do not depend on which one runs.
  std::vector<const ir::Value*> unit = UnitStrideArrays(loop_ops);
  if (unit.empty()) {
    emit_loop();
  } else {
    llvm::Value* all_unit = b_.getTrue();
    std::vector<std::pair<const ir::Value*, llvm::Value*>> runtime_strides;
    for (const ir::Value* a : unit) {
      llvm::Value*& stride = arrays_.at(a).strides[a->type().ndim - 1];
      runtime_strides.push_back({a, stride});
      all_unit = b_.CreateAnd(all_unit, b_.CreateICmpEQ(stride, I64(ElemBytes(a->type().elem))));
    }
    llvm::BasicBlock* unit_bb = llvm::BasicBlock::Create(ctx_, "lanes.unit", fn_);
    llvm::BasicBlock* strided_bb = llvm::BasicBlock::Create(ctx_, "lanes.strided", fn_);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx_, "lanes.join", fn_);
    b_.CreateCondBr(all_unit, unit_bb, strided_bb);
    b_.SetInsertPoint(unit_bb);
    for (const ir::Value* a : unit) arrays_.at(a).strides[a->type().ndim - 1] = I64(ElemBytes(a->type().elem));
    emit_loop();
    b_.CreateBr(join);
    for (auto& [a, stride] : runtime_strides) arrays_.at(a).strides[a->type().ndim - 1] = stride;
    b_.SetInsertPoint(strided_bb);
    emit_loop();
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
  }
  for (const Kept& k : kept) {
    if (k.per_lane) {
      Set(k.v, k.slot);
      lane_buffers_.insert(k.v);
    } else {
      Set(k.v, b_.CreateLoad(ValTy(k.v->type().elem), k.slot));
    }
  }
}

int64_t Emitter::ElemBytes(const ir::ElemType& e) {
  return int64_t(mod_.getDataLayout().getTypeAllocSize(MemTy(e)));
}

const ir::Value* Emitter::ArrayBeforeLoop(const ir::Value* v) {
  // A view the loop makes (or remakes, as GetArray does) takes its last stride from the array
  // it views: slices keep the trailing strides, a grad buffer all of them.
  while (true) {
    auto made = array_loop_.find(v);
    bool remade = made != array_loop_.end() && (made->second != -1 || v->lane_varying());
    if (arrays_.count(v) && !remade) return v;
    const ir::Op* def = v->def();
    if (!def || (def->code() != OpCode::ArraySlice && def->code() != OpCode::ArrayGrad)) return nullptr;
    v = def->operand(0);
  }
}

std::vector<const ir::Value*> Emitter::UnitStrideArrays(const std::vector<const ir::Op*>& loop_ops) {
  std::vector<const ir::Value*> arrays;
  auto visit = [&](const ir::Op& op) {
    // Only accesses whose last index moves with the lane gain from a known stride (atomics
    // never vectorize).
    if (op.code() != OpCode::ArrayLoad && op.code() != OpCode::ArrayStore) return false;
    const ir::Value* a = op.operand(0);
    if (!op.operand(a->type().ndim)->lane_varying()) return false;
    const ir::Value* before = ArrayBeforeLoop(a);
    if (before && std::find(arrays.begin(), arrays.end(), before) == arrays.end()) arrays.push_back(before);
    return false;
  };
  for (const ir::Op* op : loop_ops) {
    visit(*op);
    for (auto& r : op->regions()) AnyOp(*r, visit);
  }
  return arrays;
}

void Emitter::EmitScatterLanes(const ir::Op& op) {
  const ir::Type& rt = op.result()->type();
  const ir::ElemType& e = rt.elem;
  llvm::Value* dst = AllocTile(rt, "scatter");
  // wp.tile(x): every lane writes its own element of a (lanes,) tile, which is then exactly the
  // per-lane buffer that keeps x.
  const ir::Op* idx_def = rt.ndim == 1 ? op.operand(3)->def() : nullptr;
  const ir::Op* has_def = op.operand(2)->def();
  if (!op.accumulate() && !Kernel().hybrid_launch && lanes_ && rt.shape[0] == lanes_ && idx_def && idx_def->code() == OpCode::LaneId &&
      has_def && has_def->code() == OpCode::Const && has_def->value().i != 0 && IsLaneBuffer(op.operand(1))) {
    CopyTile(dst, vals_.at(op.operand(1)), rt);
    Set(op.result(), dst);
    return;
  }
  CopyTile(dst, Get(op.operand(0)), rt);
  // The lanes in increasing order, each reading its own operands, as docs/semantics.md says.
  llvm::Value* saved_lane = lane_;
  EmitCountedLoop(I64(lanes_ ? lanes_ : 1), [&](llvm::Value* lane) {
    lane_ = lane;
    llvm::Value* go = Get(op.operand(2));
    if (llvm::Value* active = LaneActive()) go = b_.CreateAnd(go, active);
    llvm::Value* lin = I64(0);
    for (int d = 0; d < rt.ndim; ++d) {
      const ir::Value* iv = op.operand(3 + d);
      llvm::Value* c = AsI64(Get(iv), iv->type().elem.scalar);
      go = b_.CreateAnd(go, b_.CreateICmpULT(c, I64(rt.shape[d])));
      lin = b_.CreateAdd(b_.CreateMul(lin, I64(rt.shape[d])), c);
    }
    llvm::Function* fn = b_.GetInsertBlock()->getParent();
    llvm::BasicBlock* then_bb = llvm::BasicBlock::Create(ctx_, "scatter.lane", fn);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx_, "scatter.next", fn);
    b_.CreateCondBr(go, then_bb, join);
    b_.SetInsertPoint(then_bb);
    llvm::Value* ptr = TileElemPtr(dst, e, lin);
    llvm::Value* v = Get(op.operand(1));
    if (op.accumulate()) EmitElemAtomicAdd(ptr, v, e);  // one thread: the atomic is uncontended
    else b_.CreateStore(ToMem(v, e), ptr);
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
  });
  lane_ = saved_lane;
  Set(op.result(), dst);
}

}  // namespace tilec::codegen::bs

namespace tilec::codegen {
bool RunsPerLaneLoops(const ir::Function& f) { return bs::Emitter::NeedsLanes(f); }
}  // namespace tilec::codegen
