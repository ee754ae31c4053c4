// The one table of builtins: every kernel-side operation of LANGUAGE.md §4-§5 is a row holding
// its signature, the sema rules it must pass, how its result type is formed and how it lowers
// to Tile IR. Checker and lowering read the row; neither knows any builtin by name.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "support/diagnostics.h"
#include "support/dtype.h"

namespace tilec::sema {

class CallContext;  // a call being checked (checker.h)
struct ExprInfo;

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
  Bool,       // bool (the scatters' has_value: an int there selects the next rank's overload)
  IntTuple,   // tuple of integer scalars (shapes, offsets)
  Array,
  Tile,
  DType,      // a scalar or struct type
  String,
  Callable,   // a math builtin or a @wp.func (tile_map)
  TileStack,  // a wp.tile_stack (nothing else takes one)
};

enum class DefaultKind : uint8_t {
  Required,
  Int,         // def_int
  String,      // def_str
  DType,       // def_dtype
  ZeroOffset,  // offset zeros, one per dimension of the array `a`
};

// Parameters are named by these constants, not by strings, so that a rule asking for a
// parameter its row lacks is found when the table is built, not when a user hits it.
enum class Param : uint8_t {
  A, T, F, B, X, Y, Value, Shape, Offset, Storage, DType, Axis, Indices, Start, Stop, Step,
  Lhs, Rhs, Index, Low, High, I, J, K, L, Op, Alpha, Src, Dest, Dst, Keys, Values, Out, Beta,
  Compare, Expr, BoundsCheck, Aligned,
  D, MatA, MatL, MatU, FillMode,  // tile_diag_add's `d`; the linear-algebra `A`, `L`, `U`, `fill_mode`
  Precision,                       // tile_matmul's `precision`
  PreserveType, ThreadIdx, HasValue, Atomic, Rng, Min, Max,  // the per-lane bridges and tile_rand*
  S, Capacity,  // the tile stack builtins' `s` and `capacity`
  Inout,        // tile_fft's `inout`
  Z,            // tile_upper_solve's right-hand side `z`
  Deterministic,  // tile_atomic_add(_indexed): commit in launch order (LANGUAGE.md §5)
  Cond, ValueIfTrue, ValueIfFalse,  // wp.where
  Tolerance,                        // wp.expect_near
};
const char* ParamName(Param p);  // the keyword: "a", "shape", ...

struct ParamSpec {
  Param id;
  const char* name;  // ParamName(id)
  ArgKind kind = ArgKind::Runtime;
  ArgPattern pattern = ArgPattern::Any;
  DefaultKind def = DefaultKind::Required;
  int64_t def_int = 0;
  const char* def_str = nullptr;
  ScalarType def_dtype = ScalarType::Float32;
};

// A rule checked after an overload is chosen. `check` reports only the codes listed (the
// checker aborts otherwise, so a code's meaning stays the rule's) and returns false after
// reporting. `needs` are parameters every overload carrying the rule must declare; a
// defaulted one is seen through its default value.
using RuleFn = bool (*)(CallContext&);
using CommitFn = void (*)(CallContext&);
struct RuleSpec {
  const char* name;
  std::vector<diag::Code> codes;
  std::vector<Param> needs;
  RuleFn check;
  CommitFn commit = nullptr;  // side effects once every rule of the call passed
};

// Forms the result (type, folded constant, uniformity) into `out`; false poisons the call.
using ResultFn = bool (*)(CallContext&, ExprInfo& out);
struct ResultSpec {
  const char* name;
  std::vector<Param> needs;
  ResultFn form;
};

// How a row lowers. The kinds are lowering shapes shared by rows, not builtins: a new
// reduction is a row with LowerKind::TileReduce and its ReduceKind.
enum class LowerKind : uint8_t {
  None,              // not lowered as a call (range is a loop header)
  Constant,          // the checker's constant value of the call (wp.static, len)
  Tid,
  LaneId,            // the test builtin: the lane_id op
  Cast,
  TileFillZero,
  TileFillOne,
  TileFillValue,     // `value`
  TileArange,
  TileLoad,
  TileLoadIndexed,
  TileStore,
  TileAtomicAdd,
  TileStoreIndexed,
  TileAtomicAddIndexed,
  TileSum,           // the v1 op, kept until TileReduce(Add) replaces it in the IR
  TileReduce,        // `reduce` over every element, or along the const `axis` when the row has
                     // one; a row with a combiner `op` takes the kind from it (ReduceKindOf)
  TileScan,          // `reduce` prefix, `inclusive` or not
  TileShape,         // `op` (TileBroadcast or TileReshape) to the result type's shape
  TilePermute,       // `perm`
  TileBinary,        // `op` between lhs and rhs, a scalar operand converted to the element type
  TileUnary,         // `op`
  TileExtract,       // `t[i, j]` (`t`, `index`) or wp.tile_extract (`a`, `i` to `l`)
  TileDot,           // tile_reduce {add} of the element-wise product of `a` and `b`
  TileAxpy,          // `dest` = alpha * `src` + `dest`, rebinding the variable `dest` names
  TileArgReduce,     // the first linear index where `a` equals its `reduce` (min or max)
  TileMap,
  TileView,          // wp.tile_view: `offset` ints drop dimensions, or with `shape` a sub-tile
  TileAssign,        // `src` written into `dst` at `offset`, updating the variable `dst` names
  TileSort,          // `keys` and `values` sorted, updating the variables they name
  TileMatmul,        // `a` @ `b`; with `out`: alpha * a @ b + beta * out, updating `out`
  TileDiagAdd,       // `a` with `d` added to its diagonal
  TileCholesky,      // the factor of `A` for the constant `fill_mode` (upper: transposes around the op)
  TileCholeskySolve, // `y` solved with the factor `L` of `fill_mode`: two triangular solves
  TileTriSolve,      // `op` (TileLowerSolve or TileUpperSolve) of `L`/`U` and `y`
  TileFft,           // `inout` transformed along its last dimension (`inverse`), in place
  Where,             // `value_if_true` where `cond` (bool, or an integer other than 0), else `value_if_false`
  AtomicAdd,
  AtomicRmw,         // the other scalar atomics: `rmw` at `i`..`l` with `value` (and `compare`)
  Math,              // scalar `op`; also what tile_map applies per element
  MathForm,          // scalar math built from several ops (`form`); tile_map applies it too
  Print,
  ExpectEq,          // prints Warp's message when `a` and `b` differ
  ExpectNear,        // prints Warp's message when `a` and `b` differ by more than `tolerance`
  BlockDim,
  TileOfLanes,       // wp.tile: each lane's `x` (its components, unless preserve_type) at the lane
  Untile,            // each lane's element (or vector/matrix of elements) of `a` at the lane
  TileFromThread,    // lane `thread_idx`'s `value` filling `shape`
  TileScatterLanes,  // `value` at `i`..`l` of `a` for the lanes with `has_value`, rebinding `a`
  TileRandom,        // tile_randi / tile_randf (by the result's dtype): Warp's per-lane streams
  TileStack,         // an empty stack of the result type
  TileStackPush,     // `value` of the lanes with `has_value` in consecutive slots, in lane order
  TileStackPop,      // (value, slot): lane l takes the element l below the top
  TileStackCount,
  TileStackClear,
};

// The math builtins that are compositions of IR ops, as Warp defines them (builtin.h there).
enum class MathForm : uint8_t {
  Sign,        // x < 0 ? -1 : 1 (so sign(0) and sign(NaN) are 1)
  Step,        // x < 0 ? 1 : 0
  Nonzero,     // x == 0 ? 0 : 1
  Lerp,        // a*(1-t) + b*t
  Smoothstep,  // u = clamp((x-a)/(b-a), 0, 1); u*u*(3-2u)
  Frac,        // x - trunc(x)
  IsNan,       // bool results
  IsInf,
  IsFinite,
  BitCount,    // the set bits of the two's-complement pattern, as an int32
};

struct Lowering {
  LowerKind kind = LowerKind::None;
  MathForm form = MathForm::Sign;            // MathForm
  ir::AtomicKind rmw = ir::AtomicKind::Sub;  // AtomicRmw
  ir::OpCode op = ir::OpCode::Add;           // TileBinary, TileUnary, Math
  ir::ReduceKind reduce = ir::ReduceKind::Add;  // TileReduce
  std::vector<int64_t> perm;                 // TilePermute
  bool inclusive = true;                     // TileScan
  bool accumulate = false;                   // TileScatterLanes: add (else write)
  bool inverse = false;                      // TileFft: the +i exponent
  // The arguments the call updates in place (tile_axpy's `dest`, tile_sort's `keys` and
  // `values`, ...): a loop around the call carries the variables they name.
  std::vector<Param> updates;
};

struct Overload {
  std::vector<ParamSpec> params;
  const ResultSpec* result = nullptr;
  std::vector<const RuleSpec*> rules;
  bool variadic = false;  // extra positional arguments repeat the last parameter's pattern
  bool extras_any = false;  // ... or take any value (tile_map's scalars), its rules checking them
  int positional = -1;      // how many leading parameters bind by position (-1: all); the rest by keyword only
  int Index(Param p) const;  // position in params, -1 when absent
};

enum class Differentiable : uint8_t { Yes, No, NotApplicable };

struct Builtin {
  const char* name = "";  // "tile_load", "print", "tile_add"
  const char* ns = "";    // "wp", "" (Python builtin), "op" (operators, not callable by name)
  std::vector<Overload> overloads;
  bool tile_op = false;   // cooperative: a kernel using it is tiled
  Differentiable diff = Differentiable::NotApplicable;
  const char* doc = "";   // the documentation page
  Lowering lower;
  const char* op_spelling = nullptr;  // operators: how diagnostics name them
  bool test_only = false; // exists only under CheckOptions::enable_test_builtins
  std::string Spelling() const;  // "wp.tile_load", "print", "`+` on tiles"
};

std::span<const Builtin> BuiltinTable();
// The reduction a builtin names when passed as a combiner (`wp.tile_reduce(wp.mul, t)`): the
// scalar math rows wp.add, wp.mul, wp.min and wp.max. False for any other builtin.
bool ReduceKindOf(const Builtin& b, ir::ReduceKind& out);
// Looks up a callable builtin by namespace ("wp" or "") and name; null when none.
const Builtin* FindBuiltin(const std::string& ns, const std::string& name);
int BuiltinIndex(const Builtin* b);
// Operator entries: "tile_add", "tile_sub", "tile_mul", "tile_div", "tile_neg",
// "tile_extract", "cast".
const Builtin& OperatorBuiltin(const std::string& name);

}  // namespace tilec::sema
