// `--emit=typed-ast`: module constants, struct layouts, and each func/kernel body with every
// expression's type, shape, storage, constant value, uniformity and resolved builtin.
#include <sstream>

#include "frontend/sema/sema.h"

namespace tilec::sema {

namespace {

class Printer {
 public:
  explicit Printer(const CheckedModule& m) : m_(m) {}

  std::string Run() {
    for (const ModuleConstant& c : m_.constants) os_ << "const " << c.name << " = " << FormatConst(c.value) << "\n";
    for (const StructInfo& s : m_.structs) {
      os_ << "struct " << s.name << " (size " << s.size << ", align " << s.align << ")\n";
      for (const FieldInfo& f : s.fields)
        os_ << "  " << f.name << ": " << TypeName(f.type) << " @" << f.offset << "\n";
    }
    for (const FunctionInfo& f : m_.funcs)
      if (!f.is_prelude()) Function(f);
    for (const FunctionInfo& k : m_.kernels) Function(k);
    return os_.str();
  }

 private:
  std::string Text(const ast::Expr* e) const {
    const std::string& t = m_.module.file->text();
    if (e->range.end <= e->range.begin || e->range.end > t.size()) return "";
    std::string s = t.substr(e->range.begin, e->range.end - e->range.begin);
    for (char& c : s)
      if (c == '\n') c = ' ';
    return s;
  }
  int Line(SourceRange r) const { return m_.module.file->Locate(r.begin).line; }

  void Function(const FunctionInfo& f) {
    os_ << (f.is_kernel ? "kernel " : "func ") << f.name << "(";
    for (int i = 0; i < f.num_params; ++i)
      os_ << (i ? ", " : "") << f.Param(i)->name << ": " << TypeName(f.Param(i)->type);
    os_ << ")";
    if (!f.is_kernel) os_ << " -> " << TypeName(f.return_type);
    if (f.is_kernel) os_ << (f.tiled ? " tiled" : " untiled");
    else if (f.tiled) os_ << " tiled";
    if (f.tid_ndim) os_ << " tid=" << f.tid_ndim;
    if (f.is_kernel && !f.enable_backward) os_ << " no-backward";
    os_ << "\n";
    Body(f.def->body, 1);
    for (size_t i = f.num_params; i < f.locals.size(); ++i) {
      const LocalSymbol& s = *f.locals[i];
      os_ << "  " << (s.kind == SymbolKind::LoopVar ? "loopvar " : "local ") << s.name << ": " << TypeName(s.type);
      if (s.constant) os_ << " = " << FormatConst(*s.constant);
      if (!s.uniform) os_ << " varying";
      if (s.promoted_to_shared) os_ << " promoted";
      os_ << "\n";
    }
  }

  void Body(const ast::Body& body, int depth) {
    for (const ast::StmtPtr& s : body) Stmt(*s, depth);
  }

  void Head(const ast::Stmt& s, int depth, const char* what) {
    os_ << std::string(depth * 2, ' ') << "L" << Line(s.range) << " " << what << "\n";
  }

  void Stmt(const ast::Stmt& s, int depth) {
    int d = depth + 1;
    switch (s.kind) {
      case ast::StmtKind::ExprStmt: Head(s, depth, "expr"); Expr(s.As<ast::ExprStmt>()->value.get(), d, ""); break;
      case ast::StmtKind::Assign: {
        const auto& a = *s.As<ast::Assign>();
        Head(s, depth, "assign");
        for (const ast::ExprPtr& t : a.targets) Expr(t.get(), d, "target ");
        Expr(a.value.get(), d, "value ");
        break;
      }
      case ast::StmtKind::AugAssign: {
        const auto& a = *s.As<ast::AugAssign>();
        os_ << std::string(depth * 2, ' ') << "L" << Line(s.range) << " augassign " << ast::Spelling(a.op) << "=\n";
        Expr(a.target.get(), d, "target ");
        Expr(a.value.get(), d, "value ");
        break;
      }
      case ast::StmtKind::AnnAssign: {
        const auto& a = *s.As<ast::AnnAssign>();
        Head(s, depth, "annassign");
        Expr(a.target.get(), d, "target ");
        if (a.value) Expr(a.value.get(), d, "value ");
        break;
      }
      case ast::StmtKind::If: {
        const auto& i = *s.As<ast::If>();
        Head(s, depth, "if");
        Expr(i.cond.get(), d, "cond ");
        Body(i.body, d);
        if (!i.orelse.empty()) {
          os_ << std::string(depth * 2, ' ') << "else\n";
          Body(i.orelse, d);
        }
        break;
      }
      case ast::StmtKind::While: {
        const auto& w = *s.As<ast::While>();
        Head(s, depth, "while");
        Expr(w.cond.get(), d, "cond ");
        Body(w.body, d);
        break;
      }
      case ast::StmtKind::For: {
        const auto& f = *s.As<ast::For>();
        const UnrolledLoop* u = m_.Unrolled(f);
        Head(s, depth, u ? "for unrolled" : "for");
        Expr(f.target.get(), d, "target ");
        Expr(f.iter.get(), d, "iter ");
        if (!u) {
          Body(f.body, d);
          break;
        }
        for (size_t k = 0; k < u->bodies.size(); ++k) {
          os_ << std::string(d * 2, ' ') << "trip " << f.target->As<ast::Name>()->id << " = " << u->values[k] << "\n";
          Body(u->bodies[k], d + 1);
        }
        break;
      }
      case ast::StmtKind::Return: {
        Head(s, depth, "return");
        if (const ast::Expr* v = s.As<ast::Return>()->value.get()) Expr(v, d, "value ");
        break;
      }
      case ast::StmtKind::Break: Head(s, depth, "break"); break;
      case ast::StmtKind::Continue: Head(s, depth, "continue"); break;
      case ast::StmtKind::Pass: Head(s, depth, "pass"); break;
      default: Head(s, depth, "unsupported"); break;
    }
  }

  void Expr(const ast::Expr* e, int depth, const std::string& label) {
    if (!e) return;
    os_ << std::string(depth * 2, ' ') << label << "`" << Text(e) << "`";
    const ExprInfo* info = m_.Info(e);
    if (!info || !info->type) {
      os_ << ": <unchecked>\n";
      return;
    }
    os_ << ": " << TypeName(info->type);
    if (info->value && info->value->kind != ConstValue::Kind::None &&
        info->type->kind != TypeKind::TypeRef)
      os_ << " = " << FormatConst(*info->value);
    if (info->value) os_ << " const";
    if (!info->uniform) os_ << " varying";
    if (const CallInfo* c = m_.Call(e)) {
      switch (c->kind) {
        case CallInfo::Kind::Builtin:
          os_ << " [" << c->builtin->Spelling();
          if (c->builtin->overloads.size() > 1)
            os_ << " #" << (c->overload - c->builtin->overloads.data());
          for (size_t k = 0; k < c->overload->params.size() && k < c->const_args.size(); ++k) {
            const ParamSpec& p = c->overload->params[k];
            if (p.kind != ArgKind::Runtime && c->const_args[k])
              os_ << " " << p.name << "=" << FormatConst(*c->const_args[k]);
            else if (!c->args[k] && c->const_args[k])
              os_ << " " << p.name << "=" << FormatConst(*c->const_args[k]);
          }
          os_ << "]";
          break;
        case CallInfo::Kind::UserFunc: os_ << " [func " << m_.funcs[c->func_index].name << "]"; break;
        case CallInfo::Kind::StructCtor: os_ << " [struct " << m_.structs[c->struct_index].name << "]"; break;
        case CallInfo::Kind::Composite:
          os_ << " [" << CompositeOpName(c->composite);
          if (c->index >= 0) os_ << " index=" << c->index;
          if (c->count > 0) os_ << " count=" << c->count;
          os_ << "]";
          break;
      }
    }
    if (const LocalSymbol* s = m_.Symbol(e)) {
      const char* k = s->kind == SymbolKind::Param ? "param" : s->kind == SymbolKind::LoopVar ? "loopvar" : "local";
      os_ << " (" << k << " " << s->name << ")";
    }
    os_ << "\n";
    int d = depth + 1;
    switch (e->kind) {
      case ast::ExprKind::Unary: Expr(e->As<ast::Unary>()->operand.get(), d, ""); break;
      case ast::ExprKind::Binary:
        Expr(e->As<ast::Binary>()->lhs.get(), d, "");
        Expr(e->As<ast::Binary>()->rhs.get(), d, "");
        break;
      case ast::ExprKind::BoolOp:
        for (const ast::ExprPtr& v : e->As<ast::BoolOp>()->values) Expr(v.get(), d, "");
        break;
      case ast::ExprKind::Compare:
        Expr(e->As<ast::Compare>()->left.get(), d, "");
        for (const ast::ExprPtr& v : e->As<ast::Compare>()->comparators) Expr(v.get(), d, "");
        break;
      case ast::ExprKind::IfExp:
        Expr(e->As<ast::IfExp>()->cond.get(), d, "");
        Expr(e->As<ast::IfExp>()->then_value.get(), d, "");
        Expr(e->As<ast::IfExp>()->else_value.get(), d, "");
        break;
      case ast::ExprKind::Call: {
        const auto* c = e->As<ast::Call>();
        for (const ast::ExprPtr& a : c->args) Expr(a.get(), d, "");
        for (const ast::Keyword& kw : c->keywords) Expr(kw.value.get(), d, kw.name + "=");
        break;
      }
      case ast::ExprKind::Attribute: {
        const ast::Expr* v = e->As<ast::Attribute>()->value.get();
        const ExprInfo* vi = m_.Info(v);
        if (vi && vi->type && vi->type->kind != TypeKind::Module) Expr(v, d, "");
        break;
      }
      case ast::ExprKind::Subscript:
        Expr(e->As<ast::Subscript>()->value.get(), d, "");
        Expr(e->As<ast::Subscript>()->index.get(), d, "");
        break;
      case ast::ExprKind::Tuple:
        for (const ast::ExprPtr& v : e->As<ast::Tuple>()->elts) Expr(v.get(), d, "");
        break;
      default: break;
    }
  }

  const CheckedModule& m_;
  std::ostringstream os_;
};

}  // namespace

std::string PrintTypedAst(const CheckedModule& m) { return Printer(m).Run(); }

}  // namespace tilec::sema
