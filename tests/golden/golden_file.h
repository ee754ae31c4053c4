// A golden file test: its RUN line, its expectations (CHECK lines, expected diagnostics with
// notes), running it through tilec, comparing, and rewriting expectations in --update mode.
#pragma once
#include <string>
#include <vector>

namespace tilec::golden {

struct ExpectedDiag {
  std::string severity;  // "error" or "warning"
  std::string code;
  int line = 0;          // absolute line in the file as run
  int col = 0;           // 0: column not checked
  std::string message;
  std::vector<std::string> notes;
};

struct ActualDiag {
  std::string severity, code, message;
  int line = 0, col = 0;
  std::vector<std::string> notes;
};

struct RunResult {
  int exit_code = -1;
  std::string out, err;
};

struct GoldenFile {
  std::string path;
  std::vector<std::string> lines;       // the file, without newlines
  std::string run_args;                 // after `# RUN:`, with %s replaced
  std::vector<std::string> checks;      // expected stdout lines
  bool has_checks = false;
  std::vector<ExpectedDiag> expected;

  bool Load(const std::string& path, std::string& error);
};

RunResult RunTilec(const std::string& binary, const std::string& args);
std::vector<ActualDiag> ParseDiagnostics(const std::string& stderr_text);
// Compares; returns a human-readable list of mismatches (empty when all match).
std::vector<std::string> Compare(const GoldenFile& g, const RunResult& r,
                                 const std::vector<ActualDiag>& actual);
// Rewrites the file's expectations from actual output.
bool Update(const GoldenFile& g, const RunResult& r, const std::vector<ActualDiag>& actual,
            std::string& error);
bool IsFailTest(const std::string& path);

}  // namespace tilec::golden
