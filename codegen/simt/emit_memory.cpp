// SIMT lowering of global memory. Each lane handles the tile elements it owns; addresses are
// 64-bit byte offsets from byte strides; every coordinate is checked on both sides in every
// dimension (out-of-bounds reads give zero, stores and adds are skipped and report zero).
// Scalar element accesses and atomics run on every lane, each with its own operands and its own
// previous value, as on Warp's GPU. Atomic adds whose previous values are unused may become
// reductions (target).
#include <cstddef>

#include "ir/op_cases.h"
#include "codegen/common/checked_access.h"
#include "codegen/simt/emitter.h"

#include <functional>
#include "runtime/include/tilec/abi.h"

namespace tilec::codegen::simt {

using ir::OpCode;

llvm::Value* Emitter::ElemAtomicAdd(llvm::Value* ptr, llvm::Value* v, const ir::ElemType& e, bool used) {
  if (!e.is_struct()) return target_.AtomicAdd(scalar_, ptr, v, e.scalar, used);
  // Field by field: fields of the eight atomic types are added; the others are left alone
  // and their current values reported as previous ones.
  const ir::StructDef& s = irm_.structs()[size_t(e.struct_index)];
  llvm::Value* result = used ? scalar_.Zero(e) : nullptr;
  for (size_t k = 0; k < s.fields.size(); ++k) {
    const ir::StructField& f = s.fields[k];
    llvm::Value* fptr = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), ptr, f.offset);
    llvm::Value* fv = b_.CreateExtractValue(v, {unsigned(k)});
    llvm::Value* old = nullptr;
    if (f.type.is_struct()) {
      old = ElemAtomicAdd(fptr, fv, f.type, used);
    } else if (SupportsAtomicAdd(f.type.scalar)) {
      old = target_.AtomicAdd(scalar_, fptr, fv, f.type.scalar, used);
    } else if (used) {
      llvm::LoadInst* ld = b_.CreateLoad(scalar_.MemTy(f.type), fptr);
      ld->setAtomic(llvm::AtomicOrdering::Monotonic);
      ld->setAlignment(llvm::Align(ScalarSize(f.type.scalar)));
      old = ld;
    }
    if (used) result = b_.CreateInsertValue(result, old, {unsigned(k)});
  }
  return result;
}

void Emitter::EmitArrayOp(const ir::Op& op) {
  const ir::Type& at = op.operand(0)->type();
  switch (op.code()) {
    case OpCode::ArrayDim:
      Set(op.result(), b_.CreateTrunc(arrays_.at(op.operand(0)).shape[op.dim()], b_.getInt32Ty()));
      return;
    case OpCode::ArraySlice: {
      std::vector<llvm::Value*> idx;
      for (int i = 1; i < op.num_operands(); ++i)
        idx.push_back(scalar_.AsI64(Get(op.operand(i)), op.operand(i)->type().elem.scalar));
      arrays_[op.result()] = scalar_.SliceArray(arrays_.at(op.operand(0)), op.operand(0)->type().ndim, idx);
      return;
    }
    case OpCode::ArrayView: {
      std::vector<llvm::Value*> bounds;
      for (int i = 1; i < op.num_operands(); ++i)
        bounds.push_back(scalar_.AsI64(Get(op.operand(i)), op.operand(i)->type().elem.scalar));
      arrays_[op.result()] = scalar_.ViewArray(arrays_.at(op.operand(0)), op.operand(0)->type().ndim, bounds, op.steps());
      return;
    }
    case OpCode::ArrayGrad: {
      // The grad buffer with the array's strides; without one, zero extents make every
      // bounds-checked access a no-op (ops.def).
      const ir::Value* src = op.operand(0);
      bs::ArrayVal g = arrays_.at(src);
      auto it = param_slots_.find(src);
      llvm::Value* null = llvm::ConstantPointerNull::get(b_.getPtrTy());
      llvm::Value* grad =
          it == param_slots_.end()
              ? null
              : b_.CreateLoad(b_.getPtrTy(), b_.CreateConstGEP1_64(b_.getInt8Ty(), it->second, offsetof(tilec_array, grad)),
                              "grad");
      llvm::Value* none = b_.CreateICmpEQ(grad, null);
      g.data = target_.GlobalPtr(b_, grad);
      for (int d = 0; d < src->type().ndim; ++d) g.shape[d] = b_.CreateSelect(none, I64(0), g.shape[d]);
      arrays_[op.result()] = g;
      return;
    }
    case OpCode::ArrayLoad: case OpCode::ArrayStore: case OpCode::AtomicAdd: case OpCode::AtomicRmw: break;
    TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Elementwise) TILEC_CASES(Compare)
    TILEC_CASES(Logic) TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce)
    TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape) TILEC_CASES(TileElement) TILEC_CASES(TileMemory)
    TILEC_CASES(Print) TILEC_CASES(Control) TILEC_CASES(Terminator)
      ir::op_cases::NotHandledHere(op, "SIMT array emitter");
  }
  const bs::ArrayVal& a = arrays_.at(op.operand(0));
  if (irm_.checked_access && !checking_) {
    std::vector<llvm::Value*> index, shape;
    for (int d = 0; d < at.ndim; ++d) {
      index.push_back(scalar_.AsI64(Get(op.operand(1 + d)), op.operand(1 + d)->type().elem.scalar));
      shape.push_back(a.shape[d]);
    }
    bool has_result = op.num_results() > 0;
    llvm::Value* r = CheckedAccess(
        b_, LaunchErrorPtr(b_, frame_.launch), index, shape, op.loc(),
        [&]() -> llvm::Value* {
          checking_ = true;
          EmitArrayOp(op);
          checking_ = false;
          return has_result ? Get(op.result()) : nullptr;
        },
        has_result ? scalar_.Zero(op.result()->type().elem) : nullptr);
    if (has_result) Set(op.result(), r);
    return;
  }
  llvm::Value* off = I64(0);
  for (int d = 0; d < at.ndim; ++d) {
    const ir::Value* idx = op.operand(1 + d);
    off = b_.CreateAdd(off, b_.CreateMul(scalar_.AsI64(Get(idx), idx->type().elem.scalar), a.strides[d]));
  }
  llvm::Value* ptr = b_.CreateGEP(b_.getInt8Ty(), a.data, {off});
  llvm::Type* mt = scalar_.MemTy(at.elem);
  switch (op.code()) {
    case OpCode::ArrayLoad:
      Set(op.result(), scalar_.FromMem(b_.CreateLoad(mt, ptr), at.elem));
      return;
    case OpCode::ArrayStore:
      b_.CreateStore(scalar_.ToMem(Get(op.operand(1 + at.ndim)), at.elem), ptr);
      return;
    case OpCode::AtomicAdd: {
      bool used = in_map_ || plan_->IsUsed(op.result());
      llvm::Value* old = ElemAtomicAdd(ptr, Get(op.operand(1 + at.ndim)), at.elem, used);
      Set(op.result(), old ? old : scalar_.Zero(at.elem));
      return;
    }
    case OpCode::AtomicRmw: {
      llvm::Value* v = Get(op.operand(op.num_operands() - 1));
      llvm::Value* cmp = op.rmw() == ir::AtomicKind::Cas ? Get(op.operand(1 + at.ndim)) : nullptr;
      Set(op.result(), scalar_.EmitAtomicRmw(op.rmw(), ptr, v, cmp, at.elem.scalar));
      return;
    }
    case OpCode::ArrayDim: case OpCode::ArrayGrad: case OpCode::ArraySlice: case OpCode::ArrayView:  // returned above
    TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Elementwise) TILEC_CASES(Compare)
    TILEC_CASES(Logic) TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce)
    TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape) TILEC_CASES(TileElement) TILEC_CASES(TileMemory)
    TILEC_CASES(Print) TILEC_CASES(Control) TILEC_CASES(Terminator)
      ir::op_cases::NotHandledHere(op, "SIMT array emitter");
  }
}

llvm::Value* Emitter::RepeatedLater(llvm::Value* index_tile, llvm::Type* it, llvm::Value* row, int64_t n,
                                    llvm::Value* idx) {
  llvm::Function* fn = b_.GetInsertBlock()->getParent();
  llvm::BasicBlock* entry = b_.GetInsertBlock();
  llvm::BasicBlock* cond = llvm::BasicBlock::Create(ctx_, "rep.cond", fn);
  llvm::BasicBlock* body = llvm::BasicBlock::Create(ctx_, "rep.body", fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx_, "rep.done", fn);
  llvm::Value* first = b_.CreateAdd(row, I64(1));
  b_.CreateBr(cond);
  b_.SetInsertPoint(cond);
  llvm::PHINode* j = b_.CreatePHI(b_.getInt64Ty(), 2);
  llvm::PHINode* found = b_.CreatePHI(b_.getInt1Ty(), 2);
  j->addIncoming(first, entry);
  found->addIncoming(b_.getFalse(), entry);
  b_.CreateCondBr(b_.CreateAnd(b_.CreateICmpULT(j, I64(n)), b_.CreateNot(found)), body, done);
  b_.SetInsertPoint(body);
  llvm::Value* other = b_.CreateLoad(it, b_.CreateInBoundsGEP(it, index_tile, {j}));
  j->addIncoming(b_.CreateAdd(j, I64(1)), body);
  found->addIncoming(b_.CreateICmpEQ(other, idx), body);
  b_.CreateBr(cond);
  b_.SetInsertPoint(done);
  return found;
}

// A composite element of two or four components of one 4- or 8-byte type (vec2f, vec4f,
// quatf, mat22f, vec2d, ...) moves as one vector access (ld.global.v2/v4) when its address is
// aligned to the element's size, which the array's layout does not promise; otherwise, and for
// every other element type, component by component as the struct's own load.
std::optional<llvm::FixedVectorType*> Emitter::VectorAccessType(const ir::ElemType& e) {
  if (!e.is_struct()) return std::nullopt;
  const ir::StructDef& s = irm_.structs()[e.struct_index];
  const size_t n = s.fields.size();
  if (!s.composite.valid() || (n != 2 && n != 4)) return std::nullopt;
  const ScalarType t = s.composite.scalar;
  const size_t bytes = ScalarSize(t) * n;
  if ((ScalarSize(t) != 4 && ScalarSize(t) != 8) || (bytes != 8 && bytes != 16)) return std::nullopt;
  return llvm::FixedVectorType::get(scalar_.ValTy(t), unsigned(n));
}

llvm::Value* Emitter::IfAligned(llvm::Value* ptr, uint64_t bytes, const std::function<llvm::Value*()>& vec,
                               const std::function<llvm::Value*()>& comp) {
  llvm::Function* fn = b_.GetInsertBlock()->getParent();
  llvm::BasicBlock* vec_bb = llvm::BasicBlock::Create(ctx_, "mem.vec", fn);
  llvm::BasicBlock* comp_bb = llvm::BasicBlock::Create(ctx_, "mem.comp", fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx_, "mem.done", fn);
  llvm::Value* addr = b_.CreatePtrToInt(ptr, b_.getInt64Ty());
  b_.CreateCondBr(b_.CreateICmpEQ(b_.CreateAnd(addr, I64(int64_t(bytes - 1))), I64(0)), vec_bb, comp_bb);
  auto arm = [&](llvm::BasicBlock* bb, const std::function<llvm::Value*()>& emit) {
    b_.SetInsertPoint(bb);
    llvm::Value* v = emit();
    llvm::BasicBlock* end = b_.GetInsertBlock();
    b_.CreateBr(done);
    return std::make_pair(v, end);
  };
  auto [vv, vec_end] = arm(vec_bb, vec);
  auto [cv, comp_end] = arm(comp_bb, comp);
  b_.SetInsertPoint(done);
  if (!vv) return nullptr;
  llvm::PHINode* phi = b_.CreatePHI(vv->getType(), 2, "mem.elem");
  phi->addIncoming(vv, vec_end);
  phi->addIncoming(cv, comp_end);
  return phi;
}

llvm::Value* Emitter::LoadMaybeVector(llvm::Value* gptr, const ir::ElemType& e) {
  llvm::Type* mt = scalar_.MemTy(e);
  std::optional<llvm::FixedVectorType*> vt = VectorAccessType(e);
  if (!vt) return b_.CreateLoad(mt, gptr);
  const uint64_t bytes = (*vt)->getPrimitiveSizeInBits() / 8;
  return IfAligned(
      gptr, bytes,
      [&]() -> llvm::Value* {
        llvm::LoadInst* v = b_.CreateLoad(*vt, gptr);
        v->setAlignment(llvm::Align(bytes));
        llvm::Value* whole = llvm::UndefValue::get(mt);
        for (unsigned k = 0; k < (*vt)->getNumElements(); ++k)
          whole = b_.CreateInsertValue(whole, b_.CreateExtractElement(v, k), {k});
        return whole;
      },
      [&]() -> llvm::Value* { return b_.CreateLoad(mt, gptr); });
}

void Emitter::StoreMaybeVector(llvm::Value* v, llvm::Value* gptr, const ir::ElemType& e) {
  std::optional<llvm::FixedVectorType*> vt = VectorAccessType(e);
  if (!vt) {
    b_.CreateStore(v, gptr);
    return;
  }
  const uint64_t bytes = (*vt)->getPrimitiveSizeInBits() / 8;
  IfAligned(
      gptr, bytes,
      [&]() -> llvm::Value* {
        llvm::Value* packed = llvm::UndefValue::get(*vt);
        for (unsigned k = 0; k < (*vt)->getNumElements(); ++k)
          packed = b_.CreateInsertElement(packed, b_.CreateExtractValue(v, {k}), k);
        b_.CreateStore(packed, gptr)->setAlignment(llvm::Align(bytes));
        return nullptr;
      },
      [&]() -> llvm::Value* {
        b_.CreateStore(v, gptr);
        return nullptr;
      });
}

void Emitter::EmitTileMemoryOp(const ir::Op& op) {
  const ir::Type& at = op.operand(0)->type();
  const bs::ArrayVal& a = arrays_.at(op.operand(0));
  // The six tile memory ops differ in what ops.def says of them: indexed or not, and whether
  // they read, write, or both (an atomic add).
  bool indexed = ir::HasTrait(op.code(), ir::kCrossLaneIndices);
  bool is_store = ir::HasTrait(op.code(), ir::kWritesMemory) && !ir::HasTrait(op.code(), ir::kReadsMemory);
  bool is_load = !ir::HasTrait(op.code(), ir::kWritesMemory);
  bool is_atomic = !is_load && !is_store;
  int tile_pos = is_load ? -1 : indexed ? 2 : 1;
  int off_pos = is_load ? (indexed ? 2 : 1) : tile_pos + 1;
  int axis = indexed ? int(op.axis()) : -1;
  const ir::Type& tt = is_load ? op.result()->type() : op.operand(tile_pos)->type();
  const ir::ElemType& e = tt.elem;
  const ir::Value* src = is_load ? nullptr : op.operand(tile_pos);
  llvm::Value* index_tile = indexed ? CrossLanePtr(op.operand(1)) : nullptr;
  const ir::ElemType& index_elem = indexed ? op.operand(1)->type().elem : e;
  std::vector<llvm::Value*> offsets;
  for (int d = 0; d < at.ndim; ++d) {
    const ir::Value* o = op.operand(off_pos + d);
    offsets.push_back(scalar_.AsI64(Get(o), o->type().elem.scalar));
  }
  bool used = is_load || (is_atomic && plan_->IsUsed(op.result()));
  TileRep dst;
  if (!is_store && used) dst = NewTile(op.result());
  llvm::Function* fn = b_.GetInsertBlock()->getParent();

  bool ordered = is_atomic && fn_->deterministic;
  if (ordered) AwaitTurn();
  (this->*(ordered ? &Emitter::ForEachElemInOrder : &Emitter::ForEachElem))(tt, [&](llvm::Value* slot, llvm::Value* lin) {
    llvm::Value* inb = b_.getTrue();
    llvm::Value* byte_off = I64(0);
    for (int d = 0; d < at.ndim; ++d) {
      llvm::Value* local = Coord(tt, lin, d);
      if (d == axis) {
        llvm::Type* it = scalar_.MemTy(index_elem);
        llvm::Value* idx = b_.CreateLoad(it, b_.CreateInBoundsGEP(it, index_tile, {local}));
        // Lanes store at once, so a repeated index would land in any order: the element last in
        // row-major order is the one that stores, as the CPU's in-order loop leaves it.
        if (is_store) inb = b_.CreateAnd(inb, b_.CreateNot(RepeatedLater(index_tile, it, local, tt.shape[d], idx)));
        local = scalar_.AsI64(idx, index_elem.scalar);
      }
      llvm::Value* g = b_.CreateAdd(offsets[size_t(d)], local);
      // One unsigned compare checks both sides: a negative coordinate wraps above the extent.
      inb = b_.CreateAnd(inb, b_.CreateICmpULT(g, a.shape[d]));
      byte_off = b_.CreateAdd(byte_off, b_.CreateMul(g, a.strides[d]));
    }
    llvm::BasicBlock* in_bb = llvm::BasicBlock::Create(ctx_, "mem.in", fn);
    llvm::BasicBlock* out_bb = dst.ptr ? llvm::BasicBlock::Create(ctx_, "mem.out", fn) : nullptr;
    llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx_, "mem.join", fn);
    b_.CreateCondBr(inb, in_bb, out_bb ? out_bb : join);
    b_.SetInsertPoint(in_bb);
    llvm::Value* gptr = b_.CreateGEP(b_.getInt8Ty(), a.data, {byte_off});
    if (is_load) {
      StoreElem(dst, e, slot, lin, scalar_.FromMem(LoadMaybeVector(gptr, e), e));
    } else if (is_store) {
      StoreMaybeVector(scalar_.ToMem(LoadElem(src, slot, lin), e), gptr, e);
    } else {
      llvm::Value* old = ElemAtomicAdd(gptr, LoadElem(src, slot, lin), e, used);
      if (dst.ptr) StoreElem(dst, e, slot, lin, old);
    }
    b_.CreateBr(join);
    if (out_bb) {
      b_.SetInsertPoint(out_bb);
      StoreElem(dst, e, slot, lin, scalar_.Zero(e));
      b_.CreateBr(join);
    }
    b_.SetInsertPoint(join);
  });
  if (!is_store) tiles_[op.result()] = dst.ptr ? dst : NewTile(op.result());
}

}  // namespace tilec::codegen::simt
