// tile_matmul on tensor cores: warps own 16x8 blocks of the result and run m16n8k16 mma.sync
// over K, their fragments loaded by ldmatrix from the factors' shared copies (PTX ISA fragment
// layouts); precision="tf32" runs m16n8k8 tf32 instructions on float32 factors rounded to tf32. The host SIMT target emulates both instructions with shared-memory exchanges
// between barriers, so the same fragment arithmetic runs, and is tested, without a GPU.
#include "codegen/simt/emitter.h"

#include <stdexcept>

#include <llvm/IR/Intrinsics.h>

namespace tilec::codegen::simt {

std::vector<llvm::Value*> Target::LdMatrix(llvm::IRBuilder<>&, llvm::Value*, int, bool) {
  throw std::logic_error("ldmatrix requested from a target without tensor cores");
}

std::vector<llvm::Value*> Target::MmaSync(llvm::IRBuilder<>&, ScalarType, const std::vector<llvm::Value*>&,
                                          const std::vector<llvm::Value*>&, const std::vector<llvm::Value*>&) {
  throw std::logic_error("mma.sync requested from a target without tensor cores");
}

llvm::Value* Target::ToTf32(llvm::IRBuilder<>&, llvm::Value*) {
  throw std::logic_error("cvt.rna.tf32 requested from a target without tensor cores");
}

namespace {

// Fragment coordinates of lane `wl` in its warp (PTX ISA "matrix fragments for mma.m16n8k16"):
// groupID and threadID_in_group.
struct LaneInWarp {
  llvm::Value* base;  // lane of the warp's first thread
  llvm::Value* wl;    // 0..31
  llvm::Value* g;     // wl / 4
  llvm::Value* t;     // wl % 4
};

LaneInWarp Split(llvm::IRBuilder<>& b, llvm::Value* lane) {
  LaneInWarp l;
  l.wl = b.CreateAnd(lane, 31);
  l.base = b.CreateSub(lane, l.wl);
  l.g = b.CreateLShr(l.wl, 2);
  l.t = b.CreateAnd(l.wl, 3);
  return l;
}

}  // namespace

std::vector<llvm::Value*> Emitter::LdMatrix(llvm::Value* row, int count, bool trans, llvm::Value* xch) {
  if (target_.Mma() == MmaSupport::Native) return target_.LdMatrix(b_, row, count, trans);
  // Emulated: each lane publishes the row address it supplies; lanes 8j..8j+7 give the rows
  // of matrix j. Lane l then receives row l/4 of each matrix, elements 2(l%4) and 2(l%4)+1
  // (with .trans, of the transposed matrix: column l/4 of rows 2(l%4) and 2(l%4)+1).
  llvm::Type* i64 = b_.getInt64Ty();
  llvm::Type* i16 = b_.getInt16Ty();
  llvm::Type* i32 = b_.getInt32Ty();
  b_.CreateStore(b_.CreatePtrToInt(row, i64), b_.CreateInBoundsGEP(i64, xch, {lane_}));
  target_.Barrier(b_);
  LaneInWarp l = Split(b_, lane_);
  auto row_addr = [&](int j, llvm::Value* r) {
    llvm::Value* at = b_.CreateAdd(b_.CreateAdd(l.base, I64(8 * j)), r);
    return b_.CreateLoad(i64, b_.CreateInBoundsGEP(i64, xch, {at}));
  };
  auto elem = [&](llvm::Value* addr, llvm::Value* byte_off) {
    return b_.CreateZExt(b_.CreateLoad(i16, b_.CreateIntToPtr(b_.CreateAdd(addr, byte_off), b_.getPtrTy())), i32);
  };
  std::vector<llvm::Value*> regs;
  for (int j = 0; j < count; ++j) {
    llvm::Value *lo, *hi;
    if (!trans) {
      llvm::Value* r = row_addr(j, l.g);
      llvm::Value* off = b_.CreateMul(l.t, I64(4));
      lo = elem(r, off);
      hi = elem(r, b_.CreateAdd(off, I64(2)));
    } else {
      llvm::Value* two_t = b_.CreateMul(l.t, I64(2));
      llvm::Value* col = b_.CreateMul(l.g, I64(2));
      lo = elem(row_addr(j, two_t), col);
      hi = elem(row_addr(j, b_.CreateAdd(two_t, I64(1))), col);
    }
    regs.push_back(b_.CreateOr(lo, b_.CreateShl(hi, 16)));
  }
  // Nobody publishes the next address before every lane has read these.
  target_.Barrier(b_);
  return regs;
}

std::vector<llvm::Value*> Emitter::MmaSync(ScalarType factors, const std::vector<llvm::Value*>& a,
                                           const std::vector<llvm::Value*>& bm, const std::vector<llvm::Value*>& c,
                                           llvm::Value* xch) {
  if (target_.Mma() == MmaSupport::Native) return target_.MmaSync(b_, factors, a, bm, c);
  // Emulated: the warp's fragments are published (6 registers per lane), then each lane
  // computes its four results d_i = c_i + sum_k A[row_i, k] B[k, col_i], as fma in increasing k.
  // m16n8k16 (16-bit factors, two per register): A[row, k] sits in lane 4g + (k % 8) / 2,
  // register (row >= 8) + 2 (k >= 8), half k % 2; B[k, col] in lane 4 col + (k % 8) / 2,
  // register 4 + (k >= 8), half k % 2. m16n8k8 tf32 (one per register): A[row, k] in lane
  // 4g + k % 4, register (row >= 8) + 2 (k >= 4); B[k, col] in lane 4 col + k % 4, register
  // 4 + (k >= 4).
  const bool tf32 = factors == ScalarType::Float32;
  llvm::Type* i32 = b_.getInt32Ty();
  for (int r = 0; r < 4; ++r)
    b_.CreateStore(a[size_t(r)], b_.CreateInBoundsGEP(i32, xch, {b_.CreateAdd(b_.CreateMul(lane_, I64(6)), I64(r))}));
  for (int r = 0; r < 2; ++r)
    b_.CreateStore(bm[size_t(r)], b_.CreateInBoundsGEP(i32, xch, {b_.CreateAdd(b_.CreateMul(lane_, I64(6)), I64(4 + r))}));
  target_.Barrier(b_);
  LaneInWarp l = Split(b_, lane_);
  // Element `half` of register `reg` of lane `who`, as float.
  auto element = [&](llvm::Value* who, int reg, int half) {
    llvm::Value* word = b_.CreateLoad(i32, b_.CreateInBoundsGEP(i32, xch, {b_.CreateAdd(b_.CreateMul(who, I64(6)), I64(reg))}));
    if (tf32) return b_.CreateBitCast(word, b_.getFloatTy());
    llvm::Value* bits = b_.CreateTrunc(b_.CreateLShr(word, uint64_t(16 * half)), b_.getInt16Ty());
    return scalar_.ToF32(bits, factors);
  };
  std::vector<llvm::Value*> d;
  for (int i = 0; i < 4; ++i) {
    const int row_hi = i >= 2 ? 1 : 0;                                  // row g or g + 8
    llvm::Value* col = b_.CreateAdd(b_.CreateMul(l.t, I64(2)), I64(i & 1));  // 2t + (i & 1)
    llvm::Value* acc = c[size_t(i)];
    for (int k = 0; k < (tf32 ? 8 : 16); ++k) {
      const int in_group = tf32 ? k % 4 : (k % 8) / 2;
      const int upper = tf32 ? (k >= 4) : (k >= 8);
      llvm::Value* la = b_.CreateAdd(l.base, b_.CreateAdd(b_.CreateMul(l.g, I64(4)), I64(in_group)));
      llvm::Value* lb = b_.CreateAdd(l.base, b_.CreateAdd(b_.CreateMul(col, I64(4)), I64(in_group)));
      llvm::Value* x = element(la, row_hi + 2 * upper, k % 2);
      llvm::Value* y = element(lb, 4 + upper, k % 2);
      acc = b_.CreateIntrinsic(llvm::Intrinsic::fma, {b_.getFloatTy()}, {x, y, acc});
    }
    d.push_back(acc);
  }
  target_.Barrier(b_);
  return d;
}

llvm::Value* Emitter::ToTf32(llvm::Value* f) {
  if (target_.Mma() == MmaSupport::Native) return target_.ToTf32(b_, f);
  // cvt.rna.tf32.f32: round the magnitude at the 13th bit, ties away from zero; NaN and
  // infinity keep their bits.
  llvm::Value* bits = b_.CreateBitCast(f, b_.getInt32Ty());
  llvm::Value* rounded = b_.CreateAnd(b_.CreateAdd(bits, b_.getInt32(0x1000)), b_.getInt32(0xFFFFE000u));
  llvm::Value* special = b_.CreateICmpEQ(b_.CreateAnd(bits, b_.getInt32(0x7F800000)), b_.getInt32(0x7F800000));
  return b_.CreateSelect(special, bits, rounded);
}

void Emitter::EmitMatmulMma(const ir::Op& op) {
  const ir::Type& at = op.operand(0)->type();
  const ir::Type& bt = op.operand(1)->type();
  const ir::Type& ct = op.operand(2)->type();
  const ir::Type& rt = op.result()->type();
  const int64_t M = at.shape[0], K = at.shape[1], N = bt.shape[1];
  const ScalarType in = at.elem.scalar, cs = ct.elem.scalar;
  llvm::Type* f32 = b_.getFloatTy();
  llvm::Type* i16 = b_.getInt16Ty();
  llvm::Value* a = CrossLanePtr(op.operand(0));
  llvm::Value* bm = CrossLanePtr(op.operand(1));
  llvm::Value* c = CrossLanePtr(op.operand(2));
  const SharedSlot& slot = plan_->slot(plan_->MmaScratch(&op));
  llvm::Value* scratch = SharedPtr(slot.offset);
  llvm::Value* xch = target_.Mma() == MmaSupport::Emulated ? SharedPtr(slot.offset + Plan::MmaExchangeOffset(op)) : nullptr;
  llvm::Type* cmt = scalar_.MemTy(ct.elem);

  LaneInWarp l = Split(b_, lane_);
  llvm::Value* warp = b_.CreateLShr(lane_, 5);
  const int64_t warps = B_ / 32, blocks_n = N / 8, blocks = (M / 16) * blocks_n;
  llvm::Type* acc_ty = llvm::ArrayType::get(f32, 4);
  llvm::Value* acc = EntryAlloca(acc_ty, "mma.acc");
  auto acc_at = [&](unsigned i) { return b_.CreateConstInBoundsGEP2_32(acc_ty, acc, 0, i); };
  // Every warp runs the same number of rounds (emulation's barriers are the whole block's);
  // a warp without a block in the last round computes block 0 again and keeps nothing.
  Loop(I64(0), I64((blocks + warps - 1) / warps), [&](llvm::Value* round) {
    llvm::Value* blk = b_.CreateAdd(b_.CreateMul(round, I64(warps)), warp);
    llvm::Value* valid = b_.CreateICmpSLT(blk, I64(blocks));
    blk = b_.CreateSelect(valid, blk, I64(0));
    llvm::Value* m0 = b_.CreateMul(b_.CreateSDiv(blk, I64(blocks_n)), I64(16));
    llvm::Value* n0 = b_.CreateMul(b_.CreateSRem(blk, I64(blocks_n)), I64(8));
    // c/d fragment i: row m0 + g (+ 8 for i >= 2), column n0 + 2t + (i & 1).
    std::vector<llvm::Value*> pos;
    for (int i = 0; i < 4; ++i) {
      llvm::Value* r = b_.CreateAdd(m0, b_.CreateAdd(l.g, I64(i >= 2 ? 8 : 0)));
      llvm::Value* col = b_.CreateAdd(n0, b_.CreateAdd(b_.CreateMul(l.t, I64(2)), I64(i & 1)));
      pos.push_back(b_.CreateAdd(b_.CreateMul(r, I64(N)), col));
      llvm::Value* cv = scalar_.FromMem(b_.CreateLoad(cmt, b_.CreateInBoundsGEP(cmt, c, {pos.back()})), ct.elem);
      b_.CreateStore(scalar_.EmitCast(cv, cs, ScalarType::Float32), acc_at(unsigned(i)));
    }
    const bool tf32 = op.tf32();
    Loop(I64(0), I64(K / (tf32 ? 8 : 16)), [&](llvm::Value* kb) {
      if (tf32) {
        // m16n8k8 tf32 fragments straight from the float32 copies: a_i = A[m0 + g + 8 (i & 1)]
        // [k0 + t + 4 (i >> 1)], b_i = B[k0 + t + 4 i][n0 + g], each rounded to tf32.
        llvm::Value* k0 = b_.CreateMul(kb, I64(8));
        auto at_a = [&](int i) {
          llvm::Value* r = b_.CreateAdd(m0, b_.CreateAdd(l.g, I64((i & 1) * 8)));
          llvm::Value* col = b_.CreateAdd(k0, b_.CreateAdd(l.t, I64((i >> 1) * 4)));
          return ToTf32(b_.CreateLoad(f32, b_.CreateInBoundsGEP(f32, a, {b_.CreateAdd(b_.CreateMul(r, I64(K)), col)})));
        };
        auto at_b = [&](int i) {
          llvm::Value* r = b_.CreateAdd(k0, b_.CreateAdd(l.t, I64(i * 4)));
          llvm::Value* col = b_.CreateAdd(n0, l.g);
          return ToTf32(b_.CreateLoad(f32, b_.CreateInBoundsGEP(f32, bm, {b_.CreateAdd(b_.CreateMul(r, I64(N)), col)})));
        };
        std::vector<llvm::Value*> af = {at_a(0), at_a(1), at_a(2), at_a(3)}, bf = {at_b(0), at_b(1)}, cf;
        for (unsigned i = 0; i < 4; ++i) cf.push_back(b_.CreateLoad(f32, acc_at(i)));
        std::vector<llvm::Value*> d = MmaSync(ScalarType::Float32, af, bf, cf, xch);
        for (unsigned i = 0; i < 4; ++i) b_.CreateStore(d[i], acc_at(i));
        return;
      }
      llvm::Value* k0 = b_.CreateMul(kb, I64(16));
      // A (row-major, M x K): lane supplies row (wl % 8) of matrix q = wl / 8, where matrix q
      // is A[m0 + 8 (q & 1) ..][k0 + 8 (q >> 1) ..]: a0..a3 as the mma expects them.
      llvm::Value* q = b_.CreateLShr(l.wl, 3);
      llvm::Value* arow = b_.CreateAdd(m0, b_.CreateAdd(b_.CreateAnd(l.wl, 7), b_.CreateMul(b_.CreateAnd(q, 1), I64(8))));
      llvm::Value* acol = b_.CreateAdd(k0, b_.CreateMul(b_.CreateLShr(q, 1), I64(8)));
      llvm::Value* aptr = b_.CreateInBoundsGEP(i16, a, {b_.CreateAdd(b_.CreateMul(arow, I64(K)), acol)});
      std::vector<llvm::Value*> af = LdMatrix(aptr, 4, false, xch);
      // B (row-major, K x N), transposed on load: lanes 0..15 supply rows k0..k0+15 at n0,
      // matrices B[k0..k0+7] and B[k0+8..k0+15]; lanes 16..31 repeat them (unused).
      llvm::Value* brow = b_.CreateAdd(k0, b_.CreateAnd(l.wl, 15));
      llvm::Value* bptr = b_.CreateInBoundsGEP(i16, bm, {b_.CreateAdd(b_.CreateMul(brow, I64(N)), n0)});
      std::vector<llvm::Value*> bf = LdMatrix(bptr, 2, true, xch);
      std::vector<llvm::Value*> cf;
      for (unsigned i = 0; i < 4; ++i)
        cf.push_back(b_.CreateLoad(f32, acc_at(i)));
      std::vector<llvm::Value*> d = MmaSync(in, af, bf, cf, xch);
      for (unsigned i = 0; i < 4; ++i)
        b_.CreateStore(d[i], acc_at(i));
    });
    llvm::Function* fn = b_.GetInsertBlock()->getParent();
    llvm::BasicBlock* keep = llvm::BasicBlock::Create(ctx_, "mma.keep", fn);
    llvm::BasicBlock* next = llvm::BasicBlock::Create(ctx_, "mma.next", fn);
    b_.CreateCondBr(valid, keep, next);
    b_.SetInsertPoint(keep);
    for (unsigned i = 0; i < 4; ++i)
      b_.CreateStore(b_.CreateLoad(f32, acc_at(i)), b_.CreateInBoundsGEP(f32, scratch, {pos[i]}));
    b_.CreateBr(next);
    b_.SetInsertPoint(next);
  });
  target_.Barrier(b_);
  // Each lane takes its own elements, rounded once into the accumulator's type (as the FMA
  // path's MatmulElement ends).
  TileRep dst = NewTile(op.result());
  ForEachElem(rt, [&](llvm::Value* s, llvm::Value* lin) {
    llvm::Value* v = b_.CreateLoad(f32, b_.CreateInBoundsGEP(f32, scratch, {lin}));
    StoreElem(dst, rt.elem, s, lin, scalar_.EmitCast(v, ScalarType::Float32, cs));
  });
  tiles_[op.result()] = dst;
}

}  // namespace tilec::codegen::simt
