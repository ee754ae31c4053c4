// Launch argument values and their conversion to a parameter's dtype, with Python's rules for
// untyped numbers: ints fit integer types or become floats, floats only become floats.
#include <cmath>
#include <cstring>
#include <limits>

#include "support/half.h"
#include "tilec/error.h"
#include "tilec/launch.h"

namespace tilec::rt {

namespace {

// Stores `v` (already known to be representable, or a float) as dtype `t`.
template <typename V>
std::vector<uint8_t> Store(ScalarType t, V v) {
  std::vector<uint8_t> out(ScalarSize(t));
  auto put = [&](auto x) { std::memcpy(out.data(), &x, sizeof(x)); };
  switch (t) {
    case ScalarType::Bool: put(uint8_t(v != V(0))); break;
    case ScalarType::Int8: put(int8_t(v)); break;
    case ScalarType::Int16: put(int16_t(v)); break;
    case ScalarType::Int32: put(int32_t(v)); break;
    case ScalarType::Int64: put(int64_t(v)); break;
    case ScalarType::UInt8: put(uint8_t(v)); break;
    case ScalarType::UInt16: put(uint16_t(v)); break;
    case ScalarType::UInt32: put(uint32_t(v)); break;
    case ScalarType::UInt64: put(uint64_t(v)); break;
    case ScalarType::Float16: put(FloatToHalf(float(v))); break;
    case ScalarType::BFloat16: put(FloatToBFloat16(float(v))); break;
    case ScalarType::Float32: put(float(v)); break;
    case ScalarType::Float64: put(double(v)); break;
  }
  return out;
}

bool FitsInteger(ScalarType t, int64_t v) {
  switch (t) {
    case ScalarType::Int8: return v >= INT8_MIN && v <= INT8_MAX;
    case ScalarType::Int16: return v >= INT16_MIN && v <= INT16_MAX;
    case ScalarType::Int32: return v >= INT32_MIN && v <= INT32_MAX;
    case ScalarType::Int64: return true;
    case ScalarType::UInt8: return v >= 0 && v <= UINT8_MAX;
    case ScalarType::UInt16: return v >= 0 && v <= UINT16_MAX;
    case ScalarType::UInt32: return v >= 0 && v <= int64_t(UINT32_MAX);
    case ScalarType::UInt64: return v >= 0;
    default: return true;
  }
}

std::string Quoted(ScalarType t) { return "`" + std::string(ScalarName(t)) + "`"; }

}  // namespace

KernelArg KernelArg::Typed(ScalarType type, double value) {
  KernelArg a;
  a.kind_ = Kind::Typed;
  a.type_ = type;
  a.bytes_ = Store(type, value);
  return a;
}

KernelArg KernelArg::TypedInt(ScalarType type, int64_t value) {
  KernelArg a;
  a.kind_ = Kind::Typed;
  a.type_ = type;
  a.bytes_ = Store(type, value);
  return a;
}

KernelArg KernelArg::Struct(std::string struct_name, std::vector<uint8_t> bytes) {
  KernelArg a;
  a.kind_ = Kind::Struct;
  a.struct_name_ = std::move(struct_name);
  a.bytes_ = std::move(bytes);
  return a;
}

std::string KernelArg::Describe() const {
  switch (kind_) {
    case Kind::Array:
      if (array_.is_null()) return "None (a null array)";
      return "array(dtype=" + array_.dtype().Name() + ", ndim=" + std::to_string(array_.ndim()) + ")";
    case Kind::PyInt: return "a Python int (" + std::to_string(int_) + ")";
    case Kind::PyFloat: {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", float_);
      return std::string("a Python float (") + buf + ")";
    }
    case Kind::PyBool: return std::string("a Python bool (") + (int_ ? "True" : "False") + ")";
    case Kind::Typed: return "a " + Quoted(type_) + " value";
    case Kind::Struct: return "a value of struct `" + struct_name_ + "`";
  }
  return "?";
}

std::vector<uint8_t> KernelArg::PackScalar(const std::string& where, ScalarType to) const {
  auto mismatch = [&] {
    return Error(where + ": expected " + Quoted(to) + ", got " + Describe());
  };
  switch (kind_) {
    case Kind::PyInt:
      if (IsInteger(to) && !FitsInteger(to, int_))
        throw Error(where + ": the Python int " + std::to_string(int_) + " does not fit " +
                    Quoted(to));
      return Store(to, int_);
    case Kind::PyBool:
      return Store(to, int_);
    case Kind::PyFloat:
      if (!IsFloat(to)) throw mismatch();
      return Store(to, float_);
    case Kind::Typed:
      if (type_ != to) throw mismatch();
      return std::vector<uint8_t>(bytes_.begin(), bytes_.begin() + ScalarSize(to));
    default:
      throw mismatch();
  }
}

}  // namespace tilec::rt
