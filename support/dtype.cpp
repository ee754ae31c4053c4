// Names, sizes and classes of the scalar element types.
#include "support/dtype.h"

namespace tilec {

namespace {
struct Row { ScalarType type; std::string_view name; size_t size; };
constexpr Row kRows[] = {
    {ScalarType::Bool, "bool", 1},       {ScalarType::Int8, "int8", 1},
    {ScalarType::Int16, "int16", 2},     {ScalarType::Int32, "int32", 4},
    {ScalarType::Int64, "int64", 8},     {ScalarType::UInt8, "uint8", 1},
    {ScalarType::UInt16, "uint16", 2},   {ScalarType::UInt32, "uint32", 4},
    {ScalarType::UInt64, "uint64", 8},   {ScalarType::Float16, "float16", 2},
    {ScalarType::BFloat16, "bfloat16", 2}, {ScalarType::Float32, "float32", 4},
    {ScalarType::Float64, "float64", 8},
};
}  // namespace

std::string_view ScalarName(ScalarType t) { return kRows[static_cast<int>(t)].name; }
size_t ScalarSize(ScalarType t) { return kRows[static_cast<int>(t)].size; }

std::optional<ScalarType> ScalarFromName(std::string_view name) {
  if (name == "int") return ScalarType::Int32;
  if (name == "float") return ScalarType::Float32;
  if (name == "bool_") return ScalarType::Bool;
  for (const Row& r : kRows)
    if (r.name == name) return r.type;
  return std::nullopt;
}

bool IsFloat(ScalarType t) {
  return t == ScalarType::Float16 || t == ScalarType::BFloat16 || t == ScalarType::Float32 ||
         t == ScalarType::Float64;
}
bool IsInteger(ScalarType t) { return t != ScalarType::Bool && !IsFloat(t); }
bool IsSigned(ScalarType t) {
  switch (t) {
    case ScalarType::Int8: case ScalarType::Int16: case ScalarType::Int32: case ScalarType::Int64:
      return true;
    default:
      return IsFloat(t);
  }
}
bool SupportsAtomicAdd(ScalarType t) {
  switch (t) {
    case ScalarType::Int32: case ScalarType::UInt32: case ScalarType::Int64: case ScalarType::UInt64:
    case ScalarType::Float16: case ScalarType::BFloat16: case ScalarType::Float32:
    case ScalarType::Float64:
      return true;
    default:
      return false;
  }
}

}  // namespace tilec
