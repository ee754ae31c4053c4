// Block-serial lowering of global memory: scalar array access and atomics, and the six tile
// memory ops. Addresses are 64-bit byte offsets from byte strides; every tile coordinate is
// checked on both sides in every dimension (an out-of-bounds read gives zero, an
// out-of-bounds store or add is skipped and reports zero as its previous value), once per row
// where a whole row can be checked at once.
#include <algorithm>
#include <cstddef>
#include <initializer_list>

#include <llvm/TargetParser/Host.h>

#include "codegen/block_serial/emitter.h"
#include "codegen/common/checked_access.h"
#include "ir/op_cases.h"
#include "runtime/include/tilec/abi.h"

namespace tilec::codegen::bs {

using ir::OpCode;

namespace {
// A matmul factor with no other reader is read where it lies in its array when it fits there,
// instead of being copied into its tile. Its tile's address then comes from a phi of the copy
// and the array; the function splitter keeps such a copy in the frame of the caller
// (SinkAllocas in codegen/common/split_function.cpp follows derived addresses). The switch is
// for measuring the copy's cost.
constexpr bool kReadFactorsInPlace = true;

bool Is16BitFloat(ScalarType t) { return t == ScalarType::Float16 || t == ScalarType::BFloat16; }
}  // namespace

llvm::Value* Emitter::CasLoop(llvm::Value* ptr, llvm::Value* guess, llvm::Align align,
                              const std::function<llvm::Value*(llvm::Value*)>& next) {
  auto order = llvm::AtomicOrdering::Monotonic;
  llvm::BasicBlock* pre = b_.GetInsertBlock();
  llvm::Function* fn = pre->getParent();
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(ctx_, "cas.loop", fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx_, "cas.done", fn);
  b_.CreateBr(loop);
  b_.SetInsertPoint(loop);
  llvm::PHINode* old = b_.CreatePHI(guess->getType(), 2, "old");
  old->addIncoming(guess, pre);
  llvm::Value* pair = b_.CreateAtomicCmpXchg(ptr, old, next(old), align, order, order);
  old->addIncoming(b_.CreateExtractValue(pair, {0}), b_.GetInsertBlock());
  b_.CreateCondBr(b_.CreateExtractValue(pair, {1}), done, loop);
  b_.SetInsertPoint(done);
  return old;
}

llvm::Value* Emitter::Atomic16BitFloat(llvm::Value* ptr, ScalarType t,
                                       const std::function<llvm::Value*(llvm::Value*)>& combine) {
  // On the 16-bit word: `combine` computes in float32 and the result is rounded.
  llvm::LoadInst* init = b_.CreateLoad(b_.getInt16Ty(), ptr);
  init->setAtomic(llvm::AtomicOrdering::Monotonic);
  init->setAlignment(llvm::Align(2));
  return CasLoop(ptr, init, llvm::Align(2), [&](llvm::Value* old) { return FromF32(combine(ToF32(old, t)), t); });
}

llvm::Value* Emitter::EmitAtomicAdd(llvm::Value* ptr, llvm::Value* v, ScalarType t) {
  auto order = llvm::AtomicOrdering::Monotonic;
  if (Is16BitFloat(t)) return Atomic16BitFloat(ptr, t, [&](llvm::Value* x) { return b_.CreateFAdd(x, ToF32(v, t)); });
  if (t == ScalarType::Bool) {
    // Not an atomic type; sema rejects it, but keep the IR well defined: or is bool's add.
    llvm::Value* r = b_.CreateAtomicRMW(llvm::AtomicRMWInst::Or, ptr, ToMem(v, ir::ElemType::Of(t)), llvm::MaybeAlign(1), order);
    return FromMem(r, ir::ElemType::Of(t));
  }
  auto op = IsFloat(t) ? llvm::AtomicRMWInst::FAdd : llvm::AtomicRMWInst::Add;
  return b_.CreateAtomicRMW(op, ptr, v, llvm::MaybeAlign(ScalarSize(t)), order);
}

llvm::Value* Emitter::EmitAtomicRmw(ir::AtomicKind k, llvm::Value* ptr, llvm::Value* v, llvm::Value* cmp,
                                    ScalarType t) {
  using K = ir::AtomicKind;
  using RMW = llvm::AtomicRMWInst;
  auto order = llvm::AtomicOrdering::Monotonic;
  llvm::MaybeAlign align(ScalarSize(t));
  if (Is16BitFloat(t)) {
    // sub, min and max (sema allows no other kind here), in float32 as atomic_add.
    return Atomic16BitFloat(ptr, t, [&](llvm::Value* x) {
      llvm::Value* y = ToF32(v, t);
      return k == K::Sub   ? b_.CreateFSub(x, y)
             : k == K::Min ? b_.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, x, y)
                           : b_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, x, y);
    });
  }
  bool is_float = IsFloat(t), is_signed = IsSigned(t);
  llvm::Type* ty = v->getType();
  // Exchange and compare-and-swap work on the bits: a float's compare is bitwise, as Warp's
  // GPU atomicCAS (so -0.0 does not match 0.0, and a NaN matches its own bits).
  llvm::Type* bits = is_float ? llvm::Type::getIntNTy(ctx_, unsigned(ScalarSize(t) * 8)) : ty;
  auto as_bits = [&](llvm::Value* x) { return is_float ? b_.CreateBitCast(x, bits) : x; };
  auto from_bits = [&](llvm::Value* x) { return is_float ? b_.CreateBitCast(x, ty) : x; };
  switch (k) {
    case K::Sub: return b_.CreateAtomicRMW(is_float ? RMW::FSub : RMW::Sub, ptr, v, align, order);
    case K::Min:
      return b_.CreateAtomicRMW(is_float ? RMW::FMin : is_signed ? RMW::Min : RMW::UMin, ptr, v, align, order);
    case K::Max:
      return b_.CreateAtomicRMW(is_float ? RMW::FMax : is_signed ? RMW::Max : RMW::UMax, ptr, v, align, order);
    case K::Exch: return from_bits(b_.CreateAtomicRMW(RMW::Xchg, ptr, as_bits(v), align, order));
    case K::Cas: {
      llvm::Value* pair = b_.CreateAtomicCmpXchg(ptr, as_bits(cmp), as_bits(v), align, order, order);
      return from_bits(b_.CreateExtractValue(pair, {0}));
    }
    case K::BitAnd: return b_.CreateAtomicRMW(RMW::And, ptr, v, align, order);
    case K::BitOr: return b_.CreateAtomicRMW(RMW::Or, ptr, v, align, order);
    case K::BitXor: return b_.CreateAtomicRMW(RMW::Xor, ptr, v, align, order);
  }
  return v;
}

ArrayVal Emitter::SliceArray(const ArrayVal& a, int ndim, const std::vector<llvm::Value*>& idx) {
  llvm::Value* off = I64(0);
  llvm::Value* inside = b_.getTrue();
  for (size_t d = 0; d < idx.size(); ++d) {
    inside = b_.CreateAnd(inside, b_.CreateICmpULT(idx[d], a.shape[d]));
    off = b_.CreateAdd(off, b_.CreateMul(idx[d], a.strides[d]));
  }
  ArrayVal r;
  // Outside: the base pointer itself with zero extents, so no address is ever formed from it.
  r.data = b_.CreateGEP(b_.getInt8Ty(), a.data, {b_.CreateSelect(inside, off, I64(0))});
  for (int d = int(idx.size()); d < ndim; ++d) {
    r.shape[d - idx.size()] = b_.CreateSelect(inside, a.shape[d], I64(0));
    r.strides[d - idx.size()] = a.strides[d];
  }
  return r;
}

ArrayVal Emitter::ViewArray(const ArrayVal& a, int ndim, const std::vector<llvm::Value*>& bounds,
                            const std::vector<int64_t>& steps) {
  llvm::Value* off = I64(0);
  llvm::Value* inside = b_.getTrue();
  ArrayVal r;
  int out = 0;
  auto clamp = [&](llvm::Value* v, int64_t lo, llvm::Value* hi) {
    v = b_.CreateSelect(b_.CreateICmpSLT(v, I64(lo)), I64(lo), v);
    return b_.CreateSelect(b_.CreateICmpSGT(v, hi), hi, v);
  };
  for (size_t d = 0; d < steps.size(); ++d) {
    llvm::Value* start = bounds[2 * d];
    const int64_t step = steps[d];
    if (step == 0) {  // an integer index, as array_slice takes it
      inside = b_.CreateAnd(inside, b_.CreateICmpULT(start, a.shape[d]));
      off = b_.CreateAdd(off, b_.CreateMul(start, a.strides[d]));
      continue;
    }
    // Python's slice.indices(len): negative bounds count from the end, then both clamp to
    // [0, len] for a positive step and to [-1, len - 1] for a negative one.
    llvm::Value* len = a.shape[d];
    auto from_end = [&](llvm::Value* v) { return b_.CreateSelect(b_.CreateICmpSLT(v, I64(0)), b_.CreateAdd(v, len), v); };
    llvm::Value* s = from_end(start);
    llvm::Value* e = from_end(bounds[2 * d + 1]);
    llvm::Value* count;
    if (step > 0) {
      s = clamp(s, 0, len);
      e = clamp(e, 0, len);
      llvm::Value* span = b_.CreateSub(e, s);
      count = b_.CreateSelect(b_.CreateICmpSGT(span, I64(0)), b_.CreateSDiv(b_.CreateAdd(span, I64(step - 1)), I64(step)), I64(0));
    } else {
      llvm::Value* last = b_.CreateSub(len, I64(1));
      s = clamp(s, -1, last);
      e = clamp(e, -1, last);
      llvm::Value* span = b_.CreateSub(s, e);
      count = b_.CreateSelect(b_.CreateICmpSGT(span, I64(0)), b_.CreateSDiv(b_.CreateAdd(span, I64(-step - 1)), I64(-step)), I64(0));
    }
    // An empty dimension starts at the base, so that no address outside the array is formed.
    s = b_.CreateSelect(b_.CreateICmpSGT(count, I64(0)), s, I64(0));
    off = b_.CreateAdd(off, b_.CreateMul(s, a.strides[d]));
    r.shape[out] = count;
    r.strides[out] = b_.CreateMul(a.strides[d], I64(step));
    ++out;
  }
  for (int d = int(steps.size()); d < ndim; ++d, ++out) {
    r.shape[out] = a.shape[d];
    r.strides[out] = a.strides[d];
  }
  // An integer index outside its dimension: the base pointer itself with zero extents.
  r.data = b_.CreateGEP(b_.getInt8Ty(), a.data, {b_.CreateSelect(inside, off, I64(0))});
  for (int d = 0; d < out; ++d) r.shape[d] = b_.CreateSelect(inside, r.shape[d], I64(0));
  return r;
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
  const ir::Type& at = op.operand(0)->type();
  bool access = op.code() == OpCode::ArrayLoad || op.code() == OpCode::ArrayStore || op.code() == OpCode::AtomicAdd ||
                op.code() == OpCode::AtomicRmw;
  if (access && irm_.checked_access && !checking_) {
    const ArrayVal& a = GetArray(op.operand(0));
    std::vector<llvm::Value*> index, shape;
    for (int d = 0; d < at.ndim; ++d) {
      index.push_back(AsI64(Get(op.operand(1 + d)), op.operand(1 + d)->type().elem.scalar));
      shape.push_back(a.shape[d]);
    }
    bool has_result = op.num_results() > 0;
    llvm::Value* r = CheckedAccess(
        b_, LaunchErrorPtr(b_, fn_->getArg(1)), index, shape, op.loc(),
        [&]() -> llvm::Value* {
          checking_ = true;
          EmitArrayOp(op);
          checking_ = false;
          return has_result ? Get(op.result()) : nullptr;
        },
        has_result ? Zero(op.result()->type().elem) : nullptr);
    if (has_result) Set(op.result(), r);
    return;
  }
  auto element_ptr = [&] {
    const ArrayVal& a = GetArray(op.operand(0));
    llvm::Value* off = I64(0);
    for (int d = 0; d < at.ndim; ++d) {
      const ir::Value* idx = op.operand(1 + d);
      off = b_.CreateAdd(off, b_.CreateMul(AsI64(Get(idx), idx->type().elem.scalar), a.strides[d]));
    }
    return b_.CreateGEP(b_.getInt8Ty(), a.data, {off});
  };
  llvm::Type* mt = MemTy(at.elem);
  switch (op.code()) {
    case OpCode::ArrayLoad: Set(op.result(), FromMem(b_.CreateLoad(mt, element_ptr()), at.elem)); return;
    case OpCode::ArrayStore: b_.CreateStore(ToMem(Get(op.operand(1 + at.ndim)), at.elem), element_ptr()); return;
    case OpCode::AtomicAdd:
      Set(op.result(), EmitElemAtomicAdd(element_ptr(), Get(op.operand(1 + at.ndim)), at.elem));
      return;
    case OpCode::AtomicRmw: {
      bool cas = op.rmw() == ir::AtomicKind::Cas;
      llvm::Value* cmp = cas ? Get(op.operand(1 + at.ndim)) : nullptr;
      Set(op.result(), EmitAtomicRmw(op.rmw(), element_ptr(), Get(op.operand(op.num_operands() - 1)), cmp, at.elem.scalar));
      return;
    }
    case OpCode::ArrayDim:
      Set(op.result(), b_.CreateTrunc(GetArray(op.operand(0)).shape[op.dim()], b_.getInt32Ty()));
      return;
    case OpCode::ArraySlice: {
      std::vector<llvm::Value*> idx;
      for (int i = 1; i < op.num_operands(); ++i) idx.push_back(AsI64(Get(op.operand(i)), op.operand(i)->type().elem.scalar));
      arrays_[op.result()] = SliceArray(GetArray(op.operand(0)), op.operand(0)->type().ndim, idx);
      array_loop_[op.result()] = lane_loop_;
      return;
    }
    case OpCode::ArrayView: {
      std::vector<llvm::Value*> bounds;
      for (int i = 1; i < op.num_operands(); ++i) bounds.push_back(AsI64(Get(op.operand(i)), op.operand(i)->type().elem.scalar));
      arrays_[op.result()] = ViewArray(GetArray(op.operand(0)), op.operand(0)->type().ndim, bounds, op.steps());
      array_loop_[op.result()] = lane_loop_;
      return;
    }
    case OpCode::ArrayGrad: {
      // The grad buffer with the array's strides; without one, zero extents make every
      // bounds-checked access a no-op (see ops.def).
      const ir::Value* src = op.operand(0);
      const ir::Block* body = src->is_block_arg() ? src->owner_block() : nullptr;
      ArrayVal g = GetArray(src);
      llvm::Value* slot = nullptr;
      if (body && !body->parent_op())
        slot = b_.CreateLoad(b_.getPtrTy(), b_.CreateConstGEP1_64(b_.getPtrTy(), fn_->getArg(0), src->index()));
      llvm::Value* null = llvm::ConstantPointerNull::get(b_.getPtrTy());
      llvm::Value* grad = slot ? b_.CreateLoad(b_.getPtrTy(), b_.CreateConstGEP1_64(b_.getInt8Ty(), slot, offsetof(tilec_array, grad)), "grad")
                               : null;
      llvm::Value* none = b_.CreateICmpEQ(grad, null);
      g.data = grad;
      for (int d = 0; d < src->type().ndim; ++d) g.shape[d] = b_.CreateSelect(none, I64(0), g.shape[d]);
      arrays_[op.result()] = g;
      array_loop_[op.result()] = lane_loop_;
      return;
    }
    TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Elementwise) TILEC_CASES(Compare)
    TILEC_CASES(Logic) TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce)
    TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape) TILEC_CASES(TileElement) TILEC_CASES(TileMemory)
    TILEC_CASES(Print) TILEC_CASES(Control) TILEC_CASES(Terminator)
      ir::op_cases::NotHandledHere(op, "block-serial array emitter");
  }
}

namespace {

// Operands naming `v` among the ops of `b` and of the regions nested in them.
int Readers(const ir::Block& b, const ir::Value* v) {
  int n = 0;
  for (const auto& user : b.ops()) {
    for (const ir::Value* o : user->operands()) n += o == v;
    for (const auto& r : user->regions()) n += Readers(*r, v);
  }
  return n;
}

// `v`'s one reader in the block of `def` (its definition), when that is an op after `def` with
// no op of a `stop` trait between them; else null.
const ir::Op* OnlyReaderAfter(const ir::Op& def, const ir::Value* v, std::initializer_list<ir::Trait> stop) {
  const ir::Block* block = def.parent_block();
  if (!block || Readers(*block, v) != 1) return nullptr;
  bool after = false;
  for (const auto& o : block->ops()) {
    if (o.get() == &def) {
      after = true;
      continue;
    }
    if (!after) continue;
    for (const ir::Value* operand : o->operands())
      if (operand == v) return o.get();
    for (ir::Trait t : stop)
      if (ir::HasTrait(o->code(), t)) return nullptr;
  }
  return nullptr;
}

}  // namespace

const ir::Op* Emitter::MatmulReader(const ir::Op& load, bool* only) {
  *only = false;
  const ir::Value* v = load.result();
  const ir::Block* block = load.parent_block();
  if (!block) return nullptr;
  const int readers = Readers(*block, v);
  bool after = false, quiet = true;
  for (const auto& o : block->ops()) {
    if (o.get() == &load) {
      after = true;
      continue;
    }
    if (!after) continue;
    if (o->code() == OpCode::TileMatmul && (o->operand(0) == v || o->operand(1) == v)) {
      *only = quiet && readers == 1;
      return o.get();
    }
    if (ir::HasTrait(o->code(), ir::kWritesMemory) || ir::HasTrait(o->code(), ir::kRegions) ||
        ir::HasTrait(o->code(), ir::kSideEffect))
      quiet = false;
  }
  return nullptr;
}

const ir::Op* Emitter::MatmulStoreReader(const ir::Op& matmul) {
  const ir::Value* v = matmul.result();
  const ScalarType cs = v->type().elem.scalar;
  if (v->type().elem.is_struct() || AccType(cs) != cs) return nullptr;
  const ir::Op* o =
      OnlyReaderAfter(matmul, v, {ir::kReadsMemory, ir::kWritesMemory, ir::kRegions, ir::kSideEffect});
  if (!o || o->code() != OpCode::TileStore || o->operand(1) != v) return nullptr;
  return o->operand(0)->type().ndim == 2 && o->operand(0)->type().elem == v->type().elem ? o : nullptr;
}

void Emitter::EmitTileMemoryOp(const ir::Op& op) {
  if (auto it = deferred_matmuls_.find(&op); it != deferred_matmuls_.end()) {
    // tile_store(c, tile_matmul(...)): the product written where it is stored (MatmulStore),
    // or, where that cannot be, into its tile and stored from there as any tile.
    const ir::Op& mm = *it->second;
    deferred_matmuls_.erase(it);
    const ArrayVal& arr = GetArray(op.operand(0));
    const ir::Type& ct = mm.result()->type();
    const int64_t rows = ct.shape[0], cols = ct.shape[1];
    const int64_t esize = int64_t(mod_.getDataLayout().getTypeAllocSize(MemTy(ct.elem)));
    llvm::Value* off0 = AsI64(Get(op.operand(2)), op.operand(2)->type().elem.scalar);
    llvm::Value* off1 = AsI64(Get(op.operand(3)), op.operand(3)->type().elem.scalar);
    MatmulStore ms;
    ms.origin = b_.CreateGEP(b_.getInt8Ty(), arr.data,
                             {b_.CreateAdd(b_.CreateMul(off0, arr.strides[0]), b_.CreateMul(off1, arr.strides[1]))});
    ms.row_stride = arr.strides[0];
    auto fits = [&](llvm::Value* off, llvm::Value* extent, int64_t n) {
      return b_.CreateAnd(b_.CreateICmpUGE(extent, I64(n)), b_.CreateICmpULE(off, b_.CreateSub(extent, I64(n))));
    };
    llvm::Value* lo = b_.CreatePtrToInt(ms.origin, b_.getInt64Ty());
    // Rows in bounds, unit stride, aligned elements, and rows after one another (so the
    // blocks' order of writing cannot matter).
    llvm::Value* ok = b_.CreateAnd(fits(off0, arr.shape[0], rows), fits(off1, arr.shape[1], cols));
    ok = b_.CreateAnd(ok, b_.CreateICmpEQ(arr.strides[1], I64(esize)));
    ok = b_.CreateAnd(ok, b_.CreateICmpSGE(arr.strides[0], I64(cols * esize)));
    ok = b_.CreateAnd(ok, b_.CreateICmpEQ(b_.CreateAnd(b_.CreateOr(lo, arr.strides[0]), I64(esize - 1)), I64(0)));
    // Clear of the factors read in place: the product reads them while it writes.
    llvm::Value* hi = b_.CreateAdd(lo, b_.CreateAdd(b_.CreateMul(I64(rows - 1), arr.strides[0]), I64(cols * esize)));
    for (int f = 0; f < 2; ++f) {
      auto src = matmul_sources_.find(mm.operand(f));
      if (src == matmul_sources_.end() || !src->second.in_place) continue;
      llvm::Value* flo = b_.CreatePtrToInt(src->second.origin, b_.getInt64Ty());
      llvm::Value* fhi = b_.CreateAdd(flo, src->second.span);
      llvm::Value* overlap = b_.CreateAnd(b_.CreateICmpULT(lo, fhi), b_.CreateICmpULT(flo, hi));
      ok = b_.CreateAnd(ok, b_.CreateNot(b_.CreateAnd(src->second.in_place, overlap)));
    }
    ms.ok = ok;
    ms.nt = b_.CreateICmpUGE(b_.CreateMul(arr.shape[0], arr.strides[0]), stream_bytes_);
    EmitMatmulInto(mm, &ms);
    llvm::BasicBlock* copy_bb = llvm::BasicBlock::Create(ctx_, "store.tile", fn_);
    llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx_, "store.done", fn_);
    b_.CreateCondBr(ok, done, copy_bb);
    b_.SetInsertPoint(copy_bb);
    EmitTileMemoryOp(op);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    return;
  }
  if (auto it = deferred_copies_.find(&op); it != deferred_copies_.end()) {
    const ir::Op& load = *it->second;
    deferred_copies_.erase(it);
    EmitTileCopy(load, op);
    return;
  }
  if (const ir::Op* store = CopyStoreReader(op)) {
    deferred_copies_[store] = &op;  // emitted by the store
    return;
  }
  EmitTileTransfer(op);
}

void Emitter::EmitTileTransfer(const ir::Op& op) {
  const ir::Type& at = op.operand(0)->type();
  const ArrayVal& a = GetArray(op.operand(0));
  // The six tile memory ops differ in what ops.def says of them: indexed or not, and whether
  // they read, write, or both (an atomic add).
  bool indexed = ir::HasTrait(op.code(), ir::kCrossLaneIndices);
  bool is_store = ir::HasTrait(op.code(), ir::kWritesMemory) && !ir::HasTrait(op.code(), ir::kReadsMemory);
  bool is_load = !ir::HasTrait(op.code(), ir::kWritesMemory);
  int tile_pos = is_load ? -1 : indexed ? 2 : 1;
  int off_pos = is_load ? (indexed ? 2 : 1) : tile_pos + 1;
  int axis = indexed ? int(op.axis()) : -1;
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

  // Global coordinate of tile dimension d: the offset plus the tile coordinate, or plus the
  // index tile's entry along the indexed axis.
  auto global = [&](int d, llvm::Value* local) {
    if (d == axis) {
      llvm::Value* idx = b_.CreateLoad(b_.getInt32Ty(), b_.CreateInBoundsGEP(b_.getInt32Ty(), index_tile, {local}));
      local = b_.CreateSExt(idx, b_.getInt64Ty());
    }
    return b_.CreateAdd(offsets[d], local);
  };
  // The element access itself, at a global address known to be in bounds.
  auto access = [&](llvm::Value* gptr, llvm::Value* lin) {
    if (is_load) {
      b_.CreateStore(b_.CreateLoad(mt, gptr), TileElemPtr(dst, e, lin));
      return;
    }
    llvm::Value* v = b_.CreateLoad(mt, TileElemPtr(src_tile, e, lin));
    if (is_store) {
      b_.CreateStore(v, gptr);
      return;
    }
    llvm::Value* old = EmitElemAtomicAdd(gptr, FromMem(v, e), e);
    b_.CreateStore(ToMem(old, e), TileElemPtr(dst, e, lin));
  };
  // One element with every coordinate checked on both sides by one unsigned compare each.
  auto checked = [&](const std::vector<llvm::Value*>& coord, llvm::Value* lin) {
    llvm::Value* inb = b_.getTrue();
    llvm::Value* byte_off = I64(0);
    for (int d = 0; d < at.ndim; ++d) {
      llvm::Value* g = global(d, coord[d]);
      inb = b_.CreateAnd(inb, b_.CreateICmpULT(g, a.shape[d]));
      byte_off = b_.CreateAdd(byte_off, b_.CreateMul(g, a.strides[d]));
    }
    llvm::BasicBlock* in_bb = llvm::BasicBlock::Create(ctx_, "mem.in", fn_);
    llvm::BasicBlock* out_bb = llvm::BasicBlock::Create(ctx_, "mem.out", fn_);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx_, "mem.join", fn_);
    b_.CreateCondBr(inb, in_bb, out_bb);
    b_.SetInsertPoint(in_bb);
    access(b_.CreateGEP(b_.getInt8Ty(), a.data, {byte_off}), lin);
    b_.CreateBr(join);
    b_.SetInsertPoint(out_bb);
    if (dst) b_.CreateStore(llvm::Constant::getNullValue(mt), TileElemPtr(dst, e, lin));
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
  };

  const int last = tt.ndim - 1;
  const int64_t width = tt.shape[last];
  if (tt.ndim != at.ndim || axis == last || width < 2) {
    EmitLoopNest(tt, checked);
    if (dst) Set(op.result(), dst);
    return;
  }

  // Row by row: the leading coordinates (and the index tile) are checked once per row; a row
  // that lies wholly inside the array's last dimension, with unit stride, is one memcpy (loads
  // and stores) or one unchecked loop of atomics. Partial or strided rows take the checked
  // path per element; rows outside the leading dimensions are zero (loads, previous values).
  const uint64_t esize = mod_.getDataLayout().getTypeAllocSize(mt);
  const uint64_t row_bytes = esize * uint64_t(width);
  std::vector<llvm::Value*> coord(size_t(tt.ndim));
  // Rows reached through an index tile are scattered over memory, and an atomic add waits for
  // its cache line: prefetch the row a few kilobytes ahead so that misses overlap.
  const int64_t ahead = std::clamp<int64_t>(int64_t(4096 / row_bytes), 1, 16);
  // Byte offset of a row's leading coordinates (the row `at_axis` along the indexed axis, when
  // given); `ok`, when asked for, says whether they are all inside the array.
  auto lead = [&](llvm::Value* at_axis, llvm::Value** ok) {
    llvm::Value* byte_off = I64(0);
    if (ok) *ok = b_.getTrue();
    for (int d = 0; d < last; ++d) {
      llvm::Value* g = global(d, d == axis && at_axis ? at_axis : coord[size_t(d)]);
      if (ok) *ok = b_.CreateAnd(*ok, b_.CreateICmpULT(g, a.shape[d]));
      byte_off = b_.CreateAdd(byte_off, b_.CreateMul(g, a.strides[d]));
    }
    return byte_off;
  };
  auto prefetch_row = [&](llvm::Value* at_axis) {
    llvm::Value* byte_off = lead(at_axis, nullptr);
    llvm::Value* base = b_.CreateGEP(b_.getInt8Ty(), a.data,
                                     {b_.CreateAdd(byte_off, b_.CreateMul(offsets[last], a.strides[last]))});
    PrefetchLines(base, row_bytes, /*write=*/!is_load);
  };
  auto prefetch_ahead = [&]() {
    if (axis >= 0 && axis < last) PrefetchAhead(coord[size_t(axis)], tt.shape[axis], ahead, prefetch_row);
  };
  // Whole rows stored into an array far larger than the caches bypass them (non-temporal
  // stores): those lines are not read back soon, and skipping the read for ownership saves a
  // third of the memory traffic. One fence after the op orders them with what follows.
  const bool can_stream = is_store && row_bytes % 16 == 0 && row_bytes >= 64;
  llvm::Value* stream_big = nullptr;
  if (can_stream) {
    stream_big = b_.CreateICmpUGE(b_.CreateMul(a.shape[0], a.strides[0]), stream_bytes_);
  }
  // float32 rows add four elements per 16-byte compare-and-swap where the row is 16-byte
  // aligned: x86 has no atomic float add, and a locked cmpxchg16b costs about what the 4-byte
  // cmpxchg of one element does.
  const bool quads = !is_load && !is_store && !e.is_struct() && e.scalar == ScalarType::Float32 &&
                     width % 4 == 0 && HostHasCas16();
  auto row = [&](llvm::Value* row_lin) {
    prefetch_ahead();
    llvm::Value* lead_ok = nullptr;
    llvm::Value* byte_off = lead(nullptr, &lead_ok);
    llvm::Value* g0 = offsets[last];
    llvm::Value* extent = a.shape[last];
    llvm::Value* row_ok = b_.CreateAnd(b_.CreateICmpUGE(extent, I64(width)),
                                       b_.CreateICmpULE(g0, b_.CreateSub(extent, I64(width))));
    llvm::Value* unit = b_.CreateICmpEQ(a.strides[last], I64(int64_t(esize)));
    llvm::BasicBlock* fast_bb = llvm::BasicBlock::Create(ctx_, "row.fast", fn_);
    llvm::BasicBlock* test_bb = llvm::BasicBlock::Create(ctx_, "row.test", fn_);
    llvm::BasicBlock* slow_bb = llvm::BasicBlock::Create(ctx_, "row.slow", fn_);
    llvm::BasicBlock* out_bb = llvm::BasicBlock::Create(ctx_, "row.out", fn_);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx_, "row.join", fn_);
    b_.CreateCondBr(b_.CreateAnd(lead_ok, b_.CreateAnd(row_ok, unit)), fast_bb, test_bb);

    b_.SetInsertPoint(fast_bb);
    llvm::Value* base = b_.CreateGEP(b_.getInt8Ty(), a.data,
                                     {b_.CreateAdd(byte_off, b_.CreateMul(g0, I64(int64_t(esize))))});
    const uint64_t bytes = row_bytes;
    if (is_load) {
      b_.CreateMemCpy(TileElemPtr(dst, e, row_lin), llvm::MaybeAlign(1), base, llvm::MaybeAlign(1), bytes);
    } else if (can_stream) {
      StreamRow(base, TileElemPtr(src_tile, e, row_lin), row_bytes, stream_big, llvm::Align(16));
    } else if (is_store) {
      b_.CreateMemCpy(base, llvm::MaybeAlign(1), TileElemPtr(src_tile, e, row_lin), llvm::MaybeAlign(1), bytes);
    } else {
      auto elems = [&] {
        EmitCountedLoop(I64(width), [&](llvm::Value* j) {
          access(b_.CreateInBoundsGEP(mt, base, {j}), b_.CreateAdd(row_lin, j));
        });
      };
      if (quads) {
        llvm::BasicBlock* quad_bb = llvm::BasicBlock::Create(ctx_, "row.quads", fn_);
        llvm::BasicBlock* elem_bb = llvm::BasicBlock::Create(ctx_, "row.elems", fn_);
        llvm::BasicBlock* added = llvm::BasicBlock::Create(ctx_, "row.added", fn_);
        llvm::Value* misaligned = b_.CreateAnd(b_.CreatePtrToInt(base, b_.getInt64Ty()), I64(15));
        b_.CreateCondBr(b_.CreateICmpEQ(misaligned, I64(0)), quad_bb, elem_bb);
        b_.SetInsertPoint(quad_bb);
        AtomicAddQuads(base, src_tile, dst, e, row_lin, width / 4);
        b_.CreateBr(added);
        b_.SetInsertPoint(elem_bb);
        elems();
        b_.CreateBr(added);
        b_.SetInsertPoint(added);
      } else {
        elems();
      }
    }
    b_.CreateBr(join);

    b_.SetInsertPoint(test_bb);
    b_.CreateCondBr(lead_ok, slow_bb, out_bb);
    b_.SetInsertPoint(slow_bb);
    EmitCountedLoop(I64(width), [&](llvm::Value* j) {
      coord[size_t(last)] = j;
      checked(coord, b_.CreateAdd(row_lin, j));
    });
    b_.CreateBr(join);

    b_.SetInsertPoint(out_bb);
    if (dst) b_.CreateMemSet(TileElemPtr(dst, e, row_lin), b_.getInt8(0), bytes, llvm::MaybeAlign(1));
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
  };
  std::function<void(int, llvm::Value*)> nest = [&](int d, llvm::Value* lin) {
    if (d == last) {
      row(b_.CreateMul(lin, I64(width), "", true, true));
      return;
    }
    EmitCountedLoop(I64(tt.shape[d]), [&](llvm::Value* i) {
      coord[size_t(d)] = i;
      nest(d + 1, b_.CreateAdd(b_.CreateMul(lin, I64(tt.shape[d]), "", true, true), i, "", true, true));
    });
  };

  // A factor of a tile_matmul (see MatmulSource): the next load's predicted origin, and the
  // array itself as the tile where the matmul alone reads it and its rows lie contiguous.
  llvm::Value* in_place = nullptr;
  llvm::Value* origin = nullptr;
  bool only = false;
  const ir::Op* mm = is_load && !indexed && tt.ndim == 2 && at.ndim == 2 ? MatmulReader(op, &only) : nullptr;
  if (mm) {
    llvm::Type* i64 = b_.getInt64Ty();
    llvm::Value* byte_off =
        b_.CreateAdd(b_.CreateMul(offsets[0], a.strides[0]), b_.CreateMul(offsets[1], a.strides[1]));
    origin = b_.CreateGEP(b_.getInt8Ty(), a.data, {byte_off});
    // The last origin of this load in this call (0: none yet); the step from it, repeated. The
    // first time, the tile just below (block programs of a batch usually walk down the rows).
    llvm::Value* prev_slot = EntryAlloca(i64, "mm.prev", 8);
    llvm::IRBuilder<>(entry_->getTerminator()).CreateStore(I64(0), prev_slot);
    llvm::Value* here = b_.CreatePtrToInt(origin, i64);
    llvm::Value* prev = b_.CreateLoad(i64, prev_slot);
    b_.CreateStore(here, prev_slot);
    llvm::Value* below = b_.CreateMul(a.strides[0], I64(tt.shape[0]));
    llvm::Value* step = b_.CreateSelect(b_.CreateICmpEQ(prev, I64(0)), below, b_.CreateSub(here, prev));
    MatmulSource src;
    src.next = b_.CreateGEP(b_.getInt8Ty(), origin, {step});
    src.row_stride = a.strides[0];
    src.rows = tt.shape[0];
    src.row_bytes = int64_t(row_bytes);
    matmul_sources_[op.result()] = src;
    const ScalarType acc = AccType(mm->operand(2)->type().elem.scalar);
    if (kReadFactorsInPlace && only && !e.is_struct() && e.scalar == acc && !mm->operand(2)->type().elem.is_struct()) {
      const int64_t rows = tt.shape[0];
      auto fits = [&](llvm::Value* off, llvm::Value* extent, int64_t n) {
        return b_.CreateAnd(b_.CreateICmpUGE(extent, I64(n)), b_.CreateICmpULE(off, b_.CreateSub(extent, I64(n))));
      };
      in_place = b_.CreateAnd(fits(offsets[0], a.shape[0], rows), fits(offsets[1], a.shape[1], width));
      in_place = b_.CreateAnd(in_place, b_.CreateICmpEQ(a.strides[1], I64(int64_t(esize))));
      in_place = b_.CreateAnd(in_place, b_.CreateICmpEQ(a.strides[0], I64(int64_t(row_bytes))));
      llvm::Value* misaligned = b_.CreateAnd(here, I64(int64_t(esize) - 1));
      in_place = b_.CreateAnd(in_place, b_.CreateICmpEQ(misaligned, I64(0)), "mm.in_place");
      MatmulSource& s = matmul_sources_[op.result()];
      s.in_place = in_place;
      s.origin = origin;
      s.span = I64(rows * int64_t(row_bytes));
    }
  }
  if (!in_place) {
    nest(0, I64(0));
    if (dst) Set(op.result(), dst);
    return;
  }
  llvm::BasicBlock* copy_bb = llvm::BasicBlock::Create(ctx_, "load.copy", fn_);
  llvm::BasicBlock* direct_bb = llvm::BasicBlock::Create(ctx_, "load.in_place", fn_);
  llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx_, "load.done", fn_);
  b_.CreateCondBr(in_place, direct_bb, copy_bb);
  b_.SetInsertPoint(copy_bb);
  nest(0, I64(0));
  llvm::BasicBlock* copied = b_.GetInsertBlock();
  b_.CreateBr(join);
  b_.SetInsertPoint(direct_bb);
  b_.CreateBr(join);
  b_.SetInsertPoint(join);
  llvm::PHINode* tile = b_.CreatePHI(b_.getPtrTy(), 2, "mm.factor");
  tile->addIncoming(dst, copied);
  tile->addIncoming(origin, direct_bb);
  Set(op.result(), tile);
}


bool Emitter::HostHasCas16() {
  static const bool has = llvm::sys::getHostCPUFeatures().lookup("cx16");
  return has;
}

void Emitter::AtomicAddQuads(llvm::Value* base, llvm::Value* src, llvm::Value* prev, const ir::ElemType& e,
                             llvm::Value* lin0, int64_t quads) {
  const auto order = llvm::AtomicOrdering::Monotonic;
  llvm::Type* f4 = llvm::FixedVectorType::get(b_.getFloatTy(), 4);
  llvm::Type* i64 = b_.getInt64Ty();
  llvm::Type* i128 = b_.getInt128Ty();
  EmitCountedLoop(I64(quads), [&](llvm::Value* k) {
    llvm::Value* lin = b_.CreateAdd(lin0, b_.CreateMul(k, I64(4)));
    llvm::Value* p = b_.CreateInBoundsGEP(i128, base, {k});
    llvm::Value* add = b_.CreateAlignedLoad(f4, TileElemPtr(src, e, lin), llvm::Align(4));
    // The first guess from two plain 8-byte reads (a torn guess only costs a retry).
    auto half = [&](int64_t at) {
      llvm::LoadInst* l = b_.CreateLoad(i64, b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), p, at));
      l->setAtomic(order);
      l->setAlignment(llvm::Align(8));
      return b_.CreateZExt(l, i128);
    };
    llvm::Value* guess = b_.CreateOr(half(0), b_.CreateShl(half(8), 64));
    llvm::Value* old = CasLoop(p, guess, llvm::Align(16), [&](llvm::Value* seen) {
      return b_.CreateBitCast(b_.CreateFAdd(b_.CreateBitCast(seen, f4), add), i128);
    });
    b_.CreateAlignedStore(b_.CreateBitCast(old, f4), TileElemPtr(prev, e, lin), llvm::Align(4));
  });
}

void Emitter::PrefetchLines(llvm::Value* base, uint64_t row_bytes, bool write) {
  // The row's first kilobyte, line by line: a row starts a new page, where hardware
  // prefetchers lose track, and they follow a sequential row again after its first lines
  // (prefetching all 64 lines of a 4 KiB row cost what copying it from the cache does, and
  // bought nothing from memory: 4 KiB-row gathers, 8 and 256 MiB, bench/run.sh).
  const int64_t lines = int64_t((std::min<uint64_t>(row_bytes, 1024) + 63) / 64);
  EmitCountedLoop(I64(lines), [&](llvm::Value* line) {
    llvm::Value* p = b_.CreateGEP(b_.getInt8Ty(), base, {b_.CreateMul(line, I64(64))});
    b_.CreateIntrinsic(llvm::Intrinsic::prefetch, {p->getType()},
                       {p, b_.getInt32(write ? 1 : 0), b_.getInt32(3), b_.getInt32(1)});
  });
}

void Emitter::PrefetchAhead(llvm::Value* c, int64_t rows, int64_t ahead,
                            const std::function<void(llvm::Value*)>& prefetch_row) {
  llvm::BasicBlock* first_bb = llvm::BasicBlock::Create(ctx_, "prefetch.first", fn_);
  llvm::BasicBlock* next_bb = llvm::BasicBlock::Create(ctx_, "prefetch.next", fn_);
  b_.CreateCondBr(b_.CreateICmpEQ(c, I64(0)), first_bb, next_bb);
  b_.SetInsertPoint(first_bb);
  EmitCountedLoop(I64(std::min(ahead, rows)), [&](llvm::Value* k) { prefetch_row(k); });
  b_.CreateBr(next_bb);
  b_.SetInsertPoint(next_bb);
  llvm::Value* r = b_.CreateAdd(c, I64(ahead));
  llvm::BasicBlock* do_bb = llvm::BasicBlock::Create(ctx_, "prefetch.row", fn_);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx_, "prefetch.done", fn_);
  b_.CreateCondBr(b_.CreateICmpULT(r, I64(rows)), do_bb, done);
  b_.SetInsertPoint(do_bb);
  prefetch_row(r);
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
}

void Emitter::StreamRow(llvm::Value* to, llvm::Value* from, uint64_t bytes, llvm::Value* stream,
                        llvm::Align from_align) {
  // Streaming stores of whole cache lines where the row is line-aligned (one 64-byte store
  // each on AVX-512 hosts), else of 16 bytes; an unaligned row is a plain copy.
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx_, "row.stored", fn_);
  auto streamed = [&](int64_t width, llvm::BasicBlock* otherwise) {
    llvm::BasicBlock* nt_bb = llvm::BasicBlock::Create(ctx_, "row.stream", fn_);
    llvm::Value* aligned =
        b_.CreateICmpEQ(b_.CreateAnd(b_.CreatePtrToInt(to, b_.getInt64Ty()), I64(width - 1)), I64(0));
    b_.CreateCondBr(b_.CreateAnd(stream, aligned), nt_bb, otherwise);
    b_.SetInsertPoint(nt_bb);
    llvm::Type* vt = llvm::FixedVectorType::get(b_.getInt32Ty(), unsigned(width / 4));
    EmitCountedLoop(I64(int64_t(bytes) / width), [&](llvm::Value* k) {
      llvm::Value* v = b_.CreateAlignedLoad(vt, b_.CreateInBoundsGEP(vt, from, {k}), from_align);
      llvm::StoreInst* st = b_.CreateAlignedStore(v, b_.CreateInBoundsGEP(vt, to, {k}), llvm::Align(uint64_t(width)));
      st->setMetadata(llvm::LLVMContext::MD_nontemporal,
                      llvm::MDNode::get(ctx_, llvm::ConstantAsMetadata::get(b_.getInt32(1))));
    });
    b_.CreateStore(b_.getTrue(), streamed_);
    b_.CreateBr(done);
    b_.SetInsertPoint(otherwise);
  };
  llvm::BasicBlock* copy_bb = llvm::BasicBlock::Create(ctx_, "row.copy", fn_);
  if (bytes % 64 == 0) streamed(64, llvm::BasicBlock::Create(ctx_, "row.stream16", fn_));
  streamed(16, copy_bb);
  b_.CreateMemCpy(to, llvm::MaybeAlign(1), from, from_align, bytes);
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
}

const ir::Op* Emitter::CopyStoreReader(const ir::Op& load) {
  if (load.code() != OpCode::TileLoad && load.code() != OpCode::TileLoadIndexed) return nullptr;
  const ir::Value* v = load.result();
  const ir::Type& tt = v->type();
  // Whole rows along the last dimension: the tile has the array's rank on both sides and is
  // not gathered or scattered along its rows.
  auto rows_ok = [&](const ir::Op& o) {
    const ir::Type& at = o.operand(0)->type();
    bool indexed = ir::HasTrait(o.code(), ir::kCrossLaneIndices);
    return at.ndim == tt.ndim && at.elem == tt.elem && !(indexed && int(o.axis()) == tt.ndim - 1);
  };
  if (tt.ndim < 2 || tt.shape[tt.ndim - 1] < 2 || !rows_ok(load)) return nullptr;
  const ir::Op* o = OnlyReaderAfter(load, v, {ir::kWritesMemory, ir::kRegions, ir::kSideEffect});
  if (!o || (o->code() != OpCode::TileStore && o->code() != OpCode::TileStoreIndexed)) return nullptr;
  const int tile_pos = o->code() == OpCode::TileStoreIndexed ? 2 : 1;
  return o->operand(tile_pos) == v && rows_ok(*o) ? o : nullptr;
}

void Emitter::EmitTileCopy(const ir::Op& load, const ir::Op& store) {
  const ir::Type& tt = load.result()->type();
  const ir::ElemType& e = tt.elem;
  llvm::Type* mt = MemTy(e);
  const int last = tt.ndim - 1;
  const int64_t width = tt.shape[last];
  const int64_t esize = int64_t(mod_.getDataLayout().getTypeAllocSize(mt));
  const uint64_t row_bytes = uint64_t(esize * width);
  // One side of the copy: its array, the axis its index tile gathers or scatters along (-1:
  // none) and the tile's offset in it.
  struct Side {
    ArrayVal a;
    int axis = -1;
    llvm::Value* index = nullptr;
    std::vector<llvm::Value*> off;
  };
  auto side = [&](const ir::Op& o) {
    Side s;
    bool indexed = ir::HasTrait(o.code(), ir::kCrossLaneIndices);
    bool is_load = !ir::HasTrait(o.code(), ir::kWritesMemory);
    s.a = GetArray(o.operand(0));
    if (indexed) {
      s.axis = int(o.axis());
      s.index = Get(o.operand(1));
    }
    int off_pos = (indexed ? 2 : 1) + (is_load ? 0 : 1);
    for (int d = 0; d < tt.ndim; ++d) {
      const ir::Value* ov = o.operand(off_pos + d);
      s.off.push_back(AsI64(Get(ov), ov->type().elem.scalar));
    }
    return s;
  };
  Side src = side(load), dst = side(store);
  // The bytes each array can reach, [lo, hi) from its extents and (non-negative) strides.
  llvm::Value* disjoint = b_.getTrue();
  llvm::Value* lo[2];
  llvm::Value* hi[2];
  for (int k = 0; k < 2; ++k) {
    const ArrayVal& a = k ? dst.a : src.a;
    lo[k] = b_.CreatePtrToInt(a.data, b_.getInt64Ty());
    hi[k] = b_.CreateAdd(lo[k], I64(esize));
    for (int d = 0; d < tt.ndim; ++d) {
      disjoint = b_.CreateAnd(disjoint, b_.CreateICmpSGE(a.strides[d], I64(0)));
      hi[k] = b_.CreateAdd(hi[k], b_.CreateMul(b_.CreateSub(a.shape[d], I64(1)), a.strides[d]));
    }
  }
  disjoint = b_.CreateAnd(disjoint, b_.CreateOr(b_.CreateICmpULE(hi[0], lo[1]), b_.CreateICmpULE(hi[1], lo[0])));
  llvm::BasicBlock* direct_bb = llvm::BasicBlock::Create(ctx_, "copy.direct", fn_);
  llvm::BasicBlock* staged_bb = llvm::BasicBlock::Create(ctx_, "copy.staged", fn_);
  llvm::BasicBlock* done_bb = llvm::BasicBlock::Create(ctx_, "copy.done", fn_);
  b_.CreateCondBr(disjoint, direct_bb, staged_bb);
  b_.SetInsertPoint(staged_bb);
  EmitTileTransfer(load);
  EmitTileTransfer(store);
  b_.CreateBr(done_bb);

  b_.SetInsertPoint(direct_bb);
  // As tile_store does: rows stored into an array larger than the caches stream past them.
  const bool can_stream = row_bytes % 16 == 0 && row_bytes >= 64;
  llvm::Value* stream = can_stream ? b_.CreateICmpUGE(b_.CreateMul(dst.a.shape[0], dst.a.strides[0]), stream_bytes_)
                                   : nullptr;
  std::vector<llvm::Value*> coord(size_t(tt.ndim));
  // Byte offset of the current row's first element in `s`'s array (leading coordinates
  // through the index tile where it has one; the last at the tile's offset), and whether its
  // leading coordinates are inside the array (`axis_at`: the coordinate along the indexed
  // axis in place of the row's own, for prefetching).
  auto row_at = [&](const Side& s, llvm::Value** ok, llvm::Value* axis_at = nullptr) {
    llvm::Value* byte_off = b_.CreateMul(s.off[size_t(last)], s.a.strides[last]);
    if (ok) *ok = b_.getTrue();
    for (int d = 0; d < last; ++d) {
      llvm::Value* local = d == s.axis && axis_at ? axis_at : coord[size_t(d)];
      if (d == s.axis)
        local = b_.CreateSExt(b_.CreateLoad(b_.getInt32Ty(), b_.CreateInBoundsGEP(b_.getInt32Ty(), s.index, {local})),
                              b_.getInt64Ty());
      llvm::Value* g = b_.CreateAdd(s.off[size_t(d)], local);
      if (ok) *ok = b_.CreateAnd(*ok, b_.CreateICmpULT(g, s.a.shape[d]));
      byte_off = b_.CreateAdd(byte_off, b_.CreateMul(g, s.a.strides[d]));
    }
    return byte_off;
  };
  auto whole = [&](const Side& s) {
    llvm::Value* extent = s.a.shape[last];
    llvm::Value* in = b_.CreateAnd(b_.CreateICmpUGE(extent, I64(width)),
                                   b_.CreateICmpULE(s.off[size_t(last)], b_.CreateSub(extent, I64(width))));
    return b_.CreateAnd(in, b_.CreateICmpEQ(s.a.strides[last], I64(esize)));
  };
  // Rows gathered through an index tile are scattered over memory: prefetch a few kilobytes
  // ahead, as the gather itself does, so that their misses overlap.
  const int64_t ahead = std::clamp<int64_t>(int64_t(4096 / row_bytes), 1, 16);
  auto prefetch_ahead = [&]() {
    if (src.axis < 0) return;
    PrefetchAhead(coord[size_t(src.axis)], tt.shape[src.axis], ahead, [&](llvm::Value* r) {
      PrefetchLines(b_.CreateGEP(b_.getInt8Ty(), src.a.data, {row_at(src, nullptr, r)}), row_bytes, /*write=*/false);
    });
  };
  auto row = [&]() {
    prefetch_ahead();
    llvm::Value *src_ok, *dst_ok;
    llvm::Value* from = b_.CreateGEP(b_.getInt8Ty(), src.a.data, {row_at(src, &src_ok)});
    llvm::Value* to = b_.CreateGEP(b_.getInt8Ty(), dst.a.data, {row_at(dst, &dst_ok)});
    llvm::BasicBlock* fast_bb = llvm::BasicBlock::Create(ctx_, "copy.row", fn_);
    llvm::BasicBlock* test_bb = llvm::BasicBlock::Create(ctx_, "copy.test", fn_);
    llvm::BasicBlock* slow_bb = llvm::BasicBlock::Create(ctx_, "copy.slow", fn_);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx_, "copy.join", fn_);
    b_.CreateCondBr(b_.CreateAnd(b_.CreateAnd(src_ok, whole(src)), b_.CreateAnd(dst_ok, whole(dst))), fast_bb, test_bb);
    b_.SetInsertPoint(fast_bb);
    if (can_stream) StreamRow(to, from, row_bytes, stream, llvm::Align(1));
    else b_.CreateMemCpy(to, llvm::MaybeAlign(1), from, llvm::MaybeAlign(1), row_bytes);
    b_.CreateBr(join);

    // A row partly outside either array, or strided: element by element, zero where the source
    // is outside, nothing where the destination is.
    b_.SetInsertPoint(test_bb);
    b_.CreateCondBr(dst_ok, slow_bb, join);
    b_.SetInsertPoint(slow_bb);
    EmitCountedLoop(I64(width), [&](llvm::Value* j) {
      llvm::Value* gs = b_.CreateAdd(src.off[size_t(last)], j);
      llvm::Value* gd = b_.CreateAdd(dst.off[size_t(last)], j);
      llvm::Value* in_src = b_.CreateAnd(src_ok, b_.CreateICmpULT(gs, src.a.shape[last]));
      llvm::BasicBlock* pre = b_.GetInsertBlock();
      llvm::BasicBlock* read_bb = llvm::BasicBlock::Create(ctx_, "copy.read", fn_);
      llvm::BasicBlock* write_bb = llvm::BasicBlock::Create(ctx_, "copy.write", fn_);
      llvm::BasicBlock* next_bb = llvm::BasicBlock::Create(ctx_, "copy.next", fn_);
      b_.CreateCondBr(in_src, read_bb, write_bb);
      b_.SetInsertPoint(read_bb);
      llvm::Value* v = b_.CreateLoad(mt, b_.CreateGEP(b_.getInt8Ty(), from, {b_.CreateMul(j, src.a.strides[last])}));
      b_.CreateBr(write_bb);
      b_.SetInsertPoint(write_bb);
      llvm::PHINode* x = b_.CreatePHI(mt, 2);
      x->addIncoming(llvm::Constant::getNullValue(mt), pre);
      x->addIncoming(v, read_bb);
      llvm::BasicBlock* store_bb = llvm::BasicBlock::Create(ctx_, "copy.store", fn_);
      b_.CreateCondBr(b_.CreateICmpULT(gd, dst.a.shape[last]), store_bb, next_bb);
      b_.SetInsertPoint(store_bb);
      b_.CreateStore(x, b_.CreateGEP(b_.getInt8Ty(), to, {b_.CreateMul(j, dst.a.strides[last])}));
      b_.CreateBr(next_bb);
      b_.SetInsertPoint(next_bb);
    });
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
  };
  std::function<void(int)> nest = [&](int d) {
    if (d == last) return row();
    EmitCountedLoop(I64(tt.shape[d]), [&](llvm::Value* i) {
      coord[size_t(d)] = i;
      nest(d + 1);
    });
  };
  nest(0);
  b_.CreateBr(done_bb);
  b_.SetInsertPoint(done_bb);
}

}  // namespace tilec::codegen::bs
