// NumPy 1.24 type promotion: the promote_types table and result_type's legacy value-based rule
// (a 0-d operand, such as a Python scalar, counts by its value when an n-d array is present and
// its kind is not higher than the arrays').
#include <cmath>

#include "host/ndarray/elements.h"

namespace tilec::host {

namespace {

int Kind(ScalarType t) { return t == ScalarType::Bool ? 0 : IsFloat(t) ? 2 : 1; }

ScalarType SignedOfSize(size_t size) {
  switch (size) {
    case 1: return ScalarType::Int8;
    case 2: return ScalarType::Int16;
    case 4: return ScalarType::Int32;
    default: return ScalarType::Int64;
  }
}

int FloatRank(ScalarType t) {
  switch (t) {
    case ScalarType::Float16: case ScalarType::BFloat16: return 1;
    case ScalarType::Float32: return 2;
    default: return 3;
  }
}

// The smallest float that holds every value of an integer type.
ScalarType FloatForInt(ScalarType t) {
  size_t size = ScalarSize(t);
  return size == 1 ? ScalarType::Float16 : size == 2 ? ScalarType::Float32 : ScalarType::Float64;
}

ScalarType PromoteFloats(ScalarType a, ScalarType b) {
  if (a == b) return a;
  int ra = FloatRank(a), rb = FloatRank(b);
  if (ra == rb) return ScalarType::Float32;  // float16 with bfloat16
  return ra > rb ? a : b;
}

struct MinType { ScalarType type; bool small_unsigned; };

// np.min_scalar_type, plus whether an unsigned answer also fits the same-size signed type.
MinType MinScalarType(const NdArray& a) {
  ScalarType t = a.dtype();
  Scalar v = a.Item();
  if (t == ScalarType::Bool) return {t, false};
  if (IsFloat(t)) {
    double x = v.AsDouble();
    if (t == ScalarType::BFloat16) return {t, false};
    if (!std::isfinite(x) || (x > -65000 && x < 65000)) return {ScalarType::Float16, false};
    if (x > -3.4e38 && x < 3.4e38) return {ScalarType::Float32, false};
    return {ScalarType::Float64, false};
  }
  bool negative = v.kind == Scalar::Kind::Int && v.i < 0;
  if (negative) {
    int64_t x = v.i;
    if (x >= INT8_MIN) return {ScalarType::Int8, false};
    if (x >= INT16_MIN) return {ScalarType::Int16, false};
    if (x >= INT32_MIN) return {ScalarType::Int32, false};
    return {ScalarType::Int64, false};
  }
  uint64_t x = v.AsUInt();
  if (x <= UINT8_MAX) return {ScalarType::UInt8, x <= INT8_MAX};
  if (x <= UINT16_MAX) return {ScalarType::UInt16, x <= INT16_MAX};
  if (x <= UINT32_MAX) return {ScalarType::UInt32, x <= INT32_MAX};
  return {ScalarType::UInt64, x <= INT64_MAX};
}

}  // namespace

ScalarType PromoteTypes(ScalarType a, ScalarType b) {
  if (a == b) return a;
  if (a == ScalarType::Bool) return b;
  if (b == ScalarType::Bool) return a;
  bool fa = IsFloat(a), fb = IsFloat(b);
  if (fa && fb) return PromoteFloats(a, b);
  if (fa) {
    ScalarType need = FloatForInt(b);
    if (a == ScalarType::BFloat16 && need == ScalarType::Float16) return a;
    return PromoteFloats(a, need);
  }
  if (fb) return PromoteTypes(b, a);
  bool sa = IsSigned(a), sb = IsSigned(b);
  size_t za = ScalarSize(a), zb = ScalarSize(b);
  if (sa == sb) return za >= zb ? a : b;
  ScalarType s = sa ? a : b, u = sa ? b : a;
  if (ScalarSize(s) > ScalarSize(u)) return s;
  if (ScalarSize(u) == 8) return ScalarType::Float64;
  return SignedOfSize(ScalarSize(u) * 2);
}

namespace {
// Whether result_type's value-based rule applies to the 0-d operands.
bool UsesMinScalar(std::span<const NdArray* const> operands) {
  bool has_array = false;
  int max_array_kind = -1, max_scalar_kind = -1;
  for (const NdArray* op : operands) {
    if (op->ndim() > 0) {
      has_array = true;
      max_array_kind = std::max(max_array_kind, Kind(op->dtype()));
    } else {
      max_scalar_kind = std::max(max_scalar_kind, Kind(op->dtype()));
    }
  }
  return has_array && max_array_kind >= max_scalar_kind;
}

bool CanCastSafely(const NdArray& op, ScalarType to, bool use_min) {
  ScalarType from = op.dtype();
  if (use_min && op.ndim() == 0) {
    MinType m = MinScalarType(op);
    from = m.type;
    if (m.small_unsigned && to != ScalarType::Bool && IsSigned(to) && !IsFloat(to))
      from = SignedOfSize(ScalarSize(from));
  }
  return PromoteTypes(from, to) == to;
}
}  // namespace

std::optional<ScalarType> SearchLoop(std::span<const NdArray* const> operands,
                                     std::span<const ScalarType> loops) {
  bool use_min = UsesMinScalar(operands);
  for (ScalarType loop : loops) {
    bool ok = true;
    for (const NdArray* op : operands) ok = ok && CanCastSafely(*op, loop, use_min);
    if (ok) return loop;
  }
  return std::nullopt;
}

ScalarType ResultType(std::span<const NdArray* const> operands) {
  bool use_min = UsesMinScalar(operands);
  std::optional<ScalarType> result;
  bool result_small = false;
  for (const NdArray* op : operands) {
    MinType m{op->dtype(), false};
    if (use_min && op->ndim() == 0) m = MinScalarType(*op);
    if (!result) {
      result = m.type;
      result_small = m.small_unsigned;
      continue;
    }
    ScalarType a = m.type, b = *result;
    // A small unsigned value next to a signed or float type acts as the signed type of its size.
    if (m.small_unsigned && b != ScalarType::Bool && IsSigned(b)) a = SignedOfSize(ScalarSize(a));
    if (result_small && a != ScalarType::Bool && IsSigned(a)) b = SignedOfSize(ScalarSize(b));
    result = PromoteTypes(a, b);
    result_small = false;
  }
  return result.value_or(ScalarType::Float64);
}

}  // namespace tilec::host
