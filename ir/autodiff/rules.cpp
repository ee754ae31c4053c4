// Derivative rules of the value ops, as a table: one entry per elementwise op giving the
// partial adjoint of each operand from the operands x, the result r and the result's adjoint
// d; then select, struct fields, tile construction, tile_sum, element reads and tile_map.
#include <algorithm>
#include <cmath>

#include "ir/autodiff/internal.h"
#include "ir/op_cases.h"

namespace tilec::autodiff::detail {

using ir::OpCode;

namespace {

// WholeTile rules are built from ops that also apply to whole tiles; PerElement rules select
// per element, so on tiles they run inside a map.
enum class Uses : uint8_t { WholeTile, PerElement };

struct Rule {
  OpCode code;
  Uses uses;
  const char* math;  // the rule, for readers
};

// The table: everything not listed (integer, bitwise, logic, floor/ceil/floordiv) has a zero
// derivative, which is what "no entry" means.
constexpr Rule kRules[] = {
    {OpCode::Add, Uses::WholeTile, "dx = d, dy = d"},
    {OpCode::Sub, Uses::WholeTile, "dx = d, dy = -d"},
    {OpCode::Neg, Uses::WholeTile, "dx = -d"},
    {OpCode::Cast, Uses::WholeTile, "dx = cast(d) between float types"},
    {OpCode::Mul, Uses::WholeTile, "dx = d*y, dy = d*x"},
    {OpCode::Div, Uses::WholeTile, "dx = d/y, dy = -d*r/y"},
    {OpCode::Mod, Uses::WholeTile, "dx = d, dy = -d*trunc(x/y)  (float x mod y is fmod, x - y*trunc(x/y))"},
    {OpCode::Pow, Uses::WholeTile, "dx = d*y*x^(y-1), dy = d*r*log(x)"},
    {OpCode::Min, Uses::PerElement, "dx = x<=y ? d : 0, dy = x<=y ? 0 : d"},
    {OpCode::Max, Uses::PerElement, "dx = x>=y ? d : 0, dy = x>=y ? 0 : d"},
    {OpCode::Abs, Uses::PerElement, "dx = x<0 ? -d : d"},
    {OpCode::Sqrt, Uses::WholeTile, "dx = (0.5*(1/r))*d"},
    {OpCode::Exp, Uses::WholeTile, "dx = d*r"},
    {OpCode::Log, Uses::WholeTile, "dx = (1/x)*d"},
    {OpCode::Sin, Uses::WholeTile, "dx = d*cos(x)"},
    {OpCode::Cos, Uses::WholeTile, "dx = -d*sin(x)"},
    {OpCode::Clamp, Uses::PerElement, "x<lo: dlo = d; x>hi: dhi = d; else dx = d"},
    {OpCode::Tan, Uses::WholeTile, "dx = d/cos(x)^2"},
    // Warp's guard: no gradient where sqrt(1-x^2) is not positive (|x| >= 1, where the input
    // was clamped).
    {OpCode::Asin, Uses::PerElement, "s = sqrt(1-x^2); dx = s>0 ? d/s : 0"},
    {OpCode::Acos, Uses::PerElement, "s = sqrt(1-x^2); dx = s>0 ? -d/s : 0"},
    {OpCode::Atan, Uses::WholeTile, "dx = d/(1+x^2)"},
    {OpCode::Sinh, Uses::WholeTile, "dx = d*cosh(x)"},
    {OpCode::Cosh, Uses::WholeTile, "dx = d*sinh(x)"},
    {OpCode::Tanh, Uses::WholeTile, "dx = d*(1-r^2)"},
    {OpCode::Log2, Uses::WholeTile, "dx = ((1/x)*(1/ln 2))*d"},
    {OpCode::Log10, Uses::WholeTile, "dx = ((1/x)*(1/ln 10))*d"},
    {OpCode::Exp2, Uses::WholeTile, "dx = d*r*ln 2"},
    {OpCode::Cbrt, Uses::WholeTile, "dx = ((1/3)*(1/r^2))*d"},
    {OpCode::Erf, Uses::WholeTile, "dx = d*2/sqrt(pi)*exp(-x^2)"},
    {OpCode::Erfc, Uses::WholeTile, "dx = -d*2/sqrt(pi)*exp(-x^2)"},
    {OpCode::Fma, Uses::WholeTile, "da = d*b, db = d*a, dc = d"},
    {OpCode::Atan2, Uses::PerElement, "n = x^2+y^2; n>0: dy = d*x/n, dx = -d*y/n (atan2(y, x))"},
    {OpCode::Copysign, Uses::PerElement, "dx = d where x and y have one sign bit, else -d; dy = 0"},
};

const Rule* FindRule(OpCode c) {
  for (const Rule& r : kRules)
    if (r.code == c) return &r;
  return nullptr;
}

}  // namespace

bool HasElementwiseRule(OpCode c) { return FindRule(c) != nullptr; }

// A constant computed in the element type's own precision (float32 arithmetic for every
// type but float64), as Warp's adjoints compute `T(1)/log(T(2))`, so gradients round as its do.
ir::Value* Generator::InElem(const ir::Value* like, float f32, double f64) {
  return ConstLike(like, like->type().elem.scalar == ScalarType::Float64 ? f64 : double(f32));
}

ir::Value* Generator::InverseLog(const ir::Value* like, double base) {
  return InElem(like, 1.0f / std::log(float(base)), 1.0 / std::log(base));
}

std::vector<ir::Value*> Generator::ScalarPartials(OpCode code, const std::vector<ir::Value*>& x, ir::Value* r,
                                                  ir::Value* d) {
  ir::Builder& b = b_;
  auto mul = [&](ir::Value* p, ir::Value* q) { return b.Binary(OpCode::Mul, p, q); };
  auto div = [&](ir::Value* p, ir::Value* q) { return b.Binary(OpCode::Div, p, q); };
  auto neg = [&](ir::Value* p) { return b.Unary(OpCode::Neg, p); };
  auto zero = [&] { return Zero(d->type()); };
  // Selects on scalars only: tiles reach here element by element (see ElementwiseRule).
  auto pick = [&](ir::CmpPred p, ir::Value* u, ir::Value* v, ir::Value* t, ir::Value* f) {
    return b.Select(b.Cmp(p, u, v), t, f);
  };
  switch (code) {
    case OpCode::Add: return {d, d};
    case OpCode::Sub: return {d, neg(d)};
    case OpCode::Neg: return {neg(d)};
    case OpCode::Cast: return {b.Cast(d, x[0]->type().elem.scalar)};
    case OpCode::Mul: return {mul(d, x[1]), mul(d, x[0])};
    case OpCode::Div: return {div(d, x[1]), neg(div(mul(d, r), x[1]))};
    case OpCode::Mod: return {d, neg(mul(d, b.Unary(OpCode::Trunc, div(x[0], x[1]))))};
    case OpCode::Pow: {
      ir::Value* ym1 = b.Binary(OpCode::Sub, x[1], ConstLike(x[1], 1.0));
      return {mul(d, mul(x[1], b.Binary(OpCode::Pow, x[0], ym1))), mul(d, mul(r, b.Unary(OpCode::Log, x[0])))};
    }
    case OpCode::Min: {
      ir::Value* z = zero();
      return {pick(ir::CmpPred::Le, x[0], x[1], d, z), pick(ir::CmpPred::Le, x[0], x[1], z, d)};
    }
    case OpCode::Max: {
      ir::Value* z = zero();
      return {pick(ir::CmpPred::Ge, x[0], x[1], d, z), pick(ir::CmpPred::Ge, x[0], x[1], z, d)};
    }
    case OpCode::Abs: return {pick(ir::CmpPred::Lt, x[0], ConstLike(x[0], 0.0), neg(d), d)};
    case OpCode::Sqrt: return {mul(mul(ConstLike(r, 0.5), div(ConstLike(r, 1.0), r)), d)};
    case OpCode::Exp: return {mul(d, r)};
    case OpCode::Log: return {mul(div(ConstLike(x[0], 1.0), x[0]), d)};
    case OpCode::Sin: return {mul(d, b.Unary(OpCode::Cos, x[0]))};
    case OpCode::Cos: return {neg(mul(d, b.Unary(OpCode::Sin, x[0])))};
    case OpCode::Clamp: {
      ir::Value* z = zero();
      ir::Value* below = b.Cmp(ir::CmpPred::Lt, x[0], x[1]);
      ir::Value* above = b.Cmp(ir::CmpPred::Gt, x[0], x[2]);
      ir::Value* inside = b.Select(below, z, b.Select(above, z, d));
      return {inside, b.Select(below, d, z), b.Select(above, d, z)};
    }
    case OpCode::Tan: {
      ir::Value* c = b.Unary(OpCode::Cos, x[0]);
      return {div(d, mul(c, c))};
    }
    case OpCode::Asin: case OpCode::Acos: {
      ir::Value* one = ConstLike(x[0], 1.0);
      ir::Value* s = b.Unary(OpCode::Sqrt, b.Binary(OpCode::Sub, one, mul(x[0], x[0])));
      ir::Value* g = div(d, s);
      return {pick(ir::CmpPred::Gt, s, ConstLike(s, 0.0), code == OpCode::Asin ? g : neg(g), zero())};
    }
    // Tile operands come first: a scalar operand may only be the right one.
    case OpCode::Atan: return {div(d, b.Binary(OpCode::Add, mul(x[0], x[0]), ConstLike(x[0], 1.0)))};
    case OpCode::Sinh: return {mul(d, b.Unary(OpCode::Cosh, x[0]))};
    case OpCode::Cosh: return {mul(d, b.Unary(OpCode::Sinh, x[0]))};
    case OpCode::Tanh: return {neg(mul(d, b.Binary(OpCode::Sub, mul(r, r), ConstLike(r, 1.0))))};
    case OpCode::Log2: return {mul(mul(div(ConstLike(x[0], 1.0), x[0]), InverseLog(x[0], 2.0)), d)};
    case OpCode::Log10: return {mul(mul(div(ConstLike(x[0], 1.0), x[0]), InverseLog(x[0], 10.0)), d)};
    case OpCode::Exp2: return {mul(d, mul(r, ConstLike(r, 0.69314718055994530942)))};
    case OpCode::Cbrt: return {mul(mul(InElem(r, 1.0f / 3.0f, 1.0 / 3.0), div(ConstLike(r, 1.0), mul(r, r))), d)};
    case OpCode::Erf: {
      ir::Value* e = b.Unary(OpCode::Exp, neg(mul(x[0], x[0])));
      return {mul(d, mul(e, ConstLike(x[0], 1.12837916709551257390)))};
    }
    case OpCode::Erfc: {
      ir::Value* e = b.Unary(OpCode::Exp, neg(mul(x[0], x[0])));
      return {neg(mul(d, mul(e, ConstLike(x[0], 1.12837916709551257390))))};
    }
    case OpCode::Copysign: {
      // Sign bits compared through copysign(1, .), so that -0.0 counts as negative (Warp's rule).
      ir::Value* one = ConstLike(x[0], 1.0);
      ir::Value* same = b.Cmp(ir::CmpPred::Eq, b.Binary(OpCode::Copysign, one, x[0]), b.Binary(OpCode::Copysign, one, x[1]));
      return {b.Select(same, d, neg(d)), zero()};
    }
    case OpCode::Fma: return {mul(d, x[1]), mul(d, x[0]), d};
    case OpCode::Atan2: {
      // x[0] is y, x[1] is x.
      ir::Value* n = b.Binary(OpCode::Add, mul(x[1], x[1]), mul(x[0], x[0]));
      ir::Value* z = zero();
      ir::Value* pos = b.Cmp(ir::CmpPred::Gt, n, ConstLike(n, 0.0));
      return {b.Select(pos, div(mul(d, x[1]), n), z), b.Select(pos, neg(div(mul(d, x[0]), n)), z)};
    }
    // No table entry: ElementwiseRule never asks.
    case OpCode::Round: case OpCode::Rint: case OpCode::Trunc:
    case OpCode::FloorDiv: case OpCode::BitAnd: case OpCode::BitOr: case OpCode::BitXor:
    case OpCode::Shl: case OpCode::Shr: case OpCode::BitNot: case OpCode::Not: case OpCode::Floor:
    case OpCode::Ceil: TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select)
    TILEC_CASES(Compare) TILEC_CASES(Logic) TILEC_CASES(Array) TILEC_CASES(Struct)
    TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul)
    TILEC_CASES(TileShape) TILEC_CASES(TileElement) TILEC_CASES(TileMemory) TILEC_CASES(Print)
    TILEC_CASES(Control) TILEC_CASES(Terminator)
      return std::vector<ir::Value*>(x.size(), nullptr);
  }
  return std::vector<ir::Value*>(x.size(), nullptr);
}

void Generator::ElementwiseRule(const ir::Op& op) {
  ir::Value* d = Adj(op.result());
  const Rule* rule = FindRule(op.code());
  if (!d || !rule) return;
  if (op.code() == OpCode::Cast && !IsDiffType(m_, op.operand(0)->type())) return;
  std::vector<ir::Value*> x;
  for (const ir::Value* v : op.operands()) x.push_back(P(v));
  ir::Value* r = P(op.result());
  const ir::Type& rt = op.result()->type();
  if (!rt.is_tile() || rule->uses == Uses::WholeTile) {
    std::vector<ir::Value*> parts = ScalarPartials(op.code(), x, r, d);
    for (int i = 0; i < op.num_operands(); ++i)
      if (Active(op.operand(i))) Accum(op.operand(i), parts[i]);
    return;
  }
  // A per-element rule on tiles: one map per active operand applies the scalar rule element by
  // element (scalar operands are read inside the map; their adjoint sums over the tile).
  for (int k = 0; k < op.num_operands(); ++k) {
    if (!Active(op.operand(k))) continue;
    std::vector<ir::Value*> inputs{d, r};
    for (ir::Value* v : x)
      if (v->type().is_tile()) inputs.push_back(v);
    ir::Op* map = b_.TileMap(inputs, op.operand(k)->type().elem);
    {
      ir::Builder::InsertionGuard g(b_);
      ir::Block* body = map->region(0);
      b_.SetInsertionPoint(body);
      std::vector<ir::Value*> xe;
      int next = 2;
      for (ir::Value* v : x) xe.push_back(v->type().is_tile() ? body->arg(next++) : v);
      std::vector<ir::Value*> parts = ScalarPartials(op.code(), xe, body->arg(1), body->arg(0));
      b_.Yield({parts[k]});
    }
    Accum(op.operand(k), map->result());
  }
}

void Generator::OtherRule(const ir::Op& op) {
  if (op.code() == OpCode::TileSort) return SortRule(op);
  if (op.code() == OpCode::TileFft) return FftRule(op);
  ir::Value* d = op.num_results() ? Adj(op.result()) : nullptr;
  if (!d) return;
  ir::Value* zero_i32 = nullptr;
  auto i0 = [&] { return zero_i32 ? zero_i32 : (zero_i32 = b_.ConstInt(ScalarType::Int32, 0)); };
  switch (op.code()) {
    case OpCode::Select: {
      // r = c ? a : b  =>  da = c ? d : 0, db = c ? 0 : d
      ir::Value* c = P(op.operand(0));
      ir::Value* z = Zero(d->type());
      if (Active(op.operand(1))) Accum(op.operand(1), b_.Select(c, d, z));
      if (Active(op.operand(2))) Accum(op.operand(2), b_.Select(c, z, d));
      return;
    }
    case OpCode::FieldGet: {
      // r = s.f  =>  ds.f += d
      const ir::Value* s = op.operand(0);
      if (Active(s)) Accum(s, b_.FieldSet(Zero(AdjType(s->type())), int(op.field()), d));
      return;
    }
    case OpCode::FieldSet: {
      // r = s with .f = v  =>  dv = d.f, ds = d with .f = 0
      const ir::Value* s = op.operand(0);
      const ir::Value* v = op.operand(1);
      if (Active(v)) Accum(v, b_.FieldGet(d, int(op.field())));
      if (Active(s)) Accum(s, b_.FieldSet(d, int(op.field()), Zero(v->type())));
      return;
    }
    case OpCode::TileFull: {
      // r = broadcast(v)  =>  dv = sum(d)
      const ir::Value* v = op.operand(0);
      if (!Active(v)) return;
      if (v->type().is_struct()) {
        Unsupported(op, "the gradient of `tile_full` with a struct value is not supported");
        return;
      }
      Accum(v, b_.TileExtract(b_.TileSum(d), {i0()}));
      return;
    }
    case OpCode::TileSum: {
      // r = [sum(t)]  =>  dt = broadcast(d[0])
      const ir::Value* t = op.operand(0);
      if (Active(t)) Accum(t, b_.TileFull(b_.TileExtract(d, {i0()}), t->type().Shape()));
      return;
    }
    case OpCode::TileExtract: {
      // r = t[i...]  =>  dt[i...] += d
      const ir::Value* t = op.operand(0);
      if (!Active(t)) return;
      std::vector<ir::Value*> idx;
      for (int i = 1; i < op.num_operands(); ++i) idx.push_back(P(op.operand(i)));
      if (deferred_reads_) {
        (*deferred_reads_)[&op] = {d, idx};
        return;
      }
      // Every lane that read an element adds its own adjoint there (each lane's d differs).
      adj_map()[t] = b_.TileScatterLanes(AdjOrZero(t), d, b_.ConstBool(true), idx, true);
      return;
    }
    case OpCode::TileInsert: {
      // r = t with [i...] = v  =>  dv = d[i...], dt = d with [i...] = 0
      const ir::Value* t = op.operand(0);
      const ir::Value* v = op.operand(1);
      std::vector<ir::Value*> idx;
      for (int i = 2; i < op.num_operands(); ++i) idx.push_back(P(op.operand(i)));
      if (Active(v)) Accum(v, b_.TileExtract(d, idx));
      if (Active(t)) {
        std::vector<ir::Value*> ops{d, Zero(v->type())};
        ops.insert(ops.end(), idx.begin(), idx.end());
        Accum(t, b_.Create(OpCode::TileInsert, ops, {AdjType(t->type())})->result());
      }
      return;
    }
    case OpCode::TileView: {
      // r = t[view]  =>  dt[view] += d
      const ir::Value* t = op.operand(0);
      if (Active(t)) Accum(t, b_.TileAssign(Zero(AdjType(t->type())), d, Offsets(op, 1), op.steps()));
      return;
    }
    case OpCode::TileAssign: {
      // r = dst with [view] = src  =>  dsrc = d[view], ddst = d with [view] = 0
      const ir::Value* dst = op.operand(0);
      const ir::Value* src = op.operand(1);
      std::vector<ir::Value*> offs = Offsets(op, 2);
      if (Active(src)) Accum(src, b_.TileView(d, offs, op.steps(), src->type().Shape()));
      if (Active(dst)) Accum(dst, b_.TileAssign(d, Zero(AdjType(src->type())), offs, op.steps()));
      return;
    }
    case OpCode::TileGather: {
      // r = t[idx] along axis  =>  dt[idx[k]] += d[k], repeated indices adding up
      const ir::Value* t = op.operand(0);
      if (Active(t)) Accum(t, b_.TileScatterAdd(Zero(AdjType(t->type())), P(op.operand(1)), d, int(op.axis())));
      return;
    }
    case OpCode::TileScatterAdd: {
      // r = dst + src scattered at idx  =>  ddst = d, dsrc = d[idx]
      if (Active(op.operand(0))) Accum(op.operand(0), d);
      if (Active(op.operand(2))) Accum(op.operand(2), b_.TileGather(d, P(op.operand(1)), int(op.axis())));
      return;
    }
    case OpCode::TileScatterLanes: {
      // Added: r = dst + each lane's value at its index  =>  ddst = d, dvalue = has ? d[i] : 0.
      // Written: the last lane to write an element is the one that survives  =>  ddst = d with
      // the written elements zeroed, and dvalue = d[i] on the surviving lane only. An index
      // outside reads zero from d, so it passes nothing.
      const ir::Value* dst = op.operand(0);
      const ir::Value* val = op.operand(1);
      ir::Value* has = P(op.operand(2));
      std::vector<ir::Value*> idx;
      for (int k = 3; k < op.num_operands(); ++k) idx.push_back(P(op.operand(k)));
      ir::Value* elem_zero = Zero(d->type().ElemValueType());
      if (Active(dst)) Accum(dst, op.accumulate() ? d : b_.TileScatterLanes(d, elem_zero, has, idx, false));
      if (!Active(val)) return;
      ir::Value* take = has;
      if (!op.accumulate()) {
        ir::Value* lane = b_.LaneId();
        ir::Value* writer = b_.TileScatterLanes(b_.TileFull(b_.ConstInt(ScalarType::Int32, -1), dst->type().Shape()),
                                                lane, has, idx, false);
        take = b_.Logic(OpCode::And, take, b_.Cmp(ir::CmpPred::Eq, b_.TileExtract(writer, idx), lane));
      }
      Accum(val, b_.Select(take, b_.TileExtract(d, idx), elem_zero));
      return;
    }
    case OpCode::TileMatmul: {
      // r = c + a @ b  =>  da = d @ b^T, db = a^T @ d, dc = d (each in its own type)
      const ir::Value* a = op.operand(0);
      const ir::Value* bm = op.operand(1);
      const ir::Value* c = op.operand(2);
      // The adjoint products keep the forward's precision.
      if (Active(a))
        Accum(a, b_.TileMatmul(d, b_.TilePermute(P(bm), {1, 0}), Zero(AdjType(a->type().WithStorage(ir::Storage::Register))),
                               op.tf32()));
      if (Active(bm))
        Accum(bm, b_.TileMatmul(b_.TilePermute(P(a), {1, 0}), d, Zero(AdjType(bm->type().WithStorage(ir::Storage::Register))),
                                op.tf32()));
      if (Active(c)) Accum(c, d);
      return;
    }
    case OpCode::TileDiagAdd: {
      // r = a + diag(d)  =>  da = dr, dd = the diagonal of dr (read as every (N+1)-th element
      // of the flattened adjoint)
      const ir::Value* a = op.operand(0);
      const ir::Value* dg = op.operand(1);
      if (Active(a)) Accum(a, d);
      if (Active(dg)) {
        const int64_t n = a->type().shape[0];
        Accum(dg, b_.TileView(b_.TileReshape(d, {n * n}), {i0()}, {n + 1}, {n}));
      }
      return;
    }
    case OpCode::TileTril: {
      // A mask: its adjoint is the same mask of the adjoint.
      if (Active(op.operand(0))) Accum(op.operand(0), b_.TileTril(d, op.inclusive()));
      return;
    }
    case OpCode::TileLowerSolve: case OpCode::TileUpperSolve: TriSolveRule(op, d); return;
    case OpCode::TileCholesky: CholeskyRule(op, d); return;
    case OpCode::TileSort:  // SortRule
    case OpCode::TileFft:   // FftRule
    case OpCode::TileArange: case OpCode::TileReduce: TILEC_CASES(Constant) TILEC_CASES(Tid)
    TILEC_CASES(Elementwise) TILEC_CASES(Compare) TILEC_CASES(Logic) TILEC_CASES(Array)
    TILEC_CASES(TileMap) TILEC_CASES(TileScan) TILEC_CASES(TileShape) TILEC_CASES(TileMemory)
    TILEC_CASES(Print) TILEC_CASES(Control) TILEC_CASES(Terminator)
      return;  // ReverseOp sends them to other rules
  }
}

void Generator::MapRule(const ir::Op& op) {
  // r = map(f, t...)  =>  dt_k[e] = (df/dx_k)(t...[e]) * d[e], computed by replaying f's body
  // and sweeping it backwards inside a map per active input.
  ir::Value* d = Adj(op.result());
  if (!d) return;
  const ir::Block& body = *op.region(0);
  std::vector<const ir::Value*> targets;
  // A tile passed twice (map(f, a, b, a)) is one target whose adjoint sums its arguments'.
  for (int k = 0; k < op.num_operands(); ++k)
    if (Active(op.operand(k)) && std::find(targets.begin(), targets.end(), op.operand(k)) == targets.end())
      targets.push_back(op.operand(k));
  for (const ir::Value* v : OuterActiveUses(op))
    if (std::find(op.operands().begin(), op.operands().end(), v) == op.operands().end()) targets.push_back(v);
  for (const ir::Value* target : targets) {
    std::vector<ir::Value*> inputs{d};
    for (const ir::Value* v : op.operands()) inputs.push_back(P(v));
    ir::Op* map = b_.TileMap(inputs, AdjType(target->type()).elem);
    auto saved_adj = adj_map();
    adj_map().clear();
    {
      ir::Builder::InsertionGuard g(b_);
      ir::Block* nb = map->region(0);
      b_.SetInsertionPoint(nb);
      for (int i = 0; i < body.num_args(); ++i) primal_map()[body.arg(i)] = nb->arg(i + 1);
      ReplayBlock(body);
      ir::Op* y = body.terminator();
      Accum(y->operand(0), nb->arg(0));
      ReverseBlock(body);
      const ir::Value* src = target;
      ir::Value* a = nullptr;
      for (int i = 0; i < op.num_operands(); ++i)
        if (op.operand(i) == target) {
          src = body.arg(i);
          if (ir::Value* ai = Adj(src)) a = a ? AddValues(a, ai) : ai;
        }
      if (src == target) a = Adj(target);
      if (!a) a = Zero(AdjType(src->type()));
      b_.Yield({a});
    }
    adj_map() = std::move(saved_adj);
    Accum(target, map->result());
  }
}

std::vector<ir::Value*> Generator::Offsets(const ir::Op& op, int first) {
  std::vector<ir::Value*> out;
  for (int i = first; i < op.num_operands(); ++i) out.push_back(P(op.operand(i)));
  return out;
}

// (k', v') = sort(k, v) moves element i to its rank: the adjoint moves each result element's
// adjoint back. The ranks are recomputed by sorting the row-major indices with the keys.
void Generator::SortRule(const ir::Op& op) {
  const ir::Type& kt = op.operand(0)->type();
  const int64_t n = kt.NumElements();
  ir::Value* perm = nullptr;
  for (int k = 0; k < 2; ++k) {
    ir::Value* d = Adj(op.result(k));
    const ir::Value* x = op.operand(k);
    if (!d || !Active(x)) continue;
    if (!perm) {
      ir::Value* lin = b_.TileArange(ScalarType::Int32, 0, 1, n);
      if (kt.ndim > 1) lin = b_.TileReshape(lin, kt.Shape());
      perm = b_.TileSort(P(op.operand(0)), lin)->result(1);
      if (kt.ndim > 1) perm = b_.TileReshape(perm, {n});
    }
    ir::Value* flat = kt.ndim > 1 ? b_.TileReshape(d, {n}) : d;
    ir::Value* back = b_.TileScatterAdd(Zero(AdjType(ir::Type::Tile(flat->type().elem, {n}))), perm, flat, 0);
    Accum(x, kt.ndim > 1 ? b_.TileReshape(back, kt.Shape()) : back);
  }
}

// The DFT is linear with the symmetric matrix F[k, n] = w^(kn); on (re, im) pairs its
// transpose is the conjugate matrix, the transform of the other direction, unnormalized.
// A result without an adjoint contributes zero.
void Generator::FftRule(const ir::Op& op) {
  ir::Value* d_re = Adj(op.result(0));
  ir::Value* d_im = Adj(op.result(1));
  if (!d_re && !d_im) return;
  if (!Active(op.operand(0)) && !Active(op.operand(1))) return;
  if (!d_re) d_re = Zero(d_im->type());
  if (!d_im) d_im = Zero(d_re->type());
  ir::Op* back = b_.TileFft(d_re, d_im, !op.inverse());
  for (int k = 0; k < 2; ++k)
    if (Active(op.operand(k))) Accum(op.operand(k), back->result(k));
}

}  // namespace tilec::autodiff::detail
