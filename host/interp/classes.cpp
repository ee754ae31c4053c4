// Plain Python classes in host code, as Warp's example programs write them (`class Example:`
// with `__init__`, methods and attributes): the class statement runs its body in a namespace
// of its own; calling the class makes an instance and runs `__init__`; methods bind `self`.
#include <algorithm>
#include <cstdio>
#include <set>

#include "host/interp/errors.h"
#include "host/interp/exceptions.h"
#include "host/interp/interpreter.h"
#include "host/interp/py_enum.h"

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

// A function stored in a class under @classmethod: called with the class as first argument.
struct ClassMethodObj : Object {
  explicit ClassMethodObj(Value fn) : fn(std::move(fn)) {}
  std::string TypeName() const override { return "classmethod"; }
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
  // Dataclass and NamedTuple instances: a repr and `==` from their fields, and a NamedTuple
  // indexes and iterates as its tuple of fields.
  Value GetItem(Interpreter& in, const Value& key) override;
  std::optional<int64_t> Len() const override;
  std::optional<std::vector<Value>> Iterate(Interpreter& in) override;
  std::optional<Value> CmpOp(Interpreter& in, ast::CmpOp op, const Value& other, bool reflected) override;
  std::vector<Value> FieldValues() const;
  std::shared_ptr<UserClassObj> cls;
  std::map<std::string, Value> attrs;
};

// A class made by `@dataclasses.dataclass` or derived from `typing.NamedTuple`: its annotated
// class-body names are fields, bound by a generated constructor.
enum class RecordKind { None, Dataclass, NamedTuple };

// `dataclasses.field(default=..., default_factory=...)` in a class body.
struct FieldSpecObj : Object {
  std::string TypeName() const override { return "Field"; }
  std::optional<Value> default_value, factory;
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
    if (attr == "__members__" && Flavor() != EnumFlavor::None) {
      auto d = std::make_shared<DictObj>();
      for (const auto& [n, m] : member_names) d->Put(MakeStr(n), m);
      return Value(d);
    }
    const Value* v = Find(attr);
    if (!v) return std::nullopt;
    if (auto* s = v->As<StaticMethodObj>()) return s->fn;
    if (auto* c = v->As<ClassMethodObj>())
      return Value(std::make_shared<BoundMethodObj>(Value(shared_from_this()), c->fn, name + "." + attr));
    return *v;
  }
  bool SetAttr(Interpreter&, const std::string& attr, const Value& v) override {
    attrs[attr] = v;
    return true;
  }
  Value Call(Interpreter& in, CallArgs& args) override {
    if (Flavor() != EnumFlavor::None) {
      if (args.pos.size() != 1 || !args.kw.empty())
        TypeError(name + "() takes exactly one argument: the value of a member");
      if (members.empty()) TypeError(name + "() has no members to look up");
      return EnumLookup(in, Value(shared_from_this()), args.pos[0]);
    }
    auto self = std::make_shared<InstanceObj>(std::static_pointer_cast<UserClassObj>(shared_from_this()));
    Value inst(self);
    if (Record() != RecordKind::None && (Record() == RecordKind::NamedTuple || !Find("__init__"))) {
      BindFields(in, *self, args);
      if (const Value* post = Find("__post_init__")) {
        CallArgs c;
        c.pos.push_back(inst);
        in.CallValue(*post, c);
      }
    } else if (const Value* init = Find("__init__")) {
      args.pos.insert(args.pos.begin(), inst);
      Value r = in.CallValue(*init, args);
      if (!r.IsNone()) TypeError("__init__() should return None, not '" + host::TypeName(r) + "'");
    } else if (!args.pos.empty() || !args.kw.empty()) {
      TypeError(name + "() takes no arguments");
    }
    return inst;
  }
  // An enum class indexes its members by name, iterates and counts them.
  Value GetItem(Interpreter& in, const Value& key) override {
    if (Flavor() == EnumFlavor::None) return Object::GetItem(in, key);
    for (const auto& [n, m] : member_names)
      if (const auto* s = key.As<StrObj>(); s && s->s == n) return m;
    KeyError(host::Repr(key));
  }
  std::optional<int64_t> Len() const override {
    if (Flavor() == EnumFlavor::None) return std::nullopt;
    return int64_t(members.size());
  }
  std::optional<std::vector<Value>> Iterate(Interpreter&) override {
    if (Flavor() == EnumFlavor::None) return std::nullopt;
    return members;
  }
  EnumFlavor Flavor() const {
    for (const UserClassObj* c = this; c; c = c->base.get())
      if (c->enum_flavor != EnumFlavor::None) return c->enum_flavor;
    return EnumFlavor::None;
  }
  bool DerivesFrom(const UserClassObj* other) const {
    for (const UserClassObj* c = this; c; c = c->base.get())
      if (c == other) return true;
    return false;
  }
  RecordKind Record() const {
    for (const UserClassObj* c = this; c; c = c->base.get())
      if (c->record != RecordKind::None) return c->record;
    return RecordKind::None;
  }
  // The fields of the bases first, as dataclasses orders them.
  std::vector<std::string> AllFields() const {
    std::vector<std::string> out = base ? base->AllFields() : std::vector<std::string>{};
    for (const auto& f : fields)
      if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
    return out;
  }
  void BindFields(Interpreter& in, InstanceObj& self, CallArgs& args) {
    const std::vector<std::string> all = AllFields();
    const std::string fn = name + (Record() == RecordKind::NamedTuple ? ".__new__()" : ".__init__()");
    if (args.pos.size() > all.size())
      TypeError(fn + " takes " + std::to_string(all.size() + 1) + " positional arguments but " +
                std::to_string(args.pos.size() + 1) + " were given");
    std::map<std::string, Value> got;
    for (size_t k = 0; k < args.pos.size(); ++k) got[all[k]] = args.pos[k];
    for (const auto& [key, v] : args.kw) {
      if (std::find(all.begin(), all.end(), key) == all.end())
        TypeError(fn + " got an unexpected keyword argument '" + key + "'");
      if (!got.emplace(key, v).second) TypeError(fn + " got multiple values for argument '" + key + "'");
    }
    for (const auto& f : all) {
      if (auto it = got.find(f); it != got.end()) {
        self.attrs[f] = it->second;
        continue;
      }
      const Value* d = Find(f);
      if (!d) TypeError(fn + " missing 1 required positional argument: '" + f + "'");
      if (auto* spec = d->As<FieldSpecObj>()) {
        if (spec->factory) {
          CallArgs none;
          self.attrs[f] = in.CallValue(*spec->factory, none);
        } else if (spec->default_value) {
          self.attrs[f] = *spec->default_value;
        } else {
          TypeError(fn + " missing 1 required positional argument: '" + f + "'");
        }
      } else {
        self.attrs[f] = *d;
      }
    }
  }
  std::string name;
  std::string module = "__main__";
  std::shared_ptr<UserClassObj> base;  // single inheritance; null: `object`
  std::map<std::string, Value> attrs;
  std::vector<std::string> fields;  // the class body's annotated names, in order
  RecordKind record = RecordKind::None;
  EnumFlavor enum_flavor = EnumFlavor::None;  // set on the `enum` module's base classes
  std::vector<Value> members;  // an enum's members in definition order, no aliases
  std::vector<std::pair<std::string, Value>> member_names;  // every name, aliases too
};

std::string InstanceObj::TypeName() const { return cls->name; }

std::vector<Value> InstanceObj::FieldValues() const {
  std::vector<Value> out;
  for (const auto& f : cls->AllFields()) {
    auto it = attrs.find(f);
    out.push_back(it == attrs.end() ? Value() : it->second);
  }
  return out;
}

Value InstanceObj::GetItem(Interpreter& in, const Value& key) {
  if (cls->Record() != RecordKind::NamedTuple) return Object::GetItem(in, key);
  return MakeTuple(FieldValues()).obj()->GetItem(in, key);
}

std::optional<int64_t> InstanceObj::Len() const {
  if (cls->Record() != RecordKind::NamedTuple) return std::nullopt;
  return int64_t(cls->AllFields().size());
}

std::optional<std::vector<Value>> InstanceObj::Iterate(Interpreter&) {
  if (cls->Record() != RecordKind::NamedTuple) return std::nullopt;
  return FieldValues();
}

std::optional<Value> InstanceObj::CmpOp(Interpreter& in, ast::CmpOp op, const Value& other, bool) {
  if (cls->Record() == RecordKind::None || (op != ast::CmpOp::Eq && op != ast::CmpOp::NotEq)) return std::nullopt;
  std::vector<Value> mine = FieldValues(), theirs;
  if (auto* o = other.As<InstanceObj>(); o && o->cls == cls) {
    theirs = o->FieldValues();
  } else if (cls->Record() == RecordKind::NamedTuple && other.As<TupleObj>()) {
    theirs = other.As<TupleObj>()->items;
  } else {
    return std::nullopt;
  }
  const bool eq = host::Truth(CompareValues(in, ast::CmpOp::Eq, MakeTuple(mine), MakeTuple(theirs)));
  return Value::Bool(op == ast::CmpOp::Eq ? eq : !eq);
}

std::string InstanceObj::Repr() const {
  if (cls->Record() != RecordKind::None) {
    std::string out = cls->name + "(";
    const auto fields = cls->AllFields();
    const auto values = FieldValues();
    for (size_t k = 0; k < fields.size(); ++k) out += (k ? ", " : "") + fields[k] + "=" + host::Repr(values[k]);
    return out + ")";
  }
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
  if (auto* c = v->As<ClassMethodObj>())
    return Value(std::make_shared<BoundMethodObj>(Value(cls), c->fn, cls->name + "." + name));
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
  for (const auto& st : s.body)
    if (const auto* a = st->As<ast::AnnAssign>())
      if (const auto* n = a->target->As<ast::Name>()) cls->fields.push_back(n->id);
  if (cls->base && cls->base->module == "typing" && cls->base->name == "NamedTuple") {
    cls->record = RecordKind::NamedTuple;
    cls->base = nullptr;
  }
  std::map<std::string, Value> ns;
  Frame frame;
  frame.chunk = frame_->chunk;
  frame.locals = &ns;
  frame.function = s.name;
  InFrame(frame, [&] { ExecBody(s.body); });
  cls->attrs = std::move(ns);
  if (const EnumFlavor flavor = cls->Flavor(); flavor != EnumFlavor::None) {
    // The body's plain names, in order, are the members; methods and `_private` names are not.
    std::vector<std::pair<std::string, Value>> body;
    for (const auto& st : s.body) {
      const auto* a = st->As<ast::Assign>();
      const auto* n = a && a->targets.size() == 1 ? a->targets[0]->As<ast::Name>() : nullptr;
      if (!n || n->id.rfind("_", 0) == 0) continue;
      auto it = cls->attrs.find(n->id);
      if (it == cls->attrs.end() || it->second.As<FunctionObj>() || it->second.As<LambdaObj>() ||
          it->second.As<StaticMethodObj>() || it->second.As<ClassMethodObj>() || IsHostClass(it->second))
        continue;
      if (std::none_of(body.begin(), body.end(), [&](const auto& p) { return p.first == n->id; }))
        body.emplace_back(n->id, it->second);
    }
    cls->member_names = MakeEnumMembers(*this, Value(cls), cls->name, flavor, body);
    for (const auto& [n, m] : cls->member_names) {
      cls->attrs[n] = m;
      if (std::none_of(cls->members.begin(), cls->members.end(), [&](const Value& x) { return x.obj() == m.obj(); }))
        cls->members.push_back(m);
    }
  }
  StoreName(s.name, Value(cls));
}

Value MakeRecordBase() { return MakeHostClass("typing", "NamedTuple", {}); }

Value MakeDataclass(const Value& cls) {
  auto* c = cls.As<UserClassObj>();
  if (!c) TypeError("dataclass() should be called on a class, not " + Repr(cls));
  c->record = RecordKind::Dataclass;
  return cls;
}

Value MakeFieldSpec(std::optional<Value> default_value, std::optional<Value> factory) {
  auto f = std::make_shared<FieldSpecObj>();
  f->default_value = std::move(default_value);
  f->factory = std::move(factory);
  return Value(f);
}

Value MakeStaticMethod(const Value& fn) { return Value(std::make_shared<StaticMethodObj>(fn)); }
Value MakeClassMethod(const Value& fn) { return Value(std::make_shared<ClassMethodObj>(fn)); }

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

Value MakeEnumBase(const std::string& name, EnumFlavor flavor) {
  Value cls = MakeHostClass("enum", name, {});
  cls.As<UserClassObj>()->enum_flavor = flavor;
  return cls;
}

Value MakeEnumClass(Interpreter& in, const std::string& module, const std::string& name, EnumFlavor flavor,
                    const std::vector<std::pair<std::string, Value>>& body) {
  auto cls = std::make_shared<UserClassObj>();
  cls->module = module;
  cls->name = name;
  const char* base = flavor == EnumFlavor::IntEnum ? "IntEnum" : flavor == EnumFlavor::Flag ? "Flag"
                     : flavor == EnumFlavor::IntFlag ? "IntFlag" : "Enum";
  cls->base = MakeEnumBase(base, flavor).AsRef<UserClassObj>();
  cls->member_names = MakeEnumMembers(in, Value(cls), name, flavor, body);
  for (const auto& [n, m] : cls->member_names) {
    cls->attrs[n] = m;
    if (std::none_of(cls->members.begin(), cls->members.end(), [&](const Value& x) { return x.obj() == m.obj(); }))
      cls->members.push_back(m);
  }
  return Value(cls);
}

EnumFlavor EnumFlavorOf(const Value& cls) {
  const auto* c = cls.As<UserClassObj>();
  return c ? c->Flavor() : EnumFlavor::None;
}

const std::vector<Value>* EnumMembersOf(const Value& cls) {
  const auto* c = cls.As<UserClassObj>();
  return c && c->Flavor() != EnumFlavor::None ? &c->members : nullptr;
}

Value MakeBoundMethod(Value self, Value fn, std::string name) {
  return Value(std::make_shared<BoundMethodObj>(std::move(self), std::move(fn), std::move(name)));
}

bool ClassDerivesFrom(const Value& cls, const Value& base) {
  auto* c = cls.As<UserClassObj>();
  auto* b = base.As<UserClassObj>();
  return c && b && c->DerivesFrom(b);
}

std::optional<Value> HostClassOf(const Value& instance) {
  if (auto* i = instance.As<InstanceObj>()) return Value(i->cls);
  if (std::optional<Value> e = EnumClassOf(instance)) return e;
  return std::nullopt;
}

std::vector<std::string> HostClassAttrNames(const Value& cls) {
  std::set<std::string> names;
  for (const UserClassObj* c = cls.As<UserClassObj>(); c; c = c->base.get())
    for (const auto& kv : c->attrs) names.insert(kv.first);
  return {names.begin(), names.end()};
}

}  // namespace tilec::host
