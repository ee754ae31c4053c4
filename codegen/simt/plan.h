// The SIMT plan of one kernel, computed on Tile IR before any LLVM IR is emitted: which tile
// values live in shared memory, the static shared-memory allocation (live intervals, reuse of
// dead tiles, 16-byte alignment), and the program points that need a block barrier.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/ir.h"

namespace tilec::codegen::simt {

// One shared-memory allocation: a tile that lives in shared memory, a shared copy of a
// register tile that other lanes must read, lane 0's values of an op's lane-varying scalars,
// or the staging area of tile_scatter_lanes.
struct SharedSlot {
  uint32_t offset = 0;
  uint32_t bytes = 0;
  int first = 0;  // live interval, in pre-order op numbers (inclusive)
  int last = 0;
};

// How a target runs tile_matmul on tensor cores: not at all, with mma.sync and ldmatrix, or
// emulated (the host SIMT target), where the lanes trade fragments through shared memory.
enum class MmaSupport : uint8_t { None, Native, Emulated };

// Whether a tile_matmul takes the tensor-core path at `block_dim` lanes: float16 or bfloat16
// factors of one type, a float16 or float32 accumulator (float32 sums), M and K
// multiples of 16 and N of 8 (whole m16n8k16 instructions), and whole warps; or, with
// precision="tf32", float32 tiles with M a multiple of 16 and K and N of 8 (m16n8k8 tf32).
bool MmaEligible(const ir::Op& op, int block_dim);
// The NVPTX target's support for compute capability `sm` (75 ... 90): m16n8k16 and m16n8k8
// tf32 from sm_80; sm_75 keeps the FMA loop.
inline MmaSupport NvptxMmaSupport(int sm) { return sm >= 80 ? MmaSupport::Native : MmaSupport::None; }

class Plan {
 public:
  // `block_dim` is the number of lanes B; a non-tiled kernel is planned with B = 1.
  static Plan Build(const ir::Module& m, const ir::Function& f, int block_dim,
                    MmaSupport mma = MmaSupport::None);

  int block_dim() const { return block_dim_; }
  // The value's tile lives in shared memory (its only representation); -1 if not.
  int Primary(const ir::Value* v) const { return Find(primary_, v); }
  // A register tile that also gets a shared copy right after its definition; -1 if not.
  int Copy(const ir::Value* v) const { return Find(copy_, v); }
  // A cooperative op reads lane 0's value of each lane-varying scalar (or array view) it takes,
  // on every device (LANGUAGE.md §4), so lane 0 publishes them in `slot`, value k at byte
  // `offsets[k]`, behind a barrier before the op. Operands that stay per lane (tile_extract's
  // indices, tile_scatter_lanes' value, flag and indices) are not listed; tile_map's captured
  // values are. Null if the op reads none.
  struct Lane0Reads {
    int slot = -1;
    std::vector<const ir::Value*> values;
    std::vector<uint32_t> offsets;
  };
  const Lane0Reads* Lane0(const ir::Op* op) const {
    auto it = lane0_.find(op);
    return it == lane0_.end() ? nullptr : &it->second;
  }
  // Bytes lane 0 publishes for `v`: a scalar's element, or an array view's data pointer,
  // extents and strides (8 bytes each).
  uint32_t Lane0Bytes(const ir::Value* v) const;
  // tile_scatter_lanes stages each lane's element in `slot` (B elements from byte 0) and its
  // linear index there (i64, -1: nothing to apply) from byte StagingIndexOffset; -1 if none.
  int Staging(const ir::Op* op) const { return Find(staging_, op); }
  uint32_t StagingIndexOffset(const ir::Op& op) const;
  // A tile_matmul on the tensor-core path writes its float32 results to `slot` (M x N,
  // row-major), then each lane reads its own elements; emulated, the lanes' fragments are traded
  // from byte MmaExchangeOffset (24 bytes per lane). -1 for the other paths.
  int MmaScratch(const ir::Op* op) const { return Find(mma_, op); }
  static uint32_t MmaExchangeOffset(const ir::Op& op);
  MmaSupport mma() const { return mma_support_; }
  const SharedSlot& slot(int i) const { return slots_[size_t(i)]; }
  uint32_t shared_bytes() const { return shared_bytes_; }

  // Barrier before an op (ops and region terminators), or before the shared copy of a value
  // is written (block arguments at the start of their region, results of if/for/while).
  bool BarrierBefore(const ir::Op* op) const { return barriers_.count(op) != 0; }
  bool BarrierBeforeCopy(const ir::Value* v) const { return barriers_.count(v) != 0; }
  // Number of barrier sites, internal broadcast barriers included (what the PTX will hold).
  int barrier_sites() const { return int(barriers_.size()) + internal_barriers_; }

  bool IsUsed(const ir::Value* v) const { return used_.count(v) != 0; }
  // Element size in bytes of a tile's element (structs: their C size).
  uint32_t ElemBytes(const ir::ElemType& e) const;

  // The tile value a slot holds, and whether as a shared copy of a register tile (null for a
  // lane-0 or staging slot).
  const ir::Value* SlotValue(int slot, bool& is_copy) const;
  int num_slots() const { return int(slots_.size()); }

  // Text of the plan, for tests and debugging.
  std::string Describe() const;

 private:
  template <class K>
  static int Find(const std::unordered_map<K, int>& m, K k) {
    auto it = m.find(k);
    return it == m.end() ? -1 : it->second;
  }
  friend class PlanBuilder;

  const ir::Module* module_ = nullptr;
  int block_dim_ = 1;
  std::unordered_map<const ir::Value*, int> primary_;
  std::unordered_map<const ir::Value*, int> copy_;
  std::unordered_map<const ir::Op*, Lane0Reads> lane0_;
  std::unordered_map<const ir::Op*, int> staging_;
  std::unordered_map<const ir::Op*, int> mma_;
  MmaSupport mma_support_ = MmaSupport::None;
  std::vector<SharedSlot> slots_;
  uint32_t shared_bytes_ = 0;
  std::unordered_set<const void*> barriers_;
  int internal_barriers_ = 0;
  std::unordered_set<const ir::Value*> used_;
};

}  // namespace tilec::codegen::simt
