// `unittest.mock`: Mock/MagicMock (calls recorded, return_value, side_effect, child mocks made
// on first use, the assert_called family) and patch/patch.object, which swap an attribute for
// the length of a `with` block, a decorated function, or start()..stop().
#include "host/interp/args.h"
#include "host/interp/exceptions.h"
#include "host/interp/interpreter.h"
#include "host/interp/py_std_modules.h"

namespace tilec::host {
namespace {

// One recorded call: `call(1, key=2)`.
struct CallRecordObj : Object {
  std::string TypeName() const override { return "_Call"; }
  std::string Repr() const override {
    std::string s = "call(";
    bool first = true;
    for (const Value& v : args.pos) s += (first ? "" : ", ") + host::Repr(v), first = false;
    for (const auto& [k, v] : args.kw) s += (first ? "" : ", ") + k + "=" + host::Repr(v), first = false;
    return s + ")";
  }
  bool Same(const CallArgs& o) const {
    if (o.pos.size() != args.pos.size() || o.kw.size() != args.kw.size()) return false;
    for (size_t k = 0; k < o.pos.size(); ++k)
      if (!ValueEquals(o.pos[k], args.pos[k])) return false;
    for (const auto& [name, v] : o.kw) {
      bool found = false;
      for (const auto& [n2, v2] : args.kw)
        if (n2 == name && ValueEquals(v, v2)) found = true;
      if (!found) return false;
    }
    return true;
  }
  std::optional<Value> CmpOp(Interpreter&, ast::CmpOp op, const Value& other, bool) override {
    auto* o = other.As<CallRecordObj>();
    if (!o || (op != ast::CmpOp::Eq && op != ast::CmpOp::NotEq)) return std::nullopt;
    return Value::Bool(Same(o->args) == (op == ast::CmpOp::Eq));
  }
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    if (name == "args") return MakeTuple(args.pos);
    if (name == "kwargs") {
      auto d = std::make_shared<DictObj>();
      for (const auto& [k, v] : args.kw) d->Put(MakeStr(k), v);
      return Value(d);
    }
    return std::nullopt;
  }
  CallArgs args;
};

Value MakeCallRecord(CallArgs args) {
  auto c = std::make_shared<CallRecordObj>();
  c->args = std::move(args);
  return Value(c);
}

struct MockObj : Object {
  MockObj(bool magic, std::string name, std::string path = "") : magic(magic), name(std::move(name)), path(std::move(path)) {}
  std::string TypeName() const override { return magic ? "MagicMock" : "Mock"; }
  std::string Repr() const override {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", static_cast<const void*>(this));
    const std::string& shown = path.empty() ? name : path;
    return "<" + TypeName() + (shown.empty() ? "" : " name='" + shown + "'") + " id='" + buf + "'>";
  }
  bool Callable() const override { return true; }
  std::optional<int64_t> Len() const override {
    if (magic) return 0;
    return std::nullopt;
  }
  std::optional<std::vector<Value>> Iterate(Interpreter&) override {
    if (magic) return std::vector<Value>{};
    return std::nullopt;
  }
  std::optional<Value> Enter(Interpreter& in) override {
    if (!magic) return std::nullopt;
    CallArgs none;
    return in.CallValue(Child("__enter__"), none);
  }
  Value Child(const std::string& attr) {
    auto it = children.find(attr);
    if (it != children.end()) return it->second;
    return children[attr] = Value(std::make_shared<MockObj>(magic, attr, Path() + "." + attr));
  }
  Value ReturnValue() {
    if (return_value.IsNone() && !return_value_set)
      return_value = Value(std::make_shared<MockObj>(magic, "()", Path() + "()")), return_value_set = true;
    return return_value;
  }
  Value Call(Interpreter& in, CallArgs& args) override {
    ++call_count;
    calls.push_back(MakeCallRecord(args));
    if (side_effect.IsNone()) return ReturnValue();
    if (side_effect.As<ExcTypeObj>() || side_effect.As<ExcObj>()) throw MakeRaise(in, side_effect);
    if (side_effect.IsObj() && side_effect.obj()->Callable()) {
      Value r = in.CallValue(side_effect, args);
      if (r.As<SentinelObj>()) return ReturnValue();
      return r;
    }
    if (!effects) {
      std::optional<std::vector<Value>> items = side_effect.IsObj() ? side_effect.obj()->Iterate(in) : std::nullopt;
      if (!items) TypeError("'" + host::TypeName(side_effect) + "' object is not iterable");
      effects = std::move(*items);
    }
    if (next_effect >= effects->size()) Raise("StopIteration", "");
    Value r = (*effects)[next_effect++];
    if (r.As<ExcTypeObj>() || r.As<ExcObj>()) throw MakeRaise(in, r);
    return r;
  }
  [[noreturn]] void AssertFail(const std::string& msg) { Raise("AssertionError", msg); }
  std::string Expected(const CallArgs& a) const {
    auto c = std::make_shared<CallRecordObj>();
    c->args = a;
    return (name.empty() ? "mock" : name) + c->Repr().substr(4);
  }
  std::string Actual() const {
    return calls.empty() ? "not called."
                         : (name.empty() ? "mock" : name) + calls.back().As<CallRecordObj>()->Repr().substr(4);
  }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& attr) override;
  bool SetAttr(Interpreter&, const std::string& attr, const Value& v) override {
    if (attr == "return_value") return_value = v, return_value_set = true;
    else if (attr == "side_effect") side_effect = v, effects.reset(), next_effect = 0;
    else children[attr] = v;
    return true;
  }
  bool DelAttr(Interpreter&, const std::string& attr) override { return children.erase(attr) > 0; }

  // DEFAULT, returned by a side_effect function, means "return return_value".
  struct SentinelObj : Object {
    std::string TypeName() const override { return "_SentinelObject"; }
    std::string Repr() const override { return "sentinel.DEFAULT"; }
  };

  // Messages name a mock by its own name; its repr by the path from the outermost mock.
  std::string Path() const { return !path.empty() ? path : name.empty() ? "mock" : name; }

  bool magic;
  std::string name, path;
  Value return_value;
  bool return_value_set = false;
  Value side_effect;
  std::optional<std::vector<Value>> effects;
  size_t next_effect = 0;
  int64_t call_count = 0;
  std::vector<Value> calls;
  std::map<std::string, Value> children;
};

const Value& Default() {
  static const Value v(std::make_shared<MockObj::SentinelObj>());
  return v;
}

std::optional<Value> MockObj::GetAttr(Interpreter&, const std::string& attr) {
  auto self = std::static_pointer_cast<MockObj>(shared_from_this());
  auto def = [&](auto body) { return Value(std::make_shared<BuiltinFn>(attr, body)); };
  if (attr == "return_value") return ReturnValue();
  if (attr == "side_effect") return side_effect;
  if (attr == "called") return Value::Bool(call_count > 0);
  if (attr == "call_count") return Value::Int(call_count);
  if (attr == "call_args") return calls.empty() ? Value() : calls.back();
  if (attr == "call_args_list") return MakeList(calls);
  if (attr == "assert_called")
    return def([self](Interpreter&, CallArgs& a) {
      ArgBinder b("assert_called", a, {}, 0);
      if (!self->call_count) self->AssertFail("Expected '" + (self->name.empty() ? "mock" : self->name) + "' to have been called.");
      return Value();
    });
  if (attr == "assert_called_once")
    return def([self](Interpreter&, CallArgs& a) {
      ArgBinder b("assert_called_once", a, {}, 0);
      if (self->call_count != 1)
        self->AssertFail("Expected '" + (self->name.empty() ? "mock" : self->name) + "' to have been called once. Called " +
                         std::to_string(self->call_count) + " times.");
      return Value();
    });
  if (attr == "assert_not_called")
    return def([self](Interpreter&, CallArgs& a) {
      ArgBinder b("assert_not_called", a, {}, 0);
      if (self->call_count)
        self->AssertFail("Expected '" + (self->name.empty() ? "mock" : self->name) + "' to not have been called. Called " +
                         std::to_string(self->call_count) + " times.");
      return Value();
    });
  if (attr == "assert_called_with" || attr == "assert_called_once_with") {
    const bool once = attr == "assert_called_once_with";
    return def([self, once](Interpreter&, CallArgs& a) {
      if (once && self->call_count != 1)
        self->AssertFail("Expected '" + (self->name.empty() ? "mock" : self->name) + "' to be called once. Called " +
                         std::to_string(self->call_count) + " times.");
      if (self->calls.empty() || !self->calls.back().As<CallRecordObj>()->Same(a))
        self->AssertFail("expected call not found.\nExpected: " + self->Expected(a) + "\nActual: " + self->Actual());
      return Value();
    });
  }
  if (attr == "assert_any_call")
    return def([self](Interpreter&, CallArgs& a) {
      for (const Value& c : self->calls)
        if (c.As<CallRecordObj>()->Same(a)) return Value();
      self->AssertFail(self->Expected(a) + " call not found");
    });
  if (attr == "reset_mock")
    return def([self](Interpreter&, CallArgs& a) {
      ArgBinder b("reset_mock", a, {"return_value", "side_effect"}, 0);
      self->call_count = 0;
      self->calls.clear();
      return Value();
    });
  if (attr == "configure_mock")
    return def([self](Interpreter& in, CallArgs& a) {
      if (!a.pos.empty()) TypeError("configure_mock() takes only keyword arguments");
      for (const auto& [k, v] : a.kw) self->SetAttr(in, k, v);
      return Value();
    });
  if (auto it = children.find(attr); it != children.end()) return it->second;
  // As unittest.mock: misspelled assertions are errors rather than child mocks that pass.
  if (attr.rfind("assert", 0) == 0 || attr.rfind("assret", 0) == 0)
    AttributeError("'" + attr + "' is not a valid assertion. Use a spec for the mock if '" + attr + "' is meant to be an attribute.");
  if (attr.size() > 4 && attr.rfind("__", 0) == 0 && attr.compare(attr.size() - 2, 2, "__") == 0 &&
      !(magic && (attr == "__enter__" || attr == "__exit__")))
    return std::nullopt;
  return Child(attr);
}

Value MakeMock(Interpreter& in, bool magic, CallArgs& a) {
  ArgBinder b(magic ? "MagicMock" : "Mock", a, {"spec", "side_effect", "return_value", "wraps", "name"}, 0, true);
  auto m = std::make_shared<MockObj>(magic, b.Has(4) ? ToStr(b.Get(4), "name") : "");
  if (b.Has(1)) m->SetAttr(in, "side_effect", b.Get(1));
  if (b.Has(2)) m->SetAttr(in, "return_value", b.Get(2));
  for (const auto& [k, v] : b.extra()) m->SetAttr(in, k, v);
  return Value(m);
}

// patch/patch.object: replaces `target.attribute` while active.
struct PatcherObj : Object {
  std::string TypeName() const override { return "_patch"; }
  bool Callable() const override { return true; }
  Value Start(Interpreter& in) {
    if (!resolved) {
      target = resolve(in);
      resolved = true;
    }
    if (!target.IsObj()) TypeError("cannot patch attribute '" + attribute + "' of " + host::TypeName(target));
    std::optional<Value> old = target.obj()->GetAttr(in, attribute);
    if (!old && !create) AttributeError(host::Repr(target) + " does not have the attribute '" + attribute + "'");
    saved.push_back(old);
    Value replacement = new_value;
    if (replacement.As<MockObj::SentinelObj>()) {
      CallArgs kw{{}, mock_kwargs};
      replacement = MakeMock(in, true, kw);
    }
    if (!target.obj()->SetAttr(in, attribute, replacement))
      AttributeError("cannot set '" + attribute + "' attribute of " + host::TypeName(target));
    return replacement;
  }
  void Stop(Interpreter& in) {
    if (saved.empty()) return;
    std::optional<Value> old = saved.back();
    saved.pop_back();
    if (old) target.obj()->SetAttr(in, attribute, *old);
    else target.obj()->DelAttr(in, attribute);
  }
  std::optional<Value> Enter(Interpreter& in) override { return Start(in); }
  void Exit(Interpreter& in) override { Stop(in); }
  // As a decorator: the function runs patched, with the new mock appended to its arguments
  // when the patch made it.
  Value Call(Interpreter&, CallArgs& args) override {
    if (args.pos.size() != 1 || !args.kw.empty()) TypeError("_patch() takes one function to decorate");
    auto self = std::static_pointer_cast<PatcherObj>(shared_from_this());
    Value fn = args.pos[0];
    return MakeNativeMethod("patched", [self, fn](Interpreter& in, CallArgs& a) {
      Value m = self->Start(in);
      struct Undo {
        PatcherObj* p;
        Interpreter& in;
        ~Undo() { p->Stop(in); }
      } undo{self.get(), in};
      if (self->new_value.As<MockObj::SentinelObj>()) a.pos.push_back(m);
      return in.CallValue(fn, a);
    });
  }
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    auto self = std::static_pointer_cast<PatcherObj>(shared_from_this());
    if (name == "start")
      return Value(std::make_shared<BuiltinFn>("start", [self](Interpreter& in, CallArgs& a) {
        ArgBinder b("start", a, {}, 0);
        return self->Start(in);
      }));
    if (name == "stop")
      return Value(std::make_shared<BuiltinFn>("stop", [self](Interpreter& in, CallArgs& a) {
        ArgBinder b("stop", a, {}, 0);
        self->Stop(in);
        return Value();
      }));
    if (name == "attribute") return MakeStr(attribute);
    return std::nullopt;
  }
  std::function<Value(Interpreter&)> resolve;
  Value target;
  bool resolved = false;
  std::string attribute;
  Value new_value;
  bool create = false;
  std::vector<std::pair<std::string, Value>> mock_kwargs;
  std::vector<std::optional<Value>> saved;
};

std::shared_ptr<PatcherObj> MakePatcher(const ArgBinder& b, size_t new_index, size_t create_index) {
  auto p = std::make_shared<PatcherObj>();
  p->new_value = b.Get(new_index, Default());
  p->create = b.Has(create_index) && Truth(b.Get(create_index));
  p->mock_kwargs = b.extra();
  return p;
}

// The object a dotted `patch("pkg.module.attr")` target names: the longest importable module
// prefix, then attributes.
Value ResolveDotted(Interpreter& in, const std::string& dotted) {
  std::vector<std::string> parts;
  for (size_t s = 0, e; s <= dotted.size(); s = e + 1) {
    e = dotted.find('.', s);
    if (e == std::string::npos) e = dotted.size();
    parts.push_back(dotted.substr(s, e - s));
  }
  for (size_t n = parts.size(); n >= 1; --n) {
    std::string mod = parts[0];
    for (size_t k = 1; k < n; ++k) mod += "." + parts[k];
    Value v;
    try {
      v = in.ImportModule(mod);
    } catch (PyError& e) {
      if (n == 1) throw;
      continue;
    }
    for (size_t k = n; k < parts.size(); ++k) v = in.GetAttr(v, parts[k]);
    return v;
  }
  return Value();
}

}  // namespace

Value MakeMockModule() {
  auto m = std::make_shared<ModuleObj>("unittest.mock");
  m->attrs["DEFAULT"] = Default();
  m->attrs["Mock"] = Value(std::make_shared<PyTypeObj>("Mock", [](Interpreter& in, CallArgs& a) { return MakeMock(in, false, a); }));
  m->attrs["MagicMock"] =
      Value(std::make_shared<PyTypeObj>("MagicMock", [](Interpreter& in, CallArgs& a) { return MakeMock(in, true, a); }));
  m->Def("call", [](Interpreter&, CallArgs& a) { return MakeCallRecord(a); });
  auto patch_fn = [](Interpreter&, CallArgs& a) {
    ArgBinder b("patch", a, {"target", "new", "spec", "create"}, 1, true);
    const std::string& dotted = ToStr(b.Get(0), "patch() target");
    size_t dot = dotted.rfind('.');
    if (dot == std::string::npos) TypeError("Need a valid target to patch. You supplied: " + StrRepr(dotted));
    auto p = MakePatcher(b, 1, 3);
    p->attribute = dotted.substr(dot + 1);
    const std::string owner = dotted.substr(0, dot);
    p->resolve = [owner](Interpreter& in) { return ResolveDotted(in, owner); };
    return Value(p);
  };
  // `patch` is callable and has `.object`: a module-like value with a call.
  struct PatchFnObj : ModuleObj {
    using ModuleObj::ModuleObj;
    NativeFn fn;
    bool Callable() const override { return true; }
    Value Call(Interpreter& in, CallArgs& args) override { return fn(in, args); }
    std::string Repr() const override { return "<function patch>"; }
  };
  auto p = std::make_shared<PatchFnObj>("patch");
  p->fn = patch_fn;
  p->Def("object", [](Interpreter&, CallArgs& a) {
    ArgBinder b("object", a, {"target", "attribute", "new", "spec", "create"}, 2, true);
    auto pt = MakePatcher(b, 2, 4);
    pt->attribute = ToStr(b.Get(1), "patch.object() attribute");
    Value target = b.Get(0);
    pt->resolve = [target](Interpreter&) { return target; };
    return Value(pt);
  });
  m->attrs["patch"] = Value(p);
  return Value(m);
}

}  // namespace tilec::host
