// Builds Tile IR at an insertion point (the end of a block), inferring result types, and
// stamping every op with the builder's current source location.
#pragma once
#include <vector>

#include "ir/ir.h"

namespace tilec::ir {

class Builder {
 public:
  explicit Builder(Module& module) : module_(module) {}

  Module& module() { return module_; }
  void SetInsertionPoint(Block* block) { block_ = block; }
  Block* insertion_block() const { return block_; }
  void set_loc(Loc loc) { loc_ = loc; }
  const Loc& loc() const { return loc_; }

  // Restores the insertion block when it goes out of scope.
  class InsertionGuard {
   public:
    explicit InsertionGuard(Builder& b) : b_(b), block_(b.block_) {}
    ~InsertionGuard() { b_.block_ = block_; }
   private:
    Builder& b_;
    Block* block_;
  };

  // Creates a bare op of `code` with the given operands and result types.
  Op* Create(OpCode code, std::vector<Value*> operands, std::vector<Type> result_types);

  // --- scalars ---
  Value* Const(const Type& type, ConstVal v);
  Value* ConstInt(ScalarType t, int64_t v);
  Value* ConstFloat(ScalarType t, double v);
  Value* ConstBool(bool v);
  Value* ZeroOf(const Type& elem_type);  // scalar zero or zero-filled struct
  // Elementwise binary op; a tile operand makes the result a register tile.
  Value* Binary(OpCode code, Value* a, Value* b);
  Value* Unary(OpCode code, Value* a);
  Value* Clamp(Value* x, Value* lo, Value* hi);
  Value* Fma(Value* a, Value* b, Value* c);  // a*b + c, rounded once
  Value* Cmp(CmpPred pred, Value* a, Value* b);
  Value* Logic(OpCode code, Value* a, Value* b);  // And / Or on bools
  Value* Select(Value* cond, Value* a, Value* b);
  Value* Cast(Value* v, ScalarType to);  // scalars, or tiles element by element
  std::vector<Value*> Tid(int count);
  Value* LaneId();  // lane-varying int32

  // --- arrays and structs ---
  Value* ArrayLoad(Value* array, const std::vector<Value*>& indices);
  void ArrayStore(Value* array, const std::vector<Value*>& indices, Value* v);
  Value* AtomicAdd(Value* array, const std::vector<Value*>& indices, Value* v);
  // cmp: the compare value of kind cas, null for the others.
  Value* AtomicRmw(AtomicKind k, Value* array, const std::vector<Value*>& indices, Value* cmp, Value* v);
  Value* ArrayDim(Value* array, int dim);
  Value* FieldGet(Value* s, int field);
  Value* FieldSet(Value* s, int field, Value* v);

  // --- tiles ---
  Value* TileFull(Value* v, const std::vector<int64_t>& shape, Storage storage = Storage::Register);
  Value* TileArange(ScalarType dtype, double start, double step, int64_t count,
                    Storage storage = Storage::Register);
  Value* TileLoad(Value* array, const std::vector<int64_t>& shape, const std::vector<Value*>& offsets,
                  Storage storage = Storage::Register);
  void TileStore(Value* array, Value* tile, const std::vector<Value*>& offsets);
  Value* TileAtomicAdd(Value* array, Value* tile, const std::vector<Value*>& offsets);
  Value* TileLoadIndexed(Value* array, Value* indices, const std::vector<int64_t>& shape,
                         const std::vector<Value*>& offsets, int axis,
                         Storage storage = Storage::Register);
  void TileStoreIndexed(Value* array, Value* indices, Value* tile,
                        const std::vector<Value*>& offsets, int axis);
  Value* TileAtomicAddIndexed(Value* array, Value* indices, Value* tile,
                              const std::vector<Value*>& offsets, int axis);
  Value* TileSum(Value* tile);
  // Combines the elements along `axis` (that dimension removed; a 1-D tile gives shape (1,)),
  // or all of them into shape (1,) with axis -1.
  Value* TileReduce(ReduceKind kind, Value* tile, int axis = -1);
  // Prefix combination in row-major order; same shape, register storage.
  Value* TileScan(ReduceKind kind, Value* tile, bool inclusive);
  // Extents of 1 (and missing leading dimensions, NumPy's rule) repeated to `shape`.
  Value* TileBroadcast(Value* tile, const std::vector<int64_t>& shape);
  // The same elements in row-major order under another shape (equal element counts).
  Value* TileReshape(Value* tile, const std::vector<int64_t>& shape);
  // Result dimension d is dimension perm[d] of `tile`; a transpose is {1, 0}.
  Value* TilePermute(Value* tile, const std::vector<int64_t>& perm);
  // The row-major index (int32, shape (1,)) of the first element of `tile` equal to the one
  // element of `target` (shape (1,)); the element count where none is (an all-NaN tile).
  // Built from the generic ops: argmin/argmax, and the min/max adjoints' subgradient. `lin`,
  // when given, is the tile of row-major indices in `tile`'s shape (the caller reuses it).
  Value* FirstIndexOf(Value* tile, Value* target, Value* lin = nullptr);
  // Per element: `then`'s element where `a` and `b` (tiles of one shape) are equal, else
  // `otherwise` (a scalar of the result element type `then` has). A tile_map.
  Value* SelectWhereEqual(Value* a, Value* b, Value* then, Value* otherwise);
  // `indices` (a 1-D int tile) with every entry that a later entry repeats replaced by -1, the
  // padding sentinel: of the elements a tile_store_indexed writes to one place, the last in
  // row-major order lands (LANGUAGE.md §5), so it alone takes the adjoint.
  Value* LastOccurrences(Value* indices);
  Value* TileExtract(Value* tile, const std::vector<Value*>& indices);
  // Each lane with `has_value` adds (accumulate) or writes `value` at `indices` of a copy of dst.
  Value* TileScatterLanes(Value* dst, Value* value, Value* has_value, const std::vector<Value*>& indices,
                          bool accumulate);
  Value* BlockDim();
  // The view of `array` at its leading `indices` (fewer than its dimensions).
  Value* ArraySlice(Value* array, const std::vector<Value*>& indices);
  // `bounds` holds a start and a stop per entry of `steps` (ops.def, array_view).
  Value* ArrayView(Value* array, const std::vector<Value*>& bounds, const std::vector<int64_t>& steps);
  // A copy of `tile` whose element `indices` is `v` (unchanged when outside).
  Value* TileInsert(Value* tile, Value* v, const std::vector<Value*>& indices);
  // The elements of `tile` at offsets[d] + steps[d] * r along each dimension (step 0 drops the
  // dimension); `shape` is the result's, one extent per nonzero step.
  Value* TileView(Value* tile, const std::vector<Value*>& offsets, const std::vector<int64_t>& steps,
                  const std::vector<int64_t>& shape);
  // A copy of `dst` with `src` written where TileView(dst, offsets, steps, src's shape) reads.
  Value* TileAssign(Value* dst, Value* src, const std::vector<Value*>& offsets, const std::vector<int64_t>& steps);
  // The slices of `tile` at the 1-D `indices` along `axis`.
  Value* TileGather(Value* tile, Value* indices, int axis);
  // `dst` plus the slices of `src` added at `indices` along `axis`.
  Value* TileScatterAdd(Value* dst, Value* indices, Value* src, int axis);
  // Both tiles permuted into ascending order of `keys` (stable); returns the op (results:
  // sorted keys, values).
  Op* TileSort(Value* keys, Value* values);
  // c + a @ b in c's type (a (M, K), b (K, N), c (M, N)).
  Value* TileMatmul(Value* a, Value* b, Value* c, bool tf32 = false);
  // Dense linear algebra (ops.def): results are new shared tiles. `code` of TileTriSolve is
  // TileLowerSolve or TileUpperSolve.
  Value* TileDiagAdd(Value* a, Value* d);
  Value* TileCholesky(Value* a);
  Op* TileFft(Value* re, Value* im, bool inverse);
  Value* TileTriSolve(OpCode code, Value* m, Value* y);
  Value* TileTril(Value* t, bool inclusive);
  // A map whose region receives one element of each input and must yield the result
  // element (of `result_elem`); the caller fills op->region(0).
  Op* TileMap(const std::vector<Value*>& tiles, ElemType result_elem);
  // texts.size() == values.size() + 1: text before each value and after the last.
  void Print(std::vector<std::string> strs, const std::vector<Value*>& values);
  void Assert(Value* cond);

  // --- control flow; the caller fills the regions and their terminators ---
  Op* If(Value* cond, const std::vector<Type>& result_types);  // regions: then, else
  // Region: ^(iv, iters...); results: one per init.
  Op* For(Value* lo, Value* hi, Value* step, const std::vector<Value*>& inits);
  // Regions: before ^(inits...) ending in `condition`, after ^(forwarded...) ending in
  // `yield` of the next inits; results: the forwarded values' types.
  Op* While(const std::vector<Value*>& inits, const std::vector<Type>& forwarded_types);
  void Yield(const std::vector<Value*>& values);
  void Condition(Value* cond, const std::vector<Value*>& values);
  void Return();

 private:
  Module& module_;
  Block* block_ = nullptr;
  Loc loc_;
};

}  // namespace tilec::ir
