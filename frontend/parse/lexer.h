// Tokenizer for the parser: decodes the bytes, runs the grammar's token rules (RawLexer) and
// turns their raw NEWLINE tokens into Python's NEWLINE/INDENT/DEDENT stream, reporting lexical
// errors.
// Internal to frontend/parse; nothing outside parse/ may include this (it pulls in ANTLR).
#pragma once
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "TileParser.h"
#include "antlr4-runtime.h"
#include "frontend/parse/raw_lexer.h"
#include "support/diagnostics.h"
#include "support/source.h"

namespace tilec::parse {

// Diagnostics are collected first and reported in source order at the end.
struct PendingDiag {
  diag::Code code;
  SourceRange range;
  std::string message;
};

// Maximum bracket nesting and indentation levels; deeper input is an error, not a crash.
constexpr int kMaxBracketDepth = 200;
constexpr int kMaxIndentLevels = 100;

// An ANTLR char stream over code points that remembers the byte offset of each one. Bytes that
// are not UTF-8 become U+FFFD (and are reported once per run).
class ByteMappedStream : public antlr4::ANTLRInputStream {
 public:
  ByteMappedStream(const std::string& bytes, std::vector<PendingDiag>& diags);
  // Byte offset of code point `cp` (cp == size() gives the end of the text).
  uint32_t ByteOf(size_t cp) const { return cp < cp_to_byte_.size() ? cp_to_byte_[cp] : cp_to_byte_.back(); }
  std::u32string_view CodePoints() const { return _data; }

 private:
  std::vector<uint32_t> cp_to_byte_;
};

class IndentLexer : public antlr4::TokenSource {
 public:
  IndentLexer(ByteMappedStream* input, const SourceFile& file, std::vector<PendingDiag>& diags);
  std::unique_ptr<antlr4::Token> nextToken() override;
  // The rest of ANTLR's token source: nothing in the parse reads them but the stream.
  size_t getLine() const override { return 0; }
  size_t getCharPositionInLine() override { return 0; }
  antlr4::CharStream* getInputStream() override { return stream_; }
  std::string getSourceName() override { return file_.path(); }
  antlr4::TokenFactory<antlr4::CommonToken>* getTokenFactory() override {
    return antlr4::CommonTokenFactory::DEFAULT.get();
  }

  SourceRange RangeOf(const antlr4::Token* t) const;
  const std::string& bytes() const { return bytes_; }
  const SourceFile& file() const { return file_; }
  // True for a token whose problem the lexer has reported already (bad character, number,
  // string, bracket), or that lies inside a bracket never closed: the parser stays silent.
  bool IsLexError(const antlr4::Token* t) const {
    return error_starts_.count(t->getStartIndex()) > 0 || t->getStartIndex() >= unclosed_from_cp_;
  }

 private:
  struct Level {
    int col8;  // columns with tabs to multiples of 8
    int col1;  // columns with tabs counted as 1 (Python's TabError check)
    bool synthetic;  // pushed to recover from a bad dedent; pops without a DEDENT
  };
  struct OpenBracket {
    size_t type;
    size_t cp;
  };
  void Pump();
  void Finish(std::unique_ptr<antlr4::Token> eof);
  void HandleIndent(antlr4::Token* first);
  void TrackBracket(antlr4::Token* t);
  void ReportLexical(antlr4::Token* t);
  void MarkError(antlr4::Token* t);
  std::unique_ptr<antlr4::CommonToken> Synth(size_t type, size_t start_cp, size_t stop_cp);
  std::unique_ptr<antlr4::CommonToken> Make(size_t type, size_t start_cp, size_t stop_cp);
  void Push(std::unique_ptr<antlr4::Token> t);
  void Report(diag::Code code, SourceRange r, std::string msg);

  ByteMappedStream* stream_;
  RawLexer raw_;
  const SourceFile& file_;
  const std::string& bytes_;
  std::vector<PendingDiag>& diags_;
  std::vector<std::unique_ptr<antlr4::Token>> pending_;
  size_t pending_pos_ = 0;
  std::vector<Level> levels_{{0, 0, false}};
  std::vector<OpenBracket> brackets_;
  bool at_line_start_ = true;
  bool done_ = false;
  std::string indent_text_;  // indentation of the line about to start
  std::set<size_t> error_starts_;
  size_t unclosed_from_cp_ = SIZE_MAX;
};

const antlr4::dfa::Vocabulary& Vocab();

// Readable description of a token kind for messages: "`)`", "newline", "end of file", ...
std::string DescribeTokenType(size_t type);
// Spelling of a token kind without backticks ("def", ")"), or "" for classes like NAME.
std::string SpellTokenType(size_t type);

}  // namespace tilec::parse
