// Finite-difference checks (float64, central, h = 1e-6, relative tolerance 1e-6) of the tile
// value ops: tile_map through an inlined function body (with a branch), tile_sum (broadcast),
// element reads t[i, j], tile_full of a computed value, and tile construction (no gradient).
#include "tests/unit/autodiff/grad_util.h"

namespace tilec::adtest {
namespace {

using ir::OpCode;

// y = tile_map(f, t, u) with f(a, b) = a > b ? sin(a) * b : a * a / b (an inlined @wp.func).
TEST(TileMapGrad, InlinedFunctionWithBranch) {
  KernelBuilder k("map");
  ir::Value* x = k.f->AddParam("x", F64Array(2));
  ir::Value* z = k.f->AddParam("z", F64Array(2));
  ir::Value* y = k.f->AddParam("y", F64Array(2));
  ir::Value* o = k.I(0);
  ir::Value* t = k.b.TileLoad(x, {2, 3}, {o, o});
  ir::Value* u = k.b.TileLoad(z, {2, 3}, {o, o});
  ir::Op* map = k.b.TileMap({t, u}, ir::ElemType::Of(ScalarType::Float64));
  {
    ir::Builder::InsertionGuard g(k.b);
    ir::Block* body = map->region(0);
    k.b.SetInsertionPoint(body);
    ir::Value* a = body->arg(0), *bb = body->arg(1);
    ir::Op* br = k.b.If(k.b.Cmp(ir::CmpPred::Gt, a, bb), {ir::Type::Scalar(ScalarType::Float64)});
    k.b.SetInsertionPoint(br->region(0));
    k.b.Yield({k.b.Binary(OpCode::Mul, k.b.Unary(OpCode::Sin, a), bb)});
    k.b.SetInsertionPoint(br->region(1));
    k.b.Yield({k.b.Binary(OpCode::Div, k.b.Binary(OpCode::Mul, a, a), bb)});
    k.b.SetInsertionPoint(body);
    k.b.Yield({br->result(0)});
  }
  k.b.TileStore(y, map->result(), {o, o});
  k.b.Return();
  Compiled c = Compile(k.m, "map");
  CheckGradients(c, {HostArray::Float({2, 3}, {0.3, 1.2, -0.7, 2.2, 0.9, 0.4}),
                     HostArray::Float({2, 3}, {0.5, 0.7, 1.1, 1.3, 0.6, 0.8}), HostArray::Float({2, 3}, Seq(6, 0, 0))},
                 GradCheck{});
}

// s = tile_sum(t * t); y = t * s[0] + tile_full(s[0] * 2): broadcast <-> sum both ways.
TEST(TileSumGrad, BroadcastAndFull) {
  KernelBuilder k("sum");
  ir::Value* x = k.f->AddParam("x", F64Array(2));
  ir::Value* y = k.f->AddParam("y", F64Array(2));
  ir::Value* o = k.I(0);
  ir::Value* t = k.b.TileLoad(x, {2, 4}, {o, o});
  ir::Value* s = k.b.TileSum(k.b.Binary(OpCode::Mul, t, t));
  ir::Value* s0 = k.b.TileExtract(s, {o});
  ir::Value* full = k.b.TileFull(k.b.Binary(OpCode::Mul, s0, k.F(2.0)), {2, 4});
  k.b.TileStore(y, k.b.Binary(OpCode::Add, k.b.Binary(OpCode::Mul, t, s0), full), {o, o});
  k.b.Return();
  Compiled c = Compile(k.m, "sum");
  CheckGradients(c, {HostArray::Float({2, 4}, Seq(8, -0.4, 0.15)), HostArray::Float({2, 4}, Seq(8, 0, 0))},
                 GradCheck{});
}

// Element reads t[i, j] at constant and runtime indices (one of them out of the tile: zero),
// summed into a scalar that scales a tile; tile_zeros/ones/arange contribute no gradient.
TEST(TileExtractGrad, ElementReads) {
  KernelBuilder k("extract");
  ir::Value* x = k.f->AddParam("x", F64Array(2));
  ir::Value* y = k.f->AddParam("y", F64Array(1));
  ir::Value* j = k.f->AddParam("j", ir::Type::Scalar(ScalarType::Int32));
  ir::Value* o = k.I(0);
  ir::Value* t = k.b.TileLoad(x, {3, 3}, {o, o});
  ir::Value* a = k.b.TileExtract(t, {k.I(1), k.I(2)});
  ir::Value* b2 = k.b.TileExtract(t, {k.I(2), j});
  ir::Value* c2 = k.b.TileExtract(t, {k.I(1), k.I(2)});
  ir::Value* off = k.b.TileExtract(t, {k.I(3), j});  // outside: reads 0
  ir::Value* s = k.b.Binary(OpCode::Add, k.b.Binary(OpCode::Mul, a, b2), k.b.Binary(OpCode::Add, c2, off));
  ir::Value* ar = k.b.TileArange(ScalarType::Float64, 1.0, 0.5, 3);
  ir::Value* ones = k.b.TileFull(k.F(1.0), {3});
  k.b.TileStore(y, k.b.Binary(OpCode::Add, k.b.Binary(OpCode::Mul, ar, s), ones), {o});
  k.b.Return();
  Compiled c = Compile(k.m, "extract");
  int32_t jv = 1;
  GradCheck opt;
  opt.scalars = {&jv};
  CheckGradients(c, {HostArray::Float({3, 3}, Seq(9, 0.2, 0.3)), HostArray::Float({3}, Seq(3, 0, 0))}, opt);
}

}  // namespace
}  // namespace tilec::adtest

namespace tilec::adtest {
namespace {

// A struct array: e[i] = 0.5 * p.m * p.v^2 with P = {m: float64, k: int32, v: float64}; the
// adjoint adds {dm, 0, dv} into ps.grad field by field and leaves the int field alone.
TEST(StructArrayGrad, FieldReadsAddIntoStructGrad) {
  struct P {
    double m;
    int32_t k;
    double v;
  };
  KernelBuilder k("energy", false);
  ir::StructDef def;
  def.name = "P";
  def.fields = {{"m", ir::ElemType::Of(ScalarType::Float64)}, {"k", ir::ElemType::Of(ScalarType::Int32)},
                {"v", ir::ElemType::Of(ScalarType::Float64)}};
  int sp = k.m.AddStruct(def);
  ASSERT_EQ(k.m.structs()[sp].size, sizeof(P));
  ir::Value* ps = k.f->AddParam("ps", ir::Type::Array(ir::ElemType::Struct(sp), 1));
  ir::Value* e = k.f->AddParam("e", F64Array(1));
  ir::Value* i = k.b.Tid(1)[0];
  ir::Value* p = k.b.ArrayLoad(ps, {i});
  ir::Value* v = k.b.FieldGet(p, 2);
  ir::Value* half_m = k.b.Binary(ir::OpCode::Mul, k.F(0.5), k.b.FieldGet(p, 0));
  k.b.ArrayStore(e, {i}, k.b.Binary(ir::OpCode::Mul, half_m, k.b.Binary(ir::OpCode::Mul, v, v)));
  k.b.Return();
  Compiled c = Compile(k.m, "energy");
  ASSERT_TRUE(c.fwd && c.adj);
  std::vector<P> data = {{2.0, 7, 3.0}, {0.5, -1, -1.5}}, grad = {{0.25, 5, 1.0}, {0.0, 9, 0.0}};
  std::vector<double> ev(2, 0.0), eg = {1.5, -2.0};
  tilec_array pa{}, ea{};
  pa.data = data.data();
  pa.grad = grad.data();
  pa.shape[0] = 2;
  pa.strides[0] = sizeof(P);
  ea.data = ev.data();
  ea.grad = eg.data();
  ea.shape[0] = 2;
  ea.strides[0] = 8;
  for (int d = 1; d < TILEC_MAX_DIMS; ++d) pa.shape[d] = ea.shape[d] = 1;
  std::vector<void*> args = {&pa, &ea, nullptr, nullptr};
  tilec_launch l{};
  l.ndim = 1;
  for (int d = 0; d < TILEC_MAX_DIMS; ++d) l.dim[d] = d ? 1 : 2;
  reinterpret_cast<tilec_cpu_kernel_fn>(c.fwd)(args.data(), &l, 0, 2);
  EXPECT_DOUBLE_EQ(ev[0], 0.5 * 2.0 * 9.0);
  reinterpret_cast<tilec_cpu_kernel_fn>(c.adj)(args.data(), &l, 0, 2);
  EXPECT_DOUBLE_EQ(grad[0].m, 0.25 + 0.5 * 9.0 * 1.5);
  EXPECT_DOUBLE_EQ(grad[0].v, 1.0 + 2.0 * 3.0 * 1.5);
  EXPECT_EQ(grad[0].k, 5);
  EXPECT_DOUBLE_EQ(grad[1].m, 0.5 * 2.25 * -2.0);
  EXPECT_DOUBLE_EQ(grad[1].v, 0.5 * -1.5 * -2.0);
  EXPECT_EQ(grad[1].k, 9);
  EXPECT_EQ(eg[0], 0.0);  // consumed by the store
}

}  // namespace
}  // namespace tilec::adtest
