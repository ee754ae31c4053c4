// Text form of the AST: `label: Kind details @line:col`, children two spaces deeper. Literal
// values are shown exactly (shortest round-trip floats, escaped strings).
#include "frontend/ast/ast_printer.h"

#include <charconv>
#include <cstdio>

namespace tilec::ast {

namespace {

std::string FloatText(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, res.ptr);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  return out + "\"";
}

class Printer {
 public:
  explicit Printer(const SourceFile* file) : file_(file) {}
  std::string out;

  void Line(int indent, const std::string& label, const std::string& text, SourceRange r) {
    out.append(size_t(indent) * 2, ' ');
    if (!label.empty()) out += label + ": ";
    out += text;
    if (file_) {
      const LineCol lc = file_->Locate(r.begin);
      out += " @" + std::to_string(lc.line) + ":" + std::to_string(lc.col);
    }
    out += '\n';
  }
  void Header(int indent, const std::string& label) {
    out.append(size_t(indent) * 2, ' ');
    out += label + ":\n";
  }

  void Expr(const ast::Expr* e, int indent, const std::string& label) {
    if (!e) return;
    const SourceRange r = e->range;
    switch (e->kind) {
      case ExprKind::Name: Line(indent, label, "Name " + e->As<Name>()->id, r); return;
      case ExprKind::IntLit: Line(indent, label, "Int " + std::to_string(e->As<IntLit>()->value), r); return;
      case ExprKind::FloatLit:
        Line(indent, label, std::string(e->As<FloatLit>()->imaginary ? "Imaginary " : "Float ") +
                                FloatText(e->As<FloatLit>()->value), r);
        return;
      case ExprKind::StrLit: Line(indent, label, "Str " + Quote(e->As<StrLit>()->value), r); return;
      case ExprKind::BoolLit: Line(indent, label, e->As<BoolLit>()->value ? "Bool True" : "Bool False", r); return;
      case ExprKind::NoneLit: Line(indent, label, "None", r); return;
      case ExprKind::Unary: {
        const auto* u = e->As<Unary>();
        Line(indent, label, std::string("Unary ") + Spelling(u->op), r);
        Expr(u->operand.get(), indent + 1, "operand");
        return;
      }
      case ExprKind::Binary: {
        const auto* b = e->As<Binary>();
        Line(indent, label, std::string("Binary ") + Spelling(b->op), r);
        Expr(b->lhs.get(), indent + 1, "lhs");
        Expr(b->rhs.get(), indent + 1, "rhs");
        return;
      }
      case ExprKind::BoolOp: {
        const auto* b = e->As<BoolOp>();
        Line(indent, label, std::string("BoolOp ") + Spelling(b->op), r);
        for (const auto& v : b->values) Expr(v.get(), indent + 1, "value");
        return;
      }
      case ExprKind::Compare: {
        const auto* c = e->As<Compare>();
        std::string ops;
        for (CmpOp op : c->ops) ops += std::string(ops.empty() ? "" : ", ") + Spelling(op);
        Line(indent, label, "Compare " + ops, r);
        Expr(c->left.get(), indent + 1, "left");
        for (const auto& v : c->comparators) Expr(v.get(), indent + 1, "comparator");
        return;
      }
      case ExprKind::IfExp: {
        const auto* i = e->As<IfExp>();
        Line(indent, label, "IfExp", r);
        Expr(i->cond.get(), indent + 1, "cond");
        Expr(i->then_value.get(), indent + 1, "then");
        Expr(i->else_value.get(), indent + 1, "else");
        return;
      }
      case ExprKind::Call: {
        const auto* c = e->As<Call>();
        Line(indent, label, "Call", r);
        Expr(c->func.get(), indent + 1, "func");
        for (const auto& a : c->args) Expr(a.get(), indent + 1, "arg");
        for (const auto& k : c->keywords) {
          Line(indent + 1, "keyword", k.name, k.range);
          Expr(k.value.get(), indent + 2, "value");
        }
        if (const auto* comp = dynamic_cast<const Comprehension*>(c)) {
          Expr(comp->elt.get(), indent + 1, comp->value ? "key" : "elt");
          Expr(comp->value.get(), indent + 1, "value");
          for (const auto& cl : comp->clauses) {
            Header(indent + 1, "for");
            Expr(cl.target.get(), indent + 2, "target");
            Expr(cl.iter.get(), indent + 2, "iter");
            for (const auto& cond : cl.ifs) Expr(cond.get(), indent + 2, "if");
          }
        } else if (const auto* w = dynamic_cast<const NamedExpr*>(c)) {
          Line(indent + 1, "target", w->target, w->target_range);
        } else if (const auto* lam = dynamic_cast<const Lambda*>(c)) {
          for (const auto& p : lam->params) {
            const char* mark = p.kind == ParamKind::VarArgs ? "*" : p.kind == ParamKind::VarKeywords ? "**" : "";
          Line(indent + 1, p.kind == ParamKind::KeywordOnly ? "kwonly param" : "param", mark + p.name, p.range);
            Expr(p.default_value.get(), indent + 2, "default");
          }
          Expr(lam->body.get(), indent + 1, "body");
        }
        return;
      }
      case ExprKind::Attribute: {
        const auto* a = e->As<Attribute>();
        Line(indent, label, "Attribute " + a->attr, r);
        Expr(a->value.get(), indent + 1, "value");
        return;
      }
      case ExprKind::Subscript: {
        const auto* s = e->As<Subscript>();
        Line(indent, label, "Subscript", r);
        Expr(s->value.get(), indent + 1, "value");
        Expr(s->index.get(), indent + 1, "index");
        return;
      }
      case ExprKind::Slice: {
        const auto* s = e->As<Slice>();
        Line(indent, label, "Slice", r);
        Expr(s->lower.get(), indent + 1, "lower");
        Expr(s->upper.get(), indent + 1, "upper");
        Expr(s->step.get(), indent + 1, "step");
        return;
      }
      case ExprKind::Tuple: {
        const auto* t = e->As<Tuple>();
        Line(indent, label, t->parenthesized ? "Tuple parenthesized" : "Tuple", r);
        for (const auto& v : t->elts) Expr(v.get(), indent + 1, "elt");
        return;
      }
      case ExprKind::List: {
        const auto* l = e->As<List>();
        Line(indent, label, "List", r);
        for (const auto& v : l->elts) Expr(v.get(), indent + 1, "elt");
        return;
      }
      case ExprKind::Dict: {
        const auto* d = e->As<Dict>();
        Line(indent, label, "Dict", r);
        for (size_t i = 0; i < d->keys.size(); ++i) {
          Expr(d->keys[i].get(), indent + 1, "key");
          if (i < d->values.size()) Expr(d->values[i].get(), indent + 1, "value");
        }
        return;
      }
    }
  }

  void Body(const ast::Body& body, int indent, const std::string& label) {
    if (body.empty()) return;
    Header(indent, label);
    for (const auto& s : body) Stmt(s.get(), indent + 1);
  }

  void Aliases(const std::vector<ImportAlias>& names, int indent) {
    for (const auto& a : names)
      Line(indent, "alias", a.asname.empty() ? a.name : a.name + " as " + a.asname, a.range);
  }

  void Stmt(const ast::Stmt* s, int indent) {
    const SourceRange r = s->range;
    switch (s->kind) {
      case StmtKind::ExprStmt:
        Line(indent, "", "ExprStmt", r);
        Expr(s->As<ExprStmt>()->value.get(), indent + 1, "value");
        return;
      case StmtKind::Assign: {
        const auto* a = s->As<Assign>();
        Line(indent, "", "Assign", r);
        for (const auto& t : a->targets) Expr(t.get(), indent + 1, "target");
        Expr(a->value.get(), indent + 1, "value");
        return;
      }
      case StmtKind::AugAssign: {
        const auto* a = s->As<AugAssign>();
        Line(indent, "", std::string("AugAssign ") + Spelling(a->op) + "=", r);
        Expr(a->target.get(), indent + 1, "target");
        Expr(a->value.get(), indent + 1, "value");
        return;
      }
      case StmtKind::AnnAssign: {
        const auto* a = s->As<AnnAssign>();
        Line(indent, "", "AnnAssign", r);
        Expr(a->target.get(), indent + 1, "target");
        Expr(a->annotation.get(), indent + 1, "annotation");
        Expr(a->value.get(), indent + 1, "value");
        return;
      }
      case StmtKind::If: {
        const auto* i = s->As<If>();
        Line(indent, "", i->is_elif ? "If elif" : "If", r);
        Expr(i->cond.get(), indent + 1, "cond");
        Body(i->body, indent + 1, "body");
        Body(i->orelse, indent + 1, "orelse");
        return;
      }
      case StmtKind::For: {
        const auto* f = s->As<For>();
        Line(indent, "", "For", r);
        Expr(f->target.get(), indent + 1, "target");
        Expr(f->iter.get(), indent + 1, "iter");
        Body(f->body, indent + 1, "body");
        return;
      }
      case StmtKind::While: {
        const auto* w = s->As<While>();
        Line(indent, "", "While", r);
        Expr(w->cond.get(), indent + 1, "cond");
        Body(w->body, indent + 1, "body");
        return;
      }
      case StmtKind::Break: Line(indent, "", "Break", r); return;
      case StmtKind::Continue: Line(indent, "", "Continue", r); return;
      case StmtKind::Pass: Line(indent, "", "Pass", r); return;
      case StmtKind::Return:
        Line(indent, "", "Return", r);
        Expr(s->As<Return>()->value.get(), indent + 1, "value");
        return;
      case StmtKind::FunctionDef: {
        const auto* f = s->As<FunctionDef>();
        Line(indent, "", "FunctionDef " + f->name, r);
        for (const auto& d : f->decorators) Expr(d.get(), indent + 1, "decorator");
        for (const auto& p : f->params) {
          const char* mark = p.kind == ParamKind::VarArgs ? "*" : p.kind == ParamKind::VarKeywords ? "**" : "";
          Line(indent + 1, p.kind == ParamKind::KeywordOnly ? "kwonly param" : "param", mark + p.name, p.range);
          Expr(p.annotation.get(), indent + 2, "annotation");
          Expr(p.default_value.get(), indent + 2, "default");
        }
        Expr(f->returns.get(), indent + 1, "returns");
        Body(f->body, indent + 1, "body");
        return;
      }
      case StmtKind::ClassDef: {
        const auto* c = s->As<ClassDef>();
        Line(indent, "", "ClassDef " + c->name, r);
        for (const auto& d : c->decorators) Expr(d.get(), indent + 1, "decorator");
        for (const auto& b : c->bases) Expr(b.get(), indent + 1, "base");
        Body(c->body, indent + 1, "body");
        return;
      }
      case StmtKind::Import:
        Line(indent, "", "Import", r);
        Aliases(s->As<Import>()->names, indent + 1);
        return;
      case StmtKind::ImportFrom: {
        const auto* i = s->As<ImportFrom>();
        Line(indent, "", "ImportFrom " + i->module, r);
        Aliases(i->names, indent + 1);
        return;
      }
      case StmtKind::With: {
        const auto* w = s->As<With>();
        Line(indent, "", "With", r);
        for (const auto& item : w->items) {
          Expr(item.context.get(), indent + 1, "context");
          Expr(item.target.get(), indent + 1, "as");
        }
        Body(w->body, indent + 1, "body");
        return;
      }
      case StmtKind::Assert: {
        const auto* a = s->As<Assert>();
        Line(indent, "", "Assert", r);
        Expr(a->test.get(), indent + 1, "test");
        Expr(a->msg.get(), indent + 1, "msg");
        return;
      }
      case StmtKind::Try: {
        const auto* t = s->As<Try>();
        Line(indent, "", "Try", r);
        Body(t->body, indent + 1, "body");
        for (const auto& h : t->handlers) {
          Line(indent + 1, "", "ExceptHandler" + (h.name.empty() ? "" : " " + h.name), h.range);
          Expr(h.type.get(), indent + 2, "type");
          Body(h.body, indent + 2, "body");
        }
        Body(t->orelse, indent + 1, "orelse");
        Body(t->finalbody, indent + 1, "finalbody");
        return;
      }
      case StmtKind::Raise: {
        const auto* ra = s->As<Raise>();
        Line(indent, "", "Raise", r);
        Expr(ra->exc.get(), indent + 1, "exc");
        Expr(ra->cause.get(), indent + 1, "cause");
        return;
      }
      case StmtKind::Delete:
        Line(indent, "", "Delete", r);
        for (const ExprPtr& t : s->As<Delete>()->targets) Expr(t.get(), indent + 1, "target");
        return;
      case StmtKind::Global: {
        const auto* g = s->As<Global>();
        std::string names;
        for (const std::string& n : g->names) names += " " + n;
        Line(indent, "", (g->nonlocal ? "Nonlocal" : "Global") + names, r);
        return;
      }
    }
  }

 private:
  const SourceFile* file_;
};

}  // namespace

std::string PrintAst(const Module& module) {
  Printer p(module.file);
  p.out = "Module\n";
  for (const auto& s : module.body) p.Stmt(s.get(), 1);
  return std::move(p.out);
}

std::string PrintExpr(const Expr& expr, const SourceFile* file, int indent) {
  Printer p(file);
  p.Expr(&expr, indent, "");
  return std::move(p.out);
}

}  // namespace tilec::ast
