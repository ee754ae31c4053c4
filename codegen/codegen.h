// Code generation for the CPU device: block-serial lowering of Tile IR to LLVM IR (one host
// call runs whole block programs), the O3 pipeline, the ORC JIT and AOT shared objects.
// No LLVM type appears here, so that the compiler facade and tools stay LLVM-free.
#pragma once
#include <memory>
#include <string>

#include "ir/ir.h"

namespace tilec::codegen {

// The symbol of a kernel's tilec_cpu_kernel_fn entry.
// Whether the CPU code of `f` runs per-lane work as loops over its lanes, and so depends on
// its block_dim (bs::Emitter::NeedsLanes).
bool RunsPerLaneLoops(const ir::Function& f);
std::string EntrySymbol(const std::string& kernel_name);

struct HostOptions {
  bool optimize = true;  // new-PM O3
};

// Lowers (and optimizes) the module; fills `llvm_ir` with its text. On failure returns false
// and sets `error` (an internal error: the IR was valid, so this is a compiler bug).
bool EmitLlvmIr(const ir::Module& m, std::string& llvm_ir, std::string& error,
                const HostOptions& opts = {});

// Kernels compiled in-process. Lookup returns the address of an entry symbol or null.
class JitModule {
 public:
  virtual ~JitModule() = default;
  virtual void* Lookup(const std::string& symbol) = 0;
};

std::unique_ptr<JitModule> JitCompile(const ir::Module& m, std::string& error,
                                      const HostOptions& opts = {});

// Writes a shared object with every kernel entry and `const char* tilec_module_signature`
// pointing at `signature_text`. The object comes from LLVM; the system `cc -shared` links it.
bool EmitHostSharedObject(const ir::Module& m, const std::string& signature_text,
                          const std::string& out_path, std::string& error,
                          const HostOptions& opts = {});

}  // namespace tilec::codegen
