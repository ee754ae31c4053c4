// Finite-difference checks (float64, central differences, h = 1e-6, relative tolerance 1e-6)
// of every differentiable elementwise op, on scalars (one thread per element) and on tiles,
// including tile-with-scalar operands whose adjoint sums over the tile.
#include "tests/unit/autodiff/grad_util.h"

namespace tilec::adtest {
namespace {

using ir::OpCode;

struct OpCase {
  OpCode code;
  int arity;
  double lo, step;  // inputs x = lo + step*k, z = lo + 0.7 + step*(n-k)
};

const OpCase kCases[] = {
    {OpCode::Add, 2, -1.0, 0.3}, {OpCode::Sub, 2, -1.0, 0.3}, {OpCode::Mul, 2, -1.0, 0.3},
    {OpCode::Div, 2, 0.5, 0.3},  {OpCode::Mod, 2, 0.9, 0.37}, {OpCode::Pow, 2, 0.5, 0.2},
    {OpCode::Min, 2, -1.0, 0.3}, {OpCode::Max, 2, -1.0, 0.3}, {OpCode::Neg, 1, -1.0, 0.3},
    {OpCode::Abs, 1, -1.05, 0.3}, {OpCode::Sqrt, 1, 0.3, 0.4}, {OpCode::Exp, 1, -1.0, 0.3},
    {OpCode::Log, 1, 0.3, 0.4},  {OpCode::Sin, 1, -1.0, 0.3}, {OpCode::Cos, 1, -1.0, 0.3},
    {OpCode::Clamp, 3, -1.05, 0.3},
    // Quotients of both signs: the float `%` is C's fmod (x - y*trunc(x/y)), so dy is
    // -d*trunc(x/y), which floor would get wrong for every negative quotient.
    {OpCode::Mod, 2, -3.1, 0.37},
};

constexpr int kN = 8;

std::vector<HostArray> Inputs(const OpCase& c) {
  std::vector<double> x = Seq(kN, c.lo, c.step), z;
  for (int k = 0; k < kN; ++k) z.push_back(c.lo + 0.7 + c.step * (kN - k));
  return {HostArray::Float({kN}, x), HostArray::Float({kN}, z), HostArray::Float({kN}, Seq(kN, 0.5, -0.2)),
          HostArray::Float({kN}, std::vector<double>(kN, 0.25))};
}

ir::Value* Apply(KernelBuilder& k, const OpCase& c, ir::Value* x, ir::Value* z) {
  if (c.arity == 1) return k.b.Unary(c.code, x);
  if (c.arity == 2) return k.b.Binary(c.code, x, z);
  // clamp(x, lo, hi) with lo = -0.5, hi = 0.6: some elements below, inside and above
  ir::Value* lo = k.F(-0.5), *hi = k.F(0.6);
  if (x->type().is_tile()) return k.b.Clamp(x, k.b.TileFull(lo, x->type().Shape()), k.b.TileFull(hi, x->type().Shape()));
  return k.b.Clamp(x, lo, hi);
}

class ScalarOps : public ::testing::TestWithParam<OpCase> {};

TEST_P(ScalarOps, MatchesFiniteDifferences) {
  const OpCase& c = GetParam();
  KernelBuilder k("scalar_op", false);
  ir::Value* x = k.f->AddParam("x", F64Array(1));
  ir::Value* z = k.f->AddParam("z", F64Array(1));
  ir::Value* w = k.f->AddParam("w", F64Array(1));
  ir::Value* y = k.f->AddParam("y", F64Array(1));
  ir::Value* i = k.b.Tid(1)[0];
  ir::Value* r = Apply(k, c, k.b.ArrayLoad(x, {i}), k.b.ArrayLoad(z, {i}));
  k.b.ArrayStore(y, {i}, k.b.Binary(OpCode::Mul, r, k.b.ArrayLoad(w, {i})));
  k.b.Return();
  Compiled comp = Compile(k.m, "scalar_op");
  GradCheck opt;
  opt.grid = {kN};
  opt.block_dim = 0;
  CheckGradients(comp, Inputs(c), opt);
}

class TileOps : public ::testing::TestWithParam<OpCase> {};

TEST_P(TileOps, MatchesFiniteDifferences) {
  const OpCase& c = GetParam();
  KernelBuilder k("tile_op");
  ir::Value* x = k.f->AddParam("x", F64Array(1));
  ir::Value* z = k.f->AddParam("z", F64Array(1));
  ir::Value* w = k.f->AddParam("w", F64Array(1));
  ir::Value* y = k.f->AddParam("y", F64Array(1));
  ir::Value* o = k.I(0);
  ir::Value* tx = k.b.TileLoad(x, {kN}, {o});
  ir::Value* tz = k.b.TileLoad(z, {kN}, {o}, ir::Storage::Shared);
  ir::Value* r = Apply(k, c, tx, tz);
  k.b.TileStore(y, k.b.Binary(OpCode::Mul, r, k.b.TileLoad(w, {kN}, {o})), {o});
  k.b.Return();
  Compiled comp = Compile(k.m, "tile_op");
  CheckGradients(comp, Inputs(c), GradCheck{});
}

std::string Name(const ::testing::TestParamInfo<OpCase>& info) {
  return std::string(ir::OpName(info.param.code)) + (info.param.lo < -2 ? "_negative" : "");
}

INSTANTIATE_TEST_SUITE_P(All, ScalarOps, ::testing::ValuesIn(kCases), Name);
INSTANTIATE_TEST_SUITE_P(All, TileOps, ::testing::ValuesIn(kCases), Name);

// tile * scalar and scalar / tile: the scalar's adjoint is the sum over the tile.
TEST(TileScalarMix, ScalarOperandAdjointSumsOverTile) {
  KernelBuilder k("mix");
  ir::Value* x = k.f->AddParam("x", F64Array(1));
  ir::Value* s = k.f->AddParam("s", F64Array(1));
  ir::Value* y = k.f->AddParam("y", F64Array(1));
  ir::Value* o = k.I(0);
  ir::Value* t = k.b.TileLoad(x, {kN}, {o});
  ir::Value* a = k.b.ArrayLoad(s, {o});
  ir::Value* r = k.b.Binary(OpCode::Add, k.b.Binary(OpCode::Mul, t, a), k.b.Binary(OpCode::Div, k.b.ArrayLoad(s, {k.I(1)}), t));
  k.b.TileStore(y, k.b.Binary(OpCode::Sub, r, a), {o});
  k.b.Return();
  Compiled comp = Compile(k.m, "mix");
  CheckGradients(comp, {HostArray::Float({kN}, Seq(kN, 0.5, 0.25)), HostArray::Float({2}, {1.5, -0.75}),
                        HostArray::Float({kN}, std::vector<double>(kN, 0))},
                 GradCheck{});
}

// float64 -> float32 -> float64 casts pass the adjoint through (tolerance for float32 rounding).
TEST(Casts, FloatCastsPassTheAdjoint) {
  KernelBuilder k("casts", false);
  ir::Value* x = k.f->AddParam("x", F64Array(1));
  ir::Value* y = k.f->AddParam("y", F64Array(1));
  ir::Value* i = k.b.Tid(1)[0];
  ir::Value* v = k.b.Cast(k.b.ArrayLoad(x, {i}), ScalarType::Float32);
  ir::Value* w = k.b.Binary(OpCode::Mul, v, v);
  // an int cast on the way carries no gradient: y = float64(x^2) + float64(int(x))
  ir::Value* n = k.b.Cast(k.b.Cast(k.b.ArrayLoad(x, {i}), ScalarType::Int32), ScalarType::Float64);
  k.b.ArrayStore(y, {i}, k.b.Binary(OpCode::Add, k.b.Cast(w, ScalarType::Float64), n));
  k.b.Return();
  Compiled comp = Compile(k.m, "casts");
  GradCheck opt;
  opt.grid = {4};
  opt.block_dim = 0;
  opt.h = 1e-3;
  opt.tol = 1e-4;
  CheckGradients(comp, {HostArray::Float({4}, {0.3, 1.2, -0.7, 2.2}), HostArray::Float({4}, {0, 0, 0, 0})}, opt);
}

// select, and struct fields (field_set then field_get) on a scalar path.
TEST(SelectAndFields, MatchFiniteDifferences) {
  KernelBuilder k("sel_fields", false);
  ir::StructDef def;
  def.name = "P";
  def.fields = {{"a", ir::ElemType::Of(ScalarType::Float64)}, {"k", ir::ElemType::Of(ScalarType::Int32)},
                {"b", ir::ElemType::Of(ScalarType::Float64)}};
  int sp = k.m.AddStruct(def);
  ir::Value* x = k.f->AddParam("x", F64Array(1));
  ir::Value* z = k.f->AddParam("z", F64Array(1));
  ir::Value* y = k.f->AddParam("y", F64Array(1));
  ir::Value* i = k.b.Tid(1)[0];
  ir::Value* xv = k.b.ArrayLoad(x, {i});
  ir::Value* zv = k.b.ArrayLoad(z, {i});
  ir::Value* s = k.b.ZeroOf(ir::Type::Struct(sp));
  s = k.b.FieldSet(s, 0, xv);
  s = k.b.FieldSet(s, 1, i);
  s = k.b.FieldSet(s, 2, k.b.Binary(OpCode::Mul, zv, xv));
  s = k.b.FieldSet(s, 0, k.b.Binary(OpCode::Add, k.b.FieldGet(s, 0), k.b.FieldGet(s, 2)));
  ir::Value* a = k.b.FieldGet(s, 0), *bb = k.b.FieldGet(s, 2);
  ir::Value* big = k.b.Cmp(ir::CmpPred::Gt, xv, zv);
  k.b.ArrayStore(y, {i}, k.b.Select(big, k.b.Binary(OpCode::Mul, a, a), k.b.Binary(OpCode::Sub, bb, a)));
  k.b.Return();
  Compiled comp = Compile(k.m, "sel_fields");
  GradCheck opt;
  opt.grid = {4};
  opt.block_dim = 0;
  CheckGradients(comp, {HostArray::Float({4}, {0.3, 1.2, -0.7, 2.2}), HostArray::Float({4}, {0.5, 0.1, -0.2, 3.0}),
                        HostArray::Float({4}, {0, 0, 0, 0})},
                 opt);
}

}  // namespace
}  // namespace tilec::adtest
