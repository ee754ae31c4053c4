// The small interface the SIMT lowering talks to: kernel entry and parameters, lane id,
// barrier, shared-memory base, global pointers, atomics and printf. Two implementations:
// NVPTX (intrinsics, PTX entry) and host-SIMT emulation (B OS threads, a real barrier).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "codegen/block_serial/emitter.h"
#include "codegen/simt/plan.h"

namespace tilec::codegen::simt {

// What the emitter needs from an entry: where block programs run and how to reach the
// parameters. Values live in the function that runs the lanes' program.
struct KernelFrame {
  llvm::Function* fn = nullptr;
  std::vector<llvm::Value*> params;  // per parameter: its value (by_value) or a pointer to it
  std::vector<bool> by_value;
  llvm::Value* launch = nullptr;     // pointer to a tilec_launch
  llvm::Value* first = nullptr;      // block programs first, first + step, ... while < end (i64)
  llvm::Value* end = nullptr;
  llvm::Value* step = nullptr;
};

class Target {
 public:
  virtual ~Target() = default;
  // Creates the entry for `f` and leaves the builder in the lane program's entry block.
  // `block_dim` is 1 for a non-tiled kernel.
  virtual KernelFrame BeginKernel(const ir::Function& f, llvm::Module& mod, bs::Emitter& types,
                                  const Plan& plan, int block_dim) = 0;
  // Terminates the lane program (the builder is at its end).
  virtual void EndKernel(llvm::IRBuilder<>& b) = 0;
  virtual llvm::Value* LaneId() = 0;      // i64, valid after BeginKernel
  virtual llvm::Value* SharedBase() = 0;  // pointer to the block's shared buffer
  virtual void Barrier(llvm::IRBuilder<>& b) = 0;
  // Orders this thread's memory accesses before and after it as seen by every other block of
  // the launch. With monotonic atomics it makes acquire and release: LLVM 19's NVPTX back end
  // selects neither ordered atomic loads and stores nor `fence`, only membar.
  virtual void DeviceFence(llvm::IRBuilder<>& b) = 0;
  // A pointer into an array's data as the target wants it (global address space on GPUs).
  virtual llvm::Value* GlobalPtr(llvm::IRBuilder<>& b, llvm::Value* generic) = 0;
  // Atomic add of `v` (value form of scalar type t) at `ptr`; returns the previous value, or
  // null when `used` is false and the target emitted a reduction instead.
  virtual llvm::Value* AtomicAdd(bs::Emitter& e, llvm::Value* ptr, llvm::Value* v, ScalarType t, bool used) = 0;
  virtual void Printf(llvm::IRBuilder<>& b, llvm::Module& mod, const std::string& fmt,
                      const std::vector<llvm::Value*>& args) = 0;

  // ---- tensor cores (emit_mma.cpp); only called where Mma() is Native ----
  virtual MmaSupport Mma() const = 0;
  // ldmatrix.sync.aligned.m8n8.x{count}[.trans].shared.b16: `row` is the shared address this
  // lane supplies; returns `count` i32 registers, two 16-bit elements each.
  virtual std::vector<llvm::Value*> LdMatrix(llvm::IRBuilder<>& b, llvm::Value* row, int count, bool trans);
  // mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32 (`factors` Float16 or
  // BFloat16), or m16n8k8 .tf32 (`factors` Float32, the registers holding tf32 values): `a` 4
  // and `bm` 2 i32 fragment registers, `c` 4 floats; returns the 4 floats of d.
  virtual std::vector<llvm::Value*> MmaSync(llvm::IRBuilder<>& b, ScalarType factors,
                                            const std::vector<llvm::Value*>& a,
                                            const std::vector<llvm::Value*>& bm,
                                            const std::vector<llvm::Value*>& c);
  // cvt.rna.tf32.f32: a float rounded to tf32 (nearest, ties away from zero), as i32 bits.
  virtual llvm::Value* ToTf32(llvm::IRBuilder<>& b, llvm::Value* f);
};

std::unique_ptr<Target> CreateHostSimtTarget();
// `arch` is "sm_75" ... "sm_90" (its number decides which reductions exist).
std::unique_ptr<Target> CreateNvptxTarget(int sm);

// Lowers every kernel of `m` (only `only`, when given) into `mod` (whose data layout is already
// set) with the SIMT model.
// Fills per-kernel shared bytes and barrier counts in module order. Returns false and sets
// `error` if LLVM's verifier rejects the result (a compiler bug).
struct SimtKernelLayout {
  std::string name;
  int block_dim = 0;  // 0 for a non-tiled kernel
  uint32_t shared_bytes = 0;
  int barrier_sites = 0;
};
bool LowerSimt(const ir::Module& m, llvm::Module& mod, Target& target, int block_dim,
               std::vector<SimtKernelLayout>& layouts, std::string& error,
               const ir::Function* only = nullptr);

}  // namespace tilec::codegen::simt
