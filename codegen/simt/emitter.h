// SIMT lowering of one Tile IR kernel: each lane runs the block program; register tile
// element L lives in lane L mod B, slot L div B; shared tiles are row-major in the block's
// shared buffer at the plan's offsets; scalar code, side effects included, runs on every lane
// with that lane's values, and a tile operation reads lane 0's value of a lane-varying scalar.
// Scalar arithmetic is shared with the block-serial emitter, so both execution models compute
// bit-identical element values.
#pragma once
#include <optional>
#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "codegen/common/dispatch.h"
#include "codegen/simt/target.h"

namespace tilec::codegen::simt {

// A tile as the lanes hold it: register slots (an array of ceil(N/B) elements per lane) or
// a shared-memory region; `copy` is the shared copy of a register tile read across lanes.
struct TileRep {
  llvm::Value* ptr = nullptr;
  bool shared = false;
  llvm::Value* copy = nullptr;
};

// A run of per-element tile ops that one loop over chunks of the lane's slots emits
// (emit_fuse.cpp): within a chunk op by op, as ForEachElem does for all slots.
struct FusedRun {
  size_t first = 0, end = 0;     // ops [first, end) of the block
  std::vector<size_t> tile_ops;  // the run's tile ops; the others are pure scalar code
  std::unordered_set<const ir::Value*> internal;  // register tiles made and read only in the run
  int64_t elems = 0;             // elements of every tile op's tile
  int per_chunk = 1;             // slots one iteration takes
};
// The arrays (by root) a run's ops read and write.
struct FusedMemory {
  std::vector<const ir::Value*> reads, writes;
};

class Emitter : public OpDispatcher {
 public:
  Emitter(const ir::Module& m, llvm::Module& mod, Target& target, int block_dim);
  SimtKernelLayout EmitKernel(const ir::Function& f);

 private:
  // ---- kernel, control flow (emit_kernel.cpp) ----
  void EmitBlock(const ir::Block& b);
  void Loop(llvm::Value* lo, llvm::Value* hi, const std::function<void(llvm::Value*)>& body);
  void OnLane0(const std::function<void()>& body);
  llvm::Value* EntryAlloca(llvm::Type* t, const std::string& name, unsigned align = 16);

  // ---- structured control flow: a carried tile is register slots (its lane's elements);
  // barriers and cross-lane copies go where the plan put them ----
  llvm::IRBuilder<>& Builder() override { return b_; }
  llvm::Value* ValueOf(const ir::Value* v) override { return Get(v); }
  void Define(const ir::Value* v, llvm::Value* lv) override { Set(v, lv); }
  const bs::ArrayVal& ArrayValueOf(const ir::Value* v) override { return arrays_.at(v); }
  void EmitRegion(const ir::Block& b) override { EmitBlock(b); }
  llvm::Value* SlotAlloca(llvm::Type* t, const char* name, unsigned align) override {
    return EntryAlloca(t, name, align);
  }
  llvm::Type* ScalarSlotType(const ir::ElemType& e) override { return scalar_.ValTy(e); }
  llvm::Value* NewTileSlot(const ir::Type& t, const char* name) override;
  bool TileInSlot(const ir::Value* tile, const Slot& s) override;
  void StoreTile(const Slot& dst, const ir::Value* tile) override { CopyToRegister(tile, dst.ptr); }
  void CopySlot(const Slot& dst, const Slot& src) override;
  void BindTile(const ir::Value* v, const Slot& s) override { tiles_[v] = TileRep{s.ptr, false, nullptr}; }
  void BeforeRegionExit(const ir::Op& terminator) override;
  // ---- op dispatch ----
  bs::Emitter& Scalar() override { return scalar_; }
  llvm::Value* ProgramIndex() override { return prog_; }
  llvm::Value* LaunchDim(int d) override { return launch_dims_[d]; }
  llvm::Value* LaneIndex() override { return lane_; }
  int Lanes() override { return B_; }
  const ir::Function& Kernel() override { return *fn_; }
  llvm::Value* LaunchRank() override;
  void BeforeOp(const ir::Op& op) override;
  void AfterOp(const ir::Op& op) override;
  void AfterControlResults(const ir::Op& op) override;

  // ---- runs of per-element tile ops as one loop over slot chunks (emit_fuse.cpp) ----
  // The element count of a tile op a run may hold (-1: none); sets `heavy` where it calls a
  // math-library routine and adds the arrays it touches to `mem`.
  int64_t FusedElems(const ir::Op& op, bool& heavy, FusedMemory& mem) const;
  // Whether ops from `first` of `b` form a run worth a loop; fills `run`.
  bool PlanFusedRun(const ir::Block& b, size_t first, FusedRun& run);
  void EmitFusedRun(const ir::Block& b, const FusedRun& run);

  // ---- tiles (emit_tile.cpp) ----
  int Slots(const ir::Type& t) const;
  // Runs `body(slot, linear)` for every element this lane owns (slot and linear are i64).
  void ForEachElem(const ir::Type& t, const std::function<void(llvm::Value*, llvm::Value*)>& body);
  // The same for every element in row-major order, one at a time: the owning lane runs `body`,
  // then the block waits at a barrier (the ordered commit of deterministic tile atomics).
  void ForEachElemInOrder(const ir::Type& t, const std::function<void(llvm::Value*, llvm::Value*)>& body);
  // Deterministic kernels: wait, once per block program, until the programs before this one
  // have finished (tilec_launch::order); at the program's end, pass the turn on.
  void AwaitTurn();
  void PassTurn();
  llvm::Value* TurnTicket();  // tilec_launch::order
  TileRep NewTile(const ir::Value* v);  // the plan's placement of an op result
  llvm::Value* ElemPtr(const TileRep& r, const ir::ElemType& e, llvm::Value* slot, llvm::Value* lin);
  llvm::Value* LoadElem(const ir::Value* tile, llvm::Value* slot, llvm::Value* lin);  // value form
  void StoreElem(const TileRep& r, const ir::ElemType& e, llvm::Value* slot, llvm::Value* lin, llvm::Value* v);
  llvm::Value* SharedPtr(uint32_t offset);
  // The shared region every lane may read for a tile (its own or its copy).
  llvm::Value* CrossLanePtr(const ir::Value* tile);
  void WriteCopy(const ir::Value* v);
  void CopyToRegister(const ir::Value* src, llvm::Value* slot_array);
  llvm::Value* Coord(const ir::Type& t, llvm::Value* lin, int d);  // i64
  // Whether an entry after `row` (i64) of the `n` entries of a shared index tile equals `idx`.
  llvm::Value* RepeatedLater(llvm::Value* index_tile, llvm::Type* it, llvm::Value* row, int64_t n, llvm::Value* idx);
  void EmitElementwise(const ir::Op& op) override;
  void EmitTileOp(const ir::Op& op) override;
  void EmitReduce(const ir::Op& op);
  void EmitScan(const ir::Op& op);
  void EmitScatterLanes(const ir::Op& op);
  // a + b of two elements (value form), component-wise for structs, as the CPU lowering adds.
  llvm::Value* ElemAdd(llvm::Value* a, llvm::Value* b, const ir::ElemType& e);
  // Lane 0's values of the op's lane-varying scalars (Plan::Lane0) replace every lane's own
  // until AfterOp puts them back.
  void ReadLane0Values(const ir::Op& op);
  void EmitPrint(const ir::Op& op) override;

  // ---- tensor cores (emit_mma.cpp) ----
  // tile_matmul on the plan's tensor-core path: each warp computes 16x8 blocks of the result
  // with m16n8k16 instructions into the plan's scratch; after a barrier each lane takes its own.
  void EmitMatmulMma(const ir::Op& op);
  // ldmatrix and mma.sync, by the target or, emulated, through the exchange area `xch`.
  std::vector<llvm::Value*> LdMatrix(llvm::Value* row, int count, bool trans, llvm::Value* xch);
  llvm::Value* ToTf32(llvm::Value* f);  // i32 bits of the tf32 value
  std::vector<llvm::Value*> MmaSync(ScalarType factors, const std::vector<llvm::Value*>& a,
                                    const std::vector<llvm::Value*>& bm, const std::vector<llvm::Value*>& c,
                                    llvm::Value* xch);

  // ---- memory (emit_memory.cpp) ----
  void EmitArrayOp(const ir::Op& op) override;
  void EmitTileMemoryOp(const ir::Op& op) override;
  // Global accesses of one tile element: vector loads and stores (ld.global.v2/v4) for small
  // composites at aligned addresses, the struct's own access otherwise.
  std::optional<llvm::FixedVectorType*> VectorAccessType(const ir::ElemType& e);
  // Emits `vec` where `ptr` is aligned to `bytes` and `comp` elsewhere; their values merged
  // (null when the arms give none).
  llvm::Value* IfAligned(llvm::Value* ptr, uint64_t bytes, const std::function<llvm::Value*()>& vec,
                         const std::function<llvm::Value*()>& comp);
  llvm::Value* LoadMaybeVector(llvm::Value* gptr, const ir::ElemType& e);
  void StoreMaybeVector(llvm::Value* v, llvm::Value* gptr, const ir::ElemType& e);
  llvm::Value* ElemAtomicAdd(llvm::Value* ptr, llvm::Value* v, const ir::ElemType& e, bool used);

  llvm::Value* Get(const ir::Value* v) { return vals_.at(v); }
  void Set(const ir::Value* v, llvm::Value* lv) { vals_[v] = lv; }
  llvm::Value* I64(int64_t v) { return b_.getInt64(uint64_t(v)); }

  const ir::Module& irm_;
  llvm::Module& mod_;
  llvm::LLVMContext& ctx_;
  bs::Emitter scalar_;  // types, constants, scalar arithmetic, casts (shares its builder)
  llvm::IRBuilder<>& b_;
  Target& target_;
  int block_dim_;  // of tiled kernels
  int B_ = 1;      // of the kernel being emitted
  const ir::Function* fn_ = nullptr;
  const Plan* plan_ = nullptr;
  KernelFrame frame_;
  llvm::Value* turn_taken_ = nullptr;  // i1 slot: this block program has waited for its turn
  bool checking_ = false;  // emitting the access a CheckedAccess guards
  llvm::Value* lane_ = nullptr;
  llvm::Value* prog_ = nullptr;  // block program index (i64)
  llvm::Value* launch_dims_[ir::kMaxDims] = {};
  bool in_map_ = false;
  // Inside a run's loop: ForEachElem runs the chunk's slots (slot numbers 0 .. per_chunk - 1
  // index the run's register tiles; element numbers are fused_base_ + j * fused_stride_), each
  // checked against the element count when fused_check_.
  const FusedRun* fused_ = nullptr;
  // Per block of the kernel: each value's uses there, as (op number, operand number; -1 for
  // a use inside the op's regions).
  std::unordered_map<const ir::Block*, std::unordered_map<const ir::Value*, std::vector<std::pair<size_t, int>>>>
      block_uses_;
  llvm::Value* fused_base_ = nullptr;
  int64_t fused_stride_ = 0;
  bool fused_check_ = false;
  std::unordered_map<const ir::Value*, llvm::Value*> vals_;
  std::unordered_map<const ir::Value*, TileRep> tiles_;
  std::unordered_map<const ir::Value*, bs::ArrayVal> arrays_;
  std::unordered_map<const ir::Value*, llvm::Value*> param_slots_;  // array parameters' records
  // What ReadLane0Values replaced: each lane's own scalar or array view.
  std::vector<std::pair<const ir::Value*, llvm::Value*>> own_vals_;
  std::vector<std::pair<const ir::Value*, bs::ArrayVal>> own_arrays_;
};

}  // namespace tilec::codegen::simt
