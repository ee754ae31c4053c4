// `tilec check FILE`: parse and type-check, report every error, produce nothing.
#include <iostream>

#include "tools/tilec/frontend_driver.h"

namespace tilec::cli {

int RunCheck(const Options& opts) {
  if (opts.inputs.size() != 1) return UsageError("`check` takes exactly one FILE");
  FrontendResult fe;
  if (!LoadAndParse(opts.inputs[0], fe)) return kExitUsage;
  PrintDiagnostics(opts, fe.diags);
  return fe.diags.has_errors() ? kExitDiagnostics : kExitOk;
}

}  // namespace tilec::cli
