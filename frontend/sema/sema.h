// Semantic analysis: the contract between the checker and Tile IR lowering. Check() resolves
// names, evaluates module constants, types every expression of every @wp.struct, @wp.func and
// @wp.kernel, applies the rules of LANGUAGE.md §2-§5 and the two spec pages, and returns a
// CheckedModule whose side tables (keyed by AST node) say everything lowering needs.
#pragma once
#include <deque>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "frontend/ast/ast.h"
#include "frontend/sema/builtins.h"
#include "frontend/sema/const_value.h"
#include "frontend/sema/types.h"
#include "support/diagnostics.h"
#include "tilec/signature.h"

namespace tilec::sema {

struct CheckOptions {
  // Constants defined outside the file (the host interpreter defines them by running host
  // code): name -> int, float or bool value. A module-level definition in the file wins.
  std::map<std::string, ConstValue> external_constants;
  // Module constants that a kernel or function may rebind: the host's globals that Warp
  // captures, where an assignment makes a local that hides the global from there on.
  std::set<std::string> shadowable_constants;
  // Enables hidden builtins that exist only to test the checker: `wp.lane_id()` returns a
  // lane-varying int32, the one way to exercise the uniformity analysis in version 1.
  bool enable_test_builtins = false;
  // Lanes per block of the variant being checked: `wp.tile(x)` has shape (block_dim,).
  int block_dim = 256;
  // compiler::CompileOptions::hybrid_launch: every result of `wp.tid()` may differ per lane.
  bool hybrid_launch = false;
  // Warp's `wp.config.max_unroll`: a `for` over a constant `range` of at most this many trips
  // is unrolled, its variable a compile-time constant in each copy of the body.
  int max_unroll = 16;
};

// ---------------------------------------------------------------- per-expression results

// What the checker knows about one expression.
struct ExprInfo {
  // The expression's type after any implicit conversion (a weak literal `2` used with a
  // float32 operand is recorded as float32). Error means "already diagnosed".
  const Type* type = nullptr;
  // Set when the expression is a compile-time constant. Lowering should materialize a
  // constant of `type` from this value instead of evaluating the sub-expressions.
  std::optional<ConstValue> value;
  // A Python int/float literal or module constant whose width is not fixed by the program:
  // it converts implicitly to the numeric type it meets (int -> any numeric, float -> any
  // float), as Warp's literals do. Typed values never convert implicitly.
  bool weak = false;
  // False when the value may differ between the threads of a block (uniformity analysis).
  bool uniform = true;
  // For a non-constant expression: why it is known only at run time.
  std::optional<Provenance> provenance;
};

// A resolved call: a builtin (also tile arithmetic, element reads `t[i, j]` and casts, keyed
// by their Binary/Unary/Subscript/Call node; `t += u` on tiles is keyed by the AugAssign's
// target expression), a @wp.func, or a struct constructor.
// The operations on Warp's vector-like values (support/composite.h), lowered component by
// component (frontend/lower_to_ir/lower_composite.cpp). Operands are CallInfo::args.
enum class CompositeOp : uint8_t {
  Construct,   // the components of the arguments in order (scalars, or composites spliced)
  Fill,        // every component args[0]
  Component,   // args[0] at flat index `index`, or at runtime args[1] (vectors) / args[1], args[2]
  Row,         // row args[1] (runtime) or `index` of matrix args[0], as a vector
  Part,        // `count` components from `index`: a transform's p (vec3) and q (quat)
  Add, Sub, Neg,
  Scale,       // args[0] composite times args[1] scalar (either order in the source)
  Divide,      // args[0] composite / args[1] scalar
  MatMul,      // matrix * matrix, matrix * vector, vector * matrix
  QuatMul,     // Hamilton product (a transform product is the prelude's transform_multiply)
  Equal, NotEqual,
  Dot, Cross, Length, LengthSq, Normalize, Outer, Transpose, Trace, Diag, GetDiag,
  CwMul, CwDiv, Min, Max, Abs,
  BitAnd, BitOr, BitXor, Shl, Shr, BitNot,  // integer vectors and matrices, component by component
  MinComponent, MaxComponent,  // wp.min(v), wp.max(v): the smallest or largest component
  ScalarDivide,                // args[0] scalar / each component of args[1]
  Identity,                    // wp.identity(n, dtype): `index` is n
};

std::string_view CompositeOpName(CompositeOp op);  // "construct", "dot", ...

// `...` (the parser's Name "Ellipsis").
inline bool IsEllipsis(const ast::Expr* e) {
  const auto* n = e->As<ast::Name>();
  return n && n->id == "Ellipsis";
}

struct CallInfo {
  enum class Kind : uint8_t { Builtin, UserFunc, StructCtor, Composite };
  Kind kind = Kind::Builtin;
  const Builtin* builtin = nullptr;    // Kind::Builtin
  const Overload* overload = nullptr;  // Kind::Builtin: the overload chosen by the table
  int func_index = -1;                 // Kind::UserFunc: index into CheckedModule::funcs
  int struct_index = -1;               // Kind::StructCtor
  // One entry per parameter of the overload (or of the func), in declaration order; null
  // where the default is used. Variadic builtins (print, tile_map, wp.atomic_add indices)
  // append their extra arguments at the end.
  std::vector<const ast::Expr*> args;
  // Per parameter: the compile-time value (Const and Type parameters always; defaults
  // filled in, e.g. offset zeros, storage 'register', dtype float32).
  std::vector<std::optional<ConstValue>> const_args;
  const Type* cast_target = nullptr;   // casts: the target scalar type
  CompositeOp composite = CompositeOp::Construct;  // Kind::Composite
  int64_t index = -1, count = 0;                    // Component, Row, Part
  int64_t step = 1;                                 // Part: from component `index` by `step`
  int updates_arg = -1;  // UserFunc: the argument the call's result is stored into (Warp's in-place builtins)
};

// A tile subscript that is not an element read, keyed by its Subscript node: a view (`t[i]`,
// `t[2:4, ::-1]`: per dimension of the tile a start, constant plus an optional runtime index,
// and a step, 0 where an integer index drops the dimension), or a gather along one axis
// through an index tile (`t[idx, :]`).
struct TileAccess {
  enum class Kind : uint8_t { View, Gather };
  Kind kind = Kind::View;
  std::vector<const ast::Expr*> index;  // View: the runtime index of a dimension, or null
  std::vector<int64_t> start, step;     // View: the constant part of the start; the step
  int axis = 0;                         // Gather: the axis
  const ast::Expr* indices = nullptr;   // Gather: the 1-D index tile
};

// ---------------------------------------------------------------- symbols

enum class SymbolKind : uint8_t { Param, Local, LoopVar };

// A parameter or local variable of a kernel or func. One symbol per name per function
// (Python scoping: re-assignment re-binds the same variable; its type may not change).
struct LocalSymbol {
  std::string name;
  SymbolKind kind = SymbolKind::Local;
  const Type* type = nullptr;   // tiles: storage is "shared" if any assignment or use needs it
  SourceRange decl_range;       // first definition
  int index = 0;                // position in FunctionInfo::locals
  int decl_body = 0;            // the body (a checker-assigned id) whose statement declared it
  int assignment_count = 0;     // in the whole body
  bool uniform = true;
  bool promoted_to_shared = false;  // an index tile passed to an indexed op
  std::optional<ConstValue> constant;  // assigned exactly once, from a constant
  std::optional<ConstValue> default_value;  // a @wp.func parameter's `= value`
};

struct FieldInfo {
  std::string name;
  const Type* type = nullptr;  // scalar or struct (array: StructInfo::array_fields)
  uint32_t value_fields_before = 0;  // array fields: the declaration order among all fields
  uint32_t offset = 0, size = 0, align = 1;
  SourceRange range;
};

struct StructInfo {
  std::string name;
  Composite composite;  // Warp's vec/mat/quat/transform/spatial types, registered on first use
  const ast::ClassDef* def = nullptr;
  std::vector<FieldInfo> fields;
  uint32_t size = 0, align = 1;  // C layout
  // Array fields (`x: wp.array(dtype=float)`): not part of the layout above. A kernel takes them
  // as array parameters of their own after the struct's, named `s.x` (`s.inner.x` when nested).
  std::vector<FieldInfo> array_fields;
  bool holds_arrays = false;  // array fields here or in a struct-typed field
};

// A @wp.func or a @wp.kernel.
struct FunctionInfo {
  std::string name;
  const ast::FunctionDef* def = nullptr;
  bool is_kernel = false;
  std::vector<std::unique_ptr<LocalSymbol>> locals;  // parameters first, in order
  int num_params = 0;
  const Type* return_type = nullptr;  // funcs: Void when nothing is returned; kernels: Void
  bool tiled = false;            // uses a tile operation, directly or through a func
  bool enable_backward = true;   // @wp.kernel(enable_backward=False)
  int tid_ndim = 0;              // how many values `wp.tid()` is unpacked into (0: unused)
  std::vector<int> called_funcs; // indices into CheckedModule::funcs
  bool has_errors = false;
  // A prelude builtin (prelude.cpp): its instance, its source (once declared), and whether its
  // signature has been resolved (on the first use of its name, so modules that use none
  // register no vector types and parse none of the prelude).
  const SourceFile* prelude_file = nullptr;
  int prelude_instance = -1;  // which instantiation (float32, float64, random): helpers stay within one
  bool declared = true;
  bool is_prelude() const { return prelude_instance >= 0; }
  // A func whose parameter annotations mention `typing.Any` is a template (Warp's generic
  // functions): per parameter, whether it is generic. Calls check an instance per argument
  // types (Checker::FuncInstance), never the template itself.
  std::vector<bool> generic_params;
  bool is_generic() const {
    for (bool g : generic_params)
      if (g) return true;
    return false;
  }
  const LocalSymbol* Param(int i) const { return locals[i].get(); }
};

// A `for` over a constant `range` that the checker unrolled (Warp's rule, docs/semantics.md):
// the loop variable's value and a checked copy of the body per trip, lowered in order.
struct UnrolledLoop {
  std::vector<int64_t> values;
  std::vector<ast::Body> bodies;
};

struct ModuleConstant {
  std::string name;
  ConstValue value;
  SourceRange range;  // the defining statement; empty for external constants
};

// ---------------------------------------------------------------- the result

class CheckedModule {
 public:
  explicit CheckedModule(const ast::Module& m) : module(m) {}
  const ast::Module& module;
  TypeContext types;
  std::vector<StructInfo> structs;
  // @wp.func in source order, then the prelude's, then instances of generic funcs as calls
  // need them: a deque, so that a func being checked stays where it is while instances are
  // added.
  std::deque<FunctionInfo> funcs;
  std::vector<ast::StmtPtr> instance_defs;  // each instance's own copy of its template's def
  std::vector<FunctionInfo> kernels;  // @wp.kernel, in source order
  // The prelude's builtins by name: the funcs (indices into `funcs`) of one name, one per
  // signature, tried in order (float32 before float64).
  std::vector<std::vector<int>> overloads;
  // The lambdas a kernel maps (`wp.tile_map(lambda a, b: ..., t, u)`), by CalleeKind::Lambda's
  // index: each parameter a local of the enclosing function, typed by the map's elements.
  struct LambdaInfo {
    const ast::Lambda* def = nullptr;
    std::vector<const LocalSymbol*> params;
    bool checked = false;
  };
  std::vector<LambdaInfo> lambdas;
  std::vector<ModuleConstant> constants;  // final value of each module constant
  int block_dim = 256;                      // CheckOptions::block_dim: the lanes of a block

  // Null for nodes that were never checked (host code, or code after a poisoned statement).
  const ExprInfo* Info(const ast::Expr* e) const;
  const Type* TypeOf(const ast::Expr* e) const;
  const CallInfo* Call(const ast::Expr* e) const;  // Call, tile Binary/Unary/Subscript, tile `+=` target
  // The variable a Name (use or assignment target) or a For target refers to.
  const LocalSymbol* Symbol(const ast::Expr* name) const;
  const FunctionInfo* FindKernel(const std::string& name) const;
  const FunctionInfo* FindFunc(const std::string& name) const;

  // What the runtime validates launches against.
  rt::ElemType ToRuntimeElem(ElemType e) const { return e; }
  rt::ParamInfo ToParamInfo(const LocalSymbol& p) const;
  // The array fields a struct holds, its own and its struct fields', as paths (`x`, `inner.y`)
  // with their array types: the order of the array parameters a kernel takes after the struct.
  std::vector<std::pair<std::string, const Type*>> ArrayFieldPaths(int struct_index) const;
  rt::StructLayout ToStructLayout(const StructInfo& s) const;
  rt::ModuleSignature Signature() const;

  // Filled by the checker.
  std::unordered_map<const ast::Expr*, ExprInfo> expr_info;
  std::unordered_map<const ast::Expr*, CallInfo> call_info;
  std::unordered_map<const ast::Expr*, const LocalSymbol*> symbols;
  std::unordered_map<const ast::Expr*, TileAccess> tile_access;
  // Calls the checker rewrote as the expression they mean (`wp.tile_view` with `slice(...)`
  // offsets: the tile subscript), checked and lowered in their place.
  std::unordered_map<const ast::Expr*, ast::ExprPtr> rewritten;
  const ast::Expr* Rewritten(const ast::Expr* e) const {
    auto it = rewritten.find(e);
    return it == rewritten.end() ? nullptr : it->second.get();
  }
  // `v += w` and friends on vector-like values: the operation, keyed by the statement.
  std::unordered_map<const ast::Stmt*, CallInfo> aug_call;
  const TileAccess* Access(const ast::Expr* subscript) const;
  // Node-based, so the copies' nodes keep their addresses while nested loops are added.
  std::unordered_map<const ast::For*, UnrolledLoop> unrolled;
  const UnrolledLoop* Unrolled(const ast::For& loop) const;  // null: a loop at run time
  // Loops `range(lane, m * wp.block_dim(), wp.block_dim())` with tile operations inside: every
  // lane runs the same number of trips, so the loop is uniform though its variable is not.
  std::unordered_set<const ast::For*> block_strided;
};

// Checks a parsed module. Always returns a CheckedModule; errors go to `diags`, and the
// module must not be lowered when diags.has_errors().
std::unique_ptr<CheckedModule> Check(const ast::Module& module, diag::DiagnosticEngine& diags,
                                     const CheckOptions& options = {});

// The AST annotated with types, shapes, storage and constness (`--emit=typed-ast`).
std::string PrintTypedAst(const CheckedModule& m);

// The prelude is cut into functions as text and parsed per function on first use (prelude.cpp).
// This parses each instance whole and every function alone and returns "" when both agree on
// the functions and their order, otherwise what differs.
std::string CheckPreludeSplit();

}  // namespace tilec::sema
