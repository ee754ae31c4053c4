// libtilec, the compiler facade: source (or an already checked module) to Tile IR, to host
// code in-process (JIT) or on disk (AOT shared object), with the ModuleSignature the runtime
// validates launches against. The stages in one place are compiler::Run (compiler/pipeline.h);
// the entry points here are its building blocks and thin wrappers over it.
#pragma once
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <string>

#include "frontend/sema/sema.h"
#include "ir/ir.h"
#include "support/diagnostics.h"
#include "support/source.h"
#include "tilec/module.h"
#include "tilec/signature.h"

namespace tilec::compiler {

enum class Target { Host, Nvptx };

struct CompileOptions {
  // Module constants defined outside the source (by host code); the file's own win.
  std::map<std::string, sema::ConstValue> constants;
  // Constants a kernel may rebind as locals (sema::CheckOptions::shadowable_constants).
  std::set<std::string> shadowable_constants;
  Target target = Target::Host;
  bool optimize = true;  // LLVM O3
  // Lanes per block of tiled kernels, a compile-time constant of the variant on every device
  // (CPU, host-SIMT emulation, PTX). The signature records it and the runtime refuses a tiled
  // launch with another block_dim. 0: a variant for any block_dim, which only CPU code can be
  // (its block program does not depend on the lane count); PTX and emulation then use 256.
  int block_dim = 0;
  // Host-SIMT emulation (codegen/simt): the GPU lowering run on the host with block_dim lanes
  // per block as OS threads; same entry ABI as the CPU device. For testing the GPU model.
  // The environment variable TILEC_SIMT_EMULATION=B turns it on for every JIT compile, with B
  // lanes whatever block_dim says (the signature keeps block_dim); TILEC_SIMT_EMULATION=block_dim
  // with the block_dim of each variant.
  bool simt_emulation = false;
  // The variant for Warp's hybrid launch, `wp.launch(k, dim=D, block_dim=B)` of a kernel with
  // tile operations: prod(D) threads in blocks of block_dim lanes, and `wp.tid()` the thread's
  // index in D (so it differs between the lanes of a block). Otherwise a tiled kernel's
  // `wp.tid()` names the block and, one name further, the lane (LANGUAGE.md §4).
  bool hybrid_launch = false;
  // Warp's `wp.config.max_unroll` (sema::CheckOptions::max_unroll).
  int max_unroll = 16;
  // Bounds-check every scalar array access and report the first failing one of a launch as an
  // error naming the kernel, line, index and shape (wp.config.mode = "debug", `--debug`).
  bool checked_access = false;
  // wp.config.deterministic: every kernel's tile atomic adds commit in launch order
  // (ir::Function::deterministic), so their results and previous values are bit-reproducible.
  bool deterministic = false;
};

// A compiled module: the signature (struct layouts, kernels, params, tiled flag, entry
// symbols) and a resolver over the JIT that holds the code. `keep_alive` owns the JIT.
struct CompiledModule {
  rt::ModuleSignature signature;
  rt::SymbolResolver resolve;
  std::shared_ptr<void> keep_alive;
  // The runtime's view of it (rt::Module::FromResolver).
  rt::Module ToRuntimeModule() const;
};

// Internal failures (a compiler bug) are reported through this rather than diagnostics; the
// CLI prints them as "internal compiler error" and exits with 3.
struct InternalError {
  std::string message;
  bool is_set() const { return !message.empty(); }
};

// Lowers a checked module (it must have no errors) and runs the default IR pass list, verifying
// after each pass. Returns null when lowering reported diagnostics or on an
// internal error.
std::unique_ptr<ir::Module> LowerChecked(const sema::CheckedModule& checked, const SourceFile* file,
                                         diag::DiagnosticEngine& diags, InternalError& ice);

// Builds the adjoint kernel of every kernel with enable_backward into `ir` (ir/autodiff). E05xx
// diagnostics reject a kernel whose gradient would be wrong. Returns false on errors, or with
// `ice` set when an adjoint fails the IR verifier.
bool AddAdjoints(ir::Module& ir, diag::DiagnosticEngine& diags, InternalError& ice);

// Kernel name -> the rendered diagnostics that rejected its adjoint.
using AdjointRejections = std::map<std::string, std::string>;

// What every path that produces forward code uses: a kernel whose adjoint would be wrong still
// compiles forward, and its rejection travels in the signature (KernelSignature::adjoint_error)
// to be reported by the Tape only if a gradient must flow through it. So an in-place update
// like `a[i] = a[i] * a[i]` runs, and its gradient is never silently wrong. Returns false only
// with `ice` set.
bool AddAdjointsDeferred(ir::Module& ir, AdjointRejections& rejected, InternalError& ice);

// The runtime signature of `ir`'s kernels (entry symbols included).
rt::ModuleSignature SignatureOf(const sema::CheckedModule& checked, const ir::Module& ir,
                                const AdjointRejections* rejected = nullptr);

// JIT-compiles the lowered module for the host.
std::optional<CompiledModule> JitModule(const sema::CheckedModule& checked, const ir::Module& ir,
                                        const CompileOptions& opts, InternalError& ice,
                                        const AdjointRejections* rejected = nullptr);

// Everything from source text: parse, check (with opts.constants), lower, JIT; that is,
// Run(file, {opts}, Stage::Jit) with its diagnostics added to `diags`. Returns nullopt when `diags` has errors or `ice` is set.
std::optional<CompiledModule> CompileSource(const SourceFile& file, diag::DiagnosticEngine& diags,
                                            const CompileOptions& opts, InternalError& ice);

// For the CUDA device: the same pipeline (Stage::Ptx) to one PTX module for `arch` (sm_75 ... sm_90) with
// `block_dim` lanes per block. The signature carries the PTX, block_dim and the dynamic shared
// bytes of each forward and adjoint entry; the module has no CPU code. Variants are cached on
// disk (rt::KernelCacheDir; TILEC_CACHE=0 turns the cache off), keyed by the source, its file
// name and place, the constants, arch, block_dim, options and the compiler build.
std::optional<CompiledModule> CompileSourcePtx(const SourceFile& file, diag::DiagnosticEngine& diags,
                                               const CompileOptions& opts, const std::string& arch,
                                               int block_dim, InternalError& ice);

// The PTX architecture for a device of compute capability `cc` (major*10+minor): the newest
// supported one not above it, or empty when the device is older than sm_75.
std::string PtxArchFor(int cc);

// `--emit=llvm`: the optimized LLVM IR of the host code.
bool EmitLlvm(const ir::Module& ir, std::string& text, InternalError& ice, const CompileOptions& opts = {});

// `tilec compile --target=host -o kernels.so`: a shared object with every kernel entry and the
// serialized signature as `tilec_module_signature`. Returns false with `error` set.
// `gpu` (compiler/gpu_module.h), when given, adds its GPU variants to the signature, so that
// the one artifact also runs on CUDA devices.
bool WriteSharedObject(const sema::CheckedModule& checked, const ir::Module& ir, const std::string& path,
                       std::string& error, const CompileOptions& opts = {},
                       const AdjointRejections* rejected = nullptr,
                       const rt::ModuleSignature* gpu = nullptr);

}  // namespace tilec::compiler
