// Builds the module text for a kernel (constants, then funcs, structs and the kernel, padded
// so that line numbers match the page when they can) and hands it to the compiler.
#include "host/interp/kernel_compile.h"

#include <algorithm>

#include "host/interp/wp_composite.h"

namespace tilec::host {

namespace {

std::string ConstantLine(const KernelConstant& c) {
  if (const auto* t = c.value.As<CompositeTypeObj>()) {
    // A type alias (`vec5 = wp.types.vector(length=5, dtype=float)`): the kernel names it too.
    std::string dtype = "wp." + std::string(ScalarName(t->c.scalar));
    if (t->c.kind == CompositeKind::Vector)
      return c.name + " = wp.types.vector(length=" + std::to_string(t->c.rows) + ", dtype=" + dtype + ")";
    if (t->c.kind == CompositeKind::Matrix)
      return c.name + " = wp.types.matrix(shape=(" + std::to_string(t->c.rows) + ", " + std::to_string(t->c.cols) +
             "), dtype=" + dtype + ")";
    return c.name + " = wp." + CompositeName(t->c);
  }
  if (c.value.IsBool()) return c.name + " = " + (c.value.b() ? "True" : "False");
  if (c.value.IsInt()) return c.name + " = " + std::to_string(c.value.i());
  std::string r = Repr(c.value);
  if (r == "inf" || r == "-inf" || r == "nan") return "";
  return c.name + " = " + r;
}

}  // namespace

ModuleText BuildModuleText(const KernelCompileRequest& req) {
  ModuleText m;
  std::vector<std::string> consts;
  for (const auto& c : req.constants)
    if (std::string l = ConstantLine(c); !l.empty()) consts.push_back(l);
  // Pad with blank lines so each definition sits at its own line when all of them come from
  // one file in increasing order and the constants fit above the first one.
  bool aligned = !req.definitions.empty();
  int prev_end = int(consts.size());
  for (const auto& d : req.definitions) {
    int lines = int(std::count(d.text.begin(), d.text.end(), '\n'));
    if (d.path != req.definitions[0].path || d.col_base != req.definitions[0].col_base || d.line <= prev_end) {
      aligned = false;
      break;
    }
    prev_end = d.line + lines - 1;
  }
  std::string out;
  int line = 0;
  for (const auto& c : consts) out += c + "\n", ++line;
  for (const auto& d : req.definitions) {
    if (aligned)
      while (line + 1 < d.line) out += "\n", ++line;
    out += d.text;
    line += int(std::count(d.text.begin(), d.text.end(), '\n'));
    if (!aligned) out += "\n", ++line;
  }
  m.text = out;
  if (aligned) {
    m.path = req.definitions[0].path;
    m.col_base = req.definitions[0].col_base;
  } else {
    m.path = "<kernel " + req.kernel_name + ">";
  }
  return m;
}

}  // namespace tilec::host
