// `tilec compile --emit=STAGE FILE`: the ladder from tokens to PTX, one compiler::Run to the
// requested stage; this file only maps options onto it and prints what it produced.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "codegen/nvptx/nvptx.h"
#include "compiler/cpp_header.h"
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
    case Stage::Header:
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
  if (po.arch.find(',') != std::string::npos)
    return "`--emit` prints one GPU architecture's code, got `--arch=" + po.arch +
           "` (lists of architectures are for `-o` without `--emit`)";
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

// A comma-separated option value split into its items (empty items kept, to be refused).
std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ',')) out.push_back(item);
  if (text.empty() || text.back() == ',') out.push_back("");
  return out;
}

// `--arch=sm_80,sm_90`, `--block-dim=128,256` and `--no-cubin` for `-o` (a GPU module, or a
// shared object that carries GPU code): every architecture and block_dim a variant is built
// for. The usage error, if any.
std::optional<std::string> AotGpuOptions(const Options& opts, bool gpu_module, compiler::PipelineOptions& po) {
  compiler::GpuTargets& t = po.gpu;
  std::optional<std::string> archs = opts.Get("arch");
  // A shared object carries GPU code only when asked; a GPU module defaults to `--arch`'s default.
  if (!archs && !gpu_module) return std::nullopt;
  const std::string spec = archs.value_or("sm_90");
  for (const std::string& a : SplitList(spec)) {
    if (!codegen::IsSupportedPtxArch(a))
      return "unknown GPU architecture `" + a + "` in `--arch=" + spec +
             "` (expected a comma-separated list of sm_75, sm_80, sm_86, sm_89, sm_90)";
    if (std::find(t.archs.begin(), t.archs.end(), a) != t.archs.end())
      return "GPU architecture `" + a + "` appears twice in `--arch=" + spec + "`";
    t.archs.push_back(a);
  }
  if (auto bd = opts.Get("block-dim")) {
    t.block_dims.clear();
    for (const std::string& item : SplitList(*bd)) {
      char* end = nullptr;
      long v = std::strtol(item.c_str(), &end, 10);
      if (item.empty() || *end || v < 1 || v > 1024)
        return "`--block-dim` must be a comma-separated list of integers from 1 to 1024, got `" + *bd + "`";
      if (std::find(t.block_dims.begin(), t.block_dims.end(), int(v)) != t.block_dims.end())
        return "block_dim " + item + " appears twice in `--block-dim=" + *bd + "`";
      t.block_dims.push_back(int(v));
    }
  }
  t.cubin = !opts.Has("no-cubin");
  return std::nullopt;
}

// `--emit=header`: the typed C++ launchers of the module's signature, to `-o FILE` or stdout,
// in `--namespace=NAME` (default: the stem of FILE, else `kernels`).
int WriteHeader(const Options& opts, const SourceFile& file, const compiler::PipelineResult& r) {
  compiler::CppHeaderOptions ho;
  std::string out = opts.Get("o").value_or("");
  ho.header_name = out.empty() ? "kernels.h" : out.substr(out.find_last_of('/') + 1);
  ho.cpp_namespace = opts.Get("namespace").value_or(out.empty() ? "kernels" : compiler::DefaultHeaderNamespace(out));
  ho.source_name = file.path().substr(file.path().find_last_of('/') + 1);
  std::string text, error;
  if (!r.compiled || !compiler::GenerateCppHeader(r.compiled->signature, ho, text, error))
    return UsageError(error.empty() ? "no module signature to generate a header from" : error);
  return WriteOutput(opts, text);
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
                      "` (expected tokens, ast, typed-ast, tile-ir, grad-ir, llvm, ptx or header)");
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
    if (stop == Stage::Header)
      return UsageError("`--emit=header` needs a source FILE: the header is made from the checker's signature");
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
  // `-o` without `--emit`: a shared object for the host target (GPU code too with --arch), a
  // GPU module file (kernels.tlm) for nvptx.
  if (stop == Stage::SharedObject)
    gpu_error = AotGpuOptions(opts, po.compile.target == compiler::Target::Nvptx, po);
  if (po.input == compiler::Input::TileIr && gpu_error) return UsageError(*gpu_error);

  std::unique_ptr<SourceFile> file = LoadSource(opts.inputs[0]);
  if (!file) return kExitUsage;
  if (gpu_error) return LateUsageError(opts, *file, po, *gpu_error, false);

  compiler::PipelineResult r = compiler::Run(*file, po, stop);
  for (const std::string& w : r.warnings) std::cerr << "tilec: warning: " << w << "\n";
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
    case Stage::Header:
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
    case Stage::Header:
      return WriteHeader(opts, *file, r);
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
