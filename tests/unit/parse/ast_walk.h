// Test helper: visits every AST node with its range, to check that ranges are well formed
// and lie inside the file (the parser promises exact byte ranges).
#pragma once
#include <functional>

#include "frontend/ast/ast.h"

namespace tilec::testing {

using RangeVisitor = std::function<void(SourceRange, const char* what)>;

inline void WalkExpr(const ast::Expr* e, const RangeVisitor& v) {
  if (!e) return;
  v(e->range, "expr");
  using K = ast::ExprKind;
  switch (e->kind) {
    case K::Unary: WalkExpr(e->As<ast::Unary>()->operand.get(), v); break;
    case K::Binary:
      v(e->As<ast::Binary>()->op_range, "op");
      WalkExpr(e->As<ast::Binary>()->lhs.get(), v);
      WalkExpr(e->As<ast::Binary>()->rhs.get(), v);
      break;
    case K::BoolOp: for (const auto& x : e->As<ast::BoolOp>()->values) WalkExpr(x.get(), v); break;
    case K::Compare:
      WalkExpr(e->As<ast::Compare>()->left.get(), v);
      for (const auto& x : e->As<ast::Compare>()->comparators) WalkExpr(x.get(), v);
      break;
    case K::IfExp:
      WalkExpr(e->As<ast::IfExp>()->cond.get(), v);
      WalkExpr(e->As<ast::IfExp>()->then_value.get(), v);
      WalkExpr(e->As<ast::IfExp>()->else_value.get(), v);
      break;
    case K::Call: {
      const auto* c = e->As<ast::Call>();
      WalkExpr(c->func.get(), v);
      for (const auto& x : c->args) WalkExpr(x.get(), v);
      for (const auto& k : c->keywords) {
        v(k.range, "keyword");
        v(k.name_range, "keyword name");
        WalkExpr(k.value.get(), v);
      }
      break;
    }
    case K::Attribute:
      v(e->As<ast::Attribute>()->attr_range, "attr");
      WalkExpr(e->As<ast::Attribute>()->value.get(), v);
      break;
    case K::Subscript:
      WalkExpr(e->As<ast::Subscript>()->value.get(), v);
      WalkExpr(e->As<ast::Subscript>()->index.get(), v);
      break;
    case K::Slice:
      WalkExpr(e->As<ast::Slice>()->lower.get(), v);
      WalkExpr(e->As<ast::Slice>()->upper.get(), v);
      WalkExpr(e->As<ast::Slice>()->step.get(), v);
      break;
    case K::Tuple: for (const auto& x : e->As<ast::Tuple>()->elts) WalkExpr(x.get(), v); break;
    case K::List: for (const auto& x : e->As<ast::List>()->elts) WalkExpr(x.get(), v); break;
    case K::Dict:
      for (const auto& x : e->As<ast::Dict>()->keys) WalkExpr(x.get(), v);
      for (const auto& x : e->As<ast::Dict>()->values) WalkExpr(x.get(), v);
      break;
    default: break;
  }
}

inline void WalkBody(const ast::Body& body, const RangeVisitor& v);

inline void WalkStmt(const ast::Stmt* s, const RangeVisitor& v) {
  v(s->range, "stmt");
  using K = ast::StmtKind;
  switch (s->kind) {
    case K::ExprStmt: WalkExpr(s->As<ast::ExprStmt>()->value.get(), v); break;
    case K::Assign:
      for (const auto& t : s->As<ast::Assign>()->targets) WalkExpr(t.get(), v);
      WalkExpr(s->As<ast::Assign>()->value.get(), v);
      break;
    case K::AugAssign:
      v(s->As<ast::AugAssign>()->op_range, "op");
      WalkExpr(s->As<ast::AugAssign>()->target.get(), v);
      WalkExpr(s->As<ast::AugAssign>()->value.get(), v);
      break;
    case K::AnnAssign:
      WalkExpr(s->As<ast::AnnAssign>()->target.get(), v);
      WalkExpr(s->As<ast::AnnAssign>()->annotation.get(), v);
      WalkExpr(s->As<ast::AnnAssign>()->value.get(), v);
      break;
    case K::If:
      WalkExpr(s->As<ast::If>()->cond.get(), v);
      WalkBody(s->As<ast::If>()->body, v);
      WalkBody(s->As<ast::If>()->orelse, v);
      break;
    case K::For:
      WalkExpr(s->As<ast::For>()->target.get(), v);
      WalkExpr(s->As<ast::For>()->iter.get(), v);
      WalkBody(s->As<ast::For>()->body, v);
      break;
    case K::While:
      WalkExpr(s->As<ast::While>()->cond.get(), v);
      WalkBody(s->As<ast::While>()->body, v);
      break;
    case K::Return: WalkExpr(s->As<ast::Return>()->value.get(), v); break;
    case K::FunctionDef: {
      const auto* f = s->As<ast::FunctionDef>();
      v(f->name_range, "name");
      for (const auto& d : f->decorators) WalkExpr(d.get(), v);
      for (const auto& p : f->params) {
        v(p.range, "param");
        v(p.name_range, "param name");
        WalkExpr(p.annotation.get(), v);
        WalkExpr(p.default_value.get(), v);
      }
      WalkExpr(f->returns.get(), v);
      WalkBody(f->body, v);
      break;
    }
    case K::ClassDef: {
      const auto* c = s->As<ast::ClassDef>();
      v(c->name_range, "name");
      for (const auto& d : c->decorators) WalkExpr(d.get(), v);
      for (const auto& b : c->bases) WalkExpr(b.get(), v);
      WalkBody(c->body, v);
      break;
    }
    case K::Import: for (const auto& a : s->As<ast::Import>()->names) v(a.range, "alias"); break;
    case K::ImportFrom:
      v(s->As<ast::ImportFrom>()->module_range, "module");
      for (const auto& a : s->As<ast::ImportFrom>()->names) v(a.range, "alias");
      break;
    case K::With:
      for (const auto& item : s->As<ast::With>()->items) {
        WalkExpr(item.context.get(), v);
        WalkExpr(item.target.get(), v);
      }
      WalkBody(s->As<ast::With>()->body, v);
      break;
    case K::Assert:
      WalkExpr(s->As<ast::Assert>()->test.get(), v);
      WalkExpr(s->As<ast::Assert>()->msg.get(), v);
      break;
    default: break;
  }
}

inline void WalkBody(const ast::Body& body, const RangeVisitor& v) {
  for (const auto& s : body) WalkStmt(s.get(), v);
}

}  // namespace tilec::testing
