// Syntax errors: an ANTLR error strategy that stops at the first error of a statement (the
// driver resynchronises), a guard on rule nesting depth, and the translation of ANTLR's view
// of an error (offending token, expected set, rule) into one of our diagnostics.
#pragma once
#include <optional>

#include "TileParser.h"
#include "frontend/parse/lexer.h"

namespace tilec::parse {

// Thrown out of the generated parser at the first error of a statement.
struct ParseAbort {
  antlr4::Token* offending = nullptr;
  antlr4::misc::IntervalSet expected;
  antlr4::ParserRuleContext* ctx = nullptr;  // innermost rule at the error
  bool too_deep = false;
};

class AbortStrategy : public antlr4::DefaultErrorStrategy {
 public:
  void recover(antlr4::Parser* parser, std::exception_ptr e) override;
  antlr4::Token* recoverInline(antlr4::Parser* parser) override;
  void sync(antlr4::Parser*) override {}
  void reportError(antlr4::Parser*, const antlr4::RecognitionException&) override {}
};

// Counts rule nesting while parsing; beyond the limit the statement is abandoned with an
// error rather than risking the stack (`- - - ... x`, deeply nested conditionals).
class DepthGuard : public antlr4::tree::ParseTreeListener {
 public:
  static constexpr int kMaxRuleDepth = 4000;
  explicit DepthGuard(antlr4::Parser& parser) : parser_(parser) {}
  void Reset() { depth_ = 0; }
  void enterEveryRule(antlr4::ParserRuleContext* ctx) override;
  void exitEveryRule(antlr4::ParserRuleContext*) override { --depth_; }
  void visitTerminal(antlr4::tree::TerminalNode*) override {}
  void visitErrorNode(antlr4::tree::ErrorNode*) override {}

 private:
  antlr4::Parser& parser_;
  int depth_ = 0;
};

enum class ErrorKind { Reported, Suppressed, ExpectedIndent, UnexpectedIndent };

// Turns an abort into a diagnostic (appended to `diags`), or stays silent when the lexer has
// already reported the cause. Returns how the driver should resynchronise.
ErrorKind ExplainSyntaxError(const ParseAbort& abort, const IndentLexer& lexer,
                             antlr4::BufferedTokenStream& tokens, std::vector<PendingDiag>& diags);

// The point just after the last visible token before `index` (for errors at a line end or EOF).
SourceRange PointAfterPrevious(const IndentLexer& lexer, antlr4::BufferedTokenStream& tokens,
                               size_t index);

}  // namespace tilec::parse
