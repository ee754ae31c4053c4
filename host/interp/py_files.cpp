// `tempfile` (temporary directories) and `pathlib.Path`: the file-system paths that host
// programs build, test and clean up around their kernels (cache and output directories).
#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "host/interp/args.h"
#include "host/interp/exceptions.h"
#include "host/interp/interpreter.h"
#include "host/interp/py_std_modules.h"

namespace tilec::host {
namespace fs = std::filesystem;
namespace {

[[noreturn]] void RaiseOs(const std::string& type, const std::error_code& ec, const std::string& path) {
  Raise(type, "[Errno " + std::to_string(ec.value()) + "] " + ec.message() + ": " + StrRepr(path));
}

std::string TempDir() {
  for (const char* var : {"TMPDIR", "TEMP", "TMP"})
    if (const char* d = std::getenv(var); d && *d && fs::is_directory(d)) return d;
  return "/tmp";
}

std::string MakeTempDir(const Value& suffix, const Value& prefix, const Value& dir) {
  std::string base = dir.IsNone() ? TempDir() : Str(dir);
  std::string templ = base + "/" + (prefix.IsNone() ? "tmp" : ToStr(prefix, "prefix")) + "XXXXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data())) RaiseOs("FileNotFoundError", std::error_code(errno, std::generic_category()), base);
  std::string path = buf.data();
  if (!suffix.IsNone()) {
    std::string with = path + ToStr(suffix, "suffix");
    fs::rename(path, with);
    path = with;
  }
  return path;
}

// tempfile.TemporaryDirectory: made at once, removed with its contents when the `with` block
// ends or cleanup() is called.
struct TempDirObj : Object {
  std::string TypeName() const override { return "tempfile.TemporaryDirectory"; }
  std::string Repr() const override { return "<TemporaryDirectory " + StrRepr(name) + ">"; }
  std::optional<Value> Enter(Interpreter&) override { return MakeStr(name); }
  void Exit(Interpreter&) override { Cleanup(); }
  void Cleanup() {
    if (removed) return;
    std::error_code ec;
    fs::remove_all(name, ec);
    removed = true;
  }
  std::optional<Value> GetAttr(Interpreter&, const std::string& attr) override {
    if (attr == "name") return MakeStr(name);
    if (attr == "cleanup") {
      auto self = std::static_pointer_cast<TempDirObj>(shared_from_this());
      return Value(std::make_shared<BuiltinFn>("cleanup", [self](Interpreter&, CallArgs& a) {
        ArgBinder b("cleanup", a, {}, 0);
        self->Cleanup();
        return Value();
      }));
    }
    return std::nullopt;
  }
  std::string name;
  bool removed = false;
};

struct PathObj : Object {
  explicit PathObj(fs::path p) : p(std::move(p)) {}
  std::string TypeName() const override { return "PosixPath"; }
  std::string Repr() const override { return "PosixPath(" + StrRepr(Str()) + ")"; }
  std::string Str() const override {
    std::string s = p.lexically_normal().string();
    if (s.size() > 1 && s.back() == '/') s.pop_back();
    return s.empty() ? "." : s;
  }
  std::optional<Value> BinOp(Interpreter&, ast::BinaryOp op, const Value& other, bool reflected) override;
  std::optional<Value> CmpOp(Interpreter&, ast::CmpOp op, const Value& other, bool) override {
    auto* o = other.As<PathObj>();
    if (!o || (op != ast::CmpOp::Eq && op != ast::CmpOp::NotEq)) return std::nullopt;
    bool eq = o->Str() == Str();
    return Value::Bool(op == ast::CmpOp::Eq ? eq : !eq);
  }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  fs::path p;
};

Value MakePath(fs::path p) { return Value(std::make_shared<PathObj>(std::move(p))); }

fs::path ToPath(const Value& v, const std::string& what) {
  if (auto* p = v.As<PathObj>()) return p->p;
  if (auto* s = v.As<StrObj>()) return fs::path(s->s);
  TypeError(what + " should be str or a path, not '" + TypeName(v) + "'");
}

std::optional<Value> PathObj::BinOp(Interpreter&, ast::BinaryOp op, const Value& other, bool reflected) {
  if (op != ast::BinaryOp::Div || !(other.As<PathObj>() || other.As<StrObj>())) return std::nullopt;
  fs::path o = ToPath(other, "argument");
  return MakePath(reflected ? o / p : p / o);
}

// Entries of `dir` whose names match `pattern` (fnmatch's rules); `**` matches `dir` and every
// directory below it, as pathlib's glob does.
void Glob(const fs::path& dir, const std::vector<std::string>& parts, size_t k, std::vector<fs::path>& out) {
  if (k == parts.size()) {
    out.push_back(dir);
    return;
  }
  std::error_code ec;
  if (parts[k] == "**") {
    Glob(dir, parts, k + 1, out);
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->is_directory(ec)) Glob(it->path(), parts, k + 1, out);
    return;
  }
  std::vector<fs::path> found;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    if (::fnmatch(parts[k].c_str(), it->path().filename().c_str(), 0) == 0 &&
        (k + 1 == parts.size() || it->is_directory(ec)))
      found.push_back(it->path());
  std::sort(found.begin(), found.end());
  for (const fs::path& f : found) Glob(f, parts, k + 1, out);
}

std::optional<Value> PathObj::GetAttr(Interpreter&, const std::string& name) {
  auto self = std::static_pointer_cast<PathObj>(shared_from_this());
  auto def = [&](std::vector<std::string> params, size_t required, auto body) {
    return Value(std::make_shared<BuiltinFn>(name, [self, name, params, required, body](Interpreter&, CallArgs& a) {
      ArgBinder b(name, a, params, required);
      return body(*self, b);
    }));
  };
  const std::string s = Str();
  if (name == "name") return MakeStr(p.filename().string());
  if (name == "stem") return MakeStr(p.stem().string());
  if (name == "suffix") return MakeStr(p.extension().string());
  if (name == "parent") {
    fs::path parent = fs::path(s).parent_path();
    return MakePath(parent.empty() ? fs::path(".") : parent);
  }
  if (name == "parts") {
    std::vector<Value> parts;
    for (const fs::path& e : fs::path(s)) parts.push_back(MakeStr(e.string()));
    return MakeTuple(parts);
  }
  if (name == "exists") return def({}, 0, [](PathObj& f, ArgBinder&) { return Value::Bool(fs::exists(f.p)); });
  if (name == "is_dir") return def({}, 0, [](PathObj& f, ArgBinder&) { return Value::Bool(fs::is_directory(f.p)); });
  if (name == "is_file") return def({}, 0, [](PathObj& f, ArgBinder&) { return Value::Bool(fs::is_regular_file(f.p)); });
  if (name == "is_absolute") return def({}, 0, [](PathObj& f, ArgBinder&) { return Value::Bool(f.p.is_absolute()); });
  if (name == "as_posix") return def({}, 0, [](PathObj& f, ArgBinder&) { return MakeStr(f.Str()); });
  if (name == "absolute" || name == "resolve")
    return def({"strict"}, 0, [](PathObj& f, ArgBinder&) {
      std::error_code ec;
      fs::path a = fs::weakly_canonical(fs::absolute(f.p), ec);
      return MakePath(ec ? fs::absolute(f.p) : a);
    });
  if (name == "joinpath")
    return Value(std::make_shared<BuiltinFn>(name, [self](Interpreter&, CallArgs& a) {
      if (!a.kw.empty()) TypeError("joinpath() takes no keyword arguments");
      fs::path r = self->p;
      for (const Value& v : a.pos) r /= ToPath(v, "argument");
      return MakePath(r);
    }));
  if (name == "with_suffix")
    return def({"suffix"}, 1, [](PathObj& f, ArgBinder& b) {
      fs::path r = f.p;
      return MakePath(r.replace_extension(ToStr(b.Get(0), "suffix")));
    });
  if (name == "with_name")
    return def({"name"}, 1, [](PathObj& f, ArgBinder& b) {
      fs::path r = f.p;
      return MakePath(r.replace_filename(ToStr(b.Get(0), "name")));
    });
  if (name == "mkdir")
    return def({"mode", "parents", "exist_ok"}, 0, [](PathObj& f, ArgBinder& b) {
      const bool parents = b.Has(1) && host::Truth(b.Get(1)), exist_ok = b.Has(2) && host::Truth(b.Get(2));
      std::error_code ec;
      if (fs::exists(f.p)) {
        if (!exist_ok || !fs::is_directory(f.p)) RaiseOs("FileExistsError", std::make_error_code(std::errc::file_exists), f.Str());
        return Value();
      }
      if (parents) fs::create_directories(f.p, ec);
      else fs::create_directory(f.p, ec);
      if (ec) RaiseOs(ec == std::errc::no_such_file_or_directory ? "FileNotFoundError" : "OSError", ec, f.Str());
      return Value();
    });
  if (name == "read_text")
    return def({"encoding", "errors"}, 0, [](PathObj& f, ArgBinder&) {
      std::ifstream in(f.p, std::ios::binary);
      if (!in) {
        std::error_code ec(errno, std::generic_category());
        RaiseOs(fs::is_directory(f.p) ? "IsADirectoryError" : "FileNotFoundError", ec, f.Str());
      }
      std::ostringstream ss;
      ss << in.rdbuf();
      return MakeStr(ss.str());
    });
  if (name == "write_text")
    return def({"data", "encoding", "errors", "newline"}, 1, [](PathObj& f, ArgBinder& b) {
      const std::string& data = ToStr(b.Get(0), "data must be str, not " + host::TypeName(b.Get(0)));
      std::ofstream out(f.p, std::ios::binary | std::ios::trunc);
      if (!out) RaiseOs("FileNotFoundError", std::error_code(errno, std::generic_category()), f.Str());
      out << data;
      return Value::Int(int64_t(data.size()));
    });
  if (name == "unlink")
    return def({"missing_ok"}, 0, [](PathObj& f, ArgBinder& b) {
      std::error_code ec;
      if (!fs::remove(f.p, ec) && !(b.Has(0) && host::Truth(b.Get(0))))
        RaiseOs("FileNotFoundError", ec ? ec : std::make_error_code(std::errc::no_such_file_or_directory), f.Str());
      return Value();
    });
  if (name == "rmdir")
    return def({}, 0, [](PathObj& f, ArgBinder&) {
      std::error_code ec;
      if (!fs::is_directory(f.p)) RaiseOs("FileNotFoundError", std::make_error_code(std::errc::no_such_file_or_directory), f.Str());
      fs::remove(f.p, ec);
      if (ec) RaiseOs("OSError", ec, f.Str());
      return Value();
    });
  if (name == "iterdir")
    return def({}, 0, [](PathObj& f, ArgBinder&) {
      std::error_code ec;
      std::vector<fs::path> found;
      for (auto it = fs::directory_iterator(f.p, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
        found.push_back(it->path());
      if (ec) RaiseOs("FileNotFoundError", ec, f.Str());
      std::sort(found.begin(), found.end());
      std::vector<Value> out;
      for (const fs::path& e : found) out.push_back(MakePath(e));
      return MakeIterator(std::move(out), "generator");
    });
  if (name == "glob" || name == "rglob") {
    const bool recursive = name == "rglob";
    return def({"pattern"}, 1, [recursive](PathObj& f, ArgBinder& b) {
      const std::string& pattern = ToStr(b.Get(0), "pattern");
      if (pattern.empty()) ValueError("Unacceptable pattern: ''");
      if (pattern[0] == '/') Raise("NotImplementedError", "Non-relative patterns are unsupported");
      std::vector<std::string> parts = recursive ? std::vector<std::string>{"**"} : std::vector<std::string>{};
      std::stringstream ss(pattern);
      for (std::string part; std::getline(ss, part, '/');)
        if (!part.empty()) parts.push_back(part);
      std::vector<fs::path> found;
      Glob(f.p, parts, 0, found);
      std::vector<Value> out;
      for (const fs::path& e : found) out.push_back(MakePath(e));
      return MakeIterator(std::move(out), "generator");
    });
  }
  return std::nullopt;
}

// `Path(...)` and the class's own functions (Path.cwd(), Path.home()).
struct PathTypeObj : PyTypeObj {
  using PyTypeObj::PyTypeObj;
  std::optional<Value> GetAttr(Interpreter& in, const std::string& attr) override {
    if (attr == "cwd")
      return Value(std::make_shared<BuiltinFn>("cwd", [](Interpreter&, CallArgs& a) {
        ArgBinder b("cwd", a, {}, 0);
        return MakePath(fs::current_path());
      }));
    if (attr == "home")
      return Value(std::make_shared<BuiltinFn>("home", [](Interpreter&, CallArgs& a) {
        ArgBinder b("home", a, {}, 0);
        const char* h = std::getenv("HOME");
        return MakePath(h ? h : "/");
      }));
    return PyTypeObj::GetAttr(in, attr);
  }
};

}  // namespace

Value MakeTempfileModule() {
  auto m = std::make_shared<ModuleObj>("tempfile");
  m->Def("gettempdir", [](Interpreter&, CallArgs& a) {
    ArgBinder b("gettempdir", a, {}, 0);
    return MakeStr(TempDir());
  });
  m->Def("mkdtemp", [](Interpreter&, CallArgs& a) {
    ArgBinder b("mkdtemp", a, {"suffix", "prefix", "dir"}, 0);
    return MakeStr(MakeTempDir(b.Get(0, Value()), b.Get(1, Value()), b.Get(2, Value())));
  });
  m->Def("TemporaryDirectory", [](Interpreter&, CallArgs& a) {
    ArgBinder b("TemporaryDirectory", a, {"suffix", "prefix", "dir", "ignore_cleanup_errors"}, 0);
    auto d = std::make_shared<TempDirObj>();
    d->name = MakeTempDir(b.Get(0, Value()), b.Get(1, Value()), b.Get(2, Value()));
    return Value(d);
  });
  return Value(m);
}

Value MakePathlibModule() {
  auto m = std::make_shared<ModuleObj>("pathlib");
  auto make = [](Interpreter&, CallArgs& a) {
    if (!a.kw.empty()) TypeError("Path() takes no keyword arguments");
    fs::path p;
    for (const Value& v : a.pos) p /= ToPath(v, "argument");
    return MakePath(p.empty() ? fs::path(".") : p);
  };
  m->attrs["Path"] = Value(std::make_shared<PathTypeObj>("Path", make));
  m->attrs["PosixPath"] = Value(std::make_shared<PathTypeObj>("PosixPath", make));
  return Value(m);
}

}  // namespace tilec::host
