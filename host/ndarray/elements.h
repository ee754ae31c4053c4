// Internal helpers of the ndarray: typed loads and stores of one element with NumPy's casts,
// rounding to a float type's precision, and a strided odometer over several arrays at once.
// Not part of the public API.
#pragma once
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "host/ndarray/ndarray.h"
#include "support/half.h"  // RoundToFloatType, DoubleToHalfBits

namespace tilec::host {

Scalar LoadScalar(const uint8_t* p, ScalarType t);
void StoreScalar(uint8_t* p, ScalarType t, const Scalar& v);
// Float value of an element of a float dtype (exact widening to double).
double LoadFloat(const uint8_t* p, ScalarType t);
// NumPy's default ufunc type resolution: the first loop dtype in `loops` that every operand
// casts to safely (0-d operands by value, as in ResultType); nullopt when none does.
std::optional<ScalarType> SearchLoop(std::span<const NdArray* const> operands,
                                     std::span<const ScalarType> loops);
// The accumulator dtype of sum and cumsum: bools and small integers widen to 64 bits.
ScalarType SumResultType(ScalarType t);
// Sum over axis `ax` (already normalized) into dtype `out_type`, with NumPy's pairwise loop
// over the innermost axis.
NdArray SumReduce(const NdArray& a, int ax, ScalarType out_type);
// C-order strides in bytes.
std::vector<int64_t> ContiguousStrides(const Shape& shape, size_t itemsize);
int64_t ShapeSize(const Shape& shape);

// Calls fn(offsets) for every multi-index of `shape` in C order, where offsets[k] is the
// byte offset of that element in operand k (given its strides).
void ForEachStrided(const Shape& shape, const std::vector<std::vector<int64_t>>& strides,
                    const std::function<void(const int64_t* offsets)>& fn);

// `x[items] = value` for a key with an index array (ndarray_advanced.cpp); NdArray::Assign
// hands such keys over.
void AssignAdvanced(const NdArray& target, std::span<const IndexItem> items, const NdArray& value);
void AssignAdvanced(const NdArray& target, std::span<const IndexItem> items, const Scalar& value);

// Whether a scalar is a float NaN; `x < y` for two scalars loaded from one dtype (no NaNs).
inline bool ScalarIsNan(const Scalar& s) { return s.kind == Scalar::Kind::Float && std::isnan(s.f); }
inline bool ScalarLess(const Scalar& x, const Scalar& y) {
  switch (x.kind) {
    case Scalar::Kind::Bool: return !x.b && y.b;
    case Scalar::Kind::Int: return x.i < y.i;
    case Scalar::Kind::UInt: return x.u < y.u;
    case Scalar::Kind::Float: return x.f < y.f;
  }
  return false;
}

// Grants the implementation files access to NdArray's representation.
class NdAccess {
 public:
  static uint8_t* Data(const NdArray& a) { return a.data_; }
  static NdArray View(const NdArray& base, Shape shape, std::vector<int64_t> strides,
                      uint8_t* data) {
    NdArray v = base;
    v.shape_ = std::move(shape);
    v.strides_ = std::move(strides);
    v.data_ = data;
    return v;
  }
};

}  // namespace tilec::host
