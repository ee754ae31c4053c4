// The adjoints of the six tile memory ops and the scalar array ops, each against a reference
// written from LANGUAGE.md §6 (loops over the tile in this file) and against finite
// differences: repeated gather indices accumulate, out-of-bounds and -1 are skipped in every
// dimension, nothing is written outside a.grad, stores consume a.grad, atomic adds leave it,
// the adjoint of an atomic add's previous values is dropped, and arrays without grad get none.
#include "tests/unit/autodiff/grad_util.h"

namespace tilec::adtest {
namespace {

using ir::OpCode;

ir::Value* IndexTile(KernelBuilder& k, ir::Value* idx_array, int64_t n) {
  return k.b.TileLoad(idx_array, {n}, {k.I(0)});
}

// t = tile_load_indexed(x, idx, (3, 4), offset=(ox, oy), axis); y = t * t (stored)
struct GatherSetup {
  int axis;
  std::vector<int32_t> idx;
  int ox, oy;
};

void RunGather(const GatherSetup& s) {
  const int64_t R = 4, C = 5;  // x is 4 x 5
  const int64_t TM = 3, TN = 4;
  KernelBuilder k("gather");
  ir::Value* x = k.f->AddParam("x", F64Array(2));
  ir::Value* ia = k.f->AddParam("idx", I32Array(1));
  ir::Value* y = k.f->AddParam("y", F64Array(2));
  int64_t n = s.axis == 0 ? TM : TN;
  ir::Value* idx = IndexTile(k, ia, n);
  ir::Value* t = k.b.TileLoadIndexed(x, idx, {TM, TN}, {k.I(s.ox), k.I(s.oy)}, s.axis);
  k.b.TileStore(y, k.b.Binary(OpCode::Mul, t, t), {k.I(0), k.I(0)});
  k.b.Return();
  Compiled c = Compile(k.m, "gather");
  std::vector<double> xs = Seq(int(R * C), 0.5, 0.25);
  std::vector<HostArray> init = {HostArray::Float({R, C}, xs), HostArray::Int({n}, s.idx),
                                 HostArray::Float({TM, TN}, std::vector<double>(TM * TN, 3.0))};
  std::vector<HostArray> out = CheckGradients(c, init, GradCheck{});

  // Reference with y.grad seeded to ones: x.grad[g] = sum over the tile elements e that gather
  // g of 2 * x[g].
  std::vector<double> ref(R * C, 0.0);
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      int64_t gi = s.ox + (s.axis == 0 ? s.idx[i] : i);
      int64_t gj = s.oy + (s.axis == 1 ? s.idx[j] : j);
      if (gi < 0 || gi >= R || gj < 0 || gj >= C) continue;
      ref[gi * C + gj] += 2 * xs[gi * C + gj];
    }
  std::vector<HostArray> again = init;
  RunEntry(c.fwd, again, {}, {1}, 8);
  for (int64_t e = 0; e < TM * TN; ++e) again[2].grad(e) = 1.0;
  for (int64_t e = 0; e < R * C; ++e) again[0].grad(e) = 0.0;
  RunEntry(c.adj, again, {}, {1}, 8);
  for (int64_t e = 0; e < R * C; ++e) EXPECT_DOUBLE_EQ(again[0].grad(e), ref[e]) << "x.grad element " << e;
  for (int k2 = 0; k2 < kPad; ++k2) {
    EXPECT_EQ(again[0].g[k2], kCanary);
    EXPECT_EQ(again[0].g[kPad + R * C + k2], kCanary);
  }
  // y.grad was consumed by the store and zeroed.
  for (int64_t e = 0; e < TM * TN; ++e) EXPECT_EQ(again[2].grad(e), 0.0);
}

TEST(TileLoadIndexedGrad, RepeatedIndicesAccumulate) { RunGather({0, {2, 2, 0}, 0, 0}); }
TEST(TileLoadIndexedGrad, MinusOneAndOutOfBoundsRowsSkipped) { RunGather({0, {-1, 3, 4}, 0, 0}); }
TEST(TileLoadIndexedGrad, OffsetPushesOtherDimensionOutOfBounds) { RunGather({0, {1, 1, 3}, 0, 2}); }
TEST(TileLoadIndexedGrad, NegativeOffsetOtherDimension) { RunGather({0, {0, 1, 2}, 0, -2}); }
TEST(TileLoadIndexedGrad, AxisOneRepeatsAndSentinels) { RunGather({1, {4, -1, 4, 5}, 1, 0}); }
TEST(TileLoadIndexedGrad, AxisOneOffsetAddsToIndices) { RunGather({1, {0, 1, 2, 3}, -1, 2}); }

// p = tile_atomic_add_indexed(a, idx, t); prev = p * 5 stored; the adjoint of t is a.grad at
// the updated locations, a.grad is unchanged, and prev's adjoint is not propagated.
TEST(TileAtomicAddIndexedGrad, ReadsGradLeavesItAndDropsPreviousValues) {
  const int64_t R = 5, C = 3, TM = 4;
  KernelBuilder k("scatter");
  ir::Value* x = k.f->AddParam("x", F64Array(2));
  ir::Value* ia = k.f->AddParam("idx", I32Array(1));
  ir::Value* a = k.f->AddParam("a", F64Array(2));
  ir::Value* prev = k.f->AddParam("prev", F64Array(2));
  ir::Value* o = k.I(0);
  ir::Value* t = k.b.TileLoad(x, {TM, C}, {o, o});
  ir::Value* sq = k.b.Binary(OpCode::Mul, t, t);
  ir::Value* p = k.b.TileAtomicAddIndexed(a, IndexTile(k, ia, TM), sq, {o, o}, 0);
  k.b.TileStore(prev, k.b.Binary(OpCode::Mul, p, k.F(5.0)), {o, o});
  k.b.Return();
  // The previous values reach a stored result: a warning, which Compile would flag.
  diag::DiagnosticEngine diags;
  ir::Module& m = k.m;
  ASSERT_TRUE(autodiff::BuildAdjoints(m, diags));
  ASSERT_EQ(diags.warning_count(), 1);
  EXPECT_EQ(diags.diagnostics()[0].code, diag::Code::AtomicResultNotDifferentiated);
  ASSERT_TRUE(ir::Verify(m).empty());
  std::string err;
  auto jit = codegen::JitCompile(m, err);
  ASSERT_TRUE(jit) << err;
  void* fwd = jit->Lookup(codegen::EntrySymbol("scatter"));
  void* adj = jit->Lookup(codegen::EntrySymbol(autodiff::AdjointName("scatter")));

  std::vector<int32_t> idx = {3, -1, 3, 7};  // repeat, sentinel, out of bounds
  std::vector<double> xs = Seq(int(TM * C), 0.5, 0.5);
  std::vector<HostArray> arrs = {HostArray::Float({TM, C}, xs), HostArray::Int({TM}, idx),
                                 HostArray::Float({R, C}, std::vector<double>(R * C, 1.0)),
                                 HostArray::Float({TM, C}, std::vector<double>(TM * C, 0.0))};
  RunEntry(fwd, arrs, {}, {1}, 4);
  std::vector<double> ag(R * C);
  for (int64_t e = 0; e < R * C; ++e) arrs[2].grad(e) = ag[e] = 1.0 + e;
  for (int64_t e = 0; e < TM * C; ++e) {
    arrs[0].grad(e) = 0.0;
    arrs[3].grad(e) = 100.0;  // would leak into x.grad if the previous values' adjoint flowed
  }
  RunEntry(adj, arrs, {}, {1}, 4);
  for (int64_t e = 0; e < R * C; ++e) EXPECT_EQ(arrs[2].grad(e), ag[e]) << "a.grad changed at " << e;
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < C; ++j) {
      int64_t g = idx[i];
      double expect = (g >= 0 && g < R) ? 2 * xs[i * C + j] * ag[g * C + j] : 0.0;
      EXPECT_DOUBLE_EQ(arrs[0].grad(i * C + j), expect) << i << "," << j;
    }
  // prev.grad was consumed by the store.
  for (int64_t e = 0; e < TM * C; ++e) EXPECT_EQ(arrs[3].grad(e), 0.0);
}

// Plain tile ops with offsets that leave the array on both sides; stores consume a.grad,
// atomic adds leave it; the finite differences cover both.
TEST(PlainTileMemoryGrad, LoadStoreAtomicWithOffsetsOnBothSides) {
  KernelBuilder k("plain");
  ir::Value* x = k.f->AddParam("x", F64Array(2));
  ir::Value* y = k.f->AddParam("y", F64Array(2));
  ir::Value* z = k.f->AddParam("z", F64Array(2));
  ir::Value* t = k.b.TileLoad(x, {3, 3}, {k.I(-1), k.I(1)});
  ir::Value* e = k.b.Unary(OpCode::Exp, t);
  k.b.TileStore(y, e, {k.I(1), k.I(-1)});
  k.b.TileAtomicAdd(z, k.b.Binary(OpCode::Mul, t, e), {k.I(2), k.I(0)});
  k.b.Return();
  Compiled c = Compile(k.m, "plain");
  CheckGradients(c, {HostArray::Float({3, 4}, Seq(12, -0.5, 0.1)), HostArray::Float({3, 3}, Seq(9, 1, 1)),
                     HostArray::Float({4, 2}, Seq(8, 2, 1))},
                 GradCheck{});
}

// tile_store_indexed consumes a.grad at the written rows (out of bounds rows skipped).
TEST(TileStoreIndexedGrad, ConsumesGradAtWrittenRows) {
  KernelBuilder k("scatter_store");
  ir::Value* x = k.f->AddParam("x", F64Array(2));
  ir::Value* ia = k.f->AddParam("idx", I32Array(1));
  ir::Value* y = k.f->AddParam("y", F64Array(2));
  ir::Value* o = k.I(0);
  ir::Value* t = k.b.TileLoad(x, {3, 2}, {o, o});
  k.b.TileStoreIndexed(y, IndexTile(k, ia, 3), k.b.Unary(OpCode::Sin, t), {o, k.I(1)}, 0);
  k.b.Return();
  Compiled c = Compile(k.m, "scatter_store");
  CheckGradients(c, {HostArray::Float({3, 2}, Seq(6, 0.1, 0.3)), HostArray::Int({3}, {4, -1, 1}),
                     HostArray::Float({5, 3}, Seq(15, 0, 1))},
                 GradCheck{});
}

// Scalar element reads, stores and atomics, one thread per element; a[i] with a grad-less
// array next to it gets nothing and breaks nothing.
TEST(ScalarArrayGrad, LoadsStoresAtomicsAndArraysWithoutGrad) {
  KernelBuilder k("scalar_mem", false);
  ir::Value* x = k.f->AddParam("x", F64Array(1));
  ir::Value* nog = k.f->AddParam("nog", F64Array(1));
  ir::Value* y = k.f->AddParam("y", F64Array(1));
  ir::Value* acc = k.f->AddParam("acc", F64Array(1));
  ir::Value* i = k.b.Tid(1)[0];
  ir::Value* v = k.b.Binary(OpCode::Mul, k.b.ArrayLoad(x, {i}), k.b.ArrayLoad(nog, {i}));
  k.b.ArrayStore(y, {i}, k.b.Unary(OpCode::Sin, v));
  k.b.AtomicAdd(acc, {k.I(0)}, k.b.Binary(OpCode::Mul, v, v));
  k.b.Return();
  Compiled c = Compile(k.m, "scalar_mem");
  GradCheck opt;
  opt.grid = {5};
  opt.block_dim = 0;
  CheckGradients(c, {HostArray::Float({5}, Seq(5, 0.2, 0.3)), HostArray::Float({5}, Seq(5, 1.5, -0.4), false),
                     HostArray::Float({5}, Seq(5, 0, 1)), HostArray::Float({1}, {0.5})},
                 opt);
}

// A tile kernel whose input array has no grad: its gradient view is empty, nothing is written.
TEST(NullGrad, TileArraysWithoutGradGetNothing) {
  KernelBuilder k("nullgrad");
  ir::Value* x = k.f->AddParam("x", F64Array(1));
  ir::Value* w = k.f->AddParam("w", F64Array(1));
  ir::Value* y = k.f->AddParam("y", F64Array(1));
  ir::Value* o = k.I(0);
  ir::Value* t = k.b.Binary(OpCode::Mul, k.b.TileLoad(x, {4}, {o}), k.b.TileLoad(w, {4}, {o}));
  k.b.TileAtomicAdd(y, t, {o});
  k.b.Return();
  Compiled c = Compile(k.m, "nullgrad");
  // x without grad: w.grad still correct (finite differences), x untouched.
  std::vector<HostArray> out = CheckGradients(
      c, {HostArray::Float({4}, {1, 2, 3, 4}, false), HostArray::Float({4}, {0.5, 0.25, 2, 1}), HostArray::Float({4}, Seq(4, 0, 1))},
      GradCheck{});
  for (double g : out[0].g) EXPECT_EQ(g, kCanary);
}

}  // namespace
}  // namespace tilec::adtest
