// Constant folding with Python's semantics for ints, floats and bools, so that a module
// constant computed here has the value the host interpreter would compute for it.
#include "frontend/sema/const_value.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "frontend/sema/types.h"
#include "support/half.h"

namespace tilec::sema {

ConstValue ConstValue::MakeBool(bool v) { ConstValue c; c.kind = Kind::Bool; c.b = v; return c; }
ConstValue ConstValue::MakeInt(int64_t v) { ConstValue c; c.kind = Kind::Int; c.i = v; return c; }
ConstValue ConstValue::MakeFloat(double v) { ConstValue c; c.kind = Kind::Float; c.f = v; return c; }

ConstValue InScalarType(const ConstValue& v, ScalarType t) {
  if (!IsFloat(t) || !v.IsNumber()) return v;
  return ConstValue::MakeFloat(RoundToFloatType(v.AsDouble(), t));
}
ConstValue ConstValue::MakeString(std::string v) {
  ConstValue c; c.kind = Kind::String; c.s = std::move(v); return c;
}
ConstValue ConstValue::MakeTuple(std::vector<ConstValue> v) {
  ConstValue c; c.kind = Kind::Tuple; c.elems = std::move(v); return c;
}
ConstValue ConstValue::MakeType(const Type* t) { ConstValue c; c.kind = Kind::Type; c.type = t; return c; }
ConstValue ConstValue::MakeComposite(const Type* t, std::vector<ConstValue> components) {
  ConstValue c;
  c.kind = Kind::Composite;
  c.type = t;
  c.elems = std::move(components);
  return c;
}

bool ConstValue::Truthy() const {
  switch (kind) {
    case Kind::None: return false;
    case Kind::Bool: return b;
    case Kind::Int: return i != 0;
    case Kind::Float: return f != 0;
    case Kind::String: return !s.empty();
    case Kind::Tuple: return !elems.empty();
    case Kind::Type: return true;
    case Kind::Composite: return true;
  }
  return false;
}

bool ConstValue::operator==(const ConstValue& o) const {
  if (IsNumber() && o.IsNumber()) {
    if (kind == Kind::Float || o.kind == Kind::Float) return AsDouble() == o.AsDouble();
    return AsInt() == o.AsInt();
  }
  if (kind != o.kind) return false;
  switch (kind) {
    case Kind::None: return true;
    case Kind::String: return s == o.s;
    case Kind::Tuple: return elems == o.elems;
    case Kind::Type: return type == o.type;
    case Kind::Composite: return type == o.type && elems == o.elems;
    default: return false;
  }
}

std::string FormatConst(const ConstValue& v) {
  switch (v.kind) {
    case ConstValue::Kind::None: return "None";
    case ConstValue::Kind::Bool: return v.b ? "True" : "False";
    case ConstValue::Kind::Int: return std::to_string(v.i);
    case ConstValue::Kind::Float: {
      // Python's repr: shortest round-trip form, always with a `.` or exponent.
      char buf[64];
      for (int prec = 1; prec <= 17; ++prec) {
        std::snprintf(buf, sizeof buf, "%.*g", prec, v.f);
        if (std::strtod(buf, nullptr) == v.f) break;
      }
      std::string s = buf;
      if (s.find_first_of(".einn") == std::string::npos) s += ".0";
      return s;
    }
    case ConstValue::Kind::String: return "'" + v.s + "'";
    case ConstValue::Kind::Tuple: {
      std::string s = "(";
      for (size_t i = 0; i < v.elems.size(); ++i) s += (i ? ", " : "") + FormatConst(v.elems[i]);
      if (v.elems.size() == 1) s += ",";
      return s + ")";
    }
    case ConstValue::Kind::Type: return TypeName(v.type);
    case ConstValue::Kind::Composite: {
      std::string s = TypeName(v.type) + "(";
      for (size_t i = 0; i < v.elems.size(); ++i) s += (i ? ", " : "") + FormatConst(v.elems[i]);
      return s + ")";
    }
  }
  return "?";
}

namespace {

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t FloorMod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

}  // namespace

std::optional<ConstValue> FoldBinary(ast::BinaryOp op, const ConstValue& a, const ConstValue& b,
                                     std::string& error, FoldRules rules) {
  const bool kernel = rules == FoldRules::Kernel;
  using Op = ast::BinaryOp;
  if (!a.IsNumber() || !b.IsNumber()) {
    error = "unsupported operand types";
    return std::nullopt;
  }
  bool is_float = a.kind == ConstValue::Kind::Float || b.kind == ConstValue::Kind::Float;
  if (is_float) {
    double x = a.AsDouble(), y = b.AsDouble();
    switch (op) {
      case Op::Add: return ConstValue::MakeFloat(x + y);
      case Op::Sub: return ConstValue::MakeFloat(x - y);
      case Op::Mul: return ConstValue::MakeFloat(x * y);
      case Op::Div:
      case Op::FloorDiv:
      case Op::Mod:
        if (kernel) {
          if (op == Op::Div) return ConstValue::MakeFloat(x / y);
          if (op == Op::FloorDiv) return ConstValue::MakeFloat(std::floor(x / y));
          return ConstValue::MakeFloat(std::fmod(x, y));
        }
        if (y == 0) { error = "division by zero"; return std::nullopt; }
        if (op == Op::Div) return ConstValue::MakeFloat(x / y);
        if (op == Op::FloorDiv) return ConstValue::MakeFloat(std::floor(x / y));
        {
          double r = std::fmod(x, y);
          if (r != 0 && ((r < 0) != (y < 0))) r += y;
          return ConstValue::MakeFloat(r);
        }
      case Op::Pow: return ConstValue::MakeFloat(std::pow(x, y));
      default: error = "operator needs integer operands"; return std::nullopt;
    }
  }
  int64_t x = a.AsInt(), y = b.AsInt();
  switch (op) {
    case Op::Add: return ConstValue::MakeInt(int64_t(uint64_t(x) + uint64_t(y)));
    case Op::Sub: return ConstValue::MakeInt(int64_t(uint64_t(x) - uint64_t(y)));
    case Op::Mul: return ConstValue::MakeInt(int64_t(uint64_t(x) * uint64_t(y)));
    case Op::Div:
      if (y == 0) { error = "division by zero"; return std::nullopt; }
      if (kernel) return ConstValue::MakeInt(y == -1 ? int64_t(0 - uint64_t(x)) : x / y);
      return ConstValue::MakeFloat(double(x) / double(y));
    case Op::FloorDiv:
      if (y == 0) { error = "division by zero"; return std::nullopt; }
      if (x == INT64_MIN && y == -1) { error = "integer overflow"; return std::nullopt; }
      return ConstValue::MakeInt(FloorDiv(x, y));
    case Op::Mod:
      if (y == 0) { error = "division by zero"; return std::nullopt; }
      if (y == -1) return ConstValue::MakeInt(0);
      return ConstValue::MakeInt(kernel ? x % y : FloorMod(x, y));
    case Op::Pow: {
      if (y < 0) return ConstValue::MakeFloat(std::pow(double(x), double(y)));
      int64_t r = 1;
      for (int64_t k = 0; k < y && k < 64; ++k) r = int64_t(uint64_t(r) * uint64_t(x));
      return ConstValue::MakeInt(r);
    }
    case Op::BitAnd: return ConstValue::MakeInt(x & y);
    case Op::BitOr: return ConstValue::MakeInt(x | y);
    case Op::BitXor: return ConstValue::MakeInt(x ^ y);
    case Op::LShift:
      if (y < 0 || y > 62) { error = "shift count out of range"; return std::nullopt; }
      return ConstValue::MakeInt(int64_t(uint64_t(x) << y));
    case Op::RShift:
      if (y < 0) { error = "negative shift count"; return std::nullopt; }
      return ConstValue::MakeInt(y > 63 ? (x < 0 ? -1 : 0) : x >> y);
    case Op::MatMul: error = "`@` is not defined on numbers"; return std::nullopt;
  }
  return std::nullopt;
}

std::optional<ConstValue> FoldUnary(ast::UnaryOp op, const ConstValue& a, std::string& error) {
  if (op == ast::UnaryOp::Not) return ConstValue::MakeBool(!a.Truthy());
  if (!a.IsNumber()) { error = "unsupported operand type"; return std::nullopt; }
  switch (op) {
    case ast::UnaryOp::Neg:
      if (a.kind == ConstValue::Kind::Float) return ConstValue::MakeFloat(-a.f);
      return ConstValue::MakeInt(int64_t(0 - uint64_t(a.AsInt())));
    case ast::UnaryOp::Pos:
      if (a.kind == ConstValue::Kind::Bool) return ConstValue::MakeInt(a.AsInt());
      return a;
    case ast::UnaryOp::Invert:
      if (a.kind == ConstValue::Kind::Float) { error = "`~` needs an integer"; return std::nullopt; }
      return ConstValue::MakeInt(~a.AsInt());
    default: return std::nullopt;
  }
}

std::optional<ConstValue> FoldCompare(ast::CmpOp op, const ConstValue& a, const ConstValue& b) {
  using Op = ast::CmpOp;
  if (op == Op::Eq) return ConstValue::MakeBool(a == b);
  if (op == Op::NotEq) return ConstValue::MakeBool(!(a == b));
  if (!a.IsNumber() || !b.IsNumber()) return std::nullopt;
  double x = a.AsDouble(), y = b.AsDouble();
  bool ints = a.kind != ConstValue::Kind::Float && b.kind != ConstValue::Kind::Float;
  int64_t xi = a.AsInt(), yi = b.AsInt();
  switch (op) {
    case Op::Lt: return ConstValue::MakeBool(ints ? xi < yi : x < y);
    case Op::LtE: return ConstValue::MakeBool(ints ? xi <= yi : x <= y);
    case Op::Gt: return ConstValue::MakeBool(ints ? xi > yi : x > y);
    case Op::GtE: return ConstValue::MakeBool(ints ? xi >= yi : x >= y);
    default: return std::nullopt;
  }
}

}  // namespace tilec::sema
