// The rules of the tile constructors: tile_arange's range, counted at its output type
// (Warp's rules for bounds, steps and counts), the scalar dtypes of tile_zeros/ones/arange,
// and tile_full's value, whose type is the dtype unless one is given.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "frontend/sema/builtin_rules.h"
#include "frontend/sema/checker.h"
#include "support/half.h"

namespace tilec::sema {

using diag::Code;

namespace {

// A range bound as the output type holds it: the tile's elements are computed in that type,
// so its length is counted from these values, not from the ones written. nullopt after an
// error: a bound the type cannot hold is refused, never wrapped or truncated.
std::optional<double> ArangeBound(CallContext& c, Param p, const ConstValue& v, __int128 exact, ScalarType dt) {
  const ast::IntLit* lit = c.overload.Index(p) >= 0 && c.Has(p) ? c.Arg(p).expr->As<ast::IntLit>() : nullptr;
  const std::string written =
      c.bname + " " + std::string(ParamName(p)) + "=" + (lit ? c.checker.Text(lit) : FormatConst(v));
  auto out_of_range = [&] {
    c.Error(Code::InvalidArange, c.Range(p),
            written + " is out of range for the output type `" + std::string(ScalarName(dt)) + "`");
    return std::nullopt;
  };
  if (IsInteger(dt)) {
    double x = v.AsDouble();
    if (v.kind == ConstValue::Kind::Float && x != std::floor(x)) {
      c.Error(Code::InvalidArange, c.Range(p),
              written + " has a fractional part, which the integer output type `" +
                  std::string(ScalarName(dt)) + "` cannot represent");
      return std::nullopt;
    }
    const int bits = int(ScalarSize(dt)) * 8;
    const bool is_signed = IsSigned(dt);
    if (v.kind == ConstValue::Kind::Int) {  // compared exactly: 2**63 - 1 is no double
      const __int128 iv = exact, one = 1;
      const __int128 lo = is_signed ? -(one << (bits - 1)) : 0, hi = one << (is_signed ? bits - 1 : bits);
      if (iv < lo || iv >= hi) return out_of_range();
      return double(v.AsInt());
    }
    const double lo = is_signed ? -std::ldexp(1.0, bits - 1) : 0.0;
    const double hi = std::ldexp(1.0, is_signed ? bits - 1 : bits);  // exclusive
    if (!(x >= lo && x < hi)) return out_of_range();
    return x;
  }
  // An integer rounds straight to a float32 bound (through double it could round twice).
  double r = v.kind == ConstValue::Kind::Int && dt == ScalarType::Float32 ? double(float(v.AsInt()))
                                                                          : RoundToFloatType(v.AsDouble(), dt);
  if (std::isfinite(v.AsDouble()) && !std::isfinite(r)) return out_of_range();
  return r;
}

// tile_arange(start, stop, step): Python's range at the output type (Warp's rules): bounds
// the type holds, a nonzero step, at least one element, and a count that fits.
bool ArangeLength(CallContext& c) {
  const Type* dtype = c.Const(Param::DType)->type;
  if (!dtype->IsNumeric()) {
    c.Error(Code::InvalidArange, c.Range(Param::DType),
            c.bname + " requires a numeric scalar dtype, but got `" + TypeName(dtype) + "`");
    return false;
  }
  const ScalarType dt = dtype->scalar;
  const ConstValue zero = ConstValue::MakeInt(0), one = ConstValue::MakeInt(1);
  const ConstValue* s0 = c.Const(Param::Start);
  const ConstValue* s1 = c.Const(Param::Stop);
  const ConstValue* st = c.Const(Param::Step);
  // Integers exactly as written: a literal past 2**63 - 1 (up to 2**64 - 1) from its text.
  auto exact = [&](Param p, const ConstValue* v, int64_t dflt) -> __int128 {
    if (!v) return dflt;
    if (c.overload.Index(p) >= 0 && c.Has(p))
      if (const auto* lit = c.Arg(p).expr->As<ast::IntLit>()) return __int128(lit->value);
    return v->kind == ConstValue::Kind::Int ? __int128(v->AsInt()) : __int128(0);
  };
  const __int128 a = exact(Param::Start, s0, 0), b = exact(Param::Stop, s1, 0), h = exact(Param::Step, st, 1);
  std::optional<double> start = ArangeBound(c, Param::Start, s0 ? *s0 : zero, a, dt);
  if (!start) return false;
  std::optional<double> stop = ArangeBound(c, Param::Stop, *s1, b, dt);
  if (!stop) return false;
  std::optional<double> step = ArangeBound(c, Param::Step, st ? *st : one, h, dt);
  if (!step) return false;
  // Integer outputs compare and count exactly (bounds of floats are whole numbers by now).
  const bool ints = IsInteger(dt);
  auto whole = [&](const ConstValue* v, __int128 e, double d) {
    return v && v->kind == ConstValue::Kind::Int ? e : __int128(d);
  };
  const __int128 ia = ints ? whole(s0, a, *start) : 0, ib = ints ? whole(s1, b, *stop) : 0,
                 ih = ints ? whole(st, h, *step) : 0;
  std::string range = "range(" + (s0 ? FormatConst(*s0) + ", " : "") + FormatConst(*s1) +
                      (st ? ", " + FormatConst(*st) : "") + ")";
  if (*step == 0) {
    c.Error(Code::InvalidArange, c.Range(Param::Step),
            c.bname + " step cannot be zero" +
                (st && st->AsDouble() != 0 ? " (`" + FormatConst(*st) + "` is zero as `" + std::string(ScalarName(dt)) + "`)"
                                           : std::string()));
    return false;
  }
  const bool empty = ints ? ((ih > 0 && ia >= ib) || (ih < 0 && ia <= ib))
                          : ((*step > 0 && *start >= *stop) || (*step < 0 && *start <= *stop));
  if (empty) {
    c.Error(Code::InvalidArange, c.Range(Param::Stop),
            c.bname + " requires a non-empty range, but `" + range +
                "` has no elements; a tile has no zero-length dimensions");
    return false;
  }
  double count;
  if (ints) {
    // Exact (a double would round 2**53 + 1 away).
    __int128 span = ih > 0 ? ib - ia : ia - ib, by = ih > 0 ? ih : -ih;
    count = double((span + by - 1) / by);
  } else {
    // The quotient rounded to the output type too: (0.0, 0.3, 0.1) in float32 divides to a
    // hair above 3, which must not make a fourth element.
    count = std::ceil(RoundToFloatType((*stop - *start) / *step, dt));
  }
  if (!std::isfinite(count) || count > double(int64_t(1) << 31)) {
    c.Error(Code::InvalidArange, c.Range(Param::Step),
            c.bname + " of `" + range + "` spans more elements than can be counted (" +
                (std::isfinite(count) ? FormatConst(ConstValue::MakeFloat(count)) : std::string("infinitely many")) +
                "); the step is too small for the range");
    return false;
  }
  c.arange_len = std::max<int64_t>(1, int64_t(count));
  return true;
}

bool ScalarDTypeWithHint(CallContext& c, const char* hint) {
  const ConstValue* d = c.Const(Param::DType);
  if (!d || !d->type || d->type->kind != TypeKind::Struct) return true;
  c.Error(Code::StructTileUnsupported, c.Range(Param::DType),
          c.bname + " does not support Warp struct dtype `" + d->type->struct_name + "`" + hint);
  return false;
}
bool ScalarDType(CallContext& c) { return ScalarDTypeWithHint(c, "; it takes a numeric scalar dtype"); }
bool OnesScalarDType(CallContext& c) { return ScalarDTypeWithHint(c, "; use `wp.tile_full` with a value"); }

bool FullValue(CallContext& c) {
  CallArg& v = c.Arg(Param::Value);
  // Without `dtype` the tile takes the value's type, as in Warp (a float literal: float32).
  if (!c.Has(Param::DType) && !v.info.type->IsTile() &&
      (v.info.type->IsNumeric() || c.checker.CompositeOf(v.info.type)))
    c.SetConst(Param::DType, ConstValue::MakeType(v.info.type));
  const Type* dt = c.Const(Param::DType)->type;
  if (c.checker.Convert(v.expr, v.info, dt)) return true;
  c.Error(Code::ArgumentTypeMismatch, v.range,
          "`value` of " + c.bname + " must be `" + TypeName(dt) + "` (the tile's dtype), found `" +
              TypeName(v.info.type) + "`");
  return false;
}

}  // namespace

namespace rules {
using P = Param;
const RuleSpec ArangeLength{"ArangeLength", {Code::InvalidArange}, {P::Stop}, &sema::ArangeLength};
const RuleSpec ScalarDType{"ScalarDType", {Code::StructTileUnsupported}, {P::DType}, &sema::ScalarDType};
const RuleSpec OnesScalarDType{"OnesScalarDType", {Code::StructTileUnsupported}, {P::DType},
                               &sema::OnesScalarDType};
const RuleSpec FullValue{"FullValue", {Code::ArgumentTypeMismatch}, {P::DType, P::Value}, &sema::FullValue};
}  // namespace rules

}  // namespace tilec::sema
