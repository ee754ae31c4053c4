// The same gradient checks under host-SIMT emulation (the GPU lowering run with B lanes as OS
// threads): adjoint kernels of tile code must give finite-difference gradients (float64,
// central, h = 1e-6, relative tolerance 1e-6) for block sizes 1, 3, 4 and 16 (fewer lanes than
// elements, an odd count, and more lanes than elements).
#include "codegen/simt/simt.h"
#include "tests/unit/autodiff/grad_util.h"

namespace tilec::adtest {
namespace {

using ir::OpCode;

Compiled CompileSimt(ir::Module& m, const std::string& name, int block_dim) {
  Compiled c;
  diag::DiagnosticEngine diags;
  EXPECT_TRUE(autodiff::BuildAdjoints(m, diags));
  auto errors = ir::Verify(m);
  EXPECT_TRUE(errors.empty()) << (errors.empty() ? "" : errors.front());
  codegen::SimtOptions opts;
  opts.block_dim = block_dim;
  std::string error;
  c.jit = codegen::JitCompileSimtEmulation(m, opts, error);
  EXPECT_TRUE(c.jit) << error;
  if (!c.jit) return c;
  c.fwd = c.jit->Lookup(codegen::EntrySymbol(name));
  c.adj = c.jit->Lookup(codegen::EntrySymbol(autodiff::AdjointName(name)));
  return c;
}

class SimtGrad : public ::testing::TestWithParam<int> {};

// Gather rows (repeats, -1, out of bounds) -> x*x + sin(x) -> scatter-add into segments.
TEST_P(SimtGrad, SegmentedSum) {
  KernelBuilder k("segsum");
  ir::Value* x = k.f->AddParam("x", F64Array(2));
  ir::Value* rows = k.f->AddParam("rows", I32Array(1));
  ir::Value* seg = k.f->AddParam("seg", I32Array(1));
  ir::Value* out = k.f->AddParam("out", F64Array(2));
  ir::Value* base = k.b.Binary(OpCode::Mul, k.b.Tid(1)[0], k.I(4));
  ir::Value* t = k.b.TileLoadIndexed(x, k.b.TileLoad(rows, {4}, {base}), {4, 3}, {k.I(0), k.I(0)}, 0);
  ir::Value* f = k.b.Binary(OpCode::Add, k.b.Binary(OpCode::Mul, t, t), k.b.Unary(OpCode::Sin, t));
  k.b.TileAtomicAddIndexed(out, k.b.TileLoad(seg, {4}, {base}), f, {k.I(0), k.I(0)}, 0);
  k.b.Return();
  Compiled c = CompileSimt(k.m, "segsum", GetParam());
  GradCheck opt;
  opt.grid = {2};
  opt.block_dim = GetParam();
  CheckGradients(c, {HostArray::Float({5, 3}, Seq(15, -0.8, 0.17)), HostArray::Int({8}, {1, 1, 4, -1, 2, 9, 0, 3}),
                     HostArray::Int({8}, {2, 2, 0, 1, -1, 0, 1, 1}), HostArray::Float({3, 3}, Seq(9, 0.5, 0.1))},
                 opt);
}

// tile_sum broadcast, element reads, a map with a per-element rule, and a store.
TEST_P(SimtGrad, SumExtractMapStore) {
  KernelBuilder k("mix");
  ir::Value* x = k.f->AddParam("x", F64Array(2));
  ir::Value* y = k.f->AddParam("y", F64Array(2));
  ir::Value* o = k.I(0);
  ir::Value* t = k.b.TileLoad(x, {3, 3}, {o, o}, ir::Storage::Shared);
  ir::Value* s = k.b.TileExtract(k.b.TileSum(k.b.Binary(OpCode::Mul, t, t)), {o});
  ir::Value* e = k.b.TileExtract(t, {k.I(2), k.I(1)});
  ir::Value* m = k.b.Binary(OpCode::Max, t, k.b.TileFull(e, {3, 3}));
  k.b.TileStore(y, k.b.Binary(OpCode::Mul, m, s), {o, o});
  k.b.Return();
  Compiled c = CompileSimt(k.m, "mix", GetParam());
  GradCheck opt;
  opt.block_dim = GetParam();
  CheckGradients(c, {HostArray::Float({3, 3}, {0.3, -0.2, 1.1, 0.7, 0.05, -0.9, 0.45, 0.6, 1.3}),
                     HostArray::Float({3, 3}, Seq(9, 0, 0))},
                 opt);
}

// A carried tile feeding a product across a loop.
TEST_P(SimtGrad, CarriedTileLoop) {
  KernelBuilder k("loop");
  ir::Value* x = k.f->AddParam("x", F64Array(1));
  ir::Value* y = k.f->AddParam("y", F64Array(1));
  ir::Op* loop = k.b.For(k.I(0), k.I(3), k.I(1), {k.b.TileFull(k.F(1.0), {5})});
  {
    ir::Builder::InsertionGuard g(k.b);
    ir::Block* body = loop->region(0);
    k.b.SetInsertionPoint(body);
    ir::Value* t = k.b.TileLoad(x, {5}, {body->arg(0)});
    k.b.Yield({k.b.Binary(OpCode::Add, k.b.Binary(OpCode::Mul, body->arg(1), t), k.b.Unary(OpCode::Cos, t))});
  }
  k.b.TileStore(y, loop->result(0), {k.I(0)});
  k.b.Return();
  Compiled c = CompileSimt(k.m, "loop", GetParam());
  GradCheck opt;
  opt.block_dim = GetParam();
  CheckGradients(c, {HostArray::Float({7}, Seq(7, -0.5, 0.3)), HostArray::Float({5}, Seq(5, 0, 0))}, opt);
}

INSTANTIATE_TEST_SUITE_P(BlockDims, SimtGrad, ::testing::Values(1, 3, 4, 16));

}  // namespace
}  // namespace tilec::adtest
