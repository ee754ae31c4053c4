// Statement trees from the ANTLR contexts: simple statements, compound statements with their
// blocks, definitions with decorators and parameters. Checks targets and decorators, which
// the grammar accepts as any expression.
#include "frontend/ast/clone.h"
#include "frontend/parse/builder.h"

namespace tilec::parse {

using g::TileParser;
using antlr4::tree::TerminalNode;

namespace {

bool AugOpOf(size_t type, ast::BinaryOp& op) {
  switch (type) {
    case TileParser::ADD_ASSIGN: op = ast::BinaryOp::Add; return true;
    case TileParser::SUB_ASSIGN: op = ast::BinaryOp::Sub; return true;
    case TileParser::MUL_ASSIGN: op = ast::BinaryOp::Mul; return true;
    case TileParser::DIV_ASSIGN: op = ast::BinaryOp::Div; return true;
    case TileParser::IDIV_ASSIGN: op = ast::BinaryOp::FloorDiv; return true;
    case TileParser::MOD_ASSIGN: op = ast::BinaryOp::Mod; return true;
    case TileParser::POW_ASSIGN: op = ast::BinaryOp::Pow; return true;
    case TileParser::AT_ASSIGN: op = ast::BinaryOp::MatMul; return true;
    case TileParser::AND_ASSIGN: op = ast::BinaryOp::BitAnd; return true;
    case TileParser::OR_ASSIGN: op = ast::BinaryOp::BitOr; return true;
    case TileParser::XOR_ASSIGN: op = ast::BinaryOp::BitXor; return true;
    case TileParser::LSHIFT_ASSIGN: op = ast::BinaryOp::LShift; return true;
    case TileParser::RSHIFT_ASSIGN: op = ast::BinaryOp::RShift; return true;
    default: return false;
  }
}

// What an expression is, for "cannot assign to ..." messages.
const char* ExprNoun(const ast::Expr& e) {
  switch (e.kind) {
    case ast::ExprKind::Call: return "function call";
    case ast::ExprKind::IntLit: case ast::ExprKind::FloatLit: case ast::ExprKind::StrLit:
      return "literal";
    case ast::ExprKind::BoolLit: return e.As<ast::BoolLit>()->value ? "`True`" : "`False`";
    case ast::ExprKind::NoneLit: return "`None`";
    case ast::ExprKind::Compare: return "comparison";
    case ast::ExprKind::IfExp: return "conditional expression";
    case ast::ExprKind::Dict: return "dict literal";
    case ast::ExprKind::Tuple: return "tuple";
    case ast::ExprKind::List: return "list";
    case ast::ExprKind::Slice: return "slice";
    default: return "expression";
  }
}

}  // namespace

bool AstBuilder::BuildStmt(TileParser::StmtContext* ctx, ast::Body& out) {
  failed_ = false;
  device_depth_ = 0;
  ResetBudget();
  try {
    Stmt(ctx, out);
  } catch (const BuildAbort&) {
    failed_ = true;
  }
  return !failed_;
}

void AstBuilder::Stmt(TileParser::StmtContext* ctx, ast::Body& out) {
  // The budget bounds one statement's expressions (how deep later walks over them recurse);
  // a body's statements sit side by side, so a long kernel is not one large statement.
  ResetBudget();
  if (ctx->simple_stmts()) {
    SimpleStmts(ctx->simple_stmts(), out);
    return;
  }
  auto* c = ctx->compound_stmt();
  ast::StmtPtr s;
  if (c->if_stmt()) s = IfStmt(c->if_stmt());
  else if (c->while_stmt()) s = WhileStmt(c->while_stmt());
  else if (c->for_stmt()) s = ForStmt(c->for_stmt());
  else if (c->with_stmt()) s = WithStmt(c->with_stmt());
  else if (c->try_stmt()) s = TryStmt(c->try_stmt());
  else if (c->funcdef() && c->ASYNC()) {
    HostOnly(Range(c->ASYNC()), "`async` functions are");
    s = FuncDef(c->funcdef(), {}, Range(c));
    static_cast<ast::FunctionDef*>(s.get())->is_async = true;
  } else if (c->funcdef()) s = FuncDef(c->funcdef(), {}, Range(c->funcdef()));
  else if (c->classdef()) s = ClassDef(c->classdef(), {}, Range(c->classdef()));
  else s = Decorated(c->decorated());
  out.push_back(std::move(s));
}

void AstBuilder::SimpleStmts(TileParser::Simple_stmtsContext* ctx, ast::Body& out) {
  for (auto* small : ctx->small_stmt()) {
    ResetBudget();
    out.push_back(SmallStmt(small));
  }
}

ast::StmtPtr AstBuilder::SmallStmt(TileParser::Small_stmtContext* ctx) {
  const SourceRange r = Range(ctx);
  if (auto* e = dynamic_cast<TileParser::ExprSmallContext*>(ctx)) return ExprStmt(e->expr_stmt());
  if (dynamic_cast<TileParser::PassSmallContext*>(ctx)) return std::make_unique<ast::Pass>(r);
  if (dynamic_cast<TileParser::BreakSmallContext*>(ctx)) return std::make_unique<ast::Break>(r);
  if (dynamic_cast<TileParser::ContinueSmallContext*>(ctx)) return std::make_unique<ast::Continue>(r);
  if (auto* ret = dynamic_cast<TileParser::ReturnSmallContext*>(ctx))
    return std::make_unique<ast::Return>(r, ret->testlist() ? Testlist(ret->testlist()) : nullptr);
  if (auto* a = dynamic_cast<TileParser::AssertSmallContext*>(ctx)) {
    auto s = std::make_unique<ast::Assert>(r);
    s->test = Test(a->test(0));
    if (a->test().size() > 1) s->msg = Test(a->test(1));
    return s;
  }
  if (auto* ra = dynamic_cast<TileParser::RaiseSmallContext*>(ctx)) {
    HostOnly(Range(ra->RAISE()), "`raise` statements are");
    auto s = std::make_unique<ast::Raise>(r);
    if (!ra->test().empty()) s->exc = Test(ra->test(0));
    if (ra->test().size() > 1) s->cause = Test(ra->test(1));
    return s;
  }
  if (auto* d = dynamic_cast<TileParser::DelSmallContext*>(ctx)) {
    HostOnly(Range(d->DEL()), "`del` statements are");
    auto s = std::make_unique<ast::Delete>(r);
    ast::ExprPtr t = Exprlist(d->exprlist());
    // `del a, b` deletes each; a parenthesized tuple is one target whose elements are deleted.
    if (auto* tup = t->As<ast::Tuple>(); tup && !tup->parenthesized)
      s->targets = std::move(tup->elts);
    else
      s->targets.push_back(std::move(t));
    return s;
  }
  if (auto* y = dynamic_cast<TileParser::YieldSmallContext*>(ctx)) {
    HostOnly(Range(y->YIELD()), "generators (`yield`) are");
    auto call = std::make_unique<ast::Yield>(r);
    call->from = y->FROM() != nullptr;
    call->func = std::make_unique<ast::Name>(Range(y->YIELD()), call->from ? "<yield from>" : "<yield>");
    if (y->test()) call->args.push_back(Test(y->test()));
    if (y->testlist()) call->args.push_back(Testlist(y->testlist()));
    return std::make_unique<ast::ExprStmt>(r, std::move(call));
  }
  if (auto* g = dynamic_cast<TileParser::GlobalSmallContext*>(ctx)) {
    auto s = std::make_unique<ast::Global>(r);
    s->nonlocal = g->NONLOCAL() != nullptr;
    HostOnly(r, s->nonlocal ? "`nonlocal` declarations are" : "`global` declarations are");
    for (auto* n : g->NAME()) s->names.push_back(Text(n));
    return s;
  }
  if (auto* imp = dynamic_cast<TileParser::ImportSmallContext*>(ctx)) {
    auto s = std::make_unique<ast::Import>(r);
    for (auto* d : imp->dotted_as_name()) {
      ast::ImportAlias alias;
      for (auto* n : d->dotted_name()->NAME()) {
        if (!alias.name.empty()) alias.name += '.';
        alias.name += Text(n);
      }
      if (d->NAME()) alias.asname = Text(d->NAME());
      alias.range = Range(d);
      s->names.push_back(std::move(alias));
    }
    return s;
  }
  auto* from = static_cast<TileParser::FromImportSmallContext*>(ctx);
  auto s = std::make_unique<ast::ImportFrom>(r);
  for (auto* n : from->dotted_name()->NAME()) {
    if (!s->module.empty()) s->module += '.';
    s->module += Text(n);
  }
  s->module_range = Range(from->dotted_name());
  // `from m import *` is one alias named `*`: the interpreter binds the module's public names.
  if (from->STAR()) {
    ast::ImportAlias alias;
    alias.name = "*";
    alias.range = Range(from->STAR());
    s->names.push_back(std::move(alias));
    return s;
  }
  for (auto* n : from->import_as_names()->import_as_name()) {
    ast::ImportAlias alias;
    alias.name = Text(n->NAME(0));
    if (n->NAME().size() > 1) alias.asname = Text(n->NAME(1));
    alias.range = Range(n);
    s->names.push_back(std::move(alias));
  }
  return s;
}

ast::StmtPtr AstBuilder::ExprStmt(TileParser::Expr_stmtContext* ctx) {
  const SourceRange r = Range(ctx);
  ast::ExprPtr first = StarTestlist(ctx->star_testlist());
  auto* tail = ctx->expr_tail();
  if (auto* ann = dynamic_cast<TileParser::AnnTailContext*>(tail)) {
    auto s = std::make_unique<ast::AnnAssign>(r);
    if (first->Is<ast::Tuple>() || first->Is<ast::List>()) {
      Error(diag::Code::AssignTargetSyntax, first->range,
            std::string("only a single target can be annotated, not a ") + ExprNoun(*first));
    } else {
      CheckTarget(*first, "annotate");
    }
    s->target = std::move(first);
    s->annotation = Test(ann->test());
    if (ann->testlist()) s->value = Testlist(ann->testlist());
    return s;
  }
  if (auto* aug = dynamic_cast<TileParser::AugTailContext*>(tail)) {
    auto s = std::make_unique<ast::AugAssign>(r);
    auto* op_tok = static_cast<TerminalNode*>(aug->augassign()->children[0]);
    AugOpOf(op_tok->getSymbol()->getType(), s->op);
    s->op_range = Range(op_tok);
    if (!first->Is<ast::Name>() && !first->Is<ast::Attribute>() && !first->Is<ast::Subscript>()) {
      Error(diag::Code::AssignTargetSyntax, first->range,
            std::string("`") + Text(op_tok) + "` cannot assign to " + ExprNoun(*first) +
                "; expected a name, attribute or subscript");
    }
    s->target = std::move(first);
    s->value = Testlist(aug->testlist());
    return s;
  }
  auto* assign = static_cast<TileParser::AssignTailContext*>(tail);
  auto lists = assign->star_testlist();
  if (lists.empty()) {
    if (dynamic_cast<const ast::Starred*>(first.get()))
      Error(diag::Code::SyntaxError, first->range, "can't use starred expression here");
    return std::make_unique<ast::ExprStmt>(r, std::move(first));
  }
  auto s = std::make_unique<ast::Assign>(r);
  CheckTarget(*first, "assign");
  s->targets.push_back(std::move(first));
  for (size_t i = 0; i + 1 < lists.size(); ++i) {
    ast::ExprPtr t = StarTestlist(lists[i]);
    CheckTarget(*t, "assign");
    s->targets.push_back(std::move(t));
  }
  s->value = StarTestlist(lists.back());
  if (dynamic_cast<const ast::Starred*>(s->value.get()))
    Error(diag::Code::SyntaxError, s->value->range, "can't use starred expression here");
  return s;
}

void AstBuilder::CheckTarget(const ast::Expr& e, const char* what, bool in_sequence) {
  switch (e.kind) {
    case ast::ExprKind::Name: case ast::ExprKind::Attribute: case ast::ExprKind::Subscript:
      return;
    case ast::ExprKind::Tuple: case ast::ExprKind::List: {
      const auto& elts = e.Is<ast::Tuple>() ? e.As<ast::Tuple>()->elts : e.As<ast::List>()->elts;
      int starred = 0;
      for (const auto& elt : elts) {
        CheckTarget(*elt, what, true);
        if (dynamic_cast<const ast::Starred*>(elt.get()) && ++starred == 2)
          Error(diag::Code::AssignTargetSyntax, elt->range, "multiple starred expressions in assignment");
      }
      return;
    }
    default:
      // `first, *rest = v`: the starred name takes what the others leave, as a list.
      if (auto* star = dynamic_cast<const ast::Starred*>(&e)) {
        if (!in_sequence)
          Error(diag::Code::AssignTargetSyntax, e.range, "starred assignment target must be in a list or tuple");
        else
          CheckTarget(*star->args[0], what);
        return;
      }
      Error(diag::Code::AssignTargetSyntax, e.range,
            std::string("cannot ") + what + " to " + ExprNoun(e) +
                (e.Is<ast::Compare>() ? "; did you mean `==`?" : ""));
  }
}

ast::StmtPtr AstBuilder::IfStmt(TileParser::If_stmtContext* ctx) {
  const SourceRange whole = Range(ctx);
  auto s = std::make_unique<ast::If>(whole);
  s->cond = NamedExprTest(ctx->namedexpr_test());
  Block(ctx->block(), s->body);
  ast::Body* tail = &s->orelse;
  for (auto* elif : ctx->elif_clause()) {
    auto e = std::make_unique<ast::If>(SourceRange{Range(elif).begin, whole.end});
    e->is_elif = true;
    e->cond = NamedExprTest(elif->namedexpr_test());
    Block(elif->block(), e->body);
    ast::Body* next = &e->orelse;
    tail->push_back(std::move(e));
    tail = next;
  }
  if (ctx->else_clause()) Block(ctx->else_clause()->block(), *tail);
  return s;
}

ast::StmtPtr AstBuilder::WhileStmt(TileParser::While_stmtContext* ctx) {
  auto s = std::make_unique<ast::While>(Range(ctx));
  s->cond = NamedExprTest(ctx->namedexpr_test());
  Block(ctx->block(), s->body);
  if (ctx->else_clause())
    Error(diag::Code::UnsupportedSyntax, Range(ctx->else_clause()->ELSE()),
          "`else` after a `while` loop is not supported");
  return s;
}

ast::StmtPtr AstBuilder::ForStmt(TileParser::For_stmtContext* ctx) {
  auto s = std::make_unique<ast::For>(Range(ctx));
  s->target = Exprlist(ctx->exprlist());
  CheckTarget(*s->target, "assign");
  s->iter = Testlist(ctx->testlist());
  if (device_depth_ > 0) s->iter = ReversedRange(std::move(s->iter));
  Block(ctx->block(), s->body);
  if (ctx->else_clause())
    Error(diag::Code::UnsupportedSyntax, Range(ctx->else_clause()->ELSE()),
          "`else` after a `for` loop is not supported");
  return s;
}

// Warp's `reversed(range(...))` in kernels is the same range counted down, written so that
// the checker, the unroller and the lowering meet only `range`: `range(b - 1, a - 1, -1)` for a
// unit step, else `range(a + (n - 1) * c, a - c, -c)` with the range's element count
// n = max(0, (b - a + c - sign(c)) // c) (a truncating division that is exact where n > 0).
ast::ExprPtr AstBuilder::ReversedRange(ast::ExprPtr iter) {
  const auto* outer = iter->As<ast::Call>();
  const auto* rev = outer ? outer->func->As<ast::Name>() : nullptr;
  if (!rev || rev->id != "reversed" || outer->args.size() != 1 || !outer->keywords.empty()) return iter;
  auto* inner = outer->args[0]->As<ast::Call>();
  const auto* rng = inner ? inner->func->As<ast::Name>() : nullptr;
  if (!rng || rng->id != "range" || inner->args.empty() || inner->args.size() > 3 || !inner->keywords.empty())
    return iter;
  const SourceRange r = iter->range;
  auto lit = [&](uint64_t v) -> ast::ExprPtr { return std::make_unique<ast::IntLit>(r, v); };
  auto bin = [&](ast::BinaryOp op, ast::ExprPtr a, ast::ExprPtr b) -> ast::ExprPtr {
    auto e = std::make_unique<ast::Binary>(r, op, std::move(a), std::move(b));
    e->op_range = r;
    return e;
  };
  auto neg = [&](ast::ExprPtr a) -> ast::ExprPtr { return std::make_unique<ast::Unary>(r, ast::UnaryOp::Neg, std::move(a)); };
  auto call = [&](ast::ExprPtr fn, std::vector<ast::ExprPtr> args) -> ast::ExprPtr {
    auto c = std::make_unique<ast::Call>(r);
    c->func = std::move(fn);
    c->args = std::move(args);
    return c;
  };
  auto name = [&](const char* id) -> ast::ExprPtr { return std::make_unique<ast::Name>(r, id); };
  auto wp = [&](const char* fn) -> ast::ExprPtr {
    return std::make_unique<ast::Attribute>(r, std::make_unique<ast::Name>(r, "wp"), fn, r);
  };
  std::vector<ast::ExprPtr>& args = inner->args;
  ast::ExprPtr a = args.size() == 1 ? lit(0) : std::move(args[0]);
  ast::ExprPtr b = args.size() == 1 ? std::move(args[0]) : std::move(args[1]);
  std::vector<ast::ExprPtr> out;
  if (args.size() < 3) {
    out.push_back(bin(ast::BinaryOp::Sub, std::move(b), lit(1)));
    out.push_back(bin(ast::BinaryOp::Sub, std::move(a), lit(1)));
    out.push_back(neg(lit(1)));
    return call(name("range"), std::move(out));
  }
  ast::ExprPtr c = std::move(args[2]);
  auto sign_c = [&] {
    std::vector<ast::ExprPtr> x;
    x.push_back(ast::Clone(*c));
    return call(wp("sign"), std::move(x));
  };
  ast::ExprPtr span = bin(ast::BinaryOp::Sub, bin(ast::BinaryOp::Add, bin(ast::BinaryOp::Sub, std::move(b), ast::Clone(*a)),
                                                  ast::Clone(*c)),
                          sign_c());
  std::vector<ast::ExprPtr> max_args;
  max_args.push_back(lit(0));
  max_args.push_back(bin(ast::BinaryOp::FloorDiv, std::move(span), ast::Clone(*c)));
  ast::ExprPtr n = call(wp("max"), std::move(max_args));
  out.push_back(bin(ast::BinaryOp::Add, ast::Clone(*a),
                    bin(ast::BinaryOp::Mul, bin(ast::BinaryOp::Sub, std::move(n), lit(1)), ast::Clone(*c))));
  out.push_back(bin(ast::BinaryOp::Sub, std::move(a), ast::Clone(*c)));
  out.push_back(neg(std::move(c)));
  return call(name("range"), std::move(out));
}

ast::StmtPtr AstBuilder::WithStmt(TileParser::With_stmtContext* ctx) {
  auto s = std::make_unique<ast::With>(Range(ctx));
  for (auto* item : ctx->with_item()) {
    ast::WithItem w;
    w.context = Test(item->test());
    if (item->expr()) {
      w.target = BinaryChain(item->expr());
      CheckTarget(*w.target, "assign");
    }
    s->items.push_back(std::move(w));
  }
  Block(ctx->block(), s->body);
  return s;
}

ast::StmtPtr AstBuilder::TryStmt(TileParser::Try_stmtContext* ctx) {
  HostOnly(Range(ctx->TRY()), "`try` statements are");
  auto s = std::make_unique<ast::Try>(Range(ctx));
  Block(ctx->block(), s->body);
  for (auto* ex : ctx->except_clause()) {
    ast::ExceptHandler h;
    h.range = Range(ex);
    if (ex->test()) h.type = Test(ex->test());
    if (ex->NAME()) h.name = Text(ex->NAME());
    Block(ex->block(), h.body);
    s->handlers.push_back(std::move(h));
  }
  if (ctx->else_clause()) Block(ctx->else_clause()->block(), s->orelse);
  if (ctx->finally_clause()) Block(ctx->finally_clause()->block(), s->finalbody);
  return s;
}

ast::StmtPtr AstBuilder::Decorated(TileParser::DecoratedContext* ctx) {
  std::vector<ast::ExprPtr> decorators;
  for (auto* d : ctx->decorator()) {
    ast::ExprPtr e = Test(d->test());
    CheckDecorator(*e);
    decorators.push_back(std::move(e));
  }
  // As in Python, a definition starts at `def`/`class`; decorators keep their own ranges.
  if (ctx->funcdef()) return FuncDef(ctx->funcdef(), std::move(decorators), Range(ctx->funcdef()));
  return ClassDef(ctx->classdef(), std::move(decorators), Range(ctx->classdef()));
}

// A decorator is a dotted name (`wp.kernel`), optionally called (`wp.kernel(enable_backward=False)`).
void AstBuilder::CheckDecorator(const ast::Expr& e) {
  const ast::Expr* callee = &e;
  if (const auto* call = e.As<ast::Call>()) callee = call->func.get();
  const ast::Expr* p = callee;
  while (const auto* attr = p->As<ast::Attribute>()) p = attr->value.get();
  if (p->Is<ast::Name>()) return;
  Error(diag::Code::DecoratorSyntax, e.range,
        std::string("invalid decorator: expected a dotted name such as `wp.kernel`, optionally "
                    "called, found ") + (callee->Is<ast::Call>() ? "a call of a call" : ExprNoun(*p)));
}

ast::StmtPtr AstBuilder::FuncDef(TileParser::FuncdefContext* ctx,
                                 std::vector<ast::ExprPtr> decorators, SourceRange range) {
  auto s = std::make_unique<ast::FunctionDef>(range);
  s->decorators = std::move(decorators);
  s->name = Text(ctx->NAME());
  s->name_range = Range(ctx->NAME());
  // Device code is what sema checks as such: a body under `@x.kernel` or `@x.func`, called
  // or not.
  bool device = false;
  for (const ast::ExprPtr& d : s->decorators) {
    const ast::Expr* callee = d.get();
    if (const auto* call = callee->As<ast::Call>()) callee = call->func.get();
    if (const auto* attr = callee->As<ast::Attribute>())
      device |= attr->value->Is<ast::Name>() && (attr->attr == "kernel" || attr->attr == "func");
  }
  device_depth_ += device;
  Params(ctx->parameters(), *s);
  if (ctx->test()) s->returns = Test(ctx->test());
  Block(ctx->block(), s->body);
  device_depth_ -= device;
  return s;
}

// Python's parameter order: positional ones (defaults last), then `*args` or a bare `*`, then
// keyword-only ones (any may have a default), then `**kwargs`.
void AstBuilder::Params(TileParser::ParametersContext* ctx, ast::FunctionDef& f) {
  bool seen_default = false, seen_star = false, seen_kwargs = false;
  for (auto* p : ctx->param()) {
    if (seen_kwargs) {
      Error(diag::Code::SyntaxError, Range(p), "no parameter may follow `**" + f.params.back().name + "`");
      continue;
    }
    if (p->STAR() || p->POW()) {
      HostOnly(Range(p), p->POW() ? "`**` parameters are" : "`*` parameters are");
      if (p->ASSIGN()) Error(diag::Code::SyntaxError, Range(p), "a starred parameter cannot have a default");
      if (p->STAR() && seen_star) {
        Error(diag::Code::SyntaxError, Range(p), "`*` may appear only once among the parameters");
        continue;
      }
      seen_star |= p->STAR() != nullptr;
      seen_kwargs |= p->POW() != nullptr;
      if (!p->NAME()) continue;  // a bare `*`: only keyword-only parameters follow
    }
    ast::Param param;
    param.name = Text(p->NAME());
    param.name_range = Range(p->NAME());
    param.range = Range(p);
    param.kind = p->STAR()  ? ast::ParamKind::VarArgs
                 : p->POW() ? ast::ParamKind::VarKeywords
                 : seen_star ? ast::ParamKind::KeywordOnly
                             : ast::ParamKind::Positional;
    if (p->COLON()) param.annotation = Test(p->test(0));
    if (p->ASSIGN() && !p->STAR() && !p->POW()) param.default_value = Test(p->test(p->COLON() ? 1 : 0));
    for (const ast::Param& other : f.params) {
      if (other.name == param.name) {
        Error(diag::Code::DuplicateParameter, param.name_range,
              "duplicate parameter `" + param.name + "` in function `" + f.name + "`");
        break;
      }
    }
    if (param.kind == ast::ParamKind::Positional) {
      if (param.default_value) {
        seen_default = true;
      } else if (seen_default) {
        Error(diag::Code::DefaultOrder, param.range,
              "parameter `" + param.name + "` without a default follows a parameter with a default");
      }
    }
    f.params.push_back(std::move(param));
  }
  if (seen_star && ctx->param().back()->STAR() && !ctx->param().back()->NAME())
    Error(diag::Code::SyntaxError, Range(ctx->param().back()), "named arguments must follow bare `*`");
}

ast::StmtPtr AstBuilder::ClassDef(TileParser::ClassdefContext* ctx,
                                  std::vector<ast::ExprPtr> decorators, SourceRange range) {
  auto s = std::make_unique<ast::ClassDef>(range);
  s->decorators = std::move(decorators);
  s->name = Text(ctx->NAME());
  s->name_range = Range(ctx->NAME());
  if (ctx->arglist()) {
    ast::Call bases(Range(ctx->arglist()));
    Arguments(ctx->arglist(), bases);
    s->bases = std::move(bases.args);
    if (!bases.keywords.empty())
      Error(diag::Code::UnsupportedSyntax, bases.keywords.front().range,
            "keyword arguments in a `class` header are not supported");
  }
  Block(ctx->block(), s->body);
  return s;
}

void AstBuilder::Block(TileParser::BlockContext* ctx, ast::Body& out) {
  if (auto* inl = dynamic_cast<TileParser::InlineBlockContext*>(ctx)) {
    SimpleStmts(inl->simple_stmts(), out);
    return;
  }
  for (auto* s : static_cast<TileParser::IndentedBlockContext*>(ctx)->stmt()) Stmt(s, out);
}

}  // namespace tilec::parse
