// Block-serial lowering of tile values: buffers, elementwise ops as flat loops over all
// elements (vectorizable), construction, tile_map with its region inlined in the loop,
// reductions (in the shared order of bs::Emitter::FoldInOrder) and scans, shape ops, element
// reads, and print. A broadcast read only by elementwise ops or maps, and an elementwise
// result read by one of them alone, are computed in their readers' loops, never stored.
#include <algorithm>
#include <functional>

#include "codegen/block_serial/emitter.h"
#include "codegen/common/checked_access.h"
#include "codegen/common/print_layout.h"
#include "ir/op_cases.h"

namespace tilec::codegen::bs {

using ir::OpCode;

llvm::Value* Emitter::AllocTile(const ir::Type& t, const char* name) {
  auto* arr = llvm::ArrayType::get(MemTy(t.elem), uint64_t(t.NumElements()));
  return EntryAlloca(arr, name, 64);
}

llvm::Value* Emitter::TileElemPtr(llvm::Value* buf, const ir::ElemType& e, llvm::Value* linear) {
  return b_.CreateInBoundsGEP(MemTy(e), buf, {linear});
}

void Emitter::CopyTile(llvm::Value* dst, llvm::Value* src, const ir::Type& t) {
  const llvm::DataLayout& dl = mod_.getDataLayout();
  uint64_t bytes = dl.getTypeAllocSize(MemTy(t.elem)) * uint64_t(t.NumElements());
  b_.CreateMemCpy(dst, llvm::MaybeAlign(16), src, llvm::MaybeAlign(16), bytes);
}

void Emitter::EmitElementwise(const ir::Op& op) {
  const ir::Type& rt = op.result()->type();
  ScalarType in = op.operand(0)->type().elem.scalar;
  ScalarType out = rt.elem.scalar;
  if (!rt.is_tile()) {
    std::vector<llvm::Value*> args;
    for (const ir::Value* v : op.operands()) args.push_back(Get(v));
    Set(op.result(), EmitScalarElementwise(op.code(), in, out, args));
    return;
  }
  // Read by one elementwise op or map only: computed inside that reader's loop instead.
  if (FusableReaders(op, /*single=*/true)) {
    lazy_[op.result()] = &op;
    return;
  }
  llvm::Value* dst = AllocTile(rt, std::string(op.name()).c_str());
  EmitElementLoop(rt, op.operands(), [&](const std::vector<llvm::Value*>* coords, llvm::Value* i) {
    llvm::Value* r = ElementOf(op, rt, coords, i);
    b_.CreateStore(ToMem(r, rt.elem), TileElemPtr(dst, rt.elem, i));
  });
  Set(op.result(), dst);
}

llvm::Value* Emitter::ElementOf(const ir::Op& op, const ir::Type& shape, const std::vector<llvm::Value*>* coords,
                                llvm::Value* lin) {
  std::vector<llvm::Value*> args;
  for (const ir::Value* v : op.operands())
    args.push_back(v->type().is_tile() ? TileElement(v, shape, coords, lin) : Get(v));
  return EmitScalarElementwise(op.code(), op.operand(0)->type().elem.scalar, op.result()->type().elem.scalar, args);
}

llvm::Value* Emitter::TileElement(const ir::Value* v, const ir::Type& shape, const std::vector<llvm::Value*>* coords,
                                  llvm::Value* lin) {
  const ir::ElemType& e = v->type().elem;
  auto lazy = lazy_.find(v);
  if (lazy == lazy_.end()) return FromMem(b_.CreateLoad(MemTy(e), TileElemPtr(Get(v), e, lin)), e);
  const ir::Op& def = *lazy->second;
  if (def.code() != OpCode::TileBroadcast) return ElementOf(def, shape, coords, lin);
  const ir::Value* src = def.operand(0);
  llvm::Value* at = BroadcastSourceIndex(src->type(), shape, *coords);
  return FromMem(b_.CreateLoad(MemTy(e), TileElemPtr(Get(src), e, at)), e);
}

bool Emitter::NeedsCoords(const ir::Value* v) const {
  auto lazy = lazy_.find(v);
  if (lazy == lazy_.end()) return false;
  if (lazy->second->code() == OpCode::TileBroadcast) return true;
  return std::any_of(lazy->second->operands().begin(), lazy->second->operands().end(),
                     [&](const ir::Value* o) { return NeedsCoords(o); });
}

void Emitter::EmitElementLoop(const ir::Type& rt, const std::vector<ir::Value*>& operands,
                              const std::function<void(const std::vector<llvm::Value*>*, llvm::Value*)>& body) {
  // With a broadcast among the (fused) operands, a loop nest: the broadcast element is then
  // invariant in the inner loops; otherwise one flat loop, which vectorizes best.
  if (std::any_of(operands.begin(), operands.end(), [&](const ir::Value* v) { return NeedsCoords(v); }))
    EmitLoopNest(rt, [&](const std::vector<llvm::Value*>& coords, llvm::Value* i) { body(&coords, i); });
  else
    EmitCountedLoop(I64(rt.NumElements()), [&](llvm::Value* i) { body(nullptr, i); });
}

bool Emitter::FusableReaders(const ir::Op& op, bool single) {
  const ir::Value* v = op.result();
  int readers = 0;
  std::function<bool(const ir::Block&, bool)> ok = [&](const ir::Block& b, bool same_block) {
    for (const auto& user : b.ops()) {
      for (const ir::Value* o : user->operands()) {
        if (o != v) continue;
        ++readers;
        const bool reads_elementwise = ir::HasTrait(user->code(), ir::kElementwise) || user->code() == OpCode::TileMap;
        if (!(same_block && reads_elementwise && user->num_results() == 1 && user->result()->type().is_tile() &&
              user->result()->type().Shape() == v->type().Shape()))
          return false;
      }
      for (const auto& r : user->regions())
        if (!ok(*r, false)) return false;
    }
    return true;
  };
  return op.parent_block() && ok(*op.parent_block(), true) && (!single || readers == 1);
}

void Emitter::EmitTileOp(const ir::Op& op) {
  switch (op.code()) {
    case OpCode::TileScatterLanes: EmitScatterLanes(op); return;
    case OpCode::TileFull: {
      const ir::Type& rt = op.result()->type();
      llvm::Value* dst = AllocTile(rt, "full");
      llvm::Value* v = ToMem(Get(op.operand(0)), rt.elem);
      EmitCountedLoop(I64(rt.NumElements()), [&](llvm::Value* i) { b_.CreateStore(v, TileElemPtr(dst, rt.elem, i)); });
      Set(op.result(), dst);
      return;
    }
    case OpCode::TileArange: {
      const ir::Type& rt = op.result()->type();
      ScalarType s = rt.elem.scalar;
      llvm::Value* dst = AllocTile(rt, "arange");
      EmitCountedLoop(I64(rt.NumElements()), [&](llvm::Value* i) {
        llvm::Value* v;
        if (IsFloat(s)) {
          // start + i * step in the element type (float32 for the 16-bit floats).
          llvm::Type* ft = s == ScalarType::Float64 ? b_.getDoubleTy() : b_.getFloatTy();
          llvm::Value* fi = b_.CreateUIToFP(i, ft);
          v = b_.CreateFAdd(llvm::ConstantFP::get(ft, op.start().f), b_.CreateFMul(fi, llvm::ConstantFP::get(ft, op.step().f)));
          v = FromF32(v, s);
        } else {
          v = b_.CreateAdd(I64(op.start().i), b_.CreateMul(i, I64(op.step().i)));
          v = b_.CreateTrunc(v, ValTy(s));
        }
        b_.CreateStore(ToMem(v, rt.elem), TileElemPtr(dst, rt.elem, i));
      });
      Set(op.result(), dst);
      return;
    }
    case OpCode::TileMap: {
      const ir::Type& rt = op.result()->type();
      const ir::Block& body = *op.region(0);
      llvm::Value* dst = AllocTile(rt, "map");
      EmitElementLoop(rt, op.operands(), [&](const std::vector<llvm::Value*>* coords, llvm::Value* i) {
        for (int k = 0; k < op.num_operands(); ++k) Set(body.arg(k), TileElement(op.operand(k), rt, coords, i));
        EmitBlock(body);
        ir::Op* y = body.terminator();
        b_.CreateStore(ToMem(Get(y->operand(0)), rt.elem), TileElemPtr(dst, rt.elem, i));
      });
      Set(op.result(), dst);
      return;
    }
    case OpCode::TileSum: {
      // The fold of every element, in float32 for 16-bit floats (rounded once at the end);
      // 0.0 + fold, as a sum starts from +0.0 (the sum of -0.0s is +0.0).
      const ir::Type& in = op.operand(0)->type();
      const ScalarType s = in.elem.scalar, acc_s = AccType(s);
      llvm::Value* src = Get(op.operand(0));
      llvm::Value* partials = EntryAlloca(FoldType(acc_s), "partials", 64);
      llvm::Value* total = FoldInOrder(ir::ReduceKind::Add, in.elem, in.NumElements(), 1, partials,
                                       [&](llvm::Value* k) { return TileElemPtr(src, in.elem, k); });
      if (IsFloat(acc_s)) total = b_.CreateFAdd(llvm::ConstantFP::get(ValTy(acc_s), 0.0), total);
      llvm::Value* dst = AllocTile(op.result()->type(), "sum");
      b_.CreateStore(ToMem(FromF32(total, s), in.elem), TileElemPtr(dst, in.elem, I64(0)));
      Set(op.result(), dst);
      return;
    }
    case OpCode::TileExtract: {
      const ir::Type& tt = op.operand(0)->type();
      llvm::Value* lin = I64(0);
      llvm::Value* inb = b_.getTrue();
      std::vector<llvm::Value*> index, shape;
      for (int d = 0; d < tt.ndim; ++d) {
        llvm::Value* c = AsI64(Get(op.operand(d + 1)), op.operand(d + 1)->type().elem.scalar);
        inb = b_.CreateAnd(inb, b_.CreateICmpULT(c, I64(tt.shape[d])));
        lin = b_.CreateAdd(b_.CreateMul(lin, I64(tt.shape[d])), c);
        index.push_back(c);
        shape.push_back(I64(tt.shape[d]));
      }
      // Debug mode reports a read outside the tile, as it does one outside an array.
      if (irm_.checked_access)
        CheckedAccess(b_, LaunchErrorPtr(b_, fn_->getArg(1)), index, shape, op.loc(), [] { return nullptr; }, nullptr,
                      /*of_tile=*/true);
      // An index outside the tile reads zero rather than stray memory.
      lin = b_.CreateSelect(inb, lin, I64(0));
      llvm::Value* v = FromMem(b_.CreateLoad(MemTy(tt.elem), TileElemPtr(Get(op.operand(0)), tt.elem, lin)), tt.elem);
      Set(op.result(), b_.CreateSelect(inb, v, Zero(tt.elem)));
      return;
    }
    case OpCode::TileInsert: {
      // Added for ir/autodiff: copy, then overwrite one element when the index is inside.
      const ir::Type& rt = op.result()->type();
      const ir::Type& tt = op.operand(0)->type();
      llvm::Value* dst = AllocTile(rt, "insert");
      CopyTile(dst, Get(op.operand(0)), rt);
      llvm::Value* lin = I64(0);
      llvm::Value* inb = b_.getTrue();
      for (int d = 0; d < tt.ndim; ++d) {
        llvm::Value* c = AsI64(Get(op.operand(d + 2)), op.operand(d + 2)->type().elem.scalar);
        inb = b_.CreateAnd(inb, b_.CreateICmpULT(c, I64(tt.shape[d])));
        lin = b_.CreateAdd(b_.CreateMul(lin, I64(tt.shape[d])), c);
      }
      lin = b_.CreateSelect(inb, lin, I64(0));
      llvm::Value* ptr = TileElemPtr(dst, rt.elem, lin);
      llvm::Value* old = b_.CreateLoad(MemTy(rt.elem), ptr);
      b_.CreateStore(b_.CreateSelect(inb, ToMem(Get(op.operand(1)), rt.elem), old), ptr);
      Set(op.result(), dst);
      return;
    }
    case OpCode::TileView: {
      const ir::Type& tt = op.operand(0)->type();
      const ir::Type& rt = op.result()->type();
      std::vector<llvm::Value*> offs = RegionOffsets(op, 1, [&](const ir::Value* v) { return Get(v); });
      llvm::Value* src = Get(op.operand(0));
      llvm::Value* dst = AllocTile(rt, "view");
      EmitLoopNest(rt, [&](const std::vector<llvm::Value*>& coords, llvm::Value* out_lin) {
        llvm::Value* inb;
        llvm::Value* at = RegionIndex(tt, op.steps(), offs, coords, &inb);
        llvm::Value* v = FromMem(b_.CreateLoad(MemTy(tt.elem), TileElemPtr(src, tt.elem, at)), tt.elem);
        b_.CreateStore(ToMem(b_.CreateSelect(inb, v, Zero(tt.elem)), rt.elem), TileElemPtr(dst, rt.elem, out_lin));
      });
      Set(op.result(), dst);
      return;
    }
    case OpCode::TileAssign: {
      const ir::Type& rt = op.result()->type();
      const ir::Type& st = op.operand(1)->type();
      std::vector<llvm::Value*> offs = RegionOffsets(op, 2, [&](const ir::Value* v) { return Get(v); });
      llvm::Value* src = Get(op.operand(1));
      llvm::Value* dst = AllocTile(rt, "assign");
      CopyTile(dst, Get(op.operand(0)), rt);
      EmitLoopNest(st, [&](const std::vector<llvm::Value*>& coords, llvm::Value* src_lin) {
        llvm::Value* inb;
        llvm::Value* at = RegionIndex(rt, op.steps(), offs, coords, &inb);
        llvm::Value* ptr = TileElemPtr(dst, rt.elem, at);
        llvm::Value* v = b_.CreateLoad(MemTy(st.elem), TileElemPtr(src, st.elem, src_lin));
        b_.CreateStore(b_.CreateSelect(inb, v, b_.CreateLoad(MemTy(rt.elem), ptr)), ptr);
      });
      Set(op.result(), dst);
      return;
    }
    case OpCode::TileGather: {
      const ir::Type& tt = op.operand(0)->type();
      const ir::Type& it = op.operand(1)->type();
      const ir::Type& rt = op.result()->type();
      const int axis = int(op.axis());
      llvm::Value* src = Get(op.operand(0));
      llvm::Value* idx = Get(op.operand(1));
      llvm::Value* dst = AllocTile(rt, "gather");
      EmitLoopNest(rt, [&](const std::vector<llvm::Value*>& coords, llvm::Value* out_lin) {
        llvm::Value* k = FromMem(b_.CreateLoad(MemTy(it.elem), TileElemPtr(idx, it.elem, coords[size_t(axis)])), it.elem);
        llvm::Value* at = WrapIndex(k, it.elem.scalar, tt.shape[axis]);
        llvm::Value* inb = b_.CreateICmpULT(at, I64(tt.shape[axis]));
        llvm::Value* lin = b_.CreateSelect(inb, WithCoord(tt, coords, axis, at), I64(0));
        llvm::Value* v = FromMem(b_.CreateLoad(MemTy(tt.elem), TileElemPtr(src, tt.elem, lin)), tt.elem);
        b_.CreateStore(ToMem(b_.CreateSelect(inb, v, Zero(tt.elem)), rt.elem), TileElemPtr(dst, rt.elem, out_lin));
      });
      Set(op.result(), dst);
      return;
    }
    case OpCode::TileScatterAdd: {
      // Per destination element, the source slices whose index names it, in index order: the
      // SIMT lowering adds in the same order.
      const ir::Type& rt = op.result()->type();
      const ir::Type& it = op.operand(1)->type();
      const ir::Type& st = op.operand(2)->type();
      const int axis = int(op.axis());
      // Scalars add in AccType (16-bit floats widened); structs field by field in their types.
      const bool whole = rt.elem.is_struct();
      const ScalarType s = rt.elem.scalar, acc_s = AccType(s);
      llvm::Value* base = Get(op.operand(0));
      llvm::Value* idx = Get(op.operand(1));
      llvm::Value* src = Get(op.operand(2));
      llvm::Value* dst = AllocTile(rt, "scatter");
      llvm::Type* acc_ty = whole ? MemTy(rt.elem) : ValTy(acc_s);
      llvm::Value* acc = EntryAlloca(acc_ty, "acc", 8);
      auto widen = [&](llvm::Value* v) { return whole ? v : ToF32(v, s); };
      EmitLoopNest(rt, [&](const std::vector<llvm::Value*>& coords, llvm::Value* out_lin) {
        b_.CreateStore(widen(FromMem(b_.CreateLoad(MemTy(rt.elem), TileElemPtr(base, rt.elem, out_lin)), rt.elem)), acc);
        EmitCountedLoop(I64(it.shape[0]), [&](llvm::Value* k) {
          llvm::Value* at = WrapIndex(FromMem(b_.CreateLoad(MemTy(it.elem), TileElemPtr(idx, it.elem, k)), it.elem),
                                      it.elem.scalar, rt.shape[axis]);
          llvm::Value* x = widen(FromMem(b_.CreateLoad(MemTy(st.elem), TileElemPtr(src, st.elem, WithCoord(st, coords, axis, k))), st.elem));
          llvm::Value* cur = b_.CreateLoad(acc_ty, acc);
          llvm::Value* sum = whole ? AddElems(rt.elem, cur, x) : Combine(ir::ReduceKind::Add, acc_s, cur, x);
          b_.CreateStore(b_.CreateSelect(b_.CreateICmpEQ(at, coords[size_t(axis)]), sum, cur), acc);
        });
        llvm::Value* total = b_.CreateLoad(acc_ty, acc);
        b_.CreateStore(ToMem(whole ? total : FromF32(total, s), rt.elem), TileElemPtr(dst, rt.elem, out_lin));
      });
      Set(op.result(), dst);
      return;
    }
    case OpCode::TileMatmul: {
      if (const ir::Op* store = MatmulStoreReader(op)) {
        deferred_matmuls_[store] = &op;  // emitted by the store
        return;
      }
      EmitMatmulInto(op, nullptr);
      return;
    }
    case OpCode::TileTril: {
      const ir::Type& rt = op.result()->type();
      llvm::Value* src = Get(op.operand(0));
      llvm::Value* dst = AllocTile(rt, "tril");
      EmitLoopNest(rt, [&](const std::vector<llvm::Value*>& c, llvm::Value* lin) {
        llvm::Value* keep = op.inclusive() ? b_.CreateICmpULE(c[1], c[0]) : b_.CreateICmpULT(c[1], c[0]);
        llvm::Value* v = FromMem(b_.CreateLoad(MemTy(rt.elem), TileElemPtr(src, rt.elem, lin)), rt.elem);
        b_.CreateStore(ToMem(b_.CreateSelect(keep, v, Zero(rt.elem)), rt.elem), TileElemPtr(dst, rt.elem, lin));
      });
      Set(op.result(), dst);
      return;
    }
    case OpCode::TileDiagAdd: case OpCode::TileCholesky: case OpCode::TileLowerSolve: case OpCode::TileUpperSolve: {
      std::vector<llvm::Value*> in;
      for (const ir::Value* v : op.operands()) in.push_back(Get(v));
      llvm::Value* dst = AllocTile(op.result()->type(), "linalg");
      EmitLinalg(op, in, dst, EntryAlloca(ValTy(AccType(op.result()->type().elem.scalar)), "acc", 8));
      Set(op.result(), dst);
      return;
    }
    case OpCode::TileFft: {
      std::vector<llvm::Value*> in{Get(op.operand(0)), Get(op.operand(1))};
      std::vector<llvm::Value*> out{AllocTile(op.result(0)->type(), "fft.re"), AllocTile(op.result(1)->type(), "fft.im")};
      EmitFft(op, in, out, I64(0), 1, [] {}, /*twiddle_table=*/true);
      Set(op.result(0), out[0]);
      Set(op.result(1), out[1]);
      return;
    }
    case OpCode::TileSort: {
      const ir::Type& kt = op.operand(0)->type();
      const ir::Type& vt = op.operand(1)->type();
      const int64_t n = kt.NumElements();
      llvm::Value* keys = Get(op.operand(0));
      llvm::Value* vals = Get(op.operand(1));
      llvm::Value* out_k = AllocTile(op.result(0)->type(), "sorted.keys");
      llvm::Value* out_v = AllocTile(op.result(1)->type(), "sorted.values");
      llvm::Value* count = EntryAlloca(b_.getInt64Ty(), "rank", 8);
      EmitCountedLoop(I64(n), [&](llvm::Value* i) {
        llvm::Value* kraw = b_.CreateLoad(MemTy(kt.elem), TileElemPtr(keys, kt.elem, i));
        llvm::Value* r = SortRank(keys, kt.elem, n, i, FromMem(kraw, kt.elem), count);
        b_.CreateStore(kraw, TileElemPtr(out_k, kt.elem, r));
        b_.CreateStore(b_.CreateLoad(MemTy(vt.elem), TileElemPtr(vals, vt.elem, i)), TileElemPtr(out_v, vt.elem, r));
      });
      Set(op.result(0), out_k);
      Set(op.result(1), out_v);
      return;
    }
    case OpCode::TileReduce: {
      const ir::Type& in = op.operand(0)->type();
      const ir::Type& rt = op.result()->type();
      const ScalarType s = in.elem.scalar, acc_s = AccType(s);
      const int axis = ReduceAxis(op);
      const int64_t n = axis < 0 ? in.NumElements() : in.shape[axis];
      llvm::Value* src = Get(op.operand(0));
      llvm::Value* dst = AllocTile(rt, "reduce");
      llvm::Value* partials = EntryAlloca(FoldType(acc_s), "partials", 64);
      EmitLoopNest(rt, [&](const std::vector<llvm::Value*>& coords, llvm::Value* out_lin) {
        llvm::Value* r = FoldInOrder(op.kind(), in.elem, n, ReduceStride(in, axis), partials, [&](llvm::Value* k) {
          return TileElemPtr(src, in.elem, axis < 0 ? k : ReduceSourceIndex(in, axis, coords, k));
        });
        b_.CreateStore(ToMem(FromF32(r, s), rt.elem), TileElemPtr(dst, rt.elem, out_lin));
      });
      Set(op.result(), dst);
      return;
    }
    case OpCode::TileScan: {
      const ir::Type& rt = op.result()->type();
      const ScalarType s = rt.elem.scalar, acc_s = AccType(s);
      llvm::Value* src = Get(op.operand(0));
      llvm::Value* dst = AllocTile(rt, "scan");
      llvm::Value* acc = EntryAlloca(ValTy(acc_s), "acc", 8);
      b_.CreateStore(ReduceIdentity(op.kind(), acc_s), acc);
      EmitCountedLoop(I64(rt.NumElements()), [&](llvm::Value* i) {
        llvm::Value* x = ToF32(FromMem(b_.CreateLoad(MemTy(rt.elem), TileElemPtr(src, rt.elem, i)), rt.elem), s);
        llvm::Value* before = b_.CreateLoad(ValTy(acc_s), acc);
        llvm::Value* next = b_.CreateSelect(b_.CreateICmpEQ(i, I64(0)), x, Combine(op.kind(), acc_s, before, x));
        b_.CreateStore(next, acc);
        llvm::Value* r = FromF32(op.inclusive() ? next : before, s);
        b_.CreateStore(ToMem(r, rt.elem), TileElemPtr(dst, rt.elem, i));
      });
      Set(op.result(), dst);
      return;
    }
    case OpCode::TileBroadcast: case OpCode::TilePermute: {
      if (op.code() == OpCode::TileBroadcast && FusableReaders(op, /*single=*/false)) {
        lazy_[op.result()] = &op;
        return;
      }
      const ir::Type& in = op.operand(0)->type();
      const ir::Type& rt = op.result()->type();
      llvm::Value* src = Get(op.operand(0));
      llvm::Value* dst = AllocTile(rt, std::string(op.name()).c_str());
      llvm::Type* mt = MemTy(rt.elem);
      const bool broadcast = op.code() == OpCode::TileBroadcast;
      EmitLoopNest(rt, [&](const std::vector<llvm::Value*>& coords, llvm::Value* out_lin) {
        llvm::Value* at = broadcast ? BroadcastSourceIndex(in, rt, coords) : PermuteSourceIndex(in, op.perm(), coords);
        b_.CreateStore(b_.CreateLoad(mt, TileElemPtr(src, in.elem, at)), TileElemPtr(dst, rt.elem, out_lin));
      });
      Set(op.result(), dst);
      return;
    }
    case OpCode::TileReshape: {
      // Row-major order is kept, so the buffer is the same; a copy rather than an alias keeps
      // every tile value its own buffer (slots of loops and ifs are written in place).
      const ir::Type& rt = op.result()->type();
      llvm::Value* dst = AllocTile(rt, "reshape");
      CopyTile(dst, Get(op.operand(0)), rt);
      Set(op.result(), dst);
      return;
    }
    TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Elementwise) TILEC_CASES(Compare)
    TILEC_CASES(Logic) TILEC_CASES(Array) TILEC_CASES(Struct) TILEC_CASES(TileMemory) TILEC_CASES(Print)
    TILEC_CASES(Control) TILEC_CASES(Terminator)
      ir::op_cases::NotHandledHere(op, "block-serial tile emitter");
  }
}

std::string EscapePercent(const std::string& s) {
  std::string out;
  for (char c : s) {
    out += c;
    if (c == '%') out += '%';
  }
  return out;
}

void Emitter::EmitPrint(const ir::Op& op) {
  if (op.code() == ir::OpCode::Assert) {
    CheckedAssert(b_, LaunchErrorPtr(b_, fn_->getArg(1)), Get(op.operand(0)), op.loc());
    return;
  }
  llvm::FunctionCallee printf_fn = mod_.getOrInsertFunction(
      "printf", llvm::FunctionType::get(b_.getInt32Ty(), {b_.getPtrTy()}, true));
  // Scalars print as Warp does (%g for floats); a tile prints its elements in brackets.
  std::string fmt;
  std::vector<llvm::Value*> args;
  auto flush = [&] {
    if (fmt.empty()) return;
    std::vector<llvm::Value*> call{b_.CreateGlobalStringPtr(fmt)};
    call.insert(call.end(), args.begin(), args.end());
    b_.CreateCall(printf_fn, call);
    fmt.clear();
    args.clear();
  };
  auto scalar = [&](llvm::Value* v, ScalarType s) {
    if (s == ScalarType::Bool) {
      fmt += "%s";
      args.push_back(b_.CreateSelect(v, b_.CreateGlobalStringPtr("True"), b_.CreateGlobalStringPtr("False")));
    } else if (IsFloat(s)) {
      fmt += "%g";
      args.push_back(b_.CreateFPExt(ToF32(v, s), b_.getDoubleTy()));
    } else {
      fmt += IsSigned(s) ? "%lld" : "%llu";
      args.push_back(AsI64(v, s));
    }
  };
  for (int i = 0; i <= op.num_operands(); ++i) {
    if (i < int(op.texts().size())) fmt += EscapePercent(op.texts()[i]);
    if (i == op.num_operands()) break;
    const ir::Value* v = op.operand(i);
    const ir::Type& t = v->type();
    if (t.is_scalar()) {
      scalar(Get(v), t.elem.scalar);
    } else if (t.is_tile() && !t.elem.is_struct()) {
      flush();
      llvm::Value* buf = Get(v);
      EmitCountedLoop(I64(t.NumElements()), [&](llvm::Value* e) {
        llvm::Value* x = FromMem(b_.CreateLoad(MemTy(t.elem), TileElemPtr(buf, t.elem, e)), t.elem);
        fmt = "%s";
        args.push_back(TileElementPrefix(b_, t, e));
        scalar(x, t.elem.scalar);
        flush();
      });
      fmt += TileClose(t);
    } else {
      fmt += "<" + TypeName(t, irm_.structs()) + ">";
    }
  }
  flush();
}

}  // namespace tilec::codegen::bs
