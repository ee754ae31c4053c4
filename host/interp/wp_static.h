// Host evaluation of the `wp.static(...)` expressions of a kernel or func definition.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "host/interp/interpreter.h"
#include "host/interp/kernel_compile.h"

namespace tilec::host {

struct StaticResolution {
  // Source ranges of `fn`'s file and the text that replaces each.
  std::vector<std::pair<SourceRange, std::string>> edits;
  std::vector<KernelConstant> constants;  // the values the replacements name
};

// The `wp.static(...)` arguments of `fn` the host can evaluate, each replaced by its value.
StaticResolution ResolveStatics(Interpreter& in, const FunctionObj& fn);

}  // namespace tilec::host
