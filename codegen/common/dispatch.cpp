// The op dispatcher shared by the block-serial and SIMT lowerings, and the ops that read the
// grid position (tid), which both derive from the block program's linear index.
#include "codegen/common/dispatch.h"

#include "codegen/block_serial/emitter.h"
#include "ir/op_cases.h"

namespace tilec::codegen {

void OpDispatcher::EmitOp(const ir::Op& op) {
  BeforeOp(op);
  llvm::Value* active = LaneEffect(op) ? LaneActive() : nullptr;
  if (!active) {
    Dispatch(op);
    AfterOp(op);
    return;
  }
  // An inactive lane skips the effect; an atomic's result there is zero.
  llvm::IRBuilder<>& b = Builder();
  llvm::Function* fn = b.GetInsertBlock()->getParent();
  llvm::BasicBlock* from = b.GetInsertBlock();
  llvm::BasicBlock* run = llvm::BasicBlock::Create(b.getContext(), "lane.active", fn);
  llvm::BasicBlock* join = llvm::BasicBlock::Create(b.getContext(), "lane.join", fn);
  b.CreateCondBr(active, run, join);
  b.SetInsertPoint(run);
  Dispatch(op);
  std::vector<llvm::Value*> results;
  for (auto& r : op.results()) results.push_back(ValueOf(r.get()));
  llvm::BasicBlock* end = b.GetInsertBlock();
  b.CreateBr(join);
  b.SetInsertPoint(join);
  for (size_t k = 0; k < results.size(); ++k) {
    llvm::PHINode* phi = b.CreatePHI(results[k]->getType(), 2);
    phi->addIncoming(results[k], end);
    phi->addIncoming(llvm::Constant::getNullValue(results[k]->getType()), from);
    Define(op.result(int(k)), phi);
  }
  AfterOp(op);
}

bool OpDispatcher::LaneEffect(const ir::Op& op) {
  switch (op.code()) {
    case ir::OpCode::ArrayStore: case ir::OpCode::AtomicAdd: case ir::OpCode::AtomicRmw: return true;
    case ir::OpCode::Assert: return true;
    case ir::OpCode::Print:
      for (const ir::Value* v : op.operands())
        if (v->type().is_tile()) return false;  // one cooperative print of the block's tile
      return true;
    case ir::OpCode::ArrayLoad: case ir::OpCode::ArrayDim: case ir::OpCode::ArrayGrad:
    case ir::OpCode::ArraySlice: case ir::OpCode::ArrayView:
    TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Elementwise) TILEC_CASES(Compare)
    TILEC_CASES(Logic) TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce)
    TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape)
    TILEC_CASES(TileElement) TILEC_CASES(TileMemory) TILEC_CASES(Control) TILEC_CASES(Terminator)
      return false;
  }
  return false;
}

llvm::Value* OpDispatcher::ThreadIndex() {
  llvm::IRBuilder<>& b = Builder();
  llvm::Value* index = ProgramIndex();
  const ir::Function& f = Kernel();
  if (f.tiled && f.hybrid_launch) index = b.CreateAdd(b.CreateMul(index, b.getInt64(uint64_t(Lanes()))), LaneIndex(), "thread");
  return index;
}

llvm::Value* OpDispatcher::LaneActive() {
  const ir::Function& f = Kernel();
  if (!f.tiled || !f.hybrid_launch) return nullptr;
  llvm::IRBuilder<>& b = Builder();
  llvm::Value* threads = b.getInt64(1);
  for (int d = 0; d < ir::kMaxDims; ++d) threads = b.CreateMul(threads, LaunchDim(d));
  return b.CreateICmpULT(ThreadIndex(), threads, "lane.active");
}

void OpDispatcher::Dispatch(const ir::Op& op) {
  switch (ir::FamilyOf(op.code())) {
    case ir::OpFamily::Constant: Define(op.result(), Scalar().EmitConst(op)); break;
    case ir::OpFamily::Tid: EmitTid(op); break;
    case ir::OpFamily::Select:
      Define(op.result(), Builder().CreateSelect(ValueOf(op.operand(0)), ValueOf(op.operand(1)), ValueOf(op.operand(2))));
      break;
    case ir::OpFamily::Elementwise: EmitElementwise(op); break;
    case ir::OpFamily::Compare:
      Define(op.result(), Scalar().EmitCmp(op.pred(), op.operand(0)->type().elem.scalar, ValueOf(op.operand(0)),
                                           ValueOf(op.operand(1))));
      break;
    case ir::OpFamily::Logic:
      Define(op.result(), Scalar().EmitLogic(op.code(), ValueOf(op.operand(0)), ValueOf(op.operand(1))));
      break;
    case ir::OpFamily::Array:
      if (op.code() == ir::OpCode::AtomicRmw && op.operand(0)->type().elem.is_struct()) EmitComponentAtomicRmw(op);
      else EmitArrayOp(op);
      break;
    case ir::OpFamily::Struct:
      Define(op.result(), Scalar().EmitStructOp(op, ValueOf(op.operand(0)),
                                                op.num_operands() > 1 ? ValueOf(op.operand(1)) : nullptr));
      break;
    case ir::OpFamily::TileBuild: case ir::OpFamily::TileMap: case ir::OpFamily::TileReduce:
    case ir::OpFamily::TileScan: case ir::OpFamily::TileSort: case ir::OpFamily::TileMatmul: case ir::OpFamily::TileShape: case ir::OpFamily::TileElement:
      EmitTileOp(op);
      break;
    case ir::OpFamily::TileMemory: EmitTileMemoryOp(op); break;
    case ir::OpFamily::Print: EmitPrint(op); break;
    case ir::OpFamily::Control: EmitControl(op); break;
    case ir::OpFamily::Terminator: ir::op_cases::NotHandledHere(op, "op dispatch (terminators end regions)");
  }
}

// tid's results are coordinates of the running thread (LANGUAGE.md §4). A kernel without tile
// operations runs one thread per grid index. A tiled launch of rank n runs blocks over the n
// extents: results below n are the block's coordinates, result n is the lane, later ones 0. A
// hybrid launch (wp.launch with block_dim) numbers threads block * B + lane over the extents.
// One name is the linear index of the thread (of the block in a tiled launch).
void OpDispatcher::EmitTid(const ir::Op& op) {
  llvm::IRBuilder<>& b = Builder();
  switch (op.code()) {
    case ir::OpCode::LaneId: Define(op.result(), b.CreateTrunc(LaneIndex(), b.getInt32Ty(), "lane")); return;
    case ir::OpCode::BlockDim: Define(op.result(), b.getInt32(uint32_t(Lanes()))); return;
    case ir::OpCode::Tid: break;
    TILEC_CASES(Constant) TILEC_CASES(Select) TILEC_CASES(Elementwise) TILEC_CASES(Compare) TILEC_CASES(Logic)
    TILEC_CASES(Array) TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce)
    TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape)
    TILEC_CASES(TileElement) TILEC_CASES(TileMemory) TILEC_CASES(Print) TILEC_CASES(Control) TILEC_CASES(Terminator)
      ir::op_cases::NotHandledHere(op, "tid emission");
  }
  const ir::Function& f = Kernel();
  bool hybrid = f.tiled && f.hybrid_launch;
  llvm::Value* index = ThreadIndex();
  // An inactive lane (past the threads of a hybrid launch) takes the coordinates of a thread
  // that runs, so that what it computes stays in bounds; LaneActive keeps it from effects.
  if (hybrid) {
    llvm::Value* threads = b.getInt64(1);
    for (int d = 0; d < ir::kMaxDims; ++d) threads = b.CreateMul(threads, LaunchDim(d));
    index = b.CreateURem(index, threads);
  }
  // One name: the linear index of the thread (or of the block, in a tiled launch).
  if (op.num_results() == 1) {
    Define(op.result(), b.CreateTrunc(index, b.getInt32Ty(), "tid"));
    return;
  }
  // Row-major coordinates over the four launch extents (unused trailing ones are 1).
  llvm::Value* rest = index;
  std::vector<llvm::Value*> coords(ir::kMaxDims);
  for (int d = ir::kMaxDims - 1; d >= 0; --d) {
    coords[size_t(d)] = b.CreateURem(rest, LaunchDim(d));
    rest = b.CreateUDiv(rest, LaunchDim(d));
  }
  llvm::Value* rank = f.tiled && !hybrid ? LaunchRank() : nullptr;
  for (int k = 0; k < op.num_results(); ++k) {
    llvm::Value* c = coords[size_t(k)];
    // Past the launch's extents every coordinate is 0, so the lane is added where k == rank
    // (a launch has at least one dimension, so never to the first).
    if (rank && k > 0) c = b.CreateAdd(c, b.CreateSelect(b.CreateICmpEQ(rank, b.getInt64(uint64_t(k))), LaneIndex(), b.getInt64(0)));
    Define(op.result(k), b.CreateTrunc(c, b.getInt32Ty(), "tid" + std::to_string(k)));
  }
}

void OpDispatcher::EmitComponentAtomicRmw(const ir::Op& op) {
  llvm::IRBuilder<>& b = Builder();
  bs::Emitter& s = Scalar();
  const ir::Type& at = op.operand(0)->type();
  const bs::ArrayVal& a = ArrayValueOf(op.operand(0));
  llvm::Value* off = b.getInt64(0);
  for (int d = 0; d < at.ndim; ++d) {
    const ir::Value* idx = op.operand(1 + d);
    off = b.CreateAdd(off, b.CreateMul(s.AsI64(ValueOf(idx), idx->type().elem.scalar), a.strides[d]));
  }
  llvm::Value* ptr = b.CreateGEP(b.getInt8Ty(), a.data, {off});
  // Components are scalar fields of one type (support/composite.h); cas and exch never get here.
  const ir::StructDef& sd = s.irm().structs()[size_t(at.elem.struct_index)];
  llvm::Value* v = ValueOf(op.operand(op.num_operands() - 1));
  llvm::Value* old = s.Zero(at.elem);
  for (size_t k = 0; k < sd.fields.size(); ++k) {
    const ir::StructField& f = sd.fields[k];
    llvm::Value* fptr = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), ptr, f.offset);
    llvm::Value* fv = b.CreateExtractValue(v, {unsigned(k)});
    llvm::Value* prev = s.EmitAtomicRmw(op.rmw(), fptr, fv, nullptr, f.type.scalar);
    old = b.CreateInsertValue(old, prev, {unsigned(k)});
  }
  Define(op.result(), old);
}

}  // namespace tilec::codegen
