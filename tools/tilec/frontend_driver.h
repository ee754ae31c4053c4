// What every command that takes a source file shares: reading it, the pipeline options the
// command line sets, and rendering diagnostics the same way everywhere.
#pragma once
#include <memory>
#include <string>

#include "compiler/pipeline.h"
#include "support/diagnostics.h"
#include "support/source.h"
#include "tools/tilec/cli.h"

namespace tilec::cli {

// Null (after printing a usage error) when the file cannot be read.
std::unique_ptr<SourceFile> LoadSource(const std::string& path);

// The options every command shares: `--test-builtins` enables the checker's test-only builtins.
compiler::PipelineOptions BasePipelineOptions(const Options& opts);

// Prints the collected diagnostics to stderr (colored when it is a terminal unless told).
void PrintDiagnostics(const Options& opts, const diag::DiagnosticEngine& diags);

}  // namespace tilec::cli
