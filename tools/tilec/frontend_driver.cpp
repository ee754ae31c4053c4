// Reading, parsing and diagnostic rendering shared by `check` and `compile`.
#include "tools/tilec/frontend_driver.h"

#include <unistd.h>

#include <iostream>

#include "frontend/parse/parse.h"

namespace tilec::cli {

bool ReadInput(const std::string& path, std::string& text) {
  std::string error;
  if (!SourceFile::Load(path, text, error)) {
    UsageError(error);
    return false;
  }
  return true;
}

bool LoadAndParse(const std::string& path, FrontendResult& out) {
  std::string text;
  if (!ReadInput(path, text)) return false;
  out.file = std::make_unique<SourceFile>(path, std::move(text));
  out.module = parse::ParseFile(*out.file, out.diags);
  return true;
}

void PrintDiagnostics(const Options& opts, const diag::DiagnosticEngine& diags) {
  bool color = isatty(2) != 0;
  if (opts.Has("color")) color = true;
  if (opts.Has("no-color")) color = false;
  diags.Render(std::cerr, color);
}

}  // namespace tilec::cli
