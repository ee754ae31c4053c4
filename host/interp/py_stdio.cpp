// Text streams of host programs: `sys.stdout`/`sys.stderr`, `print(file=...)`, `io.StringIO`
// and `contextlib` (redirect_stdout/redirect_stderr, nullcontext, suppress, ExitStack). Output
// of kernels (wp.printf) is the device's and is not redirected, as C-level writes are not in
// CPython.
#include <iostream>

#include "host/interp/args.h"
#include "host/interp/exceptions.h"
#include "host/interp/interpreter.h"
#include "host/interp/py_std_modules.h"
#include "host/interp/py_stdio.h"

namespace tilec::host {
namespace {

// The process's own streams: stdout is the session's output (which a doctest captures),
// stderr the process's.
struct StdStreamObj : Object {
  explicit StdStreamObj(bool is_err) : is_err(is_err) {}
  std::string TypeName() const override { return "_io.TextIOWrapper"; }
  std::string Repr() const override {
    return std::string("<_io.TextIOWrapper name='<") + (is_err ? "stderr" : "stdout") +
           ">' mode='w' encoding='utf-8'>";
  }
  std::ostream& Stream(Interpreter& in) const { return is_err ? std::cerr : in.out(); }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override {
    auto self = std::static_pointer_cast<StdStreamObj>(shared_from_this());
    if (name == "write")
      return Value(std::make_shared<BuiltinFn>("write", [self](Interpreter& i, CallArgs& a) {
        ArgBinder b("write", a, {"s"}, 1);
        const std::string& s = ToStr(b.Get(0), "write() argument");
        self->Stream(i) << s;
        if (self->is_err) std::cerr.flush();
        return Value::Int(int64_t(s.size()));
      }));
    if (name == "flush")
      return Value(std::make_shared<BuiltinFn>("flush", [self](Interpreter& i, CallArgs& a) {
        ArgBinder b("flush", a, {}, 0);
        self->Stream(i).flush();
        return Value();
      }));
    if (name == "isatty")
      return Value(std::make_shared<BuiltinFn>("isatty", [](Interpreter&, CallArgs& a) {
        ArgBinder b("isatty", a, {}, 0);
        return Value::Bool(false);
      }));
    if (name == "name") return MakeStr(is_err ? "<stderr>" : "<stdout>");
    if (name == "encoding") return MakeStr("utf-8");
    return std::nullopt;
  }
  bool is_err;
};

// io.StringIO: an in-memory text file with one position, as CPython's.
struct StringIOObj : Object {
  std::string TypeName() const override { return "_io.StringIO"; }
  void CheckOpen() const {
    if (closed) ValueError("I/O operation on closed file");
  }
  std::optional<Value> Enter(Interpreter&) override {
    CheckOpen();
    return Value(shared_from_this());
  }
  void Exit(Interpreter&) override { closed = true; }
  std::optional<std::vector<Value>> Iterate(Interpreter&) override {
    CheckOpen();
    std::vector<Value> lines;
    while (pos < buf.size()) lines.push_back(MakeStr(ReadLine()));
    return lines;
  }
  std::string ReadLine() {
    size_t end = buf.find('\n', pos);
    end = end == std::string::npos ? buf.size() : end + 1;
    std::string s = buf.substr(pos, end - pos);
    pos = end;
    return s;
  }
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    auto self = std::static_pointer_cast<StringIOObj>(shared_from_this());
    auto method = [&](std::vector<std::string> params, size_t required, auto body) {
      return Value(std::make_shared<BuiltinFn>(name, [self, name, params, required, body](Interpreter&, CallArgs& a) {
        ArgBinder b(name, a, params, required);
        if (name != "close") self->CheckOpen();
        return body(*self, b);
      }));
    };
    if (name == "closed") return Value::Bool(closed);
    if (name == "write")
      return method({"s"}, 1, [](StringIOObj& f, ArgBinder& b) {
        const std::string& s = ToStr(b.Get(0), "string argument");
        if (f.pos > f.buf.size()) f.buf.resize(f.pos, '\0');
        f.buf.replace(f.pos, std::min(s.size(), f.buf.size() - f.pos), s);
        f.pos += s.size();
        return Value::Int(int64_t(s.size()));
      });
    if (name == "getvalue") return method({}, 0, [](StringIOObj& f, ArgBinder&) { return MakeStr(f.buf); });
    if (name == "read")
      return method({"size"}, 0, [](StringIOObj& f, ArgBinder& b) {
        int64_t n = b.Has(0) && !b.Get(0).IsNone() ? ToInt(b.Get(0), "read() size") : -1;
        if (f.pos >= f.buf.size()) return MakeStr("");
        size_t len = n < 0 ? f.buf.size() - f.pos : std::min<size_t>(size_t(n), f.buf.size() - f.pos);
        std::string s = f.buf.substr(f.pos, len);
        f.pos += len;
        return MakeStr(s);
      });
    if (name == "readline")
      return method({}, 0, [](StringIOObj& f, ArgBinder&) {
        return MakeStr(f.pos < f.buf.size() ? f.ReadLine() : "");
      });
    if (name == "readlines")
      return method({}, 0, [](StringIOObj& f, ArgBinder&) {
        std::vector<Value> lines;
        while (f.pos < f.buf.size()) lines.push_back(MakeStr(f.ReadLine()));
        return MakeList(lines);
      });
    if (name == "seek")
      return method({"pos", "whence"}, 1, [](StringIOObj& f, ArgBinder& b) {
        int64_t p = ToInt(b.Get(0), "seek() position");
        int64_t whence = b.Has(1) ? ToInt(b.Get(1), "seek() whence") : 0;
        if (whence == 0) {
          if (p < 0) ValueError("Negative seek position " + std::to_string(p));
          f.pos = size_t(p);
        } else if (whence == 1 || whence == 2) {
          if (p != 0) Raise("OSError", "Can't do nonzero cur-relative seeks");
          if (whence == 2) f.pos = f.buf.size();
        } else {
          ValueError("Invalid whence (" + std::to_string(whence) + ", should be 0, 1 or 2)");
        }
        return Value::Int(int64_t(f.pos));
      });
    if (name == "tell") return method({}, 0, [](StringIOObj& f, ArgBinder&) { return Value::Int(int64_t(f.pos)); });
    if (name == "truncate")
      return method({"size"}, 0, [](StringIOObj& f, ArgBinder& b) {
        size_t n = b.Has(0) && !b.Get(0).IsNone() ? size_t(ToInt(b.Get(0), "truncate() size")) : f.pos;
        if (n < f.buf.size()) f.buf.resize(n);
        return Value::Int(int64_t(n));
      });
    if (name == "flush") return method({}, 0, [](StringIOObj&, ArgBinder&) { return Value(); });
    if (name == "close")
      return method({}, 0, [](StringIOObj& f, ArgBinder&) {
        f.closed = true;
        return Value();
      });
    return std::nullopt;
  }
  std::string buf;
  size_t pos = 0;
  bool closed = false;
};

// The `with` protocol of any value, or Python's TypeError.
Value EnterContext(Interpreter& in, const Value& cm) {
  std::optional<Value> v = cm.IsObj() ? cm.obj()->Enter(in) : std::nullopt;
  if (!v)
    TypeError("'" + TypeName(cm) + "' object does not support the context manager protocol");
  return *v;
}

// contextlib.redirect_stdout/redirect_stderr: `sys.<stream>` is the target inside the block.
struct RedirectObj : Object {
  RedirectObj(std::string stream, Value target) : stream(std::move(stream)), target(std::move(target)) {}
  std::string TypeName() const override { return "contextlib.redirect_" + stream; }
  std::optional<Value> Enter(Interpreter& in) override {
    Value sys = in.ImportModule("sys");
    saved.push_back(in.GetAttr(sys, stream));
    sys.obj()->SetAttr(in, stream, target);
    return target;
  }
  void Exit(Interpreter& in) override {
    in.ImportModule("sys").obj()->SetAttr(in, stream, saved.back());
    saved.pop_back();
  }
  std::string stream;
  Value target;
  std::vector<Value> saved;  // reentrant, as CPython's
};

struct NullContextObj : Object {
  explicit NullContextObj(Value result) : result(std::move(result)) {}
  std::string TypeName() const override { return "contextlib.nullcontext"; }
  std::optional<Value> Enter(Interpreter&) override { return result; }
  Value result;
};

// contextlib.suppress(*exceptions): the block's exception, if one of them, is swallowed.
struct SuppressObj : Object {
  explicit SuppressObj(std::vector<Value> excs) : excs(std::move(excs)) {}
  std::string TypeName() const override { return "contextlib.suppress"; }
  std::optional<Value> Enter(Interpreter&) override { return Value(); }
  bool ExitOnError(Interpreter&, const PyError& e) override {
    std::shared_ptr<ExcObj> v = ExceptionValue(e);
    for (const Value& c : excs)
      if (ExceptionMatches(c, *v->type)) return true;
    return false;
  }
  std::vector<Value> excs;
};

// contextlib.ExitStack: context managers and callbacks unwound last-in first-out when the
// stack's block ends or close() is called; an exception passes through each in turn, and one
// that a context manager swallows is not seen by those below it.
struct ExitStackObj : Object {
  struct Entry {
    Value cm;            // a context manager, or
    Value fn;            // a callback with its arguments
    CallArgs args;
  };
  std::string TypeName() const override { return "contextlib.ExitStack"; }
  std::optional<Value> Enter(Interpreter&) override { return Value(shared_from_this()); }
  void Exit(Interpreter& in) override { Unwind(in, nullptr); }
  bool ExitOnError(Interpreter& in, const PyError& e) override { return Unwind(in, &e); }
  // Returns true when the pending exception was swallowed.
  bool Unwind(Interpreter& in, const PyError* pending) {
    std::optional<PyError> error;
    if (pending) error = *pending;
    bool swallowed = false, replaced = false;
    while (!entries.empty()) {
      Entry e = std::move(entries.back());
      entries.pop_back();
      try {
        if (e.cm.IsObj()) {
          if (error) {
            if (e.cm.obj()->ExitOnError(in, *error)) {
              error.reset();
              swallowed = pending != nullptr;
            }
          } else {
            e.cm.obj()->Exit(in);
          }
        } else {
          in.CallValue(e.fn, e.args);
        }
      } catch (PyError& raised) {
        // A later exit's exception replaces the one being handled, as in CPython.
        error = raised;
        swallowed = false;
        replaced = true;
      }
    }
    if (error && replaced) throw *error;
    return swallowed;
  }
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    auto self = std::static_pointer_cast<ExitStackObj>(shared_from_this());
    if (name == "enter_context")
      return Value(std::make_shared<BuiltinFn>(name, [self](Interpreter& i, CallArgs& a) {
        ArgBinder b("enter_context", a, {"cm"}, 1);
        Value r = EnterContext(i, b.Get(0));
        self->entries.push_back({b.Get(0), Value(), {}});
        return r;
      }));
    if (name == "callback")
      return Value(std::make_shared<BuiltinFn>(name, [self](Interpreter&, CallArgs& a) {
        if (a.pos.empty()) TypeError("ExitStack.callback() missing 1 required positional argument: 'callback'");
        Entry e{Value(), a.pos[0], {}};
        e.args.pos.assign(a.pos.begin() + 1, a.pos.end());
        e.args.kw = a.kw;
        self->entries.push_back(std::move(e));
        return a.pos[0];
      }));
    if (name == "pop_all")
      return Value(std::make_shared<BuiltinFn>(name, [self](Interpreter&, CallArgs& a) {
        ArgBinder b("pop_all", a, {}, 0);
        auto moved = std::make_shared<ExitStackObj>();
        moved->entries = std::move(self->entries);
        self->entries.clear();
        return Value(moved);
      }));
    if (name == "close")
      return Value(std::make_shared<BuiltinFn>(name, [self](Interpreter& i, CallArgs& a) {
        ArgBinder b("close", a, {}, 0);
        self->Unwind(i, nullptr);
        return Value();
      }));
    return std::nullopt;
  }
  std::vector<Entry> entries;
};

}  // namespace

void InstallStdStreams(ModuleObj& sys) {
  sys.attrs["stdout"] = sys.attrs["__stdout__"] = Value(std::make_shared<StdStreamObj>(false));
  sys.attrs["stderr"] = sys.attrs["__stderr__"] = Value(std::make_shared<StdStreamObj>(true));
}

void WriteText(Interpreter& in, Value file, const std::string& text, bool flush) {
  if (file.IsNone()) file = in.GetAttr(in.ImportModule("sys"), "stdout");
  if (auto* s = file.As<StdStreamObj>()) {
    std::ostream& os = s->Stream(in);
    os << text;
    if (flush || s->is_err) os.flush();
    return;
  }
  CallArgs args;
  args.pos = {MakeStr(text)};
  in.CallValue(in.GetAttr(file, "write"), args);
  if (flush) {
    CallArgs none;
    in.CallValue(in.GetAttr(file, "flush"), none);
  }
}

Value MakeIoModule() {
  auto m = std::make_shared<ModuleObj>("io");
  m->attrs["StringIO"] = Value(std::make_shared<PyTypeObj>("StringIO", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("StringIO", a, {"initial_value", "newline"}, 0);
    auto f = std::make_shared<StringIOObj>();
    if (b.Has(0) && !b.Get(0).IsNone()) f->buf = ToStr(b.Get(0), "initial_value");
    return Value(f);
  }));
  return Value(m);
}

Value MakeContextlibModule() {
  auto m = std::make_shared<ModuleObj>("contextlib");
  for (const char* stream : {"stdout", "stderr"}) {
    const std::string s = stream;
    m->Def("redirect_" + s, [s](Interpreter&, CallArgs& a) {
      ArgBinder b("redirect_" + s, a, {"new_target"}, 1);
      return Value(std::make_shared<RedirectObj>(s, b.Get(0)));
    });
  }
  m->Def("nullcontext", [](Interpreter&, CallArgs& a) {
    ArgBinder b("nullcontext", a, {"enter_result"}, 0);
    return Value(std::make_shared<NullContextObj>(b.Get(0, Value())));
  });
  m->Def("suppress", [](Interpreter&, CallArgs& a) {
    if (!a.kw.empty()) TypeError("suppress() takes no keyword arguments");
    return Value(std::make_shared<SuppressObj>(a.pos));
  });
  m->Def("contextmanager", [](Interpreter&, CallArgs& a) {
    ArgBinder b("contextmanager", a, {"func"}, 1);
    return MakeContextManager(b.Get(0));
  });
  m->Def("ExitStack", [](Interpreter&, CallArgs& a) {
    ArgBinder b("ExitStack", a, {}, 0);
    return Value(std::make_shared<ExitStackObj>());
  });
  return Value(m);
}

}  // namespace tilec::host
