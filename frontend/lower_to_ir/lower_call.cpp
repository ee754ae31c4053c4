// Calls: a builtin lowers as its table row says (the row's LowerKind and IR op, read from the
// checker's resolved CallInfo), struct constructors build field by field, and @wp.func calls
// are inlined with their own variable scope (lower_inline.cpp).
#include <limits>
#include <optional>

#include "frontend/lower_to_ir/lowerer.h"

namespace tilec::lower {

using ir::OpCode;

namespace {

// Applies a math builtin to scalars of one type.
ir::Value* ApplyMath(ir::Builder& b, OpCode op, const std::vector<ir::Value*>& args) {
  if (op == OpCode::Clamp) return b.Clamp(args[0], args[1], args[2]);
  if (args.size() == 2) return b.Binary(op, args[0], args[1]);
  return b.Unary(op, args[0]);
}

// Applies a math composition (sema::MathForm) to scalars of one type, as Warp defines each.
ir::Value* ApplyMathForm(ir::Builder& b, sema::MathForm form, const std::vector<ir::Value*>& args) {
  ir::Value* x = args.back();
  ScalarType t = x->type().elem.scalar;
  auto num = [&](double v) { return IsFloat(t) ? b.ConstFloat(t, v) : b.ConstInt(t, int64_t(v)); };
  auto lt0 = [&] { return b.Cmp(ir::CmpPred::Lt, x, num(0)); };
  switch (form) {
    case sema::MathForm::Sign: return b.Select(lt0(), num(-1), num(1));
    case sema::MathForm::Step: return b.Select(lt0(), num(1), num(0));
    case sema::MathForm::Nonzero: return b.Select(b.Cmp(ir::CmpPred::Eq, x, num(0)), num(0), num(1));
    case sema::MathForm::Frac: return b.Binary(OpCode::Sub, x, b.Unary(OpCode::Trunc, x));
    case sema::MathForm::Lerp: {
      // a*(1-t) + b*t, in that order (not a + t*(b-a)), so results round as Warp's.
      ir::Value* one_minus = b.Binary(OpCode::Sub, num(1), x);
      return b.Binary(OpCode::Add, b.Binary(OpCode::Mul, args[0], one_minus), b.Binary(OpCode::Mul, args[1], x));
    }
    case sema::MathForm::Smoothstep: {
      ir::Value* u = b.Clamp(b.Binary(OpCode::Div, b.Binary(OpCode::Sub, x, args[0]), b.Binary(OpCode::Sub, args[1], args[0])),
                             num(0), num(1));
      ir::Value* poly = b.Binary(OpCode::Sub, num(3), b.Binary(OpCode::Mul, num(2), u));
      return b.Binary(OpCode::Mul, b.Binary(OpCode::Mul, u, u), poly);
    }
    // NaN is the one value unequal to itself; infinities are the magnitudes no finite value
    // reaches. The comparisons are ordered, so a NaN is neither infinite nor finite.
    case sema::MathForm::IsNan: return b.Cmp(ir::CmpPred::Ne, x, x);
    case sema::MathForm::IsInf:
      return b.Cmp(ir::CmpPred::Eq, b.Unary(OpCode::Abs, x), num(std::numeric_limits<double>::infinity()));
    case sema::MathForm::IsFinite:
      return b.Cmp(ir::CmpPred::Lt, b.Unary(OpCode::Abs, x), num(std::numeric_limits<double>::infinity()));
    case sema::MathForm::BitCount: {
      // The pattern zero-extended to 64 bits, then the classic SWAR count (pairs, nibbles,
      // bytes, then the bytes summed by one multiply), which LLVM turns into popcount.
      const ScalarType u = ScalarSize(t) == 1 ? ScalarType::UInt8 : ScalarSize(t) == 2 ? ScalarType::UInt16
                           : ScalarSize(t) == 4 ? ScalarType::UInt32 : ScalarType::UInt64;
      ir::Value* v = b.Cast(b.Cast(x, u), ScalarType::UInt64);
      auto k = [&](uint64_t c) { return b.ConstInt(ScalarType::UInt64, int64_t(c)); };
      auto shr = [&](ir::Value* a, int n) { return b.Binary(OpCode::Shr, a, k(uint64_t(n))); };
      auto band = [&](ir::Value* a, uint64_t m) { return b.Binary(OpCode::BitAnd, a, k(m)); };
      v = b.Binary(OpCode::Sub, v, band(shr(v, 1), 0x5555555555555555ull));
      v = b.Binary(OpCode::Add, band(v, 0x3333333333333333ull), band(shr(v, 2), 0x3333333333333333ull));
      v = band(b.Binary(OpCode::Add, v, shr(v, 4)), 0x0f0f0f0f0f0f0f0full);
      v = shr(b.Binary(OpCode::Mul, v, k(0x0101010101010101ull)), 56);
      return b.Cast(v, ScalarType::Int32);
    }
  }
  return x;
}

// ---- tiles of vectors and matrices (structs of scalar components, support/composite.h)

bool IsStructTile(ir::Value* v) { return v && v->type().is_tile() && v->type().elem.is_struct(); }

// A tile_map over `tiles` whose body `f` computes one element from the elements (block args).
template <class F>
ir::Value* MapElements(Lowerer& L, const std::vector<ir::Value*>& tiles, ir::ElemType elem, F f) {
  ir::Op* op = L.b_.TileMap(tiles, elem);
  ir::Builder::InsertionGuard g(L.b_);
  ir::Block* body = op->region(0);
  L.b_.SetInsertionPoint(body);
  std::vector<ir::Value*> xs;
  for (size_t k = 0; k < tiles.size(); ++k) xs.push_back(body->arg(int(k)));
  L.b_.Yield({f(xs)});
  return op->result();
}

// One component of every element, as a scalar tile.
ir::Value* ComponentTile(Lowerer& L, ir::Value* t, int k) {
  ScalarType s = L.m_.structs()[t->type().elem.struct_index].composite.scalar;
  return MapElements(L, {t}, ir::ElemType::Of(s), [&](const std::vector<ir::Value*>& x) { return L.b_.FieldGet(x[0], k); });
}

// The reduction `kind` (add, min or max) of a vector or matrix tile, component by component:
// each component's scalar tile reduces in the order of a scalar tile's (docs/semantics.md),
// then the components are put back together. Every op here has its adjoint.
ir::Value* ReduceComponents(Lowerer& L, ir::Value* t, bool sum, ir::ReduceKind kind, int axis) {
  ir::ElemType elem = t->type().elem;
  int n = int(L.m_.structs()[elem.struct_index].fields.size());
  std::vector<ir::Value*> parts;
  for (int k = 0; k < n; ++k) {
    ir::Value* c = ComponentTile(L, t, k);
    parts.push_back(sum && axis < 0 ? L.b_.TileSum(c) : L.b_.TileReduce(kind, c, axis));
  }
  return MapElements(L, parts, elem, [&](const std::vector<ir::Value*>& x) {
    ir::Value* v = L.b_.ZeroOf(ir::Type::Struct(elem.struct_index));
    for (int k = 0; k < n; ++k) v = L.b_.FieldSet(v, k, x[size_t(k)]);
    return v;
  });
}

// `a op c` where a vector or matrix meets a tile (either operand may be a value, c null for
// `-a`): a tile_map of the operation's element form. A scalar divided by a vector or matrix
// divides by each component (Warp's div(scalar, vector)).
ir::Value* CompositeTileArith(Lowerer& L, OpCode op, ir::Value* a, ir::Value* c) {
  using sema::CompositeOp;
  if (!c) {
    ir::ElemType elem = a->type().elem;
    return MapElements(L, {a}, elem, [&](const std::vector<ir::Value*>& x) {
      return L.CompositeOfValues(CompositeOp::Neg, x, ir::Type::Struct(elem.struct_index));
    });
  }
  const bool comp_left = a->type().elem.is_struct();
  const ir::ElemType elem = comp_left ? a->type().elem : c->type().elem;
  const ir::Type et = ir::Type::Struct(elem.struct_index);
  std::vector<ir::Value*> tiles;
  for (ir::Value* v : {a, c})
    if (v->type().is_tile()) tiles.push_back(v);
  return MapElements(L, tiles, elem, [&](const std::vector<ir::Value*>& xs) -> ir::Value* {
    size_t k = 0;
    ir::Value* x = a->type().is_tile() ? xs[k++] : a;
    ir::Value* y = c->type().is_tile() ? xs[k++] : c;
    if (x->type().is_struct() && y->type().is_struct()) return L.CompositeOfValues(ComponentwiseOp(op), {x, y}, et);
    if (op == OpCode::Mul) return L.CompositeOfValues(CompositeOp::Scale, comp_left ? std::vector{x, y} : std::vector{y, x}, et);
    return L.CompositeOfValues(comp_left ? CompositeOp::Divide : CompositeOp::ScalarDivide, {x, y}, et);
  });
}

// ---- tiles of other @wp.struct types: field by field, as Warp's generated struct operators

bool IsPlainStructTile(Lowerer& L, ir::Value* v) { return IsStructTile(v) && !IsVectorLike(L, v->type().elem); }

// tile_sum of a struct tile: each accumulating field's tile sums (vectors component by
// component, nested structs recursively); the others take the first element's value.
ir::Value* SumStructTile(Lowerer& L, ir::Value* t) {
  const ir::ElemType elem = t->type().elem;
  if (IsVectorLike(L, elem)) return ReduceComponents(L, t, true, ir::ReduceKind::Add, -1);
  const auto& fields = L.m_.structs()[size_t(elem.struct_index)].fields;
  std::vector<ir::Value*> sums;   // one shape-(1,) tile per accumulating field
  std::vector<ir::Value*> firsts(fields.size(), nullptr);
  std::vector<ir::Value*> origin(size_t(t->type().ndim), L.b_.ConstInt(ScalarType::Int32, 0));
  for (size_t k = 0; k < fields.size(); ++k) {
    const ir::ElemType fe = fields[k].type;
    ir::Value* ft = MapElements(L, {t}, fe, [&](const std::vector<ir::Value*>& x) { return L.b_.FieldGet(x[0], int(k)); });
    if (!Accumulates(fe)) firsts[k] = L.b_.TileExtract(ft, origin);
    else if (fe.is_struct()) sums.push_back(SumStructTile(L, ft));
    else sums.push_back(L.b_.TileSum(ft));
  }
  auto assemble = [&](const std::vector<ir::Value*>& xs) {
    ir::Value* v = L.b_.ZeroOf(ir::Type::Struct(elem.struct_index));
    size_t n = 0;
    for (size_t k = 0; k < fields.size(); ++k) v = L.b_.FieldSet(v, int(k), firsts[k] ? firsts[k] : xs[n++]);
    return v;
  };
  if (sums.empty()) return L.b_.TileFull(assemble({}), {1});
  return MapElements(L, sums, elem, assemble);
}

// ---- lanes and tiles

ir::Value* I32(Lowerer& L, int64_t v) { return L.b_.ConstInt(ScalarType::Int32, v); }

// wp.tile(x): each lane writes its value (or each of its components) at its lane in the last
// dimension of a zero tile of `rt`.
ir::Value* TileOfLanes(Lowerer& L, ir::Value* x, const ir::Type& rt) {
  ir::Value* lane = L.b_.LaneId();
  ir::Value* all = L.b_.ConstBool(true);
  ir::Value* t = L.b_.TileFull(L.ZeroValue(rt.ElemValueType()), rt.Shape());
  if (rt.ndim == 1) return L.b_.TileScatterLanes(t, L.Convert(x, rt.ElemValueType()), all, {lane}, false);
  std::vector<ir::Value*> comps = L.Components(x);
  const int64_t cols = rt.ndim == 3 ? rt.shape[1] : 1;
  for (size_t k = 0; k < comps.size(); ++k) {
    std::vector<ir::Value*> idx = {I32(L, int64_t(k) / cols)};
    if (rt.ndim == 3) idx.push_back(I32(L, int64_t(k) % cols));
    idx.push_back(lane);
    t = L.b_.TileScatterLanes(t, L.Convert(comps[k], rt.ElemValueType()), all, idx, false);
  }
  return t;
}

// wp.untile(t): the inverse of TileOfLanes, each lane reading its own column.
ir::Value* Untile(Lowerer& L, ir::Value* t, const ir::Type& rt) {
  ir::Value* lane = L.b_.LaneId();
  const ir::Type& tt = t->type();
  if (tt.ndim == 1) return L.b_.TileExtract(t, {lane});
  std::vector<ir::Value*> comps;
  const int64_t rows = tt.shape[0], cols = tt.ndim == 3 ? tt.shape[1] : 1;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      std::vector<ir::Value*> idx = {I32(L, r)};
      if (tt.ndim == 3) idx.push_back(I32(L, c));
      idx.push_back(lane);
      comps.push_back(L.b_.TileExtract(t, idx));
    }
  return L.BuildComposite(rt, comps);
}

// Warp's rand_pcg (native/rand.h) on a uint32.
ir::Value* Pcg(ir::Builder& b, ir::Value* state) {
  auto u = [&](uint32_t v) { return b.ConstInt(ScalarType::UInt32, int64_t(v)); };
  ir::Value* x = b.Binary(OpCode::Add, b.Binary(OpCode::Mul, state, u(747796405u)), u(2891336453u));
  ir::Value* sh = b.Binary(OpCode::Add, b.Binary(OpCode::Shr, x, u(28u)), u(4u));
  ir::Value* c = b.Binary(OpCode::Mul, b.Binary(OpCode::BitXor, b.Binary(OpCode::Shr, x, sh), x), u(277803737u));
  return b.Binary(OpCode::BitXor, b.Binary(OpCode::Shr, c, u(22u)), c);
}

// tile_randi / tile_randf as Warp's GPU computes them (native/tile.h): lane l starts from
// rand_pcg(l + rng) and draws, one rand_pcg per draw, the elements l, l + B, l + 2B, ... of
// the row-major order. So element L is draw L / B + 1 of lane L % B's stream: a tile_map over
// the linear indices, each element replaying its lane's stream up to its draw.
ir::Value* TileRandom(Lowerer& L, ir::Value* rng, const std::optional<sema::ConstValue>& lo,
                      const std::optional<sema::ConstValue>& hi, const ir::Type& rt) {
  ir::Builder& b = L.b_;
  const ScalarType u32 = ScalarType::UInt32;
  rng = L.Convert(rng, ir::Type::Scalar(u32));
  ir::Value* lanes = b.BlockDim();
  ir::Value* lin = b.TileArange(ScalarType::Int32, 0, 1, rt.NumElements());
  ir::Op* map = b.TileMap({lin}, rt.elem);
  {
    ir::Builder::InsertionGuard g(b);
    ir::Block* body = map->region(0);
    b.SetInsertionPoint(body);
    ir::Value* x = body->arg(0);
    ir::Value* lane = b.Binary(OpCode::Mod, x, lanes);
    ir::Value* draws = b.Binary(OpCode::Add, b.Binary(OpCode::Div, x, lanes), I32(L, 1));
    ir::Value* start = Pcg(b, b.Binary(OpCode::Add, b.Cast(lane, u32), rng));
    ir::Op* loop = b.For(I32(L, 0), draws, I32(L, 1), {start});
    {
      ir::Builder::InsertionGuard g2(b);
      b.SetInsertionPoint(loop->region(0));
      b.Yield({Pcg(b, loop->region(0)->arg(1))});
    }
    ir::Value* state = loop->result(0);
    ir::Value* v;
    if (rt.elem.scalar == ScalarType::Int32) {
      // randi(state, min, max): the uint32 `state % (max - min) + min`, as an int
      if (lo && hi) {
        ir::Value* span = b.ConstInt(u32, int64_t(uint32_t(hi->AsInt() - lo->AsInt())));
        state = b.Binary(OpCode::Add, b.Binary(OpCode::Mod, state, span), b.ConstInt(u32, int64_t(uint32_t(lo->AsInt()))));
      }
      v = b.Cast(state, ScalarType::Int32);
    } else {
      // randf: the top 24 bits times 2^-24; with a range, (max - min) * u + min, which Warp's
      // GPU build (nvrtc --fmad=true) contracts into one fused multiply-add.
      ir::Value* top = b.Cast(b.Binary(OpCode::Shr, state, b.ConstInt(u32, 8)), ScalarType::Float32);
      v = b.Binary(OpCode::Mul, top, b.ConstFloat(ScalarType::Float32, 1.0 / 16777216.0));
      if (lo && hi) {
        const float flo = float(lo->AsDouble()), fhi = float(hi->AsDouble());
        v = b.Fma(b.ConstFloat(ScalarType::Float32, double(fhi - flo)), v, b.ConstFloat(ScalarType::Float32, double(flo)));
      }
    }
    b.Yield({v});
  }
  ir::Value* r = map->result();
  return rt.ndim > 1 ? b.TileReshape(r, rt.Shape()) : r;
}

}  // namespace

std::vector<ir::Value*> Lowerer::Offsets(const sema::CallInfo& ci, int param, int ndim) {
  std::vector<ir::Value*> out;
  const ast::Expr* arg = param >= 0 && param < int(ci.args.size()) ? ci.args[param] : nullptr;
  if (arg) {
    const sema::Type* t = cm_.TypeOf(arg);
    if (t && t->kind == sema::TypeKind::Tuple) out = Tuple(arg);
    else out.push_back(Expr(arg));
  } else if (param >= 0 && param < int(ci.const_args.size()) && ci.const_args[param]) {
    const sema::ConstValue& c = *ci.const_args[param];
    if (c.kind == sema::ConstValue::Kind::Tuple)
      for (const sema::ConstValue& e : c.elems) out.push_back(b_.ConstInt(ScalarType::Int32, e.AsInt()));
    else
      out.push_back(b_.ConstInt(ScalarType::Int32, c.AsInt()));
  }
  while (int(out.size()) < ndim) out.push_back(b_.ConstInt(ScalarType::Int32, 0));
  return out;
}

ir::Value* Lowerer::TileBinaryOp(ir::OpCode op, ir::Value* a, ir::Value* b) {
  if (IsPlainStructTile(*this, a) && IsPlainStructTile(*this, b))
    return MapElements(*this, {a, b}, a->type().elem,
                       [&](const std::vector<ir::Value*>& x) { return FieldwiseStruct(*this, op, x[0], x[1]); });
  if (IsStructTile(a) || IsStructTile(b) || a->type().is_struct() || b->type().is_struct())
    return CompositeTileArith(*this, op, a, b);
  // A scalar operand takes the tile's element type.
  if (a->type().is_tile() && !b->type().is_tile()) b = Convert(b, a->type().ElemValueType());
  if (b->type().is_tile() && !a->type().is_tile()) a = Convert(a, b->type().ElemValueType());
  return b_.Binary(op, a, b);
}

ir::Value* Lowerer::Call(const ast::Expr* e, const sema::CallInfo& ci) {
  const sema::Type* result_type = cm_.TypeOf(e);
  ir::Type rt = IrType(result_type);
  using P = sema::Param;
  auto arg = [&](P p) -> const ast::Expr* {
    int k = ci.overload ? ci.overload->Index(p) : -1;
    return k >= 0 && k < int(ci.args.size()) ? ci.args[k] : nullptr;
  };
  auto const_arg = [&](P p) -> std::optional<sema::ConstValue> {
    int k = ci.overload ? ci.overload->Index(p) : -1;
    if (k < 0 || k >= int(ci.const_args.size())) return std::nullopt;
    return ci.const_args[k];
  };
  auto axis = [&]() {
    auto c = const_arg(P::Axis);
    return c ? int(c->AsInt()) : 0;
  };

  if (ci.kind == sema::CallInfo::Kind::Composite) return CompositeValue(e, ci);
  if (ci.kind == sema::CallInfo::Kind::StructCtor) {
    ir::Value* v = b_.ZeroOf(ir::Type::Struct(ci.struct_index));
    const ir::StructDef& sd = m_.structs()[ci.struct_index];
    for (size_t k = 0; k < ci.args.size() && k < sd.fields.size(); ++k)
      if (ci.args[k]) v = b_.FieldSet(v, int(k), Convert(Expr(ci.args[k]), ir::Type::Elem(sd.fields[k].type)));
    return v;
  }
  if (ci.kind == sema::CallInfo::Kind::UserFunc) {
    std::vector<ir::Value*> args;
    // A tuple reaches a func (a generic `Any` or `tuple[T, ...]` parameter) as its elements.
    std::vector<std::vector<ir::Value*>> tuples(ci.args.size());
    for (size_t k = 0; k < ci.args.size(); ++k) {
      const ast::Expr* a = ci.args[k];
      const sema::Type* t = a ? cm_.TypeOf(a) : nullptr;
      if (t && t->kind == sema::TypeKind::Tuple) {
        tuples[k] = Tuple(a);
        args.push_back(nullptr);
      } else {
        args.push_back(a ? Expr(a) : nullptr);
      }
    }
    // A struct holding arrays passes them along: the func's parameter reads the caller's.
    const sema::FunctionInfo& callee = cm_.funcs[size_t(ci.func_index)];
    for (size_t k = 0; k < ci.args.size() && int(k) < callee.num_params; ++k)
      if (const sema::Type* t = ci.args[k] ? cm_.TypeOf(ci.args[k]) : nullptr;
          t && t->kind == sema::TypeKind::Struct && cm_.structs[size_t(t->struct_index)].holds_arrays)
        struct_arrays_[callee.Param(int(k))] = StructArrays(ci.args[k]);
    ir::Value* r = InlineFunc(ci.func_index, args, tuples);
    // Tiles and stacks reach a func by reference, as in Warp: what the func updates in place
    // (`t[i] = v`, `t += u`, a push) is the caller's.
    const sema::FunctionInfo& fi = cm_.funcs[size_t(ci.func_index)];
    const std::vector<ir::Value*> finals = last_params_;
    for (size_t k = 0; k < ci.args.size() && k < finals.size(); ++k)
      if (ci.args[k] && finals[k] && finals[k] != args[k] && PassedByReference(fi, int(k)))
        WriteTile(ci.args[k], finals[k]);
    if (ci.updates_arg >= 0) {
      // Warp's in-place builtins: the helper returns the updated argument (and, for those
      // that also yield a value, a tuple of it and the value).
      bool pair = !r && last_tuple_.size() == 2;
      Binding nb;
      nb.value = pair ? last_tuple_[0] : r;
      ir::Value* value = pair ? last_tuple_[1] : nullptr;
      // Warp updates a variable; given anything else it updates a copy, which is dropped.
      const ast::Expr* dst = ci.args[size_t(ci.updates_arg)];
      if (nb.value && dst && dst->Is<ast::Name>()) LowerAssign(dst, nullptr, nb);
      return value;
    }
    return r ? r : b_.ConstInt(ScalarType::Int32, 0);
  }
  if (!ci.builtin || !ci.overload) {
    Unsupported(e->range, "this call");
    return rt.is_none() ? nullptr : ZeroValue(rt);
  }
  const sema::Lowering& lw = ci.builtin->lower;
  using LK = sema::LowerKind;
  switch (lw.kind) {
    case LK::None: break;
    case LK::Constant: {
      // Scalars are constants before they reach a call (Expr), tuples in Tuple(); a struct or
      // other value has no constant form.
      const sema::ExprInfo* info = cm_.Info(e);
      if (info && info->value && rt.is_scalar()) return ConstOf(*info->value, rt);
      break;
    }
    case LK::Tid: return b_.Tid(1)[0];
    case LK::LaneId: return b_.LaneId();
    case LK::Cast: return Convert(Expr(ci.args[0]), IrType(ci.cast_target ? ci.cast_target : result_type));
    case LK::TileFillZero: return b_.TileFull(ZeroValue(rt.ElemValueType()), rt.Shape(), rt.storage);
    case LK::TileFillOne:
      return b_.TileFull(ConstOf(sema::ConstValue::MakeInt(1), rt.ElemValueType()), rt.Shape(), rt.storage);
    case LK::TileFillValue:
      return b_.TileFull(Convert(Expr(arg(P::Value)), rt.ElemValueType()), rt.Shape(), rt.storage);
    case LK::TileArange: {
      auto start = const_arg(P::Start);
      auto step = const_arg(P::Step);
      double s0 = start ? start->AsDouble() : 0.0, st = step ? step->AsDouble() : 1.0;
      ir::Value* r = b_.TileArange(rt.elem.scalar, s0, st, rt.shape[0], rt.storage);
      // Integer bounds as written: through a double, 2**53 + 1 would round.
      if (start && start->kind == sema::ConstValue::Kind::Int) r->def()->start().i = start->AsInt();
      if (step && step->kind == sema::ConstValue::Kind::Int) r->def()->step().i = step->AsInt();
      return r;
    }
    case LK::TileLoad:
    case LK::TileLoadIndexed: {
      ir::Value* a = ArrayOf(arg(P::A));
      if (!a) return ZeroValue(rt);
      auto offs = Offsets(ci, ci.overload->Index(P::Offset), a->type().ndim);
      if (lw.kind == LK::TileLoad) return b_.TileLoad(a, rt.Shape(), offs, rt.storage);
      return b_.TileLoadIndexed(a, Expr(arg(P::Indices)), rt.Shape(), offs, axis(), rt.storage);
    }
    case LK::TileStore:
    case LK::TileAtomicAdd:
    case LK::TileStoreIndexed:
    case LK::TileAtomicAddIndexed: {
      ir::Value* a = ArrayOf(arg(P::A));
      ir::Value* t = Expr(arg(P::T));
      if (!a) return nullptr;
      auto offs = Offsets(ci, ci.overload->Index(P::Offset), a->type().ndim);
      if (lw.kind == LK::TileStore) {
        b_.TileStore(a, t, offs);
        return nullptr;
      }
      if (lw.kind == LK::TileAtomicAdd || lw.kind == LK::TileAtomicAddIndexed)
        if (auto d = const_arg(P::Deterministic); d && d->AsInt()) kernel_->deterministic = true;
      if (lw.kind == LK::TileAtomicAdd) return b_.TileAtomicAdd(a, t, offs);
      ir::Value* idx = Expr(arg(P::Indices));
      if (lw.kind == LK::TileStoreIndexed) {
        b_.TileStoreIndexed(a, idx, t, offs, axis());
        return nullptr;
      }
      return b_.TileAtomicAddIndexed(a, idx, t, offs, axis());
    }
    case LK::TileSum: {
      ir::Value* t = Expr(arg(P::A));
      bool has_axis = ci.overload->Index(P::Axis) >= 0;
      if (IsPlainStructTile(*this, t) && !has_axis) return SumStructTile(*this, t);
      if (IsStructTile(t)) return ReduceComponents(*this, t, true, ir::ReduceKind::Add, has_axis ? axis() : -1);
      if (has_axis) return b_.TileReduce(ir::ReduceKind::Add, t, axis());
      return b_.TileSum(t);
    }
    case LK::TileReduce: {
      // A combiner argument (tile_reduce) names the kind through its own row.
      ir::ReduceKind kind = lw.reduce;
      if (const ast::Expr* f = arg(P::Op)) {
        const sema::Type* ft = cm_.TypeOf(f);
        if (ft && (ft->callee.kind == sema::CalleeKind::UserFunc || ft->callee.kind == sema::CalleeKind::Overloads)) {
          // A generic or overloaded combiner: the checker kept the func it calls on the argument.
          const sema::CallInfo* fci = cm_.Call(f);
          int index = fci && fci->kind == sema::CallInfo::Kind::UserFunc ? fci->func_index : ft->callee.index;
          return ReduceWithFunc(index, Expr(arg(P::A)), ci.overload->Index(P::Axis) >= 0 ? axis() : -1);
        }
        if (!ft || ft->callee.kind != sema::CalleeKind::Builtin ||
            !sema::ReduceKindOf(sema::BuiltinTable()[ft->callee.index], kind)) {
          Unsupported(f->range, "this `tile_reduce` combiner");
          return ZeroValue(rt);
        }
      }
      bool has_axis = ci.overload->Index(P::Axis) >= 0;
      ir::Value* t = Expr(arg(P::A));
      if (IsStructTile(t)) return ReduceComponents(*this, t, kind == ir::ReduceKind::Add, kind, has_axis ? axis() : -1);
      return b_.TileReduce(kind, t, has_axis ? axis() : -1);
    }
    case LK::TileScan: return b_.TileScan(lw.reduce, Expr(arg(P::A)), lw.inclusive);
    case LK::TileShape: {
      ir::Value* t = Expr(ci.args[0]);
      if (lw.op == OpCode::TileBroadcast) return b_.TileBroadcast(t, rt.Shape());
      return b_.TileReshape(t, rt.Shape());
    }
    case LK::TilePermute: return b_.TilePermute(Expr(ci.args[0]), lw.perm);
    // Operators are keyed by their AST node: Binary, or an AugAssign target.
    case LK::TileBinary: return TileBinaryOp(lw.op, Expr(arg(P::Lhs)), Expr(arg(P::Rhs)));
    case LK::TileUnary: {
      ir::Value* t = Expr(ci.args[0]);
      if (IsPlainStructTile(*this, t) && lw.op == OpCode::Neg)
        return MapElements(*this, {t}, t->type().elem,
                           [&](const std::vector<ir::Value*>& x) { return FieldwiseStruct(*this, lw.op, x[0], nullptr); });
      if (IsStructTile(t) && lw.op == OpCode::Neg) return CompositeTileArith(*this, lw.op, t, nullptr);
      return b_.Unary(lw.op, t);
    }
    case LK::TileExtract: {
      if (arg(P::T)) return b_.TileExtract(Expr(arg(P::T)), ElementIndices(arg(P::T), arg(P::Index)));
      // wp.tile_extract(a, i, j, ...): one int argument per dimension.
      std::vector<ir::Value*> idx;
      for (P p : {P::I, P::J, P::K, P::L})
        if (const ast::Expr* x = arg(p)) idx.push_back(Convert(Expr(x), ir::Type::Scalar(ScalarType::Int32)));
      return b_.TileExtract(Expr(arg(P::A)), idx);
    }
    case LK::TileDot: {
      ir::Value* a = Expr(arg(P::A));
      ir::Value* c = Expr(arg(P::B));
      if (!IsStructTile(a)) return b_.TileReduce(ir::ReduceKind::Add, b_.Binary(OpCode::Mul, a, c), -1);
      // Vectors and matrices contract fully (Warp's tensordot): each element pair's component
      // products summed, then the tile summed.
      ScalarType s = m_.structs()[a->type().elem.struct_index].composite.scalar;
      ir::Value* d = MapElements(*this, {a, c}, ir::ElemType::Of(s), [&](const std::vector<ir::Value*>& x) {
        std::vector<ir::Value*> p = Components(x[0]), q = Components(x[1]);
        ir::Value* acc = b_.Binary(OpCode::Mul, p[0], q[0]);
        for (size_t k = 1; k < p.size(); ++k) acc = b_.Binary(OpCode::Add, acc, b_.Binary(OpCode::Mul, p[k], q[k]));
        return acc;
      });
      return b_.TileReduce(ir::ReduceKind::Add, d, -1);
    }
    case LK::TileAxpy: {
      // Warp updates `dest` in place; here the variable it names is rebound to the sum, which
      // every later read of the variable (and a loop carrying it) sees.
      ir::Value* src = Expr(arg(P::Src));
      ir::Value* r = TileBinaryOp(OpCode::Add, TileBinaryOp(OpCode::Mul, Expr(arg(P::Alpha)), src), Expr(arg(P::Dest)));
      WriteTile(arg(P::Dest), r);
      return nullptr;
    }
    case LK::TileView: {
      Region r;
      RegionOf(e, r);
      return b_.TileView(Expr(r.base), r.offsets, r.steps, r.shape);
    }
    case LK::TileAssign: {
      // Warp writes `dst` in place: the variable it names (through any views) is updated.
      ir::Value* dst = Expr(arg(P::Dst));
      ir::Value* src = Expr(arg(P::Src));
      src = Convert(src, ir::Type::Tile(dst->type().elem, src->type().Shape()));
      std::vector<ir::Value*> offs = Offsets(ci, ci.overload->Index(P::Offset), dst->type().ndim);
      WriteTile(arg(P::Dst), b_.TileAssign(dst, src, offs, std::vector<int64_t>(size_t(dst->type().ndim), 1)));
      return nullptr;
    }
    case LK::TileMatmul: {
      ir::Value* a = Expr(arg(P::A));
      ir::Value* bm = Expr(arg(P::B));
      const ast::Expr* out = arg(P::Out);
      const ast::Expr* alpha = arg(P::Alpha);
      auto pr = const_arg(P::Precision);
      const bool tf32 = pr && pr->kind == sema::ConstValue::Kind::String && pr->s == "tf32";
      if (!out) {
        ir::Value* prod = b_.TileMatmul(a, bm, ZeroValue(rt), tf32);
        return alpha ? TileBinaryOp(OpCode::Mul, prod, Convert(Expr(alpha), prod->type().ElemValueType())) : prod;
      }
      // out = alpha * (a @ b) + beta * out, the product summed from zero and then added, as
      // Warp and BLAS do (so the defaults (1, 1) give a @ b + out, rounded twice). A constant
      // beta of zero does not read out, so a NaN there does not reach the result.
      ir::Value* o = Expr(out);
      const ast::Expr* beta = arg(P::Beta);
      auto beta_value = const_arg(P::Beta);
      const bool beta_zero = beta_value && (beta_value->kind == sema::ConstValue::Kind::Float ||
                                            beta_value->kind == sema::ConstValue::Kind::Int) &&
                             beta_value->AsDouble() == 0.0;
      ir::Type et = o->type().ElemValueType();
      ir::Value* prod = b_.TileMatmul(a, bm, ZeroValue(o->type().WithStorage(ir::Storage::Register)), tf32);
      if (alpha) prod = TileBinaryOp(OpCode::Mul, prod, Convert(Expr(alpha), et));
      ir::Value* r = prod;
      if (beta && !beta_value) {
        // A beta known only at run time: zero still leaves out unread, as BLAS and Warp do.
        ir::Value* bv = Convert(Expr(beta), et);
        ir::Op* op = b_.If(b_.Cmp(ir::CmpPred::Eq, bv, Convert(b_.ConstFloat(ScalarType::Float64, 0.0), et)), {prod->type()});
        ir::Builder::InsertionGuard g(b_);
        b_.SetInsertionPoint(op->region(0));
        b_.Yield({prod});
        b_.SetInsertionPoint(op->region(1));
        b_.Yield({b_.Binary(OpCode::Add, prod, TileBinaryOp(OpCode::Mul, o, bv))});
        r = op->result(0);
      } else if (!beta_zero) {
        r = b_.Binary(OpCode::Add, prod, beta ? TileBinaryOp(OpCode::Mul, o, Convert(Expr(beta), et)) : o);
      }
      WriteTile(out, r);
      return nullptr;
    }
    case LK::TileDiagAdd: return b_.TileDiagAdd(Expr(arg(P::A)), Expr(arg(P::D)));
    case LK::TileCholesky: case LK::TileCholeskySolve: case LK::TileTriSolve: {
      // The upper forms are the lower ones of the transpose (exact): U = chol(A^T)^T, and
      // U^T U x = y is a lower solve with U^T followed by an upper solve with U. The _inplace
      // rows write the result into the tile they update.
      auto fm = const_arg(P::FillMode);
      const bool upper = fm && fm->kind == sema::ConstValue::Kind::String && fm->s == "upper";
      const ast::Expr* rhs = arg(P::Y) ? arg(P::Y) : arg(P::Z);
      ir::Value* r = nullptr;
      if (lw.kind == LK::TileTriSolve) {
        r = b_.TileTriSolve(lw.op, Expr(arg(lw.op == OpCode::TileLowerSolve ? P::MatL : P::MatU)), Expr(rhs));
      } else if (lw.kind == LK::TileCholesky) {
        ir::Value* a = Expr(arg(P::MatA));
        r = upper ? b_.TilePermute(b_.TileCholesky(b_.TilePermute(a, {1, 0})), {1, 0}) : b_.TileCholesky(a);
      } else {
        ir::Value* f = Expr(arg(P::MatL));
        ir::Value* y = Expr(rhs);
        ir::Value* ft = b_.TilePermute(f, {1, 0});
        r = upper ? b_.TileTriSolve(OpCode::TileUpperSolve, f, b_.TileTriSolve(OpCode::TileLowerSolve, ft, y))
                  : b_.TileTriSolve(OpCode::TileUpperSolve, ft, b_.TileTriSolve(OpCode::TileLowerSolve, f, y));
      }
      if (lw.updates.empty()) return r;
      WriteTile(arg(lw.updates[0]), r);
      return nullptr;
    }
    case LK::Where: {
      ir::Value* a = Convert(Expr(arg(P::ValueIfTrue)), rt);
      ir::Value* b = Convert(Expr(arg(P::ValueIfFalse)), rt);
      return b_.Select(ToBool(Expr(arg(P::Cond))), a, b);
    }
    case LK::TileFft: {
      // The complex tile as its real and imaginary parts, transformed, then put back together.
      const ast::Expr* inout = arg(P::Inout);
      ir::Value* t = Expr(inout);
      ir::Op* f = b_.TileFft(ComponentTile(*this, t, 0), ComponentTile(*this, t, 1), lw.inverse);
      const ir::ElemType elem = t->type().elem;
      WriteTile(inout, MapElements(*this, {f->result(0), f->result(1)}, elem, [&](const std::vector<ir::Value*>& x) {
                  ir::Value* v = b_.ZeroOf(ir::Type::Struct(elem.struct_index));
                  return b_.FieldSet(b_.FieldSet(v, 0, x[0]), 1, x[1]);
                }));
      return nullptr;
    }
    case LK::TileSort: {
      ir::Op* op = b_.TileSort(Expr(arg(P::Keys)), Expr(arg(P::Values)));
      WriteTile(arg(P::Keys), op->result(0));
      WriteTile(arg(P::Values), op->result(1));
      return nullptr;
    }
    case LK::TileArgReduce: {
      ir::Value* t = Expr(arg(P::A));
      return b_.FirstIndexOf(t, b_.TileReduce(lw.reduce, t, -1));
    }
    case LK::TileMap: return LowerTileMap(ci, rt);
    case LK::BlockDim: return b_.BlockDim();
    case LK::TileOfLanes: return TileOfLanes(*this, Expr(arg(P::X)), rt);
    case LK::Untile: return Untile(*this, Expr(arg(P::A)), rt);
    case LK::TileFromThread: {
      // Lane thread_idx alone writes its value into a one-element tile, which every lane then
      // reads (a thread_idx outside the block leaves the zero there).
      ir::Value* v = Convert(Expr(arg(P::Value)), rt.ElemValueType());
      ir::Value* from = Convert(Expr(arg(P::ThreadIdx)), ir::Type::Scalar(ScalarType::Int32));
      ir::Value* one = b_.TileFull(ZeroValue(rt.ElemValueType()), {1});
      one = b_.TileScatterLanes(one, v, b_.Cmp(ir::CmpPred::Eq, b_.LaneId(), from), {I32(*this, 0)}, false);
      return b_.TileFull(b_.TileExtract(one, {I32(*this, 0)}), rt.Shape(), rt.storage);
    }
    case LK::TileScatterLanes: {
      // Warp updates `a` in place; the variable it names is rebound to the updated tile.
      ir::Value* a = Expr(arg(P::A));
      std::vector<ir::Value*> idx;
      for (P p : {P::I, P::J, P::K, P::L})
        if (const ast::Expr* x = arg(p)) idx.push_back(Convert(Expr(x), ir::Type::Scalar(ScalarType::Int32)));
      ir::Value* v = Convert(Expr(arg(P::Value)), a->type().ElemValueType());
      ir::Value* has = ToBool(Expr(arg(P::HasValue)));
      if (lw.accumulate && IsPlainStructTile(*this, a)) {
        // Field by field, lane after lane; a lane without a value adds the struct's zero.
        ir::Value* zero = I32(*this, 0);
        for (ir::Value*& i : idx) i = b_.Select(has, i, zero);
        WriteTile(arg(P::A), LaneSerialUpdate(OpCode::Add, a, b_.Select(has, v, b_.ZeroOf(v->type())), idx));
        return nullptr;
      }
      WriteTile(arg(P::A), b_.TileScatterLanes(a, v, has, idx, lw.accumulate));
      return nullptr;
    }
    case LK::TileRandom: return TileRandom(*this, Expr(arg(P::Rng)), const_arg(P::Min), const_arg(P::Max), rt);
    case LK::TileStack: {
      ir::Value* s = b_.TileFull(ZeroValue(rt.ElemValueType()), rt.Shape(), rt.storage);
      stack_counts_[s] = {I32(*this, 0), b_.insertion_block()};
      return s;
    }
    case LK::TileStackPush: case LK::TileStackPop: case LK::TileStackClear: {
      ir::Value* s = Expr(arg(P::S));
      const ir::Type et = s->type().ElemValueType();  // the slots' type (widened for narrow scalars)
      ir::Value* cap = I32(*this, s->type().shape[0] - 1);
      ir::Value* count = StackCount(s);
      ir::Value* lane = b_.LaneId();
      ir::Value* after = I32(*this, 0);
      ir::Value* result = nullptr;
      if (lw.kind == LK::TileStackPush) {
        // A lane's slot is the count plus the offers of the lanes before it: the exclusive
        // prefix sum of each lane's 0/1 offer. Slots past the capacity are dropped.
        ir::Value* v = Convert(Expr(arg(P::Value)), et);
        ir::Value* has = ToBool(Expr(arg(P::HasValue)));
        const int64_t lanes = cm_.TypeOf(arg(P::S))->lanes;
        ir::Type offers_t = ir::Type::Tile(ir::ElemType::Of(ScalarType::Int32), {lanes}, ir::Storage::Register);
        ir::Value* offers = TileOfLanes(*this, b_.Select(has, I32(*this, 1), I32(*this, 0)), offers_t);
        ir::Value* earlier = b_.TileExtract(b_.TileScan(ir::ReduceKind::Add, offers, false), {lane});
        ir::Value* offered = b_.TileExtract(b_.TileReduce(ir::ReduceKind::Add, offers, -1), {I32(*this, 0)});
        ir::Value* slot = b_.Binary(OpCode::Add, count, earlier);
        ir::Value* kept = b_.Logic(OpCode::And, has, b_.Cmp(ir::CmpPred::Lt, slot, cap));
        s = b_.TileScatterLanes(s, v, kept, {slot}, false);
        after = b_.Binary(OpCode::Min, b_.Binary(OpCode::Add, count, offered), cap);
        result = b_.Select(kept, slot, I32(*this, -1));
      } else if (lw.kind == LK::TileStackPop) {
        // Lane l takes the element l below the top; the lanes past the bottom get (0, -1).
        ir::Value* slot = b_.Binary(OpCode::Sub, b_.Binary(OpCode::Sub, count, I32(*this, 1)), lane);
        ir::Value* taken = b_.Cmp(ir::CmpPred::Ge, slot, I32(*this, 0));
        ir::Value* v = b_.TileExtract(s, {b_.Binary(OpCode::Max, slot, I32(*this, 0))});
        const int64_t lanes = cm_.TypeOf(arg(P::S))->lanes;
        after = b_.Binary(OpCode::Max, b_.Binary(OpCode::Sub, count, I32(*this, lanes)), I32(*this, 0));
        ir::Value* popped = b_.Select(taken, v, ZeroValue(et));
        const sema::ElemType want = cm_.TypeOf(arg(P::S))->elem;
        if (!want.is_struct() && want.scalar != et.elem.scalar) popped = Convert(popped, ir::Type::Scalar(want.scalar));
        last_tuple_ = {popped, b_.Select(taken, slot, I32(*this, -1))};
      }
      s = WithStackCount(s, after);
      stack_counts_[s] = {after, b_.insertion_block()};
      WriteTile(arg(P::S), s);
      return result;
    }
    case LK::TileStackCount: return StackCount(Expr(arg(P::S)));
    case LK::AtomicAdd: {
      ir::Value* a = ArrayOf(ci.args[0]);
      if (!a) return ZeroValue(rt);
      std::vector<ir::Value*> idx;
      for (int d = 0; d < a->type().ndim; ++d) idx.push_back(Expr(ci.args[1 + d]));
      ir::Value* v = Convert(Expr(ci.args[1 + a->type().ndim]), a->type().ElemValueType());
      return b_.AtomicAdd(a, idx, v);
    }
    case LK::AtomicRmw: {
      ir::Value* a = ArrayOf(ci.args[0]);
      if (!a) return ZeroValue(rt);
      int nd = a->type().ndim;
      std::vector<ir::Value*> idx;
      for (int d = 0; d < nd; ++d) idx.push_back(Expr(ci.args[1 + d]));
      ir::Type et = a->type().ElemValueType();
      bool cas = lw.rmw == ir::AtomicKind::Cas;
      ir::Value* cmp = cas ? Convert(Expr(ci.args[1 + nd]), et) : nullptr;
      ir::Value* v = Convert(Expr(ci.args[1 + nd + (cas ? 1 : 0)]), et);
      return b_.AtomicRmw(lw.rmw, a, idx, cmp, v);
    }
    case LK::Math: {
      std::vector<ir::Value*> args;
      for (const ast::Expr* x : ci.args)
        if (x) args.push_back(Convert(Expr(x), rt));
      return ApplyMath(b_, lw.op, args);
    }
    case LK::MathForm: {
      // The arguments' common type: the result's, except for the bool predicates.
      ir::Type at = rt.is_bool() || lw.form == sema::MathForm::BitCount ? IrType(cm_.TypeOf(ci.args[0])) : rt;
      std::vector<ir::Value*> args;
      for (const ast::Expr* x : ci.args)
        if (x) args.push_back(Convert(Expr(x), at));
      return ApplyMathForm(b_, lw.form, args);
    }
    case LK::ExpectEq: {
      // Warp's wording, expected before actual (`b` is the expected value).
      // expect_neq reports when the values are equal, in the same words.
      const bool neq = std::string_view(ci.builtin->name) == "expect_neq";
      const std::string failed = neq ? "Error, expect_neq() failed:\n\t Expected: " : "Error, expect_eq() failed:\n\t Expected: ";
      ir::Value* actual = Expr(arg(P::A));
      ir::Value* expected = Convert(Expr(arg(P::B)), actual->type());
      if (actual->type().is_struct() && CompositeOfValue(actual).valid()) {
        // Vectors and matrices differ where any component does.
        std::vector<ir::Value*> x = Components(actual), y = Components(expected);
        ir::Value* differ = nullptr;
        for (size_t k = 0; k < x.size(); ++k) {
          ir::Value* ne = b_.Cmp(ir::CmpPred::Ne, x[k], y[k]);
          differ = differ ? b_.Logic(ir::OpCode::Or, differ, ne) : ne;
        }
        LowerIf(neq ? b_.Unary(ir::OpCode::Not, differ) : differ, [&] {
          std::vector<std::string> strs{failed};
          std::vector<ir::Value*> vals;
          PrintComposite(expected, strs, vals);
          strs.back() += "\n\t Actual: ";
          PrintComposite(actual, strs, vals);
          strs.back() += "\n";
          b_.Print(strs, vals);
        }, [] {});
        return nullptr;
      }
      LowerIf(b_.Cmp(neq ? ir::CmpPred::Eq : ir::CmpPred::Ne, actual, expected),
              [&] { b_.Print({failed, "\n\t Actual: ", "\n"}, {expected, actual}); }, [] {});
      return nullptr;
    }
    case LK::ExpectNear: {
      // Warp's wording: the tolerance, expected (`b`), actual (`a`) and their difference, the
      // largest over the components of a vector, quaternion or matrix.
      ir::Value* actual = Expr(arg(P::A));
      ir::Value* expected = Convert(Expr(arg(P::B)), actual->type());
      const bool composite = actual->type().is_struct();
      std::vector<ir::Value*> x = composite ? Components(actual) : std::vector<ir::Value*>{actual};
      std::vector<ir::Value*> y = composite ? Components(expected) : std::vector<ir::Value*>{expected};
      const ScalarType s = x[0]->type().elem.scalar;
      ir::Value* tol = arg(P::Tolerance) ? Convert(Expr(arg(P::Tolerance)), x[0]->type()) : b_.ConstFloat(s, 1e-6);
      ir::Value* diff = nullptr;
      for (size_t k = 0; k < x.size(); ++k) {
        ir::Value* d = b_.Unary(ir::OpCode::Abs, b_.Binary(ir::OpCode::Sub, x[k], y[k]));
        diff = diff ? b_.Binary(ir::OpCode::Max, diff, d) : d;
      }
      LowerIf(b_.Cmp(ir::CmpPred::Gt, diff, tol), [&] {
        std::vector<std::string> strs{"Error, expect_near() failed with tolerance "};
        std::vector<ir::Value*> vals{tol};
        strs.push_back("\n    Expected: ");
        if (composite) PrintComposite(expected, strs, vals);
        else vals.push_back(expected), strs.push_back("");
        strs.back() += "\n    Actual: ";
        if (composite) PrintComposite(actual, strs, vals);
        else vals.push_back(actual), strs.push_back("");
        strs.back() += composite ? "\n    Max absolute difference: " : "\n    Absolute difference: ";
        vals.push_back(diff);
        strs.push_back("\n");
        b_.Print(strs, vals);
      }, [] {});
      return nullptr;
    }
    case LK::Print: {
      // Python's print: arguments separated by spaces, then a newline.
      std::vector<std::string> strs{""};
      std::vector<ir::Value*> vals;
      for (size_t k = 0; k < ci.args.size(); ++k) {
        if (k) strs.back() += " ";
        const ast::Expr* x = ci.args[k];
        if (!x) continue;
        const sema::ExprInfo* xi = cm_.Info(x);
        if (xi && xi->value && xi->value->kind == sema::ConstValue::Kind::String) {
          strs.back() += xi->value->s;
          continue;
        }
        ir::Value* v = Expr(x);
        if (v->type().is_struct() && CompositeOfValue(v).valid()) {
          PrintComposite(v, strs, vals);
          continue;
        }
        vals.push_back(v);
        strs.push_back("");
        // A tile prints as Warp's does: its elements, then its shape and storage.
        if (const ir::Type& t = v->type(); t.is_tile()) {
          std::string dims;
          for (int d = 0; d < t.ndim; ++d) dims += (d ? "," : "") + std::to_string(t.shape[d]);
          strs.back() = " = tile(shape=(" + dims + "), storage=" +
                        (t.storage == ir::Storage::Shared ? "shared" : "register") + ")";
        }
      }
      strs.back() += "\n";
      b_.Print(strs, vals);
      return nullptr;
    }
  }
  Unsupported(e->range, "`" + ci.builtin->Spelling() + "`");
  return rt.is_none() ? nullptr : ZeroValue(rt);
}

// tile_reduce with a @wp.func combiner, in the order of the builtin combiners (the first
// element, then each next one): a loop whose carried tile is the running value, combined with
// the next slice along the axis by a tile_map of the function. Built from differentiable ops,
// so the gradient comes with it.
ir::Value* Lowerer::ReduceWithFunc(int func, ir::Value* t, int axis) {
  const ir::Type tt = t->type();
  if (axis < 0 || tt.ndim == 1) {
    // Every element: the row-major sequence as a 1-D tile, sliced one element at a time.
    if (tt.ndim > 1) t = b_.TileReshape(t, {tt.NumElements()});
    axis = 0;
  }
  const ir::Type& st = t->type();
  const int64_t n = st.shape[size_t(axis)];
  std::vector<int64_t> steps(size_t(st.ndim), 1), shape;
  for (int d = 0; d < st.ndim; ++d)
    if (d != axis || st.ndim == 1) shape.push_back(d == axis ? 1 : st.shape[size_t(d)]);
  if (st.ndim > 1) steps[size_t(axis)] = 0;
  auto slice = [&](ir::Value* tile, ir::Value* k) {
    std::vector<ir::Value*> offs(size_t(st.ndim), b_.ConstInt(ScalarType::Int32, 0));
    offs[size_t(axis)] = k;
    return b_.TileView(tile, offs, steps, shape);
  };
  ir::Value* first = slice(t, b_.ConstInt(ScalarType::Int32, 0));
  ir::Op* loop = b_.For(b_.ConstInt(ScalarType::Int32, 1), b_.ConstInt(ScalarType::Int32, n),
                        b_.ConstInt(ScalarType::Int32, 1), {first});
  {
    ir::Builder::InsertionGuard g(b_);
    ir::Block* body = loop->region(0);
    b_.SetInsertionPoint(body);
    ir::Op* map = b_.TileMap({body->arg(1), slice(t, body->arg(0))}, st.elem);
    {
      ir::Builder::InsertionGuard g2(b_);
      b_.SetInsertionPoint(map->region(0));
      ir::Value* r = InlineFunc(func, {map->region(0)->arg(0), map->region(0)->arg(1)});
      b_.Yield({Convert(r, st.ElemValueType())});
    }
    b_.Yield({map->result()});
  }
  return loop->result(0);
}

ir::Value* Lowerer::LowerTileMap(const sema::CallInfo& ci, const ir::Type& rt) {
  const ast::Expr* f = ci.args[0];
  // Tiles are the map's operands; a scalar argument is read by every element's call as it is.
  std::vector<ir::Value*> values, tiles;
  for (size_t k = 1; k < ci.args.size(); ++k) {
    values.push_back(Expr(ci.args[k]));
    if (values.back()->type().is_tile()) tiles.push_back(values.back());
  }
  const sema::Type* ft = cm_.TypeOf(f);
  ir::Op* op = b_.TileMap(tiles, rt.elem);
  ir::Builder::InsertionGuard g(b_);
  ir::Block* body = op->region(0);
  b_.SetInsertionPoint(body);
  std::vector<ir::Value*> elems;
  int next = 0;
  for (ir::Value* v : values) elems.push_back(v->type().is_tile() ? body->arg(next++) : v);
  ir::Value* r = nullptr;
  // Vector builtins and prelude overloads: the checker kept the per-element call on the callee.
  const sema::CallInfo* fci = cm_.Call(f);
  if (fci && fci->kind == sema::CallInfo::Kind::Composite) {
    // The checker may have put the operands in the op's order (wp.mul(s, v) scales v by s).
    std::vector<ir::Value*> ordered = elems;
    if (fci->args.size() == elems.size())
      for (size_t i = 0; i < fci->args.size(); ++i)
        for (size_t k = 0; k < elems.size(); ++k)
          if (ci.args[k + 1] == fci->args[i]) ordered[i] = elems[k];
    r = CompositeOfValues(fci->composite, ordered, rt.ElemValueType());
  } else if (fci && fci->kind == sema::CallInfo::Kind::UserFunc) {
    r = InlineFunc(fci->func_index, elems);
  } else if (ft && ft->kind == sema::TypeKind::Function && ft->callee.kind == sema::CalleeKind::UserFunc) {
    r = InlineFunc(ft->callee.index, elems);
  } else if (ft && ft->kind == sema::TypeKind::Function && ft->callee.kind == sema::CalleeKind::Lambda) {
    // A lambda's body is an expression of the kernel's scope with its parameters bound to
    // one element of each argument (captured locals are read as they are).
    const sema::CheckedModule::LambdaInfo& l = cm_.lambdas[size_t(ft->callee.index)];
    for (size_t k = 0; k < l.params.size() && k < elems.size(); ++k) WriteVar(l.params[k], elems[k]);
    r = Expr(l.def->body.get());
  } else if (ft && ft->kind == sema::TypeKind::Function && ft->callee.kind == sema::CalleeKind::Builtin) {
    // The mapped builtin's own row says which scalar op it is.
    const sema::Builtin& bi = sema::BuiltinTable()[ft->callee.index];
    if (bi.lower.kind == sema::LowerKind::Where && elems.size() == 3) {
      r = b_.Select(ToBool(elems[0]), Convert(elems[1], rt.ElemValueType()), Convert(elems[2], rt.ElemValueType()));
    } else if (bi.lower.kind == sema::LowerKind::Math) {
      for (ir::Value*& x : elems) x = Convert(x, rt.ElemValueType());
      r = ApplyMath(b_, bi.lower.op, elems);
    } else if (bi.lower.kind == sema::LowerKind::MathForm) {
      // The element type of the tiles (a bool map of isnan etc. still computes in it).
      ir::Type in = tiles.empty() ? rt.ElemValueType() : tiles[0]->type().ElemValueType();
      for (ir::Value*& x : elems) x = Convert(x, in);
      r = ApplyMathForm(b_, bi.lower.form, elems);
    }
  }
  if (!r) {
    Unsupported(f->range, "this `tile_map` function");
    r = ZeroValue(rt.ElemValueType());
  }
  b_.Yield({Convert(r, rt.ElemValueType())});
  return op->result();
}

// Warp's print of a vector, matrix, quaternion or transform: each component as a float with
// %g, vectors and matrix rows followed by a space per component, a newline after each matrix
// row but the last (the statement's own newline ends it), a quaternion without the trailing
// space, a transform as "(p) (q)".
void Lowerer::PrintComposite(ir::Value* v, std::vector<std::string>& strs, std::vector<ir::Value*>& vals) {
  const Composite k = CompositeOfValue(v);
  std::vector<ir::Value*> comps = Components(v);
  auto put = [&](int i, const char* after) {
    vals.push_back(Convert(comps[size_t(i)], ir::Type::Scalar(ScalarType::Float32)));
    strs.push_back(after);
  };
  switch (k.kind) {
    case CompositeKind::Quaternion:
      for (int i = 0; i < 4; ++i) put(i, i < 3 ? " " : "");
      return;
    case CompositeKind::Transform:
      strs.back() += "(";
      for (int i = 0; i < 7; ++i) put(i, i == 2 ? ") (" : i == 6 ? ")" : " ");
      return;
    case CompositeKind::Matrix: case CompositeKind::SpatialMatrix:
      for (int r = 0; r < k.rows; ++r)
        for (int c = 0; c < k.cols; ++c) put(r * k.cols + c, c + 1 < k.cols || r + 1 == k.rows ? " " : " \n");
      return;
    case CompositeKind::Vector: case CompositeKind::SpatialVector:
      for (int i = 0; i < k.length(); ++i) put(i, " ");
      return;
    case CompositeKind::None:
      return;
  }
}

}  // namespace tilec::lower
