// Small builders for the ndarray unit tests: arrays from flat value lists, index lists, and
// reading an array back as flat doubles.
#pragma once
#include <vector>

#include "host/ndarray/ndarray.h"

namespace tilec::host::testing {

inline NdArray FromDoubles(const std::vector<double>& values, const Shape& shape,
                           ScalarType dtype = ScalarType::Float64) {
  NdArray a = NdArray::Empty(shape, dtype);
  for (size_t i = 0; i < values.size(); ++i)
    a.SetFlat(static_cast<int64_t>(i), Scalar::Float(values[i]));
  return a;
}

inline NdArray FromInts(const std::vector<int64_t>& values, const Shape& shape,
                        ScalarType dtype = ScalarType::Int64) {
  NdArray a = NdArray::Empty(shape, dtype);
  for (size_t i = 0; i < values.size(); ++i)
    a.SetFlat(static_cast<int64_t>(i), Scalar::Int(values[i]));
  return a;
}

inline std::vector<double> Flat(const NdArray& a) {
  std::vector<double> out;
  for (int64_t i = 0; i < a.size(); ++i) out.push_back(a.GetFlat(i).AsDouble());
  return out;
}

inline NdArray Idx(const NdArray& a, std::vector<IndexItem> items) { return a.Index(items); }

inline NdArray PyInt(int64_t v) { return NdArray::FromScalar(Scalar::Int(v)); }
inline NdArray PyFloat(double v) { return NdArray::FromScalar(Scalar::Float(v)); }
inline NdArray PyBool(bool v) { return NdArray::FromScalar(Scalar::Bool(v)); }

}  // namespace tilec::host::testing
