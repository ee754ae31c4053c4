// A realistic kernel: gather rows of x through an index tile, apply f(v) = v*v + sin(v), and
// scatter-add the rows into segments of `out` (a segmented sum), one block per chunk of rows.
// The gradient is checked against the hand-derived
//   x.grad[r, c] = sum over gathered rows i with rows[i] = r of out.grad[seg[i], c] * f'(x[r, c])
// with and without duplicate segment ids, and against finite differences. Then the rejection
// rules: values the adjoint cannot recover make the kernel fail with a diagnostic.
#include "tests/unit/autodiff/grad_util.h"

namespace tilec::adtest {
namespace {

using ir::OpCode;

constexpr int64_t R = 6, C = 3, TM = 4, S = 3;

// Block b gathers rows[b*TM ...] and adds into segments seg[b*TM ...].
ir::Module SegmentedSum() {
  KernelBuilder k("segsum");
  ir::Value* x = k.f->AddParam("x", F64Array(2));
  ir::Value* rows = k.f->AddParam("rows", I32Array(1));
  ir::Value* seg = k.f->AddParam("seg", I32Array(1));
  ir::Value* out = k.f->AddParam("out", F64Array(2));
  ir::Value* blk = k.b.Tid(1)[0];
  ir::Value* base = k.b.Binary(OpCode::Mul, blk, k.I(TM));
  ir::Value* ri = k.b.TileLoad(rows, {TM}, {base});
  ir::Value* si = k.b.TileLoad(seg, {TM}, {base});
  ir::Value* t = k.b.TileLoadIndexed(x, ri, {TM, C}, {k.I(0), k.I(0)}, 0);
  ir::Value* f = k.b.Binary(OpCode::Add, k.b.Binary(OpCode::Mul, t, t), k.b.Unary(OpCode::Sin, t));
  k.b.TileAtomicAddIndexed(out, si, f, {k.I(0), k.I(0)}, 0);
  k.b.Return();
  return std::move(k.m);
}

void CheckSegmentedSum(const std::vector<int32_t>& rows, const std::vector<int32_t>& seg) {
  ir::Module m = SegmentedSum();
  Compiled c = Compile(m, "segsum");
  int64_t blocks = int64_t(rows.size()) / TM;
  std::vector<double> xs = Seq(int(R * C), -0.8, 0.17);
  std::vector<HostArray> init = {HostArray::Float({R, C}, xs), HostArray::Int({int64_t(rows.size())}, rows),
                                 HostArray::Int({int64_t(seg.size())}, seg),
                                 HostArray::Float({S, C}, std::vector<double>(S * C, 0.5))};
  GradCheck opt;
  opt.grid = {blocks};
  opt.block_dim = 4;
  CheckGradients(c, init, opt);

  // Hand-derived reference with out.grad = g.
  std::vector<HostArray> a = init;
  RunEntry(c.fwd, a, {}, {blocks}, 4);
  std::vector<double> g(S * C);
  for (int64_t e = 0; e < S * C; ++e) a[3].grad(e) = g[e] = 0.25 * double(e + 1);
  for (int64_t e = 0; e < R * C; ++e) a[0].grad(e) = 0;
  RunEntry(c.adj, a, {}, {blocks}, 4);
  std::vector<double> ref(R * C, 0.0);
  for (size_t i = 0; i < rows.size(); ++i)
    for (int64_t col = 0; col < C; ++col) {
      int r = rows[i], s = seg[i];
      if (r < 0 || r >= R || s < 0 || s >= S) continue;
      double v = xs[r * C + col];
      ref[r * C + col] += g[s * C + col] * (2 * v + std::cos(v));
    }
  for (int64_t e = 0; e < R * C; ++e) EXPECT_NEAR(a[0].grad(e), ref[e], 1e-12) << "x.grad element " << e;
  for (int64_t e = 0; e < S * C; ++e) EXPECT_EQ(a[3].grad(e), g[e]) << "out.grad changed";
}

TEST(SegmentedSum, DistinctSegments) { CheckSegmentedSum({5, 0, 3, 1, 2, 4, 1, 0}, {0, 1, 2, -1, 2, 0, 1, 7}); }

TEST(SegmentedSum, DuplicateSegmentsAndRows) { CheckSegmentedSum({1, 1, 4, 2, 5, 1, 0, 3}, {2, 2, 2, 0, 0, 1, 0, 0}); }

// ---- rejection rules ----

std::vector<diag::Code> Codes(ir::Module& m) {
  diag::DiagnosticEngine diags;
  autodiff::BuildAdjoints(m, diags);
  std::vector<diag::Code> out;
  for (const diag::Diagnostic& d : diags.diagnostics()) out.push_back(d.code);
  EXPECT_TRUE(ir::Verify(m).empty());
  return out;
}

// t = tile_load(x); tile_store(x, t * t): the adjoint needs t, which the store overwrote.
TEST(Rejections, LoadFromArrayTheKernelOverwrites) {
  KernelBuilder k("inplace");
  ir::Value* x = k.f->AddParam("x", F64Array(1));
  ir::Value* t = k.b.TileLoad(x, {4}, {k.I(0)});
  k.b.TileStore(x, k.b.Binary(OpCode::Mul, t, t), {k.I(0)});
  k.b.Return();
  EXPECT_EQ(Codes(k.m), std::vector<diag::Code>{diag::Code::AdjointNeedsOverwrittenLoad});
  EXPECT_EQ(k.m.FindFunction(autodiff::AdjointName("inplace")), nullptr);
}

// A linear in-place update needs no loaded value: accepted, and the gradient is right.
TEST(Rejections, LinearInPlaceUpdateIsAccepted) {
  KernelBuilder k("scale");
  ir::Value* x = k.f->AddParam("x", F64Array(1));
  ir::Value* t = k.b.TileLoad(x, {4}, {k.I(0)});
  k.b.TileStore(x, k.b.Binary(OpCode::Mul, t, k.F(3.0)), {k.I(0)});
  k.b.Return();
  Compiled c = Compile(k.m, "scale");
  CheckGradients(c, {HostArray::Float({4}, {1, 2, 3, 4})}, GradCheck{});
}

// p = tile_atomic_add(a, t); tile_store(y, p * t): the adjoint of t needs p.
TEST(Rejections, AtomicPreviousValuesNeeded) {
  KernelBuilder k("needprev");
  ir::Value* x = k.f->AddParam("x", F64Array(1));
  ir::Value* a = k.f->AddParam("a", F64Array(1));
  ir::Value* y = k.f->AddParam("y", F64Array(1));
  ir::Value* t = k.b.TileLoad(x, {4}, {k.I(0)});
  ir::Value* p = k.b.TileAtomicAdd(a, t, {k.I(0)});
  k.b.TileStore(y, k.b.Binary(OpCode::Mul, p, t), {k.I(0)});
  k.b.Return();
  std::vector<diag::Code> codes = Codes(k.m);
  EXPECT_EQ(codes, (std::vector<diag::Code>{diag::Code::AtomicResultNotDifferentiated,
                                            diag::Code::AdjointNeedsAtomicResult}));
}

// enable_backward=False: no adjoint at all.
TEST(Rejections, EnableBackwardFalseSkipsTheAdjoint) {
  KernelBuilder k("fwdonly");
  k.f->enable_backward = false;
  ir::Value* x = k.f->AddParam("x", F64Array(1));
  ir::Value* t = k.b.TileLoad(x, {4}, {k.I(0)});
  k.b.TileStore(x, k.b.Binary(OpCode::Mul, t, t), {k.I(0)});
  k.b.Return();
  EXPECT_TRUE(Codes(k.m).empty());
  EXPECT_EQ(k.m.functions().size(), 1u);
}

}  // namespace
}  // namespace tilec::adtest
