// Converts one ANTLR statement tree into AST nodes with byte ranges, and checks what the
// grammar leaves open: assignment targets, decorators, argument order, parameters, literals.
// Internal to frontend/parse.
#pragma once
#include <string>
#include <vector>

#include "TileParser.h"
#include "frontend/ast/ast.h"
#include "frontend/parse/lexer.h"

namespace tilec::parse {

namespace g = grammar;

// Thrown when a statement is too large to build safely; the statement is dropped.
struct BuildAbort {};

class AstBuilder {
 public:
  AstBuilder(const IndentLexer& lexer, std::vector<PendingDiag>& diags)
      : lexer_(lexer), diags_(diags) {}

  // Appends the statements of `ctx` (several for `a = 1; b = 2`) to `out`. Returns false when
  // it reported an error; the statements are then still appended but must not be used.
  bool BuildStmt(g::TileParser::StmtContext* ctx, ast::Body& out);

 private:
  // statements (build_stmt.cpp)
  void Stmt(g::TileParser::StmtContext* ctx, ast::Body& out);
  void SimpleStmts(g::TileParser::Simple_stmtsContext* ctx, ast::Body& out);
  ast::StmtPtr SmallStmt(g::TileParser::Small_stmtContext* ctx);
  ast::StmtPtr ExprStmt(g::TileParser::Expr_stmtContext* ctx);
  ast::StmtPtr IfStmt(g::TileParser::If_stmtContext* ctx);
  ast::StmtPtr WhileStmt(g::TileParser::While_stmtContext* ctx);
  ast::StmtPtr ForStmt(g::TileParser::For_stmtContext* ctx);
  ast::ExprPtr ReversedRange(ast::ExprPtr iter);
  ast::StmtPtr WithStmt(g::TileParser::With_stmtContext* ctx);
  ast::StmtPtr TryStmt(g::TileParser::Try_stmtContext* ctx);
  ast::StmtPtr FuncDef(g::TileParser::FuncdefContext* ctx, std::vector<ast::ExprPtr> decorators,
                       SourceRange range);
  ast::StmtPtr ClassDef(g::TileParser::ClassdefContext* ctx, std::vector<ast::ExprPtr> decorators,
                        SourceRange range);
  ast::StmtPtr Decorated(g::TileParser::DecoratedContext* ctx);
  void Params(g::TileParser::ParametersContext* ctx, ast::FunctionDef& f);
  void Block(g::TileParser::BlockContext* ctx, ast::Body& out);
  void CheckTarget(const ast::Expr& e, const char* what, bool in_sequence = false);
  void CheckDecorator(const ast::Expr& e);

  // expressions (build_expr.cpp)
 public:
  ast::ExprPtr Test(g::TileParser::TestContext* ctx);
  ast::ExprPtr NamedExprTest(g::TileParser::Namedexpr_testContext* ctx);
  ast::ExprPtr NamedExpr(SourceRange r, antlr4::tree::TerminalNode* name, g::TileParser::TestContext* value);
 private:
  ast::ExprPtr OrTest(g::TileParser::Or_testContext* ctx);
  ast::ExprPtr AndTest(g::TileParser::And_testContext* ctx);
  ast::ExprPtr NotTest(g::TileParser::Not_testContext* ctx);
  ast::ExprPtr Comparison(g::TileParser::ComparisonContext* ctx);
  ast::ExprPtr BinaryChain(antlr4::ParserRuleContext* ctx);
  ast::ExprPtr Operand(antlr4::tree::ParseTree* t);
  ast::ExprPtr Factor(g::TileParser::FactorContext* ctx);
  ast::ExprPtr Power(g::TileParser::PowerContext* ctx);
  ast::ExprPtr AtomExpr(g::TileParser::Atom_exprContext* ctx);
  ast::ExprPtr Atom(g::TileParser::AtomContext* ctx);
  ast::ExprPtr Number(g::TileParser::NumberContext* ctx);
  ast::ExprPtr Strings(g::TileParser::StringAtomContext* ctx);
  // String literal pieces (build_expr.cpp): escapes of text[begin, end) of token `tr` decoded
  // into `out`; an f-string body appended to a str.format template and its arguments.
  void DecodeEscapes(const std::string& text, size_t begin, size_t end, bool raw, SourceRange tr,
                     std::string& out, bool bytes = false);
  void FStringBody(const std::string& text, size_t begin, size_t end, bool raw, SourceRange tr,
                   std::string& tmpl, std::vector<ast::ExprPtr>& args);
  size_t FStringField(const std::string& text, size_t open, size_t end, bool raw, SourceRange tr,
                      int nesting, std::string& tmpl, std::vector<ast::ExprPtr>& args);
  ast::ExprPtr Subscripts(g::TileParser::SubscriptlistContext* ctx);
  ast::ExprPtr Subscript(g::TileParser::SubscriptContext* ctx);
  void Arguments(g::TileParser::ArglistContext* ctx, ast::Call& call);
  // Host-only syntax (comprehensions, lambda, try, raise): an error inside kernel code.
  ast::ExprPtr StarTestlist(g::TileParser::Star_testlistContext* ctx);
  ast::ExprPtr StarTest(g::TileParser::Star_testContext* ctx);
  ast::ExprPtr MakeStarred(SourceRange r, ast::ExprPtr value, bool call_argument = false);
  void HostOnly(SourceRange r, const std::string& what);
  ast::ExprPtr Lambda(g::TileParser::LambdefContext* ctx);
  // `elt for ... in ... if ...`: the clauses of `first` and everything nested in it.
  ast::ExprPtr Comprehension(SourceRange r, int form, ast::ExprPtr elt, ast::ExprPtr value,
                             g::TileParser::Comp_forContext* first);

 public:
  // A comma list: one element without a trailing comma is the element itself, else a Tuple.
  ast::ExprPtr Testlist(g::TileParser::TestlistContext* ctx);
  ast::ExprPtr Exprlist(g::TileParser::ExprlistContext* ctx);

  SourceRange Range(antlr4::ParserRuleContext* ctx) const;
  SourceRange Range(antlr4::tree::TerminalNode* node) const;
  SourceRange Range(const antlr4::Token* tok) const { return lexer_.RangeOf(tok); }
  SourceRange Span(SourceRange a, SourceRange b) const { return {a.begin, b.end}; }
  std::string Text(antlr4::tree::TerminalNode* node) const;

  void Error(diag::Code code, SourceRange r, std::string msg);
  // Each binary operator and trailer spends one unit; a statement over budget is dropped so
  // that no later recursive walk over its AST can exhaust the stack. Every statement (and
  // each of `a; b`) starts with the whole budget.
  void Spend(SourceRange r);
  void ResetBudget() { budget_ = kBudget; }

 private:
  static constexpr int kBudget = 5000;
  const IndentLexer& lexer_;
  std::vector<PendingDiag>& diags_;
  bool failed_ = false;
  int budget_ = kBudget;
  // Inside the body of a `@wp.kernel` or `@wp.func` definition (f-strings are host-only).
  int device_depth_ = 0;
};

// Parses the bytes `r` of `file` (an f-string replacement field) as one expression, with the
// file's byte offsets; syntax errors go to `diags`. Null when it is not one expression.
ast::ExprPtr ParseEmbeddedExpr(const SourceFile& file, SourceRange r, std::vector<PendingDiag>& diags);

}  // namespace tilec::parse
