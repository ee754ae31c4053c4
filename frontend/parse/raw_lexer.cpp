// The hand-written form of grammar/TileLexer.g4's rules. Each branch of Match is one group of
// rules that can start with the character at hand; where several can, all their lengths are
// taken and the longest wins, the earlier rule of the grammar on a tie, as in the ANTLR lexer.
#include "frontend/parse/raw_lexer.h"

#include "TileParser.h"

namespace tilec::parse {

namespace {

using T = grammar::TileParser;

bool IsDigit(char32_t c) { return c >= '0' && c <= '9'; }
bool IsNameStart(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsNameChar(char32_t c) { return IsNameStart(c) || IsDigit(c); }
bool IsBlank(char32_t c) { return c == ' ' || c == '\t' || c == '\f'; }
bool IsBreak(char32_t c) { return c == '\r' || c == '\n'; }
bool IsHex(char32_t c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool IsOct(char32_t c) { return c >= '0' && c <= '7'; }
bool IsBin(char32_t c) { return c == '0' || c == '1'; }
bool IsIn(char32_t c, std::u32string_view set) { return set.find(c) != std::u32string_view::npos; }

struct Keyword {
  std::u32string_view text;
  size_t type;
};
constexpr Keyword kKeywords[] = {
    {U"def", T::DEF},           {U"return", T::RETURN}, {U"if", T::IF},         {U"elif", T::ELIF},
    {U"else", T::ELSE},         {U"for", T::FOR},       {U"in", T::IN},         {U"while", T::WHILE},
    {U"break", T::BREAK},       {U"continue", T::CONTINUE}, {U"pass", T::PASS}, {U"class", T::CLASS},
    {U"import", T::IMPORT},     {U"from", T::FROM},     {U"as", T::AS},         {U"with", T::WITH},
    {U"assert", T::ASSERT},     {U"and", T::AND},       {U"or", T::OR},         {U"not", T::NOT},
    {U"is", T::IS},             {U"True", T::TRUE},     {U"False", T::FALSE},   {U"None", T::NONE},
    {U"lambda", T::LAMBDA},     {U"try", T::TRY},       {U"except", T::EXCEPT}, {U"finally", T::FINALLY},
    {U"raise", T::RAISE},       {U"del", T::DEL},       {U"global", T::GLOBAL}, {U"nonlocal", T::NONLOCAL},
    {U"yield", T::YIELD},       {U"async", T::ASYNC},   {U"await", T::AWAIT},
};

// STRING_PREFIX: [rRuUfFbB] | [rR] [bBfF] | [bBfF] [rR].
bool IsStringPrefix(std::u32string_view p) {
  if (p.size() == 1) return IsIn(p[0], U"rRuUfFbB");
  if (p.size() == 2)
    return (IsIn(p[0], U"rR") && IsIn(p[1], U"bBfF")) || (IsIn(p[0], U"bBfF") && IsIn(p[1], U"rR"));
  return false;
}

}  // namespace

RawToken RawLexer::Next() {
  while (pos_ < s_.size()) {
    size_t type = 0;
    const size_t start = pos_;
    pos_ += Match(pos_, type);
    if (type != 0) return {type, start, pos_ - 1};
  }
  return {antlr4::Token::EOF, s_.size(), s_.size() - 1};
}

size_t RawLexer::LineBreak(size_t i) const {
  // LINE_BREAK: '\r'? '\n' | '\r'
  return s_[i] == '\r' && i + 1 < s_.size() && s_[i + 1] == '\n' ? 2 : 1;
}

size_t RawLexer::Newline(size_t i) const {
  // NEWLINE: LINE_BREAK (blanks, then a comment or not), as many times as lines follow.
  const size_t n = s_.size();
  size_t j = i;
  do {
    j += LineBreak(j);
    while (j < n && IsBlank(s_[j])) ++j;
    if (j < n && s_[j] == '#')
      while (j < n && !IsBreak(s_[j])) ++j;
  } while (j < n && IsBreak(s_[j]));
  return j - i;
}

size_t RawLexer::Number(size_t i, size_t& type) const {
  // DIGIT_PART: [0-9] ('_'? [0-9])*; returns its end, or j where there is none.
  auto digit_part = [&](size_t j) {
    if (!IsDigit(At(j))) return j;
    ++j;
    for (;;) {
      if (IsDigit(At(j))) ++j;
      else if (At(j) == '_' && IsDigit(At(j + 1))) j += 2;
      else return j;
    }
  };
  // EXPONENT: [eE] [+-]? DIGIT_PART; returns its end, or j where there is none.
  auto exponent = [&](size_t j) {
    if (At(j) != 'e' && At(j) != 'E') return j;
    size_t k = j + 1;
    if (At(k) == '+' || At(k) == '-') ++k;
    const size_t e = digit_part(k);
    return e == k ? j : e;
  };
  // '0' [xXoObB] ('_'? digit)+
  auto based = [&](std::u32string_view marks, bool (*digit)(char32_t)) -> size_t {
    if (At(i) != '0' || !IsIn(At(i + 1), marks)) return 0;
    size_t j = i + 2, count = 0;
    for (;; ++count) {
      if (digit(At(j))) ++j;
      else if (At(j) == '_' && digit(At(j + 1))) j += 2;
      else break;
    }
    return count > 0 ? j - i : 0;
  };

  size_t best = 0;
  auto offer = [&](size_t len, size_t t) {
    if (len > best) best = len, type = t;
  };
  // FLOAT_NUMBER, its three alternatives.
  const size_t d = digit_part(i);
  size_t real_end = d > i ? d : 0;  // IMAG_NUMBER: the longest float or digit part, then [jJ]
  auto real = [&](size_t end) {
    real_end = std::max(real_end, end);
    return end - i;
  };
  if (d > i && At(d) == '.') offer(real(exponent(digit_part(d + 1))), T::FLOAT_NUMBER);
  if (At(i) == '.') {
    const size_t f = digit_part(i + 1);
    if (f > i + 1) offer(real(exponent(f)), T::FLOAT_NUMBER);
  }
  if (d > i && exponent(d) > d) offer(real(exponent(d)), T::FLOAT_NUMBER);
  if (real_end > i && (At(real_end) == 'j' || At(real_end) == 'J')) offer(real_end + 1 - i, T::IMAG_NUMBER);
  offer(based(U"xX", IsHex), T::HEX_INTEGER);
  offer(based(U"oO", IsOct), T::OCT_INTEGER);
  offer(based(U"bB", IsBin), T::BIN_INTEGER);
  // DEC_INTEGER: [1-9] ('_'? [0-9])* | '0'+ ('_'? '0')*
  if (At(i) >= '1' && At(i) <= '9') {
    offer(digit_part(i) - i, T::DEC_INTEGER);
  } else if (At(i) == '0') {
    size_t j = i;
    for (;;) {
      if (At(j) == '0') ++j;
      else if (j > i && At(j) == '_' && At(j + 1) == '0') j += 2;
      else break;
    }
    offer(j - i, T::DEC_INTEGER);
  }
  // BAD_NUMBER: [0-9] [0-9a-zA-Z_]* ('.' [0-9a-zA-Z_]*)*, the last number rule.
  if (IsDigit(At(i))) {
    size_t j = i + 1;
    while (IsNameChar(At(j)) || At(j) == '.') ++j;
    offer(j - i, T::BAD_NUMBER);
  }
  return best;
}

size_t RawLexer::String(size_t i, size_t prefix, size_t& type) const {
  const size_t n = s_.size();
  const size_t o = i + prefix;  // the opening quote
  const char32_t q = s_[o];
  if (o + 2 < n && s_[o + 1] == q && s_[o + 2] == q) {
    // Triple-quoted: STRING ends at the first closing triple quote (its body loop is
    // non-greedy); without one, UNTERMINATED_LONG_STRING runs to the end of the text, or to a
    // backslash that ends it, which no rule's body can hold.
    size_t j = o + 3;
    while (j < n) {
      if (s_[j] == '\\') {
        if (j + 1 == n) break;
        j += 2;
      } else if (s_[j] == q && j + 2 < n && s_[j + 1] == q && s_[j + 2] == q) {
        type = T::STRING;
        return j + 3 - i;
      } else {
        ++j;
      }
    }
    type = T::UNTERMINATED_LONG_STRING;
    return j - i;
  }
  // Short: a backslash takes the next character or line break; a bare line break ends it.
  size_t j = o + 1;
  while (j < n) {
    const char32_t c = s_[j];
    if (c == q) {
      type = T::STRING;
      return j + 1 - i;
    }
    if (c == '\\') {
      if (j + 1 == n) break;
      j += 1 + LineBreak(j + 1);
      continue;
    }
    if (IsBreak(c)) break;
    ++j;
  }
  type = T::UNTERMINATED_STRING;
  return j - i;
}

size_t RawLexer::Match(size_t i, size_t& type) const {
  const size_t n = s_.size();
  const char32_t c = s_[i];
  if (IsNameStart(c)) {
    size_t j = i + 1;
    while (j < n && IsNameChar(s_[j])) ++j;
    const std::u32string_view word = s_.substr(i, j - i);
    if ((At(j) == '\'' || At(j) == '"') && IsStringPrefix(word)) return String(i, j - i, type);
    type = T::NAME;
    for (const Keyword& k : kKeywords)
      if (k.text == word) type = k.type;
    return j - i;
  }
  if (IsDigit(c) || (c == '.' && IsDigit(At(i + 1)))) return Number(i, type);
  if (c == '\'' || c == '"') return String(i, 0, type);
  if (IsBreak(c)) {
    type = T::NEWLINE;
    return Newline(i);
  }
  if (IsBlank(c)) {  // WS, skipped
    size_t j = i + 1;
    while (j < n && IsBlank(s_[j])) ++j;
    return j - i;
  }
  if (c == '#') {  // COMMENT, skipped
    size_t j = i + 1;
    while (j < n && !IsBreak(s_[j])) ++j;
    return j - i;
  }
  if (c == '\\' && IsBreak(At(i + 1))) return 1 + LineBreak(i + 1);  // LINE_JOIN, skipped

  // Operators and delimiters: the longest spelling that follows.
  // `c` alone, or `c c2`.
  auto pick = [&](size_t t1, char32_t c2, size_t t2) -> size_t {
    if (At(i + 1) == c2) {
      type = t2;
      return 2;
    }
    type = t1;
    return 1;
  };
  // Operators that double (`**`, `//`, `<<`, `>>`) and take `=` after either form.
  auto doubling = [&](size_t single, size_t single_eq, size_t twice, size_t twice_eq) -> size_t {
    if (At(i + 1) == c) {
      if (At(i + 2) == '=') {
        type = twice_eq;
        return 3;
      }
      type = twice;
      return 2;
    }
    return pick(single, '=', single_eq);
  };
  switch (c) {
    case '(': type = T::LPAREN; return 1;
    case ')': type = T::RPAREN; return 1;
    case '[': type = T::LBRACK; return 1;
    case ']': type = T::RBRACK; return 1;
    case '{': type = T::LBRACE; return 1;
    case '}': type = T::RBRACE; return 1;
    case ',': type = T::COMMA; return 1;
    case ';': type = T::SEMI; return 1;
    case '~': type = T::TILDE; return 1;
    case ':': return pick(T::COLON, '=', T::WALRUS);
    case '.':
      if (At(i + 1) == '.' && At(i + 2) == '.') {
        type = T::ELLIPSIS;
        return 3;
      }
      type = T::DOT;
      return 1;
    case '-':
      if (At(i + 1) == '>') {
        type = T::ARROW;
        return 2;
      }
      return pick(T::MINUS, '=', T::SUB_ASSIGN);
    case '@': return pick(T::AT, '=', T::AT_ASSIGN);
    case '=': return pick(T::ASSIGN, '=', T::EQ);
    case '+': return pick(T::PLUS, '=', T::ADD_ASSIGN);
    case '%': return pick(T::PERCENT, '=', T::MOD_ASSIGN);
    case '&': return pick(T::AMP, '=', T::AND_ASSIGN);
    case '|': return pick(T::PIPE, '=', T::OR_ASSIGN);
    case '^': return pick(T::CARET, '=', T::XOR_ASSIGN);
    case '*': return doubling(T::STAR, T::MUL_ASSIGN, T::POW, T::POW_ASSIGN);
    case '/': return doubling(T::SLASH, T::DIV_ASSIGN, T::IDIV, T::IDIV_ASSIGN);
    case '<': return doubling(T::LT, T::LE, T::LSHIFT, T::LSHIFT_ASSIGN);
    case '>': return doubling(T::GT, T::GE, T::RSHIFT, T::RSHIFT_ASSIGN);
    case '!':
      if (At(i + 1) == '=') {
        type = T::NE;
        return 2;
      }
      break;
    default:
      break;
  }
  type = T::ERROR_CHAR;  // anything else, one code point
  return 1;
}

}  // namespace tilec::parse
