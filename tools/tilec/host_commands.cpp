// `tilec run`, `tilec repl` and `tilec doctest`: thin wrappers over the host interpreter.
#include "host/interp/commands.h"
#include "tools/tilec/cli.h"

namespace tilec::cli {

namespace {
host::SessionOptions SessionOpts(const Options& opts) {
  host::SessionOptions s;
  s.device = opts.Get("device");
  s.debug = opts.Has("debug");
  s.argv = opts.program_args;
  return s;
}
}  // namespace

int RunRun(const Options& opts) {
  if (opts.inputs.size() != 1) return UsageError("`run` takes exactly one FILE");
  return host::RunFile(opts.inputs[0], SessionOpts(opts));
}

int RunRepl(const Options& opts) {
  if (!opts.inputs.empty()) return UsageError("`repl` takes no FILE");
  return host::RunRepl(SessionOpts(opts));
}

int RunDoctest(const Options& opts) {
  if (opts.inputs.empty()) return UsageError("`doctest` needs at least one PAGE.rst");
  return host::RunDoctest(opts.inputs, SessionOpts(opts));
}

}  // namespace tilec::cli
