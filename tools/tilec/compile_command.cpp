// `tilec compile --emit=STAGE FILE`: the ladder from tokens to PTX, one compiler::Run to the
// requested stage; this file only maps options onto it and prints what it produced.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>

#include "codegen/nvptx/nvptx.h"
#include "tools/tilec/frontend_driver.h"

namespace tilec::cli {

namespace {

using compiler::Stage;

// The `--emit=` values; jit and shared-object are ends the CLI reaches otherwise (`-o`).
std::optional<Stage> EmitStage(const std::string& emit) {
  std::optional<Stage> s = compiler::StageFromName(emit);
  if (!s) return std::nullopt;
  switch (*s) {
    case Stage::Tokens:
    case Stage::Ast:
    case Stage::TypedAst:
    case Stage::TileIr:
    case Stage::GradIr:
    case Stage::Llvm:
    case Stage::Ptx:
      return s;
    case Stage::Jit:
    case Stage::SharedObject:
      return std::nullopt;
  }
  return std::nullopt;
}

// A text artifact to `-o FILE`, or to stdout without `-o`.
int WriteOutput(const Options& opts, const std::string& text) {
  if (auto out = opts.Get("o")) {
    std::ofstream f(*out);
    if (!(f << text)) return UsageError("cannot write `" + *out + "`");
  } else {
    std::cout << text;
  }
  return kExitOk;
}

// `--arch` and `--block-dim` for the SIMT lowering (`--emit=ptx`, `--emit=llvm --target=nvptx`);
// the usage error, if any.
std::optional<std::string> GpuOptions(const Options& opts, compiler::PipelineOptions& po) {
  po.arch = opts.Get("arch").value_or("sm_90");
  if (!codegen::IsSupportedPtxArch(po.arch))
    return "unknown GPU architecture `--arch=" + po.arch + "` (expected sm_75, sm_80, sm_86, sm_89 or sm_90)";
  if (auto bd = opts.Get("block-dim")) {
    char* end = nullptr;
    long v = std::strtol(bd->c_str(), &end, 10);
    if (bd->empty() || *end || v < 1 || v > 1024)
      return "`--block-dim` must be an integer from 1 to 1024, got `" + *bd + "`";
    po.compile.block_dim = int(v);
  }
  return std::nullopt;
}

// A usage error found only once the front end has run: source files report their own errors
// first (exit 1), as they always have; `print_warnings` also shows the warnings before it.
int LateUsageError(const Options& opts, const SourceFile& file, const compiler::PipelineOptions& po,
                   const std::string& message, bool print_warnings) {
  compiler::PipelineResult r = compiler::Run(file, po, Stage::TypedAst);
  if (r.diags.has_errors() || print_warnings) PrintDiagnostics(opts, r.diags);
  if (r.diags.has_errors()) return kExitDiagnostics;
  return UsageError(message);
}

}  // namespace

int RunCompile(const Options& opts) {
  if (opts.inputs.size() != 1) return UsageError("`compile` takes exactly one FILE");
  std::string emit = opts.Get("emit").value_or("");
  if (emit.empty() && !opts.Get("o")) return UsageError("`compile` needs `--emit=STAGE` or `-o FILE`");
  std::optional<Stage> emit_stage = EmitStage(emit);
  if (!emit.empty() && !emit_stage)
    return UsageError("unknown stage `--emit=" + emit +
                      "` (expected tokens, ast, typed-ast, tile-ir, grad-ir, llvm or ptx)");
  std::string target = opts.Get("target").value_or("host");
  if (target != "host" && target != "nvptx")
    return UsageError("unknown target `" + target + "` (expected host or nvptx)");
  // Without --emit, -o writes the host shared object.
  Stage stop = emit_stage.value_or(Stage::SharedObject);

  compiler::PipelineOptions po = BasePipelineOptions(opts);
  po.compile.target = target == "nvptx" ? compiler::Target::Nvptx : compiler::Target::Host;
  po.compile.checked_access = opts.Has("debug");
  po.output_path = opts.Get("o").value_or("");
  std::string input = opts.Get("input").value_or("source");
  if (input != "source" && input != "tile-ir")
    return UsageError("unknown input `--input=" + input + "` (expected source or tile-ir)");
  if (input == "tile-ir") {
    po.input = compiler::Input::TileIr;
    if (stop < Stage::TileIr)
      return UsageError("`--emit=" + emit + "` needs a source FILE, not `--input=tile-ir`");
    if (stop == Stage::SharedObject)
      return UsageError("`-o` without `--emit` needs a source FILE: a shared object carries the checker's signature");
  }
  if (auto spec = opts.Get("passes")) {
    std::string error;
    std::optional<ir::PassList> list = ir::ParsePassList(*spec, error);
    if (!list) return UsageError(error + " in `--passes=" + *spec + "`");
    po.passes = *list;
  }
  if (opts.Has("print-after-all")) po.pass_options.print_after_each = &std::cerr;
  bool gpu = stop == Stage::Ptx || (stop == Stage::Llvm && po.compile.target == compiler::Target::Nvptx);
  std::optional<std::string> gpu_error = gpu ? GpuOptions(opts, po) : std::nullopt;
  bool so_for_gpu = stop == Stage::SharedObject && po.compile.target == compiler::Target::Nvptx;
  if (po.input == compiler::Input::TileIr && gpu_error) return UsageError(*gpu_error);

  std::unique_ptr<SourceFile> file = LoadSource(opts.inputs[0]);
  if (!file) return kExitUsage;
  if (gpu_error) return LateUsageError(opts, *file, po, *gpu_error, false);
  if (so_for_gpu) return LateUsageError(opts, *file, po, "stage `-o` is not available in this build", true);

  compiler::PipelineResult r = compiler::Run(*file, po, stop);
  switch (stop) {
    case Stage::Tokens:
      std::cout << r.text;
      PrintDiagnostics(opts, r.diags);
      return r.diags.has_errors() ? kExitDiagnostics : kExitOk;
    case Stage::Ast:
    case Stage::TypedAst:
      if (!r.diags.has_errors()) std::cout << r.text;
      PrintDiagnostics(opts, r.diags);
      return r.diags.has_errors() ? kExitDiagnostics : kExitOk;
    case Stage::TileIr:
    case Stage::GradIr:
    case Stage::Llvm:
    case Stage::Ptx:
    case Stage::Jit:
    case Stage::SharedObject:
      break;
  }
  PrintDiagnostics(opts, r.diags);
  if (r.ice.is_set()) {
    std::cerr << "internal compiler error: " << r.ice.message << "\n";
    return kExitInternal;
  }
  if (r.diags.has_errors()) return kExitDiagnostics;
  if (!r.input_error.empty()) {
    std::cerr << file->path() << ": error: " << r.input_error << "\n";
    return kExitDiagnostics;
  }
  if (!r.write_error.empty()) {
    std::cerr << "error: " << r.write_error << "\n";
    return kExitInternal;
  }
  switch (stop) {
    case Stage::GradIr:
      std::cout << r.text;  // to stdout even with -o, as always
      return kExitOk;
    case Stage::TileIr:
    case Stage::Llvm:
    case Stage::Ptx:
      return WriteOutput(opts, r.text);
    case Stage::Tokens:
    case Stage::Ast:
    case Stage::TypedAst:
    case Stage::Jit:
    case Stage::SharedObject:
      break;
  }
  return kExitOk;
}

}  // namespace tilec::cli
