// The rules of the builtins that take a function: tile_map's mapped builtin or @wp.func
// (with its tiles and scalars), and tile_reduce's combiner.
#include "frontend/sema/builtin_rules.h"
#include "frontend/sema/checker.h"

namespace tilec::sema {

using diag::Code;

std::string DimsText(const std::vector<int64_t>& d);

namespace {

// ---------------------------------------------------------------- combiners

bool ReduceCombiner(CallContext& c) {
  const Type* ft = c.TypeOf(Param::Op);
  const Type* t = c.TypeOf(Param::A);
  const char* supported = "; the builtin combiners are `wp.add`, `wp.mul`, `wp.min`, `wp.max`, `wp.bit_and`, "
                          "`wp.bit_or` and `wp.bit_xor` (or pass a `@wp.func` of two elements)";
  if (ft->callee.kind == CalleeKind::UserFunc) {
    // A @wp.func combines two elements of the tile's type into one of that type (a generic
    // one, its instance for two elements).
    const Type* et = c.types.FromElem(t->elem);
    int index = c.checker.FuncInstance(ft->callee.index, {et, et}, c.Range(Param::Op));
    if (index < 0) return false;
    c.EnsureFuncChecked(index);
    const FunctionInfo& f = c.out().funcs[size_t(index)];
    if (index != ft->callee.index) {
      CallInfo fci;
      fci.kind = CallInfo::Kind::UserFunc;
      fci.func_index = index;
      c.out().call_info[c.Arg(Param::Op).expr] = std::move(fci);
    }
    bool ok = et && f.num_params == 2 && f.Param(0)->type == et && f.Param(1)->type == et && f.return_type == et;
    if (!ok) {
      c.Error(Code::BadReduceCombiner, c.Range(Param::Op),
              "`" + f.name + "` cannot combine the elements of tile " + c.Quoted(Param::A) +
                  ": a `wp.tile_reduce` combiner takes two `" + (et ? TypeName(et) : std::string("?")) +
                  "` and must return the tile element type");
      return false;
    }
    if (c.fn()) c.fn()->called_funcs.push_back(index);
    return true;
  }
  if (ft->callee.kind == CalleeKind::Overloads) {
    // Overloaded funcs: the definition that takes two elements and returns one.
    const Type* et = c.types.FromElem(t->elem);
    for (int index : c.out().overloads[size_t(ft->callee.index)]) {
      c.EnsureFuncChecked(index);
      const FunctionInfo& f = c.out().funcs[size_t(index)];
      if (f.num_params != 2 || f.Param(0)->type != et || f.Param(1)->type != et || f.return_type != et) continue;
      CallInfo fci;
      fci.kind = CallInfo::Kind::UserFunc;
      fci.func_index = index;
      c.out().call_info[c.Arg(Param::Op).expr] = std::move(fci);
      if (c.fn()) c.fn()->called_funcs.push_back(index);
      return true;
    }
    c.Error(Code::BadReduceCombiner, c.Range(Param::Op),
            "no definition of " + c.Quoted(Param::Op) + " combines two `" + TypeName(et) + "` into one");
    return false;
  }
  const Builtin& b = BuiltinTable()[ft->callee.index];
  ir::ReduceKind kind;
  if (!ReduceKindOf(b, kind)) {
    c.Error(Code::BadReduceCombiner, c.Range(Param::Op), "`" + b.Spelling() + "` is not a reduction combiner" + supported);
    return false;
  }
  // The combiner must take two elements of the tile's type (bit_and does not take floats).
  const Type* et = c.types.FromElem(t->elem);
  if (c.checker.CompositeOf(et)) {
    // Vectors and matrices combine component by component: Warp's add, min and max of two.
    if (kind == ir::ReduceKind::Add || kind == ir::ReduceKind::Min || kind == ir::ReduceKind::Max) return true;
    c.Error(Code::BadReduceCombiner, c.Range(Param::Op),
            "`" + b.Spelling() + "` cannot combine elements of `" + TypeName(et) + "` (the element type of tile " +
                c.Quoted(Param::A) + "); vectors and matrices reduce with `wp.add`, `wp.min` or `wp.max`");
    return false;
  }
  bool fits = false;
  for (const Overload& o : b.overloads)
    fits |= o.params.size() == 2 && PatternMatches(o.params[0].pattern, et) && PatternMatches(o.params[1].pattern, et);
  if (fits) return true;
  c.Error(Code::BadReduceCombiner, c.Range(Param::Op),
          "`" + b.Spelling() + "` cannot combine elements of `" + TypeName(et) + "` (the element type of tile " +
              c.Quoted(Param::A) + ")");
  return false;
}

// ---------------------------------------------------------------- maps

// tile_map(f, a, *args): `a` is a tile; every other argument a tile of its shape or a scalar
// or struct that each element's call receives as it is.
bool TileMapArgs(CallContext& c) {
  std::vector<CallArg*> tiles{&c.Arg(Param::A)};
  for (CallArg* e : c.Extra()) tiles.push_back(e);
  bool ok = true;
  for (CallArg* t : tiles) {
    const Type* tt = t->info.type;
    if (!tt->IsTile()) {
      if (t == tiles[0] || !(tt->IsScalar() || tt->kind == TypeKind::Struct)) {
        c.Error(Code::BadTileMap, t->range,
                t == tiles[0] ? "`wp.tile_map` maps over a tile first, found `" + TypeName(tt) + "`"
                              : "`wp.tile_map` takes tiles, scalars or structs, found `" + TypeName(tt) + "`");
        ok = false;
      }
    } else if (t->info.type->shape != tiles[0]->info.type->shape) {
      c.Error(Code::TileShapeMismatch, t->range,
              "shape mismatch in `wp.tile_map`: `" + DimsText(tiles[0]->info.type->shape) + "` and `" +
                  DimsText(t->info.type->shape) + "`");
      ok = false;
    }
  }
  if (!ok) return false;
  std::vector<const Type*> elems;
  for (CallArg* t : tiles) elems.push_back(t->info.type->IsTile() ? c.types.FromElem(t->info.type->elem) : t->info.type);
  CallArg& fa = c.Arg(Param::Op);
  const Type* ft = fa.info.type;
  // A scalar argument converts as a call's would (a literal takes the parameter's type).
  auto fit = [&](size_t k, const Type* want) {
    if (elems[k] == want) return true;
    if (tiles[k]->info.type->IsTile() || !c.checker.Convert(tiles[k]->expr, tiles[k]->info, want)) return false;
    elems[k] = want;
    return true;
  };
  if (ft->callee.kind == CalleeKind::UserFunc) {
    // A generic func maps through its instance for the elements' types.
    int index = ft->callee.index;
    if (c.out().funcs[size_t(index)].is_generic()) {
      if (c.out().funcs[size_t(index)].num_params != int(elems.size())) {
        c.Error(Code::BadTileMap, fa.range,
                "`" + c.out().funcs[size_t(index)].name + "` takes " +
                    std::to_string(c.out().funcs[size_t(index)].num_params) + " parameters, mapped over " +
                    std::to_string(elems.size()));
        return false;
      }
      index = c.checker.FuncInstance(index, elems, fa.range);
      if (index < 0) return false;
      CallInfo fci;
      fci.kind = CallInfo::Kind::UserFunc;
      fci.func_index = index;
      c.out().call_info[fa.expr] = std::move(fci);
    }
    c.EnsureFuncChecked(index);
    const FunctionInfo& f = c.out().funcs[size_t(index)];
    bool match = f.num_params == int(elems.size());
    for (int k = 0; match && k < f.num_params; ++k) match = fit(size_t(k), f.Param(k)->type);
    if (!match || !f.return_type || !(f.return_type->IsScalar() || f.return_type->kind == TypeKind::Struct)) {
      std::string want = "(";
      for (size_t k = 0; k < elems.size(); ++k) want += (k ? ", " : "") + TypeName(elems[k]);
      c.Error(Code::BadTileMap, fa.range,
              "`" + f.name + "` cannot be mapped over tiles of " + want +
                  "): it must take one parameter of each tile's element type and return a scalar or struct");
      return false;
    }
    c.map_elem = f.return_type;
    if (c.fn()) c.fn()->called_funcs.push_back(index);
    return true;
  }
  // Warp's vector builtins (wp.length, wp.normalize, wp.add on vectors, ...) and the prelude's
  // overloads (wp.quat_rotate, ...): typed per element as a call of them would be; the callee
  // node keeps the resolved call (a Composite or UserFunc CallInfo) for lowering.
  bool composite_elems = false;
  for (const Type* e : elems) composite_elems |= c.checker.CompositeOf(e) != nullptr;
  int composite_op = ft->callee.kind == CalleeKind::Composite ? ft->callee.index : -1;
  if (ft->callee.kind == CalleeKind::Builtin && composite_elems)
    composite_op = CompositeFnIndex(BuiltinTable()[ft->callee.index].name);
  auto signature = [&] {
    std::string want;
    for (size_t k = 0; k < elems.size(); ++k) want += (k ? ", " : "") + TypeName(elems[k]);
    return want;
  };
  auto element_result = [&](const Type* r) {
    if (r && (r->IsScalar() || r->kind == TypeKind::Struct)) {
      c.map_elem = r;
      return true;
    }
    if (r && !r->IsError())
      c.Error(Code::BadTileMap, fa.range,
              "`" + c.checker.Text(fa.expr) + "` cannot be mapped: over tiles of (" + signature() +
                  ") it returns `" + TypeName(r) + "`, not a scalar or struct");
    return false;
  };
  if (ft->callee.kind == CalleeKind::Lambda) {
    const size_t n = c.out().lambdas[size_t(ft->callee.index)].def->params.size();
    if (n != elems.size()) {
      c.Error(Code::BadTileMap, fa.range,
              "this lambda takes " + std::to_string(n) + " parameter" + (n == 1 ? "" : "s") + ", but `wp.tile_map` passes " +
                  std::to_string(elems.size()) + " (one element of each of (" + signature() + "))");
      return false;
    }
    return element_result(c.checker.CheckLambdaBody(ft->callee.index, elems).type);
  }
  if (composite_op >= 0) {
    std::vector<CallArg> per_elem;
    for (size_t k = 0; k < elems.size(); ++k) {
      CallArg a;
      a.expr = tiles[k]->expr;
      a.info = tiles[k]->info;
      a.info.type = elems[k];
      a.info.value.reset();
      a.range = tiles[k]->range;
      per_elem.push_back(std::move(a));
    }
    const auto* attr = fa.expr->As<ast::Attribute>();
    std::string name = attr ? attr->attr : c.checker.Text(fa.expr);
    if (!composite_elems) {
      c.Error(Code::BadTileMap, fa.range,
              "`wp." + name + "` cannot be mapped over tiles of (" + signature() + "); it takes vectors or matrices");
      return false;
    }
    ExprInfo r = c.checker.CompositeCall(CompositeOp(composite_op), fa.expr, name, per_elem);
    return element_result(r.type);
  }
  if (ft->callee.kind == CalleeKind::Overloads) {
    const std::vector<int>& cands = c.out().overloads[size_t(ft->callee.index)];
    for (int index : cands) {
      const FunctionInfo& f = c.out().funcs[size_t(index)];
      if (f.num_params != int(elems.size())) continue;
      bool match = true;
      for (int k = 0; match && k < f.num_params; ++k) match = elems[size_t(k)] == f.Param(k)->type;
      if (!match) continue;
      c.EnsureFuncChecked(index);
      if (!element_result(c.out().funcs[size_t(index)].return_type)) return false;
      CallInfo fci;
      fci.kind = CallInfo::Kind::UserFunc;
      fci.func_index = index;
      for (CallArg* t : tiles) fci.args.push_back(t->expr);
      c.out().call_info[fa.expr] = std::move(fci);
      if (c.fn()) c.fn()->called_funcs.push_back(index);
      return true;
    }
    c.Error(Code::BadTileMap, fa.range,
            "`" + c.checker.Text(fa.expr) + "` has no overload taking one element of each tile: (" + signature() + ")");
    return false;
  }
  if (ft->callee.kind != CalleeKind::Builtin) {
    c.Error(Code::BadTileMap, fa.range, "`" + c.checker.Text(fa.expr) + "` cannot be mapped over tiles");
    return false;
  }
  // A builtin maps when its row lowers to a scalar math op taking one value per tile.
  const Builtin& mb = BuiltinTable()[ft->callee.index];
  if (mb.lower.kind == LowerKind::Where && elems.size() == 3) {
    // wp.where per element: a bool or integer condition, two values of one type.
    const bool cond_ok = elems[0]->IsScalar() && !elems[0]->IsFloatScalar();
    const Type* v = tiles[1]->info.type->IsTile() ? elems[1] : elems[2];
    if (cond_ok && (v->IsScalar() || v->kind == TypeKind::Struct) && fit(1, v) && fit(2, v)) {
      c.map_elem = v;
      return true;
    }
    c.Error(Code::BadTileMap, fa.range,
            "`wp.where` cannot be mapped over (" + signature() +
                "): it takes a bool or integer condition and two values of one type");
    return false;
  }
  const Overload* mo = nullptr;
  if (mb.lower.kind == LowerKind::Math || mb.lower.kind == LowerKind::MathForm) {
    for (const Overload& o : mb.overloads) {
      if (o.params.size() != elems.size()) continue;
      bool fits = true;
      for (size_t k = 0; k < elems.size(); ++k)
        fits &= PatternMatches(o.params[k].pattern, elems[0]) && fit(k, elems[0]);
      if (fits) mo = &o;
    }
  }
  if (!mo) {
    c.Error(Code::BadTileMap, fa.range,
            "`" + mb.Spelling() + "` cannot be mapped over " + std::to_string(elems.size()) + " tile" +
                (elems.size() == 1 ? "" : "s") + " of `" + TypeName(elems[0]) + "`");
    return false;
  }
  // isnan, isinf and isfinite map to bool tiles; every other math row keeps the element type.
  c.map_elem = mo->result == &results::Bool ? c.types.Bool() : elems[0];
  return true;
}

// ---------------------------------------------------------------- vector and matrix tiles

// The first tile's element type for the operators and sums that Warp defines on vectors and
// matrices too: a numeric scalar, or a vector-like struct of numeric components.
bool ArithElemTile(CallContext& c, bool ordered) {
  for (CallArg& a : c.args) {
    const Type* t = a.info.type;
    if (!t->IsTile()) continue;
    ScalarType s = t->elem.scalar;
    if (t->elem.is_struct()) {
      const Composite* k = c.checker.CompositeOf(c.types.FromElem(t->elem));
      if (!k) {
        c.Error(Code::StructTileUnsupported, a.range,
                c.bname + " is not defined for tiles of Warp struct `" + t->elem_struct_name + "`");
        return false;
      }
      s = k->scalar;
    }
    if (s == ScalarType::Bool) {
      c.Error(Code::TileOperatorUnsupported, a.range,
              c.bname + (ordered ? " needs a tile of a numeric element type, but `" + c.checker.Text(a.expr) + "` holds `"
                                 : " is not defined for `") +
                  TypeName(c.types.FromElem(t->elem)) + (ordered ? "`" : "` tiles"));
      return false;
    }
    return true;
  }
  return true;
}
bool ArithElemTile(CallContext& c) { return ArithElemTile(c, false); }
// `+`, `-`, unary `-` and the whole-tile sum also take tiles of any other @wp.struct: they work
// field by field, as Warp's generated struct operators do.
bool FieldwiseElemTile(CallContext& c) {
  for (CallArg& a : c.args) {
    const Type* t = a.info.type;
    if (!t->IsTile()) continue;
    if (t->elem.is_struct() && !c.checker.CompositeOf(c.types.FromElem(t->elem))) return true;
    return ArithElemTile(c, false);
  }
  return true;
}
bool ReduceElemTile(CallContext& c) {
  // A @wp.func combiner takes whatever its parameters do (structs too); ReduceCombiner checks.
  if (c.overload.Index(Param::Op) >= 0 && c.Has(Param::Op) &&
      (c.TypeOf(Param::Op)->callee.kind == CalleeKind::UserFunc ||
       (c.TypeOf(Param::Op)->callee.kind == CalleeKind::Overloads && !c.out().funcs[size_t(c.out().overloads[size_t(c.TypeOf(Param::Op)->callee.index)][0])].is_prelude())))
    return true;
  // A builtin combiner (wp.min, wp.add, ...) has no overload for a struct other than a vector
  // or matrix.
  const Type* a = c.Has(Param::A) ? c.TypeOf(Param::A) : nullptr;
  if (c.overload.Index(Param::Op) >= 0 && c.Has(Param::Op) && a && a->IsTile() && a->elem.is_struct() &&
      !c.checker.CompositeOf(c.types.FromElem(a->elem))) {
    c.Error(Code::StructTileUnsupported, c.Range(Param::A),
            c.bname + ": " + c.Quoted(Param::Op) + " has no overload that combines two elements of Warp struct `" +
                a->elem_struct_name + "`; pass a `@wp.func` of two of them");
    return false;
  }
  return ArithElemTile(c, true);
}

}  // namespace

namespace rules {
using P = Param;
const RuleSpec TileMapArgs{"TileMapArgs", {Code::BadTileMap, Code::TileShapeMismatch}, {P::Op, P::A},
                           &sema::TileMapArgs};
const RuleSpec ArithElemTile{"ArithElemTile", {Code::StructTileUnsupported, Code::TileOperatorUnsupported}, {},
                             &sema::ArithElemTile};
const RuleSpec FieldwiseElemTile{"FieldwiseElemTile", {Code::StructTileUnsupported, Code::TileOperatorUnsupported}, {},
                                 &sema::FieldwiseElemTile};
const RuleSpec ReduceElemTile{"ReduceElemTile", {Code::StructTileUnsupported, Code::TileOperatorUnsupported},
                              {P::A}, &sema::ReduceElemTile};
const RuleSpec ReduceCombiner{"ReduceCombiner", {Code::BadReduceCombiner}, {P::Op, P::A}, &sema::ReduceCombiner};
}  // namespace rules

}  // namespace tilec::sema
