// Deep copies of AST nodes. The switches name every node kind, so a new kind is a compile
// error here rather than a node silently dropped from an unrolled loop.
#include "frontend/ast/clone.h"

namespace tilec::ast {

namespace {

ExprPtr CloneOrNull(const ExprPtr& e) { return e ? Clone(*e) : nullptr; }

std::vector<ExprPtr> CloneAll(const std::vector<ExprPtr>& v) {
  std::vector<ExprPtr> out;
  out.reserve(v.size());
  for (const ExprPtr& e : v) out.push_back(CloneOrNull(e));
  return out;
}

Param CloneParam(const Param& p) {
  return Param{p.name, p.kind, p.range, p.name_range, CloneOrNull(p.annotation), CloneOrNull(p.default_value)};
}

std::vector<ImportAlias> CloneAliases(const std::vector<ImportAlias>& v) { return v; }

// The parts every Call (and its host-only subclasses) has.
void CopyCall(const Call& from, Call& to) {
  to.func = CloneOrNull(from.func);
  to.args = CloneAll(from.args);
  for (const Keyword& k : from.keywords) to.keywords.push_back(Keyword{k.name, k.name_range, CloneOrNull(k.value), k.range});
}

ExprPtr CloneCall(const Call& c) {
  if (const auto* comp = dynamic_cast<const Comprehension*>(&c)) {
    auto out = std::make_unique<Comprehension>(c.range, comp->form);
    CopyCall(c, *out);
    out->elt = CloneOrNull(comp->elt);
    out->value = CloneOrNull(comp->value);
    for (const CompClause& cl : comp->clauses)
      out->clauses.push_back(CompClause{CloneOrNull(cl.target), CloneOrNull(cl.iter), CloneAll(cl.ifs)});
    return out;
  }
  if (dynamic_cast<const SetDisplay*>(&c)) {
    auto out = std::make_unique<SetDisplay>(c.range);
    CopyCall(c, *out);
    return out;
  }
  if (const auto* w = dynamic_cast<const NamedExpr*>(&c)) {
    auto out = std::make_unique<NamedExpr>(c.range);
    CopyCall(c, *out);
    out->target = w->target;
    out->target_range = w->target_range;
    return out;
  }
  if (const auto* l = dynamic_cast<const Lambda*>(&c)) {
    auto out = std::make_unique<Lambda>(c.range);
    CopyCall(c, *out);
    for (const Param& p : l->params) out->params.push_back(CloneParam(p));
    out->body = CloneOrNull(l->body);
    return out;
  }
  auto out = std::make_unique<Call>(c.range);
  CopyCall(c, *out);
  return out;
}

}  // namespace

ExprPtr Clone(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Name: return std::make_unique<Name>(e.range, e.As<Name>()->id);
    case ExprKind::IntLit: return std::make_unique<IntLit>(e.range, e.As<IntLit>()->value, e.As<IntLit>()->too_large);
    case ExprKind::FloatLit:
      return std::make_unique<FloatLit>(e.range, e.As<FloatLit>()->value, e.As<FloatLit>()->imaginary);
    case ExprKind::StrLit: return std::make_unique<StrLit>(e.range, e.As<StrLit>()->value);
    case ExprKind::BoolLit: return std::make_unique<BoolLit>(e.range, e.As<BoolLit>()->value);
    case ExprKind::NoneLit: return std::make_unique<NoneLit>(e.range);
    case ExprKind::Unary: {
      const auto* u = e.As<Unary>();
      return std::make_unique<Unary>(e.range, u->op, CloneOrNull(u->operand));
    }
    case ExprKind::Binary: {
      const auto* b = e.As<Binary>();
      auto out = std::make_unique<Binary>(e.range, b->op, CloneOrNull(b->lhs), CloneOrNull(b->rhs));
      out->op_range = b->op_range;
      return out;
    }
    case ExprKind::BoolOp: {
      const auto* b = e.As<BoolOp>();
      auto out = std::make_unique<BoolOp>(e.range, b->op);
      out->values = CloneAll(b->values);
      return out;
    }
    case ExprKind::Compare: {
      const auto* c = e.As<Compare>();
      auto out = std::make_unique<Compare>(e.range);
      out->left = CloneOrNull(c->left);
      out->ops = c->ops;
      out->comparators = CloneAll(c->comparators);
      return out;
    }
    case ExprKind::IfExp: {
      const auto* i = e.As<IfExp>();
      auto out = std::make_unique<IfExp>(e.range);
      out->cond = CloneOrNull(i->cond);
      out->then_value = CloneOrNull(i->then_value);
      out->else_value = CloneOrNull(i->else_value);
      return out;
    }
    case ExprKind::Call: return CloneCall(*e.As<Call>());
    case ExprKind::Attribute: {
      const auto* a = e.As<Attribute>();
      return std::make_unique<Attribute>(e.range, CloneOrNull(a->value), a->attr, a->attr_range);
    }
    case ExprKind::Subscript: {
      const auto* s = e.As<Subscript>();
      return std::make_unique<Subscript>(e.range, CloneOrNull(s->value), CloneOrNull(s->index));
    }
    case ExprKind::Slice: {
      const auto* s = e.As<Slice>();
      auto out = std::make_unique<Slice>(e.range);
      out->lower = CloneOrNull(s->lower);
      out->upper = CloneOrNull(s->upper);
      out->step = CloneOrNull(s->step);
      return out;
    }
    case ExprKind::Tuple: {
      const auto* t = e.As<Tuple>();
      auto out = std::make_unique<Tuple>(e.range);
      out->elts = CloneAll(t->elts);
      out->parenthesized = t->parenthesized;
      return out;
    }
    case ExprKind::List: {
      auto out = std::make_unique<List>(e.range);
      out->elts = CloneAll(e.As<List>()->elts);
      return out;
    }
    case ExprKind::Dict: {
      const auto* d = e.As<Dict>();
      auto out = std::make_unique<Dict>(e.range);
      out->keys = CloneAll(d->keys);
      out->values = CloneAll(d->values);
      return out;
    }
  }
  return nullptr;
}

StmtPtr Clone(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::ExprStmt: return std::make_unique<ExprStmt>(s.range, CloneOrNull(s.As<ExprStmt>()->value));
    case StmtKind::Assign: {
      const auto* a = s.As<Assign>();
      auto out = std::make_unique<Assign>(s.range);
      out->targets = CloneAll(a->targets);
      out->value = CloneOrNull(a->value);
      return out;
    }
    case StmtKind::AugAssign: {
      const auto* a = s.As<AugAssign>();
      auto out = std::make_unique<AugAssign>(s.range);
      out->target = CloneOrNull(a->target);
      out->op = a->op;
      out->op_range = a->op_range;
      out->value = CloneOrNull(a->value);
      return out;
    }
    case StmtKind::AnnAssign: {
      const auto* a = s.As<AnnAssign>();
      auto out = std::make_unique<AnnAssign>(s.range);
      out->target = CloneOrNull(a->target);
      out->annotation = CloneOrNull(a->annotation);
      out->value = CloneOrNull(a->value);
      return out;
    }
    case StmtKind::If: {
      const auto* i = s.As<If>();
      auto out = std::make_unique<If>(s.range);
      out->cond = CloneOrNull(i->cond);
      out->body = Clone(i->body);
      out->orelse = Clone(i->orelse);
      out->is_elif = i->is_elif;
      return out;
    }
    case StmtKind::For: {
      const auto* f = s.As<For>();
      auto out = std::make_unique<For>(s.range);
      out->target = CloneOrNull(f->target);
      out->iter = CloneOrNull(f->iter);
      out->body = Clone(f->body);
      return out;
    }
    case StmtKind::While: {
      const auto* w = s.As<While>();
      auto out = std::make_unique<While>(s.range);
      out->cond = CloneOrNull(w->cond);
      out->body = Clone(w->body);
      return out;
    }
    case StmtKind::Break: return std::make_unique<Break>(s.range);
    case StmtKind::Continue: return std::make_unique<Continue>(s.range);
    case StmtKind::Pass: return std::make_unique<Pass>(s.range);
    case StmtKind::Return: return std::make_unique<Return>(s.range, CloneOrNull(s.As<Return>()->value));
    case StmtKind::FunctionDef: {
      const auto* f = s.As<FunctionDef>();
      auto out = std::make_unique<FunctionDef>(s.range);
      out->decorators = CloneAll(f->decorators);
      out->name = f->name;
      out->name_range = f->name_range;
      for (const Param& p : f->params) out->params.push_back(CloneParam(p));
      out->returns = CloneOrNull(f->returns);
      out->body = Clone(f->body);
      out->is_async = f->is_async;
      return out;
    }
    case StmtKind::ClassDef: {
      const auto* c = s.As<ClassDef>();
      auto out = std::make_unique<ClassDef>(s.range);
      out->decorators = CloneAll(c->decorators);
      out->name = c->name;
      out->name_range = c->name_range;
      out->bases = CloneAll(c->bases);
      out->body = Clone(c->body);
      return out;
    }
    case StmtKind::Import: {
      auto out = std::make_unique<Import>(s.range);
      out->names = CloneAliases(s.As<Import>()->names);
      return out;
    }
    case StmtKind::ImportFrom: {
      const auto* i = s.As<ImportFrom>();
      auto out = std::make_unique<ImportFrom>(s.range);
      out->module = i->module;
      out->module_range = i->module_range;
      out->names = CloneAliases(i->names);
      return out;
    }
    case StmtKind::With: {
      const auto* w = s.As<With>();
      auto out = std::make_unique<With>(s.range);
      for (const WithItem& it : w->items) out->items.push_back(WithItem{CloneOrNull(it.context), CloneOrNull(it.target)});
      out->body = Clone(w->body);
      return out;
    }
    case StmtKind::Assert: {
      const auto* a = s.As<Assert>();
      auto out = std::make_unique<Assert>(s.range);
      out->test = CloneOrNull(a->test);
      out->msg = CloneOrNull(a->msg);
      return out;
    }
    case StmtKind::Try: {
      const auto* t = s.As<Try>();
      auto out = std::make_unique<Try>(s.range);
      out->body = Clone(t->body);
      for (const ExceptHandler& h : t->handlers)
        out->handlers.push_back(ExceptHandler{CloneOrNull(h.type), h.name, h.range, Clone(h.body)});
      out->orelse = Clone(t->orelse);
      out->finalbody = Clone(t->finalbody);
      return out;
    }
    case StmtKind::Raise: {
      const auto* r = s.As<Raise>();
      auto out = std::make_unique<Raise>(s.range);
      out->exc = CloneOrNull(r->exc);
      out->cause = CloneOrNull(r->cause);
      return out;
    }
    case StmtKind::Delete: {
      auto out = std::make_unique<Delete>(s.range);
      for (const ExprPtr& t : s.As<Delete>()->targets) out->targets.push_back(Clone(*t));
      return out;
    }
    case StmtKind::Global: {
      const auto* g = s.As<Global>();
      auto out = std::make_unique<Global>(s.range);
      out->names = g->names;
      out->nonlocal = g->nonlocal;
      return out;
    }
  }
  return nullptr;
}

Body Clone(const Body& body) {
  Body out;
  out.reserve(body.size());
  for (const StmtPtr& s : body) out.push_back(Clone(*s));
  return out;
}

}  // namespace tilec::ast
