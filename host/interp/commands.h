// Entry points of `tilec run`, `tilec repl` and `tilec doctest`, and the pieces of doctest
// that tests call directly (block extraction and output comparison).
#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace tilec::host {

struct SessionOptions {
  std::optional<std::string> device;  // "cpu", "cuda:0"; default device when absent
  bool debug = false;  // wp.config.mode starts as "debug": kernels check every array access
  std::vector<std::string> argv;  // `tilec run FILE ARGS...`: the program's own arguments
};

// Runs a file's statements in a fresh session. Exit codes as the CLI's: 0, 1 (syntax or
// kernel compile errors), 2 (cannot read the file or bad device), 4 (a Python exception).
int RunFile(const std::string& path, const SessionOptions& opts);

// Interactive session on stdin/stdout (libedit line editing when stdin is a terminal,
// plain lines without prompts otherwise). Returns 0 at end of input.
int RunRepl(const SessionOptions& opts);
// The REPL's loop over given streams, without line editing (tests drive it this way).
int RunReplStream(std::istream& in, std::ostream& out, std::ostream& err, bool prompts,
                  const SessionOptions& opts);

// One directive block of an RST page.
struct DocBlock {
  enum class Kind { Setup, Code, Output, Cleanup };
  Kind kind = Kind::Code;
  int directive_line = 0;  // 1-based line of `.. testcode::`
  int first_line = 0;      // 1-based page line of the first content line
  int indent = 0;          // columns removed by dedenting
  std::string text;        // dedented content, each line ending in '\n'
  std::vector<std::string> options;  // `+NORMALIZE_WHITESPACE`, ...
  std::string skipif;                // the `:skipif:` condition, "" when there is none
  int skipif_line = 0;               // its 1-based page line
};
std::vector<DocBlock> ExtractDocBlocks(const std::string& page_text);

// Sphinx doctest comparison of a testcode block's output with its testoutput block:
// trailing whitespace and surrounding blank lines ignored, `<BLANKLINE>`, `...` (ELLIPSIS),
// and NORMALIZE_WHITESPACE when the options say so.
bool OutputMatches(const std::string& want, const std::string& got, const std::vector<std::string>& options);
// Unified diff of expected against actual, numbered from `first_line` for both sides.
std::string UnifiedDiff(const std::string& want, const std::string& got, int first_line,
                        const std::string& want_name, const std::string& got_name);

// Runs each page in its own session, as Sphinx's doctest does one group: every testsetup
// block first, then each testcode block (compared with the testoutput after it) whatever
// happened to the ones before, then every testcleanup block. A block whose `:skipif:`
// condition holds is not run. Prints a diff or the error of each failing block, then
// `N passed, M failed, K skipped` counting testcode blocks (per page too when there are
// several). Returns 0 when nothing failed, 1 otherwise.
int RunDoctest(const std::vector<std::string>& pages, const SessionOptions& opts);

struct DocCounts {
  int passed = 0, failed = 0, skipped = 0;
};
// One page in a fresh session, its report written to `report` (RunDoctest's per-page step).
DocCounts RunDocPage(const std::string& path, std::ostream& report);

// Applies opts.device as the default device; false (with a message on stderr) when invalid.
bool ApplySessionOptions(const SessionOptions& opts);

}  // namespace tilec::host
