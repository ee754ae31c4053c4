// Host values of Warp's vector-like types and host calls of its vector-math builtins.
//
// A value keeps its components in an owned 1-D NdArray of its scalar type, so arithmetic
// rounds as the scalar type does (float32 stays float32) and NumPy conversions are views of
// the same data. Printing follows Warp 1.19's `__str__`/`__repr__` (warp/_src/types.py): a
// vector prints `[1.0, 2.0, 3.0]` (each component as Python prints the float it converts to),
// a matrix its rows joined by ",\n ". Products of matrices and quaternions, and every builtin
// call (`wp.inverse(m)`, `wp.quat_rpy(...)`), are evaluated by compiling a one-line kernel
// once per expression and argument types and launching it with dim=1 on the CPU.
#include "host/interp/wp_composite.h"

#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "host/interp/args.h"
#include "host/interp/array_values.h"
#include "host/interp/errors.h"
#include "host/interp/interpreter.h"
#include "host/interp/kernel_compile.h"
#include "host/interp/wp_values.h"

namespace tilec::host {

// A compiled host call: the kernel and the types of its out arrays (one, or one per element of
// a tuple result).
struct HostCallEntry {
  rt::Kernel kernel;
  std::vector<ProbedType> results;
  bool tuple = false;
};

namespace {

// Warp's type_repr: vec3f, quatf, transformf, mat22f; vector(length=6, dtype=float32) for
// vectors longer than 4 (spatial vectors among them).
std::string TypeReprOf(const Composite& c) {
  std::string sn(CompositeSuffix(c.scalar));
  std::string dt(ScalarName(c.scalar));
  switch (c.kind) {
    case CompositeKind::Transform: return "transform" + sn;
    case CompositeKind::Quaternion: return "quat" + sn;
    case CompositeKind::Vector:
    case CompositeKind::SpatialVector:
      if (c.rows <= 4) return "vec" + std::to_string(c.rows) + sn;
      return "vector(length=" + std::to_string(c.rows) + ", dtype=" + dt + ")";
    case CompositeKind::Matrix:
    case CompositeKind::SpatialMatrix:
      if (c.rows <= 4 && c.cols <= 4) return "mat" + std::to_string(c.rows) + std::to_string(c.cols) + sn;
      return "matrix(shape=(" + std::to_string(c.rows) + ", " + std::to_string(c.cols) + "), dtype=" + dt + ")";
    case CompositeKind::None: break;
  }
  return "?";
}

std::string ElemStr(const Value& v) { return Str(v); }
std::string ElemRepr(const Value& v) { return Repr(v); }

// The scalars `v` stands for, appended to `out`: a number, a composite value, or any nested
// sequence / array.
void Flatten(Interpreter& in, const Value& v, std::vector<Scalar>& out, const std::string& ctx) {
  if (auto s = ToNdScalar(v)) {
    out.push_back(*s);
    return;
  }
  if (auto* c = v.As<CompositeValueObj>()) {
    for (int64_t i = 0; i < c->a.size(); ++i) out.push_back(c->a.GetFlat(i));
    return;
  }
  NdArray nd = ToNdArray(in, v, ctx);
  for (int64_t i = 0; i < nd.size(); ++i) out.push_back(nd.GetFlat(i));
}

NdArray FromScalars(const std::vector<Scalar>& s, ScalarType t) {
  NdArray a = NdArray::Zeros({int64_t(s.size())}, t);
  for (size_t i = 0; i < s.size(); ++i) a.SetFlat(int64_t(i), s[i]);
  return a;
}

const char* CtorWord(const Composite& c) { return c.is_matrix() ? "matrix" : "vector"; }

Value Construct(Interpreter& in, const Composite& c, bool generic, CallArgs& args) {
  std::string ctx = CompositeName(c) + "()";
  std::vector<Value> pos = args.pos;
  if (!args.kw.empty()) {
    // transform(p=..., q=...): keywords after the positional ones.
    if (c.kind != CompositeKind::Transform) TypeError(ctx + " takes no keyword arguments");
    Value p, q;
    if (!pos.empty()) p = pos[0];
    if (pos.size() > 1) q = pos[1];
    if (pos.size() > 2) TypeError(ctx + " takes at most 2 arguments (p, q)");
    for (auto& [k, v] : args.kw) {
      if (k == "p") p = v;
      else if (k == "q") q = v;
      else if (k == "dtype") continue;
      else TypeError(ctx + " got an unexpected keyword argument '" + k + "'");
    }
    pos.clear();
    if (!p.IsNone()) pos.push_back(p);
    else if (!q.IsNone()) pos.push_back(MakeList({Value::Float(0), Value::Float(0), Value::Float(0)}));
    if (!q.IsNone()) pos.push_back(q);
  }
  int64_t n = c.length();
  if (pos.empty()) {
    NdArray z = NdArray::Zeros({n}, c.scalar);
    if (c.kind == CompositeKind::Transform) z.SetFlat(6, Scalar::Float(1.0));
    return MakeCompositeValue(c, z, generic);
  }
  // A matrix from rows: each row has the matrix's column count (Warp's message).
  if (c.is_matrix() && int64_t(pos.size()) == c.rows && c.rows > 1)
    for (const Value& row : pos)
      if (!ToNdScalar(row) && !row.As<CompositeValueObj>() && row.IsObj() && row.obj()->Len() &&
          *row.obj()->Len() != c.cols)
        TypeError("Invalid argument in matrix constructor, expected row of length " + std::to_string(c.cols) +
                  ", got " + Repr(row));
  std::vector<Scalar> s;
  for (const Value& v : pos) Flatten(in, v, s, ctx);
  if (pos.size() == 1 && s.size() == 1 && ToNdScalar(pos[0])) {
    NdArray a = NdArray::Full({n}, s[0], c.scalar);
    return MakeCompositeValue(c, a, generic);
  }
  if (c.kind == CompositeKind::Transform && s.size() == 3) {
    // transform(p): the identity rotation.
    for (double x : {0.0, 0.0, 0.0, 1.0}) s.push_back(Scalar::Float(x));
  }
  if (int64_t(s.size()) != n)
    ValueError("Invalid number of arguments in " + std::string(CtorWord(c)) + " constructor, expected " +
               std::to_string(n) + " elements, got " + std::to_string(s.size()));
  return MakeCompositeValue(c, FromScalars(s, c.scalar), generic);
}

std::optional<int64_t> IntKey(const Value& v) {
  if (v.IsIntLike()) return v.i();
  if (v.IsObj())
    if (auto i = v.obj()->AsIndex()) return *i;
  return std::nullopt;
}

Scalar ScalarArg(const Value& v, const std::string& ctx) {
  if (auto s = ToNdScalar(v)) return *s;
  TypeError(ctx + ": expected a number, got " + TypeName(v));
}

// The field an attribute names: x, y, z, w of vectors up to 4 and quaternions.
std::optional<int> SwizzleOf(const Composite& c, const std::string& name) {
  if (name.size() != 1) return std::nullopt;
  if (!((c.kind == CompositeKind::Vector && c.rows <= 4) || c.kind == CompositeKind::Quaternion)) return std::nullopt;
  int i = SwizzleIndex(name[0]);
  if (i < 0 || i >= c.length()) return std::nullopt;
  return i;
}

}  // namespace

// ---------------------------------------------------------------- values

CompositeValueObj::CompositeValueObj(Composite c, const NdArray& flat, bool generic)
    : c(c), a(flat.Reshape({flat.size()}).AsType(c.scalar)), generic(generic) {}

Value MakeCompositeValue(const Composite& c, const NdArray& flat, bool generic) {
  if (flat.size() != c.length())
    ValueError(CompositeName(c) + ": expected " + std::to_string(c.length()) + " components, got " +
               std::to_string(flat.size()));
  return Value(std::make_shared<CompositeValueObj>(c, flat, generic));
}

Value CompositeFromBytes(const Composite& c, const void* bytes) {
  NdArray a = NdArray::Empty({c.length()}, c.scalar);
  std::memcpy(a.data(), bytes, c.size_bytes());
  return MakeCompositeValue(c, a);
}

std::string CompositeValueObj::TypeName() const { return CompositeName(c); }

Value CompositeValueObj::Component(int64_t flat) const { return ScalarToValue(a.GetFlat(flat)); }

std::vector<uint8_t> CompositeValueObj::Bytes() const {
  std::vector<uint8_t> b(c.size_bytes());
  std::memcpy(b.data(), a.data(), b.size());
  return b;
}

std::string CompositeValueObj::Str() const {
  auto row = [&](int64_t from, int64_t count) {
    std::string s = "[";
    for (int64_t i = 0; i < count; ++i) s += (i ? ", " : "") + ElemStr(Component(from + i));
    return s + "]";
  };
  if (!c.is_matrix()) return row(0, c.length());
  std::string s = "[";
  for (int r = 0; r < c.rows; ++r) s += (r ? ",\n " : "") + row(int64_t(r) * c.cols, c.cols);
  return s + "]";
}

std::string CompositeValueObj::Repr() const {
  // Warp's matrices keep Python's default object repr (an address); their str is shown instead.
  if (c.is_matrix()) return Str();
  std::string s = TypeReprOf(c) + "([";
  for (int64_t i = 0; i < c.length(); ++i) s += (i ? ", " : "") + ElemRepr(Component(i));
  return s + "])";
}

std::optional<Value> CompositeValueObj::GetAttr(Interpreter& in, const std::string& name) {
  if (auto i = SwizzleOf(c, name)) return Component(*i);
  if (auto it = attrs.find(name); it != attrs.end()) return it->second;
  // The class's own attributes, read through an instance as in Python.
  if (name == "_shape_" || name == "_length_" || name == "_wp_scalar_type_")
    return CompositeTypeObj(c, generic).GetAttr(in, name);
  if (c.is_matrix() && (name == "get_row" || name == "set_row")) {
    auto self = std::static_pointer_cast<CompositeValueObj>(shared_from_this());
    const bool set = name == "set_row";
    return Value(std::make_shared<BuiltinFn>(name, [self, set](Interpreter& in, CallArgs& args) {
      ArgBinder b(set ? "set_row" : "get_row", args, set ? std::vector<std::string>{"r", "v"} : std::vector<std::string>{"r"},
                  set ? 2 : 1);
      const int64_t r = ToInt(b.Get(0), "row index");
      if (r < 0 || r >= self->c.rows) IndexError("Invalid row index");
      if (!set) return self->GetItem(in, Value::Int(r));
      self->SetItem(in, Value::Int(r), b.Get(1));
      return Value();
    }));
  }
  if (c.kind == CompositeKind::Transform) {
    if (name == "p") return MakeCompositeValue(Composite::Vector(3, c.scalar), a.Index(std::vector<IndexItem>{IndexItem::Range(0, 3)}));
    if (name == "q") return MakeCompositeValue(Composite::Quat(c.scalar), a.Index(std::vector<IndexItem>{IndexItem::Range(3, 7)}));
  }
  return std::nullopt;
}

bool CompositeValueObj::SetAttr(Interpreter& in, const std::string& name, const Value& v) {
  if (auto i = SwizzleOf(c, name)) {
    a.SetFlat(*i, ScalarArg(v, CompositeName(c) + "." + name));
    return true;
  }
  if (c.kind == CompositeKind::Transform && (name == "p" || name == "q")) {
    std::vector<Scalar> s;
    Flatten(in, v, s, "transform." + name);
    size_t from = name == "p" ? 0 : 3, count = name == "p" ? 3 : 4;
    if (s.size() != count) ValueError("transform." + name + ": expected " + std::to_string(count) + " components");
    for (size_t k = 0; k < count; ++k) a.SetFlat(int64_t(from + k), s[k]);
    return true;
  }
  // Like any Python object, a value takes new attributes (Warp's vectors and matrices do).
  attrs[name] = v;
  return true;
}

Value CompositeValueObj::GetItem(Interpreter&, const Value& key) {
  auto norm = [&](int64_t i, int64_t n) {
    if (i < 0) i += n;
    if (i < 0 || i >= n) IndexError("Invalid index " + std::to_string(i) + " for " + CompositeName(c));
    return i;
  };
  if (c.is_matrix()) {
    if (auto* t = key.As<TupleObj>(); t && t->items.size() == 2) {
      auto r = IntKey(t->items[0]), k = IntKey(t->items[1]);
      if (!r || !k) TypeError(CompositeName(c) + " indices must be integers");
      return Component(norm(*r, c.rows) * c.cols + norm(*k, c.cols));
    }
    MatrixKeyCheck(key);
    auto r = IntKey(key);
    if (!r) KeyError("Invalid key " + host::Repr(key) + ", expected int or pair of ints");
    int64_t row = norm(*r, c.rows);
    return MakeCompositeValue(Composite::Vector(c.cols, c.scalar),
                              a.Index(std::vector<IndexItem>{IndexItem::Range(row * c.cols, (row + 1) * c.cols)}), true);
  }
  if (auto* s = key.As<SliceObj>()) {
    int64_t start, stop, step, count;
    s->Indices(c.length(), start, stop, step, count);
    NdArray sub = NdArray::Empty({count}, c.scalar);
    for (int64_t k = 0; k < count; ++k) sub.SetFlat(k, a.GetFlat(start + k * step));
    return MakeCompositeValue(Composite::Vector(int(count), c.scalar), sub, true);
  }
  auto i = IntKey(key);
  if (!i) KeyError("Invalid key " + host::Repr(key) + ", expected int or slice");
  return Component(norm(*i, c.length()));
}

void CompositeValueObj::SetItem(Interpreter& in, const Value& key, const Value& v) {
  auto norm = [&](int64_t i, int64_t n) {
    if (i < 0) i += n;
    if (i < 0 || i >= n) IndexError("Invalid index " + std::to_string(i) + " for " + CompositeName(c));
    return i;
  };
  // Warp's messages for a value of the wrong kind.
  const std::string scalar = std::string(ScalarName(c.scalar));
  auto item = [&](const Value& x) {
    if (std::optional<Scalar> sc = ToNdScalar(x)) return *sc;
    TypeError("Expected to assign a `" + scalar + "` value but got `" + host::TypeName(x) + "` instead");
  };
  // The components a slice or a row takes: a sequence of numbers of the same length.
  auto items = [&](const Value& x, int64_t count) {
    std::vector<Scalar> out;
    if (std::optional<Scalar> one = ToNdScalar(x)) return std::vector<Scalar>(size_t(count), *one);
    for (const Value& e : IterateValue(in, x)) {
      std::optional<Scalar> sc = ToNdScalar(e);
      if (!sc)
        TypeError("Expected to assign a slice from a sequence of `" + scalar + "` values but got `" +
                  host::TypeName(e) + "` instead");
      out.push_back(*sc);
    }
    if (int64_t(out.size()) != count) ValueError("Can only assign sequence of same size");
    return out;
  };
  if (c.is_matrix()) {
    if (auto* t = key.As<TupleObj>(); t && t->items.size() == 2) {
      auto r = IntKey(t->items[0]), k = IntKey(t->items[1]);
      if (!r || !k) TypeError(CompositeName(c) + " indices must be integers");
      a.SetFlat(norm(*r, c.rows) * c.cols + norm(*k, c.cols), item(v));
      return;
    }
    MatrixKeyCheck(key);
    auto r = IntKey(key);
    if (!r) KeyError("Invalid key " + host::Repr(key) + ", expected int or pair of ints");
    int64_t row = norm(*r, c.rows);
    std::vector<Scalar> s = items(v, c.cols);
    for (int k = 0; k < c.cols; ++k) a.SetFlat(row * c.cols + k, s[size_t(k)]);
    return;
  }
  if (auto* sl = key.As<SliceObj>()) {
    int64_t start, stop, step, count;
    sl->Indices(c.length(), start, stop, step, count);
    std::vector<Scalar> s = items(v, count);
    for (int64_t k = 0; k < count; ++k) a.SetFlat(start + k * step, s[size_t(k)]);
    return;
  }
  auto i = IntKey(key);
  if (!i) KeyError("Invalid key " + host::Repr(key) + ", expected int or slice");
  a.SetFlat(norm(*i, c.length()), item(v));
}

void CompositeValueObj::MatrixKeyCheck(const Value& key) const {
  if (auto* t = key.As<TupleObj>(); t && t->items.size() != 2 && t->items.size() != 1)
    KeyError("Invalid key, expected one or two indices, got " + std::to_string(t->items.size()));
}

std::optional<std::vector<Value>> CompositeValueObj::Iterate(Interpreter& in) {
  std::vector<Value> out;
  if (c.is_matrix()) {
    for (int r = 0; r < c.rows; ++r) out.push_back(GetItem(in, Value::Int(r)));
  } else {
    for (int64_t i = 0; i < c.length(); ++i) out.push_back(Component(i));
  }
  return out;
}

std::optional<Value> CompositeValueObj::BinOp(Interpreter& in, ast::BinaryOp op, const Value& other,
                                              bool reflected) {
  auto* o = other.As<CompositeValueObj>();
  Value self(shared_from_this());
  if (op == ast::BinaryOp::Add || op == ast::BinaryOp::Sub) {
    if (!o) return std::nullopt;
    if (!(o->c == c))
      TypeError("unsupported operand types for " + std::string(op == ast::BinaryOp::Add ? "+" : "-") + ": '" +
                (reflected ? o->TypeName() : TypeName()) + "' and '" + (reflected ? TypeName() : o->TypeName()) + "'");
    BinaryOp b = op == ast::BinaryOp::Add ? BinaryOp::Add : BinaryOp::Sub;
    return MakeCompositeValue(c, reflected ? Binary(b, o->a, a) : Binary(b, a, o->a), generic);
  }
  if (op == ast::BinaryOp::Mul) {
    if (o) return reflected ? HostKernelBinary(in, "*", other, self) : HostKernelBinary(in, "*", self, other);
    auto s = ToNdScalar(other);
    if (!s) return std::nullopt;
    NdArray k = NdArray::FromScalar(*s, c.scalar);
    return MakeCompositeValue(c, reflected ? Binary(BinaryOp::Mul, k, a) : Binary(BinaryOp::Mul, a, k), generic);
  }
  if (op == ast::BinaryOp::Div) {
    // v / s, and s / v (Warp's `__rtruediv__`: the scalar over each component).
    auto s = ToNdScalar(other);
    if (!s) return std::nullopt;
    NdArray k = NdArray::FromScalar(*s, c.scalar);
    NdArray r = reflected ? Binary(BinaryOp::TrueDiv, k, a) : Binary(BinaryOp::TrueDiv, a, k);
    return MakeCompositeValue(c, r.AsType(c.scalar), generic);
  }
  if (op == ast::BinaryOp::MatMul) {
    if (!o) return std::nullopt;
    return reflected ? HostKernelBinary(in, "*", other, self) : HostKernelBinary(in, "*", self, other);
  }
  return std::nullopt;
}

std::optional<Value> CompositeValueObj::CmpOp(Interpreter& in, ast::CmpOp op, const Value& other, bool) {
  if (op != ast::CmpOp::Eq && op != ast::CmpOp::NotEq) return std::nullopt;
  bool eq = true;
  std::vector<Scalar> s;
  if (auto* o = other.As<CompositeValueObj>()) {
    for (int64_t i = 0; i < o->a.size(); ++i) s.push_back(o->a.GetFlat(i));
  } else if (other.As<ListObj>() || other.As<TupleObj>() || other.As<NdArrayObj>()) {
    try {
      Flatten(in, other, s, "==");
    } catch (const PyError&) {
      eq = false;
    }
  } else {
    return std::nullopt;
  }
  if (eq && int64_t(s.size()) != c.length()) eq = false;
  for (int64_t i = 0; eq && i < c.length(); ++i) eq = a.GetFlat(i).AsDouble() == s[i].AsDouble();
  return Value::Bool(op == ast::CmpOp::Eq ? eq : !eq);
}

std::optional<Value> CompositeValueObj::UnaryOp(Interpreter&, ast::UnaryOp op) {
  if (op == ast::UnaryOp::Neg) return MakeCompositeValue(c, Unary(host::UnaryOp::Neg, a), generic);
  if (op == ast::UnaryOp::Pos) return MakeCompositeValue(c, a, generic);
  return std::nullopt;
}

// ---------------------------------------------------------------- types

std::string CompositeTypeObj::Repr() const {
  if (generic) {
    if (c.kind == CompositeKind::Quaternion) return "<class 'warp._src.types.quaternion.<locals>.quat_t'>";
    if (c.kind == CompositeKind::Transform) return "<class 'warp._src.types.transformation.<locals>.transform_t'>";
    return c.is_matrix() ? "<class 'warp._src.types.matrix.<locals>.mat_t'>"
                         : "<class 'warp._src.types.vector.<locals>.vec_t'>";
  }
  return "<class 'warp._src.types." + CompositeName(c) + "'>";
}

Value CompositeTypeObj::Call(Interpreter& in, CallArgs& args) { return Construct(in, c, generic, args); }

std::optional<Value> CompositeTypeObj::GetAttr(Interpreter&, const std::string& name) {
  if (name == "__name__") return MakeStr(generic ? (c.is_matrix() ? "mat_t" : "vec_t") : CompositeName(c));
  if (name == "_length_") return Value::Int(c.length());
  if (name == "_shape_") {
    if (c.is_matrix()) return MakeTuple({Value::Int(c.rows), Value::Int(c.cols)});
    return MakeTuple({Value::Int(c.length())});
  }
  if (name == "_wp_scalar_type_" || name == "dtype")
    return Value(std::make_shared<DTypeObj>(c.scalar, DTypeObj::Flavor::WpType));
  // `vec3.from_ptr(address)`: host values are not read from raw addresses; a null one is
  // Warp's error.
  if (name == "from_ptr")
    return Value(std::make_shared<BuiltinFn>("from_ptr", [](Interpreter&, CallArgs& a) -> Value {
      ArgBinder b("from_ptr", a, {"ptr"}, 1);
      if (ToInt(b.Get(0), "from_ptr() ptr") == 0) RuntimeError("NULL pointer exception");
      Raise("NotImplementedError", "from_ptr(): reading a value from a raw address is not supported");
    }));
  return std::nullopt;
}

std::optional<Value> CompositeTypeObj::CmpOp(Interpreter&, ast::CmpOp op, const Value& other, bool) {
  if (op != ast::CmpOp::Eq && op != ast::CmpOp::NotEq) return std::nullopt;
  auto* o = other.As<CompositeTypeObj>();
  bool eq = o && o->c == c;
  return Value::Bool(op == ast::CmpOp::Eq ? eq : !eq);
}

std::optional<Composite> CompositeOfDType(const Value& v) {
  if (auto* t = v.As<CompositeTypeObj>()) return t->c;
  return std::nullopt;
}

std::vector<int64_t> CompositeElemShape(const Composite& c) {
  if (c.is_matrix()) return {c.rows, c.cols};
  return {c.length()};
}

Value CompositeTypeValue(const Composite& c) { return Value(std::make_shared<CompositeTypeObj>(c)); }

bool AnyComposite(const CallArgs& args) {
  for (const Value& v : args.pos)
    if (v.As<CompositeValueObj>()) return true;
  for (const auto& kv : args.kw)
    if (kv.second.As<CompositeValueObj>()) return true;
  return false;
}

// ---------------------------------------------------------------- host calls

namespace {

// The kernel-annotation spelling of a host argument's type, and the launch argument.
std::string ArgTypeText(const Value& v, const std::string& ctx) {
  if (v.IsBool()) return "wp.bool";
  if (v.IsInt()) return "wp.int32";
  if (v.IsFloat()) return "wp.float32";
  if (auto* nd = v.As<NdArrayObj>(); nd && nd->scalar) return "wp." + std::string(ScalarName(nd->a.dtype()));
  if (auto* c = v.As<CompositeValueObj>()) return "wp." + CompositeName(c->c);
  TypeError(ctx + ": host calls take numbers and vector, matrix, quaternion or transform values, got " + TypeName(v));
}

rt::KernelArg LaunchArgOf(const Value& v) {
  if (v.IsBool()) return rt::KernelArg::Bool(v.b());
  if (v.IsInt()) return rt::KernelArg::Int(v.i());
  if (v.IsFloat()) return rt::KernelArg::Float(v.f());
  if (auto* nd = v.As<NdArrayObj>()) {
    Scalar s = nd->a.Item();
    if (IsFloat(nd->a.dtype())) return rt::KernelArg::Typed(nd->a.dtype(), s.AsDouble());
    return rt::KernelArg::TypedInt(nd->a.dtype(), s.AsInt());
  }
  auto* c = v.As<CompositeValueObj>();
  return rt::KernelArg::Struct(CompositeName(c->c), c->Bytes());
}

std::string ResultTypeText(const ProbedType& p) {
  if (p.kind == ProbedType::Kind::Composite) return "wp." + CompositeName(p.composite);
  return "wp." + std::string(ScalarName(p.scalar));
}

rt::ArrayDType ResultDType(const ProbedType& p) {
  if (p.kind == ProbedType::Kind::Composite) return rt::ArrayDType::Struct(rt::CompositeLayout(p.composite));
  return rt::ArrayDType(p.scalar);
}

Value ReadResult(const ProbedType& p, const rt::Array& out) {
  std::vector<uint8_t> bytes = out.ToHostBytes();
  if (p.kind == ProbedType::Kind::Composite) return CompositeFromBytes(p.composite, bytes.data());
  NdArray a = NdArray::Empty({}, p.scalar);
  std::memcpy(a.data(), bytes.data(), ScalarSize(p.scalar));
  // Warp's host calls give Python scalars for scalar results.
  return ScalarToValue(a.Item());
}

bool Representable(const ProbedType& p) {
  return p.kind == ProbedType::Kind::Scalar || p.kind == ProbedType::Kind::Composite;
}

// Compiles (or finds) the kernel evaluating `expr` over a0..aN of the given types.
std::shared_ptr<HostCallEntry> HostCallFor(Interpreter& in, const std::string& what, const std::string& expr,
                                           const std::vector<std::string>& types,
                                           const std::string& arg_list_for_error) {
  std::string key = expr + "|";
  for (const auto& t : types) key += t + ",";
  auto& cache = in.wp().host_calls;
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  std::string params;
  for (size_t i = 0; i < types.size(); ++i) params += (i ? ", a" : "a") + std::to_string(i) + ": " + types[i];
  std::string probe = "@wp.kernel(enable_backward=False)\ndef _host_probe(" + params + "):\n    r = " + expr + "\n";
  std::string diags;
  std::optional<ProbedType> t = ProbeLocalType(probe, "_host_probe", "r", &diags);
  if (!t) {
    // Warp's message; the checker's diagnostics would point into the probe's text.
    RuntimeError("Couldn't find a function '" + what + "' compatible with the arguments '" + arg_list_for_error + "'");
  }
  auto entry = std::make_shared<HostCallEntry>();
  if (t->kind == ProbedType::Kind::Tuple) {
    entry->tuple = true;
    entry->results = t->elems;
  } else {
    entry->results = {*t};
  }
  for (const auto& r : entry->results)
    if (!Representable(r))
      TypeError(what + "(): its result (" + (t->name.empty() ? "?" : t->name) + ") cannot be returned to host code");
  std::string outs, body;
  for (size_t i = 0; i < entry->results.size(); ++i) {
    outs += "out" + std::to_string(i) + ": wp.array[" + ResultTypeText(entry->results[i]) + "]";
    outs += (i + 1 < entry->results.size() || !types.empty()) ? ", " : "";
  }
  if (entry->tuple) {
    std::string names;
    for (size_t i = 0; i < entry->results.size(); ++i) names += (i ? ", r" : "r") + std::to_string(i);
    body = "    " + names + " = " + expr + "\n";
    for (size_t i = 0; i < entry->results.size(); ++i)
      body += "    out" + std::to_string(i) + "[0] = r" + std::to_string(i) + "\n";
  } else {
    body = "    out0[0] = " + expr + "\n";
  }
  KernelCompileRequest req;
  req.kernel_name = "_host_call";
  req.enable_backward = false;
  WpState::Definition d;
  d.name = req.kernel_name;
  d.kind = "kernel";
  d.text = "@wp.kernel(enable_backward=False)\ndef _host_call(" + outs + params + "):\n" + body;
  d.path = "<host call " + what + ">";
  d.line = 1;
  req.definitions.push_back(d);
  KernelCompileResult r = CompileKernel(req);
  if (!r.ok) {
    PyError e("RuntimeError", what + "(): the host call with arguments '" + arg_list_for_error + "' failed to compile");
    e.diagnostics = r.diagnostics;
    throw e;
  }
  entry->kernel = r.kernel;
  cache.emplace(key, entry);
  return entry;
}

Value RunHostCall(Interpreter& in, const std::string& what, const std::string& expr, const std::vector<Value>& args) {
  std::vector<std::string> types;
  std::string list;
  for (const Value& v : args) {
    types.push_back(ArgTypeText(v, what + "()"));
    list += (list.empty() ? "" : ", ") + types.back().substr(3);
  }
  std::shared_ptr<HostCallEntry> e = HostCallFor(in, what, expr, types, list);
  rt::Device cpu = rt::Device::Cpu();
  std::vector<rt::Array> outs;
  std::vector<rt::KernelArg> kargs;
  for (const auto& r : e->results) {
    outs.push_back(rt::Array::Zeros({1}, ResultDType(r), cpu));
    kargs.emplace_back(outs.back());
  }
  for (const Value& v : args) kargs.push_back(LaunchArgOf(v));
  rt::Launch(e->kernel, {1}, kargs, cpu);
  if (!e->tuple) return ReadResult(e->results[0], outs[0]);
  std::vector<Value> items;
  for (size_t i = 0; i < outs.size(); ++i) items.push_back(ReadResult(e->results[i], outs[i]));
  return MakeTuple(items);
}

}  // namespace

Value HostBuiltinCall(Interpreter& in, const std::string& name, const CallArgs& args) {
  if (!args.kw.empty()) TypeError(name + "(): host calls take positional arguments only");
  std::string expr = "wp." + name + "(";
  for (size_t i = 0; i < args.pos.size(); ++i) expr += (i ? ", a" : "a") + std::to_string(i);
  expr += ")";
  return RunHostCall(in, name, expr, args.pos);
}

std::optional<Value> HostKernelBinary(Interpreter& in, const std::string& op, const Value& a, const Value& b) {
  std::string what = op == "*" ? "mul" : op;
  return RunHostCall(in, what, "a0 " + op + " a1", {a, b});
}

// ---------------------------------------------------------------- the module

const std::vector<std::string>& HostCallableBuiltinNames() {
  // Warp 1.19's kernel builtins over vectors, matrices, quaternions, transforms and spatial
  // types (the public names of warp.context.builtin_functions in that family), and bit_count.
  static const std::vector<std::string> names = {
      "bit_count", "closest_point_edge_edge", "cross", "cw_div", "cw_mul", "ddot", "determinant", "diag", "dot", "eig3",
      "get_diag", "intersect_tri_tri", "inverse", "inverse_approx", "length", "length_sq", "matrix_from_cols",
      "matrix_from_rows", "normalize", "outer", "qr3", "quat_from_axis_angle", "quat_from_euler",
      "quat_from_matrix", "quat_identity", "quat_inverse", "quat_rotate", "quat_rotate_inv", "quat_rpy",
      "quat_slerp", "quat_to_axis_angle", "quat_to_euler", "quat_to_matrix", "quat_to_rpy", "quat_twist",
      "quat_twist_angle", "quat_twist_angle_signed", "skew", "spatial_adjoint", "spatial_bottom",
      "spatial_cross", "spatial_cross_dual", "spatial_dot", "spatial_top", "svd2", "svd3", "trace",
      "transform_compose", "transform_decompose", "transform_from_matrix", "transform_get_rotation",
      "transform_get_translation", "transform_identity", "transform_inverse", "transform_multiply",
      "transform_point", "transform_set_rotation", "transform_set_translation", "transform_to_matrix",
      "transform_twist", "transform_vector", "transform_wrench", "transformation", "transpose",
      "velocity_at_point",
  };
  return names;
}

namespace {

// A vector-math builtin seen from host code: callable, through a host-call kernel.
struct HostBuiltinObj : Object {
  explicit HostBuiltinObj(std::string n) : name(std::move(n)) {}
  std::string TypeName() const override { return "warp.builtin"; }
  std::string Repr() const override { return "<kernel builtin wp." + name + ">"; }
  bool Callable() const override { return true; }
  Value Call(Interpreter& in, CallArgs& args) override { return HostBuiltinCall(in, name, args); }
  std::string name;
};

}  // namespace

void DefineWarpComposites(ModuleObj& wp) {
  auto def = [&](const std::string& name, const Composite& c) {
    if (!wp.attrs.count(name)) wp.attrs[name] = CompositeTypeValue(c);
  };
  const ScalarType all[] = {ScalarType::Float16, ScalarType::Float32, ScalarType::Float64, ScalarType::Int32,
                            ScalarType::UInt32,  ScalarType::Int8,    ScalarType::UInt8,   ScalarType::Int16,
                            ScalarType::UInt16,  ScalarType::Int64,   ScalarType::UInt64};
  const ScalarType floats[] = {ScalarType::Float16, ScalarType::Float32, ScalarType::Float64};
  for (int n = 2; n <= 4; ++n) {
    def("vec" + std::to_string(n), Composite::Vector(n, ScalarType::Float32));
    for (ScalarType s : all) def("vec" + std::to_string(n) + std::string(CompositeSuffix(s)), Composite::Vector(n, s));
    std::string m = "mat" + std::to_string(n) + std::to_string(n);
    def(m, Composite::Matrix(n, n, ScalarType::Float32));
    for (ScalarType s : floats) def(m + std::string(CompositeSuffix(s)), Composite::Matrix(n, n, s));
  }
  struct Fixed { const char* stem; Composite (*make)(ScalarType); };
  for (Fixed f : {Fixed{"quat", Composite::Quat}, Fixed{"transform", Composite::Transform},
                  Fixed{"spatial_vector", Composite::SpatialVector}, Fixed{"spatial_matrix", Composite::SpatialMatrix}}) {
    def(f.stem, f.make(ScalarType::Float32));
    for (ScalarType s : floats) def(f.stem + std::string(CompositeSuffix(s)), f.make(s));
  }
  if (!wp.attrs.count("pi")) wp.attrs["pi"] = Value::Float(3.14159265358979323846);
  if (!wp.attrs.count("tau")) wp.attrs["tau"] = Value::Float(6.28318530717958647692);
  if (!wp.attrs.count("e")) wp.attrs["e"] = Value::Float(2.71828182845904523536);
  if (!wp.attrs.count("inf")) wp.attrs["inf"] = Value::Float(HUGE_VAL);

  // wp.types: the generic constructors of vector and matrix types, and the named ones.
  auto types = std::make_shared<ModuleObj>("warp.types");
  types->attrs = wp.attrs;
  types->Def("vector", [](Interpreter&, CallArgs& a) {
    ArgBinder b("vector", a, {"length", "dtype"}, 1);
    int64_t n = ToInt(b.Get(0), "vector() length");
    if (n < 0) ValueError("vector(): length must not be negative");
    ScalarType t = b.Has(1) ? DTypeArg(b.Get(1), true, "vector()") : ScalarType::Float32;
    return Value(std::make_shared<CompositeTypeObj>(Composite::Vector(int(n), t), true));
  });
  types->Def("matrix", [](Interpreter&, CallArgs& a) {
    ArgBinder b("matrix", a, {"shape", "dtype"}, 1);
    Shape s = ShapeArg(b.Get(0), "matrix()");
    if (s.size() != 2 || s[0] < 1 || s[1] < 1) ValueError("matrix(): shape must be two positive ints");
    ScalarType t = b.Has(1) ? DTypeArg(b.Get(1), true, "matrix()") : ScalarType::Float32;
    return Value(std::make_shared<CompositeTypeObj>(Composite::Matrix(int(s[0]), int(s[1]), t), true));
  });
  types->Def("quaternion", [](Interpreter&, CallArgs& a) {
    ArgBinder b("quaternion", a, {"dtype"}, 0);
    const ScalarType t = b.Has(0) ? DTypeArg(b.Get(0), true, "quaternion()") : ScalarType::Float32;
    return Value(std::make_shared<CompositeTypeObj>(Composite::Quat(t), true));
  });
  types->Def("transformation", [](Interpreter&, CallArgs& a) {
    ArgBinder b("transformation", a, {"dtype"}, 0);
    const ScalarType t = b.Has(0) ? DTypeArg(b.Get(0), true, "transformation()") : ScalarType::Float32;
    return Value(std::make_shared<CompositeTypeObj>(Composite::Transform(t), true));
  });
  // Warp's spelling of a type in its messages: `float32`, `vec3f`, `vector(length=5, dtype=float32)`.
  types->Def("type_repr", [](Interpreter&, CallArgs& a) {
    ArgBinder b("type_repr", a, {"t"}, 1);
    if (std::optional<Composite> c = CompositeOfDType(b.Get(0))) {
      // Warp's short names stop at four rows and columns; spatial types are long vectors.
      const bool small = c->is_matrix() ? c->rows <= 4 && c->cols <= 4 : c->length() <= 4;
      if (small || c->kind == CompositeKind::Quaternion || c->kind == CompositeKind::Transform)
        return MakeStr(CompositeName(*c));
      const std::string dt = "dtype=" + std::string(ScalarName(c->scalar)) + ")";
      if (c->is_matrix())
        return MakeStr("matrix(shape=(" + std::to_string(c->rows) + ", " + std::to_string(c->cols) + "), " + dt);
      return MakeStr("vector(length=" + std::to_string(c->length()) + ", " + dt);
    }
    return MakeStr(std::string(ScalarName(DTypeArg(b.Get(0), true, "type_repr()"))));
  });
  // Components of one value: 1 for a scalar.
  types->Def("type_size", [](Interpreter&, CallArgs& a) {
    ArgBinder b("type_size", a, {"dtype"}, 1);
    if (std::optional<Composite> c = CompositeOfDType(b.Get(0))) return Value::Int(c->length());
    DTypeArg(b.Get(0), true, "type_size()");
    return Value::Int(1);
  });
  // The scalar type of a scalar, vector or matrix type (`wp.float32` for `wp.vec3`).
  types->Def("type_scalar_type", [](Interpreter&, CallArgs& a) {
    ArgBinder b("type_scalar_type", a, {"dtype"}, 1);
    std::optional<Composite> c = CompositeOfDType(b.Get(0));
    const ScalarType t = c ? c->scalar : DTypeArg(b.Get(0), true, "type_scalar_type()");
    return Value(std::make_shared<DTypeObj>(t, DTypeObj::Flavor::WpType));
  });
  types->Def("type_size_in_bytes", [](Interpreter&, CallArgs& a) {
    ArgBinder b("type_size_in_bytes", a, {"dtype"}, 1);
    if (std::optional<Composite> c = CompositeOfDType(b.Get(0)))
      return Value::Int(int64_t(c->length()) * ScalarSize(c->scalar));
    return Value::Int(ScalarSize(DTypeArg(b.Get(0), true, "type_size_in_bytes()")));
  });
  types->Def("types_equal", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("types_equal", a, {"a", "b", "match_generic"}, 2);
    return CompareValues(in, ast::CmpOp::Eq, b.Get(0), b.Get(1));
  });
  // The scalar type tuples and NumPy maps of Warp's `warp.types`.
  auto scalars = [&](std::initializer_list<const char*> names) {
    std::vector<Value> out;
    for (const char* n : names) out.push_back(wp.attrs.at(n));
    return MakeTuple(out);
  };
  types->attrs["int_types"] = scalars({"int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"});
  types->attrs["float_types"] = scalars({"float16", "bfloat16", "float32", "float64"});
  types->attrs["scalar_types"] = scalars({"int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                                          "float16", "bfloat16", "float32", "float64"});
  {
    auto to_wp = std::make_shared<DictObj>(), to_np = std::make_shared<DictObj>();
    for (ScalarType t : {ScalarType::Bool, ScalarType::Int8, ScalarType::UInt8, ScalarType::Int16, ScalarType::UInt16,
                         ScalarType::Int32, ScalarType::Int64, ScalarType::UInt32, ScalarType::UInt64,
                         ScalarType::Float16, ScalarType::Float32, ScalarType::Float64}) {
      Value w = t == ScalarType::Bool ? wp.attrs.at("bool") : wp.attrs.at(std::string(ScalarName(t)));
      Value np_type(std::make_shared<DTypeObj>(t, DTypeObj::Flavor::NpType));
      to_wp->Put(np_type, w);
      to_wp->Put(Value(std::make_shared<DTypeObj>(t, DTypeObj::Flavor::NpDtype)), w);
      to_np->Put(w, np_type);
    }
    types->attrs["np_dtype_to_warp_type"] = Value(to_wp);
    types->attrs["warp_type_to_np_dtype"] = Value(to_np);
  }
  wp.attrs["types"] = Value(types);
}

void AddHostCallableBuiltins(ModuleObj& wp) {
  for (const std::string& n : HostCallableBuiltinNames())
    if (!wp.attrs.count(n)) wp.attrs[n] = Value(std::make_shared<HostBuiltinObj>(n));
}

std::vector<uint8_t> CompositeFillBytes(Interpreter& in, const Composite& c, const Value& v, const std::string& ctx) {
  NdArray flat;
  if (auto* cv = v.As<CompositeValueObj>()) flat = cv->a;
  else if (auto s = ToNdScalar(v)) flat = NdArray::Full({c.length()}, *s, c.scalar);
  else flat = ToNdArray(in, v, ctx, c.scalar);
  if (flat.size() != c.length())
    ValueError(ctx + ": a " + CompositeName(c) + " has " + std::to_string(c.length()) + " components, got " +
               std::to_string(flat.size()));
  return CompositeValueObj(c, flat).Bytes();
}

}  // namespace tilec::host
