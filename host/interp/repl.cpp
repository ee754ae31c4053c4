// `tilec repl` and `tilec run`: the interactive loop (libedit when on a terminal, plain lines
// from a pipe), its `:` commands, and running a whole file in one session. On a terminal,
// Ctrl-C interrupts the line or the statement running, history persists and Tab completes.
#include <editline/readline.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>

#include "host/interp/commands.h"
#include "host/interp/interpreter.h"
#include "host/interp/kernel_compile.h"
#include "host/interp/wp_values.h"
#include "support/source.h"
#include "tilec/runtime.h"

namespace tilec::host {

namespace {

constexpr const char* kHelp =
    "Enter Python statements of the host subset; `wp` and `np` are bound already.\n"
    "A line ending in `:` (or a decorator) starts a block, ended by a blank line.\n"
    "Commands:\n"
    "  :help                      this text\n"
    "  :device [NAME]             show or set the default device (cpu, cuda:0)\n"
    "  :emit STAGE KERNEL         print a kernel's tile-ir, grad-ir, llvm or ptx\n"
    "  :time STATEMENT            run a statement and print how long it took\n"
    "  :quit                      leave (Ctrl-D does too)\n"
    "help(x) describes a function, kernel or builtin (help(wp.tile_load)); dir(x) lists names.\n"
    "Tab completes names and attributes; Ctrl-C cancels the line or stops what is running;\n"
    "history is kept in ~/.tilec_history ($TILEC_HISTORY_FILE overrides it).\n";

// Net count of open brackets, ignoring strings and comments.
int BracketDepth(const std::string& text) {
  int depth = 0;
  char quote = 0;
  for (size_t k = 0; k < text.size(); ++k) {
    char c = text[k];
    if (quote) {
      if (c == '\\') ++k;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '#') {
      while (k < text.size() && text[k] != '\n') ++k;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    }
  }
  return depth;
}

std::string Trim(const std::string& s) {
  size_t l = s.find_first_not_of(" \t"), r = s.find_last_not_of(" \t\r\n");
  return l == std::string::npos ? "" : s.substr(l, r - l + 1);
}

bool StartsBlock(const std::string& line) {
  std::string t = Trim(line);
  size_t hash = t.find('#');
  if (hash != std::string::npos) t = Trim(t.substr(0, hash));
  return !t.empty() && (t.back() == ':' || t[0] == '@');
}

// ---------------------------------------------------------------- the terminal

// Set by the SIGINT handler; the line reader polls it, the interpreter polls the runtime's
// interrupt request that the same handler sets.
volatile std::sig_atomic_t g_sigint = 0;
Interpreter* g_session = nullptr;  // what Tab completes against

void OnSigint(int) {
  g_sigint = 1;
  rt::RequestInterrupt();
}

// libedit's reader retries a read that a signal interrupted; this one gives up instead, so
// that Ctrl-C at the prompt ends readline() at once. It waits in poll() with a short timeout
// rather than in read(): a Ctrl-C that lands just before the wait is then seen on the next
// turn instead of leaving the read blocked.
int ReadKey(FILE*) {
  for (;;) {
    if (g_sigint) return EOF;
    struct pollfd p = {STDIN_FILENO, POLLIN, 0};
    int r = poll(&p, 1, 100);
    if (r == 0 || (r < 0 && errno == EINTR)) continue;
    if (r < 0) return EOF;
    unsigned char c;
    ssize_t n = read(STDIN_FILENO, &c, 1);
    if (n == 1) return c;
    if (n == 0) return EOF;
    if (errno != EINTR && errno != EAGAIN) return EOF;
  }
}

std::vector<std::string> g_matches;

char* NextMatch(const char*, int state) {
  static size_t next = 0;
  if (state == 0) next = 0;
  return next < g_matches.size() ? strdup(g_matches[next++].c_str()) : nullptr;
}

char** Complete(const char* text, int start, int) {
  rl_attempted_completion_over = 1;  // no file-name completion
  rl_completion_append_character = '\0';
  bool line_start = true;
  for (int k = 0; k < start; ++k)
    if (rl_line_buffer[k] != ' ' && rl_line_buffer[k] != '\t') line_start = false;
  if (line_start && !*text) {
    // Tab in the indentation indents, as in Python's REPL.
    char** m = static_cast<char**>(std::calloc(2, sizeof(char*)));
    m[0] = strdup("    ");
    return m;
  }
  if (!g_session) return nullptr;
  try {
    g_matches = CompletionCandidates(*g_session, text);
  } catch (const std::exception&) {
    g_matches.clear();
  }
  if (g_matches.empty()) return nullptr;
  return rl_completion_matches(text, NextMatch);
}

// $TILEC_HISTORY_FILE, else ~/.tilec_history; empty when neither can be formed.
std::string HistoryPath() {
  if (const char* p = std::getenv("TILEC_HISTORY_FILE"); p && *p) return p;
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.tilec_history";
  return "";
}

void SetUpTerminal() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = OnSigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocked read must return EINTR
  sigaction(SIGINT, &sa, nullptr);
  rl_catch_signals = 0;  // libedit's own handlers would re-raise the signal
  rl_getc_function = ReadKey;
  rl_attempted_completion_function = Complete;
  // `.` is not a break: `wp.tile_lo` is one word to complete.
  static char breaks[] = " \t\n\"'`@$><=;|&{(+-*/%,)[]}:~^!";
  rl_completer_word_break_characters = breaks;
  stifle_history(2000);
  std::string path = HistoryPath();
  if (!path.empty()) read_history(path.c_str());
}

enum class ReadResult { Line, Eof, Interrupt };

class LineSource {
 public:
  LineSource(std::istream& in, std::ostream& out, bool interactive)
      : in_(in), out_(out), interactive_(interactive) {}
  ReadResult Read(const char* prompt, std::string& line) {
    if (interactive_) {
      // A Ctrl-C that came while nothing was running is spent: start clean.
      g_sigint = 0;
      rt::ClearInterrupt();
      char* s = readline(prompt);
      if (g_sigint) {
        std::free(s);
        g_sigint = 0;
        rt::ClearInterrupt();
        return ReadResult::Interrupt;
      }
      if (!s) return ReadResult::Eof;
      line = s;
      if (!Trim(line).empty()) {
        add_history(s);
        std::string path = HistoryPath();
        // Written at every line, so that a session that is killed keeps its history too.
        if (!path.empty()) write_history(path.c_str());
      }
      std::free(s);
      return ReadResult::Line;
    }
    if (*prompt) out_ << prompt << std::flush;
    return std::getline(in_, line) ? ReadResult::Line : ReadResult::Eof;
  }

 private:
  std::istream& in_;
  std::ostream& out_;
  bool interactive_;
};

int Loop(LineSource& src, std::ostream& out, std::ostream& err, bool prompts, const SessionOptions& opts) {
  if (!ApplySessionOptions(opts)) return 2;
  Interpreter session(out);
  session.set_echo(true);
  g_session = &session;
  struct Unset {
    ~Unset() { g_session = nullptr; }
  } unset;
  std::string line;
  while (true) {
    ReadResult r = src.Read(prompts ? ">>> " : "", line);
    if (r == ReadResult::Eof) break;
    if (r == ReadResult::Interrupt) {
      out << "\nKeyboardInterrupt\n" << std::flush;
      continue;
    }
    std::string t = Trim(line);
    if (t.empty()) continue;
    if (t[0] == ':') {
      std::istringstream cmd(t.substr(1));
      std::string name;
      cmd >> name;
      if (name == "help") {
        out << kHelp;
      } else if (name == "quit" || name == "q" || name == "exit") {
        break;
      } else if (name == "device") {
        std::string dev;
        cmd >> dev;
        try {
          if (!dev.empty()) rt::SetDefaultDevice(rt::Device::Parse(dev));
          out << rt::GetDefaultDevice().Name() << "\n";
        } catch (const std::exception& e) {
          err << "error: " << e.what() << "\n";
        }
      } else if (name == "emit") {
        std::string stage, kernel;
        cmd >> stage >> kernel;
        std::shared_ptr<KernelObj> k;
        for (auto& kk : session.wp().kernels)
          if (kk->name == kernel) k = kk;
        if (stage.empty() || kernel.empty()) {
          err << "usage: :emit tile-ir|grad-ir|llvm|ptx KERNEL\n";
        } else if (!k || !k->request) {
          err << "error: no kernel named `" << kernel << "` in this session\n";
        } else {
          std::string diags;
          auto text = EmitKernelStage(*k->request, stage, &diags);
          if (text) out << *text;
          else err << diags;
        }
      } else if (name == "time") {
        std::string stmt = t.substr(t.find("time") + 4);
        auto start = std::chrono::steady_clock::now();
        bool ok = session.RunSource("<stdin>", Trim(stmt) + "\n", 0, 0, err);
        rt::Synchronize();
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (ok) {
          char buf[64];
          std::snprintf(buf, sizeof buf, "time: %.3f ms\n", ms);
          out << buf;
        }
      } else {
        err << "error: unknown command `:" << name << "` (try :help)\n";
      }
      out.flush();
      continue;
    }
    // Gather a whole statement: a block until a blank line, brackets until they close.
    std::string chunk = line + "\n";
    bool block = StartsBlock(line);
    bool cancelled = false;
    while (block || BracketDepth(chunk) > 0) {
      std::string more;
      ReadResult rm = src.Read(prompts ? "... " : "", more);
      if (rm == ReadResult::Interrupt) {
        cancelled = true;  // Ctrl-C drops the whole unfinished statement
        break;
      }
      if (rm == ReadResult::Eof) break;
      if (block && Trim(more).empty() && BracketDepth(chunk) <= 0) break;
      chunk += more + "\n";
    }
    if (cancelled) {
      out << "\nKeyboardInterrupt\n" << std::flush;
      continue;
    }
    out.flush();
    session.RunSource("<stdin>", chunk, 0, 0, err);
    out.flush();
    err.flush();
  }
  if (prompts) out << "\n";
  return 0;
}

}  // namespace

bool ApplySessionOptions(const SessionOptions& opts) {
  if (opts.debug) SetDefaultWarpMode("debug");
  if (!opts.device) return true;
  try {
    rt::SetDefaultDevice(rt::Device::Parse(*opts.device));
  } catch (const std::exception& e) {
    std::cerr << "tilec: error: " << e.what() << "\n";
    return false;
  }
  return true;
}

int RunReplStream(std::istream& in, std::ostream& out, std::ostream& err, bool prompts, const SessionOptions& opts) {
  LineSource src(in, out, false);
  return Loop(src, out, err, prompts, opts);
}

int RunRepl(const SessionOptions& opts) {
  bool tty = isatty(0) && isatty(1);
  LineSource src(std::cin, std::cout, tty);
  if (tty) {
    SetUpTerminal();
    std::cout << "tilec REPL; :help for help, Ctrl-D to leave\n";
  }
  // From a pipe: no prompts, so that the output is only what the statements print.
  return Loop(src, std::cout, std::cerr, tty, opts);
}

int RunFile(const std::string& path, const SessionOptions& opts) {
  std::string text, error;
  if (!SourceFile::Load(path, text, error)) {
    std::cerr << "tilec: error: " << error << "\n";
    return 2;
  }
  if (!ApplySessionOptions(opts)) return 2;
  std::string diagnostics;
  ChunkRef chunk = Interpreter::Parse(path, text, 0, 0, &diagnostics);
  if (!chunk) {
    std::cerr << diagnostics;
    return 1;
  }
  Interpreter session(std::cout);
  std::vector<std::string> argv{path};
  argv.insert(argv.end(), opts.argv.begin(), opts.argv.end());
  session.set_argv(std::move(argv));
  try {
    session.RunChunk(chunk);
  } catch (const PyError& e) {
    std::cout.flush();
    if (e.type() == "SystemExit") return SystemExitCode(e, std::cerr);
    std::cerr << e.diagnostics << Interpreter::FormatTraceback(e);
    return e.type() == "tilec.CompileError" ? 1 : 4;
  }
  std::cout.flush();
  return 0;
}

}  // namespace tilec::host
