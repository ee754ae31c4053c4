// Expression trees from the ANTLR contexts: precedence levels become Binary/Unary/BoolOp/
// Compare nodes, trailers become Call/Subscript/Attribute, and literals are decoded (number
// bases and underscores, string prefixes and escapes, adjacent string concatenation).
#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "frontend/parse/builder.h"
#include "support/utf8.h"

namespace tilec::parse {

using g::TileParser;
using antlr4::tree::TerminalNode;

namespace {

// `wp.static(...)`, `warp.static(...)` or `static(...)`.
bool IsStaticCallee(const ast::Expr& callee) {
  if (const auto* n = callee.As<ast::Name>()) return n->id == "static";
  const auto* a = callee.As<ast::Attribute>();
  const auto* m = a ? a->value->As<ast::Name>() : nullptr;
  return m && a->attr == "static" && (m->id == "wp" || m->id == "warp");
}

bool BinaryOpOf(size_t type, ast::BinaryOp& op) {
  switch (type) {
    case TileParser::PLUS: op = ast::BinaryOp::Add; return true;
    case TileParser::MINUS: op = ast::BinaryOp::Sub; return true;
    case TileParser::STAR: op = ast::BinaryOp::Mul; return true;
    case TileParser::SLASH: op = ast::BinaryOp::Div; return true;
    case TileParser::IDIV: op = ast::BinaryOp::FloorDiv; return true;
    case TileParser::PERCENT: op = ast::BinaryOp::Mod; return true;
    case TileParser::POW: op = ast::BinaryOp::Pow; return true;
    case TileParser::AT: op = ast::BinaryOp::MatMul; return true;
    case TileParser::AMP: op = ast::BinaryOp::BitAnd; return true;
    case TileParser::PIPE: op = ast::BinaryOp::BitOr; return true;
    case TileParser::CARET: op = ast::BinaryOp::BitXor; return true;
    case TileParser::LSHIFT: op = ast::BinaryOp::LShift; return true;
    case TileParser::RSHIFT: op = ast::BinaryOp::RShift; return true;
    default: return false;
  }
}


int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

ast::ExprPtr AstBuilder::Test(TileParser::TestContext* ctx) {
  if (ctx->lambdef()) return Lambda(ctx->lambdef());
  auto ors = ctx->or_test();
  if (ors.size() == 1) return OrTest(ors[0]);
  auto e = std::make_unique<ast::IfExp>(Range(ctx));
  e->then_value = OrTest(ors[0]);
  e->cond = OrTest(ors[1]);
  e->else_value = Test(ctx->test());
  return e;
}

ast::ExprPtr AstBuilder::OrTest(TileParser::Or_testContext* ctx) {
  auto parts = ctx->and_test();
  if (parts.size() == 1) return AndTest(parts[0]);
  auto e = std::make_unique<ast::BoolOp>(Range(ctx), ast::BoolOpKind::Or);
  for (auto* p : parts) e->values.push_back(AndTest(p));
  return e;
}

ast::ExprPtr AstBuilder::AndTest(TileParser::And_testContext* ctx) {
  auto parts = ctx->not_test();
  if (parts.size() == 1) return NotTest(parts[0]);
  auto e = std::make_unique<ast::BoolOp>(Range(ctx), ast::BoolOpKind::And);
  for (auto* p : parts) e->values.push_back(NotTest(p));
  return e;
}

ast::ExprPtr AstBuilder::NotTest(TileParser::Not_testContext* ctx) {
  if (ctx->comparison()) return Comparison(ctx->comparison());
  return std::make_unique<ast::Unary>(Range(ctx), ast::UnaryOp::Not, NotTest(ctx->not_test()));
}

ast::ExprPtr AstBuilder::Comparison(TileParser::ComparisonContext* ctx) {
  auto operands = ctx->expr();
  if (operands.size() == 1) return BinaryChain(operands[0]);
  auto e = std::make_unique<ast::Compare>(Range(ctx));
  e->left = BinaryChain(operands[0]);
  auto ops = ctx->comp_op();
  for (size_t i = 0; i < ops.size(); ++i) {
    auto* op = ops[i];
    ast::CmpOp k = ast::CmpOp::Eq;
    if (op->IS()) k = op->NOT() ? ast::CmpOp::IsNot : ast::CmpOp::Is;
    else if (op->NOT()) k = ast::CmpOp::NotIn;
    else if (op->IN()) k = ast::CmpOp::In;
    else if (op->LT()) k = ast::CmpOp::Lt;
    else if (op->GT()) k = ast::CmpOp::Gt;
    else if (op->EQ()) k = ast::CmpOp::Eq;
    else if (op->GE()) k = ast::CmpOp::GtE;
    else if (op->LE()) k = ast::CmpOp::LtE;
    else if (op->NE()) k = ast::CmpOp::NotEq;
    e->ops.push_back(k);
    e->comparators.push_back(BinaryChain(operands[i + 1]));
    Spend(Range(op));
  }
  return e;
}

// expr, xor_expr, and_expr, shift_expr, arith_expr and term all have the shape
// `operand (op operand)*` and associate to the left.
ast::ExprPtr AstBuilder::BinaryChain(antlr4::ParserRuleContext* ctx) {
  ast::ExprPtr acc;
  ast::BinaryOp op = ast::BinaryOp::Add;
  SourceRange op_range;
  // Ranges start at the first operand's first token, so `(a + b) * c` includes the `(`.
  const uint32_t begin = Range(ctx).begin;
  for (auto* child : ctx->children) {
    if (auto* term = dynamic_cast<TerminalNode*>(child)) {
      BinaryOpOf(term->getSymbol()->getType(), op);
      op_range = Range(term);
      continue;
    }
    ast::ExprPtr operand = Operand(child);
    if (!acc) {
      acc = std::move(operand);
      continue;
    }
    Spend(op_range);
    SourceRange r{begin, Range(static_cast<antlr4::ParserRuleContext*>(child)).end};
    auto b = std::make_unique<ast::Binary>(r, op, std::move(acc), std::move(operand));
    b->op_range = op_range;
    acc = std::move(b);
  }
  return acc;
}

ast::ExprPtr AstBuilder::Operand(antlr4::tree::ParseTree* t) {
  if (auto* f = dynamic_cast<TileParser::FactorContext*>(t)) return Factor(f);
  return BinaryChain(static_cast<antlr4::ParserRuleContext*>(t));
}

ast::ExprPtr AstBuilder::Factor(TileParser::FactorContext* ctx) {
  if (ctx->power()) return Power(ctx->power());
  ast::UnaryOp op = ctx->MINUS() ? ast::UnaryOp::Neg
                  : ctx->PLUS()  ? ast::UnaryOp::Pos : ast::UnaryOp::Invert;
  return std::make_unique<ast::Unary>(Range(ctx), op, Factor(ctx->factor()));
}

ast::ExprPtr AstBuilder::Power(TileParser::PowerContext* ctx) {
  ast::ExprPtr base = AtomExpr(ctx->atom_expr());
  if (!ctx->POW()) return base;
  Spend(Range(ctx->POW()));
  auto b = std::make_unique<ast::Binary>(Range(ctx), ast::BinaryOp::Pow, std::move(base),
                                         Factor(ctx->factor()));
  b->op_range = Range(ctx->POW());
  return b;
}

ast::ExprPtr AstBuilder::AtomExpr(TileParser::Atom_exprContext* ctx) {
  ast::ExprPtr e = Atom(ctx->atom());
  for (auto* trailer : ctx->trailer()) {
    SourceRange r{Range(ctx).begin, Range(trailer).end};
    Spend(Range(trailer));
    if (auto* call = dynamic_cast<TileParser::CallTrailerContext*>(trailer)) {
      auto c = std::make_unique<ast::Call>(r);
      c->func = std::move(e);
      // wp.static's argument is the host's Python, evaluated where the kernel is defined.
      const int saved_depth = device_depth_;
      if (IsStaticCallee(*c->func)) device_depth_ = 0;
      if (call->arglist()) Arguments(call->arglist(), *c);
      device_depth_ = saved_depth;
      e = std::move(c);
    } else if (auto* index = dynamic_cast<TileParser::IndexTrailerContext*>(trailer)) {
      e = std::make_unique<ast::Subscript>(r, std::move(e), Subscripts(index->subscriptlist()));
    } else {
      auto* attr = static_cast<TileParser::AttrTrailerContext*>(trailer);
      e = std::make_unique<ast::Attribute>(r, std::move(e), Text(attr->NAME()), Range(attr->NAME()));
    }
  }
  return e;
}

void AstBuilder::Arguments(TileParser::ArglistContext* ctx, ast::Call& call) {
  std::vector<std::string> seen;
  for (auto* arg : ctx->argument()) {
    if (auto* kw = dynamic_cast<TileParser::KeywordArgContext*>(arg)) {
      ast::Keyword k;
      k.name = Text(kw->NAME());
      k.name_range = Range(kw->NAME());
      k.value = Test(kw->test());
      k.range = Range(kw);
      for (const std::string& s : seen) {
        if (s == k.name) {
          Error(diag::Code::DuplicateKeyword, k.name_range, "keyword argument `" + k.name + "` repeated");
          break;
        }
      }
      seen.push_back(k.name);
      call.keywords.push_back(std::move(k));
    } else if (auto* kws = dynamic_cast<TileParser::KwUnpackArgContext*>(arg)) {
      // `**d`: a keyword with no name.
      HostOnly(Range(kws), "`**` arguments are");
      ast::Keyword k;
      k.name_range = Range(kws);
      k.value = Test(kws->test());
      k.range = Range(kws);
      call.keywords.push_back(std::move(k));
    } else if (auto* star = dynamic_cast<TileParser::StarArgContext*>(arg)) {
      // Kernels spread vectors, matrices and constant slices over a call's arguments (the
      // checker writes the call out); elsewhere a starred expression is host code's.
      call.args.push_back(MakeStarred(Range(star), Test(star->test()), /*call_argument=*/true));
    } else {
      auto* pos = static_cast<TileParser::PositionalArgContext*>(arg);
      ast::ExprPtr v = pos->comp_for() ? Comprehension(Range(pos), int(ast::Comprehension::Form::Generator),
                                                      Test(pos->test()), nullptr, pos->comp_for())
                                       : Test(pos->test());
      if (!call.keywords.empty()) {
        Error(diag::Code::PositionalAfterKeyword, v->range,
              "positional argument follows keyword argument `" + call.keywords.back().name + "`");
      }
      call.args.push_back(std::move(v));
    }
  }
}

ast::ExprPtr AstBuilder::Subscripts(TileParser::SubscriptlistContext* ctx) {
  auto subs = ctx->subscript();
  if (subs.size() == 1 && ctx->COMMA().empty()) return Subscript(subs[0]);
  auto t = std::make_unique<ast::Tuple>(Range(ctx));
  for (auto* s : subs) t->elts.push_back(Subscript(s));
  return t;
}

ast::ExprPtr AstBuilder::Subscript(TileParser::SubscriptContext* ctx) {
  if (auto* index = dynamic_cast<TileParser::IndexSubContext*>(ctx)) return Test(index->test());
  auto s = std::make_unique<ast::Slice>(Range(ctx));
  int colons = 0;
  for (auto* child : ctx->children) {
    if (dynamic_cast<TerminalNode*>(child)) {
      ++colons;
      continue;
    }
    ast::ExprPtr part = Test(static_cast<TileParser::TestContext*>(child));
    if (colons == 0) s->lower = std::move(part);
    else if (colons == 1) s->upper = std::move(part);
    else s->step = std::move(part);
  }
  return s;
}

ast::ExprPtr AstBuilder::Atom(TileParser::AtomContext* ctx) {
  const SourceRange r = Range(ctx);
  if (auto* name = dynamic_cast<TileParser::NameAtomContext*>(ctx))
    return std::make_unique<ast::Name>(r, Text(name->NAME()));
  if (auto* num = dynamic_cast<TileParser::NumberAtomContext*>(ctx)) return Number(num->number());
  if (auto* str = dynamic_cast<TileParser::StringAtomContext*>(ctx)) return Strings(str);
  if (dynamic_cast<TileParser::NoneAtomContext*>(ctx)) return std::make_unique<ast::NoneLit>(r);
  if (dynamic_cast<TileParser::TrueAtomContext*>(ctx)) return std::make_unique<ast::BoolLit>(r, true);
  if (dynamic_cast<TileParser::FalseAtomContext*>(ctx)) return std::make_unique<ast::BoolLit>(r, false);
  // In kernels `...` is a stub's body or a variadic `tuple[T, ...]` annotation; the checker
  // rejects it anywhere else.
  if (dynamic_cast<TileParser::EllipsisAtomContext*>(ctx)) return std::make_unique<ast::Name>(r, "Ellipsis");
  if (auto* w = dynamic_cast<TileParser::WalrusAtomContext*>(ctx)) return NamedExpr(r, w->NAME(), w->test());
  if (auto* paren = dynamic_cast<TileParser::ParenAtomContext*>(ctx)) {
    auto* items = paren->testlist_comp();
    if (items && items->comp_for())
      return Comprehension(r, int(ast::Comprehension::Form::Generator), StarTest(items->star_test(0)), nullptr,
                           items->comp_for());
    if (items && items->star_test().size() == 1 && items->COMMA().empty()) return StarTest(items->star_test(0));
    auto t = std::make_unique<ast::Tuple>(r);
    t->parenthesized = true;
    if (items)
      for (auto* e : items->star_test()) t->elts.push_back(StarTest(e));
    return t;
  }
  if (auto* list = dynamic_cast<TileParser::ListAtomContext*>(ctx)) {
    if (list->testlist_comp() && list->testlist_comp()->comp_for())
      return Comprehension(r, int(ast::Comprehension::Form::List), StarTest(list->testlist_comp()->star_test(0)),
                           nullptr, list->testlist_comp()->comp_for());
    auto l = std::make_unique<ast::List>(r);
    if (list->testlist_comp())
      for (auto* e : list->testlist_comp()->star_test()) l->elts.push_back(StarTest(e));
    return l;
  }
  auto* dict = static_cast<TileParser::DictAtomContext*>(ctx);
  auto* maker = dict->dictorsetmaker();
  if (maker && maker->COLON().empty()) {
    if (maker->comp_for())
      return Comprehension(r, int(ast::Comprehension::Form::Set), Test(maker->test(0)), nullptr, maker->comp_for());
    HostOnly(r, "sets are");
    auto set = std::make_unique<ast::SetDisplay>(r);
    set->func = std::make_unique<ast::Name>(r, "<set>");
    for (auto* e : maker->test()) set->args.push_back(Test(e));
    return set;
  }
  if (maker && maker->comp_for())
    return Comprehension(r, int(ast::Comprehension::Form::Dict), Test(maker->test(0)), Test(maker->test(1)),
                         maker->comp_for());
  auto d = std::make_unique<ast::Dict>(r);
  if (maker) {
    auto items = maker->test();
    for (size_t i = 0; i + 1 < items.size(); i += 2) {
      d->keys.push_back(Test(items[i]));
      d->values.push_back(Test(items[i + 1]));
    }
  }
  return d;
}

ast::ExprPtr AstBuilder::StarTest(TileParser::Star_testContext* ctx) {
  if (!ctx->STAR()) return Test(ctx->test());
  return MakeStarred(Range(ctx), Test(ctx->test()));
}

ast::ExprPtr AstBuilder::NamedExprTest(TileParser::Namedexpr_testContext* ctx) {
  if (!ctx->WALRUS()) return Test(ctx->test());
  return NamedExpr(Range(ctx), ctx->NAME(), ctx->test());
}

ast::ExprPtr AstBuilder::NamedExpr(SourceRange r, antlr4::tree::TerminalNode* name, TileParser::TestContext* value) {
  HostOnly(r, "assignment expressions (`:=`) are");
  auto n = std::make_unique<ast::NamedExpr>(r);
  n->func = std::make_unique<ast::Name>(r, "<walrus>");
  n->target = name->getText();
  n->target_range = Range(name);
  n->args.push_back(Test(value));
  return n;
}

ast::ExprPtr AstBuilder::MakeStarred(SourceRange r, ast::ExprPtr value, bool call_argument) {
  if (!call_argument) HostOnly(r, "starred expressions (`*x`) are");
  auto s = std::make_unique<ast::Starred>(r);
  s->func = std::make_unique<ast::Name>(r, "<starred>");
  s->args.push_back(std::move(value));
  return s;
}

void AstBuilder::HostOnly(SourceRange r, const std::string& what) {
  if (device_depth_ > 0) Error(diag::Code::UnsupportedSyntax, r, what + " not supported in kernel code (only in host code)");
}

ast::ExprPtr AstBuilder::Lambda(TileParser::LambdefContext* ctx) {
  // Kernel code maps a lambda with wp.tile_map; the checker rejects it anywhere else.
  const SourceRange r = Range(ctx);
  auto l = std::make_unique<ast::Lambda>(r);
  l->func = std::make_unique<ast::Name>(Range(ctx->LAMBDA()), "<lambda>");
  bool defaults = false;
  for (auto* p : ctx->lambda_param()) {
    ast::Param param;
    param.name = Text(p->NAME());
    param.range = Range(p);
    param.name_range = Range(p->NAME());
    if (p->STAR() || p->POW()) {
      HostOnly(param.range, "`*args` and `**kwargs` lambda parameters are");
      param.kind = p->STAR() ? ast::ParamKind::VarArgs : ast::ParamKind::VarKeywords;
      if (p->test()) Error(diag::Code::SyntaxError, Range(p->test()), "a starred parameter cannot have a default value");
    }
    if (p->test()) {
      param.default_value = Test(p->test());
      defaults = true;
    } else if (defaults && param.kind == ast::ParamKind::Positional) {
      Error(diag::Code::SyntaxError, param.range, "non-default argument follows default argument");
    }
    for (const ast::Param& q : l->params)
      if (q.name == param.name)
        Error(diag::Code::SyntaxError, param.name_range, "duplicate argument '" + param.name + "' in function definition");
    l->params.push_back(std::move(param));
  }
  l->body = Test(ctx->test());
  return l;
}

ast::ExprPtr AstBuilder::Comprehension(SourceRange r, int form, ast::ExprPtr elt, ast::ExprPtr value,
                                       TileParser::Comp_forContext* first) {
  HostOnly(Range(first->FOR()), "comprehensions are");
  auto f = ast::Comprehension::Form(form);
  auto c = std::make_unique<ast::Comprehension>(r, f);
  const char* callee = f == ast::Comprehension::Form::List  ? "<listcomp>"
                       : f == ast::Comprehension::Form::Dict ? "<dictcomp>"
                       : f == ast::Comprehension::Form::Set  ? "<setcomp>"
                                                             : "<genexpr>";
  c->func = std::make_unique<ast::Name>(r, callee);
  c->elt = std::move(elt);
  c->value = std::move(value);
  for (TileParser::Comp_forContext* cf = first; cf;) {
    ast::CompClause clause;
    clause.target = Exprlist(cf->exprlist());
    CheckTarget(*clause.target, "assign");
    clause.iter = OrTest(cf->or_test());
    TileParser::Comp_iterContext* it = cf->comp_iter();
    cf = nullptr;
    while (it) {
      if (it->comp_for()) {
        cf = it->comp_for();
        break;
      }
      clause.ifs.push_back(OrTest(it->or_test()));
      it = it->comp_iter();
    }
    c->clauses.push_back(std::move(clause));
  }
  return c;
}

ast::ExprPtr AstBuilder::Number(TileParser::NumberContext* ctx) {
  auto* tok = static_cast<TerminalNode*>(ctx->children[0]);
  const SourceRange r = Range(ctx);
  std::string digits;
  for (char c : Text(tok))
    if (c != '_') digits += c;
  const size_t type = tok->getSymbol()->getType();
  if (type == TileParser::FLOAT_NUMBER) {
    return std::make_unique<ast::FloatLit>(r, std::strtod(digits.c_str(), nullptr));
  }
  if (type == TileParser::IMAG_NUMBER) {
    HostOnly(r, "imaginary literals are");
    digits.pop_back();  // the `j`
    return std::make_unique<ast::FloatLit>(r, std::strtod(digits.c_str(), nullptr), true);
  }
  int base = 10;
  if (type == TileParser::HEX_INTEGER) base = 16;
  if (type == TileParser::OCT_INTEGER) base = 8;
  if (type == TileParser::BIN_INTEGER) base = 2;
  const char* start = digits.c_str() + (base == 10 ? 0 : 2);
  errno = 0;
  const unsigned long long v = std::strtoull(start, nullptr, base);
  return std::make_unique<ast::IntLit>(r, v, errno == ERANGE);
}

// Decodes adjacent string literals into one value. Raw (`r`) strings keep backslashes; `b`
// prefixes are outside the language. An f-string becomes `"<template>".format(<fields>)`, the
// str.format call that gives the same text, so the interpreter needs no node of its own; in
// kernel code it is an error.
// Literal text in a str.format template: braces doubled.
static void AppendTemplateText(std::string& tmpl, const std::string& text) {
  for (char c : text) {
    tmpl += c;
    if (c == '{' || c == '}') tmpl += c;
  }
}

ast::ExprPtr AstBuilder::Strings(TileParser::StringAtomContext* ctx) {
  std::string value;  // the literal's value; with f-strings, the format template
  std::vector<ast::ExprPtr> args;
  bool formatted = false;
  std::optional<bool> bytes;  // whether the literals so far were b"..."; Python forbids mixing
  for (auto* tok : ctx->STRING()) {
    const std::string text = Text(tok);
    const SourceRange tr = Range(tok);
    size_t q = 0;
    bool raw = false, fstring = false, is_bytes = false;
    while (q < text.size() && text[q] != '\'' && text[q] != '"') {
      const char p = char(text[q] | 0x20);
      if (p == 'r') raw = true;
      if (p == 'f') fstring = true;
      if (p == 'b') {
        if (device_depth_ > 0) Error(diag::Code::UnsupportedSyntax, tr, "bytes literals are not supported in kernel code (only in host code)");
        is_bytes = true;
      }
      ++q;
    }
    if (bytes && *bytes != is_bytes) Error(diag::Code::UnsupportedSyntax, tr, "cannot mix bytes and nonbytes literals");
    bytes = is_bytes;
    if (fstring && device_depth_ > 0)
      Error(diag::Code::UnsupportedSyntax, tr, "f-strings are not supported in kernel code (only in host code)");
    const size_t quote_len =
        (text.size() >= q + 6 && text.compare(q, 3, std::string(3, text[q])) == 0) ? 3 : 1;
    const size_t body_begin = q + quote_len;
    const size_t body_end = text.size() >= body_begin + quote_len ? text.size() - quote_len : body_begin;
    if (fstring && !formatted) {  // the plain pieces so far become template text
      std::string plain = std::move(value);
      value.clear();
      AppendTemplateText(value, plain);
      formatted = true;
    }
    if (fstring) {
      FStringBody(text, body_begin, body_end, raw, tr, value, args);
      continue;
    }
    std::string piece;
    DecodeEscapes(text, body_begin, body_end, raw, tr, piece, is_bytes);
    if (formatted) AppendTemplateText(value, piece);
    else value += piece;
  }
  const SourceRange r = Range(ctx);
  if (!formatted) {
    auto lit = std::make_unique<ast::StrLit>(r, std::move(value));
    lit->is_bytes = bytes.value_or(false);
    return lit;
  }
  auto call = std::make_unique<ast::Call>(r);
  call->func = std::make_unique<ast::Attribute>(r, std::make_unique<ast::StrLit>(r, std::move(value)), "format", r);
  call->args = std::move(args);
  return call;
}

void AstBuilder::DecodeEscapes(const std::string& text, size_t begin, size_t end, bool raw, SourceRange tr,
                               std::string& out, bool bytes) {
  for (size_t i = begin; i < end; ++i) {
    const char c = text[i];
    if (c != '\\' || i + 1 >= end) {
      out += c;
      continue;
    }
    const char n = text[i + 1];
    if (raw) {  // a raw string keeps the backslash; it still cannot end the literal
      out += c;
      out += n;
      ++i;
      continue;
    }
    const SourceRange er{tr.begin + uint32_t(i), tr.begin + uint32_t(i + 2)};
    i += 1;
    switch (n) {
      case '\n': break;
      case '\r': if (i + 1 < end && text[i + 1] == '\n') ++i; break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case 'u': case 'U':
        if (bytes) {  // not an escape in a bytes literal
          out += '\\';
          out += n;
          break;
        }
        [[fallthrough]];
      case 'x': {
        const size_t want = n == 'x' ? 2 : n == 'u' ? 4 : 8;
        uint32_t cp = 0;
        size_t k = 0;
        for (; k < want && i + 1 + k < end && HexValue(text[i + 1 + k]) >= 0; ++k)
          cp = cp * 16 + uint32_t(HexValue(text[i + 1 + k]));
        if (k < want || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
          Error(diag::Code::InvalidEscape, {er.begin, tr.begin + uint32_t(i + 1 + k)},
                k < want ? "invalid `\\" + std::string(1, n) + "` escape: expected " +
                               std::to_string(want) + " hex digits"
                         : "invalid `\\" + std::string(1, n) + "` escape: not a Unicode code point");
        } else if (bytes) {
          out += char(cp);  // \xhh is the byte itself
        } else {
          AppendUtf8(out, cp);
        }
        i += k;
        break;
      }
      case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
        uint32_t cp = uint32_t(n - '0');
        for (int k = 0; k < 2 && i + 1 < end && text[i + 1] >= '0' && text[i + 1] <= '7'; ++k)
          cp = cp * 8 + uint32_t(text[++i] - '0');
        if (bytes) out += char(cp & 0xFF);
        else AppendUtf8(out, cp);
        break;
      }
      case 'N':
        Error(diag::Code::InvalidEscape, er, "`\\N{...}` escapes are not supported");
        break;
      default:  // as in Python, an unknown escape keeps its backslash
        out += '\\';
        out += n;
        break;
    }
  }
}

// The body text[begin, end) of an f-string token: literal text (with `{{`, `}}` and escapes)
// and replacement fields, appended to the template `tmpl` and the argument list.
void AstBuilder::FStringBody(const std::string& text, size_t begin, size_t end, bool raw, SourceRange tr,
                             std::string& tmpl, std::vector<ast::ExprPtr>& args) {
  size_t seg = begin;
  auto flush = [&](size_t upto, const char* extra) {
    std::string lit;
    DecodeEscapes(text, seg, upto, raw, tr, lit);
    AppendTemplateText(tmpl, lit + extra);
  };
  for (size_t i = begin; i < end;) {
    const char c = text[i];
    if ((c == '{' || c == '}') && i + 1 < end && text[i + 1] == c) {
      flush(i, c == '{' ? "{" : "}");
      i += 2;
      seg = i;
    } else if (c == '}') {
      Error(diag::Code::SyntaxError, {tr.begin + uint32_t(i), tr.begin + uint32_t(i + 1)},
            "f-string: single '}' is not allowed");
      return;
    } else if (c == '{') {
      flush(i, "");
      i = FStringField(text, i, end, raw, tr, 0, tmpl, args);
      if (i == std::string::npos) return;
      seg = i;
    } else {
      // An escape's second character is not text to scan, except a brace: `\{x}` is a
      // backslash and then a field, as in Python.
      i += (c == '\\' && i + 1 < end && text[i + 1] != '{' && text[i + 1] != '}') ? 2 : 1;
    }
  }
  flush(end, "");
}

// One replacement field `{expr[=][!c][:spec]}` opening at text[open]; returns the index after
// its `}`, or npos after reporting an error. Fields nested in a spec are numbered after their
// field, as str.format numbers them.
size_t AstBuilder::FStringField(const std::string& text, size_t open, size_t end, bool raw, SourceRange tr,
                                int nesting, std::string& tmpl, std::vector<ast::ExprPtr>& args) {
  auto at = [&](size_t a, size_t b) { return SourceRange{tr.begin + uint32_t(a), tr.begin + uint32_t(b)}; };
  if (nesting > 1) {
    Error(diag::Code::SyntaxError, at(open, open + 1), "f-string: expressions nested too deeply");
    return std::string::npos;
  }
  // The expression ends at the first `}`, `:`, `!` or debugging `=` outside brackets and
  // strings (`!=`, `==`, `<=`, `>=` are operators).
  size_t j = open + 1;
  int depth = 0;
  char quote = 0;
  for (; j < end; ++j) {
    const char c = text[j];
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    else if (depth == 0 && (c == '}' || c == ':')) break;
    else if (depth == 0 && c == '!' && !(j + 1 < end && text[j + 1] == '=')) break;
    else if (depth == 0 && c == '=' && !(j + 1 < end && text[j + 1] == '=') &&
             std::string("=!<>").find(text[j - 1]) == std::string::npos)
      break;
    else if (c == '\\') {
      Error(diag::Code::SyntaxError, at(j, j + 1), "f-string expression part cannot include a backslash");
      return std::string::npos;
    } else if (c == '#') {
      Error(diag::Code::SyntaxError, at(j, j + 1), "f-string expression part cannot include '#'");
      return std::string::npos;
    }
  }
  if (j >= end) {
    Error(diag::Code::SyntaxError, at(open, end), "f-string: expecting '}'");
    return std::string::npos;
  }
  const size_t expr_end = j;
  if (text.find_first_not_of(" \t\r\n", open + 1) >= expr_end) {
    Error(diag::Code::SyntaxError, at(open, expr_end + 1), "f-string: empty expression not allowed");
    return std::string::npos;
  }
  std::string field = "{";
  std::string debug;
  if (text[j] == '=') {  // `{x=}` prints the expression's text, then its repr
    ++j;
    while (j < end && std::isspace(static_cast<unsigned char>(text[j]))) ++j;
    debug = text.substr(open + 1, j - open - 1);
  }
  char conversion = 0;
  if (j < end && text[j] == '!') {
    conversion = j + 1 < end ? text[j + 1] : 0;
    if (conversion != 's' && conversion != 'r' && conversion != 'a') {
      Error(diag::Code::SyntaxError, at(j, j + 2), "f-string: invalid conversion character: expected 's', 'r', or 'a'");
      return std::string::npos;
    }
    j += 2;
  }
  const size_t reported = diags_.size();
  ast::ExprPtr value = ParseEmbeddedExpr(lexer_.file(), at(open + 1, expr_end), diags_);
  if (!value) {
    if (diags_.size() == reported) Error(diag::Code::SyntaxError, at(open + 1, expr_end), "f-string: expecting an expression");
    failed_ = true;
    return std::string::npos;
  }
  args.push_back(std::move(value));
  bool has_spec = j < end && text[j] == ':';
  std::string spec;
  if (has_spec) {
    ++j;
    size_t seg = j;
    auto flush = [&](size_t upto) {
      std::string lit;
      DecodeEscapes(text, seg, upto, raw, tr, lit);
      AppendTemplateText(spec, lit);
    };
    while (j < end && text[j] != '}') {
      if (text[j] == '{') {
        flush(j);
        j = FStringField(text, j, end, raw, tr, nesting + 1, spec, args);
        if (j == std::string::npos) return j;
        seg = j;
      } else {
        ++j;
      }
    }
    flush(j);
  }
  if (j >= end || text[j] != '}') {
    Error(diag::Code::SyntaxError, at(open, std::min(j, end)), "f-string: expecting '}'");
    return std::string::npos;
  }
  if (!debug.empty()) {
    AppendTemplateText(tmpl, debug);
    if (!conversion && !has_spec) conversion = 'r';
  }
  if (conversion) field += std::string("!") + conversion;
  if (has_spec) field += ":" + spec;
  tmpl += field + "}";
  return j + 1;
}

ast::ExprPtr AstBuilder::Testlist(TileParser::TestlistContext* ctx) {
  auto items = ctx->test();
  if (items.size() == 1 && ctx->COMMA().empty()) return Test(items[0]);
  auto t = std::make_unique<ast::Tuple>(Range(ctx));
  for (auto* e : items) t->elts.push_back(Test(e));
  return t;
}

// A starred element alone (`x = *a`) is no tuple; Python rejects it, and so does Eval.
ast::ExprPtr AstBuilder::StarTestlist(TileParser::Star_testlistContext* ctx) {
  auto items = ctx->star_test();
  if (items.size() == 1 && ctx->COMMA().empty()) return StarTest(items[0]);
  auto t = std::make_unique<ast::Tuple>(Range(ctx));
  for (auto* e : items) t->elts.push_back(StarTest(e));
  return t;
}

ast::ExprPtr AstBuilder::Exprlist(TileParser::ExprlistContext* ctx) {
  auto items = ctx->star_expr();
  auto one = [&](TileParser::Star_exprContext* e) {
    return e->STAR() ? MakeStarred(Range(e), BinaryChain(e->expr())) : BinaryChain(e->expr());
  };
  if (items.size() == 1 && ctx->COMMA().empty()) return one(items[0]);
  auto t = std::make_unique<ast::Tuple>(Range(ctx));
  for (auto* e : items) t->elts.push_back(one(e));
  return t;
}

SourceRange AstBuilder::Range(antlr4::ParserRuleContext* ctx) const {
  SourceRange b = lexer_.RangeOf(ctx->getStart());
  const antlr4::Token* stop = ctx->getStop();
  if (!stop || stop->getTokenIndex() < ctx->getStart()->getTokenIndex()) return {b.begin, b.begin};
  return {b.begin, lexer_.RangeOf(stop).end};
}

SourceRange AstBuilder::Range(TerminalNode* node) const { return lexer_.RangeOf(node->getSymbol()); }

std::string AstBuilder::Text(TerminalNode* node) const {
  const SourceRange r = Range(node);
  return lexer_.bytes().substr(r.begin, r.end - r.begin);
}

void AstBuilder::Error(diag::Code code, SourceRange r, std::string msg) {
  failed_ = true;
  diags_.push_back({code, r, std::move(msg)});
}

void AstBuilder::Spend(SourceRange r) {
  if (--budget_ >= 0) return;
  Error(diag::Code::NestingTooDeep, r,
        "statement is too large: more than " + std::to_string(kBudget) +
            " operators, calls, subscripts and attributes");
  throw BuildAbort{};
}

}  // namespace tilec::parse
