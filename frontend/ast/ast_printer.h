// The AST as an indented tree, one node per line with its line:col (`tilec compile
// --emit=ast`). Fields are labelled (`value:`, `arg:`), statement lists get a `body:` line.
#pragma once
#include <string>

#include "frontend/ast/ast.h"

namespace tilec::ast {

std::string PrintAst(const Module& module);

// One expression, starting at indentation `indent` (two spaces per level); for tests and dumps.
std::string PrintExpr(const Expr& expr, const SourceFile* file, int indent = 0);

}  // namespace tilec::ast
