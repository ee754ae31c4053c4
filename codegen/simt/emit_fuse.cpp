// SIMT lowering of runs of per-element tile ops as one loop over chunks of the lane's slots:
// consecutive tile loads, stores, atomics, element-wise ops and maps over tiles of one element
// count, whose register tiles live only inside the run, go through a few slots at a time.
#include <unordered_set>

#include "ir/op_cases.h"
#include "codegen/simt/emitter.h"

namespace tilec::codegen::simt {

using ir::OpCode;

namespace {

// Slots a chunk takes of a run without math-library calls: enough loads in flight to cover
// memory latency, while a wide row no longer keeps every slot's value and address live at once
// (LLVM hoists each slot's address out of the grid loop, one 64-bit pair per slot and array).
constexpr int kSlotsInFlight = 4;
// Tile ops of one run at most, which bounds the time spent finding runs.
constexpr size_t kMaxRunOps = 64;

// Math that becomes a libdevice (GPU) or libm (host) routine of tens of instructions: a chunk
// of a run with one takes a single slot, so the routine is emitted once, not once per slot.
bool CallsMathLibrary(OpCode c) {
  for (OpCode m : {OpCode::Pow, OpCode::Exp, OpCode::Log, OpCode::Sin, OpCode::Cos, OpCode::Tan, OpCode::Asin,
                   OpCode::Acos, OpCode::Atan, OpCode::Sinh, OpCode::Cosh, OpCode::Tanh, OpCode::Log2,
                   OpCode::Log10, OpCode::Exp2, OpCode::Cbrt, OpCode::Erf, OpCode::Erfc, OpCode::Atan2})
    if (c == m) return true;
  return false;
}

bool HasTile(const ir::Op& op) {
  for (const ir::Value* v : op.operands())
    if (v->type().is_tile()) return true;
  for (auto& r : op.results())
    if (r->type().is_tile()) return true;
  return false;
}

// Scalar code the run may move before its loop: it computes values from values, touches no
// memory, and every lane computes its own.
bool PureScalar(const ir::Op& op) {
  if (HasTile(op) || op.num_regions() > 0) return false;
  switch (ir::FamilyOf(op.code())) {
    case ir::OpFamily::Constant: case ir::OpFamily::Tid: case ir::OpFamily::Select: case ir::OpFamily::Elementwise:
    case ir::OpFamily::Compare: case ir::OpFamily::Logic: case ir::OpFamily::Struct:
      return true;
    case ir::OpFamily::Array: case ir::OpFamily::TileBuild: case ir::OpFamily::TileMap: case ir::OpFamily::TileReduce:
    case ir::OpFamily::TileScan: case ir::OpFamily::TileSort: case ir::OpFamily::TileMatmul: case ir::OpFamily::TileShape:
    case ir::OpFamily::TileElement: case ir::OpFamily::TileMemory: case ir::OpFamily::Print: case ir::OpFamily::Control:
    case ir::OpFamily::Terminator:
      return false;
  }
  return false;
}

const ir::Value* RootArray(const ir::Value* array) {
  while (array->def() && (array->def()->code() == OpCode::ArraySlice || array->def()->code() == OpCode::ArrayView))
    array = array->def()->operand(0);
  return array;
}

// Operand `i` of `op` is read by lanes other than its elements' owners (the plan's rule).
bool ReadsAcrossLanes(const ir::Op& op, int i) {
  return ir::HasTrait(op.code(), ir::kCrossLane) || (i == 1 && ir::HasTrait(op.code(), ir::kCrossLaneIndices));
}

}  // namespace

int64_t Emitter::FusedElems(const ir::Op& op, bool& heavy, FusedMemory& mem) const {
  switch (ir::FamilyOf(op.code())) {
    case ir::OpFamily::Elementwise:
      if (!op.result()->type().is_tile()) return -1;
      heavy = heavy || CallsMathLibrary(op.code());
      return op.result()->type().NumElements();
    case ir::OpFamily::TileBuild: return op.result()->type().NumElements();
    case ir::OpFamily::TileMap: {
      // Each element runs the body once in any order; a body that writes memory or prints would
      // see its effects reordered between slots, so it keeps its own loop.
      bool ok = true;
      ir::Walk(const_cast<ir::Block*>(op.region(0)), [&](ir::Op* o) {
        heavy = heavy || CallsMathLibrary(o->code());
        switch (o->code()) {
          case OpCode::ArrayLoad: mem.reads.push_back(RootArray(o->operand(0))); break;
          case OpCode::ArrayStore: case OpCode::AtomicAdd: case OpCode::AtomicRmw: case OpCode::Print:
          case OpCode::Assert: ok = false; break;
          case OpCode::ArrayDim: case OpCode::ArrayGrad: case OpCode::ArraySlice: case OpCode::ArrayView:
          TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Elementwise) TILEC_CASES(Compare)
          TILEC_CASES(Logic) TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce)
          TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape)
          TILEC_CASES(TileElement) TILEC_CASES(TileMemory) TILEC_CASES(Control) TILEC_CASES(Terminator)
            break;
        }
      });
      return ok ? op.result()->type().NumElements() : -1;
    }
    case ir::OpFamily::TileMemory: {
      const bool is_load = !ir::HasTrait(op.code(), ir::kWritesMemory);
      const bool is_store = !is_load && !ir::HasTrait(op.code(), ir::kReadsMemory);
      // Deterministic atomics commit element by element behind barriers.
      if (!is_load && !is_store && fn_->deterministic) return -1;
      (is_load ? mem.reads : mem.writes).push_back(RootArray(op.operand(0)));
      const int tile_pos = is_load ? -1 : ir::HasTrait(op.code(), ir::kCrossLaneIndices) ? 2 : 1;
      return (is_load ? op.result() : op.operand(tile_pos))->type().NumElements();
    }
    case ir::OpFamily::Constant: case ir::OpFamily::Tid: case ir::OpFamily::Select: case ir::OpFamily::Compare:
    case ir::OpFamily::Logic: case ir::OpFamily::Array: case ir::OpFamily::Struct: case ir::OpFamily::TileReduce:
    case ir::OpFamily::TileScan: case ir::OpFamily::TileSort: case ir::OpFamily::TileMatmul: case ir::OpFamily::TileShape:
    case ir::OpFamily::TileElement: case ir::OpFamily::Print: case ir::OpFamily::Control: case ir::OpFamily::Terminator:
      return -1;
  }
  return -1;
}

bool Emitter::PlanFusedRun(const ir::Block& b, size_t first, FusedRun& run) {
  const auto& ops = b.ops();
  bool heavy = false;
  FusedMemory mem;
  const int64_t n = FusedElems(*ops[first], heavy, mem);
  if (n <= B_) return false;  // one slot a lane: nothing to chunk
  auto [it, fresh] = block_uses_.try_emplace(&b);
  auto& uses = it->second;
  if (fresh)
    for (size_t u = 0; u < ops.size(); ++u) {
      for (int i = 0; i < ops[u]->num_operands(); ++i) uses[ops[u]->operand(i)].emplace_back(u, i);
      for (auto& reg : ops[u]->regions())
        ir::Walk(reg.get(), [&](ir::Op* o) {
          for (const ir::Value* x : o->operands()) uses[x].emplace_back(u, -1);
        });
    }
  // The longest candidate: tile ops of n elements, with pure scalar code between them; a later
  // op that needs a barrier or lane 0's values first ends it (the run's loop holds neither).
  std::vector<size_t> tile_ops = {first};
  for (size_t j = first + 1; j < ops.size() && tile_ops.size() < kMaxRunOps; ++j) {
    const ir::Op& op = *ops[j];
    if (ir::IsTerminator(op.code())) break;
    if (PureScalar(op)) continue;
    bool h = false;
    FusedMemory m;
    if (FusedElems(op, h, m) != n || plan_->BarrierBefore(&op) || plan_->Lane0(&op)) break;
    tile_ops.push_back(j);
  }
  // Shortened from its end until its register tiles are all made and read inside it.
  for (; !tile_ops.empty(); tile_ops.pop_back()) {
    run = FusedRun{};
    run.first = first;
    run.end = tile_ops.back() + 1;
    run.tile_ops = tile_ops;
    run.elems = n;
    heavy = false;
    mem = FusedMemory{};
    for (size_t j : tile_ops) FusedElems(*ops[j], heavy, mem);
    bool ok = true;
    // A result in registers stays inside: only later ops of the run read it, each its own
    // elements (a shared copy would be written after the op, outside the loop).
    for (size_t j : tile_ops)
      for (auto& r : ops[j]->results()) {
        const ir::Value* v = r.get();
        if (!v->type().is_tile() || plan_->Primary(v) >= 0) continue;
        bool inside = plan_->Copy(v) < 0;
        auto u = uses.find(v);
        if (u != uses.end())
          for (auto [at, i] : u->second)
            if (at >= run.end || i < 0 || ReadsAcrossLanes(*ops[at], i)) inside = false;
        if (inside) run.internal.insert(v);
        else if (ir::FamilyOf(ops[j]->code()) != ir::OpFamily::TileMemory || plan_->IsUsed(v)) ok = false;
      }
    // Register tiles made before the run would be indexed by a slot only known at run time.
    for (size_t j : tile_ops) {
      const ir::Op& op = *ops[j];
      for (int i = 0; i < op.num_operands(); ++i) {
        const ir::Value* v = op.operand(i);
        if (v->type().is_tile() && !ReadsAcrossLanes(op, i) && plan_->Primary(v) < 0 && !run.internal.count(v))
          ok = false;
      }
    }
    // Slots of a lane run op by op within a chunk but chunk by chunk across the run, so an array
    // one op writes is touched by no other op of the run (distinct arrays do not overlap, as
    // the plan's barriers assume).
    for (size_t w = 0; w < mem.writes.size() && ok; ++w) {
      int touches = 0;
      for (const ir::Value* a : mem.reads) touches += a == mem.writes[w];
      for (const ir::Value* a : mem.writes) touches += a == mem.writes[w];
      if (touches > 1) ok = false;
    }
    if (!ok) continue;
    run.per_chunk = heavy ? 1 : kSlotsInFlight;
    return int64_t(run.per_chunk) * B_ < n;  // more slots than one chunk: a loop pays off
  }
  return false;
}

void Emitter::EmitFusedRun(const ir::Block& b, const FusedRun& run) {
  const auto& ops = b.ops();
  // Scalar code first: it reads no tile, and the run's loop cannot define what later code uses.
  for (size_t j = run.first; j < run.end; ++j)
    if (PureScalar(*ops[j])) EmitOp(*ops[j]);
  const ir::Op& head = *ops[run.first];
  BeforeOp(head);
  const int64_t slots = (run.elems + B_ - 1) / B_;
  const int64_t chunks = (slots + run.per_chunk - 1) / run.per_chunk;
  fused_ = &run;
  fused_check_ = run.elems % B_ != 0 || slots % run.per_chunk != 0;
  // for (c = 0; c < chunks; ++c): a bottom-tested loop (chunks >= 2) that LLVM must not unroll,
  // which would bring back every slot's hoisted address.
  llvm::Function* fn = b_.GetInsertBlock()->getParent();
  llvm::BasicBlock* pre = b_.GetInsertBlock();
  llvm::BasicBlock* body = llvm::BasicBlock::Create(ctx_, "chunk", fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx_, "chunk.done", fn);
  b_.CreateBr(body);
  b_.SetInsertPoint(body);
  llvm::PHINode* c = b_.CreatePHI(b_.getInt64Ty(), 2, "chunk.i");
  c->addIncoming(I64(0), pre);
  // Chunk c takes slots c, c + chunks, c + 2 * chunks, ...: every address then moves with c, so
  // LLVM cannot hoist one per slot of the chunk out of the loop, as it would for slots c * k + j
  // whose columns repeat from chunk to chunk.
  fused_base_ = b_.CreateAdd(lane_, b_.CreateMul(c, I64(B_)), "chunk.lin");
  fused_stride_ = chunks * B_;
  for (size_t j : run.tile_ops) EmitOp(*ops[j]);
  llvm::Value* next = b_.CreateAdd(c, I64(1));
  c->addIncoming(next, b_.GetInsertBlock());
  llvm::BranchInst* back = b_.CreateCondBr(b_.CreateICmpULT(next, I64(chunks)), body, done);
  llvm::MDNode* disable = llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.unroll.disable")});
  llvm::MDNode* loop = llvm::MDNode::getDistinct(ctx_, {nullptr, disable});
  loop->replaceOperandWith(0, loop);
  back->setMetadata(llvm::LLVMContext::MD_loop, loop);
  b_.SetInsertPoint(done);
  fused_ = nullptr;
  for (size_t j : run.tile_ops) AfterOp(*ops[j]);
}

}  // namespace tilec::codegen::simt
