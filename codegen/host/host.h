// Shared pieces of the host back end: the host TargetMachine, the O3 pipeline (its own
// translation unit, PassBuilder being expensive to compile) and lower+optimize in one call.
#pragma once
#include <memory>
#include <string>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include "codegen/codegen.h"

namespace tilec::codegen {

// A TargetMachine for the CPU this process runs on (its name and features), PIC.
std::unique_ptr<llvm::TargetMachine> CreateHostTargetMachine(std::string& error);

// The new pass manager's O3 module pipeline, tuned for `tm`.
void OptimizeModule(llvm::Module& m, llvm::TargetMachine& tm);
// A lighter pipeline for GPU kernel modules: library calls inlined, then the per-function
// simplification pipeline at O1.
void OptimizeKernelModule(llvm::Module& m, llvm::TargetMachine& tm);

// Hands an optimized host module to a fresh ORC LLJIT (process symbols resolve libm, printf,
// pthreads); used by the block-serial JIT and by host-SIMT emulation.
std::unique_ptr<JitModule> JitLoad(std::unique_ptr<llvm::Module> mod, std::unique_ptr<llvm::LLVMContext> ctx,
                                   std::string& error);

// Lowers `m`, sets the target's triple and data layout, and optimizes when asked.
std::unique_ptr<llvm::Module> BuildHostModule(const ir::Module& m, llvm::LLVMContext& ctx,
                                              llvm::TargetMachine& tm, const HostOptions& opts,
                                              std::string& error);

}  // namespace tilec::codegen
