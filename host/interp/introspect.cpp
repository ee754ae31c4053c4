// Looking at a session from inside it: `dir(x)`, `help(x)`, the kernel builtins as members of
// `wp` (so that `help(wp.tile_load)` and Tab completion find them), and the candidate list the
// REPL's Tab completion offers for a partial name or dotted attribute.
#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "frontend/sema/builtins.h"
#include "host/interp/args.h"
#include "host/interp/interpreter.h"
#include "host/interp/wp_composite.h"
#include "host/interp/wp_values.h"

namespace tilec::host {

namespace {

// Attribute names an object may answer. Objects look their attributes up by name and do not
// list them, so dir() of a non-module asks each of these and keeps those that exist.
constexpr const char* kAttrCandidates[] = {
    // str
    "capitalize", "center", "count", "endswith", "find", "format", "index", "isalnum",
    "isalpha", "isdigit", "islower", "isspace", "istitle", "isupper", "join", "ljust", "lower",
    "lstrip", "partition", "removeprefix", "removesuffix", "replace", "rfind", "rindex", "rjust",
    "rpartition", "rsplit", "rstrip", "split", "splitlines", "startswith", "strip", "swapcase",
    "title", "upper", "zfill",
    // list, dict, set
    "append", "clear", "copy", "extend", "insert", "pop", "remove", "reverse", "sort", "get",
    "items", "keys", "values", "update", "setdefault", "add", "discard", "difference",
    "intersection", "issubset", "issuperset", "symmetric_difference", "union",
    // ndarray, wp.array, scalars, dtypes
    "T", "all", "any", "argmax", "argmin", "argsort", "assign", "astype", "clip", "contiguous",
    "cumsum", "device", "dtype", "fill", "fill_", "flatten", "grad", "is_contiguous", "item",
    "itemsize", "list", "max", "mean", "min", "ndim", "numpy", "prod", "ptr", "ravel", "requires_grad",
    "reshape", "round", "shape", "size", "std", "strides", "sum", "to", "tolist", "transpose",
    "var", "zero_", "name",
    "__name__",
    // devices, tapes, timers, exceptions
    "alias", "is_cpu", "is_cuda", "ordinal", "backward", "gradients", "reset", "zero",
    "elapsed", "args",
};

std::vector<std::string> ModuleNames(const ModuleObj& m) {
  std::vector<std::string> names;
  for (auto& kv : m.attrs) names.push_back(kv.first);
  return names;
}

}  // namespace

// A kernel-side builtin seen from host code: it can be named (help, completion, passing it
// around) but only kernels can call it.
struct KernelBuiltinObj : Object {
  explicit KernelBuiltinObj(const sema::Builtin* b) : builtin(b) {}
  std::string TypeName() const override { return "warp.builtin"; }
  std::string Repr() const override { return "<kernel builtin " + builtin->Spelling() + ">"; }
  bool Callable() const override { return true; }
  Value Call(Interpreter& in, CallArgs& args) override {
    // Over host vec/mat/quat values (`wp.abs(v)`, `wp.min(a, b)`), the call runs as a kernel.
    const auto& host = HostCallableBuiltinNames();
    if (AnyComposite(args) || std::find(host.begin(), host.end(), builtin->name) != host.end())
      return HostBuiltinCall(in, builtin->name, args);
    TypeError("`" + builtin->Spelling() +
              "` is a kernel builtin: call it from a @wp.kernel or @wp.func function");
  }
  const sema::Builtin* builtin;
};

void AddKernelBuiltins(ModuleObj& wp) {
  for (const sema::Builtin& b : sema::BuiltinTable()) {
    if (std::string(b.ns) != "wp" || b.test_only) continue;
    if (!wp.attrs.count(b.name)) wp.attrs[b.name] = Value(std::make_shared<KernelBuiltinObj>(&b));
  }
}

std::vector<std::string> AttributeNames(Interpreter& in, const Value& v) {
  std::vector<std::string> names;
  if (auto* m = v.As<ModuleObj>()) {
    names = ModuleNames(*m);
  } else if (v.IsObj()) {
    for (const char* c : kAttrCandidates) {
      try {
        if (v.obj()->GetAttr(in, c)) names.push_back(c);
      } catch (const std::exception&) {
        // An attribute that exists but cannot be computed for this object still exists.
        names.push_back(c);
      }
    }
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

namespace {

// The `.. function::` line and first sentence of a builtin's page, when the source tree's docs
// folder is at hand; nullopt otherwise (an installed tilec has no pages).
bool PageEntry(const sema::Builtin& b, std::string& signature, std::string& summary) {
#ifdef TILEC_SOURCE_DIR
  std::string doc = b.doc;
  if (doc.empty()) return false;
  std::ifstream page(std::string(TILEC_SOURCE_DIR) + "/" + doc);
  if (!page) return false;
  std::string line, marker = ".. function:: " + std::string(b.name) + "(";
  bool found = false, in_options = false;
  while (std::getline(page, line)) {
    size_t at = line.find(marker);
    if (!found) {
      if (at == std::string::npos) continue;
      found = true;
      signature = line.substr(at + 14);
      continue;
    }
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos) {
      in_options = false;
      continue;
    }
    std::string t = line.substr(first);
    if (t.rfind("..", 0) == 0) {
      in_options = true;
      continue;
    }
    if (in_options || t[0] == ':') continue;
    // The paragraph's first sentence, which may run over several lines.
    summary = t;
    while (summary.find(". ") == std::string::npos && std::getline(page, line)) {
      size_t f = line.find_first_not_of(" \t");
      if (f == std::string::npos) break;
      summary += " " + line.substr(f);
    }
    if (size_t stop = summary.find(". "); stop != std::string::npos) summary = summary.substr(0, stop + 1);
    return true;
  }
  return found;
#else
  (void)b, (void)signature, (void)summary;
  return false;
#endif
}

std::string TableSignature(const sema::Builtin& b, const sema::Overload& o) {
  std::string s = b.name + std::string("(");
  for (size_t k = 0; k < o.params.size(); ++k) {
    const sema::ParamSpec& p = o.params[k];
    if (k) s += ", ";
    s += p.name;
    switch (p.def) {
      case sema::DefaultKind::Required: break;
      case sema::DefaultKind::Int: s += "=" + std::to_string(p.def_int); break;
      case sema::DefaultKind::String: s += std::string("=\"") + (p.def_str ? p.def_str : "") + "\""; break;
      case sema::DefaultKind::DType: s += "=wp." + std::string(ScalarName(p.def_dtype)); break;
      case sema::DefaultKind::ZeroOffset: s += "=(0, ...)"; break;
    }
  }
  if (o.variadic || o.extras_any) s += ", ...";
  return s + ")";
}

std::string HelpText(Interpreter& in, const Value& v) {
  std::ostringstream os;
  if (auto* k = v.As<KernelBuiltinObj>()) {
    const sema::Builtin& b = *k->builtin;
    std::string signature, summary;
    bool page = PageEntry(b, signature, summary);
    os << "Help on kernel builtin " << b.Spelling() << ":\n\n";
    if (page && !signature.empty()) {
      os << signature << "\n";
    } else {
      std::set<std::string> seen;
      for (const auto& o : b.overloads)
        if (seen.insert(TableSignature(b, o)).second) os << TableSignature(b, o) << "\n";
    }
    if (!summary.empty()) os << "    " << summary << "\n";
    os << "    Kernel-side only" << (b.tile_op ? "; cooperative (a kernel using it is tiled)" : "");
    if (b.diff == sema::Differentiable::Yes) os << "; differentiable";
    os << ".\n";
    if (*b.doc) os << "    Documentation: " << b.doc << "\n";
    return os.str();
  }
  if (auto* f = v.As<FunctionObj>()) {
    os << "Help on function " << f->def->name << ":\n\n" << f->def->name << "(";
    bool star = false;
    for (size_t k = 0; k < f->def->params.size(); ++k) {
      const ast::Param& p = f->def->params[k];
      os << (k ? ", " : "");
      if (p.kind == ast::ParamKind::KeywordOnly && !star) os << "*, ";
      star |= p.kind == ast::ParamKind::KeywordOnly || p.kind == ast::ParamKind::VarArgs;
      os << (p.kind == ast::ParamKind::VarArgs ? "*" : p.kind == ast::ParamKind::VarKeywords ? "**" : "") << p.name
         << (f->has_default[k] ? "=" + Repr(f->defaults[k]) : "");
    }
    os << ")\n";
    if (!f->def->body.empty())
      if (auto* e = f->def->body[0]->As<ast::ExprStmt>())
        if (auto* s = e->value->As<ast::StrLit>()) {
          std::string first = s->value.substr(0, s->value.find('\n'));
          os << "    " << first << "\n";
        }
    return os.str();
  }
  if (auto* k = v.As<KernelObj>(); k && !k->compile_error && !k->generic) {
    os << "Help on kernel " << k->name << ":\n\n" << k->name << "(";
    const auto& params = k->kernel.signature().params;
    for (size_t i = 0; i < params.size(); ++i) os << (i ? ", " : "") << params[i].name;
    os << ")\n    A @wp.kernel; run it with wp.launch"
       << (k->kernel.signature().tiled ? "_tiled(..., block_dim=...)" : "(...)") << ".\n";
    return os.str();
  }
  if (auto* m = v.As<ModuleObj>()) {
    os << "Help on module " << m->name << ":\n\nNAMES\n";
    std::string line = "   ";
    for (const std::string& n : ModuleNames(*m)) {
      if (line.size() + n.size() + 1 > 78) {
        os << line << "\n";
        line = "   ";
      }
      line += " " + n;
    }
    os << line << "\n";
    return os.str();
  }
  if (auto* b = v.As<BuiltinFn>()) {
    os << "Help on built-in " << (v.As<PyTypeObj>() ? "class " : "function ") << b->name << ":\n\n"
       << b->name << "(...)\n";
    return os.str();
  }
  os << "Help on " << TypeName(v) << " object:\n\n" << Repr(v) << "\n";
  std::vector<std::string> names = AttributeNames(in, v);
  if (!names.empty()) {
    os << "Attributes:";
    for (const auto& n : names) os << " " << n;
    os << "\n";
  }
  return os.str();
}

}  // namespace

void InstallIntrospection(std::map<std::string, Value>& table) {
  table["dir"] = Value(std::make_shared<BuiltinFn>("dir", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("dir", a, {"object"}, 0);
    std::vector<std::string> names;
    if (b.Has(0)) {
      names = AttributeNames(in, b.Get(0));
    } else {
      for (auto& kv : in.globals()) names.push_back(kv.first);
    }
    std::vector<Value> items;
    for (auto& n : names) items.push_back(MakeStr(n));
    return MakeList(std::move(items));
  }));
  table["getattr"] = Value(std::make_shared<BuiltinFn>("getattr", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("getattr", a, {"object", "name", "default"}, 2);
    std::string name = ToStr(b.Get(1), "getattr(): attribute name");
    if (b.Has(2)) {
      try {
        return in.GetAttr(b.Get(0), name);
      } catch (const PyError& e) {
        if (e.type() != "AttributeError") throw;
        return b.Get(2);
      }
    }
    return in.GetAttr(b.Get(0), name);
  }));
  table["setattr"] = Value(std::make_shared<BuiltinFn>("setattr", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("setattr", a, {"obj", "name", "value"}, 3);
    const std::string& name = ToStr(b.Get(1), "setattr(): attribute name");
    const Value& obj = b.Get(0);
    if (!obj.IsObj() || !obj.obj()->SetAttr(in, name, b.Get(2)))
      AttributeError("'" + TypeName(obj) + "' object has no attribute '" + name + "'");
    return Value();
  }));
  table["hasattr"] = Value(std::make_shared<BuiltinFn>("hasattr", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("hasattr", a, {"object", "name"}, 2);
    std::string name = ToStr(b.Get(1), "hasattr(): attribute name");
    try {
      in.GetAttr(b.Get(0), name);
      return Value::Bool(true);
    } catch (const PyError& e) {
      if (e.type() != "AttributeError") throw;
      return Value::Bool(false);
    }
  }));
  table["help"] = Value(std::make_shared<BuiltinFn>("help", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("help", a, {"request"}, 0);
    if (!b.Has(0)) {
      in.out() << "Call help(x) for a function, kernel builtin (help(wp.tile_load)), kernel or\n"
                  "module; dir(x) lists an object's attributes. In the REPL, :help lists its commands.\n";
    } else {
      in.out() << HelpText(in, b.Get(0));
    }
    in.out().flush();
    return Value();
  }));
}

std::vector<std::string> CompletionCandidates(Interpreter& in, const std::string& text) {
  std::vector<std::string> out;
  size_t dot = text.rfind('.');
  if (dot == std::string::npos) {
    static const char* kKeywords[] = {
        "and", "as", "assert", "break", "class", "continue", "def", "del", "elif", "else",
        "except", "finally", "for", "from", "if", "import", "in", "is", "lambda", "not", "or",
        "pass", "raise", "return", "try", "while", "with", "None", "True", "False"};
    std::set<std::string> names(std::begin(kKeywords), std::end(kKeywords));
    for (auto& kv : in.globals()) names.insert(kv.first);
    for (auto& kv : in.builtins()) names.insert(kv.first);
    for (const auto& n : names)
      if (n.compare(0, text.size(), text) == 0) out.push_back(n);
    return out;
  }
  // Resolve the dotted prefix by names and attributes only: completion never calls anything.
  std::string head = text.substr(0, dot), prefix = text.substr(dot + 1);
  std::vector<std::string> parts;
  std::stringstream ss(head);
  for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
  if (parts.empty()) return out;
  Value cur;
  auto& g = in.globals();
  if (auto it = g.find(parts[0]); it != g.end()) cur = it->second;
  else if (auto jt = in.builtins().find(parts[0]); jt != in.builtins().end()) cur = jt->second;
  else return out;
  for (size_t k = 1; k < parts.size(); ++k) {
    if (!cur.IsObj()) return out;
    try {
      auto v = cur.obj()->GetAttr(in, parts[k]);
      if (!v) return out;
      cur = *v;
    } catch (const std::exception&) {
      return out;
    }
  }
  for (const std::string& n : AttributeNames(in, cur)) {
    if (n.compare(0, prefix.size(), prefix) != 0) continue;
    // Private names only when asked for, as Python's completer does.
    if (n[0] == '_' && (prefix.empty() || prefix[0] != '_')) continue;
    out.push_back(head + "." + n);
  }
  return out;
}

}  // namespace tilec::host
