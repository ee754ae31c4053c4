// `tilec check FILE`: parse and type-check, report every error, produce nothing.
#include <iostream>

#include "tools/tilec/frontend_driver.h"

namespace tilec::cli {

std::unique_ptr<sema::CheckedModule> CheckParsed(const Options& opts, FrontendResult& fe) {
  if (fe.diags.has_errors()) return nullptr;  // dropped statements would cause false errors
  sema::CheckOptions options;
  options.enable_test_builtins = opts.Has("test-builtins");
  return sema::Check(*fe.module, fe.diags, options);
}

int RunCheck(const Options& opts) {
  if (opts.inputs.size() != 1) return UsageError("`check` takes exactly one FILE");
  FrontendResult fe;
  if (!LoadAndParse(opts.inputs[0], fe)) return kExitUsage;
  CheckParsed(opts, fe);
  PrintDiagnostics(opts, fe.diags);
  return fe.diags.has_errors() ? kExitDiagnostics : kExitOk;
}

}  // namespace tilec::cli
