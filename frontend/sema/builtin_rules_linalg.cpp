// The rules of Warp's dense linear-algebra tile builtins: tile_diag_add, tile_cholesky,
// tile_cholesky_solve, tile_lower_solve and tile_upper_solve (their operand shapes and dtypes,
// the constant fill_mode), and the type of their results: new tiles in shared storage; and
// those of tile_fft and tile_ifft, which transform a complex register tile in place.
#include "frontend/sema/builtin_rules.h"
#include "frontend/sema/checker.h"

namespace tilec::sema {

using diag::Code;

std::string DimsText(const std::vector<int64_t>& d);

namespace {

bool IsFloat32Or64(const Type* t) {
  return !t->elem.is_struct() && (t->elem.scalar == ScalarType::Float32 || t->elem.scalar == ScalarType::Float64);
}

bool IsSquare(const Type* t) { return t->ndim == 2 && t->shape[0] == t->shape[1]; }

// The matrix parameter of the row: `A` (tile_cholesky), `L` or `U` (the solves).
Param MatrixParam(CallContext& c) {
  if (c.Has(Param::MatA)) return Param::MatA;
  if (c.Has(Param::MatU)) return Param::MatU;
  return Param::MatL;
}

bool DiagAddArgs(CallContext& c) {
  const Type* a = c.TypeOf(Param::A);
  const Type* d = c.TypeOf(Param::D);
  if (!IsSquare(a) || a->elem.is_struct() || a->elem.scalar == ScalarType::Bool) {
    c.Error(Code::BadTileLinalg, c.Range(Param::A),
            c.bname + " needs a square tile of numbers, but " + c.Quoted(Param::A) + " is `" + TypeName(a) + "`");
    return false;
  }
  if (d->ndim != 1 || d->shape[0] != a->shape[0] || !(d->elem == a->elem)) {
    c.Error(Code::BadTileLinalg, c.Range(Param::D),
            c.bname + ": `d` must be a tile `(" + std::to_string(a->shape[0]) + ",)` of `a`'s dtype, but " +
                c.Quoted(Param::D) + " is `" + TypeName(d) + "`");
    return false;
  }
  return true;
}

bool LinalgArgs(CallContext& c) {
  const Param mp = MatrixParam(c);
  const Type* m = c.TypeOf(mp);
  if (!IsSquare(m) || !IsFloat32Or64(m)) {
    c.Error(Code::BadTileLinalg, c.Range(mp),
            c.bname + " needs a square tile of float32 or float64, but " + c.Quoted(mp) + " is `" + TypeName(m) + "`");
    return false;
  }
  if (!c.Has(Param::Y) && !c.Has(Param::Z)) return true;
  const Param yp = c.Has(Param::Y) ? Param::Y : Param::Z;
  const Type* y = c.TypeOf(yp);
  if ((y->ndim != 1 && y->ndim != 2) || y->shape[0] != m->shape[0] || !(y->elem == m->elem)) {
    c.Error(Code::BadTileLinalg, c.Range(yp),
            c.bname + ": `" + ParamName(yp) + "` must be `(" + std::to_string(m->shape[0]) + ",)` or `(" +
                std::to_string(m->shape[0]) + ", NRHS)` of the matrix's dtype, but " + c.Quoted(yp) + " is `" +
                TypeName(y) + "`");
    return false;
  }
  return true;
}

bool FillModeValid(CallContext& c) {
  const ConstValue* f = c.Const(Param::FillMode);
  if (!f || (f->kind == ConstValue::Kind::String && (f->s == "lower" || f->s == "upper"))) return true;
  c.Error(Code::InvalidFillMode, c.Range(Param::FillMode),
          "invalid fill_mode `" + FormatConst(*f) + "` (expected `'lower'` or `'upper'`)");
  return false;
}

// Warp's conditions, in its order: a register tile of vec2f or vec2d (complex numbers) with a
// batch dimension at least; it is transformed in place.
bool FftArgs(CallContext& c) {
  const Type* t = c.TypeOf(Param::Inout);
  const Composite* k = t->elem.is_struct() ? c.checker.CompositeOf(c.types.FromElem(t->elem)) : nullptr;
  std::string why;
  if (t->storage != Storage::Register)
    why = "a tile in register storage, but " + c.Quoted(Param::Inout) + " is `" + TypeName(t) + "`";
  else if (!k || k->kind != CompositeKind::Vector || k->rows != 2 ||
           (k->scalar != ScalarType::Float32 && k->scalar != ScalarType::Float64))
    why = "a tile of vec2f or vec2d (complex numbers), but " + c.Quoted(Param::Inout) + " holds `" +
          ElemName(t->elem, t->elem.is_struct() ? c.types.StructName(t->elem.struct_index) : "") + "`";
  else if (t->ndim < 2)
    why = "a tile of 2 or more dimensions (batches, then the transform), but " + c.Quoted(Param::Inout) + " is `" +
          TypeName(t) + "`";
  if (!why.empty()) {
    c.Error(Code::BadTileFft, c.Range(Param::Inout), c.bname + " needs " + why);
    return false;
  }
  if (!c.checker.InPlaceRoot(c.Arg(Param::Inout).expr)) {
    c.Error(Code::InPlaceTargetNotVariable, c.Range(Param::Inout),
            c.Quoted(Param::Inout) + " of " + c.bname + " is transformed in place, so it must be a tile variable or a view of one");
    return false;
  }
  return true;
}

// The _inplace solvers write into the right-hand side (the factor into `A`): a variable.
bool InPlaceLinalgTarget(CallContext& c) {
  const Param p = c.Has(Param::Y) ? Param::Y : c.Has(Param::Z) ? Param::Z : Param::MatA;
  if (c.checker.InPlaceRoot(c.Arg(p).expr)) return true;
  c.Error(Code::InPlaceTargetNotVariable, c.Range(p),
          c.Quoted(p) + " of " + c.bname + " is overwritten with the result, so it must be a tile variable or a view of one");
  return false;
}

bool FormLinalgResult(CallContext& c, ExprInfo& out) {
  const Type* t = c.Has(Param::Y)   ? c.TypeOf(Param::Y)
                  : c.Has(Param::Z) ? c.TypeOf(Param::Z)
                  : c.Has(Param::A) ? c.TypeOf(Param::A) : c.TypeOf(MatrixParam(c));
  out.type = c.types.Tile(t->elem, t->shape, Storage::Shared);
  return true;
}

}  // namespace

namespace rules {
const RuleSpec DiagAddArgs{"DiagAddArgs", {Code::BadTileLinalg}, {Param::A, Param::D}, &sema::DiagAddArgs};
const RuleSpec LinalgArgs{"LinalgArgs", {Code::BadTileLinalg}, {}, &sema::LinalgArgs};
const RuleSpec FftArgs{"FftArgs", {Code::BadTileFft, Code::InPlaceTargetNotVariable}, {Param::Inout}, &sema::FftArgs};
const RuleSpec InPlaceLinalgTarget{"InPlaceLinalgTarget", {Code::InPlaceTargetNotVariable}, {}, &sema::InPlaceLinalgTarget};
const RuleSpec FillModeValid{"FillModeValid", {Code::InvalidFillMode}, {Param::FillMode}, &sema::FillModeValid};
}  // namespace rules

namespace results {
const ResultSpec LinalgResult{"LinalgResult", {}, &FormLinalgResult};
}  // namespace results

}  // namespace tilec::sema
