// The one table of builtin signatures: every kernel-side operation of LANGUAGE.md §4-§5 with
// its parameters (runtime value, compile-time constant or type), defaults, result rule, the
// rules to check, differentiability and documentation page. Overloads (a 1-D int shape
// versus a tuple) are separate rows; the checker picks the first whose patterns match.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "support/dtype.h"

namespace tilec::sema {

enum class ArgKind : uint8_t {
  Runtime,  // any value, known at run time or not
  Const,    // must be a compile-time constant (shape, axis, storage, tile_arange arguments)
  Type,     // must be a type (dtype=...)
};

// What an argument's type must look like for an overload to apply.
enum class ArgPattern : uint8_t {
  Any,        // a scalar, struct, array or tile value
  Scalar,     // any scalar (bool included)
  Numeric,    // scalar other than bool
  Int,        // integer scalar
  Float,      // floating-point scalar
  IntTuple,   // tuple of integer scalars (shapes, offsets)
  Array,
  Tile,
  DType,      // a scalar or struct type
  String,
  Callable,   // a math builtin or a @wp.func (tile_map)
};

enum class DefaultKind : uint8_t {
  Required,
  Int,         // def_int
  String,      // def_str
  DType,       // def_dtype
  ZeroOffset,  // offset zeros, one per dimension of the array
};

struct ParamSpec {
  const char* name;
  ArgKind kind = ArgKind::Runtime;
  ArgPattern pattern = ArgPattern::Any;
  DefaultKind def = DefaultKind::Required;
  int64_t def_int = 0;
  const char* def_str = nullptr;
  ScalarType def_dtype = ScalarType::Float32;
};

// How the result type is formed from the arguments.
enum class ResultRule : uint8_t {
  Void,
  TileFromShapeDtype,   // tile_zeros/ones/full: shape, dtype, storage arguments
  TileArange,           // shape from the range length, dtype, storage
  TileFromArrayShape,   // tile_load(_indexed): dtype of `a`, `shape`, `storage`
  TileLikeT,            // tile_atomic_add(_indexed): shape, dtype and storage of `t`
  TileSum,              // a one-element register tile of t's dtype
  TileMap,              // f's result per element, shape of the tiles, register
  TileElement,          // t[i, j]: the element type
  TileArith,            // register tile, shape and dtype of the tile operand(s)
  Tid,                  // int32, or a tuple of int32 when unpacked
  ArrayElement,         // wp.atomic_add: the previous value, the array's element type
  SameAsFirst,          // abs, neg, sqrt, ...: type of the first argument
  CommonNumeric,        // min, max, pow, clamp: the common type of the arguments
  CastTarget,           // casts: the target type
  Range,                // range(...)
  LaneId,               // test builtin: a lane-varying int32
};

// Rules checked after an overload is chosen, each with its own diagnostic code.
enum class Rule : uint8_t {
  ShapeValid,         // `shape`: 1-4 positive extents                              E0214
  StorageValid,       // `storage` is "register" or "shared"                        E0209
  ShapeRankEqArray,   // len(shape) == a.ndim                                       E0204
  OffsetRankEqArray,  // len(offset) == a.ndim                                      E0205
  TileRankEqArray,    // t.ndim == a.ndim                                           E0206
  DTypeEq,            // a.dtype == t.dtype                                         E0207
  AtomicDType,        // t's element type supports atomic add                       E0208
  AxisInRange,        // 0 <= axis < a.ndim                                         E0200
  IndexTile,          // indices: 1-D, int32, len == shape[axis] or t.shape[axis]   E0201-E0203
  ArangeLength,       // the Python range length is positive                        E0210
  ScalarDTypeOnly,    // dtype is not a struct (tile_ones, tile_arange)             E0218
  FullValue,          // tile_full's value converts to dtype                        E0106
  TilesSameShape,     // elementwise: equal shapes                                  E0211
  TilesSameDType,     // elementwise: equal dtypes                                  E0212
  ScalarMatchesTile,  // tile * scalar: scalar converts to the tile's dtype         E0212
  NumericTile,        // arithmetic needs a scalar (not struct/bool) element        E0218
  TileIndexCount,     // t[i, j]: one int index per dimension                       E0216
  TileMapArgs,        // tile_map: arity of f, tiles of one shape                   E0217
  AtomicIndexRank,    // wp.atomic_add(a, i, ..., v): ndim indices, v of a's dtype  E0113
  CommonNumericArgs,  // min/max/pow/clamp arguments of one type                    E0111
};

enum class Differentiable : uint8_t { Yes, No, NotApplicable };

struct Overload {
  std::vector<ParamSpec> params;
  ResultRule result = ResultRule::Void;
  std::vector<Rule> rules;
  bool variadic = false;  // extra positional arguments repeat the last parameter's pattern
};

struct Builtin {
  const char* name;       // "tile_load", "print", "tile_add"
  const char* ns;         // "wp", "" (Python builtin), "op" (operators, not callable by name)
  std::vector<Overload> overloads;
  bool tile_op = false;   // cooperative: a kernel using it is tiled
  Differentiable diff = Differentiable::NotApplicable;
  const char* doc = "";   // the documentation page
  bool test_only = false; // exists only under CheckOptions::enable_test_builtins
  std::string Spelling() const;  // "wp.tile_load", "print", "`+` on tiles"
};

std::span<const Builtin> BuiltinTable();
// Looks up a callable builtin by namespace ("wp" or "") and name; null when none.
const Builtin* FindBuiltin(const std::string& ns, const std::string& name);
int BuiltinIndex(const Builtin* b);
// Operator entries: "tile_add", "tile_sub", "tile_mul", "tile_div", "tile_neg",
// "tile_extract", "cast".
const Builtin& OperatorBuiltin(const std::string& name);

}  // namespace tilec::sema
