// The lowering's internal state: the variable environment (symbol -> current SSA value), the
// loop and function contexts that own the break/continue/return flags, and the op families
// split over lower_stmt.cpp, lower_expr.cpp and lower_call.cpp.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <unordered_set>
#include <unordered_map>
#include <vector>

#include "frontend/lower_to_ir/lower_to_ir.h"
#include "ir/builder.h"

namespace tilec::lower {

// A tile variable bound to a view of another (`rows = t[2:4]`, `wp.tile_view(t, ...)`): reads
// take the region of the base's current value, writes go to the base (lower_tile_access.cpp).
struct ViewAlias {
  const void* base = nullptr;  // the aliased variable's key
  std::vector<ir::Value*> offsets;
  std::vector<int64_t> steps;  // per dimension of the base; 0 drops it
  std::vector<int64_t> shape;  // the view's
};

// A variable's current value: an SSA value, a tuple of them (`idx = wp.tid()`), or a view. A
// view bound inside a loop or one branch of an `if` cannot outlive it (the offsets are values
// of that region): after it the variable is `stale`, and a use is an error.
struct Binding {
  ir::Value* value = nullptr;
  std::vector<ir::Value*> tuple;
  std::shared_ptr<const ViewAlias> view;
  bool stale = false;
  bool operator==(const Binding& o) const {
    return value == o.value && tuple == o.tuple && view == o.view && stale == o.stale;
  }
};

// Variable bindings in insertion order: the results of an `if` are the variables its branches
// changed, in this order, so iterating must not depend on where objects happen to live in
// memory (a pointer-keyed hash map would give a different IR on every run).
class Env {
 public:
  using Entry = std::pair<const void*, Binding>;
  using iterator = std::vector<Entry>::iterator;
  using const_iterator = std::vector<Entry>::const_iterator;

  Binding& operator[](const void* key) {
    auto [it, fresh] = index_.try_emplace(key, entries_.size());
    if (fresh) entries_.push_back({key, Binding{}});
    return entries_[it->second].second;
  }
  iterator find(const void* key) {
    auto it = index_.find(key);
    return it == index_.end() ? entries_.end() : entries_.begin() + std::ptrdiff_t(it->second);
  }
  const_iterator find(const void* key) const {
    auto it = index_.find(key);
    return it == index_.end() ? entries_.end() : entries_.begin() + std::ptrdiff_t(it->second);
  }
  void erase(const void* key) {
    auto it = index_.find(key);
    if (it == index_.end()) return;
    entries_.erase(entries_.begin() + std::ptrdiff_t(it->second));
    index_.clear();
    for (size_t i = 0; i < entries_.size(); ++i) index_[entries_[i].first] = i;
  }
  void clear() {
    entries_.clear();
    index_.clear();
  }
  iterator begin() { return entries_.begin(); }
  iterator end() { return entries_.end(); }
  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }

 private:
  std::vector<Entry> entries_;
  std::unordered_map<const void*, size_t> index_;
};

struct LoopCtx {
  bool has_break = false, has_continue = false;
  char brk = 0, cont = 0;  // their addresses key the flags in Env
};

struct FuncCtx {
  const sema::FunctionInfo* info = nullptr;
  bool has_return_flag = false;
  char ret = 0, retval = 0;  // keys of the return flag and the returned value
  std::vector<char> tuple_keys;  // keys of a returned tuple's elements (sized once, never moved)
  const sema::Type* return_type = nullptr;
};

class Lowerer;
// `x op y` (op Add or Sub; y null for negation) on two values of one @wp.struct, as Warp's
// generated struct operators: the fields that accumulate combine, vectors and nested structs
// recursively; the others keep x's value. lower_struct_ops.cpp.
ir::Value* FieldwiseStruct(Lowerer& L, ir::OpCode op, ir::Value* x, ir::Value* y);
// The component-wise vector or matrix operation of an element-wise IR op: Add, Sub, and the
// bitwise And, Or, Xor (lower_composite.cpp).
sema::CompositeOp ComponentwiseOp(ir::OpCode op);
// A vector, matrix, quaternion, transform or spatial type (the structs with components).
bool IsVectorLike(Lowerer& L, const ir::ElemType& e);
// Whether a field of type `e` takes part in a struct's +, -, negation and sums: Warp's set,
// 32/64-bit integers and floats, float16, bfloat16, and structs; not bool or 8/16-bit integers.
bool Accumulates(const ir::ElemType& e);

class Lowerer {
 public:
  Lowerer(const sema::CheckedModule& cm, const SourceFile* file, diag::DiagnosticEngine& diags, ir::Module& m)
      : cm_(cm), file_(file), diags_(diags), m_(m), b_(m) {}
  void LowerKernel(const sema::FunctionInfo& k);
  bool failed() const { return failed_; }

  // ---- types
  ir::Type IrType(const sema::Type* t);
  ir::ElemType IrElem(const sema::ElemType& e) { return e.is_struct() ? ir::ElemType::Struct(e.struct_index) : ir::ElemType::Of(e.scalar); }

  // ---- statements (lower_stmt.cpp)
  void LowerBody(const ast::Body& body, size_t from = 0);
  void LowerStmt(const ast::Stmt& s);
  void LowerAssign(const ast::Expr* target, const ast::Expr* value_expr, Binding value);
  void LowerIf(ir::Value* cond, const std::function<void()>& then_fn, const std::function<void()>& else_fn);
  void LowerFor(const ast::For& s);
  // The checked copies of an unrolled loop's body from trip `from` on, each with its value.
  void LowerUnrolled(const ast::For& s, const sema::UnrolledLoop& u, size_t from);
  void LowerWhile(const ast::While& s);
  void CollectAssigned(const ast::Body& body, std::vector<const void*>& keys);
  // Flags that end the current block early (break, continue, return), or null.
  ir::Value* ExitCondition();

  // ---- expressions (lower_expr.cpp)
  ir::Value* Expr(const ast::Expr* e);                 // a single value
  ir::Value* ExprAs(const ast::Expr* e, const sema::Type* to);
  std::vector<ir::Value*> Tuple(const ast::Expr* e);   // tuples and shapes/offsets
  ir::Value* Convert(ir::Value* v, const ir::Type& to);
  ir::Value* ToBool(ir::Value* v);
  ir::Value* ConstOf(const sema::ConstValue& c, const ir::Type& t);
  ir::Value* ZeroValue(const ir::Type& t);
  ir::Value* ArrayOf(const ast::Expr* e);
  // The array fields of the struct `e` (a parameter, or a struct field of one), by path.
  std::map<std::string, ir::Value*> StructArrays(const ast::Expr* e);
  // Vector-like values (lower_composite.cpp).
  const Composite& CompositeOfValue(ir::Value* v);
  std::vector<ir::Value*> Components(ir::Value* v);  // a scalar is its own one component
  // Adds a composite's components to a print's pieces, in Warp's format.
  void PrintComposite(ir::Value* v, std::vector<std::string>& strs, std::vector<ir::Value*>& vals);
  ir::Value* BuildComposite(const ir::Type& t, const std::vector<ir::Value*>& comps);
  ir::Value* SelectComponent(const std::vector<ir::Value*>& comps, ir::Value* index);
  ir::Value* CompositeIndex(int64_t index, const std::vector<ir::Value*>& idx, const Composite& k);
  ir::Value* CompositeValue(const ast::Expr* e, const sema::CallInfo& ci);
  // The operation on operand values (also what tile_map and tile arithmetic apply per
  // element); null for one with no value form.
  ir::Value* CompositeOfValues(sema::CompositeOp op, const std::vector<ir::Value*>& x, const ir::Type& rt,
                               int64_t index = -1, int64_t count = 0, int64_t step = 1);
  // `base` with the component, row or part that `ci` reads replaced by `v`.
  ir::Value* CompositeWithPart(const sema::CallInfo& ci, ir::Value* base, ir::Value* v);
  std::vector<ir::Value*> last_tuple_;  // the elements a tuple-returning func call returned
  std::vector<ir::Value*> IndexList(const ast::Expr* index);
  ir::Value* ArrayViewOf(ir::Value* arr, const ast::Expr* index);

  // ---- tile views, gathers and in-place writes (lower_tile_access.cpp)
  // The region a view expression (a view subscript or wp.tile_view) reads, and its tile.
  struct Region {
    const ast::Expr* base = nullptr;
    std::vector<ir::Value*> offsets;
    std::vector<int64_t> steps, shape;
  };
  bool RegionOf(const ast::Expr* e, Region& out);
  // The indices of `t[i, j]` as int32, a negative one counted from the end.
  std::vector<ir::Value*> ElementIndices(const ast::Expr* tile, const ast::Expr* index);
  ir::Value* LaneSerialUpdate(ir::OpCode op, ir::Value* t, ir::Value* v, const std::vector<ir::Value*>& idx);
  ir::Value* TileAccessValue(const ast::Subscript& s, const sema::TileAccess& acc);
  // A variable's value (a view reads its base).
  ir::Value* ReadVar(const void* key, SourceRange use);
  // Updates a variable in place (through views to the variable they alias).
  void WriteVar(const void* key, ir::Value* v);
  // Updates what `target` names in place: a variable, or a view of one (a temporary: nothing).
  void WriteTile(const ast::Expr* target, ir::Value* v);
  // `name = <view of a variable>` binds an alias; false when `value` is no such view.
  bool BindView(const sema::LocalSymbol* sym, const ast::Expr* value);
  // Views and in-place writes across a loop or an `if`: the keys a write through `target`
  // updates (its root variable and the bases of the views it is), and the alias graph of the
  // function (every `v = view of x` records x as a possible base of v).
  void InPlaceKeys(const ast::Expr* target, std::vector<const void*>& keys);
  void CollectAliases(const ast::Body& body);
  // The value a loop yields or an `if` merges for `key`: a view is read.
  ir::Value* RegionExitValue(const void* key);
  // After a loop or `if`: views of the region's keys become stale (Binding::stale).
  void StaleViews(const std::vector<const void*>& keys, const Env& inside);

  // ---- calls (lower_call.cpp)
  ir::Value* Call(const ast::Expr* e, const sema::CallInfo& ci);
  // `tuples[k]`: the elements of a tuple argument k (its `args[k]` is null).
  ir::Value* InlineFunc(int func_index, const std::vector<ir::Value*>& args,
                        const std::vector<std::vector<ir::Value*>>& tuples = {});
  std::vector<ir::Value*> last_params_;  // the parameters' values where the last inlined func ended
  bool PassedByReference(const sema::FunctionInfo& fi, int param);
  ir::Value* TileBinaryOp(ir::OpCode op, ir::Value* a, ir::Value* b);
  ir::Value* LowerTileMap(const sema::CallInfo& ci, const ir::Type& rt);
  ir::Value* ReduceWithFunc(int func, ir::Value* t, int axis);
  std::vector<ir::Value*> Offsets(const sema::CallInfo& ci, int param, int ndim);

  // ---- the block-shared stack (lower_call.cpp): a (capacity + 1,) tile whose last element is
  // the count. The count is read once where it dominates every later read, because
  // wp.tile_stack_count may run under a lane-varying condition, where no tile may be read.
  ir::Value* StackCount(ir::Value* stack);  // int32
  // A stack's slots hold its element type, widened where that type cannot hold every count
  // (bool and 8/16-bit integers in 32-bit ones, float16 and bfloat16 in float32).
  static ir::ElemType StackSlotElem(ir::ElemType e);
  // Where a struct stack keeps its count in the last slot: the field indices down to its first
  // 32/64-bit integer or float field (empty for a scalar stack).
  std::vector<int> StackCountPath(ir::ElemType e);
  // The last slot of `stack` with its count set to `count` (int32).
  ir::Value* WithStackCount(ir::Value* stack, ir::Value* count);
  // Before a region that may be lane-varying: the count of every stack variable, read where
  // all lanes still run.
  void HoistStackCounts();
  struct CountAt {
    ir::Value* count;
    const ir::Block* block;  // valid in this block and the regions nested in it
  };
  std::unordered_map<const ir::Value*, CountAt> stack_counts_;
  std::unordered_set<const void*> stack_keys_;  // the variables that hold a stack

  ir::Loc LocOf(SourceRange r) const { return ir::Loc{file_, r}; }
  void Unsupported(SourceRange r, const std::string& what);

  const sema::CheckedModule& cm_;
  const SourceFile* file_;
  diag::DiagnosticEngine& diags_;
  ir::Module& m_;
  ir::Builder b_;
  ir::Function* kernel_ = nullptr;  // the kernel being lowered
  Env env_;
  // The array fields of each struct parameter holding arrays (of the kernel, or of an inlined
  // func), by path (`x`, `inner.y`): the kernel's own array parameters for them.
  std::unordered_map<const sema::LocalSymbol*, std::map<std::string, ir::Value*>> struct_arrays_;
  std::vector<LoopCtx*> loops_;
  std::vector<FuncCtx*> funcs_;
  std::unordered_map<const void*, std::vector<const void*>> alias_bases_;
  bool failed_ = false;
};

// Does `body` hold a break/continue of this loop level, or a return anywhere?
bool HasLoopExit(const ast::Body& body, bool want_break);
bool HasReturn(const ast::Body& body);
bool StmtMayExit(const ast::Stmt& s);

}  // namespace tilec::lower
