// The NVPTX target: Tile IR through the SIMT lowering to LLVM IR for nvptx64, then PTX text
// from LLVM's NVPTX backend. Kernels are .entry functions named EntrySymbol(name) taking the
// GPU ABI of runtime/include/tilec/abi.h (arguments by value, then a tilec_launch).
// No LLVM type appears here.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "codegen/simt/simt.h"

namespace tilec::codegen {

struct PtxOptions {
  std::string arch = "sm_90";  // sm_75, sm_80, sm_86, sm_89 or sm_90
  int block_dim = 256;         // lanes per block of every tiled kernel
  bool optimize = true;
  int threads = 0;  // kernels compiled at once (0: one per hardware thread)
};

struct PtxModule {
  std::string ptx;                     // one module holding every kernel's .entry
  std::string arch;
  std::vector<SimtKernelInfo> kernels;  // module order; entry symbol is EntrySymbol(name)
  // The kernels were compiled apart, in parallel, and their texts joined (else as one module).
  bool compiled_apart = false;
};

// The supported architectures, and the PTX ISA each is emitted with (LLVM's minimum for the
// architecture: sm_75 6.3, sm_80 7.0, sm_86 7.1, sm_89 7.8, sm_90 7.8).
const std::vector<std::string>& SupportedPtxArchs();
bool IsSupportedPtxArch(const std::string& arch);

bool EmitPtx(const ir::Module& m, const PtxOptions& opts, PtxModule& out, std::string& error);
// How many times, in this process, the PTX code generator declined LLVM's loop strength
// reduction (once per loop it would have run on); tests check that the gate still matches the pass.
size_t PtxPassesDeclined();
// The optimized nvptx64 LLVM IR that EmitPtx would compile.
bool EmitNvptxLlvmIr(const ir::Module& m, const PtxOptions& opts, std::string& llvm_ir, std::string& error);

}  // namespace tilec::codegen
