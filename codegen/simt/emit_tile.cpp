// SIMT lowering of tile values: the lane-to-element mapping (lane L mod B, slot L div B),
// register slots and shared regions, shared copies for cross-lane reads, elementwise ops,
// construction, tile_map, reductions and scans (every lane combines from the shared copy in
// row-major order, the same order as the CPU, so results agree bit for bit), shape ops,
// element reads, the per-lane scatter into a tile, and print.
#include "ir/op_cases.h"
#include "codegen/common/checked_access.h"
#include "codegen/common/print_layout.h"
#include "codegen/simt/emitter.h"

namespace tilec::codegen::simt {

using ir::OpCode;

int Emitter::Slots(const ir::Type& t) const {
  int64_t n = t.NumElements();
  return int((n + B_ - 1) / B_);
}

void Emitter::ForEachElemInOrder(const ir::Type& t, const std::function<void(llvm::Value*, llvm::Value*)>& body) {
  const int64_t n = t.NumElements();
  llvm::Function* fn = b_.GetInsertBlock()->getParent();
  for (int s = 0; s < Slots(t); ++s)  // slot numbers stay constants, as ForEachElem keeps them
    Loop(I64(0), I64(B_), [&](llvm::Value* l) {
      llvm::Value* lin = b_.CreateAdd(l, I64(int64_t(s) * B_), "lin");
      llvm::BasicBlock* mine = llvm::BasicBlock::Create(ctx_, "ordered.mine", fn);
      llvm::BasicBlock* next = llvm::BasicBlock::Create(ctx_, "ordered.next", fn);
      b_.CreateCondBr(b_.CreateAnd(b_.CreateICmpEQ(l, lane_), b_.CreateICmpULT(lin, I64(n))), mine, next);
      b_.SetInsertPoint(mine);
      body(I64(s), lin);
      b_.CreateBr(next);
      b_.SetInsertPoint(next);
      target_.Barrier(b_);
    });
}

void Emitter::ForEachElem(const ir::Type& t, const std::function<void(llvm::Value*, llvm::Value*)>& body) {
  const int64_t n = t.NumElements();
  const int slots = Slots(t);
  const bool exact = n % B_ == 0;
  llvm::Function* fn = b_.GetInsertBlock()->getParent();
  auto guarded = [&](llvm::Value* slot, llvm::Value* lin, bool check) {
    if (!check) {
      body(slot, lin);
      return;
    }
    llvm::BasicBlock* in_bb = llvm::BasicBlock::Create(ctx_, "elem", fn);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx_, "elem.end", fn);
    b_.CreateCondBr(b_.CreateICmpULT(lin, I64(n)), in_bb, join);
    b_.SetInsertPoint(in_bb);
    body(slot, lin);
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
  };
  if (fused_) {
    for (int j = 0; j < fused_->per_chunk; ++j)
      guarded(I64(j), b_.CreateAdd(fused_base_, I64(int64_t(j) * fused_stride_), "lin"), fused_check_);
    return;
  }
  if (slots <= 16) {
    // Unrolled: constant slot numbers let SROA keep register tiles in registers.
    for (int s = 0; s < slots; ++s) {
      llvm::Value* lin = b_.CreateAdd(lane_, I64(int64_t(s) * B_), "lin");
      guarded(I64(s), lin, !exact && s == slots - 1);
    }
    return;
  }
  Loop(I64(0), I64(slots), [&](llvm::Value* s) {
    llvm::Value* lin = b_.CreateAdd(lane_, b_.CreateMul(s, I64(B_)), "lin");
    guarded(s, lin, !exact);
  });
}

llvm::Value* Emitter::SharedPtr(uint32_t offset) {
  return b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), target_.SharedBase(), offset);
}

TileRep Emitter::NewTile(const ir::Value* v) {
  const ir::Type& t = v->type();
  int prim = plan_->Primary(v);
  if (prim >= 0 && !in_map_) return TileRep{SharedPtr(plan_->slot(prim).offset), true, nullptr};
  // Inside a run's loop a register tile holds the chunk's slots only.
  const int64_t slots = fused_ && fused_->internal.count(v) ? fused_->per_chunk : Slots(t);
  auto* arr = llvm::ArrayType::get(scalar_.MemTy(t.elem), uint64_t(slots));
  return TileRep{EntryAlloca(arr, "tile"), false, nullptr};
}

llvm::Value* Emitter::ElemPtr(const TileRep& r, const ir::ElemType& e, llvm::Value* slot, llvm::Value* lin) {
  return b_.CreateInBoundsGEP(scalar_.MemTy(e), r.ptr, {r.shared ? lin : slot});
}

llvm::Value* Emitter::LoadElem(const ir::Value* tile, llvm::Value* slot, llvm::Value* lin) {
  const ir::ElemType& e = tile->type().elem;
  llvm::Value* p = ElemPtr(tiles_.at(tile), e, slot, lin);
  return scalar_.FromMem(b_.CreateLoad(scalar_.MemTy(e), p), e);
}

void Emitter::StoreElem(const TileRep& r, const ir::ElemType& e, llvm::Value* slot, llvm::Value* lin, llvm::Value* v) {
  b_.CreateStore(scalar_.ToMem(v, e), ElemPtr(r, e, slot, lin));
}

llvm::Value* Emitter::CrossLanePtr(const ir::Value* tile) {
  const TileRep& r = tiles_.at(tile);
  return r.shared ? r.ptr : r.copy;
}

void Emitter::WriteCopy(const ir::Value* v) {
  int idx = plan_->Copy(v);
  if (idx < 0) return;
  if (plan_->BarrierBeforeCopy(v)) target_.Barrier(b_);
  TileRep& r = tiles_.at(v);
  llvm::Value* dst = SharedPtr(plan_->slot(idx).offset);
  const ir::ElemType& e = v->type().elem;
  ForEachElem(v->type(), [&](llvm::Value* slot, llvm::Value* lin) {
    b_.CreateStore(b_.CreateLoad(scalar_.MemTy(e), ElemPtr(r, e, slot, lin)),
                   b_.CreateInBoundsGEP(scalar_.MemTy(e), dst, {lin}));
  });
  tiles_.at(v).copy = dst;
}

void Emitter::CopyToRegister(const ir::Value* src, llvm::Value* slot_array) {
  const ir::ElemType& e = src->type().elem;
  const TileRep& r = tiles_.at(src);
  ForEachElem(src->type(), [&](llvm::Value* slot, llvm::Value* lin) {
    b_.CreateStore(b_.CreateLoad(scalar_.MemTy(e), ElemPtr(r, e, slot, lin)),
                   b_.CreateInBoundsGEP(scalar_.MemTy(e), slot_array, {slot}));
  });
}

llvm::Value* Emitter::Coord(const ir::Type& t, llvm::Value* lin, int d) {
  int64_t stride = 1;
  for (int k = d + 1; k < t.ndim; ++k) stride *= t.shape[k];
  llvm::Value* q = stride == 1 ? lin : b_.CreateUDiv(lin, I64(stride));
  return d == 0 ? q : b_.CreateURem(q, I64(t.shape[d]));
}

void Emitter::EmitElementwise(const ir::Op& op) {
  const ir::Type& rt = op.result()->type();
  ScalarType in = op.operand(0)->type().elem.scalar;
  ScalarType out = rt.elem.scalar;
  if (!rt.is_tile()) {
    std::vector<llvm::Value*> args;
    for (const ir::Value* v : op.operands()) args.push_back(Get(v));
    Set(op.result(), scalar_.EmitScalarElementwise(op.code(), in, out, args));
    return;
  }
  TileRep dst = NewTile(op.result());
  ForEachElem(rt, [&](llvm::Value* slot, llvm::Value* lin) {
    std::vector<llvm::Value*> args;
    for (const ir::Value* v : op.operands())
      args.push_back(v->type().is_tile() ? LoadElem(v, slot, lin) : Get(v));
    StoreElem(dst, rt.elem, slot, lin, scalar_.EmitScalarElementwise(op.code(), in, out, args));
  });
  tiles_[op.result()] = dst;
}

void Emitter::EmitTileOp(const ir::Op& op) {
  const ir::Type& rt = op.result()->type();
  switch (op.code()) {
    case OpCode::TileScatterLanes: EmitScatterLanes(op); return;
    case OpCode::TileFull: {
      TileRep dst = NewTile(op.result());
      llvm::Value* v = Get(op.operand(0));
      ForEachElem(rt, [&](llvm::Value* slot, llvm::Value* lin) { StoreElem(dst, rt.elem, slot, lin, v); });
      tiles_[op.result()] = dst;
      return;
    }
    case OpCode::TileArange: {
      ScalarType s = rt.elem.scalar;
      TileRep dst = NewTile(op.result());
      ForEachElem(rt, [&](llvm::Value* slot, llvm::Value* lin) {
        llvm::Value* v;
        if (IsFloat(s)) {
          llvm::Type* ft = s == ScalarType::Float64 ? b_.getDoubleTy() : b_.getFloatTy();
          llvm::Value* fi = b_.CreateUIToFP(lin, ft);
          v = b_.CreateFAdd(llvm::ConstantFP::get(ft, op.start().f), b_.CreateFMul(fi, llvm::ConstantFP::get(ft, op.step().f)));
          v = scalar_.FromF32(v, s);
        } else {
          v = b_.CreateAdd(I64(op.start().i), b_.CreateMul(lin, I64(op.step().i)));
          v = b_.CreateTrunc(v, scalar_.ValTy(s));
        }
        StoreElem(dst, rt.elem, slot, lin, v);
      });
      tiles_[op.result()] = dst;
      return;
    }
    case OpCode::TileMap: {
      const ir::Block& body = *op.region(0);
      TileRep dst = NewTile(op.result());
      ForEachElem(rt, [&](llvm::Value* slot, llvm::Value* lin) {
        for (int k = 0; k < op.num_operands(); ++k) Set(body.arg(k), LoadElem(op.operand(k), slot, lin));
        bool saved = in_map_;
        in_map_ = true;
        EmitBlock(body);
        in_map_ = saved;
        StoreElem(dst, rt.elem, slot, lin, Get(body.terminator()->operand(0)));
      });
      tiles_[op.result()] = dst;
      return;
    }
    case OpCode::TileSum: {
      // As the CPU lowering: the fold in the shared order, then 0.0 + fold.
      const ir::Type& in = op.operand(0)->type();
      const ScalarType s = in.elem.scalar, acc_s = bs::Emitter::AccType(s);
      llvm::Value* src = CrossLanePtr(op.operand(0));
      llvm::Type* mt = scalar_.MemTy(in.elem);
      llvm::Value* partials = EntryAlloca(scalar_.FoldType(acc_s), "partials", 64);
      llvm::Value* total = scalar_.FoldInOrder(ir::ReduceKind::Add, in.elem, in.NumElements(), 1, partials,
                                               [&](llvm::Value* k) { return b_.CreateInBoundsGEP(mt, src, {k}); });
      if (IsFloat(acc_s)) total = b_.CreateFAdd(llvm::ConstantFP::get(scalar_.ValTy(acc_s), 0.0), total);
      total = scalar_.FromF32(total, s);
      TileRep dst = NewTile(op.result());
      ForEachElem(rt, [&](llvm::Value* slot, llvm::Value* lin) { StoreElem(dst, rt.elem, slot, lin, total); });
      tiles_[op.result()] = dst;
      return;
    }
    case OpCode::TileInsert: {
      // A copy of the tile whose element (i...) is v: the owner lane substitutes it.
      const ir::Type& tt = op.operand(0)->type();
      llvm::Value* at = I64(0);
      llvm::Value* inb = b_.getTrue();
      for (int d = 0; d < tt.ndim; ++d) {
        llvm::Value* c = scalar_.AsI64(Get(op.operand(d + 2)), op.operand(d + 2)->type().elem.scalar);
        inb = b_.CreateAnd(inb, b_.CreateICmpULT(c, I64(tt.shape[d])));
        at = b_.CreateAdd(b_.CreateMul(at, I64(tt.shape[d])), c);
      }
      llvm::Value* v = Get(op.operand(1));
      TileRep dst = NewTile(op.result());
      ForEachElem(rt, [&](llvm::Value* slot, llvm::Value* lin) {
        llvm::Value* hit = b_.CreateAnd(inb, b_.CreateICmpEQ(lin, at));
        StoreElem(dst, rt.elem, slot, lin, b_.CreateSelect(hit, v, LoadElem(op.operand(0), slot, lin)));
      });
      tiles_[op.result()] = dst;
      return;
    }
    case OpCode::TileExtract: {
      const ir::Type& tt = op.operand(0)->type();
      llvm::Value* lin = I64(0);
      llvm::Value* inb = b_.getTrue();
      std::vector<llvm::Value*> index, shape;
      for (int d = 0; d < tt.ndim; ++d) {
        llvm::Value* c = scalar_.AsI64(Get(op.operand(d + 1)), op.operand(d + 1)->type().elem.scalar);
        inb = b_.CreateAnd(inb, b_.CreateICmpULT(c, I64(tt.shape[d])));
        lin = b_.CreateAdd(b_.CreateMul(lin, I64(tt.shape[d])), c);
        index.push_back(c);
        shape.push_back(I64(tt.shape[d]));
      }
      // Debug mode reports a read outside the tile, as it does one outside an array.
      if (irm_.checked_access)
        CheckedAccess(b_, LaunchErrorPtr(b_, frame_.launch), index, shape, op.loc(), [] { return nullptr; }, nullptr,
                      /*of_tile=*/true);
      lin = b_.CreateSelect(inb, lin, I64(0));
      llvm::Type* mt = scalar_.MemTy(tt.elem);
      llvm::Value* v = scalar_.FromMem(b_.CreateLoad(mt, b_.CreateInBoundsGEP(mt, CrossLanePtr(op.operand(0)), {lin})), tt.elem);
      Set(op.result(), b_.CreateSelect(inb, v, scalar_.Zero(tt.elem)));
      return;
    }
    case OpCode::TileView: {
      // Each lane reads its elements from the shared copy of the source.
      const ir::Type& tt = op.operand(0)->type();
      std::vector<llvm::Value*> offs = scalar_.RegionOffsets(op, 1, [&](const ir::Value* v) { return Get(v); });
      llvm::Value* src = CrossLanePtr(op.operand(0));
      llvm::Type* mt = scalar_.MemTy(tt.elem);
      TileRep dst = NewTile(op.result());
      ForEachElem(rt, [&](llvm::Value* slot, llvm::Value* lin) {
        std::vector<llvm::Value*> coords;
        for (int d = 0; d < rt.ndim; ++d) coords.push_back(Coord(rt, lin, d));
        llvm::Value* inb;
        llvm::Value* at = scalar_.RegionIndex(tt, op.steps(), offs, coords, &inb);
        llvm::Value* v = scalar_.FromMem(b_.CreateLoad(mt, b_.CreateInBoundsGEP(mt, src, {at})), tt.elem);
        StoreElem(dst, rt.elem, slot, lin, b_.CreateSelect(inb, v, scalar_.Zero(tt.elem)));
      });
      tiles_[op.result()] = dst;
      return;
    }
    case OpCode::TileAssign: {
      // Each lane keeps its destination elements or, inside the region, takes the source
      // element that lands there.
      const ir::Type& st = op.operand(1)->type();
      std::vector<llvm::Value*> offs = scalar_.RegionOffsets(op, 2, [&](const ir::Value* v) { return Get(v); });
      llvm::Value* src = CrossLanePtr(op.operand(1));
      llvm::Type* mt = scalar_.MemTy(st.elem);
      TileRep dst = NewTile(op.result());
      ForEachElem(rt, [&](llvm::Value* slot, llvm::Value* lin) {
        std::vector<llvm::Value*> coords;
        for (int d = 0; d < rt.ndim; ++d) coords.push_back(Coord(rt, lin, d));
        llvm::Value* hit;
        llvm::Value* from = scalar_.RegionInverse(rt, st, op.steps(), offs, coords, &hit);
        llvm::Value* v = scalar_.FromMem(b_.CreateLoad(mt, b_.CreateInBoundsGEP(mt, src, {from})), st.elem);
        StoreElem(dst, rt.elem, slot, lin, b_.CreateSelect(hit, v, LoadElem(op.operand(0), slot, lin)));
      });
      tiles_[op.result()] = dst;
      return;
    }
    case OpCode::TileGather: {
      const ir::Type& tt = op.operand(0)->type();
      const ir::Type& it = op.operand(1)->type();
      const int axis = int(op.axis());
      llvm::Value* src = CrossLanePtr(op.operand(0));
      llvm::Value* idx = CrossLanePtr(op.operand(1));
      llvm::Type* mt = scalar_.MemTy(tt.elem);
      llvm::Type* it_mt = scalar_.MemTy(it.elem);
      TileRep dst = NewTile(op.result());
      ForEachElem(rt, [&](llvm::Value* slot, llvm::Value* lin) {
        std::vector<llvm::Value*> coords;
        for (int d = 0; d < rt.ndim; ++d) coords.push_back(Coord(rt, lin, d));
        llvm::Value* k = scalar_.FromMem(b_.CreateLoad(it_mt, b_.CreateInBoundsGEP(it_mt, idx, {coords[size_t(axis)]})), it.elem);
        llvm::Value* at = scalar_.WrapIndex(k, it.elem.scalar, tt.shape[axis]);
        llvm::Value* inb = b_.CreateICmpULT(at, I64(tt.shape[axis]));
        llvm::Value* from = b_.CreateSelect(inb, scalar_.WithCoord(tt, coords, axis, at), I64(0));
        llvm::Value* v = scalar_.FromMem(b_.CreateLoad(mt, b_.CreateInBoundsGEP(mt, src, {from})), tt.elem);
        StoreElem(dst, rt.elem, slot, lin, b_.CreateSelect(inb, v, scalar_.Zero(tt.elem)));
      });
      tiles_[op.result()] = dst;
      return;
    }
    case OpCode::TileScatterAdd: {
      // The block-serial order: per destination element, the matching source slices in index
      // order; scalars add in AccType, structs field by field.
      const ir::Type& it = op.operand(1)->type();
      const ir::Type& st = op.operand(2)->type();
      const int axis = int(op.axis());
      const bool whole = rt.elem.is_struct();
      const ScalarType s = rt.elem.scalar, acc_s = bs::Emitter::AccType(s);
      llvm::Value* idx = CrossLanePtr(op.operand(1));
      llvm::Value* src = CrossLanePtr(op.operand(2));
      llvm::Type* it_mt = scalar_.MemTy(it.elem);
      llvm::Type* st_mt = scalar_.MemTy(st.elem);
      llvm::Type* acc_ty = whole ? scalar_.MemTy(rt.elem) : scalar_.ValTy(acc_s);
      llvm::Value* acc = EntryAlloca(acc_ty, "acc", 8);
      auto widen = [&](llvm::Value* v) { return whole ? v : scalar_.ToF32(v, s); };
      TileRep dst = NewTile(op.result());
      ForEachElem(rt, [&](llvm::Value* slot, llvm::Value* lin) {
        std::vector<llvm::Value*> coords;
        for (int d = 0; d < rt.ndim; ++d) coords.push_back(Coord(rt, lin, d));
        b_.CreateStore(widen(LoadElem(op.operand(0), slot, lin)), acc);
        Loop(I64(0), I64(it.shape[0]), [&](llvm::Value* k) {
          llvm::Value* at = scalar_.WrapIndex(
              scalar_.FromMem(b_.CreateLoad(it_mt, b_.CreateInBoundsGEP(it_mt, idx, {k})), it.elem), it.elem.scalar,
              rt.shape[axis]);
          llvm::Value* x = widen(scalar_.FromMem(
              b_.CreateLoad(st_mt, b_.CreateInBoundsGEP(st_mt, src, {scalar_.WithCoord(st, coords, axis, k)})), st.elem));
          llvm::Value* cur = b_.CreateLoad(acc_ty, acc);
          llvm::Value* sum = whole ? scalar_.AddElems(rt.elem, cur, x) : scalar_.Combine(ir::ReduceKind::Add, acc_s, cur, x);
          b_.CreateStore(b_.CreateSelect(b_.CreateICmpEQ(at, coords[size_t(axis)]), sum, cur), acc);
        });
        llvm::Value* total = b_.CreateLoad(acc_ty, acc);
        StoreElem(dst, rt.elem, slot, lin, whole ? total : scalar_.FromF32(total, s));
      });
      tiles_[op.result()] = dst;
      return;
    }
    case OpCode::TileMatmul: {
      if (plan_->MmaScratch(&op) >= 0) return EmitMatmulMma(op);
      // Each lane computes its own elements from the shared copies of a and b.
      llvm::Value* a = CrossLanePtr(op.operand(0));
      llvm::Value* bm = CrossLanePtr(op.operand(1));
      llvm::Value* acc = EntryAlloca(scalar_.ValTy(bs::Emitter::AccType(rt.elem.scalar)), "acc", 8);
      TileRep dst = NewTile(op.result());
      ForEachElem(rt, [&](llvm::Value* slot, llvm::Value* lin) {
        llvm::Value* r = scalar_.MatmulElement(op, a, bm, LoadElem(op.operand(2), slot, lin), Coord(rt, lin, 0),
                                               Coord(rt, lin, 1), acc);
        StoreElem(dst, rt.elem, slot, lin, r);
      });
      tiles_[op.result()] = dst;
      return;
    }
    case OpCode::TileTril: {
      // Elementwise by position: each lane masks the elements it owns.
      TileRep dst = NewTile(op.result());
      ForEachElem(rt, [&](llvm::Value* slot, llvm::Value* lin) {
        llvm::Value* row = Coord(rt, lin, 0);
        llvm::Value* col = Coord(rt, lin, 1);
        llvm::Value* keep = op.inclusive() ? b_.CreateICmpULE(col, row) : b_.CreateICmpULT(col, row);
        StoreElem(dst, rt.elem, slot, lin, b_.CreateSelect(keep, LoadElem(op.operand(0), slot, lin), scalar_.Zero(rt.elem)));
      });
      tiles_[op.result()] = dst;
      return;
    }
    case OpCode::TileDiagAdd: case OpCode::TileCholesky: case OpCode::TileLowerSolve: case OpCode::TileUpperSolve: {
      // Lane 0 computes the whole result from the shared copies in the CPU's order; the
      // plan's barrier (kCrossLaneResults) follows before any lane reads it.
      std::vector<llvm::Value*> in;
      for (const ir::Value* v : op.operands()) in.push_back(CrossLanePtr(v));
      TileRep dst = NewTile(op.result());
      if (!dst.shared) ir::op_cases::NotHandledHere(op, "SIMT tile emitter (linear algebra needs a shared result)");
      llvm::Value* acc = EntryAlloca(scalar_.ValTy(bs::Emitter::AccType(rt.elem.scalar)), "acc", 8);
      llvm::Function* fn = b_.GetInsertBlock()->getParent();
      llvm::BasicBlock* body = llvm::BasicBlock::Create(b_.getContext(), "linalg.lane0", fn);
      llvm::BasicBlock* done = llvm::BasicBlock::Create(b_.getContext(), "linalg.done", fn);
      b_.CreateCondBr(b_.CreateICmpEQ(lane_, llvm::ConstantInt::get(lane_->getType(), 0)), body, done);
      b_.SetInsertPoint(body);
      scalar_.EmitLinalg(op, in, dst.ptr, acc);
      b_.CreateBr(done);
      b_.SetInsertPoint(done);
      tiles_[op.result()] = dst;
      return;
    }
    case OpCode::TileFft: {
      // The lanes share each pass's butterflies, reading the shared copies and writing the
      // shared results at any element; the plan's barrier follows the last pass.
      std::vector<llvm::Value*> in{CrossLanePtr(op.operand(0)), CrossLanePtr(op.operand(1))};
      TileRep re = NewTile(op.result(0));
      TileRep im = NewTile(op.result(1));
      if (!re.shared || !im.shared) ir::op_cases::NotHandledHere(op, "SIMT tile emitter (tile_fft needs shared results)");
      scalar_.EmitFft(op, in, {re.ptr, im.ptr}, lane_, B_, [&] { if (B_ > 1) target_.Barrier(b_); });
      tiles_[op.result(0)] = re;
      tiles_[op.result(1)] = im;
      return;
    }
    case OpCode::TileSort: {
      // Each lane ranks its own keys against the shared copy and writes them, with their
      // values, at their ranks in the shared results (the plan's barrier follows).
      const ir::Type& kt = op.operand(0)->type();
      const ir::Type& vt = op.operand(1)->type();
      const int64_t n = kt.NumElements();
      llvm::Value* keys = CrossLanePtr(op.operand(0));
      llvm::Type* kmt = scalar_.MemTy(kt.elem);
      llvm::Type* vmt = scalar_.MemTy(vt.elem);
      TileRep out_k = NewTile(op.result(0));
      TileRep out_v = NewTile(op.result(1));
      if (!out_k.shared || !out_v.shared) ir::op_cases::NotHandledHere(op, "SIMT tile emitter (tile_sort needs shared results)");
      llvm::Value* count = EntryAlloca(b_.getInt64Ty(), "rank", 8);
      ForEachElem(kt, [&](llvm::Value* slot, llvm::Value* lin) {
        llvm::Value* kraw = b_.CreateLoad(kmt, b_.CreateInBoundsGEP(kmt, keys, {lin}));
        llvm::Value* r = scalar_.SortRank(keys, kt.elem, n, lin, scalar_.FromMem(kraw, kt.elem), count);
        b_.CreateStore(kraw, b_.CreateInBoundsGEP(kmt, out_k.ptr, {r}));
        llvm::Value* v = b_.CreateLoad(vmt, ElemPtr(tiles_.at(op.operand(1)), vt.elem, slot, lin));
        b_.CreateStore(v, b_.CreateInBoundsGEP(vmt, out_v.ptr, {r}));
      });
      tiles_[op.result(0)] = out_k;
      tiles_[op.result(1)] = out_v;
      return;
    }
    case OpCode::TileReduce: EmitReduce(op); return;
    case OpCode::TileScan: EmitScan(op); return;
    case OpCode::TileBroadcast: case OpCode::TilePermute: {
      // Each lane gathers its elements from the shared copy of the input.
      const ir::Type& in = op.operand(0)->type();
      llvm::Value* src = CrossLanePtr(op.operand(0));
      llvm::Type* mt = scalar_.MemTy(rt.elem);
      const bool broadcast = op.code() == OpCode::TileBroadcast;
      TileRep dst = NewTile(op.result());
      ForEachElem(rt, [&](llvm::Value* slot, llvm::Value* lin) {
        std::vector<llvm::Value*> coords;
        for (int d = 0; d < rt.ndim; ++d) coords.push_back(Coord(rt, lin, d));
        llvm::Value* at = broadcast ? scalar_.BroadcastSourceIndex(in, rt, coords)
                                    : scalar_.PermuteSourceIndex(in, op.perm(), coords);
        b_.CreateStore(b_.CreateLoad(mt, b_.CreateInBoundsGEP(mt, src, {at})), ElemPtr(dst, rt.elem, slot, lin));
      });
      tiles_[op.result()] = dst;
      return;
    }
    case OpCode::TileReshape: {
      // Element L keeps its row-major index, hence its lane and slot: a copy within each lane.
      const TileRep& src = tiles_.at(op.operand(0));
      llvm::Type* mt = scalar_.MemTy(rt.elem);
      TileRep dst = NewTile(op.result());
      ForEachElem(rt, [&](llvm::Value* slot, llvm::Value* lin) {
        b_.CreateStore(b_.CreateLoad(mt, ElemPtr(src, rt.elem, slot, lin)), ElemPtr(dst, rt.elem, slot, lin));
      });
      tiles_[op.result()] = dst;
      return;
    }
    TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Elementwise) TILEC_CASES(Compare)
    TILEC_CASES(Logic) TILEC_CASES(Array) TILEC_CASES(Struct) TILEC_CASES(TileMemory) TILEC_CASES(Print)
    TILEC_CASES(Control) TILEC_CASES(Terminator)
      ir::op_cases::NotHandledHere(op, "SIMT tile emitter");
  }
}

// Every lane folds, for each result element it owns, the inputs from the shared copy in the
// order the CPU lowering uses (bs::Emitter::FoldInOrder), so both round identically.
void Emitter::EmitReduce(const ir::Op& op) {
  const ir::Type& in = op.operand(0)->type();
  const ir::Type& rt = op.result()->type();
  const ScalarType s = in.elem.scalar, acc_s = bs::Emitter::AccType(s);
  const int axis = bs::Emitter::ReduceAxis(op);
  const int64_t n = axis < 0 ? in.NumElements() : in.shape[axis];
  llvm::Value* src = CrossLanePtr(op.operand(0));
  llvm::Type* mt = scalar_.MemTy(in.elem);
  llvm::Value* partials = EntryAlloca(scalar_.FoldType(acc_s), "partials", 64);
  TileRep dst = NewTile(op.result());
  ForEachElem(rt, [&](llvm::Value* slot, llvm::Value* lin) {
    std::vector<llvm::Value*> coords;
    if (axis >= 0)
      for (int d = 0; d < rt.ndim; ++d) coords.push_back(Coord(rt, lin, d));
    llvm::Value* r = scalar_.FoldInOrder(op.kind(), in.elem, n, bs::Emitter::ReduceStride(in, axis), partials,
                                         [&](llvm::Value* k) {
                                           llvm::Value* at = axis < 0 ? k : scalar_.ReduceSourceIndex(in, axis, coords, k);
                                           return b_.CreateInBoundsGEP(mt, src, {at});
                                         });
    StoreElem(dst, rt.elem, slot, lin, scalar_.FromF32(r, s));
  });
  tiles_[op.result()] = dst;
}

// The block-serial running combination, element by element in row-major order. A lane's
// elements come in increasing order, so it carries the running value from one to the next and
// reads each input element once.
void Emitter::EmitScan(const ir::Op& op) {
  const ir::Type& rt = op.result()->type();
  const ScalarType s = rt.elem.scalar, acc_s = bs::Emitter::AccType(s);
  llvm::Value* src = CrossLanePtr(op.operand(0));
  llvm::Type* mt = scalar_.MemTy(rt.elem);
  llvm::Type* acc_ty = scalar_.ValTy(acc_s);
  llvm::Value* acc = EntryAlloca(acc_ty, "acc", 8);
  llvm::Value* next_in = EntryAlloca(b_.getInt64Ty(), "scan.pos", 8);
  b_.CreateStore(scalar_.ReduceIdentity(op.kind(), acc_s), acc);
  b_.CreateStore(I64(0), next_in);
  TileRep dst = NewTile(op.result());
  ForEachElem(rt, [&](llvm::Value* slot, llvm::Value* lin) {
    // Inclusive: inputs up to and including this element; exclusive: those before it.
    llvm::Value* end = op.inclusive() ? b_.CreateAdd(lin, I64(1)) : lin;
    Loop(b_.CreateLoad(b_.getInt64Ty(), next_in), end, [&](llvm::Value* i) {
      llvm::Value* x = scalar_.ToF32(scalar_.FromMem(b_.CreateLoad(mt, b_.CreateInBoundsGEP(mt, src, {i})), rt.elem), s);
      llvm::Value* cur = b_.CreateLoad(acc_ty, acc);
      b_.CreateStore(b_.CreateSelect(b_.CreateICmpEQ(i, I64(0)), x, scalar_.Combine(op.kind(), acc_s, cur, x)), acc);
    });
    b_.CreateStore(end, next_in);
    StoreElem(dst, rt.elem, slot, lin, scalar_.FromF32(b_.CreateLoad(acc_ty, acc), s));
  });
  tiles_[op.result()] = dst;
}


llvm::Value* Emitter::ElemAdd(llvm::Value* a, llvm::Value* b, const ir::ElemType& e) {
  if (e.is_struct()) {
    // The fields an atomic add would add (bs::Emitter::EmitElemAtomicAdd); the others keep a's.
    const ir::StructDef& s = irm_.structs()[size_t(e.struct_index)];
    llvm::Value* r = a;
    for (size_t k = 0; k < s.fields.size(); ++k) {
      const ir::StructField& f = s.fields[k];
      if (!f.type.is_struct() && !SupportsAtomicAdd(f.type.scalar)) continue;
      // Fields are in memory form, which is the value form for every type added here.
      llvm::Value* fa = b_.CreateExtractValue(a, {unsigned(k)});
      llvm::Value* fb = b_.CreateExtractValue(b, {unsigned(k)});
      r = b_.CreateInsertValue(r, ElemAdd(fa, fb, f.type), {unsigned(k)});
    }
    return r;
  }
  // The arithmetic of bs::Emitter::EmitAtomicAdd without the atomic: 16-bit floats add in
  // float32 and round once, bool ors.
  const ScalarType t = e.scalar;
  if (t == ScalarType::Float16 || t == ScalarType::BFloat16)
    return scalar_.FromF32(b_.CreateFAdd(scalar_.ToF32(a, t), scalar_.ToF32(b, t)), t);
  if (t == ScalarType::Bool) return b_.CreateOr(a, b);
  return IsFloat(t) ? b_.CreateFAdd(a, b) : b_.CreateAdd(a, b);
}

// Bit-identical with the CPU lowering, which applies the lanes one after another in increasing
// order: every lane stages its (element, linear index) and starts the result from its own
// elements of dst; after a barrier lane 0 applies the entries in lane order, so float sums
// round alike and the highest lane writing an element wins. The plan's barrier follows before
// any lane reads the result.
void Emitter::EmitScatterLanes(const ir::Op& op) {
  const ir::Type& rt = op.result()->type();
  const ir::ElemType& e = rt.elem;
  llvm::Type* mt = scalar_.MemTy(e);
  TileRep dst = NewTile(op.result());
  if (!dst.shared) ir::op_cases::NotHandledHere(op, "SIMT tile emitter (tile_scatter_lanes needs a shared result)");
  ForEachElem(rt, [&](llvm::Value* slot, llvm::Value* lin) { StoreElem(dst, e, slot, lin, LoadElem(op.operand(0), slot, lin)); });

  llvm::Value* stage = SharedPtr(plan_->slot(plan_->Staging(&op)).offset);
  llvm::Value* stage_at = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), stage, plan_->StagingIndexOffset(op));
  llvm::Value* go = Get(op.operand(2));
  if (llvm::Value* active = LaneActive()) go = b_.CreateAnd(go, active);
  llvm::Value* at = I64(0);
  for (int d = 0; d < rt.ndim; ++d) {
    const ir::Value* iv = op.operand(3 + d);
    llvm::Value* c = scalar_.AsI64(Get(iv), iv->type().elem.scalar);
    go = b_.CreateAnd(go, b_.CreateICmpULT(c, I64(rt.shape[d])));
    at = b_.CreateAdd(b_.CreateMul(at, I64(rt.shape[d])), c);
  }
  b_.CreateStore(scalar_.ToMem(Get(op.operand(1)), e), b_.CreateInBoundsGEP(mt, stage, {lane_}));
  b_.CreateStore(b_.CreateSelect(go, at, I64(-1)), b_.CreateInBoundsGEP(b_.getInt64Ty(), stage_at, {lane_}));
  if (B_ > 1) target_.Barrier(b_);

  llvm::Function* fn = b_.GetInsertBlock()->getParent();
  llvm::BasicBlock* apply = llvm::BasicBlock::Create(ctx_, "scatter.lane0", fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx_, "scatter.done", fn);
  b_.CreateCondBr(b_.CreateICmpEQ(lane_, I64(0)), apply, done);
  b_.SetInsertPoint(apply);
  Loop(I64(0), I64(B_), [&](llvm::Value* k) {
    llvm::Value* to = b_.CreateLoad(b_.getInt64Ty(), b_.CreateInBoundsGEP(b_.getInt64Ty(), stage_at, {k}));
    llvm::BasicBlock* hit = llvm::BasicBlock::Create(ctx_, "scatter.hit", fn);
    llvm::BasicBlock* next = llvm::BasicBlock::Create(ctx_, "scatter.next", fn);
    b_.CreateCondBr(b_.CreateICmpSGE(to, I64(0)), hit, next);
    b_.SetInsertPoint(hit);
    llvm::Value* v = b_.CreateLoad(mt, b_.CreateInBoundsGEP(mt, stage, {k}));
    llvm::Value* p = b_.CreateInBoundsGEP(mt, dst.ptr, {to});
    if (op.accumulate())
      v = scalar_.ToMem(ElemAdd(scalar_.FromMem(b_.CreateLoad(mt, p), e), scalar_.FromMem(v, e), e), e);
    b_.CreateStore(v, p);
    b_.CreateBr(next);
    b_.SetInsertPoint(next);
  });
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  tiles_[op.result()] = dst;
}

// The same text as the CPU device: scalars as Warp prints them (%g for floats), a tile as its
// elements in brackets, rows on separate lines. A print of scalars runs on every lane, as on
// Warp's GPU; one of a tile is the block's, printed by lane 0.
void Emitter::EmitPrint(const ir::Op& op) {
  if (op.code() == OpCode::Assert) {
    CheckedAssert(b_, LaunchErrorPtr(b_, frame_.launch), Get(op.operand(0)), op.loc());
    return;
  }
  bool of_tile = false;
  for (const ir::Value* v : op.operands()) of_tile |= v->type().is_tile();
  auto lanes = [&](const std::function<void()>& body) {
    if (of_tile) OnLane0(body);
    else body();
  };
  lanes([&] {
    std::string fmt;
    std::vector<llvm::Value*> args;
    auto flush = [&] {
      if (fmt.empty()) return;
      target_.Printf(b_, mod_, fmt, args);
      fmt.clear();
      args.clear();
    };
    auto str = [&](const char* s) { return b_.CreateGlobalStringPtr(s); };
    auto scalar = [&](llvm::Value* v, ScalarType s) {
      if (s == ScalarType::Bool) {
        fmt += "%s";
        args.push_back(b_.CreateSelect(v, str("True"), str("False")));
      } else if (IsFloat(s)) {
        fmt += "%g";
        args.push_back(b_.CreateFPExt(scalar_.ToF32(v, s), b_.getDoubleTy()));
      } else {
        fmt += IsSigned(s) ? "%lld" : "%llu";
        args.push_back(scalar_.AsI64(v, s));
      }
    };
    for (int i = 0; i <= op.num_operands(); ++i) {
      if (i < int(op.texts().size())) fmt += bs::EscapePercent(op.texts()[size_t(i)]);
      if (i == op.num_operands()) break;
      const ir::Value* v = op.operand(i);
      const ir::Type& t = v->type();
      if (t.is_scalar()) {
        scalar(Get(v), t.elem.scalar);
      } else if (t.is_tile() && !t.elem.is_struct()) {
        flush();
        llvm::Value* buf = in_map_ ? nullptr : CrossLanePtr(v);
        llvm::Type* mt = scalar_.MemTy(t.elem);
        if (buf)
          Loop(I64(0), I64(t.NumElements()), [&](llvm::Value* e) {
            llvm::Value* x = scalar_.FromMem(b_.CreateLoad(mt, b_.CreateInBoundsGEP(mt, buf, {e})), t.elem);
            fmt = "%s";
            args.push_back(TileElementPrefix(b_, t, e));
            scalar(x, t.elem.scalar);
            flush();
          });
        else
          fmt += std::string(size_t(t.ndim), '[');
        fmt += TileClose(t);
      } else {
        fmt += "<" + TypeName(t, irm_.structs()) + ">";
      }
    }
    flush();
  });
}

}  // namespace tilec::codegen::simt
