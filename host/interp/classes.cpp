// Plain Python classes in host code, as Warp's example programs write them (`class Example:`
// with `__init__`, methods and attributes): the class statement runs its body in a namespace
// of its own; calling the class makes an instance and runs `__init__`; methods bind `self`.
#include <cstdio>
#include <set>

#include "host/interp/errors.h"
#include "host/interp/exceptions.h"
#include "host/interp/interpreter.h"

namespace tilec::host {
namespace {

struct UserClassObj;

// `obj.method`: the function with its `self`.
struct BoundMethodObj : Object {
  BoundMethodObj(Value self, Value fn, std::string name) : self(std::move(self)), fn(std::move(fn)), name(std::move(name)) {}
  std::string TypeName() const override { return "method"; }
  std::string Repr() const override { return "<bound method " + name + " of " + host::Repr(self) + ">"; }
  bool Callable() const override { return true; }
  Value Call(Interpreter& in, CallArgs& args) override {
    args.pos.insert(args.pos.begin(), self);
    return in.CallValue(fn, args);
  }
  Value self, fn;
  std::string name;
};

// A function stored in a class under @staticmethod: called without `self`.
struct StaticMethodObj : Object {
  explicit StaticMethodObj(Value fn) : fn(std::move(fn)) {}
  std::string TypeName() const override { return "staticmethod"; }
  Value fn;
};

// A method written in C++ for a class made by the host (`unittest.TestCase.assertEqual`):
// like a `def` in a class body, it binds `self` when read from an instance.
struct NativeMethodObj : BuiltinFn {
  using BuiltinFn::BuiltinFn;
  std::string TypeName() const override { return "method_descriptor"; }
};

struct InstanceObj : Object {
  explicit InstanceObj(std::shared_ptr<UserClassObj> cls) : cls(std::move(cls)) {}
  std::string TypeName() const override;
  std::string Repr() const override;
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  bool SetAttr(Interpreter&, const std::string& name, const Value& v) override {
    attrs[name] = v;
    return true;
  }
  bool DelAttr(Interpreter&, const std::string& name) override { return attrs.erase(name) > 0; }
  // The context manager protocol, through the class's `__enter__` and `__exit__`.
  std::optional<Value> Enter(Interpreter& in) override {
    std::optional<Value> enter = GetAttr(in, "__enter__");
    if (!enter || !GetAttr(in, "__exit__")) return std::nullopt;
    CallArgs none;
    return in.CallValue(*enter, none);
  }
  void Exit(Interpreter& in) override {
    CallArgs args;
    args.pos = {Value(), Value(), Value()};
    in.CallValue(*GetAttr(in, "__exit__"), args);
  }
  bool ExitOnError(Interpreter& in, const PyError& e) override {
    std::shared_ptr<ExcObj> value = ExceptionValue(e);
    CallArgs args;
    args.pos = {Value(std::const_pointer_cast<ExcTypeObj>(value->type)), Value(value), Value()};
    return host::Truth(in.CallValue(*GetAttr(in, "__exit__"), args));
  }
  std::shared_ptr<UserClassObj> cls;
  std::map<std::string, Value> attrs;
};

struct UserClassObj : Object {
  std::string TypeName() const override { return "type"; }
  std::string Repr() const override { return "<class '" + module + "." + name + "'>"; }
  bool Callable() const override { return true; }
  // The attribute as stored in this class or the nearest base that has it.
  const Value* Find(const std::string& attr) const {
    for (const UserClassObj* c = this; c; c = c->base.get())
      if (auto it = c->attrs.find(attr); it != c->attrs.end()) return &it->second;
    return nullptr;
  }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& attr) override {
    if (attr == "__name__" || attr == "__qualname__") return MakeStr(name);
    if (attr == "__module__") return MakeStr(module);
    const Value* v = Find(attr);
    if (!v) return std::nullopt;
    if (auto* s = v->As<StaticMethodObj>()) return s->fn;
    return *v;
  }
  bool SetAttr(Interpreter&, const std::string& attr, const Value& v) override {
    attrs[attr] = v;
    return true;
  }
  Value Call(Interpreter& in, CallArgs& args) override {
    auto self = std::make_shared<InstanceObj>(std::static_pointer_cast<UserClassObj>(shared_from_this()));
    Value inst(self);
    if (const Value* init = Find("__init__")) {
      args.pos.insert(args.pos.begin(), inst);
      Value r = in.CallValue(*init, args);
      if (!r.IsNone()) TypeError("__init__() should return None, not '" + host::TypeName(r) + "'");
    } else if (!args.pos.empty() || !args.kw.empty()) {
      TypeError(name + "() takes no arguments");
    }
    return inst;
  }
  bool DerivesFrom(const UserClassObj* other) const {
    for (const UserClassObj* c = this; c; c = c->base.get())
      if (c == other) return true;
    return false;
  }
  std::string name;
  std::string module = "__main__";
  std::shared_ptr<UserClassObj> base;  // single inheritance; null: `object`
  std::map<std::string, Value> attrs;
};

std::string InstanceObj::TypeName() const { return cls->name; }

std::string InstanceObj::Repr() const {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", static_cast<const void*>(this));
  return "<" + cls->module + "." + cls->name + " object at " + buf + ">";
}

std::optional<Value> InstanceObj::GetAttr(Interpreter& in, const std::string& name) {
  if (auto it = attrs.find(name); it != attrs.end()) return it->second;
  if (name == "__class__") return Value(cls);
  const Value* v = cls->Find(name);
  if (!v) return std::nullopt;
  if (auto* s = v->As<StaticMethodObj>()) return s->fn;
  if (v->As<FunctionObj>() || v->As<LambdaObj>() || v->As<NativeMethodObj>())
    return Value(std::make_shared<BoundMethodObj>(Value(shared_from_this()), *v, cls->name + "." + name));
  return *v;
}

}  // namespace

// The class body runs as a function body would, with its own namespace for locals: its
// `def`s become the methods and its assignments the class attributes.
void Interpreter::ExecPlainClass(const ast::ClassDef& s) {
  auto cls = std::make_shared<UserClassObj>();
  cls->name = s.name;
  for (const auto& base_expr : s.bases) {
    const auto* name = base_expr->As<ast::Name>();
    if (name && name->id == "object") continue;
    Value base = Eval(*base_expr);
    auto b = base.AsRef<UserClassObj>();
    if (!b)
      TypeError("class `" + s.name + "`: a base class must be a class defined in host code or `object`, not " +
                Repr(base));
    if (cls->base) TypeError("class `" + s.name + "`: more than one base class is not supported in host code");
    cls->base = b;
  }
  std::map<std::string, Value> ns;
  Frame frame;
  frame.chunk = frame_->chunk;
  frame.locals = &ns;
  frame.function = s.name;
  InFrame(frame, [&] { ExecBody(s.body); });
  cls->attrs = std::move(ns);
  StoreName(s.name, Value(cls));
}

Value MakeStaticMethod(const Value& fn) { return Value(std::make_shared<StaticMethodObj>(fn)); }

}  // namespace tilec::host

namespace tilec::host {

Value MakeHostClass(std::string module, std::string name, std::map<std::string, Value> attrs) {
  auto cls = std::make_shared<UserClassObj>();
  cls->module = std::move(module);
  cls->name = std::move(name);
  cls->attrs = std::move(attrs);
  return Value(cls);
}

Value MakeNativeMethod(std::string name, NativeFn fn) {
  return Value(std::make_shared<NativeMethodObj>(std::move(name), std::move(fn)));
}

bool IsHostClass(const Value& v) { return v.As<UserClassObj>() != nullptr; }

bool ClassDerivesFrom(const Value& cls, const Value& base) {
  auto* c = cls.As<UserClassObj>();
  auto* b = base.As<UserClassObj>();
  return c && b && c->DerivesFrom(b);
}

std::optional<Value> HostClassOf(const Value& instance) {
  if (auto* i = instance.As<InstanceObj>()) return Value(i->cls);
  return std::nullopt;
}

std::vector<std::string> HostClassAttrNames(const Value& cls) {
  std::set<std::string> names;
  for (const UserClassObj* c = cls.As<UserClassObj>(); c; c = c->base.get())
    for (const auto& kv : c->attrs) names.insert(kv.first);
  return {names.begin(), names.end()};
}

}  // namespace tilec::host
