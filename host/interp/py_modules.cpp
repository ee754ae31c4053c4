// The standard-library modules that Warp's example programs import around their kernels:
// `sys` (argv, exit), `argparse` (their command lines: options with types, defaults, flags,
// --help), `functools.cache`, `os.path`/`os.environ` basics and `time`'s clocks.
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <thread>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "host/interp/args.h"
#include "host/interp/exceptions.h"
#include "host/interp/interpreter.h"
#include "host/interp/py_std_modules.h"
#include "host/interp/py_stdio.h"

namespace tilec::host {

[[noreturn]] void RaiseSystemExit(const Value& code) {
  PyError e("SystemExit", code.IsNone() ? "" : Str(code));
  e.instance = std::make_shared<ExcObj>(ExceptionType("SystemExit"), code.IsNone() ? std::vector<Value>{} : std::vector<Value>{code});
  throw e;
}

int SystemExitCode(const PyError& e, std::ostream& err) {
  std::shared_ptr<ExcObj> v = ExceptionValue(e);
  if (v->args.empty() || v->args[0].IsNone()) return 0;
  const Value& c = v->args[0];
  if (c.IsIntLike()) return int(c.i() & 0xff);
  err << Str(c) << "\n";
  return 1;
}

namespace {

// ---------------------------------------------------------------- argparse

// argparse.Namespace: the parsed options as attributes.
struct NamespaceObj : Object {
  std::string TypeName() const override { return "Namespace"; }
  std::string Repr() const override {
    std::string s = "Namespace(";
    for (size_t k = 0; k < order.size(); ++k)
      s += (k ? ", " : "") + order[k] + "=" + host::Repr(attrs.at(order[k]));
    return s + ")";
  }
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    auto it = attrs.find(name);
    if (it == attrs.end()) return std::nullopt;
    return it->second;
  }
  bool SetAttr(Interpreter&, const std::string& name, const Value& v) override {
    if (!attrs.count(name)) order.push_back(name);
    attrs[name] = v;
    return true;
  }
  std::vector<std::string> order;
  std::map<std::string, Value> attrs;
};

struct ArgSpec {
  std::vector<std::string> flags;  // "-N", "--num-frames"; empty for a positional
  std::string dest;
  Value type;  // a callable, or None for str
  Value def;
  std::string action = "store";  // store, store_true, store_false
  std::string help;
  std::vector<Value> choices;
  bool required = false;
};

struct ParserObj : Object {
  std::string TypeName() const override { return "ArgumentParser"; }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  std::string prog, description;
  std::vector<ArgSpec> specs;

  std::string Usage() const {
    std::string u = "usage: " + prog + " [-h]";
    for (const ArgSpec& s : specs) {
      if (s.flags.empty()) {
        u += " " + s.dest;
        continue;
      }
      std::string meta = s.action == "store" ? " " + Upper(s.dest) : "";
      u += (s.required ? " " : " [") + s.flags[0] + meta + (s.required ? "" : "]");
    }
    return u;
  }
  static std::string Upper(std::string s) {
    for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
  }
  [[noreturn]] void Fail(Interpreter& in, const std::string& message) const {
    in.out().flush();
    std::cerr << Usage() << "\n" << prog << ": error: " << message << "\n";
    RaiseSystemExit(Value::Int(2));
  }
  void Help(Interpreter& in) const {
    std::ostream& o = in.out();
    o << Usage() << "\n\n";
    if (!description.empty()) o << description << "\n\n";
    o << "options:\n  -h, --help            show this help message and exit\n";
    for (const ArgSpec& s : specs) {
      std::string names;
      for (const std::string& f : s.flags) names += (names.empty() ? "" : ", ") + f + (s.action == "store" ? " " + Upper(s.dest) : "");
      if (s.flags.empty()) names = s.dest;
      std::string line = "  " + names;
      line += line.size() < 24 ? std::string(24 - line.size(), ' ') : "\n" + std::string(24, ' ');
      o << line << s.help;
      if (s.action == "store" && !s.def.IsNone()) o << " (default: " << host::Str(s.def) << ")";
      o << "\n";
    }
    o.flush();
    RaiseSystemExit(Value::Int(0));
  }

  // Python's parse_known_args: options in any order, `--opt=value` or `--opt value`,
  // positionals in order; what it does not know goes to `unknown`.
  Value Parse(Interpreter& in, const std::vector<std::string>& argv, std::vector<std::string>* unknown) const {
    auto ns = std::make_shared<NamespaceObj>();
    for (const ArgSpec& s : specs) {
      Value d = s.action == "store_true" ? Value::Bool(false) : s.action == "store_false" ? Value::Bool(true) : s.def;
      if (s.action != "store" && !s.def.IsNone()) d = s.def;
      ns->SetAttr(in, s.dest, d);
    }
    auto convert = [&](const ArgSpec& s, const std::string& text) {
      Value v = MakeStr(text);
      if (!s.type.IsNone()) {
        CallArgs a;
        a.pos.push_back(v);
        try {
          v = in.CallValue(s.type, a);
        } catch (const PyError&) {
          std::string tn = s.type.IsObj() ? host::Str(in.GetAttr(s.type, "__name__")) : "value";
          Fail(in, "argument " + (s.flags.empty() ? s.dest : s.flags[0]) + ": invalid " + tn + " value: '" + text + "'");
        }
      }
      if (!s.choices.empty()) {
        bool ok = false;
        for (const Value& c : s.choices) ok = ok || ValueEquals(c, v);
        if (!ok) Fail(in, "argument " + (s.flags.empty() ? s.dest : s.flags[0]) + ": invalid choice: " + host::Repr(v));
      }
      return v;
    };
    std::vector<bool> seen(specs.size(), false);
    size_t next_positional = 0;
    for (size_t i = 0; i < argv.size(); ++i) {
      const std::string& arg = argv[i];
      if (arg == "-h" || arg == "--help") Help(in);
      if (arg.size() > 1 && arg[0] == '-') {
        std::string name = arg, value;
        bool has_value = false;
        if (auto eq = arg.find('='); eq != std::string::npos) {
          name = arg.substr(0, eq);
          value = arg.substr(eq + 1);
          has_value = true;
        }
        const ArgSpec* spec = nullptr;
        for (size_t k = 0; k < specs.size() && !spec; ++k)
          for (const std::string& f : specs[k].flags)
            if (f == name) {
              spec = &specs[k];
              seen[k] = true;
            }
        if (!spec) {
          if (unknown) unknown->push_back(arg);
          else Fail(in, "unrecognized arguments: " + arg);
          continue;
        }
        if (spec->action != "store") {
          if (has_value) Fail(in, "argument " + name + ": ignored explicit argument '" + value + "'");
          ns->SetAttr(in, spec->dest, Value::Bool(spec->action == "store_true"));
          continue;
        }
        if (!has_value) {
          if (i + 1 >= argv.size()) Fail(in, "argument " + name + ": expected one argument");
          value = argv[++i];
        }
        ns->SetAttr(in, spec->dest, convert(*spec, value));
        continue;
      }
      while (next_positional < specs.size() && !specs[next_positional].flags.empty()) ++next_positional;
      if (next_positional >= specs.size()) {
        if (unknown) unknown->push_back(arg);
        else Fail(in, "unrecognized arguments: " + arg);
        continue;
      }
      seen[next_positional] = true;
      ns->SetAttr(in, specs[next_positional].dest, convert(specs[next_positional], arg));
      ++next_positional;
    }
    std::string missing;
    for (size_t k = 0; k < specs.size(); ++k)
      if (!seen[k] && (specs[k].required || specs[k].flags.empty()))
        missing += (missing.empty() ? "" : ", ") + (specs[k].flags.empty() ? specs[k].dest : specs[k].flags[0]);
    if (!missing.empty()) Fail(in, "the following arguments are required: " + missing);
    return Value(ns);
  }
};

void NativeMethod(std::optional<Value>& out, const std::string& name, NativeFn fn) {
  out = Value(std::make_shared<BuiltinFn>(name, std::move(fn)));
}

std::vector<std::string> ArgvOf(Interpreter& in, const ArgBinder& b, size_t idx) {
  std::vector<std::string> out;
  if (b.Has(idx) && !b.Get(idx).IsNone()) {
    for (const Value& v : IterateValue(in, b.Get(idx))) out.push_back(ToStr(v, "parse_args()"));
    return out;
  }
  const std::vector<std::string>& argv = in.argv();
  for (size_t k = 1; k < argv.size(); ++k) out.push_back(argv[k]);
  return out;
}

std::optional<Value> ParserObj::GetAttr(Interpreter& in, const std::string& name) {
  auto self = std::static_pointer_cast<ParserObj>(shared_from_this());
  std::optional<Value> out;
  if (name == "add_argument") {
    NativeMethod(out, name, [self](Interpreter& in, CallArgs& a) {
      ArgSpec s;
      for (const Value& v : a.pos) s.flags.push_back(ToStr(v, "add_argument()"));
      if (s.flags.empty()) TypeError("add_argument() needs a name or flags");
      for (auto& [k, v] : a.kw) {
        if (k == "type") s.type = v;
        else if (k == "default") s.def = v;
        else if (k == "help") s.help = v.IsNone() ? "" : ToStr(v, "add_argument()");
        else if (k == "action") s.action = ToStr(v, "add_argument()");
        else if (k == "dest") s.dest = ToStr(v, "add_argument()");
        else if (k == "required") s.required = host::Truth(v);
        else if (k == "choices") s.choices = IterateValue(in, v);
        else if (k == "metavar") {
        } else TypeError("add_argument() got an unexpected keyword argument '" + k + "'");
      }
      if (s.action != "store" && s.action != "store_true" && s.action != "store_false")
        ValueError("unknown action \"" + s.action + "\"");
      const bool positional = s.flags[0][0] != '-';
      if (positional) {
        if (s.dest.empty()) s.dest = s.flags[0];
        s.flags.clear();
      } else if (s.dest.empty()) {
        std::string pick = s.flags[0];
        for (const std::string& f : s.flags)
          if (f.rfind("--", 0) == 0) {
            pick = f;
            break;
          }
        pick = pick.substr(pick.find_first_not_of('-'));
        for (char& c : pick)
          if (c == '-') c = '_';
        s.dest = pick;
      }
      self->specs.push_back(s);
      return Value();
    });
  } else if (name == "parse_args") {
    NativeMethod(out, name, [self](Interpreter& in, CallArgs& a) {
      ArgBinder b("parse_args", a, {"args", "namespace"}, 0);
      return self->Parse(in, ArgvOf(in, b, 0), nullptr);
    });
  } else if (name == "parse_known_args") {
    NativeMethod(out, name, [self](Interpreter& in, CallArgs& a) {
      ArgBinder b("parse_known_args", a, {"args", "namespace"}, 0);
      std::vector<std::string> unknown;
      Value ns = self->Parse(in, ArgvOf(in, b, 0), &unknown);
      std::vector<Value> rest;
      for (const std::string& u : unknown) rest.push_back(MakeStr(u));
      return MakeTuple({ns, MakeList(rest)});
    });
  } else if (name == "print_help") {
    NativeMethod(out, name, [self](Interpreter& in, CallArgs&) {
      try {
        self->Help(in);
      } catch (const PyError& e) {
        if (e.type() != "SystemExit") throw;
      }
      return Value();
    });
  } else if (name == "error") {
    NativeMethod(out, name, [self](Interpreter& in, CallArgs& a) -> Value {
      ArgBinder b("error", a, {"message"}, 1);
      self->Fail(in, ToStr(b.Get(0), "error()"));
    });
  } else if (name == "description") {
    out = MakeStr(description);
  }
  return out;
}

Value MakeArgparseModule() {
  auto m = std::make_shared<ModuleObj>("argparse");
  m->Def("ArgumentParser", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("ArgumentParser", a, {"prog", "usage", "description"}, 0, true);
    auto p = std::make_shared<ParserObj>();
    const std::vector<std::string>& argv = in.argv();
    std::string script = argv.empty() ? "tilec" : argv[0];
    p->prog = b.Has(0) && !b.Get(0).IsNone() ? ToStr(b.Get(0), "ArgumentParser()") : script.substr(script.rfind('/') + 1);
    if (b.Has(2) && !b.Get(2).IsNone()) p->description = ToStr(b.Get(2), "ArgumentParser()");
    return Value(p);
  });
  m->Def("Namespace", [](Interpreter& in, CallArgs& a) {
    auto ns = std::make_shared<NamespaceObj>();
    for (auto& [k, v] : a.kw) ns->SetAttr(in, k, v);
    return Value(ns);
  });
  // Formatter classes change only how --help lays out; defaults are always shown here.
  for (const char* f : {"ArgumentDefaultsHelpFormatter", "RawTextHelpFormatter", "RawDescriptionHelpFormatter",
                        "HelpFormatter"})
    m->attrs[f] = MakeStr(f);
  return Value(m);
}

// ---------------------------------------------------------------- functools

// functools.cache: one result per distinct argument list (compared by value).
struct CachedFnObj : Object {
  explicit CachedFnObj(Value fn) : fn(std::move(fn)) {}
  std::string TypeName() const override { return "functools._lru_cache_wrapper"; }
  bool Callable() const override { return true; }
  Value Call(Interpreter& in, CallArgs& args) override {
    std::string key;
    for (const Value& v : args.pos) key += host::Repr(v) + ",";
    for (auto& [k, v] : args.kw) key += k + "=" + host::Repr(v) + ",";
    auto it = memo.find(key);
    if (it != memo.end()) return it->second;
    Value r = in.CallValue(fn, args);
    memo.emplace(key, r);
    return r;
  }
  Value fn;
  std::map<std::string, Value> memo;
};

// functools.partial(f, *args, **kw): calls f with those arguments first.
struct PartialObj : Object {
  std::string TypeName() const override { return "functools.partial"; }
  bool Callable() const override { return true; }
  Value Call(Interpreter& in, CallArgs& args) override {
    CallArgs all;
    all.pos = pos;
    all.pos.insert(all.pos.end(), args.pos.begin(), args.pos.end());
    all.kw = kw;
    for (auto& [k, v] : args.kw) {
      bool replaced = false;
      for (auto& [k0, v0] : all.kw)
        if (k0 == k) v0 = v, replaced = true;
      if (!replaced) all.kw.emplace_back(k, v);
    }
    return in.CallValue(fn, all);
  }
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    if (name == "func") return fn;
    if (name == "args") return MakeTuple(pos);
    return std::nullopt;
  }
  Value fn;
  std::vector<Value> pos;
  std::vector<std::pair<std::string, Value>> kw;
};

Value MakeFunctoolsModule() {
  auto m = std::make_shared<ModuleObj>("functools");
  m->Def("partial", [](Interpreter&, CallArgs& a) {
    if (a.pos.empty()) TypeError("partial() missing required argument 'func'");
    if (!a.pos[0].IsObj() || !a.pos[0].obj()->Callable()) TypeError("the first argument must be callable");
    auto p = std::make_shared<PartialObj>();
    p->fn = a.pos[0];
    p->pos.assign(a.pos.begin() + 1, a.pos.end());
    p->kw = a.kw;
    return Value(p);
  });
  m->Def("cache", [](Interpreter&, CallArgs& a) {
    ArgBinder b("cache", a, {"user_function"}, 1);
    return Value(std::make_shared<CachedFnObj>(b.Get(0)));
  });
  m->Def("lru_cache", [](Interpreter&, CallArgs& a) -> Value {
    // @lru_cache(maxsize=None) and bare @lru_cache: results kept without bound either way.
    if (a.pos.size() == 1 && a.pos[0].IsObj() && a.pos[0].obj()->Callable())
      return Value(std::make_shared<CachedFnObj>(a.pos[0]));
    return Value(std::make_shared<BuiltinFn>("lru_cache", [](Interpreter&, CallArgs& inner) {
      ArgBinder b("lru_cache", inner, {"user_function"}, 1);
      return Value(std::make_shared<CachedFnObj>(b.Get(0)));
    }));
  });
  return Value(m);
}

// ---------------------------------------------------------------- os

Value MakeOsModule() {
  auto os = std::make_shared<ModuleObj>("os");
  auto path = std::make_shared<ModuleObj>("posixpath");
  path->Def("join", [](Interpreter&, CallArgs& a) {
    std::string out;
    for (const Value& v : a.pos) {
      const std::string& p = ToStr(v, "join()");
      if (!p.empty() && p[0] == '/') out = p;
      else if (out.empty() || out.back() == '/') out += p;
      else out += "/" + p;
    }
    return MakeStr(out);
  });
  path->Def("dirname", [](Interpreter&, CallArgs& a) {
    ArgBinder b("dirname", a, {"p"}, 1);
    const std::string& p = ToStr(b.Get(0), "dirname()");
    size_t slash = p.rfind('/');
    if (slash == std::string::npos) return MakeStr("");
    std::string head = p.substr(0, slash + 1);
    while (head.size() > 1 && head.back() == '/') head.pop_back();
    return MakeStr(head);
  });
  path->Def("basename", [](Interpreter&, CallArgs& a) {
    ArgBinder b("basename", a, {"p"}, 1);
    const std::string& p = ToStr(b.Get(0), "basename()");
    return MakeStr(p.substr(p.rfind('/') == std::string::npos ? 0 : p.rfind('/') + 1));
  });
  path->Def("exists", [](Interpreter&, CallArgs& a) {
    ArgBinder b("exists", a, {"path"}, 1);
    struct stat st;
    return Value::Bool(::stat(ToStr(b.Get(0), "exists()").c_str(), &st) == 0);
  });
  os->attrs["path"] = Value(path);
  os->attrs["sep"] = MakeStr("/");
  // os.environ: the process environment as a dict; setting or deleting a key changes the
  // environment of the process (and of the children it starts).
  struct EnvironObj : DictObj {
    std::string TypeName() const override { return "os._Environ"; }
    void SetItem(Interpreter& in, const Value& key, const Value& v) override {
      ::setenv(ToStr(key, "os.environ key").c_str(), ToStr(v, "os.environ value").c_str(), 1);
      DictObj::SetItem(in, key, v);
    }
    bool DelItem(Interpreter& in, const Value& key) override {
      if (!DictObj::DelItem(in, key)) return false;
      ::unsetenv(ToStr(key, "os.environ key").c_str());
      return true;
    }
  };
  auto environ = std::make_shared<EnvironObj>();
  for (char** e = ::environ; e && *e; ++e) {
    std::string kv = *e;
    size_t eq = kv.find('=');
    if (eq != std::string::npos) environ->Put(MakeStr(kv.substr(0, eq)), MakeStr(kv.substr(eq + 1)));
  }
  os->attrs["environ"] = Value(environ);
  os->Def("getenv", [](Interpreter&, CallArgs& a) {
    ArgBinder b("getenv", a, {"key", "default"}, 1);
    const char* v = std::getenv(ToStr(b.Get(0), "getenv()").c_str());
    return v ? MakeStr(v) : b.Get(1, Value());
  });
  return Value(os);
}

}  // namespace

Value MakeSysModule(Interpreter& in) {
  auto m = std::make_shared<ModuleObj>("sys");
  std::vector<Value> argv;
  for (const std::string& a : in.argv()) argv.push_back(MakeStr(a));
  if (argv.empty()) argv.push_back(MakeStr(""));
  m->attrs["argv"] = MakeList(argv);
  m->attrs["platform"] = MakeStr("linux");
  m->attrs["maxsize"] = Value::Int(INT64_MAX);
  // The Python whose semantics the host follows.
  m->attrs["version_info"] = MakeTuple({Value::Int(3), Value::Int(11), Value::Int(2), MakeStr("final"), Value::Int(0)});
  m->attrs["version"] = MakeStr("3.11.2 (tilec host)");
  // The implementation is tilec's own: code that relies on CPython's internals can tell.
  auto impl = std::make_shared<ModuleObj>("namespace");
  impl->attrs["name"] = MakeStr("tilec");
  impl->attrs["version"] = m->attrs["version_info"];
  impl->attrs["cache_tag"] = Value();
  m->attrs["implementation"] = Value(impl);
  InstallStdStreams(*m);
  m->Def("exit", [](Interpreter&, CallArgs& a) -> Value {
    ArgBinder b("exit", a, {"status"}, 0);
    RaiseSystemExit(b.Get(0, Value()));
  });
  return Value(m);
}

// `typing`'s names as annotations use them (`x: Any`, `Literal[2]`): host code only
// carries them; kernels read annotations from their own text.
struct TypingFormObj : Object {
  explicit TypingFormObj(std::string name) : name(std::move(name)) {}
  std::string TypeName() const override { return "typing._SpecialForm"; }
  std::string Repr() const override { return "typing." + name; }
  Value GetItem(Interpreter&, const Value&) override { return Value(shared_from_this()); }
  std::string name;
};

Value MakeTypingModule() {
  auto m = std::make_shared<ModuleObj>("typing");
  for (const char* n : {"Any", "Literal", "Optional", "Union", "List", "Tuple", "Dict", "Callable", "Sequence"})
    m->attrs[n] = Value(std::make_shared<TypingFormObj>(n));
  m->attrs["TYPE_CHECKING"] = Value::Bool(false);
  m->attrs["NamedTuple"] = MakeRecordBase();
  // A type variable is only a name to tilec's host (no static typing to drive).
  m->Def("TypeVar", [](Interpreter&, CallArgs& a) {
    if (a.pos.empty()) TypeError("TypeVar() missing 1 required positional argument: 'name'");
    return Value(std::make_shared<TypingFormObj>(ToStr(a.pos[0], "TypeVar() name")));
  });
  m->attrs["Generic"] = Value(std::make_shared<TypingFormObj>("Generic"));
  for (const char* n : {"get_origin", "get_args", "get_type_hints", "cast", "overload", "ParamSpec", "Protocol"})
    m->attrs[n] = MakeUnprovided(std::string("typing.") + n, "CPython's `typing` module");
  return Value(m);
}

// `gc`: tilec's host frees values by reference counting, so a collection has nothing to do;
// programs call it to make Warp release modules, and toggle it around timing.
Value MakeGcModule() {
  auto m = std::make_shared<ModuleObj>("gc");
  auto enabled = std::make_shared<bool>(true);
  m->Def("collect", [](Interpreter&, CallArgs& a) {
    ArgBinder b("collect", a, {"generation"}, 0);
    return Value::Int(0);
  });
  m->Def("isenabled", [enabled](Interpreter&, CallArgs&) { return Value::Bool(*enabled); });
  m->Def("enable", [enabled](Interpreter&, CallArgs&) { *enabled = true; return Value(); });
  m->Def("disable", [enabled](Interpreter&, CallArgs&) { *enabled = false; return Value(); });
  return Value(m);
}

// `importlib.import_module(name)`: the `import` statement's lookup, by a name known at run time.
Value MakeImportlibModule() {
  auto m = std::make_shared<ModuleObj>("importlib");
  m->Def("import_module", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("import_module", a, {"name", "package"}, 1);
    const std::string& name = ToStr(b.Get(0), "import_module() name");
    if (!name.empty() && name[0] == '.') TypeError("import_module(): relative imports are not supported in host code");
    return in.ImportModule(name);
  });
  return Value(m);
}

// `dataclasses`: the decorator (bare or called with options) and `field`.
Value MakeDataclassesModule() {
  auto m = std::make_shared<ModuleObj>("dataclasses");
  m->Def("dataclass", [](Interpreter&, CallArgs& a) -> Value {
    if (a.pos.size() == 1 && a.kw.empty()) return MakeDataclass(a.pos[0]);
    if (!a.pos.empty()) TypeError("dataclass() takes a class, or keyword options");
    for (const auto& kv : a.kw)
      if (kv.first != "frozen" && kv.first != "eq" && kv.first != "repr" && kv.first != "order")
        TypeError("dataclass() got an unsupported keyword argument '" + kv.first + "'");
    return Value(std::make_shared<BuiltinFn>("dataclass", [](Interpreter&, CallArgs& c) -> Value {
      if (c.pos.size() != 1) TypeError("dataclass() takes one class");
      return MakeDataclass(c.pos[0]);
    }));
  });
  m->Def("field", [](Interpreter&, CallArgs& a) -> Value {
    ArgBinder b("field", a, {"default", "default_factory"}, 0);
    std::optional<Value> d, f;
    if (b.Has(0)) d = b.Get(0);
    if (b.Has(1)) f = b.Get(1);
    if (d && f) ValueError("cannot specify both default and default_factory");
    return MakeFieldSpec(d, f);
  });
  return Value(m);
}

// `subprocess` and `signal`: the names test programs import. tilec's host runs no other
// programs, so starting one raises OSError with that reason.
Value MakeSubprocessModule() {
  auto m = std::make_shared<ModuleObj>("subprocess");
  for (const char* n : {"run", "Popen", "check_output", "check_call", "call"}) {
    std::string name = n;
    m->Def(name, [name](Interpreter&, CallArgs&) -> Value {
      Raise("OSError", "subprocess." + name + "(): tilec runs no other programs");
    });
  }
  m->attrs["PIPE"] = Value::Int(-1);
  m->attrs["STDOUT"] = Value::Int(-2);
  m->attrs["DEVNULL"] = Value::Int(-3);
  return Value(m);
}

Value MakeSignalModule() {
  auto m = std::make_shared<ModuleObj>("signal");
  const std::pair<const char*, int> kSignals[] = {{"SIGINT", 2},  {"SIGILL", 4},  {"SIGTRAP", 5}, {"SIGABRT", 6},
                                                  {"SIGFPE", 8},  {"SIGKILL", 9}, {"SIGSEGV", 11}, {"SIGTERM", 15}};
  for (auto [name, num] : kSignals) m->attrs[name] = Value::Int(num);
  return Value(m);
}

// `time`: the clocks programs time their loops with, and sleep.
Value MakeTimeModule() {
  auto m = std::make_shared<ModuleObj>("time");
  auto seconds = [](auto clock) {
    return double(std::chrono::duration_cast<std::chrono::nanoseconds>(clock.time_since_epoch()).count()) * 1e-9;
  };
  auto nanos = [](auto clock) {
    return int64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(clock.time_since_epoch()).count());
  };
  for (const char* n : {"perf_counter", "monotonic"})
    m->Def(n, [seconds](Interpreter&, CallArgs&) { return Value::Float(seconds(std::chrono::steady_clock::now())); });
  for (const char* n : {"perf_counter_ns", "monotonic_ns"})
    m->Def(n, [nanos](Interpreter&, CallArgs&) { return Value::Int(nanos(std::chrono::steady_clock::now())); });
  m->Def("time", [seconds](Interpreter&, CallArgs&) { return Value::Float(seconds(std::chrono::system_clock::now())); });
  m->Def("time_ns", [nanos](Interpreter&, CallArgs&) { return Value::Int(nanos(std::chrono::system_clock::now())); });
  m->Def("process_time", [](Interpreter&, CallArgs&) { return Value::Float(double(std::clock()) / CLOCKS_PER_SEC); });
  m->Def("sleep", [](Interpreter&, CallArgs& a) {
    ArgBinder b("sleep", a, {"secs"}, 1);
    double secs = ToDouble(b.Get(0), "sleep");
    if (secs < 0) ValueError("sleep length must be non-negative");
    std::this_thread::sleep_for(std::chrono::duration<double>(secs));
    return Value();
  });
  return Value(m);
}

std::optional<Value> MakeStdModule(Interpreter& in, const std::string& name) {
  if (name == "time") return MakeTimeModule();
  if (name == "sys") return MakeSysModule(in);
  if (name == "argparse") return MakeArgparseModule();
  if (name == "functools") return MakeFunctoolsModule();
  if (name == "os") return MakeOsModule();
  if (name == "typing") return MakeTypingModule();
  if (name == "dataclasses") return MakeDataclassesModule();
  if (name == "gc") return MakeGcModule();
  if (name == "importlib") return MakeImportlibModule();
  if (name == "subprocess") return MakeSubprocessModule();
  if (name == "signal") return MakeSignalModule();
  if (name == "unittest") return MakeUnittestModule(in);
  if (name == "io") return MakeIoModule();
  if (name == "contextlib") return MakeContextlibModule();
  if (name == "warnings") return MakeWarningsModule();
  if (name == "re") return MakeReModule();
  if (name == "tempfile") return MakeTempfileModule();
  if (name == "pathlib") return MakePathlibModule();
  if (name == "unittest.mock") return MakeMockModule();
  if (name == "itertools") return MakeItertoolsModule();
  if (std::optional<Value> m = MakeCPythonOnlyModule(in, name)) return m;
  if (name == "warp.tests.unittest_utils") return MakeWarpTestUtilsModule(in);
  if (name == "os.path") return in.GetAttr(MakeStdModule(in, "os").value(), "path");
  return std::nullopt;
}

}  // namespace tilec::host
