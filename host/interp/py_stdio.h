// The host program's text streams: `sys.stdout`/`sys.stderr` as values that contextlib can
// swap, and the one writer that print() and warnings use.
#pragma once
#include <string>

#include "host/interp/value.h"

namespace tilec::host {

class Interpreter;

// sys.stdout, sys.stderr and their __stdout__/__stderr__ originals.
void InstallStdStreams(ModuleObj& sys);
// Writes `text` to `file` (None: the current sys.stdout), through its write() when it is not
// one of the process's streams.
void WriteText(Interpreter& in, Value file, const std::string& text, bool flush);

}  // namespace tilec::host
