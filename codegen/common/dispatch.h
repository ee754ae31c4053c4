// One op dispatcher for every lowering of Tile IR to LLVM: scalar families go to the shared
// scalar emitter (block-serial's), control flow to StructuredEmitter, and only the
// tile-layout families (and SIMT's barrier/copy placement around an op) differ per lowering.
#pragma once
#include "codegen/common/control_flow.h"

namespace tilec::codegen {

namespace bs {
class Emitter;
struct ArrayVal;
}

class OpDispatcher : public StructuredEmitter {
 public:
  void EmitOp(const ir::Op& op);
  // Scalar work whose count is observable, so that it runs once per lane even when its
  // operands are uniform (LANGUAGE.md §4): a store (a later lane's load may see an earlier
  // lane's store; an adjoint reads a gradient and zeroes it, so exactly one lane receives it),
  // an atomic, a print of scalars (one of a tile is one cooperative print).
  static bool LaneEffect(const ir::Op& op);

 protected:
  // Scalar arithmetic, constants, casts, compares, logic and structs: one implementation, so
  // every lowering computes bit-identical scalar values.
  virtual bs::Emitter& Scalar() = 0;
  // The grid index (i64) of the block program being run, and the launch extents.
  virtual llvm::Value* ProgramIndex() = 0;
  virtual llvm::Value* LaunchDim(int d) = 0;
  // The lane (i64) running this code: a GPU thread; on the block-serial CPU lowering the
  // current iteration of a loop over the lanes (lane 0 in code that runs once per block).
  virtual llvm::Value* LaneIndex() = 0;
  // Lanes per block of the kernel being emitted (1 without tile operations), and the kernel.
  virtual int Lanes() = 0;
  virtual const ir::Function& Kernel() = 0;
  // The launch's number of dimensions (i64), from tilec_launch::ndim.
  virtual llvm::Value* LaunchRank() = 0;

  // ---- tile layout: the families whose code depends on where a tile's elements live ----
  virtual void EmitElementwise(const ir::Op& op) = 0;  // scalar or tile
  virtual void EmitArrayOp(const ir::Op& op) = 0;
  virtual void EmitTileOp(const ir::Op& op) = 0;
  virtual void EmitTileMemoryOp(const ir::Op& op) = 0;
  virtual void EmitPrint(const ir::Op& op) = 0;
  // An array value (data, shape, byte strides) as the lowering made it.
  virtual const bs::ArrayVal& ArrayValueOf(const ir::Value* v) = 0;

  // In a hybrid launch, whether this lane runs one of the launch's threads (i1): a last block
  // that the threads do not fill has inactive lanes. Null in every other kernel.
  llvm::Value* LaneActive();

  // ---- placement hooks (SIMT barriers and cross-lane copies) ----
  virtual void BeforeOp(const ir::Op& op) { (void)op; }
  virtual void AfterOp(const ir::Op& op) { (void)op; }

 private:
  void Dispatch(const ir::Op& op);
  void EmitTid(const ir::Op& op);
  // The linear index of the running thread (of the block outside hybrid launches).
  llvm::Value* ThreadIndex();

  // atomic_rmw on an array of vectors or matrices: one scalar atomic per component (Warp's
  // vec.h/mat.h loops), the same code on every lowering.
  void EmitComponentAtomicRmw(const ir::Op& op);
};

}  // namespace tilec::codegen
