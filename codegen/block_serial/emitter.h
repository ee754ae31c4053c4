// Block-serial lowering of one Tile IR kernel to an LLVM function with the
// tilec_cpu_kernel_fn signature. Scalars become SSA values, a tile becomes a stack buffer of
// its elements in row-major order (filled by loop nests LLVM can vectorize), arrays become
// (data, shape, byte strides). The emitter is split by op family over several files.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "codegen/common/dispatch.h"
#include "ir/ir.h"

namespace tilec::codegen {

// Lowers every kernel of `m` into a new LLVM module. Returns null and sets `error` if the
// result fails LLVM's verifier (a compiler bug).
std::unique_ptr<llvm::Module> LowerBlockSerial(const ir::Module& m, llvm::LLVMContext& ctx,
                                               std::string& error);

namespace bs {

// `s` with every `%` doubled, for a printf format.
std::string EscapePercent(const std::string& s);

struct ArrayVal {
  llvm::Value* data = nullptr;
  llvm::Value* shape[ir::kMaxDims] = {};
  llvm::Value* strides[ir::kMaxDims] = {};
};

class Emitter : public OpDispatcher {
 public:
  Emitter(const ir::Module& m, llvm::Module& mod);
  void EmitKernel(const ir::Function& f);

  // ---- types (emit_scalar.cpp) ----
  llvm::Type* ValTy(ScalarType s);           // in registers: bool i1, 16-bit floats i16
  llvm::Type* MemTy(const ir::ElemType& e);  // in memory: bool i8, structs in C layout
  llvm::Type* ValTy(const ir::ElemType& e) { return e.is_struct() ? MemTy(e) : ValTy(e.scalar); }
  llvm::Value* ToMem(llvm::Value* v, const ir::ElemType& e);
  llvm::Value* FromMem(llvm::Value* v, const ir::ElemType& e);
  llvm::Value* Zero(const ir::ElemType& e);  // value form

  // ---- scalar ops (emit_scalar.cpp) ----
  llvm::Value* EmitConst(const ir::Op& op);
  // One element of an elementwise op; `in` is the operands' scalar type.
  llvm::Value* EmitScalarElementwise(ir::OpCode code, ScalarType in, ScalarType out,
                                     const std::vector<llvm::Value*>& args);
  llvm::Value* EmitCast(llvm::Value* v, ScalarType from, ScalarType to);
  llvm::Value* EmitCmp(ir::CmpPred p, ScalarType t, llvm::Value* a, llvm::Value* b);
  llvm::Value* ExpF32(llvm::Value* x);  // float32 (or vector of) e^x, the same bits on every device
  llvm::Value* ToF32(llvm::Value* v, ScalarType t);    // 16-bit floats widened, others as float
  llvm::Value* FromF32(llvm::Value* f, ScalarType t);  // rounding to nearest even
  llvm::Value* AsI64(llvm::Value* v, ScalarType t);    // integer index widened to i64
  llvm::Value* EmitLogic(ir::OpCode code, llvm::Value* a, llvm::Value* b);
  // field_get (v unused) or field_set of struct value `s`.
  llvm::Value* EmitStructOp(const ir::Op& op, llvm::Value* s, llvm::Value* v);

  // ---- reductions and scans, shared with SIMT so both combine in the same order and type ----
  // The type elements are combined in: float32 for the 16-bit floats (rounded once per
  // result element, as tile_sum), the element type otherwise.
  static ScalarType AccType(ScalarType elem);
  llvm::Value* Combine(ir::ReduceKind k, ScalarType acc, llvm::Value* a, llvm::Value* b);
  // a + b of element type `e`, field by field for structs (a vec3's adjoint scattered back);
  // a struct's bool fields keep a's value. Values as FromMem gives them.
  llvm::Value* AddElems(const ir::ElemType& e, llvm::Value* a, llvm::Value* b);
  // What an exclusive scan gives its first element (the kind's identity, +0.0 for float adds).
  llvm::Value* ReduceIdentity(ir::ReduceKind k, ScalarType acc);
  // The dimension tile_reduce combines along, or -1 for every element.
  static int ReduceAxis(const ir::Op& op);
  // The one order every device reduces `n` elements in (docs/semantics.md): kFoldLanes
  // partials, element k into partial k % kFoldLanes in increasing k, then a halving tree
  // (partial i with partial i + w, for w = kFoldLanes/2 ... 1). The partials are one vector
  // value, so the CPU combines a chunk per instruction; 32 is a warp, so the tree is also a
  // warp's shuffle-down tree. `elem_ptr(k)` points at element k (i64); `stride` is the
  // distance in elements between k and k + 1, known to be 1 when they are adjacent;
  // `partials` a slot of FoldType(acc). Returns the result in AccType.
  static constexpr int kFoldLanes = 32;
  llvm::Type* FoldType(ScalarType acc);
  llvm::Value* FoldInOrder(ir::ReduceKind k, const ir::ElemType& in_elem, int64_t n, int64_t stride,
                           llvm::Value* partials, const std::function<llvm::Value*(llvm::Value*)>& elem_ptr);
  // Distance in elements between consecutive elements along `axis` (-1: flat, 1).
  static int64_t ReduceStride(const ir::Type& in, int axis);
  // Row-major linear index (i64) in `in` of coordinate `k` along `axis`, the other coordinates
  // being those of a result element of the reduction.
  llvm::Value* ReduceSourceIndex(const ir::Type& in, int axis, const std::vector<llvm::Value*>& out_coords,
                                 llvm::Value* k);
  // The input element a result coordinate of tile_broadcast / tile_permute reads.
  llvm::Value* BroadcastSourceIndex(const ir::Type& in, const ir::Type& out, const std::vector<llvm::Value*>& out_coords);
  llvm::Value* PermuteSourceIndex(const ir::Type& in, const std::vector<int64_t>& perm,
                                  const std::vector<llvm::Value*>& out_coords);

  // tile_matmul's element (i, j): c's element plus the K products of row i of a and column j
  // of b, acc = fma(a[i,k], b[k,j], acc) in increasing k, in AccType(c). `a`, `b` are flat
  // buffers (row-major); `c_elem` the accumulator's start in value form. Shared with SIMT.
  // The CPU runs EmitMatmul instead, which gives the same bits.
  llvm::Value* MatmulElement(const ir::Op& op, llvm::Value* a, llvm::Value* b, llvm::Value* c_elem, llvm::Value* i,
                             llvm::Value* j, llvm::Value* acc_slot);
  // tile_diag_add, tile_cholesky, tile_lower_solve, tile_upper_solve (emit_linalg.cpp): the
  // whole result written sequentially into `dst` from the operands' flat buffers `in`, in the
  // order docs/semantics.md gives. `acc_slot` holds an AccType(element) value. Shared with SIMT,
  // which runs it on lane 0.
  void EmitLinalg(const ir::Op& op, const std::vector<llvm::Value*>& in, llvm::Value* dst, llvm::Value* acc_slot);
  // tile_fft (emit_linalg.cpp): the transform of the flat real and imaginary buffers `in` into
  // `out`, its butterflies (or output bins) dealt to `lanes` lanes, this one `lane` (i64), with
  // `barrier` between the passes. The CPU calls it with one lane; SIMT with the block's, so
  // every device computes each element with the same operations. `twiddle_table` (the CPU):
  // the twiddles are computed once per call into a table, the same values bit for bit.
  void EmitFft(const ir::Op& op, const std::vector<llvm::Value*>& in, const std::vector<llvm::Value*>& out,
               llvm::Value* lane, int64_t lanes, const std::function<void()>& barrier, bool twiddle_table = false);

  // ---- element access, shared with SIMT (each result element computed the same way) ----
  // Offsets of tile_view / tile_assign (the op's operands from `first`, lowered by the
  // caller's `get`), as i64.
  std::vector<llvm::Value*> RegionOffsets(const ir::Op& op, int first,
                                          const std::function<llvm::Value*(const ir::Value*)>& get);
  // Where element `small_coords` of a region lies in `big` (tile_view's source element, the
  // destination of tile_assign); *inside tells whether that is within `big` (the index is 0
  // when not).
  llvm::Value* RegionIndex(const ir::Type& big, const std::vector<int64_t>& steps, const std::vector<llvm::Value*>& offs,
                           const std::vector<llvm::Value*>& small_coords, llvm::Value** inside);
  // The inverse: which element of the region `small` element `big_coords` of `big` is, and
  // *hit whether it is one.
  llvm::Value* RegionInverse(const ir::Type& big, const ir::Type& small, const std::vector<int64_t>& steps,
                             const std::vector<llvm::Value*>& offs, const std::vector<llvm::Value*>& big_coords,
                             llvm::Value** hit);
  // An index of tile_gather / tile_scatter_add read from memory, as i64 with a negative one
  // counted from the end of an axis of `extent`.
  llvm::Value* WrapIndex(llvm::Value* idx, ScalarType t, int64_t extent);
  // Row-major index in `t` of `coords` with the coordinate along `axis` replaced by `at`.
  llvm::Value* WithCoord(const ir::Type& t, const std::vector<llvm::Value*>& coords, int axis, llvm::Value* at);
  // tile_sort's order on keys: a before b (NaN after every number; equal keys compare false).
  llvm::Value* KeyLess(llvm::Value* a, llvm::Value* b, ScalarType t);
  // Where key element i (value `ki`) of the n keys at `keys` lands: the keys before it in the
  // order, and the equal ones before it in the tile (a stable sort). `count` is an i64 slot.
  llvm::Value* SortRank(llvm::Value* keys, const ir::ElemType& e, int64_t n, llvm::Value* i, llvm::Value* ki,
                        llvm::Value* count);

  // ---- memory (emit_memory.cpp) ----
  // array_slice: the view of `a` (ndim dimensions) at its leading indices (i64); an index
  // outside gives zero extents. Shared with SIMT.
  ArrayVal SliceArray(const ArrayVal& a, int ndim, const std::vector<llvm::Value*>& idx);
  // array_view (ops.def): a start and a stop (int64) per entry of `steps`.
  ArrayVal ViewArray(const ArrayVal& a, int ndim, const std::vector<llvm::Value*>& bounds,
                     const std::vector<int64_t>& steps);
  void EmitArrayOp(const ir::Op& op) override;
  void EmitTileMemoryOp(const ir::Op& op) override;
  llvm::Value* EmitAtomicAdd(llvm::Value* ptr, llvm::Value* v, ScalarType t);
  // Atomic add of an element (scalar or struct, value form) at ptr; returns the previous value.
  llvm::Value* EmitElemAtomicAdd(llvm::Value* ptr, llvm::Value* v, const ir::ElemType& e);
  // A compare-and-swap loop at ptr from `guess` (of the type swapped): `next` maps the value
  // seen to the one to store, and a lost race retries with the value seen. Returns the
  // previous value.
  llvm::Value* CasLoop(llvm::Value* ptr, llvm::Value* guess, llvm::Align align,
                       const std::function<llvm::Value*(llvm::Value*)>& next);
  // An atomic read-modify-write of a float16/bfloat16 element as a compare-and-swap loop,
  // `combine` mapping the old value (float32) to the new one; returns the previous value.
  llvm::Value* Atomic16BitFloat(llvm::Value* ptr, ScalarType t, const std::function<llvm::Value*(llvm::Value*)>& combine);
  // atomic_rmw of a scalar element at ptr (cmp: cas's compare value, else null); returns the
  // previous value. Shared with SIMT (both CPU and NVPTX take LLVM's atomics as they are).
  llvm::Value* EmitAtomicRmw(ir::AtomicKind k, llvm::Value* ptr, llvm::Value* v, llvm::Value* cmp, ScalarType t);

  // ---- tiles (emit_tile.cpp) ----
  void EmitTileOp(const ir::Op& op) override;
  void EmitElementwise(const ir::Op& op) override;  // scalar or tile
  void EmitPrint(const ir::Op& op) override;
  llvm::Value* TileElemPtr(llvm::Value* buf, const ir::ElemType& e, llvm::Value* linear);
  llvm::Value* AllocTile(const ir::Type& t, const char* name = "tile");
  void CopyTile(llvm::Value* dst, llvm::Value* src, const ir::Type& t);

  // ---- tile_matmul factors straight from their arrays (emit_memory.cpp, emit_matmul.cpp) ----
  // A plain 2-D tile_load that a tile_matmul of its block reads: where the same load of the
  // next block program (or loop iteration) will probably read, predicted from the step between
  // this load's last two origins, so that the product, which keeps the core busy for a while,
  // prefetches it (rows of `row_bytes` at `row_stride` bytes, `next` the first). When the
  // matmul is the tile's only reader and nothing writes memory in between, the tile is not
  // copied where its rows lie contiguous and in bounds in the array: its value is then the
  // array's element (0, 0) itself (a phi with the stack copy the other rows still take).
  struct MatmulSource {
    llvm::Value* next = nullptr;        // i8 pointer (never dereferenced, only prefetched)
    llvm::Value* row_stride = nullptr;  // i64 bytes
    int64_t rows = 0, row_bytes = 0;
    // Where the tile is read in place (i1, null when never): its bytes [origin, origin + span).
    llvm::Value* in_place = nullptr;
    llvm::Value* origin = nullptr;
    llvm::Value* span = nullptr;
  };
  // The tile_matmul reading `load`'s result as factor a or b in the same block, or null;
  // *only: that is the result's one reader and no op between them may write memory.
  const ir::Op* MatmulReader(const ir::Op& load, bool* only);
  // A product stored as it is (`tile_store(c, tile_matmul(a, b), ...)`, the store the
  // product's one reader, nothing touching memory in between) is emitted at the store, its
  // register blocks written straight into the array where the destination rows are in bounds,
  // unit-stride and clear of factors read in place (`ok`); non-temporal stores (`nt`) where the
  // store would stream (emit_memory.cpp). Otherwise the product goes to its tile and the store
  // copies it as usual.
  struct MatmulStore {
    llvm::Value* origin = nullptr;      // i8 pointer of element (0, 0) in the array
    llvm::Value* row_stride = nullptr;  // i64 bytes
    llvm::Value* ok = nullptr;          // i1
    llvm::Value* nt = nullptr;          // i1
  };
  // The tile_store that is `matmul`'s one reader as above, or null.
  const ir::Op* MatmulStoreReader(const ir::Op& matmul);

  // ---- a tile moved from array to array as it is (emit_memory.cpp) ----
  // A tile_load or tile_load_indexed whose one reader is a tile_store or tile_store_indexed of
  // the same block, nothing that writes memory in between, is emitted at the store: each row
  // goes from the source array to the destination array directly where the two arrays' bytes
  // are disjoint (a gather then costs what a hand-written row copy does); where they may
  // overlap, the tile is loaded whole and then stored, as the semantics say.
  const ir::Op* CopyStoreReader(const ir::Op& load);
  void EmitTileCopy(const ir::Op& load, const ir::Op& store);
  void EmitTileTransfer(const ir::Op& op);  // one tile memory op through its tile
  // `bytes` (a multiple of 16, at least 64) from `from` to `to`, with non-temporal stores where
  // `stream` holds and `to` is 16-byte aligned.
  void StreamRow(llvm::Value* to, llvm::Value* from, uint64_t bytes, llvm::Value* stream, llvm::Align from_align);
  // Whether the host has a 16-byte compare-and-swap (x86-64's cmpxchg16b).
  static bool HostHasCas16();
  // Atomic adds of `quads` groups of four float32 elements at 16-byte aligned `base`, from tile
  // `src` at linear element lin0 on, one 16-byte compare-and-swap each; the previous values go
  // to tile `prev` at the same positions.
  void AtomicAddQuads(llvm::Value* base, llvm::Value* src, llvm::Value* prev, const ir::ElemType& e,
                      llvm::Value* lin0, int64_t quads);
  // Prefetches (for reading, or for writing) the lines of a row of `row_bytes` at `base`, the
  // first kilobyte of it.
  void PrefetchLines(llvm::Value* base, uint64_t row_bytes, bool write);
  // Rows reached through an index tile are scattered over memory: row `c` (of `rows`)
  // prefetches row c + ahead, and the first row also the rows before that, so that misses overlap.
  void PrefetchAhead(llvm::Value* c, int64_t rows, int64_t ahead, const std::function<void(llvm::Value*)>& prefetch_row);
  void EmitMatmulInto(const ir::Op& matmul, const MatmulStore* direct);
  // tile_matmul into `dst` (or `direct`) from the flat buffers a, b, c (emit_matmul.cpp):
  // register blocks of vector accumulators over the k loop, each element's terms fused in
  // MatmulElement's order.
  void EmitMatmul(const ir::Op& op, llvm::Value* a, llvm::Value* b, llvm::Value* c, llvm::Value* dst,
                  const MatmulStore* direct = nullptr);

  // ---- loops and control flow (emit_module.cpp) ----
  // Counted loop 0..n-1 (n an i64 constant or value); body gets the i64 index.
  void EmitCountedLoop(llvm::Value* n, const std::function<void(llvm::Value*)>& body);
  // Loop nest over a static shape; body gets per-dimension i64 coordinates and the row-major
  // linear index.
  void EmitLoopNest(const ir::Type& tile,
                    const std::function<void(const std::vector<llvm::Value*>&, llvm::Value*)>& body);
  void EmitBlock(const ir::Block& b);  // every op but the terminator

  // A scalar's value where the builder is: inside a loop over the lanes, this lane's; in code
  // that runs once per block, lane 0's (the value a tile operation reads, LANGUAGE.md §4).
  llvm::Value* Get(const ir::Value* v);
  void Set(const ir::Value* v, llvm::Value* lv) { vals_[v] = lv; }
  const ArrayVal& GetArray(const ir::Value* v);

  // ---- lanes (emit_lanes.cpp) ----
  // A kernel with per-lane work runs it as loops over its `lanes_` lanes between the block's
  // cooperative operations (region formation at tile operations, as POCL runs OpenCL work
  // groups); a lane-varying scalar that outlives its loop is kept as a tile of shape
  // (lanes,), one element per lane, so `wp.tile(x)` reads it as it is.
  static bool NeedsLanes(const ir::Function& f);
  bool IsLaneBuffer(const ir::Value* v) const { return lane_buffers_.count(v) != 0; }
  // tile_scatter_lanes (the per-lane bridge into a tile).
  void EmitScatterLanes(const ir::Op& op);
  llvm::Value* I64(int64_t v) { return b_.getInt64(uint64_t(v)); }
  llvm::Value* EntryAlloca(llvm::Type* t, const char* name, unsigned align = 16);
  void FinishHeapBlock();

  llvm::IRBuilder<>& b() { return b_; }
  llvm::LLVMContext& ctx() { return ctx_; }
  const ir::Module& irm() const { return irm_; }

 private:
  // ---- structured control flow: a carried tile is a stack buffer, stored by copying ----
  llvm::IRBuilder<>& Builder() override { return b_; }
  llvm::Value* ValueOf(const ir::Value* v) override { return Get(v); }
  void Define(const ir::Value* v, llvm::Value* lv) override { Set(v, lv); }
  const ArrayVal& ArrayValueOf(const ir::Value* v) override { return GetArray(v); }
  void EmitRegion(const ir::Block& b) override { EmitBlock(b); }
  llvm::Value* SlotAlloca(llvm::Type* t, const char* name, unsigned align) override {
    return EntryAlloca(t, name, align);
  }
  llvm::Type* ScalarSlotType(const ir::ElemType& e) override { return ValTy(e); }
  llvm::Value* NewTileSlot(const ir::Type& t, const char* name) override { return AllocTile(t, name); }
  bool TileInSlot(const ir::Value* tile, const Slot& s) override { return vals_.count(tile) && vals_.at(tile) == s.ptr; }
  void StoreTile(const Slot& dst, const ir::Value* tile) override;
  void CopySlot(const Slot& dst, const Slot& src) override { CopyTile(dst.ptr, src.ptr, dst.type); }
  void BindTile(const ir::Value* v, const Slot& s) override {
    Set(v, s.ptr);
    if (!v->type().is_tile()) lane_buffers_.insert(v);
  }
  llvm::Function* HalfHelper(const char* name);  // f16/bf16 <-> f32 conversions
  bs::Emitter& Scalar() override { return *this; }
  llvm::Value* ProgramIndex() override { return linear_; }
  llvm::Value* LaunchDim(int d) override { return launch_dims_[d]; }
  llvm::Value* LaneIndex() override { return lane_ ? lane_ : I64(0); }
  int Lanes() override { return kernel_->tiled ? (kernel_->block_dim > 0 ? kernel_->block_dim : 1) : 1; }
  const ir::Function& Kernel() override { return *kernel_; }
  llvm::Value* LaunchRank() override;
  ir::Type SlotType(const ir::Value* v) override;

  // ---- lanes (emit_lanes.cpp) ----
  bool BlockLevel(const ir::Op& op);        // a cooperative op, or control flow around one
  bool NeedsLaneLoop(const ir::Op& op);     // per-lane work: runs once per lane
  void EmitLaneRun(const std::vector<const ir::Op*>& run);
  ir::Type LaneType(const ir::Value* v) const;  // the (lanes,) tile that keeps v per lane
  // Fills a lane buffer with one value (a uniform value stored into a per-lane slot).
  void FillLanes(llvm::Value* buf, const ir::Value* v);
  // The arrays, as made before a loop over the lanes, whose last stride the loop's per-lane
  // element accesses along the last dimension use; the loop is versioned on their unit stride.
  std::vector<const ir::Value*> UnitStrideArrays(const std::vector<const ir::Op*>& loop_ops);
  // The array whose made view (arrays_, valid before the loop) gives `v` its last stride, or
  // null where that is not known.
  const ir::Value* ArrayBeforeLoop(const ir::Value* v);
  int64_t ElemBytes(const ir::ElemType& e);  // an element's size in memory

  const ir::Module& irm_;
  llvm::Module& mod_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> b_;
  llvm::Function* fn_ = nullptr;
  llvm::BasicBlock* entry_ = nullptr;
  llvm::Value* linear_ = nullptr;  // grid index of the current block program (i64)
  llvm::Value* streamed_ = nullptr;  // i1 slot: a tile store used streaming (non-temporal) stores
  llvm::Value* stream_bytes_ = nullptr;  // i64: arrays this large take streaming stores (abi.h)
  // Buffers too big for a thread's stack (a 1024x1024 float32 tile is 4 MiB) live in one heap
  // block per kernel call: its allocation in the entry (size set when the kernel is done), and
  // the bytes placed in it and on the stack so far.
  llvm::CallInst* heap_block_ = nullptr;
  bool checking_ = false;  // emitting the access a CheckedAccess guards
  uint64_t heap_bytes_ = 0, stack_bytes_ = 0;
  llvm::Value* launch_dims_[ir::kMaxDims] = {};
  std::unordered_map<const ir::Value*, llvm::Value*> vals_;
  // Tile values never materialized, with the op that defines them: broadcasts whose readers
  // are all elementwise ops or maps of the same block (they read the source through the
  // broadcast's index map), and elementwise results with one such reader (it computes them).
  std::unordered_map<const ir::Value*, const ir::Op*> lazy_;
  static bool FusableReaders(const ir::Op& op, bool single);
  bool NeedsCoords(const ir::Value* v) const;
  // Element `lin` (coordinates `coords`, given when NeedsCoords) of tile `v` or of elementwise
  // `op`, in a loop over `shape`.
  llvm::Value* TileElement(const ir::Value* v, const ir::Type& shape, const std::vector<llvm::Value*>* coords,
                           llvm::Value* lin);
  llvm::Value* ElementOf(const ir::Op& op, const ir::Type& shape, const std::vector<llvm::Value*>* coords,
                         llvm::Value* lin);
  void EmitElementLoop(const ir::Type& rt, const std::vector<ir::Value*>& operands,
                       const std::function<void(const std::vector<llvm::Value*>*, llvm::Value*)>& body);
  std::unordered_map<const ir::Value*, ArrayVal> arrays_;
  std::unordered_map<const ir::Value*, MatmulSource> matmul_sources_;
  std::unordered_map<const ir::Op*, const ir::Op*> deferred_matmuls_;  // tile_store -> its product
  std::unordered_map<const ir::Op*, const ir::Op*> deferred_copies_;   // tile_store -> its load
  const ir::Function* kernel_ = nullptr;
  int lanes_ = 0;                  // lanes of per-lane loops; 0: the kernel runs none
  llvm::Value* lane_ = nullptr;    // the lane (i64) inside a loop over the lanes, else null
  int lane_loop_ = -1;             // which loop over the lanes the builder is in (-1: none)
  int lane_loops_ = 0;
  // Values whose vals_ entry is a (lanes,) buffer, one element per lane.
  std::unordered_set<const ir::Value*> lane_buffers_;
  // The loop over the lanes an array view was made in: a view is remade where it is used
  // outside it (its operands are then read for that lane, or for lane 0).
  std::unordered_map<const ir::Value*, int> array_loop_;
  std::unordered_map<const ir::Op*, bool> block_level_, needs_loop_;
  std::unordered_map<int, llvm::StructType*> struct_types_;
};

}  // namespace bs
}  // namespace tilec::codegen
