// `tilec compile --emit=STAGE FILE`: the ladder from tokens to PTX. Each rung runs the stages
// before it and prints its own output; errors in any stage stop the ladder there.
#include <iostream>
#include <set>

#include "frontend/ast/ast_printer.h"
#include "compiler/compiler.h"
#include "frontend/parse/parse.h"
#include "ir/printer.h"
#include "tools/tilec/frontend_driver.h"

namespace tilec::cli {

namespace {
const std::set<std::string> kStages = {"tokens", "ast", "typed-ast", "tile-ir",
                                       "grad-ir", "llvm", "ptx"};
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
  PrintDiagnostics(opts, fe.diags);
  return UsageError("stage `" + (emit.empty() ? std::string("-o") : "--emit=" + emit) +
                    "` is not available in this build");
}

}  // namespace tilec::cli
