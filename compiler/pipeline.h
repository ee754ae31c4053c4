// The one compile pipeline: source (or Tile IR text) through the stages of the `--emit=`
// ladder to the requested one, keeping what each stage produced. The CLI, the host
// interpreter, the compiler facade's entry points and the benchmarks all go through Run.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "codegen/nvptx/nvptx.h"
#include "compiler/compiler.h"
#include "compiler/gpu_module.h"
#include "frontend/ast/ast.h"
#include "ir/passes/pipeline.h"

namespace tilec::compiler {

// In pipeline order. Up to grad-ir each stage needs the one before it; llvm, ptx, jit,
// shared-object and header are alternative ends after it (none runs another's code generation).
enum class Stage {
  Tokens,        // the token dump (text); nothing after it runs
  Ast,           // parsed module
  TypedAst,      // checked module
  TileIr,        // Tile IR after the pass list
  GradIr,        // plus every adjoint kernel, rejections as errors
  Llvm,          // LLVM IR text: host code, or nvptx64 for Target::Nvptx
  Ptx,           // PTX text, and with source input a signature carrying it
  Jit,           // host code in-process
  SharedObject,  // host code and signature on disk (PipelineOptions::output_path); for
                 // Target::Nvptx a GPU module file instead (PipelineOptions::gpu)
  Header,        // the signature alone, in `compiled` (no code), for a C++ header of typed launchers
};

// The `--emit=` spelling: tokens, ast, typed-ast, tile-ir, grad-ir, llvm, ptx, jit, shared-object,
// header.
const char* StageName(Stage stage);
std::optional<Stage> StageFromName(std::string_view name);

// What the input text is: Tile source, or Tile IR as `--emit=tile-ir` prints it (the pipeline
// then starts at the tile-ir stage; there is no checked module, so no signature).
enum class Input { Source, TileIr };

// How adjoints are built after tile-ir for the llvm, ptx, jit and shared-object ends.
enum class AdjointMode {
  Deferred,  // a rejected adjoint is left out and its reason travels in the signature
  Strict,    // a rejected adjoint is an error
  None,      // forward kernels only
};

struct PipelineOptions {
  CompileOptions compile;
  Input input = Input::Source;
  bool enable_test_builtins = false;  // the checker's test-only builtins
  ir::PassList passes = ir::DefaultPassList();
  ir::PassOptions pass_options;  // verifier after each pass; optional IR dumps
  AdjointMode adjoints = AdjointMode::Deferred;
  // The SIMT lowering (ptx, and llvm for Target::Nvptx), for compile.block_dim lanes (256 when
  // that is 0).
  std::string arch = "sm_90";
  std::string output_path;  // shared-object
  // shared-object: GPU code to carry as well. With Target::Nvptx the artifact is a GPU module
  // file (the signature with these variants alone); with Target::Host the shared object's
  // signature carries them beside the host code. Empty archs: none (host only).
  GpuTargets gpu;
};

// What the stages produced, up to the first that failed. The source file must outlive it
// (diagnostics and IR locations point into it).
struct PipelineResult {
  diag::DiagnosticEngine diags;
  InternalError ice;
  std::string write_error;  // shared-object: the artifact could not be written
  std::vector<std::string> warnings;  // shared-object: GPU variants built without their cubin
  std::string input_error;  // Input::TileIr: the IR parsed but does not verify (the user's error)
  std::unique_ptr<ast::Module> ast;
  std::unique_ptr<sema::CheckedModule> checked;
  std::unique_ptr<ir::Module> ir;
  AdjointRejections rejected;            // AdjointMode::Deferred
  std::string text;                      // the stop stage's text, for stages that have one
  codegen::PtxModule ptx;                // ptx
  std::optional<CompiledModule> compiled;  // jit; ptx from source (resolver finds nothing)

  bool ok() const { return !diags.has_errors() && !ice.is_set() && write_error.empty() && input_error.empty(); }
};

// Runs every stage up to and including `stop`. Stops early at the first stage that reports
// errors, an internal error, a write error or an input error.
PipelineResult Run(const SourceFile& source, const PipelineOptions& options, Stage stop);

// Runs `passes` on `m` (verified IR); a pass that breaks the IR sets `ice`.
bool RunIrPasses(ir::Module& m, const ir::PassList& passes, const ir::PassOptions& opts, InternalError& ice);

// The grad-ir text: every adjoint kernel of `m`, blank-line separated (`--emit=grad-ir`).
std::string AdjointsToString(const ir::Module& m);

// Copies the diagnostics of `from` after those of `to` (for entry points that take an engine).
void AppendDiagnostics(const diag::DiagnosticEngine& from, diag::DiagnosticEngine& to);

}  // namespace tilec::compiler
