// Tile IR text parser: reads back exactly what ir/printer.cpp prints (`--emit=tile-ir`,
// `--emit=grad-ir`), so that pass and autodiff tests can be file tests with IR in and IR out.
// Lines starting with `#` and `  # line:col` suffixes are comments.
#pragma once
#include <memory>
#include <string_view>

#include "ir/ir.h"
#include "support/diagnostics.h"
#include "support/source.h"

namespace tilec::ir {

// `text` is `file`'s text (diagnostics and op locations point into it; `file` may be null).
// The first error is reported (E0900-E0907) and stops the parse: the result is then null.
// The module is not verified here; run ir::Verify on it.
std::unique_ptr<Module> ParseModule(std::string_view text, const SourceFile* file,
                                    diag::DiagnosticEngine& diags);

}  // namespace tilec::ir
