// Text form of Tile IR (`tilec compile --emit=tile-ir`): one op per line, regions indented,
// values numbered in program order per kernel, parameters by name.
#pragma once
#include <iosfwd>
#include <string>

#include "ir/ir.h"

namespace tilec::ir {

struct PrintOptions {
  bool locations = false;  // append `  # line:col` to ops that have one
};

void PrintModule(std::ostream& os, const Module& m, const PrintOptions& opts = {});
void PrintFunction(std::ostream& os, const Module& m, const Function& f, const PrintOptions& opts = {});
std::string ModuleToString(const Module& m, const PrintOptions& opts = {});
// Formats a float constant so that it reads back exactly and always shows a `.` or exponent.
std::string FormatFloat(double v);

}  // namespace tilec::ir
