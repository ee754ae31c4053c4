// The parse driver: tokenizes the whole file, then parses it one statement at a time so that
// a syntax error drops only the statement it is in and parsing resumes at the next statement
// of the same block; the ANTLR tree of each statement becomes AST and is released.
#include "frontend/parse/parse.h"

#include <algorithm>

#include "frontend/parse/builder.h"
#include "frontend/parse/lexer.h"
#include "frontend/parse/syntax_errors.h"

namespace tilec::parse {

using antlr4::Token;
using grammar::TileParser;

namespace {

void Flush(std::vector<PendingDiag>& pending, const SourceFile& file, diag::DiagnosticEngine& diags) {
  std::stable_sort(pending.begin(), pending.end(), [](const PendingDiag& a, const PendingDiag& b) {
    return a.range.begin < b.range.begin;
  });
  for (PendingDiag& d : pending) diags.Report(d.code, &file, d.range, std::move(d.message));
}

// Lexer and token stream over one file; keeps the decoded input alive for token texts.
struct Tokenized {
  Tokenized(const SourceFile& file, std::vector<PendingDiag>& diags)
      : input(file.text(), diags), lexer(&input, file, diags), tokens(&lexer) {
    tokens.fill();
  }
  ByteMappedStream input;
  IndentLexer lexer;
  antlr4::CommonTokenStream tokens;
};

int IndentBalance(antlr4::BufferedTokenStream& tokens, size_t from, size_t to) {
  int balance = 0;
  for (size_t i = from; i < to; ++i) {
    const size_t type = tokens.get(i)->getType();
    if (type == TileParser::INDENT) ++balance;
    if (type == TileParser::DEDENT) --balance;
  }
  return balance;
}

// Where to resume after an error at token `bad`: past the end of its logical line, except
// when the error is about the line structure itself (then the offending line is kept).
size_t ResumeIndex(antlr4::BufferedTokenStream& tokens, size_t start, size_t bad, ErrorKind kind) {
  const size_t size = tokens.size();
  size_t resume = bad;
  const size_t type = tokens.get(bad)->getType();
  const bool keep_line = kind == ErrorKind::ExpectedIndent || kind == ErrorKind::UnexpectedIndent ||
                         type == TileParser::DEDENT || type == Token::EOF;
  if (!keep_line) {
    while (resume < size && tokens.get(resume)->getType() != TileParser::NEWLINE &&
           tokens.get(resume)->getType() != Token::EOF)
      ++resume;
    if (resume < size && tokens.get(resume)->getType() == TileParser::NEWLINE) ++resume;
  }
  if (resume <= start) resume = start + 1;
  return std::min(resume, size - 1);
}

// One statement, first with SLL prediction, which needs no full-context lookahead and is
// several times cheaper on a cold prediction cache; when SLL reports an error the statement
// is parsed again with full LL, which accepts exactly the valid statements and produces the
// error that is reported.
TileParser::StmtContext* ParseStmt(TileParser& parser, antlr4::CommonTokenStream& tokens, DepthGuard& guard,
                                   size_t start) {
  auto* sim = parser.getInterpreter<antlr4::atn::ParserATNSimulator>();
  sim->setPredictionMode(antlr4::atn::PredictionMode::SLL);
  try {
    return parser.stmt();
  } catch (const ParseAbort&) {
    tokens.seek(start);
    guard.Reset();
    parser.setContext(nullptr);
    parser.getTreeTracker().reset();
    sim->setPredictionMode(antlr4::atn::PredictionMode::LL);
    return parser.stmt();
  }
}

}  // namespace

std::unique_ptr<ast::Module> ParseFile(const SourceFile& file, diag::DiagnosticEngine& diags) {
  auto module = std::make_unique<ast::Module>();
  module->file = &file;
  std::vector<PendingDiag> pending;
  Tokenized tz(file, pending);
  antlr4::CommonTokenStream& tokens = tz.tokens;

  TileParser parser(&tokens);
  parser.removeErrorListeners();
  parser.setErrorHandler(std::make_shared<AbortStrategy>());
  DepthGuard guard(parser);
  parser.addParseListener(&guard);
  AstBuilder builder(tz.lexer, pending);

  // `depth` counts the blocks entered while resynchronising inside a broken statement; all
  // statements until it drops back to zero belong to that statement and are checked, not kept.
  int depth = 0;
  bool in_error = false;
  bool after_resync = false;
  bool hold_error = false;  // the next statement is the missing block of a broken header
  bool broken_if = false;   // the failed statement was an `if`, so `elif`/`else` may follow
  while (true) {
    const size_t type = tokens.LA(1);
    if (type == Token::EOF) break;
    if (in_error && (depth > 0 || broken_if) && (type == TileParser::ELSE || type == TileParser::ELIF)) {
      // The clause of an `if` whose header or body failed: skip its header line quietly
      // rather than report a cascade of "`else` without a matching `if`".
      while (tokens.LA(1) != TileParser::NEWLINE && tokens.LA(1) != Token::EOF) tokens.consume();
      if (tokens.LA(1) == TileParser::NEWLINE) tokens.consume();
      after_resync = true;
      continue;
    }
    if (depth == 0 && type != TileParser::INDENT && !hold_error) in_error = broken_if = false;
    if (type == TileParser::NEWLINE) {
      tokens.consume();
      continue;
    }
    if (type == TileParser::INDENT) {
      if (!after_resync)
        pending.push_back({diag::Code::UnexpectedIndent, tz.lexer.RangeOf(tokens.LT(1)), "unexpected indent"});
      in_error = true;
      ++depth;
      tokens.consume();
      continue;
    }
    after_resync = false;
    if (type == TileParser::DEDENT) {
      if (depth > 0) --depth;
      tokens.consume();
      continue;
    }
    const size_t start = tokens.index();
    hold_error = false;
    guard.Reset();
    parser.setContext(nullptr);
    try {
      TileParser::StmtContext* ctx = ParseStmt(parser, tokens, guard, start);
      ast::Body body;
      const bool ok = builder.BuildStmt(ctx, body);
      if (ok && depth == 0 && !in_error) {
        for (auto& s : body) module->body.push_back(std::move(s));
      } else if (depth == 0) {
        in_error = true;  // a statement with an error is left out
      }
      if (tokens.index() == start) tokens.consume();
    } catch (const ParseAbort& abort) {
      const ErrorKind kind = ExplainSyntaxError(abort, tz.lexer, tokens, pending);
      const size_t resume = ResumeIndex(tokens, start, abort.offending->getTokenIndex(), kind);
      if (depth == 0) broken_if = tokens.get(start)->getType() == TileParser::IF;
      depth += IndentBalance(tokens, start, resume);
      if (depth < 0) depth = 0;
      tokens.seek(resume);
      in_error = true;
      after_resync = true;
      hold_error = kind == ErrorKind::ExpectedIndent;
    }
    parser.getTreeTracker().reset();  // the statement's ANTLR tree is no longer needed
  }
  Flush(pending, file, diags);
  return module;
}

ast::ExprPtr ParseEmbeddedExpr(const SourceFile& file, SourceRange r, std::vector<PendingDiag>& diags) {
  // A copy of the file that is blank but for the expression, so that every token keeps its
  // offset (and its line and column) in the file. It is parenthesised from the first byte,
  // where no indentation can precede it, to the byte after it (the field's `}`, `!`, `:` or
  // `=`); inside the parentheses the blanks and any line breaks of the expression are free.
  std::string text(file.text().size(), ' ');
  text.replace(r.begin, r.end - r.begin, file.text(), r.begin, r.end - r.begin);
  text[0] = '(';
  text[r.end] = ')';
  SourceFile sub(file.path(), std::move(text), file.line_base(), file.col_base());
  Tokenized tz(sub, diags);
  TileParser parser(&tz.tokens);
  parser.removeErrorListeners();
  parser.setErrorHandler(std::make_shared<AbortStrategy>());
  DepthGuard guard(parser);
  parser.addParseListener(&guard);
  AstBuilder builder(tz.lexer, diags);
  try {
    TileParser::StmtContext* ctx = ParseStmt(parser, tz.tokens, guard, tz.tokens.index());
    ast::Body body;
    if (!builder.BuildStmt(ctx, body) || tz.tokens.LA(1) != Token::EOF || body.size() != 1) return nullptr;
    auto* stmt = body[0]->As<ast::ExprStmt>();
    if (!stmt) return nullptr;
    return std::move(stmt->value);
  } catch (const ParseAbort& abort) {
    ExplainSyntaxError(abort, tz.lexer, tz.tokens, diags);
    return nullptr;
  }
}

std::string DumpTokens(const SourceFile& file, diag::DiagnosticEngine& diags) {
  std::vector<PendingDiag> pending;
  Tokenized tz(file, pending);
  std::string out;
  for (size_t i = 0; i < tz.tokens.size(); ++i) {
    const Token* t = tz.tokens.get(i);
    const SourceRange r = tz.lexer.RangeOf(t);
    const LineCol lc = file.Locate(r.begin);
    const size_t type = t->getType();
    out += std::to_string(lc.line) + ":" + std::to_string(lc.col) + " ";
    out += type == Token::EOF ? "EOF" : std::string(Vocab().getSymbolicName(type));
    out += " '";
    for (uint32_t k = r.begin; k < r.end; ++k) {
      const unsigned char c = static_cast<unsigned char>(file.text()[k]);
      static const char* kHex = "0123456789abcdef";
      switch (c) {
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\\': out += "\\\\"; break;
        case '\'': out += "\\'"; break;
        default:
          if (c < 0x20 || c == 0x7F) {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 15];
          } else {
            out += char(c);
          }
      }
    }
    out += "'\n";
  }
  Flush(pending, file, diags);
  return out;
}

}  // namespace tilec::parse
