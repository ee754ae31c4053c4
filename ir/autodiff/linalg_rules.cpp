// Adjoints of the dense linear-algebra tile ops, built from the forward ops themselves: a
// triangular solve's adjoint is the transposed solve plus a masked outer product, and the
// Cholesky factor's the standard symmetric back-substitution (gradient of the lower triangle).
#include "ir/autodiff/internal.h"

namespace tilec::autodiff::detail {

using ir::OpCode;

namespace {

ir::Value* Transpose(ir::Builder& b, ir::Value* t) { return b.TilePermute(t, {1, 0}); }

// The lower triangle with its diagonal halved, exactly: (tril(x) + strict_tril(x)) / 2.
ir::Value* LowerHalfDiag(ir::Builder& b, ir::Value* x) {
  ir::Value* sum = b.Binary(OpCode::Add, b.TileTril(x, true), b.TileTril(x, false));
  return b.Binary(OpCode::Mul, sum, b.ConstFloat(x->type().elem.scalar, 0.5));
}

}  // namespace

void Generator::TriSolveRule(const ir::Op& op, ir::Value* d) {
  // z = M^-1 y, M triangular  =>  dy = M^-T dz (the other triangular solve, with M^T) and
  // dM = -(dy z^T) restricted to the triangle the forward op read.
  const bool lower = op.code() == OpCode::TileLowerSolve;
  const ir::Value* m = op.operand(0);
  const ir::Value* y = op.operand(1);
  ir::Value* mt = Transpose(b_, P(m));
  ir::Value* dy = b_.TileTriSolve(lower ? OpCode::TileUpperSolve : OpCode::TileLowerSolve, mt, d);
  if (Active(y)) Accum(y, dy);
  if (!Active(m)) return;
  const int64_t n = m->type().shape[0];
  ir::Value* z = P(op.result());
  ir::Value* col = dy;
  ir::Value* row;
  if (dy->type().ndim == 1) {
    col = b_.TileReshape(dy, {n, 1});
    row = b_.TileReshape(z, {1, n});
  } else {
    row = Transpose(b_, z);
  }
  ir::Value* outer = b_.TileMatmul(col, row, Zero(AdjType(m->type().WithStorage(ir::Storage::Register))));
  ir::Value* neg = b_.Unary(OpCode::Neg, outer);
  Accum(m, lower ? b_.TileTril(neg, true) : Transpose(b_, b_.TileTril(Transpose(b_, neg), true)));
}

void Generator::CholeskyRule(const ir::Op& op, ir::Value* d) {
  // A = L L^T with A read through its lower triangle. With P = Phi(L^T tril(dL)) (Phi: lower
  // triangle, diagonal halved) and S = L^-T P L^-1, the gradient of A's lower entry (i, j) is
  // S[i, j] + S[j, i] below the diagonal and S[i, i] on it: Phi(S + S^T).
  const ir::Value* a = op.operand(0);
  if (!Active(a)) return;
  ir::Value* l = P(op.result());
  ir::Value* lt = Transpose(b_, l);
  ir::Value* zero = Zero(AdjType(a->type().WithStorage(ir::Storage::Register)));
  ir::Value* p = LowerHalfDiag(b_, b_.TileMatmul(lt, b_.TileTril(d, true), zero));
  ir::Value* x = b_.TileTriSolve(OpCode::TileUpperSolve, lt, p);                // L^-T P
  ir::Value* st = b_.TileTriSolve(OpCode::TileUpperSolve, lt, Transpose(b_, x));  // (X L^-1)^T = S^T
  Accum(a, LowerHalfDiag(b_, b_.Binary(OpCode::Add, Transpose(b_, st), st)));
}

}  // namespace tilec::autodiff::detail
