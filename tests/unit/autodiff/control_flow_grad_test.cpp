// Finite-difference checks (float64, central, h = 1e-6, relative tolerance 1e-6) through
// control flow: if on data, for loops with constant and runtime bounds (negative step too),
// loop-carried values feeding nonlinear ops (scalars and tiles), values from outside a loop
// used inside it, and while loops.
#include "tests/unit/autodiff/grad_util.h"

namespace tilec::adtest {
namespace {

using ir::OpCode;
using ir::Type;

Type F64() { return Type::Scalar(ScalarType::Float64); }

// y[i] = x[i] > 0.5 ? x[i]^2 : sin(x[i]) * z[i]
TEST(IfGrad, BranchOnData) {
  KernelBuilder k("branch", false);
  ir::Value* x = k.f->AddParam("x", F64Array(1));
  ir::Value* z = k.f->AddParam("z", F64Array(1));
  ir::Value* y = k.f->AddParam("y", F64Array(1));
  ir::Value* i = k.b.Tid(1)[0];
  ir::Value* v = k.b.ArrayLoad(x, {i});
  ir::Op* br = k.b.If(k.b.Cmp(ir::CmpPred::Gt, v, k.F(0.5)), {F64()});
  {
    ir::Builder::InsertionGuard g(k.b);
    k.b.SetInsertionPoint(br->region(0));
    k.b.Yield({k.b.Binary(OpCode::Mul, v, v)});
    k.b.SetInsertionPoint(br->region(1));
    k.b.Yield({k.b.Binary(OpCode::Mul, k.b.Unary(OpCode::Sin, v), k.b.ArrayLoad(z, {i}))});
  }
  k.b.ArrayStore(y, {i}, br->result(0));
  k.b.Return();
  Compiled c = Compile(k.m, "branch");
  GradCheck opt;
  opt.grid = {6};
  opt.block_dim = 0;
  CheckGradients(c, {HostArray::Float({6}, {0.1, 0.9, 0.3, 1.4, -0.2, 0.7}), HostArray::Float({6}, Seq(6, 1, 0.5)),
                     HostArray::Float({6}, Seq(6, 0, 0))},
                 opt);
}

// p = 1; for k in range(4): p = p * x[k] + sin(p)   (the carried p feeds nonlinear ops)
TEST(ForGrad, ConstantBoundsCarriedNonlinear) {
  KernelBuilder k("prod", false);
  ir::Value* x = k.f->AddParam("x", F64Array(1));
  ir::Value* y = k.f->AddParam("y", F64Array(1));
  ir::Op* loop = k.b.For(k.I(0), k.I(4), k.I(1), {k.F(1.0)});
  {
    ir::Builder::InsertionGuard g(k.b);
    ir::Block* body = loop->region(0);
    k.b.SetInsertionPoint(body);
    ir::Value* p = body->arg(1);
    ir::Value* xk = k.b.ArrayLoad(x, {body->arg(0)});
    k.b.Yield({k.b.Binary(OpCode::Add, k.b.Binary(OpCode::Mul, p, xk), k.b.Unary(OpCode::Sin, p))});
  }
  k.b.ArrayStore(y, {k.I(0)}, loop->result(0));
  k.b.Return();
  Compiled c = Compile(k.m, "prod");
  GradCheck opt;
  opt.block_dim = 0;
  CheckGradients(c, {HostArray::Float({4}, {0.9, 1.3, -0.6, 1.1}), HostArray::Float({1}, {0})}, opt);
}

// s = 0; for k in range(n - 1, -1, -1): s = s * w + x[k]^2   (runtime bounds, negative step,
// w read outside the loop and used inside)
TEST(ForGrad, RuntimeBoundsNegativeStepOuterValue) {
  KernelBuilder k("horner", false);
  ir::Value* x = k.f->AddParam("x", F64Array(1));
  ir::Value* wa = k.f->AddParam("w", F64Array(1));
  ir::Value* y = k.f->AddParam("y", F64Array(1));
  ir::Value* n = k.f->AddParam("n", Type::Scalar(ScalarType::Int32));
  ir::Value* w = k.b.ArrayLoad(wa, {k.I(0)});
  ir::Op* loop = k.b.For(k.b.Binary(OpCode::Sub, n, k.I(1)), k.I(-1), k.I(-1), {k.F(0.0)});
  {
    ir::Builder::InsertionGuard g(k.b);
    ir::Block* body = loop->region(0);
    k.b.SetInsertionPoint(body);
    ir::Value* xk = k.b.ArrayLoad(x, {body->arg(0)});
    k.b.Yield({k.b.Binary(OpCode::Add, k.b.Binary(OpCode::Mul, body->arg(1), w), k.b.Binary(OpCode::Mul, xk, xk))});
  }
  k.b.ArrayStore(y, {k.I(0)}, loop->result(0));
  k.b.Return();
  Compiled c = Compile(k.m, "horner");
  int32_t nv = 4;  // x holds 5: the last element is outside the loop and gets no gradient
  GradCheck opt;
  opt.block_dim = 0;
  opt.scalars = {&nv};
  CheckGradients(c, {HostArray::Float({5}, {0.9, 1.3, -0.6, 1.1, 7.0}), HostArray::Float({1}, {0.7}),
                     HostArray::Float({1}, {0})},
                 opt);
}

// acc = zeros; for k in range(3): acc = acc * t_k + exp(t_k), t_k = tile_load(x, offset 2k):
// a carried tile feeding a product.
TEST(ForGrad, CarriedTile) {
  KernelBuilder k("tileloop");
  ir::Value* x = k.f->AddParam("x", F64Array(1));
  ir::Value* y = k.f->AddParam("y", F64Array(1));
  ir::Value* zero = k.b.TileFull(k.F(0.0), {2});
  ir::Op* loop = k.b.For(k.I(0), k.I(3), k.I(1), {zero});
  {
    ir::Builder::InsertionGuard g(k.b);
    ir::Block* body = loop->region(0);
    k.b.SetInsertionPoint(body);
    ir::Value* t = k.b.TileLoad(x, {2}, {k.b.Binary(OpCode::Mul, body->arg(0), k.I(2))});
    k.b.Yield({k.b.Binary(OpCode::Add, k.b.Binary(OpCode::Mul, body->arg(1), t), k.b.Unary(OpCode::Exp, t))});
  }
  k.b.TileStore(y, loop->result(0), {k.I(0)});
  k.b.Return();
  Compiled c = Compile(k.m, "tileloop");
  CheckGradients(c, {HostArray::Float({6}, Seq(6, -0.5, 0.3)), HostArray::Float({2}, {0, 0})}, GradCheck{});
}

// i = 0; s = x[0]; while i < n: s = sin(s) * x[i] + s; i += 1
TEST(WhileGrad, CarriedStateRecomputed) {
  KernelBuilder k("wloop", false);
  ir::Value* x = k.f->AddParam("x", F64Array(1));
  ir::Value* y = k.f->AddParam("y", F64Array(1));
  ir::Value* n = k.f->AddParam("n", Type::Scalar(ScalarType::Int32));
  ir::Value* s0 = k.b.ArrayLoad(x, {k.I(0)});
  ir::Op* w = k.b.While({k.I(0), s0}, {Type::Scalar(ScalarType::Int32), F64()});
  {
    ir::Builder::InsertionGuard g(k.b);
    ir::Block* before = w->region(0);
    k.b.SetInsertionPoint(before);
    k.b.Condition(k.b.Cmp(ir::CmpPred::Lt, before->arg(0), n), {before->arg(0), before->arg(1)});
    ir::Block* after = w->region(1);
    k.b.SetInsertionPoint(after);
    ir::Value* i = after->arg(0), *s = after->arg(1);
    ir::Value* xi = k.b.ArrayLoad(x, {i});
    ir::Value* next = k.b.Binary(OpCode::Add, k.b.Binary(OpCode::Mul, k.b.Unary(OpCode::Sin, s), xi), s);
    k.b.Yield({k.b.Binary(OpCode::Add, i, k.I(1)), next});
  }
  k.b.ArrayStore(y, {k.I(0)}, w->result(1));
  k.b.Return();
  Compiled c = Compile(k.m, "wloop");
  int32_t nv = 3;
  GradCheck opt;
  opt.block_dim = 0;
  opt.scalars = {&nv};
  CheckGradients(c, {HostArray::Float({4}, {0.9, 1.3, -0.6, 1.1}), HostArray::Float({1}, {0})}, opt);
}

// A loop whose body stores: every iteration's store consumes its a.grad entries in reverse.
TEST(ForGrad, StoresInsideLoop) {
  KernelBuilder k("loopstore");
  ir::Value* x = k.f->AddParam("x", F64Array(1));
  ir::Value* y = k.f->AddParam("y", F64Array(1));
  ir::Value* t = k.b.TileLoad(x, {3}, {k.I(0)});
  ir::Op* loop = k.b.For(k.I(0), k.I(3), k.I(1), {t});
  {
    ir::Builder::InsertionGuard g(k.b);
    ir::Block* body = loop->region(0);
    k.b.SetInsertionPoint(body);
    ir::Value* sq = k.b.Binary(OpCode::Mul, body->arg(1), body->arg(1));
    // stores overlap across iterations: offsets 0, 1, 2 into a 5-element y
    k.b.TileStore(y, sq, {body->arg(0)});
    k.b.Yield({k.b.Unary(OpCode::Sin, body->arg(1))});
  }
  k.b.Return();
  Compiled c = Compile(k.m, "loopstore");
  CheckGradients(c, {HostArray::Float({3}, {0.4, -0.3, 1.1}), HostArray::Float({5}, Seq(5, 1, 1))}, GradCheck{});
}

}  // namespace
}  // namespace tilec::adtest
