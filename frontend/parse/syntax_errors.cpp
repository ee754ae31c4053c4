// From ANTLR's view of a syntax error to our diagnostic: the rule that failed, the token
// found and the tokens expected select a specific message (missing `:`, missing block,
// unexpected indent, bad decorator, unsupported construct) before the generic one.
#include "frontend/parse/syntax_errors.h"

namespace tilec::parse {

using antlr4::Token;
using grammar::TileParser;

void AbortStrategy::recover(antlr4::Parser* parser, std::exception_ptr e) {
  ParseAbort a;
  a.ctx = parser->getContext();
  try {
    std::rethrow_exception(e);
  } catch (const antlr4::RecognitionException& re) {
    a.offending = re.getOffendingToken();
    a.expected = re.getExpectedTokens();
  } catch (...) {
  }
  if (!a.offending) a.offending = parser->getCurrentToken();
  throw a;
}

antlr4::Token* AbortStrategy::recoverInline(antlr4::Parser* parser) {
  throw antlr4::InputMismatchException(parser);
}

void DepthGuard::enterEveryRule(antlr4::ParserRuleContext* ctx) {
  if (++depth_ <= kMaxRuleDepth) return;
  ParseAbort a;
  a.too_deep = true;
  a.offending = parser_.getCurrentToken();
  a.ctx = ctx;
  throw a;
}

SourceRange PointAfterPrevious(const IndentLexer& lexer, antlr4::BufferedTokenStream& tokens,
                               size_t index) {
  while (index > 0) {
    --index;
    const Token* t = tokens.get(index);
    const size_t type = t->getType();
    if (type == TileParser::NEWLINE || type == TileParser::INDENT || type == TileParser::DEDENT) continue;
    const uint32_t end = lexer.RangeOf(t).end;
    return {end, end};
  }
  return {0, 0};
}

namespace {

bool HasAncestor(antlr4::RuleContext* ctx, size_t rule) {
  for (; ctx; ctx = ctx->parent ? dynamic_cast<antlr4::RuleContext*>(ctx->parent) : nullptr)
    if (ctx->getRuleIndex() == rule) return true;
  return false;
}

antlr4::ParserRuleContext* Ancestor(antlr4::ParserRuleContext* ctx, size_t rule) {
  for (; ctx; ctx = dynamic_cast<antlr4::ParserRuleContext*>(ctx->parent))
    if (ctx->getRuleIndex() == rule) return ctx;
  return nullptr;
}

std::string Found(const IndentLexer& lexer, const Token* t) {
  switch (t->getType()) {
    case Token::EOF: return "end of file";
    case TileParser::NEWLINE: return "end of line";
    case TileParser::INDENT: return "an indented line";
    case TileParser::DEDENT: return "the end of the block";
    case TileParser::STRING: return "a string literal";
    default: break;
  }
  const SourceRange r = lexer.RangeOf(t);
  std::string text = lexer.bytes().substr(r.begin, std::min<uint32_t>(r.end - r.begin, 24));
  if (r.end - r.begin > 24) text += "...";
  return "`" + text + "`";
}

const char* UnsupportedWhat(size_t type) {
  switch (type) {
    case TileParser::LAMBDA: return "`lambda` expressions are";
    case TileParser::TRY: case TileParser::EXCEPT: case TileParser::FINALLY:
      return "`try` statements are";
    case TileParser::RAISE: return "`raise` statements are";
    case TileParser::YIELD: return "`yield` as a value (other than a statement of its own) is";
    case TileParser::ASYNC: case TileParser::AWAIT: return "`async` and `await` are";
    case TileParser::WALRUS: return "assignment expressions (`:=`) are";
    case TileParser::ELLIPSIS: return "`...` is";
    default: return nullptr;
  }
}

bool EndsOperand(size_t type) {
  switch (type) {
    case TileParser::NAME: case TileParser::RPAREN: case TileParser::RBRACK: case TileParser::RBRACE:
    case TileParser::STRING: case TileParser::DEC_INTEGER: case TileParser::HEX_INTEGER:
    case TileParser::OCT_INTEGER: case TileParser::BIN_INTEGER: case TileParser::FLOAT_NUMBER:
    case TileParser::TRUE: case TileParser::FALSE: case TileParser::NONE:
      return true;
    default:
      return false;
  }
}

bool StartsOperand(size_t type) {
  switch (type) {
    case TileParser::NAME: case TileParser::LPAREN: case TileParser::LBRACK: case TileParser::LBRACE:
    case TileParser::STRING: case TileParser::DEC_INTEGER: case TileParser::HEX_INTEGER:
    case TileParser::OCT_INTEGER: case TileParser::BIN_INTEGER: case TileParser::FLOAT_NUMBER:
    case TileParser::TRUE: case TileParser::FALSE: case TileParser::NONE: case TileParser::NOT:
    case TileParser::TILDE:
      return true;
    default:
      return false;
  }
}

// What the header before a block is called in "expected `:` after ..." messages.
std::string HeaderDescription(const IndentLexer& lexer, antlr4::ParserRuleContext* ctx) {
  switch (ctx->getRuleIndex()) {
    case TileParser::RuleIf_stmt: return "`if` condition";
    case TileParser::RuleElif_clause: return "`elif` condition";
    case TileParser::RuleElse_clause: return "`else`";
    case TileParser::RuleWhile_stmt: return "`while` condition";
    case TileParser::RuleFor_stmt: return "`for` loop header";
    case TileParser::RuleWith_stmt: return "`with` items";
    case TileParser::RuleFuncdef: {
      auto* f = static_cast<TileParser::FuncdefContext*>(ctx);
      if (!f->NAME()) return "function signature";
      const SourceRange r = lexer.RangeOf(f->NAME()->getSymbol());
      return "the signature of `" + lexer.bytes().substr(r.begin, r.end - r.begin) + "`";
    }
    case TileParser::RuleClassdef: return "`class` header";
    default: return "";
  }
}

}  // namespace

ErrorKind ExplainSyntaxError(const ParseAbort& a, const IndentLexer& lexer,
                             antlr4::BufferedTokenStream& tokens, std::vector<PendingDiag>& diags) {
  Token* tok = a.offending;
  const size_t type = tok->getType();
  const SourceRange at = lexer.RangeOf(tok);
  const bool at_line_end = type == TileParser::NEWLINE || type == Token::EOF;
  const SourceRange where = at_line_end ? PointAfterPrevious(lexer, tokens, tok->getTokenIndex()) : at;
  const std::string found = Found(lexer, tok);
  const Token* prev = tok->getTokenIndex() > 0 ? tokens.get(tok->getTokenIndex() - 1) : nullptr;
  auto report = [&](diag::Code code, SourceRange r, std::string msg) {
    diags.push_back({code, r, std::move(msg)});
    return ErrorKind::Reported;
  };

  if (lexer.IsLexError(tok)) return ErrorKind::Suppressed;
  if (a.too_deep)
    return report(diag::Code::NestingTooDeep, at,
                  "expression is nested too deeply (parser limit of " +
                      std::to_string(DepthGuard::kMaxRuleDepth) + " levels)");
  if (type == TileParser::INDENT) {
    report(diag::Code::UnexpectedIndent, at, "unexpected indent");
    return ErrorKind::UnexpectedIndent;
  }
  antlr4::ParserRuleContext* ctx = a.ctx;
  const size_t rule = ctx ? ctx->getRuleIndex() : SIZE_MAX;

  if (a.expected.contains(size_t(TileParser::INDENT)) && ctx && ctx->parent) {
    auto* header = dynamic_cast<antlr4::ParserRuleContext*>(ctx->parent);
    const Token* kw = header ? header->getStart() : tok;
    const SourceRange kr = lexer.RangeOf(kw);
    const int line = lexer.file().Locate(kr.begin).line;
    const bool at_eof = at.begin >= lexer.bytes().size();
    diags.push_back({diag::Code::ExpectedIndent,
                     at_eof ? PointAfterPrevious(lexer, tokens, tok->getTokenIndex()) : at,
                     "expected an indented block after `" +
                         lexer.bytes().substr(kr.begin, kr.end - kr.begin) + "` on line " +
                         std::to_string(line)});
    return ErrorKind::ExpectedIndent;
  }
  if (const char* what = UnsupportedWhat(type))
    return report(diag::Code::UnsupportedSyntax, at, std::string(what) + " not supported");
  if (type == TileParser::FOR && (HasAncestor(ctx, TileParser::RuleAtom) || HasAncestor(ctx, TileParser::RuleTrailer)))
    return report(diag::Code::UnsupportedSyntax, at, "comprehensions are not supported");
  if ((type == TileParser::STAR || type == TileParser::POW) &&
      (!prev || !EndsOperand(prev->getType())))
    return report(diag::Code::UnsupportedSyntax, at,
                  std::string("starred arguments and expressions (`") + (type == TileParser::STAR ? "*" : "**") +
                      "x`) are not supported");

  if (a.expected.contains(size_t(TileParser::COLON))) {
    const std::string header = ctx ? HeaderDescription(lexer, ctx) : "";
    if (!header.empty())
      return report(diag::Code::ExpectedColon, where,
                    "expected `:` after " + header + (at_line_end ? "" : ", found " + found));
  }
  if (rule == TileParser::RuleDecorated)
    return report(diag::Code::DecoratorSyntax, where,
                  "a decorator must be followed by `def`, `class` or another decorator, found " + found);
  if (auto* deco = Ancestor(ctx, TileParser::RuleDecorator)) {
    if (tok->getTokenIndex() == deco->getStart()->getTokenIndex() + 1)
      return report(diag::Code::DecoratorSyntax, where,
                    "invalid decorator: expected a name after `@`, found " + found);
    return report(diag::Code::DecoratorSyntax, where,
                  "invalid decorator: expected end of line after the decorator, found " + found);
  }
  if (type == TileParser::ASSIGN &&
      (rule == TileParser::RuleTrailer || HasAncestor(ctx, TileParser::RuleArglist)))
    return report(diag::Code::SyntaxError, at,
                  "invalid keyword argument: only a plain name can stand before `=`");
  if ((type == TileParser::ELSE || type == TileParser::ELIF) && rule == TileParser::RuleStmt)
    return report(diag::Code::SyntaxError, at, found + " without a matching `if`");

  const bool wants_expr = a.expected.contains(size_t(TileParser::NAME)) && a.expected.contains(size_t(TileParser::LPAREN)) &&
                          a.expected.contains(size_t(TileParser::DEC_INTEGER));
  if (wants_expr && rule != TileParser::RuleStmt)
    return report(diag::Code::SyntaxError, where, "expected an expression, found " + found);
  // Two operands in a row inside brackets: most likely a missing comma.
  for (size_t closer : {size_t(TileParser::RPAREN), size_t(TileParser::RBRACK), size_t(TileParser::RBRACE)}) {
    if (a.expected.contains(closer) && prev && EndsOperand(prev->getType()) && StartsOperand(type))
      return report(diag::Code::SyntaxError, at,
                    "expected `,` or " + DescribeTokenType(closer) + ", found " + found);
  }
  const std::vector<ssize_t> expected = a.expected.toList();
  if (!expected.empty() && expected.size() <= 3) {
    std::string list;
    for (size_t i = 0; i < expected.size(); ++i) {
      if (i) list += i + 1 == expected.size() ? " or " : ", ";
      list += DescribeTokenType(size_t(expected[i]));
    }
    return report(diag::Code::SyntaxError, where, "expected " + list + ", found " + found);
  }
  return report(diag::Code::SyntaxError, at_line_end ? where : at, "invalid syntax: unexpected " + found);
}

}  // namespace tilec::parse
