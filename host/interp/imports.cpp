// Imports in host code: `import m`, `import m.sub as x`, `from m import a, b` and
// `from m import *`. Modules are the interpreter's own (np, wp, math and the standard-library
// subset of py_modules.cpp) or Python files found as CPython finds them: beside the program,
// then along PYTHONPATH. Each is made once per session.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "host/interp/errors.h"
#include "host/interp/interpreter.h"
#include "host/interp/py_std_modules.h"

#include "module_text.inc"

namespace tilec::host {

namespace fs = std::filesystem;

namespace {

// Where CPython's sys.path would look: the program's directory, then PYTHONPATH's entries.
std::vector<fs::path> SearchRoots(const std::vector<std::string>& argv) {
  std::vector<fs::path> roots;
  if (!argv.empty() && !argv[0].empty() && argv[0] != "-c") {
    fs::path dir = fs::path(argv[0]).parent_path();
    roots.push_back(dir.empty() ? fs::path(".") : dir);
  } else {
    roots.push_back(".");
  }
  if (const char* env = std::getenv("PYTHONPATH")) {
    std::string all = env;
    for (size_t at = 0; at <= all.size();) {
      size_t end = all.find(':', at);
      if (end == std::string::npos) end = all.size();
      if (end > at) roots.push_back(all.substr(at, end - at));
      at = end + 1;
    }
  }
  return roots;
}

}  // namespace

// `a.b.c` as `a/b/c.py` or the package `a/b/c/` (its `__init__.py` run when there is one).
std::optional<Value> Interpreter::ImportModuleFile(const std::string& name) {
  std::string rel = name;
  for (char& c : rel)
    if (c == '.') c = '/';
  for (const fs::path& root : SearchRoots(argv_)) {
    std::error_code ec;
    fs::path file = root / (rel + ".py");
    const bool package = !fs::is_regular_file(file, ec) && fs::is_directory(root / rel, ec);
    if (package) file = root / rel / "__init__.py";
    if (!fs::is_regular_file(file, ec)) {
      if (!package) continue;
      return Value(std::make_shared<ModuleObj>(name));  // a namespace package
    }
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return RunModuleSource(name, file.string(), text.str());
  }
  return std::nullopt;
}

Value Interpreter::RunModuleSource(const std::string& name, const std::string& path, const std::string& text) {
  std::string diagnostics;
  ChunkRef chunk = Parse(path, text, 1, 1, &diagnostics);
  if (!chunk) {
    PyError e("SyntaxError", "invalid syntax in module '" + name + "' (" + path + ")");
    e.diagnostics = diagnostics;
    throw e;
  }
  // The module runs in an interpreter of its own: its globals are its namespace, its
  // functions run there when called from here, and its kernels are a Warp module of their own.
  auto sub = std::make_unique<Interpreter>(*out_, /*prelude=*/false);
  sub->set_argv(argv_);
  sub->globals_["__name__"] = MakeStr(name);
  sub->globals_["__file__"] = MakeStr(path);
  Interpreter& home = *sub;
  module_interpreters_.push_back(std::move(sub));
  home.RunChunk(chunk);
  auto m = std::make_shared<ModuleObj>(name);
  m->attrs = home.globals_;
  return Value(m);
}

void Interpreter::ExecImport(const ast::Import& s) {
  for (const auto& n : s.names) {
    Value mod = ImportModule(n.name);
    // A submodule becomes an attribute of its package (`import warp.optim`, then `warp.optim`).
    if (size_t last = n.name.rfind('.'); last != std::string::npos)
      if (auto* parent = ImportModule(n.name.substr(0, last)).As<ModuleObj>())
        if (!parent->attrs.count(n.name.substr(last + 1))) parent->attrs[n.name.substr(last + 1)] = mod;
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
    // `from package import module`: a submodule that is not yet an attribute is imported.
    if (!v && mod.As<ModuleObj>()) {
      const std::string sub = s.module + "." + n.name;
      if (auto it = std_modules_.find(sub); it != std_modules_.end()) v = it->second;
      else if (std::optional<Value> f = ImportModuleFile(sub)) v = std_modules_[sub] = *f;
    }
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
  // Warp's implementation modules are answered by `wp._src` (wp_compat.cpp), never by running
  // Warp's own files.
  if (name.rfind("warp._src", 0) == 0 && (name.size() == 9 || name[9] == '.')) {
    Value v = ImportModule("warp");
    for (size_t s = 5, e; s < name.size(); s = e + 1) {
      e = name.find('.', s);
      if (e == std::string::npos) e = name.size();
      v = GetAttr(v, name.substr(s, e - s));
    }
    return v;
  }
  if (name.rfind("warp.", 0) == 0 && name.find('.', 5) == std::string::npos) {
    // `import warp.types`: the `wp` member; Warp's packages tilec does not have import as
    // placeholders (its own files are not run).
    const std::string sub = name.substr(5);
    if (std::optional<Value> v = ImportModule("warp").obj()->GetAttr(*this, sub); v && v->As<ModuleObj>()) return *v;
    for (const char* lacking : {"fem", "sparse", "render", "sim", "autograd", "geometry", "jax_experimental",
                                "torch", "paddle", "dlpack"})
      if (sub == lacking)
        return std_modules_[name] = Value(std::make_shared<UnprovidedModule>(name, "Warp's `" + name + "` package"));
  }
  if (name == "math") return MakeMathModule();
  if (auto it = std_modules_.find(name); it != std_modules_.end()) return it->second;
  if (name == "warp.optim") return std_modules_[name] = RunModuleSource(name, "<warp.optim>", kWarpOptimText);
  if (std::optional<Value> m = MakeStdModule(*this, name)) return std_modules_[name] = *m;
  if (std::optional<Value> m = ImportModuleFile(name)) return std_modules_[name] = *m;
  Raise("ModuleNotFoundError", "No module named '" + name + "'");
}

}  // namespace tilec::host
