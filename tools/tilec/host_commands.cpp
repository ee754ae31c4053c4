// `tilec run`, `tilec repl` and `tilec doctest`: thin wrappers over the host interpreter.
#include "tools/tilec/cli.h"

namespace tilec::cli {

int RunRun(const Options&) { return UsageError("`run` is not available in this build"); }
int RunRepl(const Options&) { return UsageError("`repl` is not available in this build"); }
int RunDoctest(const Options&) { return UsageError("`doctest` is not available in this build"); }

}  // namespace tilec::cli
