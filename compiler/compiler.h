// libtilec, the compiler facade: source (or an already checked module) to Tile IR, to host
// code in-process (JIT) or on disk (AOT shared object), with the ModuleSignature the runtime
// validates launches against. This is what the CLI, the host interpreter and the REPL call.
#pragma once
#include <map>
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
  Target target = Target::Host;
  bool optimize = true;  // LLVM O3
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

// Lowers a checked module (it must have no errors) and runs the IR pipeline, verifying after
// each pass in debug builds. Returns null when lowering reported diagnostics or on an
// internal error.
std::unique_ptr<ir::Module> LowerChecked(const sema::CheckedModule& checked, const SourceFile* file,
                                         diag::DiagnosticEngine& diags, InternalError& ice);

// Builds the adjoint kernel of every kernel with enable_backward into `ir` (ir/autodiff). E05xx
// diagnostics reject a kernel whose gradient would be wrong. Returns false on errors, or with
// `ice` set when an adjoint fails the IR verifier.
bool AddAdjoints(ir::Module& ir, diag::DiagnosticEngine& diags, InternalError& ice);

// The runtime signature of `ir`'s kernels (entry symbols included).
rt::ModuleSignature SignatureOf(const sema::CheckedModule& checked, const ir::Module& ir);

// JIT-compiles the lowered module for the host.
std::optional<CompiledModule> JitModule(const sema::CheckedModule& checked, const ir::Module& ir,
                                        const CompileOptions& opts, InternalError& ice);

// Everything from source text: parse, check (with opts.constants), lower, JIT.
// Returns nullopt when `diags` has errors or `ice` is set.
std::optional<CompiledModule> CompileSource(const SourceFile& file, diag::DiagnosticEngine& diags,
                                            const CompileOptions& opts, InternalError& ice);

// `--emit=llvm`: the optimized LLVM IR of the host code.
bool EmitLlvm(const ir::Module& ir, std::string& text, InternalError& ice, const CompileOptions& opts = {});

// `tilec compile --target=host -o kernels.so`: a shared object with every kernel entry and the
// serialized signature as `tilec_module_signature`. Returns false with `error` set.
bool WriteSharedObject(const sema::CheckedModule& checked, const ir::Module& ir, const std::string& path,
                       std::string& error, const CompileOptions& opts = {});

}  // namespace tilec::compiler
