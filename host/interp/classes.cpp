// Plain Python classes in host code, as Warp's example programs write them (`class Example:`
// with `__init__`, methods and attributes): the class statement runs its body in a namespace
// of its own; calling the class makes an instance and runs `__init__`; methods bind `self`.
#include <cstdio>

#include "host/interp/errors.h"
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

struct InstanceObj : Object {
  explicit InstanceObj(std::shared_ptr<UserClassObj> cls) : cls(std::move(cls)) {}
  std::string TypeName() const override;
  std::string Repr() const override;
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  bool SetAttr(Interpreter&, const std::string& name, const Value& v) override {
    attrs[name] = v;
    return true;
  }
  std::shared_ptr<UserClassObj> cls;
  std::map<std::string, Value> attrs;
};

struct UserClassObj : Object {
  std::string TypeName() const override { return "type"; }
  std::string Repr() const override { return "<class '__main__." + name + "'>"; }
  bool Callable() const override { return true; }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& attr) override {
    if (attr == "__name__" || attr == "__qualname__") return MakeStr(name);
    auto it = attrs.find(attr);
    if (it == attrs.end()) return std::nullopt;
    if (auto* s = it->second.As<StaticMethodObj>()) return s->fn;
    return it->second;
  }
  bool SetAttr(Interpreter&, const std::string& attr, const Value& v) override {
    attrs[attr] = v;
    return true;
  }
  Value Call(Interpreter& in, CallArgs& args) override {
    auto self = std::make_shared<InstanceObj>(std::static_pointer_cast<UserClassObj>(shared_from_this()));
    Value inst(self);
    auto init = attrs.find("__init__");
    if (init != attrs.end()) {
      args.pos.insert(args.pos.begin(), inst);
      Value r = in.CallValue(init->second, args);
      if (!r.IsNone()) TypeError("__init__() should return None, not '" + host::TypeName(r) + "'");
    } else if (!args.pos.empty() || !args.kw.empty()) {
      TypeError(name + "() takes no arguments");
    }
    return inst;
  }
  std::string name;
  std::map<std::string, Value> attrs;
};

std::string InstanceObj::TypeName() const { return cls->name; }

std::string InstanceObj::Repr() const {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", static_cast<const void*>(this));
  return "<__main__." + cls->name + " object at " + buf + ">";
}

std::optional<Value> InstanceObj::GetAttr(Interpreter& in, const std::string& name) {
  if (auto it = attrs.find(name); it != attrs.end()) return it->second;
  if (name == "__class__") return Value(cls);
  auto it = cls->attrs.find(name);
  if (it == cls->attrs.end()) return std::nullopt;
  if (auto* s = it->second.As<StaticMethodObj>()) return s->fn;
  if (it->second.As<FunctionObj>() || it->second.As<LambdaObj>())
    return Value(std::make_shared<BoundMethodObj>(Value(shared_from_this()), it->second, cls->name + "." + name));
  return it->second;
}

}  // namespace

// The class body runs as a function body would, with its own namespace for locals: its
// `def`s become the methods and its assignments the class attributes.
void Interpreter::ExecPlainClass(const ast::ClassDef& s) {
  for (const auto& base : s.bases) {
    const auto* name = base->As<ast::Name>();
    if (!name || name->id != "object")
      TypeError("class `" + s.name + "`: base classes are not supported in host code (only `object`)");
  }
  auto cls = std::make_shared<UserClassObj>();
  cls->name = s.name;
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
