// `tilec check FILE`: parse and type-check, report every error, produce nothing.
#include "tools/tilec/frontend_driver.h"

namespace tilec::cli {

int RunCheck(const Options& opts) {
  if (opts.inputs.size() != 1) return UsageError("`check` takes exactly one FILE");
  std::unique_ptr<SourceFile> file = LoadSource(opts.inputs[0]);
  if (!file) return kExitUsage;
  compiler::PipelineResult r = compiler::Run(*file, BasePipelineOptions(opts), compiler::Stage::TypedAst);
  PrintDiagnostics(opts, r.diags);
  return r.diags.has_errors() ? kExitDiagnostics : kExitOk;
}

}  // namespace tilec::cli
