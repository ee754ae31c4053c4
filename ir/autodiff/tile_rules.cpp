// Adjoints of the generic tile ops: reductions, scans and the shape ops. Each is the
// transpose of its forward op, built from the generic ops themselves (LANGUAGE.md §6 v2):
// a sum broadcasts back, a broadcast sums back, reshape and permute invert, a sum scan runs
// backwards, and min/max send d to the element the value came from.
#include "ir/autodiff/internal.h"
#include "ir/op_cases.h"

namespace tilec::autodiff::detail {

using ir::OpCode;

namespace {

// `shape` with an extent of 1 inserted at `axis`.
std::vector<int64_t> WithUnitAxis(std::vector<int64_t> shape, int axis) {
  shape.insert(shape.begin() + axis, 1);
  return shape;
}

}  // namespace

void Generator::TileShapeRule(const ir::Op& op) {
  ir::Value* d = Adj(op.result());
  const ir::Value* t = op.operand(0);
  if (!d || !Active(t)) return;
  const ir::Type& tt = t->type();
  std::vector<int64_t> shape = tt.Shape();
  switch (op.code()) {
    case OpCode::TileReduce: {
      int axis = int(op.axis());
      // The reduced dimension back as an extent of 1, then repeated.
      auto spread = [&](ir::Value* v) {
        if (axis >= 0 && tt.ndim > 1) v = b_.TileReshape(v, WithUnitAxis(d->type().Shape(), axis));
        return b_.TileBroadcast(v, shape);
      };
      switch (op.kind()) {
        case ir::ReduceKind::Add:
          // r = sum(t)  =>  dt = broadcast(d)
          Accum(t, spread(d));
          return;
        case ir::ReduceKind::Min: case ir::ReduceKind::Max: {
          if (axis >= 0 && tt.ndim > 1) {
            // Along an axis: per result element, the first position k along the axis whose
            // element equals it receives d.
            const int64_t n = tt.shape[size_t(axis)];
            std::vector<int64_t> unit(size_t(tt.ndim), 1);
            unit[size_t(axis)] = n;
            ir::Value* along = b_.TileBroadcast(b_.TileReshape(b_.TileArange(ScalarType::Int32, 0, 1, n), unit), shape);
            ir::Value* cand = b_.SelectWhereEqual(P(t), spread(P(op.result())), along, b_.ConstInt(ScalarType::Int32, n));
            ir::Value* first = spread(b_.TileReduce(ir::ReduceKind::Min, cand, axis));
            Accum(t, b_.SelectWhereEqual(along, first, spread(d), Zero(tt.ElemValueType())));
            return;
          }
          // r = max(t)  =>  dt[e] = d where e is the first element equal to r, else 0; the one
          // element that the result came from receives it, as a subgradient.
          ir::Value* lin = b_.TileArange(ScalarType::Int32, 0, 1, tt.NumElements());
          if (tt.ndim > 1) lin = b_.TileReshape(lin, shape);
          ir::Value* first = b_.TileBroadcast(b_.FirstIndexOf(P(t), P(op.result()), lin), shape);
          Accum(t, b_.SelectWhereEqual(lin, first, b_.TileBroadcast(d, shape), Zero(tt.ElemValueType())));
          return;
        }
        case ir::ReduceKind::Mul: {
          if (tt.elem.is_struct() || !IsFloat(tt.elem.scalar)) break;
          // r = prod(t)  =>  dt_k = d * (the product of the others), without dividing by a
          // zero: with P the product of the nonzero elements and z the zeros among them, it
          // is d * P / t_k where z = 0, d * P at the zero where z = 1, and 0 where z > 1.
          const ScalarType s = tt.elem.scalar;
          ir::Value* zero = b_.ConstFloat(s, 0.0);
          ir::Value* one = b_.ConstFloat(s, 1.0);
          ir::Value* zeros = b_.TileFull(zero, shape);
          ir::Value* ones = b_.TileFull(one, shape);
          ir::Value* x = P(t);
          ir::Value* at_zero = b_.SelectWhereEqual(x, zeros, ones, zero);
          ir::Value* safe = b_.Binary(OpCode::Add, x, at_zero);
          ir::Value* dp = b_.Binary(OpCode::Mul, spread(d), spread(b_.TileReduce(ir::ReduceKind::Mul, safe, axis)));
          ir::Value* count = spread(b_.TileReduce(ir::ReduceKind::Add, at_zero, axis));
          ir::Value* none = b_.Binary(OpCode::Mul, b_.Binary(OpCode::Div, dp, safe), b_.SelectWhereEqual(count, zeros, ones, zero));
          ir::Value* single = b_.Binary(OpCode::Mul, b_.Binary(OpCode::Mul, dp, at_zero), b_.SelectWhereEqual(count, ones, ones, zero));
          Accum(t, b_.Binary(OpCode::Add, none, single));
          return;
        }
        case ir::ReduceKind::BitAnd: case ir::ReduceKind::BitOr: case ir::ReduceKind::BitXor:
          break;
      }
      Unsupported(op, "the gradient of a `" + std::string(ir::ReduceKindName(op.kind())) +
                          "` reduction is not supported yet");
      return;
    }
    case OpCode::TileScan: {
      // Scans run over the row-major sequence: the adjoint works on it flattened.
      const int64_t n = tt.NumElements();
      auto flat = [&](ir::Value* v) { return tt.ndim > 1 ? b_.TileReshape(v, {n}) : v; };
      auto unflat = [&](ir::Value* v) { return tt.ndim > 1 ? b_.TileReshape(v, shape) : v; };
      auto reversed = [&](ir::Value* v) {
        return b_.TileView(v, {b_.ConstInt(ScalarType::Int32, n - 1)}, {-1}, {n});
      };
      switch (op.kind()) {
        case ir::ReduceKind::Add:
          // r_j = sum of x_k, k <= j (k < j exclusive)  =>  dx_k = sum of d_j, j >= k (j > k):
          // the same scan of d, run backwards.
          Accum(t, unflat(reversed(b_.TileScan(ir::ReduceKind::Add, reversed(flat(d)), op.inclusive()))));
          return;
        case ir::ReduceKind::Min: case ir::ReduceKind::Max: {
          if (!op.inclusive()) break;
          // r_j = max of x_k, k <= j. It is x at the last k <= j where x_k == r_k (where the
          // running value was last reached): a running max of those positions finds it, and
          // each d_j goes back there.
          ir::Value* lin = b_.TileArange(ScalarType::Int32, 0, 1, n);
          ir::Value* reached = b_.SelectWhereEqual(flat(P(t)), flat(P(op.result())), lin, b_.ConstInt(ScalarType::Int32, -1));
          ir::Value* from = b_.TileScan(ir::ReduceKind::Max, reached, true);
          ir::Value* zeros = Zero(AdjType(ir::Type::Tile(tt.elem, {n})));
          Accum(t, unflat(b_.TileScatterAdd(zeros, from, flat(d), 0)));
          return;
        }
        case ir::ReduceKind::Mul: case ir::ReduceKind::BitAnd: case ir::ReduceKind::BitOr:
        case ir::ReduceKind::BitXor:
          break;
      }
      Unsupported(op, "the gradient of a `" + std::string(ir::ReduceKindName(op.kind())) + "` scan is not supported");
      return;
    }
    case OpCode::TileBroadcast: {
      // r = broadcast(t)  =>  dt = d summed over every repeated dimension, highest first so
      // the axis numbers below stay valid.
      const ir::Type& rt = op.result()->type();
      int lead = rt.ndim - tt.ndim;
      ir::Value* acc = d;
      for (int a = rt.ndim - 1; a >= 0; --a) {
        bool repeated = a < lead || (tt.shape[a - lead] == 1 && rt.shape[a] != 1);
        if (repeated) acc = SumAlong(acc, acc->type().ndim > 1 ? a : -1);
      }
      if (acc->type().Shape() != shape) acc = b_.TileReshape(acc, shape);
      Accum(t, acc);
      return;
    }
    case OpCode::TileReshape:
      // r = reshape(t)  =>  dt = reshape(d) back
      Accum(t, b_.TileReshape(d, shape));
      return;
    case OpCode::TilePermute: {
      // r = permute(t, p)  =>  dt = permute(d, p^-1)
      const std::vector<int64_t>& perm = op.perm();
      std::vector<int64_t> inverse(perm.size());
      for (size_t k = 0; k < perm.size(); ++k) inverse[size_t(perm[k])] = int64_t(k);
      Accum(t, b_.TilePermute(d, inverse));
      return;
    }
    case OpCode::TileSum: TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Elementwise)
    TILEC_CASES(Select) TILEC_CASES(Compare) TILEC_CASES(Logic) TILEC_CASES(Array)
    TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileElement)
    TILEC_CASES(TileMemory) TILEC_CASES(Print) TILEC_CASES(Control) TILEC_CASES(Terminator)
      return;  // not generic tile ops: ReverseOp sends them to other rules
  }
}

}  // namespace tilec::autodiff::detail
