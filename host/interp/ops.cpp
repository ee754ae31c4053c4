// Python operators: int and float arithmetic with floor-division and modulo rules, sequence
// concatenation and repetition, `%` string formatting, comparisons and membership. Objects
// (ndarrays, NumPy scalars) take over through Object::BinOp/CmpOp/UnaryOp.
#include <cmath>
#include <cstdio>

#include "host/interp/args.h"
#include "host/interp/format.h"
#include "host/interp/interpreter.h"

namespace tilec::host {

namespace {

using ast::BinaryOp;

[[noreturn]] void Unsupported(BinaryOp op, const Value& a, const Value& b) {
  TypeError(std::string("unsupported operand type(s) for ") + ast::Spelling(op) + ": '" +
            TypeName(a) + "' and '" + TypeName(b) + "'");
}

[[noreturn]] void Overflow() { Raise("OverflowError", "integer overflow (host ints are 64-bit)"); }

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t FloorMod(int64_t a, int64_t b) {
  int64_t m = a % b;
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}

std::optional<Value> IntOp(BinaryOp op, int64_t a, int64_t b, bool both_bool) {
  int64_t r;
  switch (op) {
    case BinaryOp::Add: if (__builtin_add_overflow(a, b, &r)) Overflow(); return Value::Int(r);
    case BinaryOp::Sub: if (__builtin_sub_overflow(a, b, &r)) Overflow(); return Value::Int(r);
    case BinaryOp::Mul: if (__builtin_mul_overflow(a, b, &r)) Overflow(); return Value::Int(r);
    case BinaryOp::Div:
      if (b == 0) Raise("ZeroDivisionError", "division by zero");
      return Value::Float(double(a) / double(b));
    case BinaryOp::FloorDiv:
      if (b == 0) Raise("ZeroDivisionError", "integer division or modulo by zero");
      if (a == INT64_MIN && b == -1) Overflow();
      return Value::Int(FloorDiv(a, b));
    case BinaryOp::Mod:
      if (b == 0) Raise("ZeroDivisionError", "integer modulo by zero");
      if (b == -1) return Value::Int(0);
      return Value::Int(FloorMod(a, b));
    case BinaryOp::Pow: {
      if (b < 0) {
        if (a == 0) Raise("ZeroDivisionError", "0.0 cannot be raised to a negative power");
        return Value::Float(std::pow(double(a), double(b)));
      }
      int64_t result = 1, base = a;
      for (int64_t e = b; e > 0; e >>= 1) {
        if (e & 1)
          if (__builtin_mul_overflow(result, base, &result)) Overflow();
        if (e > 1 && __builtin_mul_overflow(base, base, &base)) Overflow();
      }
      return Value::Int(result);
    }
    case BinaryOp::BitAnd: return both_bool ? Value::Bool(a & b) : Value::Int(a & b);
    case BinaryOp::BitOr: return both_bool ? Value::Bool(a | b) : Value::Int(a | b);
    case BinaryOp::BitXor: return both_bool ? Value::Bool(a ^ b) : Value::Int(a ^ b);
    case BinaryOp::LShift:
      if (b < 0) ValueError("negative shift count");
      if (b >= 63 || (a != 0 && (a > (INT64_MAX >> b) || a < (INT64_MIN >> b)))) {
        if (a == 0) return Value::Int(0);
        Overflow();
      }
      return Value::Int(a * (int64_t(1) << b));
    case BinaryOp::RShift:
      if (b < 0) ValueError("negative shift count");
      return Value::Int(b >= 64 ? (a < 0 ? -1 : 0) : a >> b);
    case BinaryOp::MatMul: return std::nullopt;
  }
  return std::nullopt;
}

std::optional<Value> FloatOp(BinaryOp op, double a, double b) {
  switch (op) {
    case BinaryOp::Add: return Value::Float(a + b);
    case BinaryOp::Sub: return Value::Float(a - b);
    case BinaryOp::Mul: return Value::Float(a * b);
    case BinaryOp::Div:
      if (b == 0) Raise("ZeroDivisionError", "float division by zero");
      return Value::Float(a / b);
    case BinaryOp::FloorDiv:
    case BinaryOp::Mod: {
      if (b == 0)
        Raise("ZeroDivisionError", op == BinaryOp::Mod ? "float modulo" : "float floor division by zero");
      double mod = std::fmod(a, b);
      double div = (a - mod) / b;
      if (mod != 0) {
        if ((b < 0) != (mod < 0)) {
          mod += b;
          div -= 1.0;
        }
      } else {
        mod = std::copysign(0.0, b);
      }
      double floordiv;
      if (div != 0) {
        floordiv = std::floor(div);
        if (div - floordiv > 0.5) floordiv += 1.0;
      } else {
        floordiv = std::copysign(0.0, a / b);
      }
      return Value::Float(op == BinaryOp::Mod ? mod : floordiv);
    }
    case BinaryOp::Pow:
      if (a == 0 && b < 0) Raise("ZeroDivisionError", "0.0 cannot be raised to a negative power");
      if (a < 0 && b != std::floor(b))
        ValueError("negative number cannot be raised to a fractional power (complex numbers are not supported)");
      return Value::Float(std::pow(a, b));
    default:
      return std::nullopt;
  }
}

std::vector<Value> Repeat(const std::vector<Value>& items, int64_t n) {
  std::vector<Value> out;
  for (int64_t k = 0; k < n; ++k) out.insert(out.end(), items.begin(), items.end());
  return out;
}

}  // namespace

Value BinaryOpValues(Interpreter& in, BinaryOp op, const Value& a, const Value& b) {
  if (a.IsNumber() && b.IsNumber()) {
    std::optional<Value> r;
    if (a.IsFloat() || b.IsFloat()) r = FloatOp(op, a.AsDouble(), b.AsDouble());
    else r = IntOp(op, a.i(), b.i(), a.IsBool() && b.IsBool());
    if (r) return *r;
    Unsupported(op, a, b);
  }
  if (auto* s = a.As<StrObj>()) {
    if (op == BinaryOp::Add) {
      if (auto* t = b.As<StrObj>()) return MakeStr(s->s + t->s);
      TypeError("can only concatenate str (not \"" + TypeName(b) + "\") to str");
    }
    if (op == BinaryOp::Mul) {
      if (!b.IsIntLike()) TypeError("can't multiply sequence by non-int of type '" + TypeName(b) + "'");
      std::string out;
      for (int64_t k = 0; k < b.i(); ++k) out += s->s;
      return MakeStr(out);
    }
    if (op == BinaryOp::Mod) return MakeStr(PercentFormat(in, s->s, b));
  }
  if (auto* l = a.As<ListObj>()) {
    if (op == BinaryOp::Add) {
      auto* m = b.As<ListObj>();
      if (!m) TypeError("can only concatenate list (not \"" + TypeName(b) + "\") to list");
      std::vector<Value> out = l->items;
      out.insert(out.end(), m->items.begin(), m->items.end());
      return MakeList(out);
    }
    if (op == BinaryOp::Mul) {
      if (!b.IsIntLike()) TypeError("can't multiply sequence by non-int of type '" + TypeName(b) + "'");
      return MakeList(Repeat(l->items, b.i()));
    }
  }
  if (auto* t = a.As<TupleObj>()) {
    if (op == BinaryOp::Add) {
      auto* u = b.As<TupleObj>();
      if (!u) TypeError("can only concatenate tuple (not \"" + TypeName(b) + "\") to tuple");
      std::vector<Value> out = t->items;
      out.insert(out.end(), u->items.begin(), u->items.end());
      return MakeTuple(out);
    }
    if (op == BinaryOp::Mul) {
      if (!b.IsIntLike()) TypeError("can't multiply sequence by non-int of type '" + TypeName(b) + "'");
      return MakeTuple(Repeat(t->items, b.i()));
    }
  }
  if (op == BinaryOp::Mul && a.IsIntLike()) {
    if (auto* l = b.As<ListObj>()) return MakeList(Repeat(l->items, a.i()));
    if (auto* t = b.As<TupleObj>()) return MakeTuple(Repeat(t->items, a.i()));
    if (auto* s = b.As<StrObj>()) {
      std::string out;
      for (int64_t k = 0; k < a.i(); ++k) out += s->s;
      return MakeStr(out);
    }
  }
  if (a.IsObj())
    if (auto r = a.obj()->BinOp(in, op, b, false)) return *r;
  if (b.IsObj())
    if (auto r = b.obj()->BinOp(in, op, a, true)) return *r;
  Unsupported(op, a, b);
}

Value UnaryOpValue(Interpreter& in, ast::UnaryOp op, const Value& a) {
  if (op == ast::UnaryOp::Not) return Value::Bool(!Truth(a));
  if (a.IsIntLike()) {
    switch (op) {
      case ast::UnaryOp::Neg:
        if (a.i() == INT64_MIN) Overflow();
        return Value::Int(-a.i());
      case ast::UnaryOp::Pos: return Value::Int(a.i());
      case ast::UnaryOp::Invert: return Value::Int(~a.i());
      default: break;
    }
  }
  if (a.IsFloat()) {
    if (op == ast::UnaryOp::Neg) return Value::Float(-a.f());
    if (op == ast::UnaryOp::Pos) return a;
  }
  if (a.IsObj())
    if (auto r = a.obj()->UnaryOp(in, op)) return *r;
  TypeError(std::string("bad operand type for unary ") + ast::Spelling(op) + ": '" + TypeName(a) + "'");
}

namespace {

// -1, 0, 1, or nullopt when the two values have no order.
std::optional<int> Order(Interpreter& in, const Value& a, const Value& b);

std::optional<int> SeqOrder(Interpreter& in, const std::vector<Value>& x, const std::vector<Value>& y) {
  for (size_t k = 0; k < x.size() && k < y.size(); ++k) {
    if (ValueEquals(x[k], y[k])) continue;
    return Order(in, x[k], y[k]);
  }
  return x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0;
}

std::optional<int> Order(Interpreter& in, const Value& a, const Value& b) {
  if (a.IsNumber() && b.IsNumber()) {
    if (a.IsFloat() || b.IsFloat()) {
      double x = a.AsDouble(), y = b.AsDouble();
      if (std::isnan(x) || std::isnan(y)) return 2;  // unordered: every comparison false
      return x < y ? -1 : x > y ? 1 : 0;
    }
    return a.i() < b.i() ? -1 : a.i() > b.i() ? 1 : 0;
  }
  if (auto* s = a.As<StrObj>())
    if (auto* t = b.As<StrObj>()) {
      int c = s->s.compare(t->s);
      return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
  if (auto* s = a.As<ListObj>())
    if (auto* t = b.As<ListObj>()) return SeqOrder(in, s->items, t->items);
  if (auto* s = a.As<TupleObj>())
    if (auto* t = b.As<TupleObj>()) return SeqOrder(in, s->items, t->items);
  return std::nullopt;
}

bool Contains(Interpreter& in, const Value& container, const Value& item) {
  if (auto* s = container.As<StrObj>()) {
    auto* t = item.As<StrObj>();
    if (!t) TypeError("'in <string>' requires string as left operand, not " + TypeName(item));
    return s->s.find(t->s) != std::string::npos;
  }
  if (auto* d = container.As<DictObj>()) return d->Find(item) != nullptr;
  if (auto* r = container.As<RangeObj>()) {
    if (!item.IsIntLike()) return false;
    int64_t i = item.i();
    if (r->step > 0 ? (i < r->start || i >= r->stop) : (i > r->start || i <= r->stop)) return false;
    return (i - r->start) % r->step == 0;
  }
  if (!container.IsObj() || !container.obj()->Len())
    TypeError("argument of type '" + TypeName(container) + "' is not iterable");
  for (const Value& v : IterateValue(in, container))
    if ((v.IsObj() && item.IsObj() && v.obj() == item.obj()) || ValueEquals(v, item)) return true;
  return false;
}

bool Identical(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case VKind::None: return true;
    case VKind::Bool:
    case VKind::Int: return a.i() == b.i();
    case VKind::Float: return a.f() == b.f();
    case VKind::Obj: return a.obj() == b.obj();
  }
  return false;
}

}  // namespace

Value CompareValues(Interpreter& in, ast::CmpOp op, const Value& a, const Value& b) {
  using ast::CmpOp;
  switch (op) {
    case CmpOp::Is: return Value::Bool(Identical(a, b));
    case CmpOp::IsNot: return Value::Bool(!Identical(a, b));
    case CmpOp::In: return Value::Bool(Contains(in, b, a));
    case CmpOp::NotIn: return Value::Bool(!Contains(in, b, a));
    default: break;
  }
  if (a.IsObj())
    if (auto r = a.obj()->CmpOp(in, op, b, false)) return *r;
  if (b.IsObj())
    if (auto r = b.obj()->CmpOp(in, op, a, true)) return *r;
  if (op == CmpOp::Eq) return Value::Bool(ValueEquals(a, b));
  if (op == CmpOp::NotEq) return Value::Bool(!ValueEquals(a, b));
  std::optional<int> o = Order(in, a, b);
  if (!o)
    TypeError(std::string("'") + ast::Spelling(op) + "' not supported between instances of '" +
              TypeName(a) + "' and '" + TypeName(b) + "'");
  if (*o == 2) return Value::Bool(false);
  switch (op) {
    case CmpOp::Lt: return Value::Bool(*o < 0);
    case CmpOp::LtE: return Value::Bool(*o <= 0);
    case CmpOp::Gt: return Value::Bool(*o > 0);
    case CmpOp::GtE: return Value::Bool(*o >= 0);
    default: return Value::Bool(false);
  }
}

}  // namespace tilec::host
