// Builds the module text for a kernel (constants, then funcs, structs and the kernel, padded
// so that line numbers match the page when they can) and hands it to the compiler.
#include "host/interp/kernel_compile.h"

#include <algorithm>
#include <cctype>

#include "host/interp/array_values.h"
#include "host/interp/wp_composite.h"

namespace tilec::host {

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
  if (const auto* v = c.value.As<CompositeValueObj>()) {
    // A vector-like value (`C = wp.constant(wp.vec3(...))`): a module constant of the kernel's
    // module, each component written back exactly.
    std::optional<Composite> named = CompositeFromName(CompositeName(v->c));
    if (!named || !(*named == v->c)) return "";
    std::string line = c.name + " = wp." + CompositeName(v->c) + "(";
    for (int64_t k = 0; k < v->c.length(); ++k) {
      std::string r = Repr(v->Component(k));
      if (r == "inf" || r == "-inf" || r == "nan") r = (r[0] == '-' ? "-wp." : "wp.") + r.substr(r[0] == '-' ? 1 : 0);
      line += (k ? ", " : "") + r;
    }
    return line + ")";
  }
  if (const auto* d = c.value.As<DTypeObj>()) return c.name + " = wp." + std::string(ScalarName(d->type));
  if (c.value.IsBool()) return c.name + " = " + (c.value.b() ? "True" : "False");
  if (c.value.IsInt()) return c.name + " = " + std::to_string(c.value.i());
  std::string r = Repr(c.value);
  if (r == "inf" || r == "-inf" || r == "nan") return "";
  return c.name + " = " + r;
}

namespace {

// Whether a definition names `name` as a whole identifier.
bool Mentioned(const KernelCompileRequest& req, const std::string& name) {
  auto ident = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  for (const auto& d : req.definitions)
    for (size_t p = d.text.find(name); p != std::string::npos; p = d.text.find(name, p + 1))
      if ((p == 0 || !ident(d.text[p - 1])) && (p + name.size() >= d.text.size() || !ident(d.text[p + name.size()])))
        return true;
  return false;
}

}  // namespace

ModuleText BuildModuleText(const KernelCompileRequest& req) {
  ModuleText m;
  std::vector<std::string> consts;
  for (const auto& c : req.constants) {
    // Host vector values are common (`q = wp.quat(...)`): only those a definition names become
    // constants of the kernel's module, so an unrelated one never shadows a kernel's local.
    if (c.value.As<CompositeValueObj>() && !Mentioned(req, c.name)) continue;
    if (std::string l = ConstantLine(c); !l.empty()) consts.push_back(l);
  }
  for (const auto& d : req.definitions)
    for (const auto& [name, value] : d.statics)
      if (std::string l = ConstantLine({name, value}); !l.empty()) consts.push_back(l);
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

std::string CompileErrorMessage(const std::string& what, const std::string& diagnostics) {
  size_t errors = 0;
  std::string first;
  for (size_t at = 0; at < diagnostics.size();) {
    size_t end = diagnostics.find('\n', at);
    if (end == std::string::npos) end = diagnostics.size();
    std::string_view line(diagnostics.data() + at, end - at);
    if (size_t e = line.find("error["); e != std::string_view::npos && line.find("]: ", e) != std::string_view::npos) {
      if (errors++ == 0) first = std::string(line.substr(e));
    }
    at = end + 1;
  }
  if (first.empty()) return what;
  std::string more = errors > 1 ? " (and " + std::to_string(errors - 1) + " more error" + (errors > 2 ? "s" : "") + ")" : "";
  return what + ": " + first + more;
}

}  // namespace tilec::host
