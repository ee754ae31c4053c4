// Shared pieces of the `tilec` command line: parsed options, exit codes, and the entry point of
// each subcommand. Each subcommand lives in its own file.
#pragma once
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tilec::cli {

// Exit codes (DESIGN.md §3).
inline constexpr int kExitOk = 0;
inline constexpr int kExitDiagnostics = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInternal = 3;
inline constexpr int kExitRuntime = 4;

struct Options {
  std::string command;
  std::vector<std::string> inputs;
  std::map<std::string, std::string> values;  // --name=value and --name value
  std::vector<std::string> flags;             // --name without a value
  std::vector<std::string> program_args;      // `run FILE ARGS...`: what follows FILE
  bool Has(const std::string& flag) const;
  std::optional<std::string> Get(const std::string& name) const;
};

// Turns a fatal signal into a message and exit code (crash_report.cpp). Only the main
// thread's stack is covered for stack overflows; worker threads crash on kernels, not recursion.
void InstallCrashReport();

// Reports a usage error (`tilec: error: ...` plus a hint) and returns kExitUsage.
int UsageError(const std::string& message);

// Reads a source file; on failure prints a usage-style error and returns false.
bool ReadInput(const std::string& path, std::string& text);

int RunCheck(const Options& opts);
int RunCompile(const Options& opts);
int RunRun(const Options& opts);
int RunRepl(const Options& opts);
int RunDoctest(const Options& opts);

}  // namespace tilec::cli
