// Imports in host code: `import m`, `import m.sub as x`, `from m import a, b` and
// `from m import *`. Modules are the interpreter's own (np, wp, math and the standard-library
// subset of py_modules.cpp), each made once per session.
#include "host/interp/errors.h"
#include "host/interp/interpreter.h"

namespace tilec::host {

void Interpreter::ExecImport(const ast::Import& s) {
  for (const auto& n : s.names) {
    Value mod = ImportModule(n.name);
    // `import numpy.random` binds `numpy`; only `as` binds the submodule itself.
    size_t dot = n.name.find('.');
    if (n.asname.empty() && dot != std::string::npos) {
      std::string top = n.name.substr(0, dot);
      StoreName(top, ImportModule(top));
    } else {
      StoreName(n.asname.empty() ? n.name : n.asname, mod);
    }
  }
}

void Interpreter::ExecImportFrom(const ast::ImportFrom& s) {
  Value mod = ImportModule(s.module);
  if (s.names.size() == 1 && s.names[0].name == "*") {
    auto* m = mod.As<ModuleObj>();
    if (!m) Raise("ImportError", "cannot import * from '" + s.module + "'");
    for (const auto& [name, v] : m->attrs)
      if (name.empty() || name[0] != '_') StoreName(name, v);
    return;
  }
  for (const auto& n : s.names) {
    std::optional<Value> v = mod.obj()->GetAttr(*this, n.name);
    if (!v) Raise("ImportError", "cannot import name '" + n.name + "' from '" + s.module + "'");
    StoreName(n.asname.empty() ? n.name : n.asname, *v);
  }
}

Value Interpreter::ImportModule(const std::string& name) {
  if (name == "warp") {
    auto it = globals_.find("wp");
    if (it != globals_.end() && it->second.As<ModuleObj>() &&
        it->second.As<ModuleObj>()->name == "warp")
      return it->second;
    if (!wp_module_.IsObj()) wp_module_ = MakeWarpModule(*this);
    return wp_module_;
  }
  if (name == "numpy") {
    auto it = globals_.find("np");
    if (it != globals_.end() && it->second.As<ModuleObj>() &&
        it->second.As<ModuleObj>()->name == "numpy")
      return it->second;
    return MakeNumpyModule();
  }
  if (name == "numpy.random") return GetAttr(ImportModule("numpy"), "random");
  if (name == "math") return MakeMathModule();
  if (auto it = std_modules_.find(name); it != std_modules_.end()) return it->second;
  if (std::optional<Value> m = MakeStdModule(*this, name)) return std_modules_[name] = *m;
  Raise("ModuleNotFoundError", "No module named '" + name + "'");
}

}  // namespace tilec::host
