// The token rules of grammar/TileLexer.g4, hand-written: longest match over all rules, the
// earlier rule on a tie, the skip rules dropped. It replaces the generated lexer at run time,
// whose start-up (deserializing its ATN) and cold DFA cost more than the rest of the parse;
// tests/unit/parse/raw_lexer_test.cpp holds the two to the same tokens.
#pragma once
#include <cstddef>
#include <string_view>

namespace tilec::parse {

// A token of the grammar's vocabulary over code points [start, stop] (stop is inclusive, as
// in ANTLR; an empty token has stop == start - 1). `type` is the TileParser token type, or
// antlr4::Token::EOF at the end.
struct RawToken {
  size_t type;
  size_t start;
  size_t stop;
};

class RawLexer {
 public:
  explicit RawLexer(std::u32string_view text) : s_(text) {}
  // The next token that is not skipped (whitespace, comments, line joins); EOF at the end,
  // and again on every later call.
  RawToken Next();

 private:
  // Length of the longest match at `i` of any rule, and its type (0 for a skipped rule).
  size_t Match(size_t i, size_t& type) const;
  size_t Number(size_t i, size_t& type) const;
  size_t String(size_t i, size_t prefix, size_t& type) const;
  size_t Newline(size_t i) const;
  size_t LineBreak(size_t i) const;
  // The code point at j, or 0 past the end, where every look-ahead below then fails.
  char32_t At(size_t j) const { return j < s_.size() ? s_[j] : 0; }

  std::u32string_view s_;
  size_t pos_ = 0;
};

}  // namespace tilec::parse
