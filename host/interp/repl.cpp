// `tilec repl` and `tilec run`: the interactive loop (libedit when on a terminal, plain lines
// from a pipe), its `:` commands, and running a whole file in one session.
#include <editline/readline.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
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
    "  :quit                      leave (Ctrl-D does too)\n";

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

class LineSource {
 public:
  LineSource(std::istream& in, std::ostream& out, bool interactive)
      : in_(in), out_(out), interactive_(interactive) {}
  bool Read(const char* prompt, std::string& line) {
    if (interactive_) {
      char* s = readline(prompt);
      if (!s) return false;
      line = s;
      if (!Trim(line).empty()) add_history(s);
      std::free(s);
      return true;
    }
    if (*prompt) out_ << prompt << std::flush;
    return bool(std::getline(in_, line));
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
  std::string line;
  while (true) {
    if (!src.Read(prompts ? ">>> " : "", line)) break;
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
    while (block || BracketDepth(chunk) > 0) {
      std::string more;
      if (!src.Read(prompts ? "... " : "", more)) break;
      if (block && Trim(more).empty() && BracketDepth(chunk) <= 0) break;
      chunk += more + "\n";
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
  if (tty) std::cout << "tilec REPL; :help for help, Ctrl-D to leave\n";
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
  try {
    session.RunChunk(chunk);
  } catch (const PyError& e) {
    std::cout.flush();
    std::cerr << e.diagnostics << Interpreter::FormatTraceback(e);
    return e.type() == "tilec.CompileError" ? 1 : 4;
  }
  std::cout.flush();
  return 0;
}

}  // namespace tilec::host
