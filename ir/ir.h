// Tile IR core: SSA values, operations with single-block regions (structured if/for/while),
// kernels and modules. Every op carries the source location it came from. Ops own their
// results and regions; blocks own their arguments and ops; a module owns its kernels.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ir/types.h"
#include "support/source.h"

namespace tilec::ir {

enum class OpCode : uint8_t {
#define OP(name, spelling, family, operands, results, traits, ...) name,
#include "ir/ops.def"
#undef OP
};

// Hook dispatch: each family has its verifier, activity, reverse and emit rules in one place
// per stage, reached through switches without `default:` (-Werror=switch).
enum class OpFamily : uint8_t {
  Constant, Tid, Select, Elementwise, Compare, Logic, Array, Struct, TileBuild, TileMap,
  TileReduce, TileScan, TileSort, TileMatmul, TileShape, TileElement, TileMemory, Print, Control, Terminator,
};

// What an op does beyond computing its results from its operands.
enum Trait : uint32_t {
  kPure = 0,
  kReadsMemory = 1u << 0,
  kWritesMemory = 1u << 1,
  kSideEffect = 1u << 2,        // effects that are not memory writes (print, terminators)
  kCrossLane = 1u << 3,         // reads tile operands across lanes (SIMT: a shared copy)
  kCrossLaneIndices = 1u << 4,  // reads its `indices` operand (operand 1) across lanes
  kDiff = 1u << 5,              // has an adjoint rule (ir/autodiff)
  kPiecewiseConst = 1u << 6,    // zero derivative almost everywhere: passes no gradient, exactly
  kElementwise = 1u << 7,       // scalars, or tiles element by element
  kRegions = 1u << 8,           // structured control flow with nested regions
  kTerminator = 1u << 9,
  kLaneVarying = 1u << 10,      // its results differ per lane whatever its operands
  kCrossLaneResults = 1u << 11, // lanes write result elements that other lanes own
};
inline constexpr uint32_t operator|(Trait a, Trait b) { return uint32_t(a) | uint32_t(b); }
inline constexpr uint32_t operator|(uint32_t a, Trait b) { return a | uint32_t(b); }

inline constexpr int kVariadic = -1;

enum class AttrId : uint8_t {
#define ATTR(name, accessor, kind) name,
#include "ir/attrs.def"
#undef ATTR
};
enum class AttrKind : uint8_t { Scalar, Int, Pred, Reduce, Bool, IntList, Strings, Atomic };

// The combiner of tile_reduce and tile_scan.
enum class ReduceKind : uint8_t { Add, Mul, Min, Max, BitAnd, BitOr, BitXor };
std::string_view ReduceKindName(ReduceKind k);  // add, mul, min, max, bit_and, bit_or, bit_xor

// What atomic_rmw does to the element (atomic_add keeps its own op). `cas` takes a compare
// operand before the value; every kind returns the element's previous value.
enum class AtomicKind : uint8_t { Sub, Min, Max, Exch, Cas, BitAnd, BitOr, BitXor };
std::string_view AtomicKindName(AtomicKind k);  // sub, min, max, exch, cas, bit_and, bit_or, bit_xor
// The element types Warp 1.19 accepts for each kind (sub as add; min/max without float16;
// exch/cas 32/64-bit numbers; the bitwise kinds integers), and their names for messages.
bool AtomicKindSupports(AtomicKind k, ScalarType t);
std::string AtomicKindTypeList(AtomicKind k);  // "int32, uint32, int64, uint64, float32 or float64"
// Vector-like elements, one scalar atomic per component as Warp's vec.h/mat.h do: sub on every
// kind atomic_add takes (Warp subtracts by adding the negation); min, max and the bitwise kinds
// on vectors and matrices only (Warp has no quaternion or transform overloads); exch and cas on
// none (Warp's CUDA build has no vector atomicExch/atomicCAS, and its CPU one swaps the whole
// value, which per-component atomics could not match).
bool AtomicKindSupportsComposite(AtomicKind k, const Composite& c);
std::string AtomicKindCompositeList(AtomicKind k);  // "vectors and matrices", for messages

struct AttrInfo {
  std::string_view name;
  AttrKind kind;
};
const AttrInfo& InfoOf(AttrId id);

struct OpInfo {
  std::string_view name;
  OpFamily family;
  int operands;  // or kVariadic
  int results;   // or kVariadic
  uint32_t traits;
  std::vector<AttrId> attrs;  // declared order
};
const OpInfo& InfoOf(OpCode code);
constexpr int kNumOpCodes = 0
#define OP(name, ...) +1
#include "ir/ops.def"
#undef OP
    ;

std::string_view OpName(OpCode code);
OpFamily FamilyOf(OpCode code);
inline bool HasTrait(OpCode code, Trait t) { return (InfoOf(code).traits & uint32_t(t)) != 0; }
bool IsTerminator(OpCode code);
// Ops with effects beyond their results: DCE keeps them.
bool HasSideEffects(OpCode code);

enum class CmpPred : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };
std::string_view CmpPredName(CmpPred p);

struct Loc {
  const SourceFile* file = nullptr;
  SourceRange range;
};

class Op;
class Block;

class Value {
 public:
  Value(Type type, Op* def, Block* block, int index) : type_(type), def_(def), block_(block), index_(index) {}
  const Type& type() const { return type_; }
  void set_type(const Type& t) { type_ = t; }
  Op* def() const { return def_; }            // null for block arguments
  Block* owner_block() const { return block_; }  // the block of a block argument
  int index() const { return index_; }        // result or argument number
  bool is_block_arg() const { return def_ == nullptr; }
  const std::string& name() const { return name_; }  // optional hint for the printer
  void set_name(std::string n) { name_ = std::move(n); }
  // The uniformity analysis' verdict (ir/passes/uniformity.h): the same on every lane of a
  // block, or possibly different per lane. Values start uniform.
  bool lane_varying() const { return lane_varying_; }
  void set_lane_varying(bool v) { lane_varying_ = v; }

 private:
  Type type_;
  bool lane_varying_ = false;
  Op* def_;
  Block* block_;
  int index_;
  std::string name_;
};

// A constant's payload: integers (and bool) in `i` as two's complement bits, floats in `f`.
struct ConstVal {
  int64_t i = 0;
  double f = 0;
  bool operator==(const ConstVal&) const = default;
};

// One attribute's value; the alternatives follow AttrKind's order.
using AttrValue = std::variant<ConstVal, int64_t, CmpPred, ReduceKind, bool, std::vector<int64_t>,
                               std::vector<std::string>, AtomicKind>;
template <AttrKind K>
using AttrCpp = std::variant_alternative_t<size_t(K), AttrValue>;

class Block {
 public:
  explicit Block(Op* parent = nullptr) : parent_(parent) {}
  Value* AddArg(const Type& t);
  const std::vector<std::unique_ptr<Value>>& args() const { return args_; }
  Value* arg(int i) const { return args_[i].get(); }
  int num_args() const { return int(args_.size()); }

  std::vector<std::unique_ptr<Op>>& ops() { return ops_; }
  const std::vector<std::unique_ptr<Op>>& ops() const { return ops_; }
  Op* terminator() const;  // the last op if it is a terminator, else null
  Op* parent_op() const { return parent_; }
  void set_parent_op(Op* p) { parent_ = p; }
  // Appends or inserts an op and takes ownership.
  Op* Append(std::unique_ptr<Op> op);
  Op* Insert(size_t pos, std::unique_ptr<Op> op);

 private:
  Op* parent_;
  std::vector<std::unique_ptr<Value>> args_;
  std::vector<std::unique_ptr<Op>> ops_;
};

class Op {
 public:
  Op(OpCode code, Loc loc);
  OpCode code() const { return code_; }
  std::string_view name() const { return OpName(code_); }
  const Loc& loc() const { return loc_; }
  void set_loc(Loc l) { loc_ = l; }

  std::vector<Value*>& operands() { return operands_; }
  const std::vector<Value*>& operands() const { return operands_; }
  Value* operand(int i) const { return operands_[i]; }
  int num_operands() const { return int(operands_.size()); }

  Value* AddResult(const Type& t);
  const std::vector<std::unique_ptr<Value>>& results() const { return results_; }
  Value* result(int i = 0) const { return results_[i].get(); }
  int num_results() const { return int(results_.size()); }

  Block* AddRegion();
  const std::vector<std::unique_ptr<Block>>& regions() const { return regions_; }
  Block* region(int i) const { return regions_[i].get(); }
  int num_regions() const { return int(regions_.size()); }

  Block* parent_block() const { return parent_; }
  void set_parent_block(Block* b) { parent_ = b; }

  // The op's attributes, as ops.def declares them; asking for one it lacks is a compiler bug
  // (reported, then abort).
  AttrValue& attr(AttrId id);
  const AttrValue& attr(AttrId id) const;
  bool has_attr(AttrId id) const;
  void CopyAttrsFrom(const Op& other) { attrs_ = other.attrs_; }  // same op code
  const std::vector<AttrValue>& attrs() const { return attrs_; }
#define ATTR(name, accessor, kind)                                                            \
  AttrCpp<AttrKind::kind>& accessor() { return std::get<AttrCpp<AttrKind::kind>>(attr(AttrId::name)); } \
  const AttrCpp<AttrKind::kind>& accessor() const {                                          \
    return std::get<AttrCpp<AttrKind::kind>>(attr(AttrId::name));                            \
  }
#include "ir/attrs.def"
#undef ATTR

 private:
  OpCode code_;
  Loc loc_;
  std::vector<AttrValue> attrs_;
  Block* parent_ = nullptr;
  std::vector<Value*> operands_;
  std::vector<std::unique_ptr<Value>> results_;
  std::vector<std::unique_ptr<Block>> regions_;
};

struct Param {
  std::string name;
  Loc loc;
};

// A kernel: @wp.func bodies are inlined, so kernels are the only functions in the IR.
class Function {
 public:
  Function(std::string name, Loc loc) : name_(std::move(name)), loc_(loc), body_(std::make_unique<Block>()) {}
  const std::string& name() const { return name_; }
  const Loc& loc() const { return loc_; }
  Block* body() const { return body_.get(); }
  std::vector<Param>& params() { return params_; }
  const std::vector<Param>& params() const { return params_; }
  Value* AddParam(const std::string& name, const Type& type, Loc loc = {});

  bool tiled = false;            // uses tile operations: launched with launch_tiled
  // Lanes per block of the variant (a compile-time constant on every device); 0 until the
  // pipeline sets it. Tile IR text does not carry it.
  int block_dim = 0;
  // compiler::CompileOptions::hybrid_launch: `tid` is the thread's index, not the block's.
  bool hybrid_launch = false;
  bool enable_backward = true;
  // Tile atomic adds commit in launch order (block index, then row-major element order), so
  // results and previous values are bit-reproducible: `deterministic=True` on one, or
  // wp.config.deterministic. Printed and parsed as `deterministic`.
  bool deterministic = false;
  // Non-empty for an adjoint kernel made by ir/autodiff: the kernel it differentiates. Its
  // entry takes the forward arguments and then one adjoint slot per parameter
  // (runtime/include/tilec/signature.h); the IR lists only the forward parameters.
  std::string adjoint_of;

 private:
  std::string name_;
  Loc loc_;
  std::unique_ptr<Block> body_;
  std::vector<Param> params_;
};

class Module {
 public:
  std::vector<StructDef>& structs() { return structs_; }
  const std::vector<StructDef>& structs() const { return structs_; }
  int AddStruct(StructDef def);  // computes the layout; fields must name earlier structs
  std::vector<std::unique_ptr<Function>>& functions() { return functions_; }
  const std::vector<std::unique_ptr<Function>>& functions() const { return functions_; }
  Function* AddFunction(std::string name, Loc loc = {});
  Function* FindFunction(std::string_view name) const;

  // Every scalar array access is bounds-checked and a failing one reported through the launch
  // (codegen/common/checked_access.h): wp.config.mode = "debug", CompileOptions::checked_access.
  bool checked_access = false;

 private:
  std::vector<StructDef> structs_;
  std::vector<std::unique_ptr<Function>> functions_;
};

// Walks every op of a block and its nested regions in program order (pre-order).
template <class F>
void Walk(Block* b, F&& f) {
  for (auto& op : b->ops()) {
    f(op.get());
    for (auto& r : op->regions()) Walk(r.get(), f);
  }
}

// Replaces every use of `from` by `to` inside `scope` (and nested regions).
void ReplaceAllUses(Block* scope, Value* from, Value* to);

}  // namespace tilec::ir
