// The front half of every command that takes a source file: read it, parse it, and render
// diagnostics the same way everywhere.
#pragma once
#include <memory>
#include <string>

#include "frontend/ast/ast.h"
#include "frontend/sema/sema.h"
#include "support/diagnostics.h"
#include "support/source.h"
#include "tools/tilec/cli.h"

namespace tilec::cli {

struct FrontendResult {
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<ast::Module> module;
  diag::DiagnosticEngine diags;
};

// Returns false (after printing a usage error) when the file cannot be read.
bool LoadAndParse(const std::string& path, FrontendResult& out);

// Runs the checker on a parsed module (when parsing succeeded); `--test-builtins` enables
// the checker's test-only builtins. Returns null when parsing failed.
std::unique_ptr<sema::CheckedModule> CheckParsed(const Options& opts, FrontendResult& fe);

// Prints the collected diagnostics to stderr (colored when it is a terminal unless told).
void PrintDiagnostics(const Options& opts, const diag::DiagnosticEngine& diags);

}  // namespace tilec::cli
