// The hand-written token rules against the lexer ANTLR generates from grammar/TileLexer.g4:
// the same tokens (type and code-point span) on every Tile source in the tree, on mutants of
// the golden parse tests, on edge cases of numbers, strings and layout, and on random text
// over the characters where the rules compete.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "TileLexer.h"
#include "frontend/parse/lexer.h"
#include "frontend/parse/raw_lexer.h"
#include "mutants.h"

namespace tilec {
namespace {

struct Tok {
  size_t type, start, stop;
  bool operator==(const Tok& o) const { return type == o.type && start == o.start && stop == o.stop; }
};

std::string Show(const std::vector<Tok>& v, size_t at) {
  std::ostringstream os;
  for (size_t i = at > 3 ? at - 3 : 0; i < v.size() && i < at + 4; ++i)
    os << (i == at ? " >" : " ") << v[i].type << "[" << v[i].start << "," << long(v[i].stop) << "]";
  return os.str();
}

// Compares the two lexers on `text`; returns "" or a description of the first difference.
std::string Compare(const std::string& text) {
  std::vector<parse::PendingDiag> diags;
  parse::ByteMappedStream reference_input(text, diags);
  grammar::TileLexer reference(&reference_input);
  reference.removeErrorListeners();
  std::vector<Tok> want, got;
  for (;;) {
    auto t = reference.nextToken();
    want.push_back({t->getType(), t->getStartIndex(), t->getStopIndex()});
    if (t->getType() == antlr4::Token::EOF) break;
  }
  parse::ByteMappedStream input(text, diags);
  parse::RawLexer raw(input.CodePoints());
  for (;;) {
    const parse::RawToken t = raw.Next();
    got.push_back({t.type, t.start, t.stop});
    if (t.type == antlr4::Token::EOF || got.size() > want.size() + 1) break;
  }
  for (size_t i = 0; i < want.size() || i < got.size(); ++i) {
    if (i < want.size() && i < got.size() && want[i] == got[i]) continue;
    return "token " + std::to_string(i) + ": ANTLR" + Show(want, i) + " | ours" + Show(got, i);
  }
  return "";
}

std::string Quote(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c == '\f') out += "\\f";
    else if (c < 0x20 || c >= 0x7F) out += "\\x" + std::string(1, "0123456789abcdef"[c >> 4]) + "0123456789abcdef"[c & 15];
    else out += char(c);
  }
  return out;
}

TEST(RawLexer, MatchesTheGeneratedLexerOnEveryTileSource) {
  namespace fs = std::filesystem;
  size_t files = 0;
  for (const char* dir : {"tests", "examples", "bench/kernels", "docs"}) {
    const fs::path root = fs::path(TILEC_SOURCE_DIR) / dir;
    if (!fs::exists(root)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".tile" && ext != ".py" && ext != ".rst")) continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      EXPECT_EQ(Compare(ss.str()), "") << e.path();
      ++files;
    }
  }
  EXPECT_GE(files, 50u) << "expected the tree's Tile sources";
}

TEST(RawLexer, MatchesTheGeneratedLexerOnMutants) {
  const auto seeds = testing::LoadSeedSources(TILEC_SOURCE_DIR "/tests/golden/parse");
  ASSERT_GE(seeds.size(), 10u);
  for (const auto& m : testing::GenerateMutants(seeds, 3000)) EXPECT_EQ(Compare(m.text), "") << m.name;
}

TEST(RawLexer, MatchesTheGeneratedLexerOnEdgeCases) {
  const std::string cases[] = {
      // numbers
      "1", "0", "00", "007", "0_0", "0__0", "1_000", "1__0", "1_", "0x", "0x_1F", "0X1f_", "0o17", "0o8", "0b102",
      "0b_1", "1.", "1.5", ".5", "..5", "...", "..", "1..2", "1.5.3", "1e5", "1e", "1e+", "1e+5", "1E-5_0",
      "1.e5", "1.5e", "1.5e+x", ".5e3", ".5e", "1if", "1 if", "x.1", "a.b", "1_2e5", "0e0", "00e1", "0x1.5",
      "9.9.9", "1.__x", "3j", "0_", "0_1", "0.0_1",
      // strings
      "''", "\"\"", "'''", "''''", "'''''", "''''''", "'''''''", "''''''''", "'a'", "'a", "'a\n", "'a\\'",
      "'a\\", "'a\\\nb'", "'a\\\r\nb'", "'a\\\rb'", "'''a'''", "'''a''", "'''a'", "'''a", "'''a\n'''",
      "'''a\\'''", "'''a\\''''", "'''a''''", "'''a'''b'''", "\"\"\"x\"\"\"\"", "'''\\", "'''a\\", "r'x'",
      "rb'x'", "Rb\"x\"", "br'''x'''", "fr'x'", "ur'x'", "ub'x'", "rr'x'", "abr'x'", "b'", "f'''", "u\"",
      "x'y'", "'a\"b'", "\"a'b\"", "'\\''", "'''\\''''", "'''a''b'''", "'''a'' b'''", "'\r'", "'a\rb'",
      // layout, comments, joins
      "a\nb", "a\n\nb", "a\n  \n  b", "a\n# c\nb", "a  # c\n  b", "a\r\nb", "a\rb", "a\r\n\r\n  b", "a\\\nb",
      "a\\\r\nb", "a\\ b", "a\\", "\\", "# only", "\n", "\n\n", "  x", "\tx\n\f y", "x\n  # c", "x\n\t#c\r\n ",
      // operators
      "->", "-=", "->=", "**=", "***", "//=", "///", "<<=", "<<<", ">>=", ">=>", "!=", "!", "!!=", ":=", "::=",
      "@=", "@@", "==", "===", "%=", "&=", "|=", "^=", "~=", "<>", "...=",
      // names and keywords
      "def", "define", "de", "True", "true", "None_", "_", "__init__", "lambda", "nonlocal", "awaitx",
      // anything else
      "$", "?", "`", "\x01", "\xc3\xa9", "\xe2\x82\xac", "\xff", "a\xff" "b", "\xf0\x9f\x98\x80", std::string("a\0b", 3), std::string("\0", 1),
  };
  for (const std::string& c : cases) EXPECT_EQ(Compare(c), "") << "`" << Quote(c) << "`";
}

TEST(RawLexer, MatchesTheGeneratedLexerOnRandomText) {
  // Text over the characters where rules compete: quotes, backslashes, line breaks, digits,
  // number marks, prefixes, operators.
  const std::string alphabet = "''\"\"\\\\\n\r \t#01789.._eExXoObBrRfFuUa+-*/<>=!:@";
  testing::Prng rng(20261203);
  for (int n = 0; n < 20000; ++n) {
    std::string text;
    const size_t len = 1 + rng.Below(14);
    for (size_t i = 0; i < len; ++i) text += alphabet[rng.Below(alphabet.size())];
    const std::string diff = Compare(text);
    EXPECT_EQ(diff, "") << "`" << Quote(text) << "`";
    if (!diff.empty()) break;  // one report is enough
  }
}

}  // namespace
}  // namespace tilec
