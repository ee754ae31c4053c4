// `tilec doctest`: runs the testcode blocks of RST pages in one session per page and compares
// each block's stdout (captured at the file-descriptor level, so kernel prints count too)
// with the testoutput block that follows it, as Sphinx's doctest extension does, with its
// testsetup/testcleanup blocks and `:skipif:` conditions.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>

#include "host/interp/commands.h"
#include "host/interp/interpreter.h"
#include "support/source.h"

namespace tilec::host {

namespace {

std::vector<std::string> SplitLines(const std::string& s) {
  std::vector<std::string> out;
  std::string line;
  std::istringstream in(s);
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(line);
  }
  return out;
}

int IndentOf(const std::string& line) {
  int n = 0;
  while (n < int(line.size()) && line[n] == ' ') ++n;
  return n;
}

bool Blank(const std::string& line) { return line.find_first_not_of(" \t") == std::string::npos; }

std::string RStrip(const std::string& s) {
  size_t e = s.find_last_not_of(" \t\r");
  return e == std::string::npos ? "" : s.substr(0, e + 1);
}

// Lines with trailing whitespace removed, and leading and trailing blank lines dropped.
std::vector<std::string> Normalized(const std::string& s) {
  std::vector<std::string> lines;
  for (auto& l : SplitLines(s)) lines.push_back(RStrip(l));
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  size_t first = 0;
  while (first < lines.size() && lines[first].empty()) ++first;
  return std::vector<std::string>(lines.begin() + first, lines.end());
}

// doctest's ELLIPSIS: `...` in `want` matches any text.
bool EllipsisMatch(const std::string& want, const std::string& got) {
  if (want.find("...") == std::string::npos) return want == got;
  std::vector<std::string> pieces;
  size_t st = 0, pos;
  while ((pos = want.find("...", st)) != std::string::npos) {
    pieces.push_back(want.substr(st, pos - st));
    st = pos + 3;
  }
  pieces.push_back(want.substr(st));
  size_t start = 0, end = got.size();
  if (got.compare(0, pieces.front().size(), pieces.front()) != 0) return false;
  start = pieces.front().size();
  const std::string& last = pieces.back();
  if (last.size() > end - std::min(end, start) || got.compare(end - last.size(), last.size(), last) != 0) return false;
  end -= last.size();
  if (start > end) return false;
  for (size_t k = 1; k + 1 < pieces.size(); ++k) {
    size_t at = got.find(pieces[k], start);
    if (at == std::string::npos || at + pieces[k].size() > end) return false;
    start = at + pieces[k].size();
  }
  return true;
}

std::string Join(const std::vector<std::string>& lines, const std::string& sep) {
  std::string out;
  for (size_t k = 0; k < lines.size(); ++k) out += (k ? sep : "") + lines[k];
  return out;
}

std::string CollapseWhitespace(const std::string& s) {
  std::string out;
  bool ws = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n') {
      ws = true;
      continue;
    }
    if (ws && !out.empty()) out += ' ';
    ws = false;
    out += c;
  }
  return out;
}

// Redirects file descriptor 1 into a temporary file while a block runs.
class StdoutCapture {
 public:
  StdoutCapture() {
    std::cout.flush();
    std::fflush(stdout);
    tmp_ = std::tmpfile();
    saved_ = dup(1);
    if (tmp_ && saved_ >= 0) dup2(fileno(tmp_), 1);
  }
  std::string Finish() {
    std::cout.flush();
    std::fflush(stdout);
    std::string out;
    if (saved_ >= 0) {
      dup2(saved_, 1);
      close(saved_);
      saved_ = -1;
    }
    if (tmp_) {
      std::rewind(tmp_);
      char buf[4096];
      size_t n;
      while ((n = std::fread(buf, 1, sizeof buf, tmp_)) > 0) out.append(buf, n);
      std::fclose(tmp_);
      tmp_ = nullptr;
    }
    return out;
  }
  ~StdoutCapture() {
    if (saved_ >= 0 || tmp_) Finish();
  }

 private:
  FILE* tmp_ = nullptr;
  int saved_ = -1;
};

}  // namespace

std::vector<DocBlock> ExtractDocBlocks(const std::string& page_text) {
  static const std::regex kDirective(R"(^(\s*)\.\.\s+(testcode|testoutput|testsetup|testcleanup)::(.*)$)");
  std::vector<std::string> lines = SplitLines(page_text);
  std::vector<DocBlock> blocks;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (!std::regex_match(lines[i], m, kDirective)) continue;
    DocBlock b;
    std::string kind = m[2];
    b.kind = kind == "testcode" ? DocBlock::Kind::Code
             : kind == "testoutput" ? DocBlock::Kind::Output
             : kind == "testsetup" ? DocBlock::Kind::Setup
                                   : DocBlock::Kind::Cleanup;
    b.directive_line = int(i) + 1;
    int dir_indent = IndentOf(lines[i]);
    size_t j = i + 1;
    // Option lines (`:options: +NORMALIZE_WHITESPACE`, `:hide:`) come before the first blank.
    while (j < lines.size() && !Blank(lines[j]) && IndentOf(lines[j]) > dir_indent) {
      std::string opt = lines[j].substr(IndentOf(lines[j]));
      if (opt.empty() || opt[0] != ':') break;
      if (opt.rfind(":skipif:", 0) == 0) {
        size_t st = opt.find_first_not_of(" \t", 8);
        b.skipif = st == std::string::npos ? "" : opt.substr(st);
        b.skipif_line = int(j) + 1;
      } else if (opt.rfind(":options:", 0) == 0) {
        std::istringstream os(opt.substr(9));
        std::string o;
        while (os >> o) {
          if (!o.empty() && o.back() == ',') o.pop_back();
          b.options.push_back(o);
        }
      }
      ++j;
    }
    size_t content_end = j;
    while (content_end < lines.size() && (Blank(lines[content_end]) || IndentOf(lines[content_end]) > dir_indent))
      ++content_end;
    size_t first = j;
    while (first < content_end && Blank(lines[first])) ++first;
    size_t last = content_end;
    while (last > first && Blank(lines[last - 1])) --last;
    int indent = 1 << 30;
    for (size_t k = first; k < last; ++k)
      if (!Blank(lines[k])) indent = std::min(indent, IndentOf(lines[k]));
    if (first == last) indent = 0;
    b.first_line = int(first) + 1;
    b.indent = indent;
    for (size_t k = first; k < last; ++k)
      b.text += (Blank(lines[k]) ? std::string() : lines[k].substr(size_t(indent))) + "\n";
    blocks.push_back(std::move(b));
    i = content_end - 1;
  }
  return blocks;
}

bool OutputMatches(const std::string& want_text, const std::string& got_text,
                   const std::vector<std::string>& options) {
  bool normalize_ws = false, ellipsis = true;
  for (const auto& o : options) {
    if (o == "+NORMALIZE_WHITESPACE") normalize_ws = true;
    if (o == "-ELLIPSIS") ellipsis = false;
  }
  std::vector<std::string> want = Normalized(want_text), got = Normalized(got_text);
  // As doctest does, a traceback's body (the indented `File ...` lines) is not compared.
  auto drop_trace_body = [](std::vector<std::string>& lines) {
    std::vector<std::string> out;
    bool in_trace = false;
    for (auto& l : lines) {
      if (l == "Traceback (most recent call last):") in_trace = true;
      else if (in_trace && !l.empty() && (l[0] == ' ' || l == "...")) continue;
      else in_trace = false;
      out.push_back(l);
    }
    lines = out;
  };
  if (std::find(want.begin(), want.end(), "Traceback (most recent call last):") != want.end()) {
    drop_trace_body(want);
    drop_trace_body(got);
  }
  for (auto& l : want)
    if (l == "<BLANKLINE>") l.clear();
  std::string w = Join(want, "\n"), g = Join(got, "\n");
  if (normalize_ws) {
    w = CollapseWhitespace(w);
    g = CollapseWhitespace(g);
  }
  if (w == g) return true;
  return ellipsis && EllipsisMatch(w, g);
}

std::string UnifiedDiff(const std::string& want_text, const std::string& got_text, int first_line,
                        const std::string& want_name, const std::string& got_name) {
  std::vector<std::string> a = Normalized(want_text), b = Normalized(got_text);
  size_t n = a.size(), m = b.size();
  // Longest common subsequence table; outputs are short.
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  struct Op { char tag; std::string text; };
  std::vector<Op> ops;
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) ops.push_back({' ', a[i++]}), ++j;
    else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) ops.push_back({'-', a[i++]});
    else ops.push_back({'+', b[j++]});
  }
  std::string out = "--- " + want_name + "\n+++ " + got_name + "\n";
  out += "@@ -" + std::to_string(first_line) + "," + std::to_string(n) + " +" + std::to_string(first_line) + "," +
         std::to_string(m) + " @@\n";
  for (const auto& op : ops) out += std::string(1, op.tag) + op.text + "\n";
  return out;
}

namespace {

// Evaluates a `:skipif:` condition in the page's session. nullopt (with the traceback in
// `report`) when it raises.
std::optional<bool> SkipCondition(Interpreter& session, const std::string& path, const DocBlock& b,
                                  std::ostream& report) {
  static const char* kName = "__tilec_doctest_skipif__";
  std::ostringstream err;
  bool ok;
  {
    StdoutCapture capture;
    ok = session.RunSource(path, std::string(kName) + " = bool(" + b.skipif + ")\n", b.skipif_line - 1, 0, err);
    std::string printed = capture.Finish();
    err << printed;
  }
  auto it = session.globals().find(kName);
  if (!ok || it == session.globals().end()) {
    report << path << ":" << b.skipif_line << ": error: the `:skipif:` condition failed\n" << err.str();
    return std::nullopt;
  }
  bool skip = it->second.b();
  session.globals().erase(it);
  return skip;
}

}  // namespace

DocCounts RunDocPage(const std::string& path, std::ostream& report) {
  DocCounts counts;
  std::string text, error;
  if (!SourceFile::Load(path, text, error)) {
    report << path << ": error: " << error << "\n";
    counts.failed++;
    return counts;
  }
  std::vector<DocBlock> blocks = ExtractDocBlocks(text);
  bool any_code = false;
  for (const auto& b : blocks) any_code |= b.kind == DocBlock::Kind::Code;
  if (!any_code) {
    report << path << ": error: no `.. testcode::` block on this page\n";
    counts.failed++;
    return counts;
  }
  Interpreter session(std::cout);
  // nullopt: the condition raised, which fails the block.
  auto skipped = [&](const DocBlock& b) -> std::optional<bool> {
    if (b.skipif.empty()) return false;
    return SkipCondition(session, path, b, report);
  };
  auto run = [&](const DocBlock& b, std::string& got) {
    StdoutCapture capture;
    bool ran = session.RunSource(path, b.text, b.first_line - 1, b.indent, std::cout);
    got = capture.Finish();
    return ran;
  };
  // Setup and cleanup blocks frame the page's tests wherever they stand on it.
  auto frame_blocks = [&](DocBlock::Kind kind, const char* what) {
    for (const DocBlock& b : blocks) {
      if (b.kind != kind) continue;
      std::optional<bool> skip = skipped(b);
      if (!skip) {
        counts.failed++;
        continue;
      }
      if (*skip) continue;
      std::string got;
      if (!run(b, got)) {
        report << path << ":" << b.directive_line << ": error: " << what << " block failed\n" << got;
        counts.failed++;
      }
    }
  };
  frame_blocks(DocBlock::Kind::Setup, "testsetup");
  for (size_t k = 0; k < blocks.size(); ++k) {
    const DocBlock& b = blocks[k];
    if (b.kind == DocBlock::Kind::Setup || b.kind == DocBlock::Kind::Cleanup) continue;
    if (b.kind == DocBlock::Kind::Output) {
      report << path << ":" << b.directive_line << ": error: `.. testoutput::` without a testcode block before it\n";
      counts.failed++;
      continue;
    }
    const DocBlock* want = k + 1 < blocks.size() && blocks[k + 1].kind == DocBlock::Kind::Output ? &blocks[k + 1] : nullptr;
    if (want) ++k;
    std::optional<bool> skip = skipped(b);
    if (!skip) {
      counts.failed++;
      continue;
    }
    if (*skip) {
      counts.skipped++;
      continue;
    }
    // A skipped testoutput leaves its testcode running unchecked.
    if (want) {
      std::optional<bool> skip_output = skipped(*want);
      if (!skip_output) {
        counts.failed++;
        continue;
      }
      if (*skip_output) want = nullptr;
    }
    std::string got;
    bool ran = run(b, got);
    if (want ? OutputMatches(want->text, got, want->options) : ran) {
      counts.passed++;
      continue;
    }
    counts.failed++;
    report << path << ":" << b.directive_line << ": testcode block failed";
    if (want) {
      report << ": its output differs from the testoutput at line " << want->directive_line << "\n";
      report << UnifiedDiff(want->text, got, want->first_line, "expected (" + path + ":" + std::to_string(want->first_line) + ")",
                            "actual");
    } else {
      report << "\n" << got;
    }
  }
  frame_blocks(DocBlock::Kind::Cleanup, "testcleanup");
  return counts;
}

namespace {

std::string CountsLine(const DocCounts& c) {
  return std::to_string(c.passed) + " passed, " + std::to_string(c.failed) + " failed, " + std::to_string(c.skipped) +
         " skipped";
}

}  // namespace

int RunDoctest(const std::vector<std::string>& pages, const SessionOptions& opts) {
  if (!ApplySessionOptions(opts)) return 2;
  DocCounts total;
  for (const auto& page : pages) {
    std::ostringstream report;
    DocCounts c = RunDocPage(page, report);
    std::cout << report.str();
    if (pages.size() > 1) std::cout << page << ": " << CountsLine(c) << "\n";
    std::cout.flush();
    total.passed += c.passed;
    total.failed += c.failed;
    total.skipped += c.skipped;
  }
  std::cout << CountsLine(total) << "\n";
  return total.failed == 0 ? 0 : 1;
}

}  // namespace tilec::host
