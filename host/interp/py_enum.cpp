// Enum members for host programs, as CPython 3.11 has them: singletons with a name and a
// value; IntEnum and IntFlag members are ints in arithmetic, comparisons and hashing, and a
// flag's `|`, `&`, `^` and `~` give members of its class (combinations named "A|B").
#include "host/interp/py_enum.h"

#include <map>

#include "host/interp/args.h"
#include "host/interp/errors.h"
#include "host/interp/interpreter.h"

namespace tilec::host {
namespace {

bool IntLike(EnumFlavor f) { return f == EnumFlavor::IntEnum || f == EnumFlavor::IntFlag; }
bool IsFlag(EnumFlavor f) { return f == EnumFlavor::Flag || f == EnumFlavor::IntFlag; }

// `enum.auto()`: a value the class numbers when it is made.
struct AutoObj : Object {
  std::string TypeName() const override { return "auto"; }
  std::string Repr() const override { return "auto(_auto_null)"; }
};

struct EnumMemberObj : Object {
  EnumMemberObj(Value cls, std::string cls_name, std::optional<std::string> name, Value value, EnumFlavor flavor)
      : cls(std::move(cls)), cls_name(std::move(cls_name)), name(std::move(name)), value(std::move(value)),
        flavor(flavor) {}
  std::string TypeName() const override { return cls_name; }
  std::string Repr() const override {
    if (!name) return "<" + cls_name + ": " + host::Repr(value) + ">";
    return "<" + cls_name + "." + *name + ": " + host::Repr(value) + ">";
  }
  // IntEnum and IntFlag print as their numbers (3.11's `int.__repr__`), the others by name.
  std::string Str() const override {
    if (IntLike(flavor)) return host::Repr(value);
    return cls_name + "." + (name ? *name : host::Repr(value));
  }
  bool Truth() const override { return flavor == EnumFlavor::Enum ? true : host::Truth(value); }
  std::optional<int64_t> AsIndex() const override {
    if (IntLike(flavor) && value.IsIntLike()) return value.i();
    return std::nullopt;
  }
  std::optional<Value> AsScalar() const override {
    if (IntLike(flavor)) return value;
    return std::nullopt;
  }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& attr) override {
    if (attr == "name" || attr == "_name_") return name ? MakeStr(*name) : Value();
    if (attr == "value" || attr == "_value_") return value;
    if (attr == "__class__") return cls;
    std::optional<Value> v = cls.obj()->GetAttr(in, attr);
    if (v && (v->As<FunctionObj>() || v->As<LambdaObj>()))
      return MakeBoundMethod(Value(shared_from_this()), *v, cls_name + "." + attr);
    return v;
  }
  std::optional<Value> BinOp(Interpreter& in, ast::BinaryOp op, const Value& other, bool reflected) override;
  std::optional<Value> CmpOp(Interpreter& in, ast::CmpOp op, const Value& other, bool reflected) override;
  std::optional<Value> UnaryOp(Interpreter& in, ast::UnaryOp op) override;

  Value cls;
  std::string cls_name;
  std::optional<std::string> name;  // none for a flag value no member spells
  Value value;
  EnumFlavor flavor;
};

// Combinations of flag members are made once per value, so that `(A | B) is (A | B)`.
std::map<std::pair<const Object*, int64_t>, Value>& FlagCache() {
  static std::map<std::pair<const Object*, int64_t>, Value> cache;
  return cache;
}

// The member of flag class `cls` for `bits`: a member itself, else the members it combines
// in definition order ("A|B"); bits no member has are kept, as IntFlag does.
Value FlagMember(const Value& cls, const std::string& cls_name, EnumFlavor flavor, int64_t bits) {
  const std::vector<Value>* members = EnumMembersOf(cls);
  for (const Value& m : *members)
    if (auto* e = m.As<EnumMemberObj>(); e->value.IsIntLike() && e->value.i() == bits) return m;
  Value& cached = FlagCache()[{cls.obj(), bits}];
  if (cached.IsObj()) return cached;
  std::optional<std::string> name;
  int64_t left = bits;
  for (const Value& m : *members) {
    const auto* e = m.As<EnumMemberObj>();
    int64_t b = e->value.IsIntLike() ? e->value.i() : 0;
    if (b == 0 || (b & (b - 1)) != 0 || (bits & b) != b) continue;
    name = name ? *name + "|" + *e->name : *e->name;
    left &= ~b;
  }
  if (left != 0 && bits != 0) {
    if (flavor != EnumFlavor::IntFlag)
      ValueError(std::to_string(bits) + " is not a valid " + cls_name);
    name = name ? *name + "|" + std::to_string(left) : std::to_string(left);
  }
  cached = Value(std::make_shared<EnumMemberObj>(cls, cls_name, name, Value::Int(bits), flavor));
  return cached;
}

// All the bits of a flag class's members (`~` complements within them).
int64_t FlagMask(const Value& cls) {
  int64_t mask = 0;
  for (const Value& m : *EnumMembersOf(cls))
    if (const auto* e = m.As<EnumMemberObj>(); e->value.IsIntLike()) mask |= e->value.i();
  return mask;
}

std::optional<Value> EnumMemberObj::BinOp(Interpreter& in, ast::BinaryOp op, const Value& other, bool reflected) {
  const auto* o = other.As<EnumMemberObj>();
  const bool bitwise = op == ast::BinaryOp::BitOr || op == ast::BinaryOp::BitAnd || op == ast::BinaryOp::BitXor;
  if (IsFlag(flavor) && bitwise && value.IsIntLike()) {
    std::optional<int64_t> b;
    if (o && o->cls.obj() == cls.obj()) b = o->value.i();
    else if (flavor == EnumFlavor::IntFlag && other.IsIntLike()) b = other.i();
    if (b) {
      int64_t a = value.i();
      int64_t r = op == ast::BinaryOp::BitOr ? (a | *b) : op == ast::BinaryOp::BitAnd ? (a & *b) : (a ^ *b);
      return FlagMember(cls, cls_name, flavor, r);
    }
  }
  if (!IntLike(flavor)) return std::nullopt;
  Value rhs = other;
  if (o) {
    if (!IntLike(o->flavor)) return std::nullopt;
    rhs = o->value;
  }
  if (rhs.IsObj()) return std::nullopt;
  return reflected ? BinaryOpValues(in, op, rhs, value) : BinaryOpValues(in, op, value, rhs);
}

std::optional<Value> EnumMemberObj::CmpOp(Interpreter& in, ast::CmpOp op, const Value& other, bool reflected) {
  const auto* o = other.As<EnumMemberObj>();
  if (!IntLike(flavor) || (o && !IntLike(o->flavor))) {
    // Plain members equal only themselves and have no order.
    if (op == ast::CmpOp::Eq) return Value::Bool(other.obj() == this);
    if (op == ast::CmpOp::NotEq) return Value::Bool(other.obj() != this);
    return std::nullopt;
  }
  Value rhs = o ? o->value : other;
  if (rhs.IsObj() && !rhs.obj()->AsScalar()) return std::nullopt;
  return reflected ? CompareValues(in, op, rhs, value) : CompareValues(in, op, value, rhs);
}

std::optional<Value> EnumMemberObj::UnaryOp(Interpreter& in, ast::UnaryOp op) {
  if (op == ast::UnaryOp::Invert && IsFlag(flavor) && value.IsIntLike())
    return FlagMember(cls, cls_name, flavor, FlagMask(cls) & ~value.i());
  if (!IntLike(flavor)) return std::nullopt;
  return UnaryOpValue(in, op, value);
}

}  // namespace

std::vector<std::pair<std::string, Value>> MakeEnumMembers(Interpreter&, const Value& cls, const std::string& cls_name,
                                                           EnumFlavor flavor,
                                                           const std::vector<std::pair<std::string, Value>>& body) {
  std::vector<std::pair<std::string, Value>> out;
  std::vector<Value> canonical;
  std::optional<int64_t> last;  // the last int value, for auto()
  for (const auto& [name, given] : body) {
    Value v = given;
    if (v.As<AutoObj>()) {
      if (IsFlag(flavor)) {
        int64_t high = 0;
        for (const Value& m : canonical)
          if (const auto* e = m.As<EnumMemberObj>(); e->value.IsIntLike()) high |= e->value.i();
        int64_t next = 1;
        while (next <= high && next > 0) next <<= 1;
        v = Value::Int(next);
      } else {
        v = Value::Int(last ? *last + 1 : 1);
      }
    }
    if (IntLike(flavor)) {
      if (v.IsObj())
        if (std::optional<int64_t> i = v.obj()->AsIndex()) v = Value::Int(*i);
      if (!v.IsIntLike())
        TypeError("invalid literal for int() with base 10: " + Repr(v) + " (" + cls_name + "." + name + ")");
      v = Value::Int(v.i());
    }
    if (v.IsIntLike()) last = v.i();
    Value member;
    for (const Value& m : canonical)
      if (ValueEquals(m.As<EnumMemberObj>()->value, v)) member = m;  // an alias
    if (!member.IsObj()) {
      member = Value(std::make_shared<EnumMemberObj>(cls, cls_name, name, v, flavor));
      canonical.push_back(member);
    }
    out.emplace_back(name, member);
  }
  return out;
}

Value EnumLookup(Interpreter& in, const Value& cls, const Value& value) {
  const std::vector<Value>* members = EnumMembersOf(cls);
  const EnumFlavor flavor = EnumFlavorOf(cls);
  if (value.As<EnumMemberObj>() && value.As<EnumMemberObj>()->cls.obj() == cls.obj()) return value;
  for (const Value& m : *members)
    if (ValueEquals(m.As<EnumMemberObj>()->value, value)) return m;
  const std::string cls_name = Str(in.GetAttr(cls, "__name__"));
  if (IsFlag(flavor) && value.IsIntLike() && !members->empty()) return FlagMember(cls, cls_name, flavor, value.i());
  ValueError(Repr(value) + " is not a valid " + cls_name);
}

std::optional<Value> EnumClassOf(const Value& member) {
  if (const auto* e = member.As<EnumMemberObj>()) return e->cls;
  return std::nullopt;
}

std::optional<int64_t> EnumIntValue(const Value& member) {
  if (const auto* e = member.As<EnumMemberObj>(); e && IntLike(e->flavor) && e->value.IsIntLike())
    return e->value.i();
  return std::nullopt;
}

Value MakeEnumModule() {
  auto m = std::make_shared<ModuleObj>("enum");
  m->attrs["Enum"] = MakeEnumBase("Enum", EnumFlavor::Enum);
  m->attrs["IntEnum"] = MakeEnumBase("IntEnum", EnumFlavor::IntEnum);
  m->attrs["Flag"] = MakeEnumBase("Flag", EnumFlavor::Flag);
  m->attrs["IntFlag"] = MakeEnumBase("IntFlag", EnumFlavor::IntFlag);
  m->Def("auto", [](Interpreter&, CallArgs& a) {
    ArgBinder b("auto", a, {}, 0);
    return Value(std::make_shared<AutoObj>());
  });
  // `@enum.unique`: no two names for one value.
  m->Def("unique", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("unique", a, {"enumeration"}, 1);
    const Value& cls = b.Get(0);
    const std::vector<Value>* members = EnumMembersOf(cls);
    if (!members) TypeError("unique() expected an enum class, got " + Repr(cls));
    std::string dups;
    Value all = in.GetAttr(cls, "__members__");
    for (const auto& [key, member] : all.As<DictObj>()->items) {
      const std::string& n = key.As<StrObj>()->s;
      if (*member.As<EnumMemberObj>()->name != n)
        dups += (dups.empty() ? "" : ", ") + n + " -> " + *member.As<EnumMemberObj>()->name;
    }
    if (!dups.empty()) ValueError("duplicate values found in " + Repr(cls) + ": " + dups);
    return cls;
  });
  return Value(m);
}

}  // namespace tilec::host
