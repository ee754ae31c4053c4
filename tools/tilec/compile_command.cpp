// `tilec compile --emit=STAGE FILE`: the ladder from tokens to PTX. Each rung runs the stages
// before it and prints its own output; errors in any stage stop the ladder there.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>

#include "frontend/ast/ast_printer.h"
#include "compiler/compiler.h"
#include "frontend/parse/parse.h"
#include "ir/printer.h"
#include "codegen/nvptx/nvptx.h"
#include "tools/tilec/frontend_driver.h"

namespace tilec::cli {

namespace {
const std::set<std::string> kStages = {"tokens", "ast", "typed-ast", "tile-ir",
                                       "grad-ir", "llvm", "ptx"};

// `--emit=ptx`, and `--emit=llvm --target=nvptx`: forward and adjoint kernels through the SIMT
// lowering for `--arch` (default sm_90) with `--block-dim` lanes per block (default 256).
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

int EmitGpu(const Options& opts, FrontendResult& fe, const sema::CheckedModule& checked, const std::string& emit) {
  codegen::PtxOptions popts;
  popts.arch = opts.Get("arch").value_or("sm_90");
  if (!codegen::IsSupportedPtxArch(popts.arch))
    return UsageError("unknown GPU architecture `--arch=" + popts.arch +
                      "` (expected sm_75, sm_80, sm_86, sm_89 or sm_90)");
  if (auto bd = opts.Get("block-dim")) {
    char* end = nullptr;
    long v = std::strtol(bd->c_str(), &end, 10);
    if (bd->empty() || *end || v < 1 || v > 1024)
      return UsageError("`--block-dim` must be an integer from 1 to 1024, got `" + *bd + "`");
    popts.block_dim = int(v);
  }
  compiler::InternalError ice;
  std::unique_ptr<ir::Module> m = compiler::LowerChecked(checked, fe.file.get(), fe.diags, ice);
  compiler::AdjointRejections rejected;
  bool ok = m && compiler::AddAdjointsDeferred(*m, rejected, ice);
  PrintDiagnostics(opts, fe.diags);
  if (ice.is_set()) {
    std::cerr << "internal compiler error: " << ice.message << "\n";
    return kExitInternal;
  }
  if (!ok) return kExitDiagnostics;
  std::string text, error;
  if (emit == "ptx") {
    codegen::PtxModule ptx;
    if (codegen::EmitPtx(*m, popts, ptx, error)) text = ptx.ptx;
  } else {
    codegen::EmitNvptxLlvmIr(*m, popts, text, error);
  }
  if (!error.empty()) {
    std::cerr << "internal compiler error: " << error << "\n";
    return kExitInternal;
  }
  return WriteOutput(opts, text);
}
}

int RunCompile(const Options& opts) {
  if (opts.inputs.size() != 1) return UsageError("`compile` takes exactly one FILE");
  std::string emit = opts.Get("emit").value_or("");
  if (emit.empty() && !opts.Get("o")) return UsageError("`compile` needs `--emit=STAGE` or `-o FILE`");
  if (!emit.empty() && !kStages.count(emit))
    return UsageError("unknown stage `--emit=" + emit +
                      "` (expected tokens, ast, typed-ast, tile-ir, grad-ir, llvm or ptx)");
  std::string target = opts.Get("target").value_or("host");
  if (target != "host" && target != "nvptx")
    return UsageError("unknown target `" + target + "` (expected host or nvptx)");

  if (emit == "tokens") {
    std::string text;
    if (!ReadInput(opts.inputs[0], text)) return kExitUsage;
    SourceFile file(opts.inputs[0], std::move(text));
    diag::DiagnosticEngine diags;
    std::cout << parse::DumpTokens(file, diags);
    PrintDiagnostics(opts, diags);
    return diags.has_errors() ? kExitDiagnostics : kExitOk;
  }

  FrontendResult fe;
  if (!LoadAndParse(opts.inputs[0], fe)) return kExitUsage;
  if (fe.diags.has_errors()) {
    PrintDiagnostics(opts, fe.diags);
    return kExitDiagnostics;
  }
  if (emit == "ast") {
    std::cout << ast::PrintAst(*fe.module);
    PrintDiagnostics(opts, fe.diags);
    return kExitOk;
  }
  std::unique_ptr<sema::CheckedModule> checked = CheckParsed(opts, fe);
  if (fe.diags.has_errors()) {
    PrintDiagnostics(opts, fe.diags);
    return kExitDiagnostics;
  }
  if (emit == "typed-ast") {
    std::cout << sema::PrintTypedAst(*checked);
    PrintDiagnostics(opts, fe.diags);
    return kExitOk;
  }
  if (emit == "ptx" || (emit == "llvm" && target == "nvptx")) return EmitGpu(opts, fe, *checked, emit);
  if (emit == "grad-ir") {
    // The adjoint kernels only (ir/autodiff), after the forward kernels' IR pipeline.
    compiler::InternalError ice;
    std::unique_ptr<ir::Module> m = compiler::LowerChecked(*checked, fe.file.get(), fe.diags, ice);
    bool ok = m && compiler::AddAdjoints(*m, fe.diags, ice);
    PrintDiagnostics(opts, fe.diags);
    if (ice.is_set()) {
      std::cerr << "internal compiler error: " << ice.message << "\n";
      return kExitInternal;
    }
    if (!ok) return kExitDiagnostics;
    bool first = true;
    for (auto& f : m->functions()) {
      if (f->adjoint_of.empty()) continue;
      if (!first) std::cout << "\n";
      first = false;
      ir::PrintFunction(std::cout, *m, *f);
    }
    return kExitOk;
  }
  if (emit == "tile-ir" || emit == "llvm" || (emit.empty() && target == "host")) {
    // Tile IR after the IR pipeline; host LLVM IR (O3); or an AOT shared object (-o).
    compiler::InternalError ice;
    std::unique_ptr<ir::Module> m = compiler::LowerChecked(*checked, fe.file.get(), fe.diags, ice);
    bool ok = m != nullptr;
    compiler::AdjointRejections rejected;
    if (ok && emit != "tile-ir") ok = compiler::AddAdjointsDeferred(*m, rejected, ice);
    PrintDiagnostics(opts, fe.diags);
    if (ice.is_set()) {
      std::cerr << "internal compiler error: " << ice.message << "\n";
      return kExitInternal;
    }
    if (!ok) return kExitDiagnostics;
    std::string text, error;
    if (emit == "tile-ir") {
      text = ir::ModuleToString(*m);
    } else if (emit == "llvm") {
      if (!compiler::EmitLlvm(*m, text, ice)) {
        std::cerr << "internal compiler error: " << ice.message << "\n";
        return kExitInternal;
      }
    } else {
      if (!compiler::WriteSharedObject(*checked, *m, *opts.Get("o"), error, {}, &rejected)) {
        std::cerr << "error: " << error << "\n";
        return kExitInternal;
      }
      return kExitOk;
    }
    return WriteOutput(opts, text);
  }
  PrintDiagnostics(opts, fe.diags);
  return UsageError("stage `" + (emit.empty() ? std::string("-o") : "--emit=" + emit) +
                    "` is not available in this build");
}

}  // namespace tilec::cli
