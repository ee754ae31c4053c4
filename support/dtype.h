// Scalar element types shared by every stage: the checker, the IR, both code generators, the
// runtime and the host interpreter all name dtypes through this one enum.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tilec {

enum class ScalarType : uint8_t {
  Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64,
  Float16, BFloat16, Float32, Float64,
};
inline constexpr int kNumScalarTypes = 13;

// Warp spelling without the `wp.` prefix: "int32", "float16", "bool".
std::string_view ScalarName(ScalarType t);
// Accepts Warp names ("float32", "int", "float", "bool") and NumPy ones ("bool_").
std::optional<ScalarType> ScalarFromName(std::string_view name);
size_t ScalarSize(ScalarType t);
bool IsFloat(ScalarType t);   // float16, bfloat16, float32, float64
bool IsInteger(ScalarType t); // signed or unsigned, not bool
bool IsSigned(ScalarType t);  // signed integers and floats
// The eight element types that tile atomic adds accept (LANGUAGE.md §5).
bool SupportsAtomicAdd(ScalarType t);

}  // namespace tilec
