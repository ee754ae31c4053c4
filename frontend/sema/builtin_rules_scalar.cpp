// The rules of the scalar builtins that need one of their own: the atomics (the index count,
// the element types each kind takes, the value's conversion), the common type of min/max-like
// calls, and the compile-time results of wp.static and len.
#include "frontend/sema/builtin_rules.h"
#include "frontend/sema/checker.h"

namespace tilec::sema {

using diag::Code;

std::string Dimensions(int n);

namespace {

const Type* ArrayOf(CallContext& c) { return c.TypeOf(Param::A); }

// ---------------------------------------------------------------- scalar builtins

bool AtomicIndexRank(CallContext& c) {
  int nidx = int(c.overload.params.size()) - 2;
  const Type* array = ArrayOf(c);
  CallArg& v = c.Arg(Param::Value);
  if (array->ndim != nidx) {
    c.Error(Code::BadIndex, c.Range(Param::A),
            "array " + c.Quoted(Param::A) + " has " + Dimensions(array->ndim) + " but `wp.atomic_add` got " +
                std::to_string(nidx) + " index" + (nidx == 1 ? "" : "es"));
    return false;
  }
  if (array->elem.is_struct()) {
    // Vectors and matrices add component by component, as in Warp; other structs do not.
    const Composite* k = c.checker.CompositeOf(c.types.FromElem(array->elem));
    if (!k || !SupportsAtomicAdd(k->scalar)) {
      c.Error(Code::AtomicAddUnsupportedDType, c.Range(Param::A),
              "`wp.atomic_add` does not support arrays of struct `" + array->elem_struct_name +
                  "`; it adds scalars, vectors and matrices");
      return false;
    }
  } else if (!SupportsAtomicAdd(array->elem.scalar)) {
    c.Error(Code::AtomicAddUnsupportedDType, c.Range(Param::A),
            "`wp.atomic_add` only supports int32, uint32, int64, uint64, float16, bfloat16, float32 and float64, not `" +
                std::string(ScalarName(array->elem.scalar)) + "`");
    return false;
  }
  if (c.checker.Convert(v.expr, v.info, c.types.FromElem(array->elem))) return true;
  c.Error(Code::ArgumentTypeMismatch, v.range,
          "`value` of `wp.atomic_add` must be `" + ElemName(array->elem, array->elem_struct_name) +
              "` (the array's dtype), found `" + TypeName(v.info.type) + "`");
  return false;
}

bool AtomicRmwArgs(CallContext& c) {
  const ir::AtomicKind kind = c.builtin.lower.rmw;
  int nidx = 0;
  for (const ParamSpec& p : c.overload.params)
    nidx += p.id == Param::I || p.id == Param::J || p.id == Param::K || p.id == Param::L;
  const Type* array = ArrayOf(c);
  if (array->ndim != nidx) {
    c.Error(Code::BadIndex, c.Range(Param::A),
            "array " + c.Quoted(Param::A) + " has " + Dimensions(array->ndim) + " but " + c.bname + " got " +
                std::to_string(nidx) + " index" + (nidx == 1 ? "" : "es"));
    return false;
  }
  if (array->elem.is_struct()) {
    // Vectors and matrices go component by component, as Warp's vec.h and mat.h overloads do.
    const Composite* k = c.checker.CompositeOf(c.types.FromElem(array->elem));
    if (!k || !ir::AtomicKindSupportsComposite(kind, *k)) {
      bool whole = kind == ir::AtomicKind::Exch || kind == ir::AtomicKind::Cas;
      c.Error(Code::AtomicUnsupportedDType, c.Range(Param::A),
              c.bname + " does not support arrays of `" + ElemName(array->elem, array->elem_struct_name) +
                  "`; it takes " + ir::AtomicKindTypeList(kind) +
                  (whole ? " scalars, as Warp's GPU build does" : " and " + ir::AtomicKindCompositeList(kind) +
                                                                       " of them (as in Warp)"));
      return false;
    }
  } else if (!ir::AtomicKindSupports(kind, array->elem.scalar)) {
    c.Error(Code::AtomicUnsupportedDType, c.Range(Param::A),
            c.bname + " does not support arrays of `" + std::string(ScalarName(array->elem.scalar)) + "`; it takes " +
                ir::AtomicKindTypeList(kind) + " (as in Warp)");
    return false;
  }
  const Type* elem = c.types.FromElem(array->elem);
  for (Param p : {Param::Compare, Param::Value}) {
    if (c.overload.Index(p) < 0) continue;
    CallArg& v = c.Arg(p);
    if (c.checker.Convert(v.expr, v.info, elem)) continue;
    c.Error(Code::ArgumentTypeMismatch, v.range,
            "`" + std::string(ParamName(p)) + "` of " + c.bname + " must be `" + TypeName(elem) +
                "` (the array's dtype), found `" + TypeName(v.info.type) + "`");
    return false;
  }
  return true;
}

bool TupleArg(CallContext& c) {
  CallArg& x = c.Arg(Param::Expr);
  if (x.info.type->kind == TypeKind::Tuple || x.info.type->IsTile() || c.checker.CompositeOf(x.info.type)) return true;
  c.Error(Code::LenNeedsTuple, x.range,
          "`len` in a kernel takes a tuple (a shape, a tuple constant), a tile, a vector or a matrix, found `" +
              TypeName(x.info.type) + "`");
  return false;
}

// Two values of one type; a literal takes the other's. The common type is theirs.
bool OneType(CallContext& c, CallArg& a, CallArg& b) {
  if (a.info.type != b.info.type && !(a.info.weak && c.checker.Convert(a.expr, a.info, b.info.type)) &&
      !(b.info.weak && c.checker.Convert(b.expr, b.info, a.info.type))) {
    c.Error(Code::OperandTypeMismatch, b.range,
            "the values of " + c.bname + " must have one type: `" + TypeName(a.info.type) + "` and `" +
                TypeName(b.info.type) + "`");
    return false;
  }
  c.common = a.info.type;
  return true;
}

// Warp's where: a bool or integer condition (not a float), two values of one type; a literal
// takes the other value's type. Tiles are selected with `a if c else b` in tilec.
bool WhereArgs(CallContext& c) {
  CallArg& cond = c.Arg(Param::Cond);
  if (cond.info.type->IsFloatScalar()) {
    c.Error(Code::ArgumentTypeMismatch, cond.range,
            "`cond` of " + c.bname + " must be a bool or an integer, found `" + TypeName(cond.info.type) + "`");
    return false;
  }
  CallArg& a = c.Arg(Param::ValueIfTrue);
  CallArg& b = c.Arg(Param::ValueIfFalse);
  for (CallArg* v : {&a, &b})
    if (!(v->info.type->IsScalar() || v->info.type->kind == TypeKind::Struct)) {
      c.Error(Code::ArgumentTypeMismatch, v->range,
              c.bname + " selects scalars, vectors, matrices or structs, found `" + TypeName(v->info.type) +
                  "` (tiles: `a if cond else b`)");
      return false;
    }
  return OneType(c, a, b);
}

bool CommonNumericArgs(CallContext& c) {
  for (CallArg& a : c.args)
    if (!a.info.weak) {
      c.common = a.info.type;
      break;
    }
  if (!c.common) {
    c.common = c.types.Int32();
    for (CallArg& a : c.args)
      if (a.info.type->IsFloatScalar()) c.common = c.types.Float32();
  }
  for (CallArg& a : c.args) {
    if (c.checker.Convert(a.expr, a.info, c.common)) continue;
    c.Error(Code::OperandTypeMismatch, a.range,
            "arguments of " + c.bname + " must have one type: `" + TypeName(c.common) + "` and `" +
                TypeName(a.info.type) + "`");
    return false;
  }
  return true;
}

// Warp's expect_eq/expect_neq: two numbers of one type (a literal takes the other's), two
// bools, or two vectors or matrices of one type.
bool ExpectArgs(CallContext& c) {
  CallArg& a = c.Arg(Param::A);
  CallArg& b = c.Arg(Param::B);
  if (a.info.type->IsNumeric() && b.info.type->IsNumeric()) return CommonNumericArgs(c);
  for (CallArg* v : {&a, &b})
    if (!(v->info.type->IsScalar() || c.checker.CompositeOf(v->info.type))) {
      c.Error(Code::ArgumentTypeMismatch, v->range,
              c.bname + " compares numbers, bools, vectors or matrices, found `" + TypeName(v->info.type) + "`");
      return false;
    }
  return OneType(c, a, b);
}

// Warp's expect_near: two floats, or two float vectors, quaternions or matrices, of one type
// (a literal takes the other's); the tolerance is a float of their component type.
bool NearArgs(CallContext& c) {
  CallArg& a = c.Arg(Param::A);
  CallArg& b = c.Arg(Param::B);
  for (CallArg* v : {&a, &b}) {
    const Composite* k = c.checker.CompositeOf(v->info.type);
    const bool is_float = v->info.type->IsFloatScalar() || (k && IsFloat(k->scalar));
    if (!is_float) {
      c.Error(Code::ArgumentTypeMismatch, v->range,
              c.bname + " compares floats or float vectors, quaternions or matrices, found `" +
                  TypeName(v->info.type) + "`");
      return false;
    }
  }
  if (!OneType(c, a, b)) return false;
  if (!c.Has(Param::Tolerance)) return true;
  CallArg& tol = c.Arg(Param::Tolerance);
  const Composite* k = c.checker.CompositeOf(c.common);
  const Type* want = k ? c.types.Scalar(k->scalar) : c.common;
  if (tol.info.type != want && !(tol.info.weak && c.checker.Convert(tol.expr, tol.info, want))) {
    c.Error(Code::ArgumentTypeMismatch, tol.range,
            "`tolerance` of " + c.bname + " must be a `" + TypeName(want) + "`, found `" + TypeName(tol.info.type) + "`");
    return false;
  }
  return true;
}

bool FormStaticValue(CallContext& c, ExprInfo& out) {
  const CallArg& x = c.Arg(Param::Expr);
  out.type = x.info.type;
  out.value = x.info.value;
  out.weak = x.info.weak;
  return true;
}

bool FormTupleLength(CallContext& c, ExprInfo& out) {
  out.type = c.types.Int32();
  // A tile's first extent and a vector's length or a matrix's rows are compile-time too.
  const Type* t = c.Arg(Param::Expr).info.type;
  int64_t n = int64_t(t->elems.size());
  if (t->IsTile()) n = t->shape[0];
  else if (const Composite* k = c.checker.CompositeOf(t)) n = k->is_matrix() ? k->rows : k->length();
  out.value = ConstValue::MakeInt(n);
  out.weak = true;
  return true;
}

}  // namespace

namespace rules {
using P = Param;
const RuleSpec AtomicIndexRank{"AtomicIndexRank",
                               {Code::BadIndex, Code::AtomicAddUnsupportedDType, Code::ArgumentTypeMismatch},
                               {P::A, P::Value},
                               &sema::AtomicIndexRank};
const RuleSpec WhereArgs{"WhereArgs", {Code::ArgumentTypeMismatch, Code::OperandTypeMismatch}, {Param::Cond, Param::ValueIfTrue, Param::ValueIfFalse}, &sema::WhereArgs};
const RuleSpec CommonNumericArgs{"CommonNumericArgs", {Code::OperandTypeMismatch}, {}, &sema::CommonNumericArgs};
const RuleSpec NearArgs{"NearArgs", {Code::OperandTypeMismatch, Code::ArgumentTypeMismatch}, {Param::A, Param::B}, &sema::NearArgs};
const RuleSpec ExpectArgs{"ExpectArgs", {Code::OperandTypeMismatch, Code::ArgumentTypeMismatch}, {Param::A, Param::B}, &sema::ExpectArgs};
const RuleSpec AtomicRmwArgs{"AtomicRmwArgs",
                             {Code::BadIndex, Code::AtomicUnsupportedDType, Code::ArgumentTypeMismatch},
                             {P::A, P::Value},
                             &sema::AtomicRmwArgs};
const RuleSpec TupleArg{"TupleArg", {Code::LenNeedsTuple}, {P::Expr}, &sema::TupleArg};
}  // namespace rules

namespace results {
using P = Param;
const ResultSpec StaticValue{"StaticValue", {P::Expr}, &FormStaticValue};
const ResultSpec TupleLength{"TupleLength", {P::Expr}, &FormTupleLength};
}  // namespace results

}  // namespace tilec::sema
