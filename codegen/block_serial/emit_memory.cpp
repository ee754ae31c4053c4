// Block-serial lowering of global memory: scalar array access and atomics, and the six tile
// memory ops. Addresses are 64-bit byte offsets from byte strides; every tile coordinate is
// checked on both sides in every dimension (an out-of-bounds read gives zero, an
// out-of-bounds store or add is skipped and reports zero as its previous value).
#include "codegen/block_serial/emitter.h"

namespace tilec::codegen::bs {

using ir::OpCode;

namespace {
bool Is16BitFloat(ScalarType t) { return t == ScalarType::Float16 || t == ScalarType::BFloat16; }
}  // namespace

llvm::Value* Emitter::EmitAtomicAdd(llvm::Value* ptr, llvm::Value* v, ScalarType t) {
  auto order = llvm::AtomicOrdering::Monotonic;
  if (Is16BitFloat(t)) {
    // Compare-and-swap loop on the 16-bit word: add in float32, round, retry on contention.
    llvm::Type* i16 = b_.getInt16Ty();
    llvm::LoadInst* init = b_.CreateLoad(i16, ptr);
    init->setAtomic(order);
    init->setAlignment(llvm::Align(2));
    llvm::BasicBlock* pre = b_.GetInsertBlock();
    llvm::BasicBlock* loop = llvm::BasicBlock::Create(ctx_, "cas.loop", b_.GetInsertBlock()->getParent());
    llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx_, "cas.done", b_.GetInsertBlock()->getParent());
    b_.CreateBr(loop);
    b_.SetInsertPoint(loop);
    llvm::PHINode* old = b_.CreatePHI(i16, 2, "old");
    old->addIncoming(init, pre);
    llvm::Value* sum = FromF32(b_.CreateFAdd(ToF32(old, t), ToF32(v, t)), t);
    llvm::Value* pair = b_.CreateAtomicCmpXchg(ptr, old, sum, llvm::MaybeAlign(2), order, order);
    llvm::Value* seen = b_.CreateExtractValue(pair, {0});
    old->addIncoming(seen, b_.GetInsertBlock());
    b_.CreateCondBr(b_.CreateExtractValue(pair, {1}), done, loop);
    b_.SetInsertPoint(done);
    return old;
  }
  if (t == ScalarType::Bool) {
    // Not an atomic type; sema rejects it, but keep the IR well defined: or is bool's add.
    llvm::Value* r = b_.CreateAtomicRMW(llvm::AtomicRMWInst::Or, ptr, ToMem(v, ir::ElemType::Of(t)), llvm::MaybeAlign(1), order);
    return FromMem(r, ir::ElemType::Of(t));
  }
  auto op = IsFloat(t) ? llvm::AtomicRMWInst::FAdd : llvm::AtomicRMWInst::Add;
  return b_.CreateAtomicRMW(op, ptr, v, llvm::MaybeAlign(ScalarSize(t)), order);
}

llvm::Value* Emitter::EmitElemAtomicAdd(llvm::Value* ptr, llvm::Value* v, const ir::ElemType& e) {
  if (!e.is_struct()) return EmitAtomicAdd(ptr, v, e.scalar);
  // Field by field: fields of the eight atomic types are added; any other field is left
  // alone and its current value is reported as the previous one.
  const ir::StructDef& s = irm_.structs()[e.struct_index];
  llvm::Value* result = Zero(e);
  for (size_t k = 0; k < s.fields.size(); ++k) {
    const ir::StructField& f = s.fields[k];
    llvm::Value* fptr = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), ptr, f.offset);
    llvm::Value* fv = b_.CreateExtractValue(v, {unsigned(k)});
    llvm::Value* old;
    if (f.type.is_struct()) {
      old = EmitElemAtomicAdd(fptr, fv, f.type);
    } else if (SupportsAtomicAdd(f.type.scalar)) {
      old = EmitAtomicAdd(fptr, fv, f.type.scalar);
    } else {
      llvm::LoadInst* ld = b_.CreateLoad(MemTy(f.type), fptr);
      ld->setAtomic(llvm::AtomicOrdering::Monotonic);
      ld->setAlignment(llvm::Align(ScalarSize(f.type.scalar)));
      old = ld;
    }
    result = b_.CreateInsertValue(result, old, {unsigned(k)});
  }
  return result;
}

void Emitter::EmitArrayOp(const ir::Op& op) {
  const ArrayVal& a = GetArray(op.operand(0));
  const ir::Type& at = op.operand(0)->type();
  llvm::Value* off = I64(0);
  for (int d = 0; d < at.ndim; ++d) {
    const ir::Value* idx = op.operand(1 + d);
    off = b_.CreateAdd(off, b_.CreateMul(AsI64(Get(idx), idx->type().elem.scalar), a.strides[d]));
  }
  llvm::Value* ptr = b_.CreateGEP(b_.getInt8Ty(), a.data, {off});
  llvm::Type* mt = MemTy(at.elem);
  switch (op.code()) {
    case OpCode::ArrayLoad: Set(op.result(), FromMem(b_.CreateLoad(mt, ptr), at.elem)); return;
    case OpCode::ArrayStore: b_.CreateStore(ToMem(Get(op.operand(1 + at.ndim)), at.elem), ptr); return;
    case OpCode::AtomicAdd: Set(op.result(), EmitElemAtomicAdd(ptr, Get(op.operand(1 + at.ndim)), at.elem)); return;
    default: return;
  }
}

void Emitter::EmitTileMemoryOp(const ir::Op& op) {
  OpCode c = op.code();
  const ir::Type& at = op.operand(0)->type();
  const ArrayVal& a = GetArray(op.operand(0));
  bool indexed = c == OpCode::TileLoadIndexed || c == OpCode::TileStoreIndexed || c == OpCode::TileAtomicAddIndexed;
  bool is_load = c == OpCode::TileLoad || c == OpCode::TileLoadIndexed;
  bool is_store = c == OpCode::TileStore || c == OpCode::TileStoreIndexed;
  int tile_pos = is_load ? -1 : indexed ? 2 : 1;
  int off_pos = is_load ? (indexed ? 2 : 1) : tile_pos + 1;
  int axis = indexed ? int(op.index) : -1;
  const ir::Type& tt = is_load ? op.result()->type() : op.operand(tile_pos)->type();
  const ir::ElemType& e = tt.elem;
  llvm::Type* mt = MemTy(e);
  llvm::Value* src_tile = is_load ? nullptr : Get(op.operand(tile_pos));
  llvm::Value* index_tile = indexed ? Get(op.operand(1)) : nullptr;
  std::vector<llvm::Value*> offsets;
  for (int d = 0; d < at.ndim; ++d) {
    const ir::Value* o = op.operand(off_pos + d);
    offsets.push_back(AsI64(Get(o), o->type().elem.scalar));
  }
  llvm::Value* dst = nullptr;
  if (!is_store) dst = AllocTile(op.result()->type(), std::string(op.name()).c_str());

  EmitLoopNest(tt, [&](const std::vector<llvm::Value*>& coord, llvm::Value* lin) {
    // Global coordinate per dimension; one unsigned compare checks both sides.
    llvm::Value* inb = b_.getTrue();
    llvm::Value* byte_off = I64(0);
    for (int d = 0; d < at.ndim; ++d) {
      llvm::Value* local = coord[d];
      if (d == axis) {
        llvm::Value* idx = b_.CreateLoad(b_.getInt32Ty(), b_.CreateInBoundsGEP(b_.getInt32Ty(), index_tile, {coord[d]}));
        local = b_.CreateSExt(idx, b_.getInt64Ty());
      }
      llvm::Value* g = b_.CreateAdd(offsets[d], local);
      inb = b_.CreateAnd(inb, b_.CreateICmpULT(g, a.shape[d]));
      byte_off = b_.CreateAdd(byte_off, b_.CreateMul(g, a.strides[d]));
    }
    llvm::Value* elem_ptr = dst ? TileElemPtr(dst, e, lin) : nullptr;
    llvm::BasicBlock* in_bb = llvm::BasicBlock::Create(ctx_, "mem.in", fn_);
    llvm::BasicBlock* out_bb = llvm::BasicBlock::Create(ctx_, "mem.out", fn_);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx_, "mem.join", fn_);
    b_.CreateCondBr(inb, in_bb, out_bb);
    b_.SetInsertPoint(in_bb);
    llvm::Value* gptr = b_.CreateGEP(b_.getInt8Ty(), a.data, {byte_off});
    if (is_load) {
      b_.CreateStore(b_.CreateLoad(mt, gptr), elem_ptr);
    } else {
      llvm::Value* v = b_.CreateLoad(mt, TileElemPtr(src_tile, e, lin));
      if (is_store) {
        b_.CreateStore(v, gptr);
      } else {
        llvm::Value* old = EmitElemAtomicAdd(gptr, FromMem(v, e), e);
        b_.CreateStore(ToMem(old, e), elem_ptr);
      }
    }
    b_.CreateBr(join);
    b_.SetInsertPoint(out_bb);
    if (elem_ptr) b_.CreateStore(llvm::Constant::getNullValue(mt), elem_ptr);
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
  });
  if (dst) Set(op.result(), dst);
}

}  // namespace tilec::codegen::bs
