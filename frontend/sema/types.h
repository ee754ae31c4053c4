// The checker's types: scalars, structs, arrays, tiles, tuples and the "meta" types that names
// can have in a kernel (modules, functions, types used as values). Types are interned by a
// TypeContext, so two equal types are the same pointer and compare with ==.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "support/dtype.h"
#include "tilec/signature.h"

namespace tilec::sema {

// Element type of arrays and tiles: a scalar, or a struct by index into CheckedModule::structs
// (the same indexing as rt::ModuleSignature::structs).
using ElemType = rt::ElemType;

enum class Storage : uint8_t { Register, Shared };
const char* StorageName(Storage s);  // "register" / "shared"

enum class TypeKind : uint8_t {
  Error,     // poison: an error has been reported already; never report on it again
  Void,      // no value: `print(...)`, `tile_store(...)`, a func without `return value`
  None,      // the `None` literal
  Scalar,
  Struct,    // a struct value
  Array,     // wp.array: data, grad, shape, byte strides
  Tile,      // static shape, element type, storage
  Tuple,     // `wp.tid()` unpacked, shapes, `(a, b)` values
  String,    // compile-time strings (storage names)
  TypeRef,   // a type used as a value: `float`, `wp.float16`, a struct class, `wp.array2d[float]`
  Module,    // `wp`, `np`
  Function,  // a builtin, a @wp.func, a @wp.kernel
  Range,     // the iterable `range(...)`
  // wp.tile_stack: a block-shared stack of `capacity` scalars. Not a tile: only the
  // tile_stack_* builtins take it, so it cannot be printed, indexed or used in arithmetic.
  TileStack,
};

enum class ModuleId : uint8_t { Warp, Numpy };

// What a Function-typed name calls.
// Composite: a vector-math builtin typed by check_composite.cpp (index: its CompositeOp);
// Overloads: a prelude builtin with one @wp.func per signature (index: CheckedModule::overloads).
enum class CalleeKind : uint8_t { Builtin, UserFunc, Kernel, Composite, Overloads, Lambda };
struct Callee {
  CalleeKind kind = CalleeKind::Builtin;
  int index = -1;  // builtin: index into BuiltinTable(); func/kernel: index into CheckedModule
  bool operator==(const Callee&) const = default;
};

struct Type {
  TypeKind kind = TypeKind::Error;
  ScalarType scalar = ScalarType::Float32;  // Scalar
  int struct_index = -1;                    // Struct
  std::string struct_name;                  // Struct (for printing)
  ElemType elem;                            // Array and Tile element
  std::string elem_struct_name;             // Array/Tile with a struct element (for printing)
  int ndim = 0;                             // Array: 1..4; Tile: shape.size()
  std::vector<int64_t> shape;               // Tile
  Storage storage = Storage::Register;      // Tile
  std::vector<const Type*> elems;           // Tuple
  const Type* referent = nullptr;           // TypeRef
  ModuleId module = ModuleId::Warp;         // Module
  Callee callee;                            // Function
  int64_t capacity = 0;                     // TileStack (its element type is `elem`)
  int64_t lanes = 0;                        // TileStack: the block's lanes, which push and pop span

  bool IsError() const { return kind == TypeKind::Error; }
  bool IsScalar() const { return kind == TypeKind::Scalar; }
  bool IsTile() const { return kind == TypeKind::Tile; }
  bool IsArray() const { return kind == TypeKind::Array; }
  bool IsTileStack() const { return kind == TypeKind::TileStack; }
  bool IsInt() const { return kind == TypeKind::Scalar && IsInteger(scalar); }
  bool IsFloatScalar() const { return kind == TypeKind::Scalar && IsFloat(scalar); }
  bool IsNumeric() const { return kind == TypeKind::Scalar && scalar != ScalarType::Bool; }
  // The value type of a Scalar or Struct type (what an array/tile element of it would be).
  ElemType AsElem() const;
};

// Owns every Type; hands out one pointer per distinct type.
class TypeContext {
 public:
  TypeContext();
  const Type* Error() const { return error_; }
  const Type* Void() const { return void_; }
  const Type* NoneType() const { return none_; }
  const Type* String() const { return string_; }
  const Type* RangeType() const { return range_; }
  const Type* Scalar(ScalarType t);
  const Type* Int32() { return Scalar(ScalarType::Int32); }
  const Type* Float32() { return Scalar(ScalarType::Float32); }
  const Type* Bool() { return Scalar(ScalarType::Bool); }
  const Type* Struct(int index, const std::string& name);
  // Element type to value type (struct names come from the registered struct names).
  const Type* FromElem(ElemType e);
  const Type* Array(ElemType elem, int ndim);
  const Type* Tile(ElemType elem, std::vector<int64_t> shape, Storage storage);
  const Type* WithStorage(const Type* tile, Storage storage);
  const Type* Tuple(std::vector<const Type*> elems);
  const Type* TypeRef(const Type* referent);
  const Type* Module(ModuleId m);
  const Type* Function(Callee c);
  const Type* TileStack(ElemType elem, int64_t capacity, int64_t lanes);

  // Struct names by index, so FromElem/Array/Tile can print struct element types.
  void SetStructName(int index, const std::string& name);
  const std::string& StructName(int index) const;

 private:
  const Type* Intern(Type t);
  std::deque<Type> types_;
  std::map<std::string, const Type*> by_key_;
  std::vector<std::string> struct_names_;
  const Type* error_;
  const Type* void_;
  const Type* none_;
  const Type* string_;
  const Type* range_;
};

// User-facing spelling: `float32`, `P`, `array2d[float32]`, `tile[float32, (2, 4), shared]`,
// `(int32, int32)`, `type[float32]`, `tile_stack[int32, 8]`.
std::string TypeName(const Type* t);
std::string ElemName(ElemType e, const std::string& struct_name);

}  // namespace tilec::sema
