// Sequential lowering of the dense linear-algebra tile ops (tile_diag_add, tile_cholesky,
// tile_lower_solve, tile_upper_solve) over flat row-major buffers. The CPU runs it per block
// program; the SIMT lowering runs the same code on lane 0, so both round identically.
#include <llvm/IR/Intrinsics.h>

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
      // L[i, j] = (A[i, j] - sum_k L[i, k] L[j, k]) / L[j, j] for i > j, each sum subtracting
      // its products in increasing k < j. The strictly upper triangle is zero.
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
        EmitCountedLoop(sub(I64(n - 1), j), [&](llvm::Value* r) {
          llvm::Value* irow = mul(add(add(j, I64(1)), r), I64(n));
          b_.CreateStore(load(dst, add(irow, j)), acc);
          EmitCountedLoop(j, [&](llvm::Value* k) { sub_product(load(dst, add(irow, k)), load(dst, add(jrow, k))); });
          store(dst, add(irow, j), b_.CreateFDiv(b_.CreateLoad(vt, acc), djj));
        });
      });
      return;
    }
    case OpCode::TileLowerSolve: case OpCode::TileUpperSolve: {
      // Column by column of y: forward substitution for rows 0..M-1 (lower), backward for
      // rows M-1..0 (upper); z[i] = (y[i] - sum_k m[i, k] z[k]) / m[i, i], the products
      // subtracted in increasing k over the solved rows.
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
          store(dst, add(mul(i, I64(cols)), c), b_.CreateFDiv(b_.CreateLoad(vt, acc), load(in[0], add(irow, i))));
        });
      });
      return;
    }
    case OpCode::TileMatmul: case OpCode::TileTril: TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Elementwise)
    TILEC_CASES(Compare) TILEC_CASES(Logic) TILEC_CASES(Array) TILEC_CASES(Struct) TILEC_CASES(TileBuild)
    TILEC_CASES(TileMap) TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileShape)
    TILEC_CASES(TileElement) TILEC_CASES(TileMemory) TILEC_CASES(Print) TILEC_CASES(Control) TILEC_CASES(Terminator)
      ir::op_cases::NotHandledHere(op, "linear-algebra emitter");
  }
}

}  // namespace tilec::codegen::bs
