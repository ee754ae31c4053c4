// Deep copies of AST nodes, ranges included. The checker unrolls a `for` over a constant
// `range` by checking one copy of the body per iteration: its side tables are keyed by node,
// so each iteration needs nodes of its own.
#pragma once
#include "frontend/ast/ast.h"

namespace tilec::ast {

ExprPtr Clone(const Expr& e);
StmtPtr Clone(const Stmt& s);
Body Clone(const Body& body);

}  // namespace tilec::ast
