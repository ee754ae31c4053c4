// Tile IR types: scalars, structs (by index into the module's struct table), arrays and
// tiles with static shapes. Types are small values compared by content.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "support/composite.h"
#include "support/dtype.h"

namespace tilec::ir {

enum class Storage : uint8_t { Register, Shared };

// The element of an array or tile, or the type of a scalar/struct value.
struct ElemType {
  ScalarType scalar = ScalarType::Float32;
  int struct_index = -1;  // >= 0: a struct of the module
  bool is_struct() const { return struct_index >= 0; }
  bool operator==(const ElemType&) const = default;
  static ElemType Of(ScalarType s) { return ElemType{s, -1}; }
  static ElemType Struct(int index) { return ElemType{ScalarType::Float32, index}; }
};

enum class TypeKind : uint8_t { None, Scalar, Struct, Array, Tile };

inline constexpr int kMaxDims = 4;

struct Type {
  TypeKind kind = TypeKind::None;
  ElemType elem;  // Scalar/Struct: the value's own type; Array/Tile: the element type
  int ndim = 0;   // Array/Tile
  std::array<int64_t, kMaxDims> shape{};  // Tile extents, row-major
  Storage storage = Storage::Register;    // Tile only

  static Type None() { return Type{}; }
  static Type Scalar(ScalarType s);
  static Type Struct(int index);
  static Type Elem(ElemType e);  // Scalar or Struct
  static Type Array(ElemType e, int ndim);
  static Type Tile(ElemType e, const std::vector<int64_t>& shape,
                   Storage storage = Storage::Register);

  bool is_none() const { return kind == TypeKind::None; }
  bool is_scalar() const { return kind == TypeKind::Scalar; }
  bool is_struct() const { return kind == TypeKind::Struct; }
  bool is_array() const { return kind == TypeKind::Array; }
  bool is_tile() const { return kind == TypeKind::Tile; }
  bool is_elem() const { return is_scalar() || is_struct(); }
  // Scalar of this scalar kind (Scalar types only).
  bool Is(ScalarType s) const { return is_scalar() && elem.scalar == s; }
  bool is_int() const { return is_scalar() && IsInteger(elem.scalar); }
  bool is_float() const { return is_scalar() && IsFloat(elem.scalar); }
  bool is_bool() const { return Is(ScalarType::Bool); }

  int64_t NumElements() const;  // tiles: product of extents; otherwise 1
  std::vector<int64_t> Shape() const { return {shape.begin(), shape.begin() + ndim}; }
  Type ElemValueType() const { return Elem(elem); }  // element of an array or tile as a value
  // Same shape and element, storage ignored.
  bool SameTileShapeAndElem(const Type& o) const;
  Type WithStorage(Storage s) const { Type t = *this; t.storage = s; return t; }

  bool operator==(const Type& o) const;
  bool operator!=(const Type& o) const { return !(*this == o); }
};

struct StructField {
  std::string name;
  ElemType type;
  uint32_t offset = 0;  // bytes, C natural layout
};

struct StructDef {
  std::string name;
  std::vector<StructField> fields;
  uint32_t size = 0;
  uint32_t align = 1;
  Composite composite;  // vec3f, mat33f, ...: fields are the components, row-major
};

// Computes offsets, size and alignment of `structs[index]` with C's natural layout (fields
// in order, each aligned to its own alignment). Nested structs must come first in the table.
void ComputeStructLayout(std::vector<StructDef>& structs, int index);

std::string ElemTypeName(const ElemType& e, const std::vector<StructDef>& structs);
// `float32`, `P`, `array2d<float32>`, `tile<float32, 2x4>`, `tile<int32, 8, shared>`.
std::string TypeName(const Type& t, const std::vector<StructDef>& structs);

}  // namespace tilec::ir
