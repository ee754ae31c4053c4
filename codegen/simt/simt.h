// Host-SIMT emulation: the GPU (SIMT) lowering compiled for the host, with the B lanes of a
// block run as OS threads that meet at a real barrier. Entries have the CPU device's ABI
// (tilec_cpu_kernel_fn, symbol EntrySymbol(name)), so any CPU launch path can run them.
// No LLVM type appears here.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "codegen/codegen.h"

namespace tilec::codegen {

struct SimtOptions {
  int block_dim = 256;   // lanes per block of every tiled kernel (a compile-time constant)
  bool optimize = true;  // new-PM O3
};

// What the SIMT lowering decided for one kernel.
struct SimtKernelInfo {
  std::string name;
  int block_dim = 0;          // 0: a non-tiled kernel (one lane per logical thread)
  uint32_t shared_bytes = 0;  // static allocation plan, dead tiles' bytes reused
  int barrier_sites = 0;      // barriers in the lowered code
};

std::unique_ptr<JitModule> JitCompileSimtEmulation(const ir::Module& m, const SimtOptions& opts,
                                                   std::string& error,
                                                   std::vector<SimtKernelInfo>* info = nullptr);

// The emulation's LLVM IR as text (for debugging and tests).
bool EmitSimtEmulationLlvmIr(const ir::Module& m, const SimtOptions& opts, std::string& llvm_ir,
                             std::string& error);

}  // namespace tilec::codegen
