// CPython's exception hierarchy (the classes host code can name or meet), exception objects
// and their str/repr, and turning `raise` operands into interpreter errors.
#include "host/interp/exceptions.h"

#include <map>
#include <mutex>

#include "host/interp/interpreter.h"

namespace tilec::host {

namespace {

struct Registry {
  std::map<std::string, std::shared_ptr<const ExcTypeObj>> classes;
  std::vector<std::string> builtin_names;  // in definition order, for the builtins table

  const ExcTypeObj* Add(const std::string& name, std::vector<std::string> bases, bool builtin = true) {
    std::vector<const ExcTypeObj*> b;
    for (const std::string& n : bases) b.push_back(classes.at(n).get());
    auto t = std::make_shared<ExcTypeObj>(name, std::move(b));
    classes[name] = t;
    if (builtin) builtin_names.push_back(name);
    return t.get();
  }

  Registry() {
    Add("BaseException", {});
    Add("Exception", {"BaseException"});
    Add("KeyboardInterrupt", {"BaseException"});
    Add("SystemExit", {"BaseException"});
    Add("GeneratorExit", {"BaseException"});
    Add("ArithmeticError", {"Exception"});
    Add("ZeroDivisionError", {"ArithmeticError"});
    Add("OverflowError", {"ArithmeticError"});
    Add("FloatingPointError", {"ArithmeticError"});
    Add("AssertionError", {"Exception"});
    Add("AttributeError", {"Exception"});
    Add("ImportError", {"Exception"});
    Add("ModuleNotFoundError", {"ImportError"});
    Add("LookupError", {"Exception"});
    Add("IndexError", {"LookupError"});
    Add("KeyError", {"LookupError"});
    Add("MemoryError", {"Exception"});
    Add("NameError", {"Exception"});
    Add("UnboundLocalError", {"NameError"});
    Add("RuntimeError", {"Exception"});
    Add("NotImplementedError", {"RuntimeError"});
    Add("RecursionError", {"RuntimeError"});
    Add("StopIteration", {"Exception"});
    Add("SyntaxError", {"Exception"});
    Add("SystemError", {"Exception"});
    Add("TypeError", {"Exception"});
    Add("ValueError", {"Exception"});
    Add("UnicodeError", {"ValueError"});
    Add("OSError", {"Exception"});
    Add("FileNotFoundError", {"OSError"});
    Add("FileExistsError", {"OSError"});
    Add("IsADirectoryError", {"OSError"});
    Add("NotADirectoryError", {"OSError"});
    Add("PermissionError", {"OSError"});
    Add("Warning", {"Exception"});
    Add("UserWarning", {"Warning"});
    Add("DeprecationWarning", {"Warning"});
    Add("PendingDeprecationWarning", {"Warning"});
    Add("RuntimeWarning", {"Warning"});
    Add("FutureWarning", {"Warning"});
    Add("ImportWarning", {"Warning"});
    Add("ResourceWarning", {"Warning"});
    // NumPy's AxisError is both, so that either kind of handler catches it.
    Add("numpy.AxisError", {"ValueError", "IndexError"}, false);
    Add("numpy.linalg.LinAlgError", {"ValueError"}, false);
    // A kernel that does not compile: a RuntimeError, as Warp's code generation errors are, and
    // a TypeError and ValueError, as Warp's argument checks raise, so that handlers written for
    // any of Warp's errors catch it.
    // Warp's code generation errors, under the names Warp gives them.
    Add("warp.WarpCodegenError", {"RuntimeError"}, false);
    Add("warp.WarpCodegenTypeError", {"TypeError"}, false);
    Add("warp.WarpCodegenValueError", {"ValueError"}, false);
    Add("warp.WarpCodegenAttributeError", {"AttributeError"}, false);
    Add("warp.WarpCodegenIndexError", {"IndexError"}, false);
    Add("warp.WarpCodegenKeyError", {"KeyError"}, false);
    Add("tilec.CompileError",
        {"RuntimeError", "TypeError", "ValueError", "warp.WarpCodegenError", "warp.WarpCodegenTypeError",
         "warp.WarpCodegenValueError"},
        false);
  }
};

std::mutex g_mu;

Registry& Reg() {
  static Registry r;
  return r;
}

}  // namespace

std::shared_ptr<const ExcTypeObj> ExceptionType(const std::string& qualname) {
  std::lock_guard<std::mutex> lock(g_mu);
  Registry& r = Reg();
  auto it = r.classes.find(qualname);
  if (it != r.classes.end()) return it->second;
  r.Add(qualname, {"Exception"}, false);
  return r.classes.at(qualname);
}

bool ExceptionMatches(const Value& cls, const ExcTypeObj& raised) {
  if (auto* t = cls.As<TupleObj>()) {
    for (const Value& c : t->items)
      if (ExceptionMatches(c, raised)) return true;
    return false;
  }
  auto* t = cls.As<ExcTypeObj>();
  if (!t) TypeError("catching classes that do not inherit from BaseException is not allowed");
  return raised.IsSubclassOf(t);
}

bool ExcTypeObj::IsSubclassOf(const ExcTypeObj* base) const {
  if (this == base) return true;
  for (const ExcTypeObj* b : bases)
    if (b->IsSubclassOf(base)) return true;
  return false;
}

Value ExcTypeObj::Call(Interpreter& in, CallArgs& args) {
  if (!args.kw.empty()) TypeError(qualname + "() takes no keyword arguments");
  auto self = std::static_pointer_cast<const ExcTypeObj>(shared_from_this());
  return Value(std::make_shared<ExcObj>(self, args.pos));
}

std::optional<Value> ExcTypeObj::GetAttr(Interpreter& in, const std::string& name) {
  if (name == "__name__") {
    size_t dot = qualname.rfind('.');
    return MakeStr(dot == std::string::npos ? qualname : qualname.substr(dot + 1));
  }
  return std::nullopt;
}

std::string ExcObj::Repr() const {
  size_t dot = type->qualname.rfind('.');
  std::string name = dot == std::string::npos ? type->qualname : type->qualname.substr(dot + 1);
  std::string out = name + "(";
  for (size_t k = 0; k < args.size(); ++k) out += (k ? ", " : "") + host::Repr(args[k]);
  return out + ")";
}

std::string ExcObj::Str() const {
  if (args.empty()) return "";
  // KeyError shows its key as repr, so that an empty-string key is still visible.
  if (args.size() == 1) return type->qualname == "KeyError" ? host::Repr(args[0]) : host::Str(args[0]);
  return host::Repr(MakeTuple(args));
}

std::optional<Value> ExcObj::GetAttr(Interpreter& in, const std::string& name) {
  if (name == "args") return MakeTuple(args);
  return std::nullopt;
}

std::shared_ptr<ExcObj> ExceptionValue(const PyError& e) {
  if (dynamic_cast<ExcObj*>(e.instance.get())) return std::static_pointer_cast<ExcObj>(e.instance);
  std::vector<Value> args;
  if (!e.message().empty()) {
    // Internal KeyErrors carry the key's repr as their message; keep str(e) the same.
    const std::string& m = e.message();
    bool quoted = e.type() == "KeyError" && m.size() >= 2 && m.front() == '\'' && m.back() == '\'';
    args.push_back(MakeStr(quoted ? m.substr(1, m.size() - 2) : m));
  }
  return std::make_shared<ExcObj>(ExceptionType(e.type()), std::move(args));
}

PyError MakeRaise(Interpreter& in, const Value& exc) {
  std::shared_ptr<ExcObj> obj;
  if (exc.As<ExcTypeObj>()) {
    CallArgs none;
    obj = exc.obj()->Call(in, none).AsRef<ExcObj>();
  } else if (exc.As<ExcObj>()) {
    obj = exc.AsRef<ExcObj>();
  }
  if (!obj) return PyError("TypeError", "exceptions must derive from BaseException");
  PyError e(obj->type->qualname, obj->Str());
  e.instance = obj;
  return e;
}

void InstallExceptions(std::map<std::string, Value>& builtins) {
  Registry& r = Reg();
  for (const std::string& n : r.builtin_names)
    builtins[n] = Value(std::const_pointer_cast<ExcTypeObj>(r.classes.at(n)));
}

}  // namespace tilec::host
