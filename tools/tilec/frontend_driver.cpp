// Reading, pipeline options and diagnostic rendering shared by `check` and `compile`.
#include "tools/tilec/frontend_driver.h"

#include <unistd.h>

#include <iostream>

namespace tilec::cli {

bool ReadInput(const std::string& path, std::string& text) {
  std::string error;
  if (!SourceFile::Load(path, text, error)) {
    UsageError(error);
    return false;
  }
  return true;
}

std::unique_ptr<SourceFile> LoadSource(const std::string& path) {
  std::string text;
  if (!ReadInput(path, text)) return nullptr;
  return std::make_unique<SourceFile>(path, std::move(text));
}

compiler::PipelineOptions BasePipelineOptions(const Options& opts) {
  compiler::PipelineOptions po;
  po.enable_test_builtins = opts.Has("test-builtins");
  return po;
}

void PrintDiagnostics(const Options& opts, const diag::DiagnosticEngine& diags) {
  bool color = isatty(2) != 0;
  if (opts.Has("color")) color = true;
  if (opts.Has("no-color")) color = false;
  diags.Render(std::cerr, color);
}

}  // namespace tilec::cli
