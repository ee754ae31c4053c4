// `wp.static(expr)` in a kernel or func: the host evaluates `expr` where the definition runs,
// as Warp does, seeing the module's globals and the variables of the functions around it.
// The argument's text becomes the value: a @wp.func by its name, anything else as a constant
// of the kernel's module. An expression that names the definition's own variables (a static
// loop's counter) stays for the checker, which folds it per unrolled iteration.
#include "host/interp/wp_static.h"

#include <set>

#include "host/interp/array_values.h"
#include "host/interp/kernel_compile.h"
#include "host/interp/py_enum.h"
#include "host/interp/wp_composite.h"

namespace tilec::host {
namespace {

// The names the definition binds itself: parameters, assignment and loop targets.
void BoundNames(const ast::Expr& target, std::set<std::string>& out) {
  if (const auto* n = target.As<ast::Name>()) out.insert(n->id);
  else if (const auto* t = target.As<ast::Tuple>())
    for (const auto& e : t->elts) BoundNames(*e, out);
  else if (const auto* l = target.As<ast::List>())
    for (const auto& e : l->elts) BoundNames(*e, out);
}

void BoundNames(const ast::Body& body, std::set<std::string>& out) {
  for (const ast::StmtPtr& s : body) {
    if (const auto* a = s->As<ast::Assign>())
      for (const auto& t : a->targets) BoundNames(*t, out);
    else if (const auto* a = s->As<ast::AugAssign>()) BoundNames(*a->target, out);
    else if (const auto* a = s->As<ast::AnnAssign>()) BoundNames(*a->target, out);
    else if (const auto* f = s->As<ast::For>()) {
      BoundNames(*f->target, out);
      BoundNames(f->body, out);
    } else if (const auto* w = s->As<ast::While>()) BoundNames(w->body, out);
    else if (const auto* i = s->As<ast::If>()) {
      BoundNames(i->body, out);
      BoundNames(i->orelse, out);
    }
  }
}

// Calls `f` on each direct subexpression of `e`, in source order.
template <class F>
void ForEachChild(const ast::Expr& e, F&& f) {
  auto one = [&](const ast::ExprPtr& p) {
    if (p) f(*p);
  };
  auto all = [&](const std::vector<ast::ExprPtr>& ps) {
    for (const ast::ExprPtr& p : ps) one(p);
  };
  switch (e.kind) {
    case ast::ExprKind::Name: case ast::ExprKind::IntLit: case ast::ExprKind::FloatLit:
    case ast::ExprKind::StrLit: case ast::ExprKind::BoolLit: case ast::ExprKind::NoneLit:
      return;
    case ast::ExprKind::Unary: one(e.As<ast::Unary>()->operand); return;
    case ast::ExprKind::Binary:
      one(e.As<ast::Binary>()->lhs);
      one(e.As<ast::Binary>()->rhs);
      return;
    case ast::ExprKind::BoolOp: all(e.As<ast::BoolOp>()->values); return;
    case ast::ExprKind::Compare:
      one(e.As<ast::Compare>()->left);
      all(e.As<ast::Compare>()->comparators);
      return;
    case ast::ExprKind::IfExp:
      one(e.As<ast::IfExp>()->cond);
      one(e.As<ast::IfExp>()->then_value);
      one(e.As<ast::IfExp>()->else_value);
      return;
    case ast::ExprKind::Call:
      one(e.As<ast::Call>()->func);
      all(e.As<ast::Call>()->args);
      for (const ast::Keyword& k : e.As<ast::Call>()->keywords) one(k.value);
      return;
    case ast::ExprKind::Attribute: one(e.As<ast::Attribute>()->value); return;
    case ast::ExprKind::Subscript:
      one(e.As<ast::Subscript>()->value);
      one(e.As<ast::Subscript>()->index);
      return;
    case ast::ExprKind::Slice:
      one(e.As<ast::Slice>()->lower);
      one(e.As<ast::Slice>()->upper);
      one(e.As<ast::Slice>()->step);
      return;
    case ast::ExprKind::Tuple: all(e.As<ast::Tuple>()->elts); return;
    case ast::ExprKind::List: all(e.As<ast::List>()->elts); return;
    case ast::ExprKind::Dict:
      all(e.As<ast::Dict>()->keys);
      all(e.As<ast::Dict>()->values);
      return;
  }
}

// Whether `e` reads one of `names` (conservatively: any Name node spelled so).
bool NamesAny(const ast::Expr& e, const std::set<std::string>& names) {
  if (const auto* n = e.As<ast::Name>()) return names.count(n->id) > 0;
  bool found = false;
  ForEachChild(e, [&](const ast::Expr& c) { found = found || NamesAny(c, names); });
  return found;
}

// A value a kernel's module can hold as a constant: a number or bool, a Warp scalar type, a
// vector or matrix type or value, or a tuple of numbers.
bool KernelConstantValue(const Value& v) {
  if (v.IsNumber() || v.As<CompositeTypeObj>() || v.As<CompositeValueObj>()) return true;
  if (const auto* d = v.As<DTypeObj>()) return d->flavor == DTypeObj::Flavor::WpType;
  if (const auto* t = v.As<TupleObj>()) {
    for (const Value& x : t->items)
      if (!x.IsNumber()) return false;
    return !t->items.empty();
  }
  return false;
}

bool IsStaticCall(const ast::Call& c) {
  if (c.args.size() != 1 || !c.keywords.empty()) return false;
  if (const auto* n = c.func->As<ast::Name>()) return n->id == "static";
  const auto* a = c.func->As<ast::Attribute>();
  const auto* m = a ? a->value->As<ast::Name>() : nullptr;
  return m && a->attr == "static" && (m->id == "wp" || m->id == "warp");
}

class Resolver {
 public:
  Resolver(Interpreter& home, const FunctionObj& fn, int& counter, StaticResolution& out)
      : home_(home), fn_(fn), counter_(counter), out_(out) {
    for (const ast::Param& p : fn.def->params) bound_.insert(p.name);
    BoundNames(fn.def->body, bound_);
  }

  void Body(const ast::Body& body) {
    for (const ast::StmtPtr& s : body) Stmt(*s);
  }

 private:
  void Stmt(const ast::Stmt& s) {
    auto expr = [&](const ast::ExprPtr& e) {
      if (e) Expr(*e);
    };
    switch (s.kind) {
      case ast::StmtKind::ExprStmt: expr(s.As<ast::ExprStmt>()->value); return;
      case ast::StmtKind::Assign:
        for (const auto& t : s.As<ast::Assign>()->targets) expr(t);
        expr(s.As<ast::Assign>()->value);
        return;
      case ast::StmtKind::AugAssign:
        expr(s.As<ast::AugAssign>()->target);
        expr(s.As<ast::AugAssign>()->value);
        return;
      case ast::StmtKind::AnnAssign:
        expr(s.As<ast::AnnAssign>()->value);
        return;
      case ast::StmtKind::If:
        expr(s.As<ast::If>()->cond);
        Body(s.As<ast::If>()->body);
        Body(s.As<ast::If>()->orelse);
        return;
      case ast::StmtKind::For:
        expr(s.As<ast::For>()->iter);
        Body(s.As<ast::For>()->body);
        return;
      case ast::StmtKind::While:
        expr(s.As<ast::While>()->cond);
        Body(s.As<ast::While>()->body);
        return;
      case ast::StmtKind::Return: expr(s.As<ast::Return>()->value); return;
      case ast::StmtKind::Assert: expr(s.As<ast::Assert>()->test); return;
      // Kernels have none of these; the checker names them.
      case ast::StmtKind::Break: case ast::StmtKind::Continue: case ast::StmtKind::Pass:
      case ast::StmtKind::FunctionDef: case ast::StmtKind::ClassDef: case ast::StmtKind::Import:
      case ast::StmtKind::ImportFrom: case ast::StmtKind::With: case ast::StmtKind::Try:
      case ast::StmtKind::Raise: case ast::StmtKind::Delete: case ast::StmtKind::Global:
        return;
    }
  }

  void Expr(const ast::Expr& e) {
    if (const auto* c = e.As<ast::Call>(); c && IsStaticCall(*c) && Resolve(*c)) return;
    if (const auto* a = e.As<ast::Attribute>(); a && ResolveClassAttribute(*a)) return;
    ForEachChild(e, [&](const ast::Expr& child) { Expr(child); });
  }

  // `Cls.NAME` (and `Cls.NAME.value`) of a class the host defined: Warp reads the attribute
  // when it compiles, so an enum member or a number in a class body is a constant.
  bool ResolveClassAttribute(const ast::Attribute& attr) {
    const ast::Expr* root = attr.value.get();
    while (const auto* inner = root->As<ast::Attribute>()) root = inner->value.get();
    const auto* name = root->As<ast::Name>();
    if (!name || bound_.count(name->id) || name->id == "wp" || name->id == "warp") return false;
    Value v;
    try {
      if (!IsHostClass(home_.EvalInDefinitionScope(*root, fn_))) return false;
      v = home_.EvalInDefinitionScope(attr, fn_);
    } catch (const PyError&) {
      return false;
    }
    if (std::optional<int64_t> i = EnumIntValue(v)) v = Value::Int(*i);
    if (!v.IsNumber()) return false;
    return Replace(attr.range, v);
  }

  // Replaces the argument of one `wp.static(arg)` by its value (a func's call by the func's
  // name); false leaves it to the checker.
  bool Resolve(const ast::Call& call) {
    const ast::Expr& arg = *call.args[0];
    if (NamesAny(arg, bound_)) return false;
    Value v;
    try {
      v = home_.EvalInDefinitionScope(arg, fn_);
    } catch (const PyError&) {
      return false;  // the checker reports what it makes of the expression
    }
    const std::string& file = fn_.chunk->file.text();
    SourceRange range = arg.range;
    if (const auto* f = v.As<WpFuncObj>()) {
      const std::string text = f->name;
      if (call.range.end <= file.size() &&
          file.find('\n', call.range.begin) >= call.range.end)
        range = call.range;
      Edit(range, text);
      return true;
    }
    if (std::optional<int64_t> i = EnumIntValue(v)) v = Value::Int(*i);
    return Replace(range, v);
  }

  // Replaces `range` by a new constant of the kernel's module holding `v`; false when a
  // kernel cannot hold `v`.
  bool Replace(SourceRange range, const Value& v) {
    // The parser copies some expressions (`reversed(range(a, b, c))` uses `a` and `c` thrice):
    // each source range is replaced once.
    for (const auto& [r, text] : out_.edits)
      if (r.begin == range.begin && r.end == range.end) return true;
    KernelConstant c{"__wp_static_" + std::to_string(counter_++), v};
    if (!KernelConstantValue(v) || ConstantLine(c).empty()) return false;
    Edit(range, c.name);
    out_.constants.push_back(std::move(c));
    return true;
  }

  // Blanks out the rest of the range so that what follows keeps its column.
  void Edit(SourceRange range, std::string text) {
    const std::string& file = fn_.chunk->file.text();
    for (uint32_t k = range.begin + uint32_t(text.size()); k < range.end && k < file.size(); ++k)
      text += file[k] == '\n' ? '\n' : ' ';
    out_.edits.push_back({range, text});
  }

  Interpreter& home_;
  const FunctionObj& fn_;
  int& counter_;
  StaticResolution& out_;
  std::set<std::string> bound_;
};

}  // namespace

StaticResolution ResolveStatics(Interpreter& in, const FunctionObj& fn) {
  StaticResolution out;
  if (fn.def->body.empty()) return out;
  Interpreter& home = fn.home ? *fn.home : in;
  Resolver(home, fn, in.wp().static_counter, out).Body(fn.def->body);
  return out;
}

}  // namespace tilec::host
