// Lowering of the dense linear-algebra tile ops (tile_diag_add, tile_cholesky, tile_lower_solve,
// tile_upper_solve) and tile_fft over flat row-major buffers. The CPU runs them per block
// program; the SIMT lowering runs the same code (linear algebra on lane 0, the FFT's passes
// dealt to the lanes), so both round identically.
#include <llvm/IR/Intrinsics.h>

#include <numbers>

#include "codegen/block_serial/emitter.h"
#include "ir/op_cases.h"

namespace tilec::codegen::bs {

using ir::OpCode;

void Emitter::EmitLinalg(const ir::Op& op, const std::vector<llvm::Value*>& in, llvm::Value* dst, llvm::Value* acc) {
  const ir::Type& rt = op.result()->type();
  const ir::ElemType& e = rt.elem;
  llvm::Type* mt = MemTy(e);
  auto at = [&](llvm::Value* buf, llvm::Value* lin) { return b_.CreateInBoundsGEP(mt, buf, {lin}); };
  auto load = [&](llvm::Value* buf, llvm::Value* lin) { return FromMem(b_.CreateLoad(mt, at(buf, lin)), e); };
  auto store = [&](llvm::Value* buf, llvm::Value* lin, llvm::Value* v) { b_.CreateStore(ToMem(v, e), at(buf, lin)); };
  auto add = [&](llvm::Value* x, llvm::Value* y) { return b_.CreateAdd(x, y, "", true, true); };
  auto sub = [&](llvm::Value* x, llvm::Value* y) { return b_.CreateSub(x, y, "", true, true); };
  auto mul = [&](llvm::Value* x, llvm::Value* y) { return b_.CreateMul(x, y, "", true, true); };
  llvm::Type* vt = ValTy(e.scalar);
  // acc -= x * y, the product rounded before the subtraction (no fused multiply-add).
  auto sub_product = [&](llvm::Value* x, llvm::Value* y) {
    b_.CreateStore(b_.CreateFSub(b_.CreateLoad(vt, acc), b_.CreateFMul(x, y)), acc);
  };
  switch (op.code()) {
    case OpCode::TileDiagAdd: {
      // A copy of a, then each diagonal element a[i, i] + d[i] as the elementwise `+` rounds.
      const int64_t n = rt.shape[0];
      const ScalarType s = e.scalar, acc_s = AccType(s);
      EmitCountedLoop(I64(n * n), [&](llvm::Value* k) { b_.CreateStore(b_.CreateLoad(mt, at(in[0], k)), at(dst, k)); });
      EmitCountedLoop(I64(n), [&](llvm::Value* i) {
        llvm::Value* ii = mul(i, I64(n + 1));
        llvm::Value* x = ToF32(load(in[0], ii), s);
        llvm::Value* y = ToF32(load(in[1], i), s);
        store(dst, ii, FromF32(Combine(ir::ReduceKind::Add, acc_s, x, y), s));
      });
      return;
    }
    case OpCode::TileCholesky: {
      // Left-looking, column by column: L[j, j] = sqrt(A[j, j] - sum_k L[j, k]^2) and then
      // L[i, j] = (A[i, j] - sum_k L[i, k] L[j, k]) * r for i > j, each sum subtracting its
      // products in increasing k < j. r is Warp's reciprocal, 1.0 / L[j, j] divided in float64
      // and rounded to the element type, so factors agree with Warp's bit for bit. The strictly
      // upper triangle is zero.
      const int64_t n = rt.shape[0];
      EmitLoopNest(rt, [&](const std::vector<llvm::Value*>& c, llvm::Value* lin) {
        llvm::Value* v = load(in[0], lin);
        store(dst, lin, b_.CreateSelect(b_.CreateICmpULE(c[1], c[0]), v, Zero(e)));
      });
      EmitCountedLoop(I64(n), [&](llvm::Value* j) {
        llvm::Value* jrow = mul(j, I64(n));
        b_.CreateStore(load(dst, add(jrow, j)), acc);
        EmitCountedLoop(j, [&](llvm::Value* k) {
          llvm::Value* x = load(dst, add(jrow, k));
          sub_product(x, x);
        });
        llvm::Value* djj = b_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, b_.CreateLoad(vt, acc));
        store(dst, add(jrow, j), djj);
        llvm::Type* f64 = b_.getDoubleTy();
        llvm::Value* recip = b_.CreateFPCast(b_.CreateFDiv(llvm::ConstantFP::get(f64, 1.0), b_.CreateFPCast(djj, f64)), vt);
        EmitCountedLoop(sub(I64(n - 1), j), [&](llvm::Value* r) {
          llvm::Value* irow = mul(add(add(j, I64(1)), r), I64(n));
          b_.CreateStore(load(dst, add(irow, j)), acc);
          EmitCountedLoop(j, [&](llvm::Value* k) { sub_product(load(dst, add(irow, k)), load(dst, add(jrow, k))); });
          store(dst, add(irow, j), b_.CreateFMul(b_.CreateLoad(vt, acc), recip));
        });
      });
      return;
    }
    case OpCode::TileLowerSolve: case OpCode::TileUpperSolve: {
      // Column by column of y: forward substitution for rows 0..M-1 (lower), backward for
      // rows M-1..0 (upper); z[i] = (y[i] - sum_k m[i, k] z[k]) / m[i, i], the products
      // subtracted in increasing k over the solved rows. A zero diagonal element leaves the
      // difference undivided, as Warp's solvers do (no inf or NaN from a singular factor).
      const bool upper = op.code() == OpCode::TileUpperSolve;
      const int64_t m = op.operand(0)->type().shape[0];
      const int64_t cols = rt.ndim == 2 ? rt.shape[1] : 1;
      EmitCountedLoop(I64(cols), [&](llvm::Value* c) {
        EmitCountedLoop(I64(m), [&](llvm::Value* r) {
          llvm::Value* i = upper ? sub(I64(m - 1), r) : r;
          llvm::Value* irow = mul(i, I64(m));
          b_.CreateStore(load(in[1], add(mul(i, I64(cols)), c)), acc);
          llvm::Value* count = upper ? sub(I64(m - 1), i) : i;
          EmitCountedLoop(count, [&](llvm::Value* q) {
            llvm::Value* k = upper ? add(add(i, I64(1)), q) : q;
            sub_product(load(in[0], add(irow, k)), load(dst, add(mul(k, I64(cols)), c)));
          });
          llvm::Value* diag = load(in[0], add(irow, i));
          llvm::Value* diff = b_.CreateLoad(vt, acc);
          llvm::Value* nonzero = b_.CreateFCmpUNE(diag, llvm::ConstantFP::get(vt, 0.0));
          store(dst, add(mul(i, I64(cols)), c), b_.CreateSelect(nonzero, b_.CreateFDiv(diff, diag), diff));
        });
      });
      return;
    }
    case OpCode::TileMatmul: case OpCode::TileTril: case OpCode::TileFft: TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Elementwise)
    TILEC_CASES(Compare) TILEC_CASES(Logic) TILEC_CASES(Array) TILEC_CASES(Struct) TILEC_CASES(TileBuild)
    TILEC_CASES(TileMap) TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileShape)
    TILEC_CASES(TileElement) TILEC_CASES(TileMemory) TILEC_CASES(Print) TILEC_CASES(Control) TILEC_CASES(Terminator)
      ir::op_cases::NotHandledHere(op, "linear-algebra emitter");
  }
}

// Twiddles are cos/sin of an angle formed in float64 from an exact integer ratio (the angle of
// w^m is 2 pi m / N, with m reduced mod N), then rounded to the element type: float32 twiddles
// are correctly rounded, where an angle accumulated in float32 would not be.
void Emitter::EmitFft(const ir::Op& op, const std::vector<llvm::Value*>& in, const std::vector<llvm::Value*>& out,
                      llvm::Value* lane, int64_t lanes, const std::function<void()>& barrier, bool twiddle_table) {
  const ir::Type& t = op.operand(0)->type();
  const ir::ElemType& e = t.elem;
  const ScalarType s = e.scalar;
  llvm::Type* mt = MemTy(e);
  const int64_t n = t.shape[t.ndim - 1];
  const int64_t batch = t.NumElements() / n;
  const double sign = op.inverse() ? 1.0 : -1.0;
  auto add = [&](llvm::Value* x, llvm::Value* y) { return b_.CreateAdd(x, y, "", true, true); };
  auto mul = [&](llvm::Value* x, llvm::Value* y) { return b_.CreateMul(x, y, "", true, true); };
  auto at = [&](llvm::Value* buf, llvm::Value* lin) { return b_.CreateInBoundsGEP(mt, buf, {lin}); };
  auto load = [&](llvm::Value* buf, llvm::Value* lin) { return b_.CreateLoad(mt, at(buf, lin)); };
  auto store = [&](llvm::Value* buf, llvm::Value* lin, llvm::Value* v) { b_.CreateStore(v, at(buf, lin)); };
  // w^m for w = exp(sign 2 pi i / period): (cos, sin) of sign * 2 pi * m / period.
  auto twiddle = [&](llvm::Value* m, int64_t period) {
    llvm::Type* f64 = b_.getDoubleTy();
    llvm::Value* theta = b_.CreateFMul(b_.CreateUIToFP(m, f64), llvm::ConstantFP::get(f64, sign * 2.0 * std::numbers::pi / double(period)));
    llvm::Value* c = EmitScalarElementwise(OpCode::Cos, ScalarType::Float64, ScalarType::Float64, {theta});
    llvm::Value* sn = EmitScalarElementwise(OpCode::Sin, ScalarType::Float64, ScalarType::Float64, {theta});
    if (s == ScalarType::Float64) return std::pair{c, sn};
    return std::pair{b_.CreateFPTrunc(c, mt), b_.CreateFPTrunc(sn, mt)};
  };
  // w^m for w = exp(sign 2 pi i / n), m in [0, size), from a table filled once per call where
  // the caller asks for one (a pass's w_len^pos is w_n^(pos * n / len): n and len are powers of
  // two, so the float64 angle, and the twiddle, are the same bit for bit).
  std::function<std::pair<llvm::Value*, llvm::Value*>(llvm::Value*, int64_t)> twiddle_of = twiddle;
  auto use_table = [&](int64_t size) {
    if (!twiddle_table) return;
    llvm::Type* at = llvm::ArrayType::get(mt, uint64_t(size));
    llvm::Value* cos_t = EntryAlloca(at, "fft.cos");
    llvm::Value* sin_t = EntryAlloca(at, "fft.sin");
    EmitCountedLoop(I64(size), [&](llvm::Value* m) {
      auto [c, sn] = twiddle(m, n);
      store(cos_t, m, c);
      store(sin_t, m, sn);
    });
    twiddle_of = [=, this](llvm::Value* m, int64_t period) {
      llvm::Value* idx = period == n ? m : mul(m, I64(n / period));
      return std::pair{load(cos_t, idx), load(sin_t, idx)};
    };
  };
  // Runs body(i) for this lane's share i = lane, lane + lanes, ... of 0..total-1.
  auto dealt = [&](int64_t total, const std::function<void(llvm::Value*)>& body) {
    EmitCountedLoop(I64((total + lanes - 1) / lanes), [&](llvm::Value* q) {
      llvm::Value* i = add(mul(q, I64(lanes)), lane);
      if (total % lanes == 0) return body(i);
      llvm::Function* fn = b_.GetInsertBlock()->getParent();
      llvm::BasicBlock* work = llvm::BasicBlock::Create(b_.getContext(), "fft.work", fn);
      llvm::BasicBlock* next = llvm::BasicBlock::Create(b_.getContext(), "fft.next", fn);
      b_.CreateCondBr(b_.CreateICmpULT(i, I64(total)), work, next);
      b_.SetInsertPoint(work);
      body(i);
      b_.CreateBr(next);
      b_.SetInsertPoint(next);
    });
  };
  int log_n = 0;
  while ((int64_t(1) << log_n) < n) ++log_n;
  if ((int64_t(1) << log_n) != n) {
    // The direct sum, one output bin per step: X[k] = sum_j x[j] w^(kj mod N) in increasing j,
    // each product rounded before its addition, accumulated where the bin is stored (this
    // lane's own element of the result, so no slot of its own is needed).
    use_table(n);
    dealt(batch * n, [&](llvm::Value* i) {
      llvm::Value* row = mul(b_.CreateUDiv(i, I64(n)), I64(n));
      llvm::Value* k = b_.CreateURem(i, I64(n));
      store(out[0], i, llvm::ConstantFP::get(mt, 0.0));
      store(out[1], i, llvm::ConstantFP::get(mt, 0.0));
      EmitCountedLoop(I64(n), [&](llvm::Value* j) {
        auto [c, sn] = twiddle_of(b_.CreateURem(mul(k, j), I64(n)), n);
        llvm::Value* xr = load(in[0], add(row, j));
        llvm::Value* xi = load(in[1], add(row, j));
        llvm::Value* pr = b_.CreateFSub(b_.CreateFMul(c, xr), b_.CreateFMul(sn, xi));
        llvm::Value* pi = b_.CreateFAdd(b_.CreateFMul(c, xi), b_.CreateFMul(sn, xr));
        store(out[0], i, b_.CreateFAdd(load(out[0], i), pr));
        store(out[1], i, b_.CreateFAdd(load(out[1], i), pi));
      });
    });
    return;
  }
  // Radix 2: the input copied to its bit-reversed positions, then log2(N) passes of N/2
  // butterflies, with a barrier between passes (a pass reads what the one before wrote).
  use_table(std::max<int64_t>(n / 2, 1));
  dealt(batch * n, [&](llvm::Value* i) {
    llvm::Value* row = mul(b_.CreateUDiv(i, I64(n)), I64(n));
    llvm::Value* j = b_.CreateURem(i, I64(n));
    llvm::Value* r = I64(0);
    for (int bit = 0; bit < log_n; ++bit)
      r = b_.CreateOr(r, b_.CreateShl(b_.CreateAnd(b_.CreateLShr(j, I64(bit)), I64(1)), I64(log_n - 1 - bit)));
    store(out[0], add(row, r), load(in[0], i));
    store(out[1], add(row, r), load(in[1], i));
  });
  for (int64_t len = 2; len <= n; len <<= 1) {
    barrier();
    const int64_t half = len / 2;
    dealt(batch * (n / 2), [&](llvm::Value* q) {
      llvm::Value* row = mul(b_.CreateUDiv(q, I64(n / 2)), I64(n));
      llvm::Value* f = b_.CreateURem(q, I64(n / 2));
      llvm::Value* pos = b_.CreateURem(f, I64(half));
      llvm::Value* lo = add(add(row, mul(b_.CreateUDiv(f, I64(half)), I64(len))), pos);
      llvm::Value* hi = add(lo, I64(half));
      auto [c, sn] = twiddle_of(pos, len);
      llvm::Value* xr = load(out[0], hi);
      llvm::Value* xi = load(out[1], hi);
      llvm::Value* tr = b_.CreateFSub(b_.CreateFMul(c, xr), b_.CreateFMul(sn, xi));
      llvm::Value* ti = b_.CreateFAdd(b_.CreateFMul(c, xi), b_.CreateFMul(sn, xr));
      llvm::Value* ur = load(out[0], lo);
      llvm::Value* ui = load(out[1], lo);
      store(out[0], lo, b_.CreateFAdd(ur, tr));
      store(out[1], lo, b_.CreateFAdd(ui, ti));
      store(out[0], hi, b_.CreateFSub(ur, tr));
      store(out[1], hi, b_.CreateFSub(ui, ti));
    });
  }
}

}  // namespace tilec::codegen::bs
