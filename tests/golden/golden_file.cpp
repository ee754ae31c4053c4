// Reading golden files, running tilec on them, comparing, and rewriting expectations.
#include "tests/golden/golden_file.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

namespace tilec::golden {

namespace {

std::string RTrim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
  return s;
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::string cur;
  for (char c : text) {
    if (c == '\n') {
      lines.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) lines.push_back(cur);
  return lines;
}

const std::regex kRunRe(R"(^#\s*RUN:\s*(.*)$)");
const std::regex kCheckRe(R"(^\s*#\s*CHECK:(?: (.*))?$)");
const std::regex kDiagRe(R"(^\s*#\s*(ERROR|WARNING)@([+-]?\d+)(?::(\d+))?:\s*([EW]\d{4}):\s?(.*)$)");
const std::regex kNoteRe(R"(^\s*#\s*NOTE:\s?(.*)$)");
const std::regex kActualRe(R"(^(.*):(\d+):(\d+): (error|warning)\[([EW]\d{4})\]: (.*)$)");
const std::regex kActualNoLocRe(R"(^(error|warning)\[([EW]\d{4})\]: (.*)$)");
const std::regex kActualNoteRe(R"(^(?:.*:\d+:\d+: )?note: (.*)$)");

bool IsExpectationLine(const std::string& line) {
  return std::regex_match(line, kCheckRe) || std::regex_match(line, kDiagRe) ||
         std::regex_match(line, kNoteRe);
}

std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') q += "'\\''";
    else q += c;
  }
  return q + "'";
}

}  // namespace

bool IsFailTest(const std::string& path) {
  std::string base = path.substr(path.find_last_of('/') + 1);
  return base.rfind("fail_", 0) == 0;
}

bool GoldenFile::Load(const std::string& p, std::string& error) {
  path = p;
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    error = "cannot open " + p;
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  lines = SplitLines(ss.str());
  std::smatch m;
  if (lines.empty() || !std::regex_match(lines[0], m, kRunRe)) {
    error = p + ":1: the first line must be `# RUN: <tilec arguments> %s`";
    return false;
  }
  run_args = m[1].str();
  for (size_t pos; (pos = run_args.find("%s")) != std::string::npos;)
    run_args.replace(pos, 2, ShellQuote(p));
  ExpectedDiag* last = nullptr;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (std::regex_match(line, m, kCheckRe)) {
      checks.push_back(RTrim(m[1].str()));
      has_checks = true;
      last = nullptr;
    } else if (std::regex_match(line, m, kDiagRe)) {
      ExpectedDiag d;
      d.severity = m[1].str() == "ERROR" ? "error" : "warning";
      d.line = int(i) + 1 + std::stoi(m[2].str());
      d.col = m[3].matched ? std::stoi(m[3].str()) : 0;
      d.code = m[4].str();
      d.message = RTrim(m[5].str());
      expected.push_back(d);
      last = &expected.back();
    } else if (std::regex_match(line, m, kNoteRe)) {
      if (!last) {
        error = p + ":" + std::to_string(i + 1) + ": `# NOTE:` must follow an ERROR or WARNING line";
        return false;
      }
      last->notes.push_back(RTrim(m[1].str()));
    } else {
      last = nullptr;
    }
  }
  return true;
}

RunResult RunTilec(const std::string& binary, const std::string& args) {
  RunResult r;
  char tmpl[] = "/tmp/tilec_golden_XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd >= 0) close(fd);
  std::string cmd = ShellQuote(binary) + " " + args + " --no-color 2>" + tmpl;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream err(tmpl);
  std::stringstream ss;
  ss << err.rdbuf();
  r.err = ss.str();
  std::remove(tmpl);
  return r;
}

std::vector<ActualDiag> ParseDiagnostics(const std::string& text) {
  std::vector<ActualDiag> out;
  std::smatch m;
  for (const std::string& line : SplitLines(text)) {
    if (std::regex_match(line, m, kActualRe)) {
      out.push_back({m[4].str(), m[5].str(), RTrim(m[6].str()), std::stoi(m[2].str()),
                     std::stoi(m[3].str()), {}});
    } else if (std::regex_match(line, m, kActualNoLocRe)) {
      out.push_back({m[1].str(), m[2].str(), RTrim(m[3].str()), 0, 0, {}});
    } else if (std::regex_match(line, m, kActualNoteRe) && !out.empty()) {
      out.back().notes.push_back(RTrim(m[1].str()));
    }
  }
  return out;
}

std::vector<std::string> Compare(const GoldenFile& g, const RunResult& r,
                                 const std::vector<ActualDiag>& actual) {
  std::vector<std::string> problems;
  bool fail = IsFailTest(g.path);
  bool expects_error = std::any_of(g.expected.begin(), g.expected.end(),
                                   [](const ExpectedDiag& d) { return d.severity == "error"; });
  if (fail != expects_error)
    problems.push_back(fail ? "a `fail_` test must expect at least one ERROR"
                            : "a test expecting an ERROR must be named `fail_...`");
  int want_exit = expects_error ? 1 : 0;
  if (r.exit_code != want_exit)
    problems.push_back("exit code " + std::to_string(r.exit_code) + ", expected " +
                       std::to_string(want_exit));

  std::vector<bool> used(actual.size(), false);
  for (const ExpectedDiag& e : g.expected) {
    bool found = false;
    for (size_t i = 0; i < actual.size() && !found; ++i) {
      const ActualDiag& a = actual[i];
      if (used[i] || a.severity != e.severity || a.code != e.code || a.line != e.line ||
          (e.col && a.col != e.col) || a.message != e.message)
        continue;
      bool notes_ok = std::all_of(e.notes.begin(), e.notes.end(), [&](const std::string& n) {
        return std::find(a.notes.begin(), a.notes.end(), n) != a.notes.end();
      });
      if (!notes_ok) continue;
      used[i] = found = true;
    }
    if (!found)
      problems.push_back("missing " + e.severity + " " + e.code + " at " + std::to_string(e.line) +
                         ":" + std::to_string(e.col) + ": " + e.message +
                         (e.notes.empty() ? "" : " (with note: " + e.notes[0] + ")"));
  }
  for (size_t i = 0; i < actual.size(); ++i) {
    if (used[i]) continue;
    const ActualDiag& a = actual[i];
    problems.push_back("unexpected " + a.severity + " " + a.code + " at " +
                       std::to_string(a.line) + ":" + std::to_string(a.col) + ": " + a.message);
  }

  if (g.has_checks || !r.out.empty()) {
    std::vector<std::string> got = SplitLines(r.out);
    for (auto& l : got) l = RTrim(l);
    std::vector<std::string> want = g.checks;
    while (!got.empty() && got.back().empty()) got.pop_back();
    while (!want.empty() && want.back().empty()) want.pop_back();
    if (got != want) {
      size_t k = 0;
      while (k < got.size() && k < want.size() && got[k] == want[k]) ++k;
      problems.push_back("stdout differs at output line " + std::to_string(k + 1) +
                         ":\n  expected: " + (k < want.size() ? want[k] : "<end>") +
                         "\n  actual:   " + (k < got.size() ? got[k] : "<end>"));
    }
  }
  if (problems.empty() && expects_error == false && r.exit_code != 0 && !r.err.empty())
    problems.push_back("stderr: " + r.err);
  return problems;
}

bool Update(const GoldenFile& g, const RunResult& r, const std::vector<ActualDiag>& actual,
            std::string& error) {
  // Keep the RUN line and the source lines; drop old expectations; remember where each old
  // line went so diagnostics (reported against the old file) can be placed again.
  std::vector<std::string> kept;
  std::vector<int> new_index(g.lines.size() + 2, -1);
  for (size_t i = 1; i < g.lines.size(); ++i) {
    if (IsExpectationLine(g.lines[i])) continue;
    new_index[i + 1] = int(kept.size());
    kept.push_back(g.lines[i]);
  }
  // Diagnostics grouped by the kept line they point at; kept.size() stands for end of file.
  std::map<int, std::vector<const ActualDiag*>> at;
  for (const ActualDiag& a : actual) {
    int old = a.line;
    int idx = int(kept.size());
    for (int l = std::max(old, 1); l < int(new_index.size()); ++l)
      if (new_index[l] >= 0) {
        idx = new_index[l];
        break;
      }
    at[idx].push_back(&a);
  }
  auto block = [&](const std::vector<const ActualDiag*>& ds) {
    std::vector<std::string> lines;
    std::vector<size_t> starts;
    for (const ActualDiag* d : ds) {
      starts.push_back(lines.size());
      lines.push_back("");
      for (const std::string& n : d->notes) lines.push_back("# NOTE: " + n);
    }
    for (size_t k = 0; k < ds.size(); ++k) {
      const ActualDiag* d = ds[k];
      int dist = int(lines.size() - starts[k]);
      lines[starts[k]] = std::string("# ") + (d->severity == "error" ? "ERROR" : "WARNING") +
                         "@+" + std::to_string(dist) + ":" + std::to_string(d->col) + ": " +
                         d->code + ": " + d->message;
    }
    return lines;
  };
  // CHECK lines go after the source so that line numbers in the output stay valid, and a
  // block for end-of-file diagnostics goes last so that `@+N` still lands on the end.
  std::vector<std::string> out{g.lines[0]};
  for (size_t i = 0; i < kept.size(); ++i) {
    if (auto it = at.find(int(i)); it != at.end())
      for (auto& l : block(it->second)) out.push_back(l);
    out.push_back(kept[i]);
  }
  while (out.size() > 1 && RTrim(out.back()).empty()) out.pop_back();
  for (const std::string& l : SplitLines(r.out)) out.push_back(RTrim("# CHECK: " + RTrim(l)));
  if (auto it = at.find(int(kept.size())); it != at.end())
    for (auto& l : block(it->second)) out.push_back(l);
  std::ofstream f(g.path, std::ios::binary | std::ios::trunc);
  if (!f) {
    error = "cannot write " + g.path;
    return false;
  }
  for (const std::string& l : out) f << l << "\n";
  return true;
}

}  // namespace tilec::golden
