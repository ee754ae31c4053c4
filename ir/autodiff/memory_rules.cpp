// Adjoints of the memory ops (LANGUAGE.md §6). Transposes come in pairs:
//   load (plain or indexed)        -> atomic add of the result's adjoint into a.grad
//   store (plain or indexed)       -> the tile's adjoint reads a.grad, then a.grad is zeroed
//                                     (indexed: by the last element to each place only)
//   atomic add (plain or indexed)  -> the tile's adjoint reads a.grad, a.grad stays
// at exactly the locations the forward op touched, with its bounds checks (out-of-bounds and
// -1 indices are skipped). An array without a grad has an empty gradient view, so the tile
// ops skip it by their bounds checks and the scalar ones test it explicitly.
#include "ir/autodiff/internal.h"
#include "ir/op_cases.h"

namespace tilec::autodiff::detail {

using ir::OpCode;

void Generator::MemoryRule(const ir::Op& op) {
  OpCode c = op.code();
  const ir::Value* array = op.operand(0);
  if (!IsDiffElem(m_, array->type().elem)) return;  // integer data gets nothing
  b_.set_loc(op.loc());
  bool indexed = c == OpCode::TileLoadIndexed || c == OpCode::TileStoreIndexed || c == OpCode::TileAtomicAddIndexed;
  int axis = indexed ? int(op.axis()) : 0;
  auto mapped = [&](int from, int to) {
    std::vector<ir::Value*> v;
    for (int i = from; i < to; ++i) v.push_back(P(op.operand(i)));
    return v;
  };
  switch (c) {
    case OpCode::ArrayLoad: {
      // r = a[i]  =>  a.grad[i] += d (atomically)
      ir::Value* d = Adj(op.result());
      if (!d) return;
      ir::Value* g = Grad(array);
      const ir::StructDef* st = d->type().is_struct() ? &m_.structs()[size_t(d->type().elem.struct_index)] : nullptr;
      if (st && !(st->composite.valid() && SupportsAtomicAdd(st->composite.scalar))) {
        // Atomics take numbers, vectors and matrices; a one-element tile adds any other struct
        // field by field (and its bounds check skips an array without grad). The tile is the
        // block's, so in a block of several lanes it would add one lane's value only.
        if (fwd_.tiled) {
          Unsupported(op, "the gradient of reading a struct (other than a vector or matrix) from an array in a "
                          "tiled kernel is not supported");
          return;
        }
        std::vector<int64_t> ones(size_t(array->type().ndim), 1);
        b_.TileAtomicAdd(g, b_.TileFull(d, ones), mapped(1, op.num_operands()));
        return;
      }
      ir::Op* guard = b_.If(HasGrad(g), {});
      ir::Builder::InsertionGuard ig(b_);
      b_.SetInsertionPoint(guard->region(0));
      b_.AtomicAdd(g, mapped(1, op.num_operands()), d);
      b_.Yield({});
      b_.SetInsertionPoint(guard->region(1));
      b_.Yield({});
      return;
    }
    case OpCode::ArrayStore: case OpCode::AtomicAdd: {
      // a[i] = v  =>  dv += a.grad[i]; a.grad[i] = 0     atomic_add(a, i, v)  =>  dv += a.grad[i]
      const ir::Value* v = op.operand(op.num_operands() - 1);
      bool store = c == OpCode::ArrayStore;
      if (!store && !Active(v)) return;
      ir::Value* g = Grad(array);
      std::vector<ir::Value*> idx = mapped(1, op.num_operands() - 1);
      ir::Type vt = AdjType(v->type());
      ir::Op* guard = b_.If(HasGrad(g), {vt});
      {
        ir::Builder::InsertionGuard ig(b_);
        b_.SetInsertionPoint(guard->region(0));
        ir::Value* x = b_.ArrayLoad(g, idx);
        if (store) b_.ArrayStore(g, idx, Zero(vt));
        b_.Yield({x});
        b_.SetInsertionPoint(guard->region(1));
        b_.Yield({Zero(vt)});
      }
      Accum(v, guard->result());
      return;
    }
    case OpCode::AtomicRmw: {
      // atomic_sub(a, i, v)  =>  dv -= a.grad[i]
      // atomic_min/max(a, i, v)  =>  dv += a.grad[i] where v is what a[i] holds after the
      //   kernel (or both are NaN): Warp's rule, read from the array the forward kernel left.
      // The other kinds have no gradient in Warp; on a differentiated path they are rejected.
      const ir::Value* v = op.operand(op.num_operands() - 1);
      if (!Active(v)) return;
      ir::AtomicKind k = op.rmw();
      if (k != ir::AtomicKind::Sub && k != ir::AtomicKind::Min && k != ir::AtomicKind::Max) {
        Unsupported(op, "`atomic_" + std::string(ir::AtomicKindName(k)) +
                            "` is not differentiable, but its value is on a differentiated path; "
                            "compute the value from data that needs no gradient, or use enable_backward=False");
        return;
      }
      ir::Value* g = Grad(array);
      std::vector<ir::Value*> idx = mapped(1, 1 + array->type().ndim);
      ir::Type vt = AdjType(v->type());
      ir::Op* guard = b_.If(HasGrad(g), {vt});
      {
        ir::Builder::InsertionGuard ig(b_);
        b_.SetInsertionPoint(guard->region(0));
        ir::Value* x = b_.ArrayLoad(g, idx);
        ir::Value* pv = k == ir::AtomicKind::Sub ? nullptr : P(v);
        ir::Value* now = nullptr;
        if (pv) {
          now = b_.ArrayLoad(P(array), idx);
          final_reads_.insert(now->def());
        }
        // One scalar of the gradient: a vector or matrix passes each component on its own, as
        // Warp's adj_atomic_minmax loops over them.
        auto scalar = [&](ir::Value* gx, ir::Value* value, ir::Value* held) {
          if (k == ir::AtomicKind::Sub) return b_.Unary(OpCode::Neg, gx);
          ir::Value* same = b_.Cmp(ir::CmpPred::Eq, value, held);
          ir::Value* nans =
              b_.Logic(OpCode::And, b_.Cmp(ir::CmpPred::Ne, value, value), b_.Cmp(ir::CmpPred::Ne, held, held));
          return b_.Select(b_.Logic(OpCode::Or, same, nans), gx, Zero(gx->type()));
        };
        if (vt.is_struct()) {
          ir::Value* r = x;
          int n = int(m_.structs()[size_t(vt.elem.struct_index)].fields.size());
          for (int f = 0; f < n; ++f)
            r = b_.FieldSet(r, f, scalar(b_.FieldGet(x, f), pv ? b_.FieldGet(pv, f) : nullptr, now ? b_.FieldGet(now, f) : nullptr));
          x = r;
        } else {
          x = scalar(x, pv, now);
        }
        b_.Yield({x});
        b_.SetInsertionPoint(guard->region(1));
        b_.Yield({Zero(vt)});
      }
      Accum(v, guard->result());
      return;
    }
    case OpCode::TileLoad: case OpCode::TileLoadIndexed: {
      ir::Value* d = Adj(op.result());
      if (!d) return;
      ir::Value* g = Grad(array);
      if (indexed) b_.TileAtomicAddIndexed(g, P(op.operand(1)), d, mapped(2, op.num_operands()), axis);
      else b_.TileAtomicAdd(g, d, mapped(1, op.num_operands()));
      return;
    }
    case OpCode::TileStore: case OpCode::TileStoreIndexed: case OpCode::TileAtomicAdd:
    case OpCode::TileAtomicAddIndexed: {
      bool store = c == OpCode::TileStore || c == OpCode::TileStoreIndexed;
      int tile_pos = indexed ? 2 : 1;
      const ir::Value* t = op.operand(tile_pos);
      if (!store && !Active(t)) return;
      ir::Value* g = Grad(array);
      std::vector<ir::Value*> offs = mapped(tile_pos + 1, op.num_operands());
      std::vector<int64_t> shape = t->type().Shape();
      ir::Value* idx = indexed ? P(op.operand(1)) : nullptr;
      // A store's repeated index: only the element that landed reads and clears the gradient.
      if (indexed && store) idx = b_.LastOccurrences(idx);
      ir::Value* read = indexed ? b_.TileLoadIndexed(g, idx, shape, offs, axis) : b_.TileLoad(g, shape, offs);
      if (store) {
        ir::Value* z = Zero(AdjType(t->type()));
        if (indexed) b_.TileStoreIndexed(g, idx, z, offs, axis);
        else b_.TileStore(g, z, offs);
      }
      Accum(t, read);
      return;
    }
    case OpCode::ArrayDim: case OpCode::ArrayGrad: case OpCode::ArraySlice: case OpCode::ArrayView: TILEC_CASES(Constant) TILEC_CASES(Tid)
    TILEC_CASES(Elementwise) TILEC_CASES(Select) TILEC_CASES(Compare) TILEC_CASES(Logic)
    TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce)
    TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape) TILEC_CASES(TileElement) TILEC_CASES(Print)
    TILEC_CASES(Control) TILEC_CASES(Terminator)
      return;  // not memory ops: ReverseOp sends them to other rules
  }
}

}  // namespace tilec::autodiff::detail
