// Structured control flow (if / for / while) for every lowering of Tile IR to LLVM: the
// branch and loop skeletons and the slots that carry values across region boundaries. The
// lowerings differ only in how a tile lives in a slot and where SIMT barriers go (the hooks).
#pragma once
#include <functional>
#include <vector>

#include <llvm/IR/IRBuilder.h>

#include "ir/ir.h"

namespace tilec::codegen {

// Python `range` continuation: a positive step runs while iv < hi, a negative one while iv > hi
// (unsigned induction variables only count up).
llvm::Value* RangeContinues(llvm::IRBuilder<>& b, llvm::Value* iv, llvm::Value* hi, llvm::Value* step,
                            bool is_signed);

// How a counted loop's header compares and increments; the lowerings keep their own so their
// loops optimize as before (block-serial counts are non-negative, so it may promise no wrap).
struct CountedLoopStyle {
  const char* prefix;  // block names: <prefix>.header / .body / .end
  const char* iv_name;
  bool signed_compare;
  bool no_wrap;
};
// for (i = lo; i < hi; ++i) body(i), i an i64 phi.
void EmitCountedLoop(llvm::IRBuilder<>& b, llvm::Value* lo, llvm::Value* hi, const CountedLoopStyle& style,
                     const std::function<void(llvm::Value*)>& body);

// Storage for a value that crosses a region boundary: an alloca for a scalar, the lowering's
// tile storage for a tile.
struct Slot {
  llvm::Value* ptr;
  ir::Type type;
};

class StructuredEmitter {
 public:
  virtual ~StructuredEmitter() = default;
  void EmitControl(const ir::Op& op);

 protected:
  // ---- the emitter this runs inside ----
  virtual llvm::IRBuilder<>& Builder() = 0;
  virtual llvm::Value* ValueOf(const ir::Value* v) = 0;
  virtual void Define(const ir::Value* v, llvm::Value* lv) = 0;
  virtual void EmitRegion(const ir::Block& b) = 0;  // every op but the terminator
  virtual llvm::Value* SlotAlloca(llvm::Type* t, const char* name, unsigned align) = 0;
  virtual llvm::Type* ScalarSlotType(const ir::ElemType& e) = 0;
  // The type of the slot that carries `v` (a lowering may keep a scalar as a tile of lanes).
  virtual ir::Type SlotType(const ir::Value* v) { return v->type(); }

  // ---- tile layout: how a tile is kept in, copied into and bound from a slot ----
  virtual llvm::Value* NewTileSlot(const ir::Type& t, const char* name) = 0;
  // Whether `tile` already lives in `s` (then storing it there is a no-op).
  virtual bool TileInSlot(const ir::Value* tile, const Slot& s) = 0;
  virtual void StoreTile(const Slot& dst, const ir::Value* tile) = 0;
  // Copies a staged slot (same type as dst) into dst.
  virtual void CopySlot(const Slot& dst, const Slot& src) = 0;
  virtual void BindTile(const ir::Value* v, const Slot& s) = 0;

  // ---- placement hooks (SIMT barriers and cross-lane copies) ----
  // Before a region's terminator stores its operands into the slots.
  virtual void BeforeRegionExit(const ir::Op& terminator) { (void)terminator; }
  // After a control op's results are bound at the merge point.
  virtual void AfterControlResults(const ir::Op& op) { (void)op; }

  Slot MakeSlot(const ir::Value* v);
  void StoreSlots(const std::vector<Slot>& slots, const std::vector<ir::Value*>& vals);
  void BindSlot(const ir::Value* v, const Slot& s);

 private:
  void EmitIf(const ir::Op& op);
  void EmitFor(const ir::Op& op);
  void EmitWhile(const ir::Op& op);
  // Emits the terminator's hooks and stores its operands (from `first` on) into `slots`.
  void ExitRegion(const ir::Op& terminator, const std::vector<Slot>& slots, size_t first = 0);
  llvm::BasicBlock* NewBlock(const char* name);
};

}  // namespace tilec::codegen
