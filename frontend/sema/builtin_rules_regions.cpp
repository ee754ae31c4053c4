// The rules of the builtins that read or write part of a tile, reorder it, or multiply
// tiles: tile_view, tile_assign, tile_sort and tile_matmul; and of the bridges between lanes
// and tiles (wp.tile, untile, tile_from_thread, the scatters) and tile_randi/tile_randf (the
// rest are builtin_rules.cpp).
#include <cmath>
#include <cstdint>
#include <optional>

#include "frontend/sema/builtin_rules.h"
#include "frontend/sema/checker.h"

namespace tilec::sema {

using diag::Code;

std::string DimsText(const std::vector<int64_t>& d);
std::string Dimensions(int n);

namespace {

// The entries of a tuple argument (offsets), with their checked infos.
std::vector<std::pair<const ast::Expr*, const ExprInfo*>> TupleEntries(CallContext& c, Param p) {
  std::vector<std::pair<const ast::Expr*, const ExprInfo*>> out;
  const ast::Expr* e = c.Arg(p).expr;
  if (const auto* tup = e->As<ast::Tuple>()) {
    for (const ast::ExprPtr& x : tup->elts) out.push_back({x.get(), c.out().Info(x.get())});
  } else {
    out.push_back({e, c.out().Info(e)});
  }
  return out;
}

// A constant entry of an offset tuple, when it is one.
std::optional<int64_t> ConstEntry(const ExprInfo* info) {
  if (info && info->value && info->value->kind == ConstValue::Kind::Int) return info->value->i;
  return std::nullopt;
}

// tile_view(t, offset, shape=None): without `shape`, the offsets select (and drop) leading
// dimensions and at least one is kept; with it, one offset and one extent per dimension, the
// sub-tile inside `t` where the offsets are constants.
bool ViewArgs(CallContext& c) {
  const Type* t = c.TypeOf(Param::T);
  auto offs = TupleEntries(c, Param::Offset);
  bool with_shape = c.Has(Param::Shape);
  std::vector<int64_t> shape;
  if (with_shape && (!c.ShapeDims(shape) || int(shape.size()) != t->ndim)) {
    c.Error(Code::BadTileRegion, c.Range(Param::Shape),
            c.bname + ": `shape` needs one extent per dimension of " + c.Quoted(Param::T) + " (" + Dimensions(t->ndim) + ")");
    return false;
  }
  if (with_shape ? int(offs.size()) != t->ndim : int(offs.size()) >= t->ndim) {
    c.Error(Code::BadTileRegion, c.Range(Param::Offset),
            c.bname + ": " + c.Quoted(Param::T) + " has " + Dimensions(t->ndim) + ", so `offset` needs " +
                (with_shape ? "one entry per dimension" : "fewer entries than that (the rest are kept)") + ", found " +
                std::to_string(offs.size()));
    return false;
  }
  for (size_t d = 0; d < offs.size(); ++d) {
    int64_t extent = with_shape ? shape[d] : 1;
    if (with_shape && extent <= 0) {
      c.Error(Code::BadTileRegion, c.Range(Param::Shape), c.bname + ": view extents must be positive");
      return false;
    }
    auto o = ConstEntry(offs[d].second);
    if (o && (*o < 0 || *o + extent > t->shape[d])) {
      c.Error(Code::BadTileRegion, offs[d].first->range,
              c.bname + ": offset " + std::to_string(*o) + (with_shape ? " plus extent " + std::to_string(extent) : "") +
                  " is out of bounds for dimension " + std::to_string(d) + " of " + c.Quoted(Param::T) + ", of extent " +
                  std::to_string(t->shape[d]));
      return false;
    }
    if (with_shape && extent > t->shape[d]) {
      c.Error(Code::BadTileRegion, c.Range(Param::Shape),
              c.bname + ": extent " + std::to_string(extent) + " exceeds dimension " + std::to_string(d) + " of " +
                  c.Quoted(Param::T) + " (" + std::to_string(t->shape[d]) + ")");
      return false;
    }
  }
  return true;
}

// tile_assign(dst, src, offset=0...): `src` fits inside `dst` at the offset, and `dst` names a
// tile variable (or a view of one), which the call updates.
bool AssignArgs(CallContext& c) {
  const Type* dst = c.TypeOf(Param::Dst);
  const Type* src = c.TypeOf(Param::Src);
  if (dst->ndim != src->ndim) {
    c.Error(Code::BadTileRegion, c.Range(Param::Src),
            c.bname + " needs tiles of one rank, but " + c.Quoted(Param::Dst) + " has " + Dimensions(dst->ndim) +
                " and " + c.Quoted(Param::Src) + " " + std::to_string(src->ndim));
    return false;
  }
  if (dst->elem.is_struct() != src->elem.is_struct() || (dst->elem.is_struct() && !(dst->elem == src->elem))) {
    c.Error(Code::TileDTypeMismatch, c.Range(Param::Src),
            c.bname + " converts between numeric element types; " + c.Quoted(Param::Src) + " holds `" +
                ElemName(src->elem, "") + "` and " + c.Quoted(Param::Dst) + " `" + ElemName(dst->elem, "") + "`");
    return false;
  }
  std::vector<std::pair<const ast::Expr*, const ExprInfo*>> offs;
  if (c.Has(Param::Offset)) {
    offs = TupleEntries(c, Param::Offset);
    if (int(offs.size()) != dst->ndim) {
      c.Error(Code::BadTileRegion, c.Range(Param::Offset),
              c.bname + ": `offset` needs one entry per dimension of " + c.Quoted(Param::Dst) + " (" +
                  Dimensions(dst->ndim) + "), found " + std::to_string(offs.size()));
      return false;
    }
  }
  for (int d = 0; d < dst->ndim; ++d) {
    int64_t o = offs.empty() ? 0 : ConstEntry(offs[size_t(d)].second).value_or(0);
    if (o < 0 || o + src->shape[size_t(d)] > dst->shape[size_t(d)]) {
      c.Error(Code::BadTileRegion, offs.empty() ? c.Range(Param::Src) : offs[size_t(d)].first->range,
              c.bname + ": " + c.Quoted(Param::Src) + " of shape `" + DimsText(src->shape) + "` at offset " +
                  std::to_string(o) + " does not fit dimension " + std::to_string(d) + " of " + c.Quoted(Param::Dst) +
                  ", of shape `" + DimsText(dst->shape) + "`");
      return false;
    }
  }
  if (!c.checker.InPlaceRoot(c.Arg(Param::Dst).expr)) {
    c.Error(Code::InPlaceTargetNotVariable, c.Range(Param::Dst),
            "`dst` of " + c.bname + " is updated in place, so it must be a tile variable or a view of one; found " +
                c.Quoted(Param::Dst));
    return false;
  }
  return true;
}

// tile_sort(keys, values): numeric keys, values of their shape, both variables updated in place.
bool SortArgs(CallContext& c) {
  const Type* k = c.TypeOf(Param::Keys);
  const Type* v = c.TypeOf(Param::Values);
  if (k->elem.is_struct() || k->elem.scalar == ScalarType::Bool) {
    c.Error(Code::BadTileSort, c.Range(Param::Keys),
            c.bname + " sorts numeric keys, but " + c.Quoted(Param::Keys) + " holds `" + ElemName(k->elem, "") + "`");
    return false;
  }
  if (k->shape != v->shape) {
    c.Error(Code::BadTileSort, c.Range(Param::Values),
            c.bname + " needs `values` of the keys' shape `" + DimsText(k->shape) + "`, found `" + DimsText(v->shape) + "`");
    return false;
  }
  for (Param p : {Param::Keys, Param::Values})
    if (!c.checker.InPlaceRoot(c.Arg(p).expr)) {
      c.Error(Code::InPlaceTargetNotVariable, c.Range(p),
              c.Quoted(p) + " of " + c.bname + " is sorted in place, so it must be a tile variable or a view of one");
      return false;
    }
  return true;
}

// tile_matmul(a, b[, out, alpha, beta]): 2-D tiles of float16, bfloat16, float32 or float64
// with agreeing extents; `out` is updated in place; alpha and beta are numbers. As in Warp,
// the sums (`out`, or the returned tile, which takes `a`'s type) are never bfloat16, and
// bfloat16 factors need enable_backward=False (their adjoints would accumulate in bfloat16).
bool MatmulArgs(CallContext& c) {
  auto is_float_2d = [](const Type* t) {
    return t->ndim == 2 && !t->elem.is_struct() &&
           (t->elem.scalar == ScalarType::Float16 || t->elem.scalar == ScalarType::BFloat16 ||
            t->elem.scalar == ScalarType::Float32 || t->elem.scalar == ScalarType::Float64);
  };
  std::vector<Param> tiles = {Param::A, Param::B};
  if (c.Has(Param::Out)) tiles.push_back(Param::Out);
  for (Param p : tiles)
    if (!is_float_2d(c.TypeOf(p))) {
      // Complex numbers are 2-vectors (vec2h/vec2f/vec2d); the message says so in Warp's words.
      const ElemType e = c.TypeOf(p)->elem;
      const Composite* k = e.is_struct() ? c.checker.CompositeOf(c.types.FromElem(e)) : nullptr;
      const bool complex = k && k->kind == CompositeKind::Vector && k->rows == 2 && IsFloat(k->scalar);
      c.Error(Code::BadTileMatmul, c.Range(p),
              c.bname + (complex ? " does not support complex tiles; it" : "") +
                  " multiplies 2-D tiles of float16, bfloat16, float32 or float64; " + c.Quoted(p) + " is `" +
                  TypeName(c.TypeOf(p)) + "`");
      return false;
    }
  const Type* a = c.TypeOf(Param::A);
  const Type* b = c.TypeOf(Param::B);
  // precision="tf32" (tensor cores round the factors to tf32 on GPUs from sm_80; elsewhere the
  // product is float32's): Warp's literal values, and float32 tiles only.
  if (const ConstValue* pr = c.Const(Param::Precision)) {
    if (pr->kind != ConstValue::Kind::String || (pr->s != "default" && pr->s != "tf32")) {
      c.Error(Code::BadTileMatmul, c.Range(Param::Precision),
              c.bname + ": `precision` must be the string literal 'default' or 'tf32', got `" + FormatConst(*pr) + "`");
      return false;
    }
    if (pr->s == "tf32")
      for (Param p : tiles)
        if (c.TypeOf(p)->elem.scalar != ScalarType::Float32) {
          c.Error(Code::BadTileMatmul, c.Range(p),
                  c.bname + ": precision='tf32' requires float32 tiles for `a`, `b` and `out`; " + c.Quoted(p) +
                      " is `" + TypeName(c.TypeOf(p)) + "`");
          return false;
        }
  }
  const Param sums = c.Has(Param::Out) ? Param::Out : Param::A;
  if (c.TypeOf(sums)->elem.scalar == ScalarType::BFloat16) {
    c.Error(Code::BadTileMatmul, c.Range(sums),
            c.bname + " does not support a bfloat16 'out' tile" +
                (c.Has(Param::Out) ? "" : " (the returned tile takes `a`'s type)") +
                "; the sums may be float16, float32 or float64");
    return false;
  }
  for (Param p : {Param::A, Param::B})
    if (c.TypeOf(p)->elem.scalar == ScalarType::BFloat16 && c.fn() && c.fn()->enable_backward) {
      c.Error(Code::BadTileMatmul, c.Range(p),
              c.bname + " does not support bfloat16 'a' or 'b' tiles when the backward pass is enabled (their "
                        "adjoints would be bfloat16 sums); use `@wp.kernel(enable_backward=False)`");
      return false;
    }
  if (a->shape[1] != b->shape[0]) {
    c.Error(Code::BadTileMatmul, c.Range(Param::B),
            c.bname + ": `a` is `" + DimsText(a->shape) + "` and `b` is `" + DimsText(b->shape) +
                "`; the columns of `a` must match the rows of `b`");
    return false;
  }
  // alpha (and beta) scale in the sums' type: `out`'s, or the returned tile's (`a`'s).
  auto scales_convert = [&](const Type* et, const char* whose) {
    for (Param p : {Param::Alpha, Param::Beta}) {
      if (!c.Has(p)) continue;
      CallArg& s = c.Arg(p);
      if (!c.checker.Convert(s.expr, s.info, et)) {
        c.Error(Code::ArgumentTypeMismatch, s.range,
                c.Quoted(p) + " of " + c.bname + " is `" + TypeName(s.info.type) + "`; it must convert to " + whose +
                    " `" + TypeName(et) + "`");
        return false;
      }
    }
    return true;
  };
  if (!c.Has(Param::Out)) return scales_convert(c.types.FromElem(a->elem), "the result's");
  const Type* out = c.TypeOf(Param::Out);
  if (out->shape[0] != a->shape[0] || out->shape[1] != b->shape[1]) {
    c.Error(Code::BadTileMatmul, c.Range(Param::Out),
            c.bname + ": `out` must be `(" + std::to_string(a->shape[0]) + ", " + std::to_string(b->shape[1]) +
                ")` for `a` of `" + DimsText(a->shape) + "` and `b` of `" + DimsText(b->shape) + "`, found `" +
                DimsText(out->shape) + "`");
    return false;
  }
  if (!c.checker.InPlaceRoot(c.Arg(Param::Out).expr)) {
    c.Error(Code::InPlaceTargetNotVariable, c.Range(Param::Out),
            "`out` of " + c.bname + " is updated in place, so it must be a tile variable or a view of one");
    return false;
  }
  return scales_convert(c.types.FromElem(out->elem), "`out`'s");
}

bool FormMatmulOfAB(CallContext& c, ExprInfo& out) {
  const Type* a = c.TypeOf(Param::A);
  out.type = c.types.Tile(a->elem, {a->shape[0], c.TypeOf(Param::B)->shape[1]}, Storage::Register);
  return true;
}

bool FormViewOfT(CallContext& c, ExprInfo& out) {
  const Type* t = c.TypeOf(Param::T);
  std::vector<int64_t> shape;
  if (c.Has(Param::Shape)) {
    c.ShapeDims(shape);
  } else {
    size_t n = TupleEntries(c, Param::Offset).size();
    shape.assign(t->shape.begin() + std::ptrdiff_t(n), t->shape.end());
  }
  out.type = c.types.Tile(t->elem, shape, Storage::Register);
  return true;
}


// ---------------------------------------------------------------- lanes and tiles

// wp.tile's `x`, tile_from_thread's `value`: one lane's value, a scalar or a struct (vectors and
// matrices are structs of their components).
bool LaneValue(CallContext& c) {
  Param p = c.overload.Index(Param::X) >= 0 ? Param::X : Param::Value;
  const Type* t = c.TypeOf(p);
  if (t->IsScalar() || t->kind == TypeKind::Struct) return true;
  c.Error(Code::ArgumentTypeMismatch, c.Range(p),
          "`" + std::string(ParamName(p)) + "` of " + c.bname +
              " is one lane's value: a scalar, vector, matrix or struct, found `" + TypeName(t) + "`");
  return false;
}

// untile(a): the trailing extent is the lanes of the block; one or two leading extents make
// each lane's value a vector or a matrix of a's scalars.
bool UntileShape(CallContext& c) {
  const Type* t = c.TypeOf(Param::A);
  const int64_t lanes = c.checker.options().block_dim;
  if (t->ndim > 3 || t->shape.back() != lanes) {
    c.Error(Code::TileShapeMismatch, c.Range(Param::A),
            c.bname + " needs a tile of shape `(" + std::to_string(lanes) + ",)`, `(M, " + std::to_string(lanes) +
                ")` or `(M, N, " + std::to_string(lanes) + ")` (block_dim " + std::to_string(lanes) + " last), but " +
                c.Quoted(Param::A) + " is `" + DimsText(t->shape) + "`");
    return false;
  }
  if (t->ndim > 1 && (t->elem.is_struct() || t->elem.scalar == ScalarType::Bool)) {
    c.Error(Code::TileOperatorUnsupported, c.Range(Param::A),
            c.bname + " makes each lane a " + (t->ndim == 2 ? "vector" : "matrix") + " of the tile's scalars, but " +
                c.Quoted(Param::A) + " holds `" + ElemName(t->elem, t->elem_struct_name) + "`");
    return false;
  }
  return true;
}

// tile_scatter_add / tile_scatter_masked(a, i[, j, k, l], value, has_value): one index per
// dimension of `a`, `value` of its element type, `a` a variable (updated in place). Adding needs
// elements with an addition: numbers, vectors and matrices.
bool ScatterArgs(CallContext& c) {
  const Type* t = c.TypeOf(Param::A);
  int n = 0;
  for (Param p : {Param::I, Param::J, Param::K, Param::L}) n += c.overload.Index(p) >= 0;
  if (n != t->ndim) {
    c.Error(Code::TileIndexCount, c.callee_range,
            c.bname + ": tile " + c.Quoted(Param::A) + " has " + Dimensions(t->ndim) + " but " + std::to_string(n) +
                " index" + (n == 1 ? " was" : "es were") + " given");
    return false;
  }
  const Type* et = c.types.FromElem(t->elem);
  CallArg& v = c.Arg(Param::Value);
  if (!c.checker.Convert(v.expr, v.info, et)) {
    c.Error(Code::TileDTypeMismatch, v.range,
            "`value` of " + c.bname + " is `" + TypeName(v.info.type) + "` but tile " + c.Quoted(Param::A) +
                " holds `" + TypeName(et) + "`");
    return false;
  }
  const bool adds = c.overload.Index(Param::Atomic) >= 0;
  // Structs add field by field (Warp's struct atomic_add).
  if (adds && !t->elem.is_struct() && t->elem.scalar == ScalarType::Bool) {
    c.Error(Code::TileOperatorUnsupported, c.Range(Param::A),
            c.bname + " adds numbers, vectors, matrices or structs, but " + c.Quoted(Param::A) + " holds `" +
                TypeName(et) + "`; use `wp.tile_scatter_masked` to write them");
    return false;
  }
  if (!c.checker.InPlaceRoot(c.Arg(Param::A).expr)) {
    c.Error(Code::InPlaceTargetNotVariable, c.Range(Param::A),
            "`a` of " + c.bname + " is updated in place, so it must be a tile variable or a view of one; found " +
                c.Quoted(Param::A));
    return false;
  }
  return true;
}
// Warp places the scattered tile in shared memory: the variable (and every use of it) is.
void CommitScatter(CallContext& c) {
  auto sym = c.out().symbols.find(c.Arg(Param::A).expr);
  if (sym == c.out().symbols.end()) return;  // a view: its base keeps its storage
  LocalSymbol* s = const_cast<LocalSymbol*>(sym->second);
  s->promoted_to_shared = true;
  s->type = c.types.WithStorage(s->type, Storage::Shared);
}

// tile_randi/tile_randf's `min` and `max` (both or neither, by overload): min < max, as Warp
// checks them: randi's as int32, randf's after rounding to float32.
bool RandRange(CallContext& c) {
  if (c.overload.Index(Param::Min) < 0) return true;
  const ConstValue* lo = c.Const(Param::Min);
  const ConstValue* hi = c.Const(Param::Max);
  if (lo->kind == ConstValue::Kind::Float || hi->kind == ConstValue::Kind::Float) {
    if (float(hi->AsDouble()) > float(lo->AsDouble())) return true;
  } else {
    for (const ConstValue* v : {lo, hi})
      if (v->AsInt() < INT32_MIN || v->AsInt() > INT32_MAX) {
        c.Error(Code::InvalidConstant, c.Range(v == lo ? Param::Min : Param::Max),
                c.bname + ": `" + FormatConst(*v) + "` is not representable as int32");
        return false;
      }
    if (hi->AsInt() > lo->AsInt()) return true;
  }
  c.Error(Code::InvalidConstant, c.Range(Param::Max),
          c.bname + ": `max` (" + FormatConst(*hi) + ") must be greater than `min` (" + FormatConst(*lo) + ")");
  return false;
}

bool FormBlockDim(CallContext& c, ExprInfo& out) {
  out.type = c.types.Int32();
  out.provenance = Provenance{"`" + c.checker.Text(c.node) + "` is the launch's block_dim", c.node->range, true};
  return true;
}

// wp.tile(x): (block_dim,) of x's type; without preserve_type a vector, quaternion or spatial
// vector spreads its components over a leading extent and a matrix over two (Warp's
// tile_value_func: transforms and other structs stay whole).
bool FormTileOfLanes(CallContext& c, ExprInfo& out) {
  const Type* t = c.TypeOf(Param::X);
  const int64_t lanes = c.checker.options().block_dim;
  const ConstValue* keep = c.Const(Param::PreserveType);
  const Composite* k = c.checker.CompositeOf(t);
  std::vector<int64_t> shape{lanes};
  ElemType elem = t->AsElem();
  if (k && !(keep && keep->Truthy()) && k->kind != CompositeKind::Transform) {
    shape = k->is_matrix() ? std::vector<int64_t>{k->rows, k->cols, lanes} : std::vector<int64_t>{k->rows, lanes};
    elem = c.types.Scalar(k->scalar)->AsElem();
  }
  out.type = c.types.Tile(elem, shape, Storage::Register);
  out.uniform = true;  // one tile of the block, whatever the lanes contributed
  return true;
}

bool FormUntiled(CallContext& c, ExprInfo& out) {
  const Type* t = c.TypeOf(Param::A);
  if (t->ndim == 1) out.type = c.types.FromElem(t->elem);
  else if (t->ndim == 2) out.type = c.checker.CompositeType(Composite::Vector(int(t->shape[0]), t->elem.scalar));
  else out.type = c.checker.CompositeType(Composite::Matrix(int(t->shape[0]), int(t->shape[1]), t->elem.scalar));
  out.uniform = false;
  out.provenance = Provenance{"`" + c.checker.Text(c.node) + "` is each lane's own element", c.node->range, true};
  return true;
}

bool FormTileFromThread(CallContext& c, ExprInfo& out) {
  std::vector<int64_t> dims;
  c.ShapeDims(dims);
  out.type = c.types.Tile(c.TypeOf(Param::Value)->AsElem(), dims, c.StorageArg());
  out.uniform = true;
  return true;
}

bool FormRandomTile(CallContext& c, ExprInfo& out, ScalarType s) {
  std::vector<int64_t> dims;
  c.ShapeDims(dims);
  out.type = c.types.Tile(c.types.Scalar(s)->AsElem(), dims, c.StorageArg());
  return true;
}
bool FormRandiTile(CallContext& c, ExprInfo& out) { return FormRandomTile(c, out, ScalarType::Int32); }
bool FormRandfTile(CallContext& c, ExprInfo& out) { return FormRandomTile(c, out, ScalarType::Float32); }

}  // namespace

namespace rules {
using P = Param;
const RuleSpec MatmulArgs{"MatmulArgs", {Code::BadTileMatmul, Code::InPlaceTargetNotVariable, Code::ArgumentTypeMismatch},
                          {P::A, P::B}, &sema::MatmulArgs};
const RuleSpec ViewArgs{"ViewArgs", {Code::BadTileRegion}, {P::T, P::Offset}, &sema::ViewArgs};
const RuleSpec AssignArgs{"AssignArgs", {Code::BadTileRegion, Code::TileDTypeMismatch, Code::InPlaceTargetNotVariable},
                          {P::Dst, P::Src}, &sema::AssignArgs};
const RuleSpec SortArgs{"SortArgs", {Code::BadTileSort, Code::InPlaceTargetNotVariable}, {P::Keys, P::Values},
                        &sema::SortArgs};
const RuleSpec LaneValue{"LaneValue", {Code::ArgumentTypeMismatch}, {}, &sema::LaneValue};
const RuleSpec UntileShape{"UntileShape", {Code::TileShapeMismatch, Code::TileOperatorUnsupported}, {P::A},
                           &sema::UntileShape};
const RuleSpec ScatterArgs{"ScatterArgs",
                           {Code::TileIndexCount, Code::TileDTypeMismatch, Code::TileOperatorUnsupported,
                            Code::InPlaceTargetNotVariable},
                           {P::A, P::I, P::Value, P::HasValue},
                           &sema::ScatterArgs,
                           &sema::CommitScatter};
const RuleSpec RandRange{"RandRange", {Code::InvalidConstant}, {P::Rng}, &sema::RandRange};
}  // namespace rules

namespace results {
using P = Param;
const ResultSpec MatmulOfAB{"MatmulOfAB", {P::A, P::B}, &FormMatmulOfAB};
const ResultSpec ViewOfT{"ViewOfT", {P::T, P::Offset}, &FormViewOfT};
const ResultSpec BlockDim{"BlockDim", {}, &FormBlockDim};
const ResultSpec TileOfLanes{"TileOfLanes", {P::X, P::PreserveType}, &FormTileOfLanes};
const ResultSpec Untiled{"Untiled", {P::A}, &FormUntiled};
const ResultSpec TileFromThread{"TileFromThread", {P::Shape, P::Value, P::Storage}, &FormTileFromThread};
const ResultSpec RandiTile{"RandiTile", {P::Shape, P::Storage}, &FormRandiTile};
const ResultSpec RandfTile{"RandfTile", {P::Shape, P::Storage}, &FormRandfTile};
}  // namespace results

}  // namespace tilec::sema
