// tile_matmul on the CPU: the result in blocks of MR rows by NR columns, whose accumulators stay
// in vector registers across the k loop (a[i,k] broadcast, a row of b loaded, one fma each).
// Each element still gets fma(a[i,k], b[k,j], acc) in increasing k, MatmulElement's bits.
#include <algorithm>

#include <llvm/IR/Intrinsics.h>
#include <llvm/TargetParser/Host.h>

#include "codegen/block_serial/emitter.h"

namespace tilec::codegen::bs {

namespace {

// The host's vector registers: the JIT and the shared objects target the host CPU
// (host/target.cpp), so the blocking is chosen for it.
struct VectorRegs {
  int bits;
  int count;
};

VectorRegs HostVectorRegs() {
  static const VectorRegs regs = [] {
    llvm::StringMap<bool> f = llvm::sys::getHostCPUFeatures();
    if (f.lookup("avx512f")) return VectorRegs{512, 32};
    if (f.lookup("avx")) return VectorRegs{256, 16};
    return VectorRegs{128, 16};
  }();
  return regs;
}

// Columns [off, off + valid) of a block, read and written as one vector of `width` lanes
// (masked where valid < width).
struct Piece {
  int64_t off;
  int valid;
};

constexpr int kVectorsPerRow = 2;  // two vectors of b per k: loads stay below half the FMAs

// The factors' next tiles prefetched during a product: at most 256 KiB, a quarter of a core's
// L2 on current x86 servers, into L2 (locality 2: the current factors keep L1), and only
// factors of 4 KiB or more (smaller ones are a few lines the hardware prefetchers follow).
constexpr int64_t kMaxPrefetchLines = 4096;
constexpr int kPrefetchLocality = 2;
constexpr int64_t kMinPrefetchBytes = 4096;

}  // namespace

void Emitter::EmitMatmulInto(const ir::Op& op, const MatmulStore* direct) {
  llvm::Value* dst = AllocTile(op.result()->type(), "matmul");
  EmitMatmul(op, Get(op.operand(0)), Get(op.operand(1)), Get(op.operand(2)), dst, direct);
  Set(op.result(), dst);
}

void Emitter::EmitMatmul(const ir::Op& op, llvm::Value* a, llvm::Value* b, llvm::Value* c, llvm::Value* dst,
                         const MatmulStore* direct) {
  const ir::Type& at = op.operand(0)->type();
  const ir::Type& bt = op.operand(1)->type();
  const ir::Type& ct = op.operand(2)->type();
  const ScalarType cs = ct.elem.scalar, acc_s = AccType(cs);
  const int64_t M = at.shape[0], K = at.shape[1], N = bt.shape[1];
  llvm::Type* et = ValTy(acc_s);
  const unsigned esize = unsigned(mod_.getDataLayout().getTypeAllocSize(et));
  const llvm::Align ealign(esize);

  // Operands not already in the accumulator type are converted once (as MatmulElement converts
  // each read), so the inner loop only loads.
  auto in_acc = [&](llvm::Value* buf, const ir::ElemType& e, int64_t n, const char* name) -> llvm::Value* {
    if (!e.is_struct() && e.scalar == acc_s) return buf;
    llvm::Value* tmp = EntryAlloca(llvm::ArrayType::get(et, uint64_t(n)), name, 64);
    EmitCountedLoop(I64(n), [&](llvm::Value* i) {
      llvm::Value* v = FromMem(b_.CreateLoad(MemTy(e), b_.CreateInBoundsGEP(MemTy(e), buf, {i})), e);
      b_.CreateStore(EmitCast(v, e.scalar, acc_s), b_.CreateInBoundsGEP(et, tmp, {i}));
    });
    return tmp;
  };
  llvm::Value* av = in_acc(a, at.elem, M * K, "mm.a");
  llvm::Value* bv = in_acc(b, bt.elem, K * N, "mm.b");
  // `c = wp.tile_matmul(a, b)` starts from tile_full of a constant: the accumulators start
  // from it in registers, and the fill, never read, goes away.
  llvm::Constant* start = nullptr;
  if (const ir::Op* d = op.operand(2)->def(); d && d->code() == ir::OpCode::TileFull)
    if (auto* k = llvm::dyn_cast<llvm::Constant>(Get(d->operand(0))))
      start = llvm::dyn_cast<llvm::Constant>(EmitCast(k, cs, acc_s));
  llvm::Value* cin = start ? nullptr : in_acc(c, ct.elem, M * N, "mm.c");
  // A 16-bit out accumulates in float32 in place and is rounded once at the end.
  llvm::Value* cout = nullptr;
  if (cin == c || (start && acc_s == cs)) cout = dst;
  else if (start) cout = EntryAlloca(llvm::ArrayType::get(et, uint64_t(M * N)), "mm.c", 64);
  else cout = cin;

  const VectorRegs regs = HostVectorRegs();
  const int vl = std::max(1, regs.bits / int(8 * esize));
  const int64_t nr = int64_t(kVectorsPerRow) * vl;
  // Accumulators plus the row of b and a broadcast fill the registers without spilling.
  const int mr = std::min(8, (regs.count - kVectorsPerRow - 2) / kVectorsPerRow);
  llvm::Type* vt = llvm::FixedVectorType::get(et, unsigned(vl));

  auto ptr = [&](llvm::Value* buf, llvm::Value* lin) { return b_.CreateInBoundsGEP(et, buf, {lin}); };
  auto mask = [&](int valid) {
    std::vector<llvm::Constant*> bits;
    for (int l = 0; l < vl; ++l) bits.push_back(b_.getInt1(l < valid));
    return llvm::ConstantVector::get(bits);
  };
  auto load_piece = [&](llvm::Value* buf, llvm::Value* lin, const Piece& p) -> llvm::Value* {
    if (p.valid == vl) return b_.CreateAlignedLoad(vt, ptr(buf, lin), ealign);
    return b_.CreateMaskedLoad(vt, ptr(buf, lin), ealign, mask(p.valid), llvm::Constant::getNullValue(vt));
  };
  auto store_piece = [&](llvm::Value* v, llvm::Value* buf, llvm::Value* lin, const Piece& p) {
    if (p.valid == vl) b_.CreateAlignedStore(v, ptr(buf, lin), ealign);
    else b_.CreateMaskedStore(v, ptr(buf, lin), ealign, mask(p.valid));
  };
  auto add = [&](llvm::Value* x, int64_t y) { return b_.CreateAdd(x, I64(y), "", true, true); };
  auto mul = [&](llvm::Value* x, int64_t y) { return b_.CreateMul(x, I64(y), "", true, true); };

  // Direct stores stream where the array is large and every full vector lands aligned.
  llvm::Value* streams = nullptr;
  if (direct) {
    const int64_t vbytes = int64_t(vl) * esize;
    llvm::Value* at = b_.CreatePtrToInt(direct->origin, b_.getInt64Ty());
    llvm::Value* aligned = b_.CreateICmpEQ(b_.CreateAnd(b_.CreateOr(at, direct->row_stride), I64(vbytes - 1)), I64(0));
    streams = b_.CreateAnd(direct->nt, aligned, "mm.streams");
    llvm::Value* used = b_.CreateAnd(direct->ok, streams);
    b_.CreateStore(b_.CreateOr(b_.CreateLoad(b_.getInt1Ty(), streamed_), used), streamed_);
  }

  // The factors' next tiles (MatmulSource), prefetched a share per register block so that
  // their lines arrive while this product keeps the core busy: rows of lines, at most
  // kMaxPrefetchLines in all.
  const int64_t mfull = M / mr, mrem = M % mr, nfull = N / nr, nrem = N % nr;
  const int64_t row_blocks = mfull + (mrem > 0), blocks = row_blocks * (nfull + (nrem > 0));
  struct Prefetch {
    const MatmulSource* src;
    int64_t per_row, lines, per_block;
  };
  std::vector<Prefetch> prefetch;
  int64_t budget = kMaxPrefetchLines;
  for (int f = 0; f < 2; ++f) {
    auto it = matmul_sources_.find(op.operand(f));
    if (it == matmul_sources_.end() || blocks == 0 || it->second.rows * it->second.row_bytes < kMinPrefetchBytes)
      continue;
    const int64_t per_row = (it->second.row_bytes + 63) / 64;
    const int64_t lines = std::min(budget, it->second.rows * per_row);
    if (lines <= 0) continue;
    budget -= lines;
    prefetch.push_back({&it->second, per_row, lines, (lines + blocks - 1) / blocks});
  }
  auto prefetch_share = [&](llvm::Value* q) {
    for (const Prefetch& p : prefetch) {
      EmitCountedLoop(I64(p.per_block), [&](llvm::Value* t) {
        // Line q * per_block + t (the last one again past the end).
        llvm::Value* l = b_.CreateAdd(mul(q, p.per_block), t);
        l = b_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, l, I64(p.lines - 1));
        llvm::Value* off = b_.CreateAdd(b_.CreateMul(b_.CreateUDiv(l, I64(p.per_row)), p.src->row_stride),
                                        b_.CreateMul(b_.CreateURem(l, I64(p.per_row)), I64(64)));
        llvm::Value* at = b_.CreateGEP(b_.getInt8Ty(), p.src->next, {off});
        b_.CreateIntrinsic(llvm::Intrinsic::prefetch, {at->getType()},
                           {at, b_.getInt32(0), b_.getInt32(kPrefetchLocality), b_.getInt32(1)});
      });
    }
  };

  // Rows i0..i0+rows-1 by the pieces' columns from j0, register block q of the product. The
  // accumulators are stack slots that SROA turns into registers (vector values carried by the
  // k loop).
  auto block = [&](llvm::Value* q, llvm::Value* i0, int rows, llvm::Value* j0, const std::vector<Piece>& pieces) {
    prefetch_share(q);
    std::vector<llvm::Value*> slots;
    for (int r = 0; r < rows; ++r) {
      llvm::Value* row = mul(add(i0, r), N);
      for (const Piece& p : pieces) {
        llvm::Value* s = EntryAlloca(vt, "mm.acc", 64);
        b_.CreateStore(start ? b_.CreateVectorSplat(unsigned(vl), start)
                             : load_piece(cin, add(b_.CreateAdd(row, j0, "", true, true), p.off), p),
                       s);
        slots.push_back(s);
      }
    }
    EmitCountedLoop(I64(K), [&](llvm::Value* k) {
      std::vector<llvm::Value*> brow;
      llvm::Value* bk = b_.CreateAdd(mul(k, N), j0, "", true, true);
      for (const Piece& p : pieces) brow.push_back(load_piece(bv, add(bk, p.off), p));
      for (int r = 0; r < rows; ++r) {
        llvm::Value* x = b_.CreateLoad(et, ptr(av, b_.CreateAdd(mul(add(i0, r), K), k, "", true, true)));
        llvm::Value* xs = b_.CreateVectorSplat(unsigned(vl), x);
        for (size_t p = 0; p < pieces.size(); ++p) {
          llvm::Value* s = slots[size_t(r) * pieces.size() + p];
          llvm::Value* acc = b_.CreateLoad(vt, s);
          b_.CreateStore(b_.CreateIntrinsic(llvm::Intrinsic::fma, {vt}, {xs, brow[p], acc}), s);
        }
      }
    });
    auto to_tile = [&] {
      for (int r = 0; r < rows; ++r) {
        llvm::Value* row = mul(add(i0, r), N);
        for (size_t p = 0; p < pieces.size(); ++p)
          store_piece(b_.CreateLoad(vt, slots[size_t(r) * pieces.size() + p]), cout,
                      add(b_.CreateAdd(row, j0, "", true, true), pieces[p].off), pieces[p]);
      }
    };
    if (!direct) {
      to_tile();
      return;
    }
    // Straight into the array's rows (non-temporal where whole aligned vectors stream).
    auto to_array = [&](bool streaming) {
      for (int r = 0; r < rows; ++r) {
        llvm::Value* row = b_.CreateGEP(b_.getInt8Ty(), direct->origin, {b_.CreateMul(add(i0, r), direct->row_stride)});
        for (size_t p = 0; p < pieces.size(); ++p) {
          llvm::Value* v = b_.CreateLoad(vt, slots[size_t(r) * pieces.size() + p]);
          llvm::Value* at = b_.CreateInBoundsGEP(et, row, {add(j0, pieces[p].off)});
          if (pieces[p].valid < vl) {
            b_.CreateMaskedStore(v, at, ealign, mask(pieces[p].valid));
            continue;
          }
          llvm::StoreInst* st = b_.CreateAlignedStore(v, at, streaming ? llvm::Align(uint64_t(vl) * esize) : ealign);
          if (streaming)
            st->setMetadata(llvm::LLVMContext::MD_nontemporal,
                            llvm::MDNode::get(ctx_, llvm::ConstantAsMetadata::get(b_.getInt32(1))));
        }
      }
    };
    llvm::BasicBlock* tile_bb = llvm::BasicBlock::Create(ctx_, "mm.to_tile", fn_);
    llvm::BasicBlock* array_bb = llvm::BasicBlock::Create(ctx_, "mm.to_array", fn_);
    llvm::BasicBlock* stream_bb = llvm::BasicBlock::Create(ctx_, "mm.stream", fn_);
    llvm::BasicBlock* plain_bb = llvm::BasicBlock::Create(ctx_, "mm.plain", fn_);
    llvm::BasicBlock* stored = llvm::BasicBlock::Create(ctx_, "mm.stored", fn_);
    b_.CreateCondBr(direct->ok, array_bb, tile_bb);
    b_.SetInsertPoint(tile_bb);
    to_tile();
    b_.CreateBr(stored);
    b_.SetInsertPoint(array_bb);
    b_.CreateCondBr(streams, stream_bb, plain_bb);
    b_.SetInsertPoint(stream_bb);
    to_array(true);
    b_.CreateBr(stored);
    b_.SetInsertPoint(plain_bb);
    to_array(false);
    b_.CreateBr(stored);
    b_.SetInsertPoint(stored);
  };

  // Column panels outermost: a panel of b (K x NR) stays in L1 while every row block reads it.
  auto panel = [&](llvm::Value* jb, const std::vector<Piece>& pieces) {
    llvm::Value* j0 = mul(jb, nr);
    llvm::Value* q0 = mul(jb, row_blocks);
    if (mfull > 0)
      EmitCountedLoop(I64(mfull), [&](llvm::Value* ib) { block(b_.CreateAdd(q0, ib), mul(ib, mr), mr, j0, pieces); });
    if (mrem > 0) block(add(q0, mfull), I64(mfull * mr), int(mrem), j0, pieces);
  };
  std::vector<Piece> full, tail;
  for (int v = 0; v < kVectorsPerRow; ++v) full.push_back({int64_t(v) * vl, vl});
  for (int64_t off = 0; off < nrem; off += vl) tail.push_back({off, int(std::min<int64_t>(vl, nrem - off))});
  if (nfull > 0) EmitCountedLoop(I64(nfull), [&](llvm::Value* jb) { panel(jb, full); });
  if (nrem > 0) panel(I64(nfull), tail);

  if (cout != dst) {
    const ir::Type& rt = op.result()->type();
    EmitCountedLoop(I64(M * N), [&](llvm::Value* i) {
      llvm::Value* r = EmitCast(b_.CreateLoad(et, ptr(cout, i)), acc_s, cs);
      b_.CreateStore(ToMem(r, rt.elem), TileElemPtr(dst, rt.elem, i));
    });
  }
}

}  // namespace tilec::codegen::bs
