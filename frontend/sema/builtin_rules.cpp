// The rules and result rules of the builtin table, one small function each, and the
// CallContext through which they see a call. Messages put the caret under the argument at
// fault; each rule reports only the codes its spec lists.
#include "frontend/sema/builtin_rules.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "frontend/sema/checker.h"

namespace tilec::sema {

using diag::Code;

std::string DimsText(const std::vector<int64_t>& d) {
  std::string s = "(";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  if (d.size() == 1) s += ",";
  return s + ")";
}

std::string Dimensions(int n) { return std::to_string(n) + " dimension" + (n == 1 ? "" : "s"); }

// ---------------------------------------------------------------- CallContext

bool CallContext::Has(Param p) const {
  int k = overload.Index(p);
  return k >= 0 && param_arg_[k] >= 0;
}

CallArg& CallContext::Arg(Param p) {
  int k = overload.Index(p);
  if (k < 0 || param_arg_[k] < 0) {
    // A rule read a parameter its row may default: a table bug that every test of the row hits.
    std::fprintf(stderr, "internal error: %s reads unbound parameter `%s`\n", bname.c_str(), ParamName(p));
    std::abort();
  }
  return args[param_arg_[k]];
}

const ConstValue* CallContext::Const(Param p) const {
  int k = overload.Index(p);
  return k >= 0 && ci_.const_args[k] ? &*ci_.const_args[k] : nullptr;
}

void CallContext::SetConst(Param p, ConstValue v) {
  int k = overload.Index(p);
  if (k >= 0) ci_.const_args[size_t(k)] = std::move(v);
}

SourceRange CallContext::Range(Param p) const {
  int k = overload.Index(p);
  return k >= 0 && param_arg_[k] >= 0 ? args[param_arg_[k]].range : callee_range;
}

std::string CallContext::Quoted(Param p) { return "`" + checker.Text(Arg(p).expr) + "`"; }

std::vector<CallArg*> CallContext::Extra() {
  std::vector<CallArg*> out;
  for (int ai : extra_) out.push_back(&args[ai]);
  return out;
}

bool CallContext::ShapeDims(std::vector<int64_t>& dims) const {
  const ConstValue* v = Const(Param::Shape);
  dims.clear();
  if (!v) return false;
  if (v->kind == ConstValue::Kind::Int) {
    dims.push_back(v->i);
    return true;
  }
  if (v->kind != ConstValue::Kind::Tuple) return false;
  for (const ConstValue& e : v->elems) {
    if (e.kind != ConstValue::Kind::Int) return false;
    dims.push_back(e.i);
  }
  return true;
}

Storage CallContext::StorageArg() const {
  const ConstValue* s = Const(Param::Storage);
  return s && s->kind == ConstValue::Kind::String && s->s == "shared" ? Storage::Shared : Storage::Register;
}

diag::DiagnosticEngine::Builder CallContext::Error(Code code, SourceRange r, std::string msg) {
  if (rule_ && std::find(rule_->codes.begin(), rule_->codes.end(), code) == rule_->codes.end()) {
    std::fprintf(stderr, "internal error: rule %s reported a code it does not list\n", rule_->name);
    std::abort();
  }
  return checker.Error(code, r, std::move(msg));
}

namespace {

const Type* ArrayOf(CallContext& c) { return c.TypeOf(Param::A); }

// ---------------------------------------------------------------- shapes, storage, ranks

bool ShapeValid(CallContext& c) {
  std::vector<int64_t> dims;
  bool ok = c.ShapeDims(dims) && !dims.empty() && dims.size() <= 4;
  for (int64_t d : dims) ok &= d > 0;
  if (ok) return true;
  c.Error(Code::InvalidTileShape, c.Range(Param::Shape),
          "a tile shape is 1 to 4 positive ints, found `" + FormatConst(*c.Const(Param::Shape)) + "`");
  return false;
}

bool StorageValid(CallContext& c) {
  const ConstValue* s = c.Const(Param::Storage);
  if (!s || s->kind != ConstValue::Kind::String || s->s == "register" || s->s == "shared") return true;
  c.Error(Code::InvalidStorage, c.Range(Param::Storage),
          "invalid storage `" + FormatConst(*s) + "` (expected `'register'` or `'shared'`)");
  return false;
}

bool ShapeRankEqArray(CallContext& c) {
  std::vector<int64_t> dims;
  c.ShapeDims(dims);
  const Type* array = ArrayOf(c);
  if (int(dims.size()) == array->ndim) return true;
  c.Error(Code::ShapeRankMismatch, c.Range(Param::Shape),
          "`shape` has " + Dimensions(int(dims.size())) + " but array " + c.Quoted(Param::A) + " has " +
              std::to_string(array->ndim));
  return false;
}

bool OffsetRankEqArray(CallContext& c) {
  if (!c.Has(Param::Offset)) return true;  // the default has one zero per dimension
  const Type* t = c.TypeOf(Param::Offset);
  int r = t->kind == TypeKind::Tuple ? int(t->elems.size()) : t->IsTile() ? t->ndim : 1;
  const Type* array = ArrayOf(c);
  if (r == array->ndim) return true;
  c.Error(Code::OffsetRankMismatch, c.Range(Param::Offset),
          "`offset` has " + std::to_string(r) + " entr" + (r == 1 ? "y" : "ies") + " but array " +
              c.Quoted(Param::A) + " has " + Dimensions(array->ndim));
  return false;
}

bool TileRankEqArray(CallContext& c) {
  const Type* t = c.TypeOf(Param::T);
  const Type* array = ArrayOf(c);
  if (t->ndim == array->ndim) return true;
  c.Error(Code::TileRankMismatch, c.Range(Param::T),
          "tile " + c.Quoted(Param::T) + " has " + Dimensions(t->ndim) + " but array " + c.Quoted(Param::A) +
              " has " + std::to_string(array->ndim));
  return false;
}

bool DTypeEq(CallContext& c) {
  const Type* t = c.TypeOf(Param::T);
  const Type* array = ArrayOf(c);
  if (t->elem == array->elem) return true;
  c.Error(Code::DTypeMismatch, c.Range(Param::T),
          "dtype mismatch: array " + c.Quoted(Param::A) + " holds `" + ElemName(array->elem, array->elem_struct_name) +
              "` but tile " + c.Quoted(Param::T) + " holds `" + ElemName(t->elem, t->elem_struct_name) + "`");
  return false;
}

bool AtomicDType(CallContext& c) {
  ElemType e = c.TypeOf(Param::T)->elem;
  if (e.is_struct() || SupportsAtomicAdd(e.scalar)) return true;
  c.Error(Code::AtomicAddUnsupportedDType, c.Range(Param::T),
          c.bname + " only supports int32, uint32, int64, uint64, float16, bfloat16, float32 and float64, not `" +
              std::string(ScalarName(e.scalar)) + "`");
  return false;
}

int64_t AxisOf(CallContext& c) {
  const ConstValue* a = c.Const(Param::Axis);
  return a ? a->AsInt() : 0;
}

bool AxisInRange(CallContext& c) {
  int64_t axis = AxisOf(c);
  const Type* array = ArrayOf(c);
  if (axis >= 0 && axis < array->ndim) return true;
  c.Error(Code::AxisOutOfRange, c.Range(Param::Axis),
          "`axis` is " + std::to_string(axis) + " but array " + c.Quoted(Param::A) + " has " +
              Dimensions(array->ndim) + " (expected 0" +
              (array->ndim > 1 ? " to " + std::to_string(array->ndim - 1) : "") + ")");
  return false;
}

// ---------------------------------------------------------------- index tiles

bool IndexTile(CallContext& c) {
  const Type* it = c.TypeOf(Param::Indices);
  int64_t axis = AxisOf(c);
  std::string iname = "index tile " + c.Quoted(Param::Indices);
  if (it->ndim != 1) {
    c.Error(Code::IndexTileNot1D, c.Range(Param::Indices), iname + " must be 1-D, found `" + TypeName(it) + "`");
    return false;
  }
  if (it->elem.is_struct() || it->elem.scalar != ScalarType::Int32) {
    c.Error(Code::IndexTileNotInt32, c.Range(Param::Indices),
            iname + " must hold `int32`, found `" + ElemName(it->elem, it->elem_struct_name) + "`");
    return false;
  }
  // Loads take the length from `shape`, stores from the tile they write.
  bool from_shape = c.overload.Index(Param::Shape) >= 0;
  std::vector<int64_t> dims;
  if (from_shape) c.ShapeDims(dims);
  else dims = c.TypeOf(Param::T)->shape;
  int64_t want = axis >= 0 && axis < int64_t(dims.size()) ? dims[axis] : -1;
  if (want < 0 || it->shape[0] == want) return true;
  c.Error(Code::IndexTileLengthMismatch, c.Range(Param::Indices),
          iname + " holds " + std::to_string(it->shape[0]) + " values but " + (from_shape ? "`shape[" : "`t.shape[") +
              std::to_string(axis) + "]` is " + std::to_string(want));
  return false;
}

// Index tiles live in shared memory: the argument (and the variable holding it) is promoted.
void PromoteIndexTile(CallContext& c) {
  CallArg& ia = c.Arg(Param::Indices);
  ExprInfo promoted = ia.info;
  promoted.type = c.types.WithStorage(ia.info.type, Storage::Shared);
  c.checker.Record(ia.expr, promoted);
  auto sym = c.out().symbols.find(ia.expr);
  if (sym != c.out().symbols.end()) {
    LocalSymbol* s = const_cast<LocalSymbol*>(sym->second);
    s->promoted_to_shared = true;
    s->type = c.types.WithStorage(s->type, Storage::Shared);
  }
}

// ---------------------------------------------------------------- tile element types

// The first tile argument's element type: a struct never qualifies; `refusal` gives the
// message for a scalar type that does not (nullopt: it does). The first tile decides: a second
// one is held to it by TilesSameDType.
template <class Refusal>
bool FirstTileElem(CallContext& c, Refusal refusal) {
  for (CallArg& a : c.args) {
    if (!a.info.type->IsTile()) continue;
    if (a.info.type->elem.is_struct()) {
      c.Error(Code::StructTileUnsupported, a.range,
              c.bname + " is not defined for tiles of Warp struct `" + a.info.type->elem_struct_name + "`");
      return false;
    }
    if (std::optional<std::string> why = refusal(*a.info.type)) {
      c.Error(Code::TileOperatorUnsupported, a.range, *why);
      return false;
    }
    return true;
  }
  return true;
}

bool NumericTile(CallContext& c) {
  return FirstTileElem(c, [&](const Type& t) -> std::optional<std::string> {
    if (t.elem.scalar == ScalarType::Bool) return c.bname + " is not defined for `bool` tiles";
    return std::nullopt;
  });
}

// Max and min need an order on the elements: structs have none, and bool has none in the IR
// (the verifier rejects a bool tile_reduce), so bool is refused here rather than there.
bool OrderedElemTile(CallContext& c) {
  const Type* t = c.TypeOf(Param::A);
  if (t->elem.is_struct()) {
    c.Error(Code::StructTileUnsupported, c.Range(Param::A),
            c.bname + " needs a tile of a scalar element type, but " + c.Quoted(Param::A) + " holds Warp struct `" +
                t->elem_struct_name + "`");
    return false;
  }
  if (t->elem.scalar == ScalarType::Bool) {
    c.Error(Code::TileOperatorUnsupported, c.Range(Param::A),
            c.bname + " needs a tile of a numeric element type, but " + c.Quoted(Param::A) + " holds `bool`");
    return false;
  }
  return true;
}

bool Tile2D(CallContext& c) {
  const Type* t = c.TypeOf(Param::A);
  if (t->ndim == 2) return true;
  c.Error(Code::TransposeNeeds2DTile, c.Range(Param::A),
          c.bname + " needs a 2-D tile, but " + c.Quoted(Param::A) + " is `" + TypeName(t) + "` with " +
              Dimensions(t->ndim));
  return false;
}

bool TilesSameShape(CallContext& c) {
  const Type* l = c.TypeOf(Param::Lhs);
  const Type* r = c.TypeOf(Param::Rhs);
  if (l->shape == r->shape) return true;
  c.Error(Code::TileShapeMismatch, c.Range(Param::Rhs),
          "shape mismatch in " + c.bname + ": `" + DimsText(l->shape) + "` and `" + DimsText(r->shape) + "`");
  return false;
}

bool TilesSameDType(CallContext& c) {
  const Type* l = c.TypeOf(Param::Lhs);
  const Type* r = c.TypeOf(Param::Rhs);
  if (l->elem == r->elem) return true;
  c.Error(Code::TileDTypeMismatch, c.Range(Param::Rhs),
          "dtype mismatch in " + c.bname + ": `" + TypeName(c.types.FromElem(l->elem)) + "` and `" +
              TypeName(c.types.FromElem(r->elem)) + "`");
  return false;
}

// `*` and `/` of two tiles: one dtype, or (Warp's tile_mul and tile_div) a scalar dtype and
// a vector or matrix of it, element by element.
bool TilesScaleCompatible(CallContext& c) {
  const Type* l = c.TypeOf(Param::Lhs);
  const Type* r = c.TypeOf(Param::Rhs);
  const Composite* lk = c.checker.CompositeOf(c.types.FromElem(l->elem));
  const Composite* rk = c.checker.CompositeOf(c.types.FromElem(r->elem));
  if (lk && rk) {
    c.Error(Code::TileOperatorUnsupported, c.Range(Param::Rhs),
            c.bname + ": at least one element type must be scalar, but the tiles hold `" +
                TypeName(c.types.FromElem(l->elem)) + "` and `" + TypeName(c.types.FromElem(r->elem)) + "`");
    return false;
  }
  if (l->elem == r->elem) return true;
  if ((lk && !r->elem.is_struct() && lk->scalar == r->elem.scalar) ||
      (rk && !l->elem.is_struct() && rk->scalar == l->elem.scalar))
    return true;
  return TilesSameDType(c);
}

bool ScalarMatchesTile(CallContext& c) {
  bool lhs_tile = c.TypeOf(Param::Lhs)->IsTile();
  CallArg& tile = c.Arg(lhs_tile ? Param::Lhs : Param::Rhs);
  CallArg& scalar = c.Arg(lhs_tile ? Param::Rhs : Param::Lhs);
  const Type* et = c.types.FromElem(tile.info.type->elem);
  // A vector or matrix operand scales (or divides) each scalar element into one of its type.
  if (const Composite* sk = c.checker.CompositeOf(scalar.info.type)) {
    if (!tile.info.type->elem.is_struct() && tile.info.type->elem.scalar == sk->scalar) return true;
    if (tile.info.type->elem.is_struct()) {
      c.Error(Code::TileOperatorUnsupported, scalar.range,
              c.bname + ": at least one operand must be a scalar type, but the tile holds `" + TypeName(et) +
                  "` and `" + c.checker.Text(scalar.expr) + "` is `" + TypeName(scalar.info.type) + "`");
      return false;
    }
    c.Error(Code::TileDTypeMismatch, scalar.range,
            "`" + c.checker.Text(scalar.expr) + "` of type `" + TypeName(scalar.info.type) + "` needs a tile of `" +
                TypeName(c.types.Scalar(sk->scalar)) + "` elements, not `" + TypeName(et) + "`");
    return false;
  }
  // A tile of vectors or matrices scales by a scalar of its component type.
  if (const Composite* k = c.checker.CompositeOf(et)) et = c.types.Scalar(k->scalar);
  if (c.checker.Convert(scalar.expr, scalar.info, et)) return true;
  c.Error(Code::TileDTypeMismatch, scalar.range,
          "scalar `" + c.checker.Text(scalar.expr) + "` of type `" + TypeName(scalar.info.type) +
              "` does not match the tile's dtype `" + TypeName(et) + "`");
  return false;
}

// Bitwise operators on tiles: Warp defines them for two tiles of one integer type, scalars or
// vectors and matrices of integers (component by component).
bool IntElemTile(CallContext& c) {
  for (CallArg& a : c.args) {
    if (!a.info.type->IsTile() || !a.info.type->elem.is_struct()) continue;
    const Composite* k = c.checker.CompositeOf(c.types.FromElem(a.info.type->elem));
    if (k && IsInteger(k->scalar)) return true;
    break;
  }
  return FirstTileElem(c, [&](const Type& t) -> std::optional<std::string> {
    if (IsInteger(t.elem.scalar)) return std::nullopt;
    return c.bname + " needs tiles of an integer type, found `" + ElemName(t.elem, "") + "`";
  });
}

// Two tile operands `first` and `second` of one shape and one dtype (tile_dot, tile_axpy).
bool SameShapeAndDType(CallContext& c, Param first, Param second) {
  const Type* l = c.TypeOf(first);
  const Type* r = c.TypeOf(second);
  if (l->shape != r->shape) {
    c.Error(Code::TileShapeMismatch, c.Range(second),
            c.bname + " needs tiles of one shape, but " + c.Quoted(first) + " is `" + DimsText(l->shape) + "` and " +
                c.Quoted(second) + " is `" + DimsText(r->shape) + "`");
    return false;
  }
  if (!(l->elem == r->elem)) {
    c.Error(Code::TileDTypeMismatch, c.Range(second),
            c.bname + " needs tiles of one dtype, but " + c.Quoted(first) + " holds `" + ElemName(l->elem, "") +
                "` and " + c.Quoted(second) + " holds `" + ElemName(r->elem, "") + "`");
    return false;
  }
  return true;
}
bool DotOperands(CallContext& c) { return SameShapeAndDType(c, Param::A, Param::B); }

// tile_axpy(alpha, src, dest): tiles of one shape and dtype, alpha of their element type, and
// `dest` a variable, which the call rebinds to the updated tile.
bool AxpyArgs(CallContext& c) {
  if (!SameShapeAndDType(c, Param::Src, Param::Dest)) return false;
  const Type* et = c.types.FromElem(c.TypeOf(Param::Dest)->elem);
  if (const Composite* k = c.checker.CompositeOf(et)) et = c.types.Scalar(k->scalar);
  CallArg& alpha = c.Arg(Param::Alpha);
  if (!c.checker.Convert(alpha.expr, alpha.info, et)) {
    c.Error(Code::TileDTypeMismatch, alpha.range,
            "`alpha` of " + c.bname + " is `" + TypeName(alpha.info.type) + "` but the tiles hold `" + TypeName(et) +
                "`; it must be the tiles' scalar type");
    return false;
  }
  const auto* n = c.Arg(Param::Dest).expr->As<ast::Name>();
  if (!n || !c.Local(n->id)) {
    c.Error(Code::InPlaceTargetNotVariable, c.Range(Param::Dest),
            "`dest` of " + c.bname + " is updated in place, so it must be a tile variable; found " +
                c.Quoted(Param::Dest) + "; assign it to a variable first");
    return false;
  }
  return true;
}
void CommitAxpy(CallContext& c) {
  LocalSymbol* sym = c.Local(c.Arg(Param::Dest).expr->As<ast::Name>()->id);
  ++sym->assignment_count;
  sym->constant.reset();
}

// tile_extract(a, i, ...): one index per dimension of `a`.
bool ExtractIndexCount(CallContext& c) {
  const Type* t = c.TypeOf(Param::A);
  int n = 0;
  for (Param p : {Param::I, Param::J, Param::K, Param::L}) n += c.overload.Index(p) >= 0;
  if (n == t->ndim) {
    // A constant index outside the tile is a bug in the kernel, not a runtime condition.
    static const Param kIdx[] = {Param::I, Param::J, Param::K, Param::L};
    for (int d = 0; d < n; ++d)
      if (const ConstValue* v = c.Const(kIdx[d]); v && v->kind == ConstValue::Kind::Int &&
                                                  (v->i < 0 || v->i >= t->shape[size_t(d)])) {
        c.Error(Code::BadTileRegion, c.Range(kIdx[d]),
                c.bname + ": index " + std::to_string(v->i) + " is out of bounds for dimension " + std::to_string(d) +
                    " of " + c.Quoted(Param::A) + ", of extent " + std::to_string(t->shape[size_t(d)]));
        return false;
      }
    return true;
  }
  c.Error(Code::TileIndexCount, c.callee_range,
          c.bname + ": tile " + c.Quoted(Param::A) + " has " + Dimensions(t->ndim) + " but " + std::to_string(n) +
              " index" + (n == 1 ? " was" : "es were") + " given");
  return false;
}

// tile_astype: a tile of scalars converted to a scalar dtype (Warp's `Scalar`: no bool).
bool AstypeTypes(CallContext& c) {
  const Type* t = c.TypeOf(Param::T);
  const Type* d = c.Const(Param::DType)->type;
  if (t->elem.is_struct()) {
    c.Error(Code::StructTileUnsupported, c.Range(Param::T),
            c.bname + " needs a tile of scalars, but " + c.Quoted(Param::T) + " holds struct `" +
                t->elem_struct_name + "`");
    return false;
  }
  if (d && d->kind == TypeKind::Struct) {
    c.Error(Code::StructTileUnsupported, c.Range(Param::DType),
            c.bname + " converts to a scalar type, not struct `" + d->struct_name + "`");
    return false;
  }
  if (t->elem.scalar == ScalarType::Bool || (d && d->IsScalar() && d->scalar == ScalarType::Bool)) {
    c.Error(Code::TileOperatorUnsupported, t->elem.scalar == ScalarType::Bool ? c.Range(Param::T) : c.Range(Param::DType),
            c.bname + " converts between numeric types; `bool` is not one");
    return false;
  }
  return true;
}

// ---------------------------------------------------------------- axes, reductions, scans, shapes

bool TileAxisInRange(CallContext& c) {
  int64_t axis = AxisOf(c);
  const Type* t = c.TypeOf(Param::A);
  if (axis >= 0 && axis < t->ndim) return true;
  c.Error(Code::AxisOutOfRange, c.Range(Param::Axis),
          "`axis` is " + std::to_string(axis) + " but tile " + c.Quoted(Param::A) + " has " + Dimensions(t->ndim) +
              " (expected 0" + (t->ndim > 1 ? " to " + std::to_string(t->ndim - 1) : "") + ")");
  return false;
}

bool ScanDType(CallContext& c) {
  // Warp's scans take float32, int32 and uint32; tilec's take every numeric type (float64
  // too, so that gradients can be checked in double precision).
  const Type* t = c.TypeOf(Param::A);
  ElemType e = t->elem;
  if (!e.is_struct() && e.scalar != ScalarType::Bool) return true;
  c.Error(Code::ScanUnsupportedDType, c.Range(Param::A),
          c.bname + " needs a tile of numbers, but " + c.Quoted(Param::A) + " holds `" +
              ElemName(e, t->elem_struct_name) + "`");
  return false;
}

bool BroadcastShape(CallContext& c) {
  if (!ShapeValid(c)) return false;
  std::vector<int64_t> dims;
  c.ShapeDims(dims);
  const Type* t = c.TypeOf(Param::A);
  int lead = int(dims.size()) - t->ndim;
  if (lead < 0) {
    c.Error(Code::BroadcastShapeMismatch, c.Range(Param::Shape),
            "cannot broadcast tile " + c.Quoted(Param::A) + " of shape `" + DimsText(t->shape) + "` to `" +
                DimsText(dims) + "`, which has fewer dimensions");
    return false;
  }
  for (int d = 0; d < t->ndim; ++d) {
    int64_t e = t->shape[d], r = dims[d + lead];
    if (e == 1 || e == r) continue;
    c.Error(Code::BroadcastShapeMismatch, c.Range(Param::Shape),
            "cannot broadcast tile " + c.Quoted(Param::A) + " of shape `" + DimsText(t->shape) + "` to `" +
                DimsText(dims) + "`: extent " + std::to_string(e) + " of dimension " + std::to_string(d) +
                " is neither 1 nor " + std::to_string(r));
    return false;
  }
  return true;
}

// `want` with its -1 entry (at most one) inferred from the element count `n`; false and a
// reason when that cannot be done.
bool ResolveReshape(int64_t n, std::vector<int64_t> want, std::vector<int64_t>& out, std::string& why) {
  int infer = -1;
  int64_t known = 1;
  for (size_t k = 0; k < want.size(); ++k) {
    if (want[k] == -1) {
      if (infer >= 0) {
        why = "at most one entry may be -1";
        return false;
      }
      infer = int(k);
    } else {
      known *= want[k];
    }
  }
  if (infer >= 0) {
    if (known == 0 || n % known != 0) {
      why = "the -1 entry cannot be inferred: " + std::to_string(n) + " elements do not divide by " +
            std::to_string(known);
      return false;
    }
    want[size_t(infer)] = n / known;
  }
  int64_t m = 1;
  for (int64_t d : want) m *= d;
  if (m != n) {
    why = "it holds " + std::to_string(m) + " element" + (m == 1 ? "" : "s") + ", not " + std::to_string(n);
    return false;
  }
  out = std::move(want);
  return true;
}

int64_t Elements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

bool ReshapeShape(CallContext& c) {
  std::vector<int64_t> dims;
  bool ok = c.ShapeDims(dims) && !dims.empty() && dims.size() <= 4;
  for (int64_t d : dims) ok &= d > 0 || d == -1;
  if (!ok) {
    c.Error(Code::InvalidTileShape, c.Range(Param::Shape),
            "a reshape target is 1 to 4 positive ints (one may be -1), found `" +
                FormatConst(*c.Const(Param::Shape)) + "`");
    return false;
  }
  const Type* t = c.TypeOf(Param::T);
  std::vector<int64_t> out;
  std::string why;
  if (ResolveReshape(Elements(t->shape), dims, out, why)) return true;
  c.Error(Code::BadReshape, c.Range(Param::Shape),
          "cannot reshape tile " + c.Quoted(Param::T) + " of shape `" + DimsText(t->shape) + "` to `" +
              FormatConst(*c.Const(Param::Shape)) + "`: " + why);
  return false;
}

// The axes tile_squeeze removes: those given (negative ones counted from the end), or every
// extent of 1.
std::vector<int64_t> SqueezeList(CallContext& c, bool& given) {
  const Type* t = c.TypeOf(Param::T);
  std::vector<int64_t> axes;
  const ConstValue* a = c.Has(Param::Axis) ? c.Const(Param::Axis) : nullptr;
  given = a != nullptr;
  if (!a) {
    for (int d = 0; d < t->ndim; ++d)
      if (t->shape[d] == 1) axes.push_back(d);
    return axes;
  }
  if (a->kind == ConstValue::Kind::Tuple) {
    for (const ConstValue& e : a->elems) axes.push_back(e.AsInt());
  } else {
    axes.push_back(a->AsInt());
  }
  for (int64_t& x : axes)
    if (x < 0) x += t->ndim;
  return axes;
}

std::vector<int64_t> SqueezedShape(const std::vector<int64_t>& shape, const std::vector<int64_t>& axes) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < shape.size(); ++d)
    if (std::find(axes.begin(), axes.end(), int64_t(d)) == axes.end()) out.push_back(shape[d]);
  return out;
}

bool SqueezeAxes(CallContext& c) {
  const Type* t = c.TypeOf(Param::T);
  bool given;
  std::vector<int64_t> axes = SqueezeList(c, given);
  for (int64_t x : axes) {
    if (x < 0 || x >= t->ndim) {
      c.Error(Code::AxisOutOfRange, c.Range(Param::Axis),
              "`axis` " + FormatConst(*c.Const(Param::Axis)) + " is out of range for tile " + c.Quoted(Param::T) +
                  " with " + Dimensions(t->ndim) + " (expected " + std::to_string(-t->ndim) + " to " +
                  std::to_string(t->ndim - 1) + ")");
      return false;
    }
    if (t->shape[size_t(x)] != 1) {
      c.Error(Code::SqueezeNonUnitAxis, c.Range(Param::Axis),
              "cannot squeeze axis " + std::to_string(x) + " of tile " + c.Quoted(Param::T) + " of shape `" +
                  DimsText(t->shape) + "`: its extent is " + std::to_string(t->shape[size_t(x)]) + ", not 1");
      return false;
    }
  }
  if (!SqueezedShape(t->shape, axes).empty()) return true;
  c.Error(Code::InvalidTileShape, given ? c.Range(Param::Axis) : c.Range(Param::T),
          "squeezing tile " + c.Quoted(Param::T) + " of shape `" + DimsText(t->shape) +
              "` leaves no dimensions; a tile has 1 to 4");
  return false;
}

bool TileIndexCount(CallContext& c) {
  const Type* tt = c.TypeOf(Param::T);
  CallArg& ia = c.Arg(Param::Index);
  std::vector<const ast::Expr*> idx;
  if (const auto* tup = ia.expr->As<ast::Tuple>()) {
    for (const ast::ExprPtr& e : tup->elts) idx.push_back(e.get());
  } else {
    idx.push_back(ia.expr);
  }
  if (int(idx.size()) != tt->ndim) {
    c.Error(Code::TileIndexCount, ia.range,
            "tile " + c.Quoted(Param::T) + " has " + Dimensions(tt->ndim) + " but is indexed with " +
                std::to_string(idx.size()) + " index" + (idx.size() == 1 ? "" : "es"));
    return false;
  }
  for (size_t d = 0; d < idx.size(); ++d) {
    const ast::Expr* e = idx[d];
    ExprInfo ei = c.out().expr_info[e];
    if (ei.type->IsError()) return false;
    if (!ei.type->IsInt() && !c.checker.Convert(e, ei, c.types.Int32())) {
      c.Error(Code::TileIndexCount, e->range, "tile indices must be integers or slices, found `" + TypeName(ei.type) + "`");
      return false;
    }
    // A constant index counts from the end when negative, as in Python; outside, it is a bug.
    const int64_t len = tt->shape[d];
    if (ei.value && ei.value->kind == ConstValue::Kind::Int && (ei.value->i >= len || ei.value->i < -len)) {
      c.Error(Code::BadTileRegion, e->range,
              "index " + std::to_string(ei.value->i) + " is out of bounds for dimension " + std::to_string(d) + " of " +
                  c.Quoted(Param::T) + ", of extent " + std::to_string(len));
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------- results

bool FormVoid(CallContext& c, ExprInfo& out) {
  out.type = c.types.Void();
  return true;
}

bool FormTileFromShapeDType(CallContext& c, ExprInfo& out) {
  std::vector<int64_t> dims;
  c.ShapeDims(dims);
  out.type = c.types.Tile(c.Const(Param::DType)->type->AsElem(), dims, c.StorageArg());
  return true;
}

bool FormTileArange(CallContext& c, ExprInfo& out) {
  out.type = c.types.Tile(c.Const(Param::DType)->type->AsElem(), {c.arange_len}, c.StorageArg());
  return true;
}

bool FormTileFromArrayShape(CallContext& c, ExprInfo& out) {
  std::vector<int64_t> dims;
  c.ShapeDims(dims);
  out.type = c.types.Tile(ArrayOf(c)->elem, dims, c.StorageArg());
  return true;
}

bool FormTileLikeT(CallContext& c, ExprInfo& out) {
  out.type = c.TypeOf(Param::T);
  return true;
}

bool FormOneElementOfT(CallContext& c, ExprInfo& out) {
  out.type = c.types.Tile(c.TypeOf(Param::T)->elem, {1}, Storage::Register);
  return true;
}

bool FormOneElementOfA(CallContext& c, ExprInfo& out) {
  out.type = c.types.Tile(c.TypeOf(Param::A)->elem, {1}, Storage::Register);
  return true;
}

// tile_dot contracts everything: a vector or matrix tile's products sum to its scalar type.
bool FormOneScalarOfA(CallContext& c, ExprInfo& out) {
  ElemType e = c.TypeOf(Param::A)->elem;
  if (const Composite* k = c.checker.CompositeOf(c.types.FromElem(e))) e = c.types.Scalar(k->scalar)->AsElem();
  out.type = c.types.Tile(e, {1}, Storage::Register);
  return true;
}

bool FormReducedAlongAxis(CallContext& c, ExprInfo& out) {
  const Type* t = c.TypeOf(Param::A);
  std::vector<int64_t> shape{1};
  int64_t axis = AxisOf(c);
  if (t->ndim > 1) {
    shape = t->shape;
    shape.erase(shape.begin() + axis);
  }
  out.type = c.types.Tile(t->elem, shape, Storage::Register);
  return true;
}

bool FormRegisterLikeA(CallContext& c, ExprInfo& out) {
  const Type* t = c.TypeOf(Param::A);
  out.type = c.types.Tile(t->elem, t->shape, Storage::Register);
  return true;
}

bool FormBroadcastTo(CallContext& c, ExprInfo& out) {
  std::vector<int64_t> dims;
  c.ShapeDims(dims);
  out.type = c.types.Tile(c.TypeOf(Param::A)->elem, dims, Storage::Register);
  return true;
}

bool FormReshapedT(CallContext& c, ExprInfo& out) {
  const Type* t = c.TypeOf(Param::T);
  std::vector<int64_t> dims, resolved;
  std::string why;
  c.ShapeDims(dims);
  if (!ResolveReshape(Elements(t->shape), dims, resolved, why)) return false;
  out.type = c.types.Tile(t->elem, resolved, Storage::Register);
  return true;
}

bool FormSqueezedT(CallContext& c, ExprInfo& out) {
  const Type* t = c.TypeOf(Param::T);
  bool given;
  out.type = c.types.Tile(t->elem, SqueezedShape(t->shape, SqueezeList(c, given)), Storage::Register);
  return true;
}

bool FormTransposeOfA(CallContext& c, ExprInfo& out) {
  const Type* t = c.TypeOf(Param::A);
  out.type = c.types.Tile(t->elem, {t->shape[1], t->shape[0]}, Storage::Register);
  return true;
}

bool FormTileMap(CallContext& c, ExprInfo& out) {
  out.type = c.types.Tile(c.map_elem->AsElem(), c.TypeOf(Param::A)->shape, Storage::Register);
  return true;
}

bool FormTileElement(CallContext& c, ExprInfo& out) {
  out.type = c.types.FromElem(c.TypeOf(Param::T)->elem);
  return true;
}

bool FormTileArith(CallContext& c, ExprInfo& out) {
  // Operators bind positionally: the tile is the first operand unless that is the scalar.
  const Type* tile = c.args[0].info.type->IsTile() ? c.args[0].info.type : c.args[1].info.type;
  ElemType elem = tile->elem;
  // A vector or matrix on either side makes the elements vectors or matrices.
  for (const CallArg& a : c.args) {
    const Type* t = a.info.type->IsTile() ? c.types.FromElem(a.info.type->elem) : a.info.type;
    if (c.checker.CompositeOf(t)) elem = t->AsElem();
  }
  out.type = c.types.Tile(elem, tile->shape, Storage::Register);
  return true;
}

bool FormTileOfDType(CallContext& c, ExprInfo& out) {
  out.type = c.types.Tile(c.Const(Param::DType)->type->AsElem(), c.TypeOf(Param::T)->shape, Storage::Register);
  return true;
}

bool FormOneInt32(CallContext& c, ExprInfo& out) {
  out.type = c.types.Tile(c.types.Int32()->AsElem(), {1}, Storage::Register);
  return true;
}

bool FormElementOfA(CallContext& c, ExprInfo& out) {
  out.type = c.types.FromElem(c.TypeOf(Param::A)->elem);
  return true;
}

bool FormTid(CallContext& c, ExprInfo& out) {
  const ast::Expr* node = c.node;
  out.provenance =
      Provenance{"`" + c.checker.Text(node) + "` is the launch index, known only at run time", node->range, true};
  if (!c.fn() || !c.fn()->is_kernel) {
    if (c.fn())
      c.Error(Code::TidOutsideKernel, node->range, "`wp.tid()` can only be called in a kernel, not in a `@wp.func`");
    return false;
  }
  int n = c.TidUnpack();
  // In a hybrid launch every coordinate is the thread's; otherwise the block's (the last of
  // several names may be the lane: CheckAssign marks it).
  out.uniform = !c.checker.options().hybrid_launch;
  out.type = n > 1 ? c.types.Tuple(std::vector<const Type*>(n, c.types.Int32())) : c.types.Int32();
  c.fn()->tid_ndim = std::max(c.fn()->tid_ndim, n);
  return true;
}

bool FormArrayElement(CallContext& c, ExprInfo& out) {
  out.type = c.types.FromElem(ArrayOf(c)->elem);
  return true;
}

bool FormSameAsFirst(CallContext& c, ExprInfo& out) {
  out.type = c.args[0].info.type;
  return true;
}

bool FormAbs(CallContext& c, ExprInfo& out) {
  out.type = c.args[0].info.type;
  if (c.args[0].info.value) {
    out.value = c.args[0].info.value;
    if (out.value->AsDouble() < 0) {
      std::string err;
      out.value = FoldUnary(ast::UnaryOp::Neg, *out.value, err);
    }
    out.weak = c.args[0].info.weak;
  }
  return true;
}

bool FormCommonNumeric(CallContext& c, ExprInfo& out) {
  out.type = c.common;
  return true;
}

// min/max of constants fold to the winning argument, keeping its kind (int or float).
bool FoldExtremum(CallContext& c, ExprInfo& out, bool want_min) {
  out.type = c.common;
  for (const CallArg& a : c.args)
    if (!a.info.value.has_value() || !a.info.value->IsNumber()) return true;
  ConstValue best = *c.args[0].info.value;
  for (const CallArg& a : c.args) {
    double x = a.info.value->AsDouble();
    if (want_min ? x < best.AsDouble() : x > best.AsDouble()) best = *a.info.value;
  }
  out.value = best;
  out.weak = true;
  for (const CallArg& a : c.args) out.weak &= a.info.weak;
  return true;
}
bool FormCommonMin(CallContext& c, ExprInfo& out) { return FoldExtremum(c, out, true); }
bool FormCommonMax(CallContext& c, ExprInfo& out) { return FoldExtremum(c, out, false); }

bool FormCastTarget(CallContext& c, ExprInfo& out) {
  out.type = c.types.Float32();
  return true;
}

bool FormRange(CallContext& c, ExprInfo& out) {
  out.type = c.types.RangeType();
  return true;
}

bool FormBool(CallContext& c, ExprInfo& out) {
  out.type = c.types.Bool();
  return true;
}

bool FormInt32(CallContext& c, ExprInfo& out) {
  out.type = c.types.Int32();
  return true;
}

bool FormLaneId(CallContext& c, ExprInfo& out) {
  out.type = c.types.Int32();
  out.uniform = false;
  out.provenance =
      Provenance{"`" + c.checker.Text(c.node) + "` differs between the threads of a block", c.node->range, true};
  return true;
}

}  // namespace

namespace rules {
using P = Param;
const RuleSpec ShapeValid{"ShapeValid", {Code::InvalidTileShape}, {P::Shape}, &sema::ShapeValid};
const RuleSpec StorageValid{"StorageValid", {Code::InvalidStorage}, {P::Storage}, &sema::StorageValid};
const RuleSpec ShapeRankEqArray{"ShapeRankEqArray", {Code::ShapeRankMismatch}, {P::A, P::Shape},
                                &sema::ShapeRankEqArray};
const RuleSpec OffsetRankEqArray{"OffsetRankEqArray", {Code::OffsetRankMismatch}, {P::A, P::Offset},
                                 &sema::OffsetRankEqArray};
const RuleSpec TileRankEqArray{"TileRankEqArray", {Code::TileRankMismatch}, {P::A, P::T}, &sema::TileRankEqArray};
const RuleSpec DTypeEq{"DTypeEq", {Code::DTypeMismatch}, {P::A, P::T}, &sema::DTypeEq};
const RuleSpec AtomicDType{"AtomicDType", {Code::AtomicAddUnsupportedDType}, {P::T}, &sema::AtomicDType};
const RuleSpec AxisInRange{"AxisInRange", {Code::AxisOutOfRange}, {P::A, P::Axis}, &sema::AxisInRange};
const RuleSpec IndexTile{"IndexTile",
                         {Code::IndexTileNot1D, Code::IndexTileNotInt32, Code::IndexTileLengthMismatch},
                         {P::Indices, P::Axis},
                         &sema::IndexTile,
                         &PromoteIndexTile};
const RuleSpec TilesSameShape{"TilesSameShape", {Code::TileShapeMismatch}, {P::Lhs, P::Rhs}, &sema::TilesSameShape};
const RuleSpec TilesSameDType{"TilesSameDType", {Code::TileDTypeMismatch}, {P::Lhs, P::Rhs}, &sema::TilesSameDType};
const RuleSpec TilesScaleCompatible{"TilesScaleCompatible", {Code::TileOperatorUnsupported, Code::TileDTypeMismatch},
                                    {P::Lhs, P::Rhs}, &sema::TilesScaleCompatible};
const RuleSpec ScalarMatchesTile{"ScalarMatchesTile", {Code::TileDTypeMismatch, Code::TileOperatorUnsupported}, {P::Lhs, P::Rhs},
                                 &sema::ScalarMatchesTile};
const RuleSpec NumericTile{"NumericTile", {Code::StructTileUnsupported, Code::TileOperatorUnsupported}, {},
                           &sema::NumericTile};
const RuleSpec OrderedElemTile{"OrderedElemTile", {Code::StructTileUnsupported, Code::TileOperatorUnsupported},
                               {P::A}, &sema::OrderedElemTile};
const RuleSpec Tile2D{"Tile2D", {Code::TransposeNeeds2DTile}, {P::A}, &sema::Tile2D};
const RuleSpec TileAxisInRange{"TileAxisInRange", {Code::AxisOutOfRange}, {P::A, P::Axis}, &sema::TileAxisInRange};
const RuleSpec ScanDType{"ScanDType", {Code::ScanUnsupportedDType}, {P::A}, &sema::ScanDType};
const RuleSpec BroadcastShape{"BroadcastShape", {Code::InvalidTileShape, Code::BroadcastShapeMismatch},
                              {P::A, P::Shape}, &sema::BroadcastShape};
const RuleSpec ReshapeShape{"ReshapeShape", {Code::InvalidTileShape, Code::BadReshape}, {P::T, P::Shape},
                            &sema::ReshapeShape};
const RuleSpec SqueezeAxes{"SqueezeAxes", {Code::AxisOutOfRange, Code::SqueezeNonUnitAxis, Code::InvalidTileShape},
                           {P::T}, &sema::SqueezeAxes};
const RuleSpec TileIndexCount{"TileIndexCount", {Code::TileIndexCount, Code::BadTileRegion}, {P::T, P::Index}, &sema::TileIndexCount};
const RuleSpec IntElemTile{"IntElemTile", {Code::StructTileUnsupported, Code::TileOperatorUnsupported}, {},
                           &sema::IntElemTile};
const RuleSpec DotOperands{"DotOperands", {Code::TileShapeMismatch, Code::TileDTypeMismatch}, {P::A, P::B},
                           &sema::DotOperands};
const RuleSpec AxpyArgs{"AxpyArgs", {Code::TileShapeMismatch, Code::TileDTypeMismatch, Code::InPlaceTargetNotVariable},
                        {P::Alpha, P::Src, P::Dest}, &sema::AxpyArgs, &sema::CommitAxpy};
const RuleSpec ExtractIndexCount{"ExtractIndexCount", {Code::TileIndexCount, Code::BadTileRegion}, {P::A, P::I}, &sema::ExtractIndexCount};
const RuleSpec AstypeTypes{"AstypeTypes", {Code::StructTileUnsupported, Code::TileOperatorUnsupported},
                           {P::T, P::DType}, &sema::AstypeTypes};
}  // namespace rules

namespace results {
using P = Param;
const ResultSpec Void{"Void", {}, &FormVoid};
const ResultSpec TileFromShapeDType{"TileFromShapeDType", {P::Shape, P::DType, P::Storage}, &FormTileFromShapeDType};
const ResultSpec TileArange{"TileArange", {P::Stop, P::DType, P::Storage}, &FormTileArange};
const ResultSpec TileFromArrayShape{"TileFromArrayShape", {P::A, P::Shape, P::Storage}, &FormTileFromArrayShape};
const ResultSpec TileLikeT{"TileLikeT", {P::T}, &FormTileLikeT};
const ResultSpec OneElementOfT{"OneElementOfT", {P::T}, &FormOneElementOfT};
const ResultSpec OneElementOfA{"OneElementOfA", {P::A}, &FormOneElementOfA};
const ResultSpec OneScalarOfA{"OneScalarOfA", {P::A}, &FormOneScalarOfA};
const ResultSpec ReducedAlongAxis{"ReducedAlongAxis", {P::A, P::Axis}, &FormReducedAlongAxis};
const ResultSpec RegisterLikeA{"RegisterLikeA", {P::A}, &FormRegisterLikeA};
const ResultSpec BroadcastTo{"BroadcastTo", {P::A, P::Shape}, &FormBroadcastTo};
const ResultSpec ReshapedT{"ReshapedT", {P::T, P::Shape}, &FormReshapedT};
const ResultSpec SqueezedT{"SqueezedT", {P::T}, &FormSqueezedT};
const ResultSpec TransposeOfA{"TransposeOfA", {P::A}, &FormTransposeOfA};
const ResultSpec TileMap{"TileMap", {P::Op, P::A}, &FormTileMap};
const ResultSpec TileElement{"TileElement", {P::T}, &FormTileElement};
const ResultSpec TileArith{"TileArith", {}, &FormTileArith};
const ResultSpec TileOfDType{"TileOfDType", {P::T, P::DType}, &FormTileOfDType};
const ResultSpec OneInt32{"OneInt32", {}, &FormOneInt32};
const ResultSpec ElementOfA{"ElementOfA", {P::A}, &FormElementOfA};
const ResultSpec Tid{"Tid", {}, &FormTid};
const ResultSpec ArrayElement{"ArrayElement", {P::A}, &FormArrayElement};
const ResultSpec SameAsFirst{"SameAsFirst", {}, &FormSameAsFirst};
const ResultSpec Abs{"Abs", {}, &FormAbs};
const ResultSpec CommonNumeric{"CommonNumeric", {}, &FormCommonNumeric};
const ResultSpec CommonMin{"CommonMin", {}, &FormCommonMin};
const ResultSpec CommonMax{"CommonMax", {}, &FormCommonMax};
const ResultSpec CastTarget{"CastTarget", {}, &FormCastTarget};
const ResultSpec Range{"Range", {}, &FormRange};
const ResultSpec LaneId{"LaneId", {}, &FormLaneId};
const ResultSpec Bool{"Bool", {}, &FormBool};
const ResultSpec Int32{"Int32", {}, &FormInt32};
}  // namespace results

}  // namespace tilec::sema
