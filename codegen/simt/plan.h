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
// register tile that other lanes must read, or a broadcast slot for a scalar result.
struct SharedSlot {
  uint32_t offset = 0;
  uint32_t bytes = 0;
  int first = 0;  // live interval, in pre-order op numbers (inclusive)
  int last = 0;
};

class Plan {
 public:
  // `block_dim` is the number of lanes B; a non-tiled kernel is planned with B = 1.
  static Plan Build(const ir::Module& m, const ir::Function& f, int block_dim);

  int block_dim() const { return block_dim_; }
  // The value's tile lives in shared memory (its only representation); -1 if not.
  int Primary(const ir::Value* v) const { return Find(primary_, v); }
  // A register tile that also gets a shared copy right after its definition; -1 if not.
  int Copy(const ir::Value* v) const { return Find(copy_, v); }
  // The broadcast slot of a scalar atomic add whose result is used; -1 if none.
  int Broadcast(const ir::Op* op) const { return Find(bcast_, op); }
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
  // broadcast slot).
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
  std::unordered_map<const ir::Op*, int> bcast_;
  std::vector<SharedSlot> slots_;
  uint32_t shared_bytes_ = 0;
  std::unordered_set<const void*> barriers_;
  int internal_barriers_ = 0;
  std::unordered_set<const ir::Value*> used_;
};

}  // namespace tilec::codegen::simt
