// The parser: source text to AST. The only part of tilec that sees ANTLR; its trees and tokens
// never leave parse/. Syntax errors become our own diagnostics (E0001-E0099).
#pragma once
#include <memory>
#include <string>

#include "frontend/ast/ast.h"
#include "support/diagnostics.h"

namespace tilec::parse {

// Parses a whole file. Always returns a module; statements that failed to parse are left out
// and each failure is reported to `diags` with its location.
std::unique_ptr<ast::Module> ParseFile(const SourceFile& file, diag::DiagnosticEngine& diags);

// One token per line: `line:col KIND 'text'`, INDENT/DEDENT/NEWLINE included (--emit=tokens).
std::string DumpTokens(const SourceFile& file, diag::DiagnosticEngine& diags);

}  // namespace tilec::parse
