// The layout-aware tokenizer: UTF-8 decoding with byte offsets, INDENT/DEDENT from the
// indentation of each logical line (tabs to multiples of 8, Python's TabError rule), implicit
// line joining inside brackets, and the lexical errors (bad characters, numbers, strings).
#include "frontend/parse/lexer.h"

#include <cstdio>

namespace tilec::parse {

using antlr4::Token;
using grammar::TileParser;

namespace {

// Decodes one UTF-8 sequence at `i`; returns its length, or 0 when the bytes are not UTF-8.
size_t DecodeUtf8(const std::string& s, size_t i, uint32_t& cp) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) { cp = c; return 1; }
  size_t len = 0;
  uint32_t min = 0;
  if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; min = 0x80; }
  else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; min = 0x800; }
  else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; min = 0x10000; }
  else return 0;
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

std::string Hex(uint32_t v, int width, bool upper = true) {
  char buf[16];
  std::snprintf(buf, sizeof buf, upper ? "%0*X" : "%0*x", width, v);
  return buf;
}

bool IsOpen(size_t t) { return t == TileParser::LPAREN || t == TileParser::LBRACK || t == TileParser::LBRACE; }
bool IsClose(size_t t) { return t == TileParser::RPAREN || t == TileParser::RBRACK || t == TileParser::RBRACE; }
size_t CloserOf(size_t open) {
  return open == TileParser::LPAREN ? TileParser::RPAREN
       : open == TileParser::LBRACK ? TileParser::RBRACK : TileParser::RBRACE;
}

std::string BadNumberMessage(const std::string& text) {
  const std::string shown = "`" + text + "`";
  if (text.size() >= 2 && text[0] == '0') {
    switch (text[1]) {
      case 'x': case 'X': return "invalid hexadecimal literal " + shown;
      case 'o': case 'O': return "invalid octal literal " + shown;
      case 'b': case 'B': return "invalid binary literal " + shown;
      default: break;
    }
    if (text.find_first_not_of("0123456789_") == std::string::npos)
      return "leading zeros are not allowed in decimal integer literal " + shown +
             "; use `0o` for octal";
  }
  return "invalid number literal " + shown;
}

}  // namespace

ByteMappedStream::ByteMappedStream(const std::string& bytes, std::vector<PendingDiag>& diags) {
  _data.clear();
  _data.reserve(bytes.size());
  cp_to_byte_.reserve(bytes.size() + 1);
  bool in_bad_run = false;
  for (size_t i = 0; i < bytes.size();) {
    uint32_t cp = 0;
    size_t len = DecodeUtf8(bytes, i, cp);
    cp_to_byte_.push_back(uint32_t(i));
    if (len == 0) {
      if (!in_bad_run) {
        diags.push_back({diag::Code::InvalidCharacter, {uint32_t(i), uint32_t(i + 1)},
                         "invalid UTF-8 byte 0x" +
                             Hex(static_cast<unsigned char>(bytes[i]), 2, false) +
                             "; source files must be UTF-8"});
      }
      in_bad_run = true;
      _data.push_back(0xFFFD);
      i += 1;
      continue;
    }
    in_bad_run = false;
    _data.push_back(static_cast<char32_t>(cp));
    i += len;
  }
  cp_to_byte_.push_back(uint32_t(bytes.size()));
  p = 0;
}

IndentLexer::IndentLexer(ByteMappedStream* input, const SourceFile& file,
                         std::vector<PendingDiag>& diags)
    : stream_(input), raw_(input->CodePoints()), file_(file), bytes_(file.text()), diags_(diags) {
  size_t n = 0;
  while (n < bytes_.size() && (bytes_[n] == ' ' || bytes_[n] == '\t' || bytes_[n] == '\f')) ++n;
  indent_text_ = bytes_.substr(0, n);
}

SourceRange IndentLexer::RangeOf(const Token* t) const {
  const size_t start = t->getStartIndex();
  const size_t stop = t->getStopIndex();
  if (t->getType() == Token::EOF) {
    uint32_t end = uint32_t(bytes_.size());
    return {end, end};
  }
  const uint32_t b = stream_->ByteOf(start);
  const uint32_t e = stop + 1 > start ? stream_->ByteOf(stop + 1) : b;
  return {b, e};
}

void IndentLexer::Report(diag::Code code, SourceRange r, std::string msg) {
  diags_.push_back({code, r, std::move(msg)});
}

std::unique_ptr<antlr4::CommonToken> IndentLexer::Make(size_t type, size_t start_cp, size_t stop_cp) {
  return std::make_unique<antlr4::CommonToken>(
      std::make_pair(static_cast<antlr4::TokenSource*>(this), static_cast<antlr4::CharStream*>(stream_)),
      type, Token::DEFAULT_CHANNEL, start_cp, stop_cp);
}

std::unique_ptr<antlr4::CommonToken> IndentLexer::Synth(size_t type, size_t start_cp,
                                                        size_t stop_cp) {
  auto t = Make(type, start_cp, stop_cp);
  t->setText(type == TileParser::NEWLINE ? "\n" : "");
  return t;
}

void IndentLexer::Push(std::unique_ptr<Token> t) { pending_.push_back(std::move(t)); }

std::unique_ptr<Token> IndentLexer::nextToken() {
  while (pending_pos_ >= pending_.size()) {
    pending_.clear();
    pending_pos_ = 0;
    Pump();
  }
  return std::move(pending_[pending_pos_++]);
}

void IndentLexer::Pump() {
  if (done_) {  // callers may ask again after EOF
    Push(Synth(Token::EOF, stream_->size(), stream_->size() - 1));
    return;
  }
  const RawToken r = raw_.Next();
  if (r.type == Token::EOF) {
    Finish(Synth(Token::EOF, r.start, r.stop));
    return;
  }
  if (r.type == TileParser::NEWLINE) {
    // The indentation of the next line: what follows the token's last line break.
    const std::u32string_view cps = stream_->CodePoints();
    size_t last_break = r.stop;
    while (cps[last_break] != '\n' && cps[last_break] != '\r') --last_break;
    const uint32_t from = stream_->ByteOf(last_break + 1), to = stream_->ByteOf(r.stop + 1);
    std::string indent = bytes_.substr(from, to - from);
    if (!brackets_.empty()) return;  // implicit line joining
    if (at_line_start_) {            // blank or comment-only lines
      indent_text_ = std::move(indent);
      return;
    }
    // The NEWLINE itself covers just the first line break.
    const bool crlf = r.stop > r.start && cps[r.start] == '\r' && cps[r.start + 1] == '\n';
    Push(Synth(TileParser::NEWLINE, r.start, crlf ? r.start + 1 : r.start));
    at_line_start_ = true;
    indent_text_ = std::move(indent);
    return;
  }
  std::unique_ptr<Token> t = Make(r.type, r.start, r.stop);
  if (at_line_start_) {
    at_line_start_ = false;
    HandleIndent(t.get());
  }
  ReportLexical(t.get());
  TrackBracket(t.get());
  Push(std::move(t));
}

void IndentLexer::Finish(std::unique_ptr<Token> eof) {
  done_ = true;
  const size_t end = stream_->size();
  if (!at_line_start_) Push(Synth(TileParser::NEWLINE, end, end - 1));
  while (levels_.size() > 1) {
    if (!levels_.back().synthetic) Push(Synth(TileParser::DEDENT, end, end - 1));
    levels_.pop_back();
  }
  if (!brackets_.empty()) {
    const OpenBracket& open = brackets_.back();
    const uint32_t b = stream_->ByteOf(open.cp);
    Report(diag::Code::UnclosedBracket, {b, b + 1},
           "`" + SpellTokenType(open.type) + "` was never closed");
    unclosed_from_cp_ = brackets_.front().cp;
  }
  Push(std::move(eof));
}

void IndentLexer::HandleIndent(Token* first) {
  int col8 = 0, col1 = 0;
  for (char c : indent_text_) {
    if (c == ' ') { ++col8; ++col1; }
    else if (c == '\t') { col8 = (col8 / 8 + 1) * 8; ++col1; }
    else if (c == '\f') { col8 = col1 = 0; }
  }
  const SourceRange first_range = RangeOf(first);
  const size_t cp = first->getStartIndex();
  bool tab_error = false;
  const Level top = levels_.back();
  if (col8 == top.col8) {
    tab_error = col1 != top.col1;
  } else if (col8 > top.col8) {
    tab_error = col1 <= top.col1;
    if (int(levels_.size()) > kMaxIndentLevels) {
      Report(diag::Code::NestingTooDeep, first_range,
             "too many levels of indentation (the limit is " + std::to_string(kMaxIndentLevels) + ")");
      MarkError(first);
      return;
    }
    levels_.push_back({col8, col1, false});
    Push(Synth(TileParser::INDENT, cp, cp - 1));
  } else {
    while (levels_.size() > 1 && col8 < levels_.back().col8) {
      if (!levels_.back().synthetic) Push(Synth(TileParser::DEDENT, cp, cp - 1));
      levels_.pop_back();
    }
    if (col8 != levels_.back().col8) {
      Report(diag::Code::InconsistentDedent, first_range,
             "unindent does not match any outer indentation level");
      levels_.push_back({col8, col1, true});
    } else {
      tab_error = col1 != levels_.back().col1;
    }
  }
  if (tab_error) {
    const uint32_t line_start = first_range.begin - uint32_t(indent_text_.size());
    Report(diag::Code::MixedTabsSpaces, {line_start, first_range.begin},
           "inconsistent use of tabs and spaces in indentation");
  }
}

void IndentLexer::MarkError(Token* t) {
  error_starts_.insert(t->getStartIndex());
}

void IndentLexer::TrackBracket(Token* t) {
  const size_t type = t->getType();
  if (IsOpen(type)) {
    brackets_.push_back({type, t->getStartIndex()});
    if (int(brackets_.size()) == kMaxBracketDepth + 1) {
      Report(diag::Code::NestingTooDeep, RangeOf(t),
             "too many nested brackets (the limit is " + std::to_string(kMaxBracketDepth) + ")");
    }
    // Everything this deep is skipped by the parser: it never recurses past the limit.
    if (int(brackets_.size()) > kMaxBracketDepth) MarkError(t);
    return;
  }
  if (!IsClose(type)) return;
  const std::string closer = SpellTokenType(type);
  if (brackets_.empty()) {
    Report(diag::Code::UnmatchedBracket, RangeOf(t), "unmatched `" + closer + "`");
    MarkError(t);
    return;
  }
  const OpenBracket open = brackets_.back();
  if (CloserOf(open.type) != type) {
    const uint32_t ob = stream_->ByteOf(open.cp);
    const int open_line = file_.Locate(ob).line;
    Report(diag::Code::UnmatchedBracket, RangeOf(t),
           "closing `" + closer + "` does not match opening `" + SpellTokenType(open.type) +
               "` on line " + std::to_string(open_line));
    MarkError(t);
  }
  brackets_.pop_back();
}

void IndentLexer::ReportLexical(Token* t) {
  const size_t type = t->getType();
  const SourceRange r = RangeOf(t);
  switch (type) {
    case TileParser::ERROR_CHAR: {
      MarkError(t);
      uint32_t cp = 0;
      if (DecodeUtf8(bytes_, r.begin, cp) == 0) return;  // reported while decoding
      if (cp == '\\') {
        Report(diag::Code::InvalidCharacter, r,
               "unexpected character after line continuation character `\\`");
      } else if (cp == 0) {
        Report(diag::Code::InvalidCharacter, r, "invalid character NUL (U+0000) in source");
      } else if (cp >= 0x21 && cp < 0x7F) {
        Report(diag::Code::InvalidCharacter, r,
               "invalid character `" + std::string(1, char(cp)) + "` in source");
      } else if (cp >= 0xA0 && cp != 0xFFFD) {
        Report(diag::Code::InvalidCharacter, r,
               "invalid character `" + bytes_.substr(r.begin, r.end - r.begin) + "` (U+" +
                   Hex(cp, 4) + ") in source");
      } else {
        Report(diag::Code::InvalidCharacter, r,
               "invalid character U+" + Hex(cp, 4) + " in source");
      }
      return;
    }
    case TileParser::BAD_NUMBER:
      MarkError(t);
      Report(diag::Code::InvalidNumber, r, BadNumberMessage(bytes_.substr(r.begin, r.end - r.begin)));
      return;
    case TileParser::UNTERMINATED_STRING:
      MarkError(t);
      Report(diag::Code::UnterminatedString, r, "unterminated string literal");
      return;
    case TileParser::UNTERMINATED_LONG_STRING:
      MarkError(t);
      Report(diag::Code::UnterminatedString, r, "unterminated triple-quoted string literal");
      return;
    default:
      return;
  }
}

const antlr4::dfa::Vocabulary& Vocab() {
  // The parser's vocabulary is the lexer's (tokenVocab); reaching it takes an instance.
  struct NoTokens : antlr4::TokenSource {
    std::unique_ptr<Token> nextToken() override { return std::make_unique<antlr4::CommonToken>(Token::EOF); }
    size_t getLine() const override { return 0; }
    size_t getCharPositionInLine() override { return 0; }
    antlr4::CharStream* getInputStream() override { return nullptr; }
    std::string getSourceName() override { return ""; }
    antlr4::TokenFactory<antlr4::CommonToken>* getTokenFactory() override {
      return antlr4::CommonTokenFactory::DEFAULT.get();
    }
  };
  static NoTokens none;
  static antlr4::CommonTokenStream tokens(&none);
  static TileParser parser(&tokens);
  return parser.getVocabulary();
}

std::string SpellTokenType(size_t type) {
  if (type == Token::EOF) return "";
  const std::string lit(Vocab().getLiteralName(type));
  if (lit.size() >= 2 && lit.front() == '\'') return lit.substr(1, lit.size() - 2);
  return "";
}

std::string DescribeTokenType(size_t type) {
  switch (type) {
    case Token::EOF: return "end of file";
    case TileParser::NEWLINE: return "end of line";
    case TileParser::INDENT: return "indent";
    case TileParser::DEDENT: return "unindent";
    case TileParser::NAME: return "a name";
    case TileParser::STRING: return "a string";
    case TileParser::DEC_INTEGER: case TileParser::HEX_INTEGER: case TileParser::OCT_INTEGER:
    case TileParser::BIN_INTEGER: case TileParser::FLOAT_NUMBER: return "a number";
    default: break;
  }
  const std::string s = SpellTokenType(type);
  return s.empty() ? std::string(Vocab().getSymbolicName(type)) : "`" + s + "`";
}

}  // namespace tilec::parse
