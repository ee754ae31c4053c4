// Element loads and stores with NumPy's C casts, float rounding per dtype, and the strided
// odometer every whole-array operation runs on.
#include "host/ndarray/elements.h"

#include <cmath>
#include <cstring>

#include "support/half.h"

namespace tilec::host {

namespace {
template <class T> T Read(const uint8_t* p) { T v; std::memcpy(&v, p, sizeof(T)); return v; }
template <class T> void Write(uint8_t* p, T v) { std::memcpy(p, &v, sizeof(T)); }
}  // namespace

double Scalar::AsDouble() const {
  switch (kind) {
    case Kind::Bool: return b ? 1.0 : 0.0;
    case Kind::Int: return static_cast<double>(i);
    case Kind::UInt: return static_cast<double>(u);
    case Kind::Float: return f;
  }
  return 0.0;
}

int64_t Scalar::AsInt() const {
  switch (kind) {
    case Kind::Bool: return b ? 1 : 0;
    case Kind::Int: return i;
    case Kind::UInt: return static_cast<int64_t>(u);
    case Kind::Float:
      // x86 truncation: nan and out-of-range values become INT64_MIN, as NumPy's casts give.
      if (!(f >= -9223372036854775808.0 && f < 9223372036854775808.0)) return INT64_MIN;
      return static_cast<int64_t>(f);
  }
  return 0;
}

uint64_t Scalar::AsUInt() const {
  if (kind == Kind::UInt) return u;
  if (kind == Kind::Float && f >= 9223372036854775808.0 && f < 18446744073709551616.0)
    return static_cast<uint64_t>(f);
  return static_cast<uint64_t>(AsInt());
}

bool Scalar::AsBool() const {
  switch (kind) {
    case Kind::Bool: return b;
    case Kind::Int: return i != 0;
    case Kind::UInt: return u != 0;
    case Kind::Float: return f != 0.0;  // nan is true
  }
  return false;
}

double LoadFloat(const uint8_t* p, ScalarType t) {
  switch (t) {
    case ScalarType::Float16: return HalfToFloat(Read<uint16_t>(p));
    case ScalarType::BFloat16: return BFloat16ToFloat(Read<uint16_t>(p));
    case ScalarType::Float32: return Read<float>(p);
    case ScalarType::Float64: return Read<double>(p);
    default: return LoadScalar(p, t).AsDouble();
  }
}

Scalar LoadScalar(const uint8_t* p, ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return Scalar::Bool(*p != 0);
    case ScalarType::Int8: return Scalar::Int(Read<int8_t>(p));
    case ScalarType::Int16: return Scalar::Int(Read<int16_t>(p));
    case ScalarType::Int32: return Scalar::Int(Read<int32_t>(p));
    case ScalarType::Int64: return Scalar::Int(Read<int64_t>(p));
    case ScalarType::UInt8: return Scalar::UInt(Read<uint8_t>(p));
    case ScalarType::UInt16: return Scalar::UInt(Read<uint16_t>(p));
    case ScalarType::UInt32: return Scalar::UInt(Read<uint32_t>(p));
    case ScalarType::UInt64: return Scalar::UInt(Read<uint64_t>(p));
    default: return Scalar::Float(LoadFloat(p, t));
  }
}

void StoreScalar(uint8_t* p, ScalarType t, const Scalar& v) {
  switch (t) {
    case ScalarType::Bool: *p = v.AsBool() ? 1 : 0; return;
    case ScalarType::Int8: Write<int8_t>(p, static_cast<int8_t>(v.AsInt())); return;
    case ScalarType::Int16: Write<int16_t>(p, static_cast<int16_t>(v.AsInt())); return;
    case ScalarType::Int32: Write<int32_t>(p, static_cast<int32_t>(v.AsInt())); return;
    case ScalarType::Int64: Write<int64_t>(p, v.AsInt()); return;
    case ScalarType::UInt8: Write<uint8_t>(p, static_cast<uint8_t>(v.AsInt())); return;
    case ScalarType::UInt16: Write<uint16_t>(p, static_cast<uint16_t>(v.AsInt())); return;
    case ScalarType::UInt32: Write<uint32_t>(p, static_cast<uint32_t>(v.AsInt())); return;
    case ScalarType::UInt64: Write<uint64_t>(p, v.AsUInt()); return;
    case ScalarType::Float16: Write<uint16_t>(p, DoubleToHalfBits(v.AsDouble())); return;
    case ScalarType::BFloat16: {
      float f = v.kind == Scalar::Kind::Int ? static_cast<float>(v.i)
                                            : static_cast<float>(v.AsDouble());
      Write<uint16_t>(p, FloatToBFloat16(f));
      return;
    }
    case ScalarType::Float32: {
      // Integers round once, straight to float, as a C cast does.
      float f = v.kind == Scalar::Kind::Int    ? static_cast<float>(v.i)
                : v.kind == Scalar::Kind::UInt ? static_cast<float>(v.u)
                                               : static_cast<float>(v.AsDouble());
      Write<float>(p, f);
      return;
    }
    case ScalarType::Float64: Write<double>(p, v.AsDouble()); return;
  }
}

std::vector<int64_t> ContiguousStrides(const Shape& shape, size_t itemsize) {
  std::vector<int64_t> strides(shape.size());
  int64_t s = static_cast<int64_t>(itemsize);
  for (size_t k = shape.size(); k-- > 0;) {
    strides[k] = s;
    s *= std::max<int64_t>(shape[k], 1);
  }
  return strides;
}

int64_t ShapeSize(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

void ForEachStrided(const Shape& shape, const std::vector<std::vector<int64_t>>& strides,
                    const std::function<void(const int64_t* offsets)>& fn) {
  size_t nops = strides.size();
  if (ShapeSize(shape) == 0) return;
  std::vector<int64_t> offsets(nops, 0);
  if (shape.empty()) { fn(offsets.data()); return; }
  size_t nd = shape.size();
  std::vector<int64_t> counter(nd, 0);
  int64_t inner = shape[nd - 1];
  while (true) {
    std::vector<int64_t> row = offsets;
    for (int64_t j = 0; j < inner; ++j) {
      fn(row.data());
      for (size_t k = 0; k < nops; ++k) row[k] += strides[k][nd - 1];
    }
    // Advance the outer axes like an odometer.
    size_t axis = nd - 1;
    while (true) {
      if (axis == 0) return;
      --axis;
      ++counter[axis];
      for (size_t k = 0; k < nops; ++k) offsets[k] += strides[k][axis];
      if (counter[axis] < shape[axis]) break;
      for (size_t k = 0; k < nops; ++k) offsets[k] -= strides[k][axis] * shape[axis];
      counter[axis] = 0;
    }
  }
}

}  // namespace tilec::host
