// `tilec`: the compiler driver. Parses the command line, then hands over to one subcommand.
// Any exception that escapes a stage is an internal compiler error (exit 3), never a crash.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <set>

#include "tools/tilec/cli.h"

#ifndef TILEC_VERSION
#define TILEC_VERSION "0.0.0"
#endif

namespace tilec::cli {
namespace {

constexpr const char* kHelp = R"(usage: tilec <command> [options] FILE...

commands:
  check FILE               parse and type-check; report every error
  compile [options] FILE   compile kernels and print or write a stage
      --emit=STAGE         tokens | ast | typed-ast | tile-ir | grad-ir | llvm | ptx | header
                           (header: typed C++ launchers for the kernels of `-o kernels.so`)
      --namespace=NAME     C++ namespace of --emit=header (default: the stem of -o FILE)
      --input=KIND         source (default) | tile-ir (FILE is Tile IR as --emit=tile-ir prints it)
      --passes=LIST        IR passes: default | none | names joined by commas (canonicalize,dce)
      --print-after-all    print each kernel's Tile IR after every pass to stderr
      --target=TARGET      host (default) | nvptx
      --arch=SM            sm_75 | sm_80 | sm_86 | sm_89 | sm_90 (nvptx, default sm_90); with
                           -o a comma-separated list: GPU code for each architecture
      --block-dim=N        lanes per block of tiled kernels in PTX, 1..1024 (default 256); with
                           -o a comma-separated list: a variant of each tiled kernel per value
      -o FILE              write the artifact: a shared object for --target=host (with GPU
                           code for every --arch when given: one file for cpu and cuda:N), a
                           GPU module (kernels.tlm) for --target=nvptx
      --no-cubin           with -o and GPU code: PTX only, no cubins (built by the CUDA
                           toolkit's libnvJitLink where it is found)
      --debug              check every array access; a launch that indexes outside an
                           array fails with the kernel, line, index and shape
  run [--device D] [--debug] FILE [ARGS...]
                           run a file's host statements (D: cpu | cuda:N); --debug starts
                           with wp.config.mode = "debug": array accesses are checked;
                           ARGS are the program's (sys.argv[1:], argparse)
  repl [--device D]        interactive session
  doctest PAGE.rst...      run the testcode blocks of documentation pages

options:
  --help                   show this help
  --version                show the version
  --color / --no-color     colored diagnostics (default: when stderr is a terminal)

exit codes: 0 success, 1 diagnostics, 2 usage, 3 internal error, 4 runtime or device error
)";

// Options that take a value, per command; anything else starting with `-` must be a flag.
const std::set<std::string> kValueOptions = {"emit", "target", "arch", "o", "device",
                                             "block-dim", "input", "passes", "namespace"};
const std::set<std::string> kFlagOptions = {"color", "no-color", "update", "verbose", "time",
                                            "test-builtins", "print-after-all", "debug", "no-cubin"};

int Parse(int argc, char** argv, Options& opts) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    // As with `python FILE ARGS...`, what follows the program's file is the program's.
    if (opts.command == "run" && !opts.inputs.empty()) {
      opts.program_args.push_back(arg);
      continue;
    }
    if (arg == "--help" || arg == "-h") {
      std::cout << kHelp;
      return -1;
    }
    if (arg == "--version") {
      std::cout << "tilec " << TILEC_VERSION << "\n";
      return -1;
    }
    if (arg.size() > 1 && arg[0] == '-') {
      std::string body = arg.substr(arg[1] == '-' ? 2 : 1);
      std::string name = body, value;
      bool has_value = false;
      if (auto eq = body.find('='); eq != std::string::npos) {
        name = body.substr(0, eq);
        value = body.substr(eq + 1);
        has_value = true;
      }
      if (kValueOptions.count(name)) {
        if (!has_value) {
          if (i + 1 >= argc) return UsageError("option `" + arg + "` needs a value");
          value = argv[++i];
        }
        opts.values[name] = value;
      } else if (kFlagOptions.count(name) && !has_value) {
        opts.flags.push_back(name);
      } else {
        return UsageError("unknown option `" + arg + "`");
      }
      continue;
    }
    if (opts.command.empty()) opts.command = arg;
    else opts.inputs.push_back(arg);
  }
  return 0;
}

}  // namespace

bool Options::Has(const std::string& flag) const {
  for (const auto& f : flags)
    if (f == flag) return true;
  return false;
}

std::optional<std::string> Options::Get(const std::string& name) const {
  auto it = values.find(name);
  if (it == values.end()) return std::nullopt;
  return it->second;
}

int UsageError(const std::string& message) {
  std::cerr << "tilec: error: " << message << "\n"
            << "run `tilec --help` for usage\n";
  return kExitUsage;
}

// `check` and `compile` end the process as soon as their output is flushed: what static
// destructors would free (the parser's tables, LLVM's registries) leaves with the address space,
// as in clang. Sanitizer builds exit normally so that leak checking still sees everything.
int Finish(int rc) {
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(rc);
#endif
  return rc;
}

}  // namespace tilec::cli

int main(int argc, char** argv) {
  using namespace tilec::cli;
  Options opts;
  int rc = Parse(argc, argv, opts);
  if (rc == -1) return kExitOk;
  if (rc != 0) return rc;
  if (opts.command.empty()) return UsageError("no command given");
  InstallCrashReport();
  try {
    if (opts.command == "check") return Finish(RunCheck(opts));
    if (opts.command == "compile") return Finish(RunCompile(opts));
    if (opts.command == "run") return RunRun(opts);
    if (opts.command == "repl") return RunRepl(opts);
    if (opts.command == "doctest") return RunDoctest(opts);
    return UsageError("unknown command `" + opts.command + "`");
  } catch (const std::exception& e) {
    std::cerr << "tilec: internal compiler error: " << e.what() << "\n";
    return kExitInternal;
  } catch (...) {
    std::cerr << "tilec: internal compiler error\n";
    return kExitInternal;
  }
}
