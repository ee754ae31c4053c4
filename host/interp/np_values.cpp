// NumPy arrays, scalars and dtypes as interpreter values: attributes and methods, indexing,
// operators with NumPy's promotion (delegated to host/ndarray), conversions from Python values.
#include <algorithm>
#include <cmath>

#include "host/interp/args.h"
#include "host/interp/array_values.h"
#include "host/interp/interpreter.h"
#include "host/interp/wp_composite.h"

namespace tilec::host {

namespace {

std::string NpClassName(ScalarType t) {
  return t == ScalarType::Bool ? "bool_" : DtypeName(t);
}


Nested ValueToNested(const Value& v, const std::string& context) {
  switch (v.kind()) {
    case VKind::Bool: return Nested::Bool(v.b());
    case VKind::Int: return Nested::Int(v.i());
    case VKind::Float: return Nested::Float(v.f());
    case VKind::None: break;
    case VKind::Obj: {
      if (auto* nd = v.As<NdArrayObj>()) return Nested::Array(nd->a);
      if (auto* c = v.As<CompositeValueObj>()) return Nested::Array(c->a);
      if (v.As<ComplexArrayObj>()) TypeError(context + ": complex arrays are not supported here");
      std::vector<Value>* items = nullptr;
      if (auto* l = v.As<ListObj>()) items = &l->items;
      if (auto* t = v.As<TupleObj>()) items = &t->items;
      if (items) {
        std::vector<Nested> out;
        for (const Value& x : *items) out.push_back(ValueToNested(x, context));
        return Nested::List(std::move(out));
      }
      if (auto nd = WpArrayToNd(v)) return Nested::Array(*nd);
      // Objects that stand for a Python number (IntEnum members).
      if (std::optional<Value> n = v.obj()->AsScalar(); n && n->IsNumber()) return ValueToNested(*n, context);
      break;
    }
  }
  TypeError(context + ": cannot convert " + TypeName(v) + " to an array");
}

std::optional<BinaryOp> NdBinary(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::Add: return BinaryOp::Add;
    case ast::BinaryOp::Sub: return BinaryOp::Sub;
    case ast::BinaryOp::Mul: return BinaryOp::Mul;
    case ast::BinaryOp::Div: return BinaryOp::TrueDiv;
    case ast::BinaryOp::FloorDiv: return BinaryOp::FloorDiv;
    case ast::BinaryOp::Mod: return BinaryOp::Mod;
    case ast::BinaryOp::Pow: return BinaryOp::Pow;
    case ast::BinaryOp::BitAnd: return BinaryOp::And;
    case ast::BinaryOp::BitOr: return BinaryOp::Or;
    case ast::BinaryOp::BitXor: return BinaryOp::Xor;
    default: return std::nullopt;
  }
}

const char* UfuncName(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::Add: return "add";
    case ast::BinaryOp::Sub: return "subtract";
    case ast::BinaryOp::Mul: return "multiply";
    case ast::BinaryOp::Div: return "divide";
    case ast::BinaryOp::FloorDiv: return "floor_divide";
    case ast::BinaryOp::Mod: return "remainder";
    case ast::BinaryOp::Pow: return "power";
    case ast::BinaryOp::BitAnd: return "bitwise_and";
    case ast::BinaryOp::BitOr: return "bitwise_or";
    case ast::BinaryOp::BitXor: return "bitwise_xor";
    default: return "?";
  }
}

// NumPy's 'same_kind' rule for in-place results: bool < int < float, never downwards.
int KindRank(ScalarType t) { return t == ScalarType::Bool ? 0 : IsFloat(t) ? 3 : IsSigned(t) ? 2 : 1; }

[[noreturn]] void InvalidIndex() {
  IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
             "boolean arrays are valid indices");
}

// NumPy turns a list in a key into an index array only when it holds integers and booleans
// (nested lists and int or bool arrays too); anything else is an invalid index, not a cast.
void CheckIndexList(const Value& v) {
  if (v.IsIntLike()) return;
  if (auto* nd = v.As<NdArrayObj>())
    if (IsInteger(nd->a.dtype()) || nd->a.dtype() == ScalarType::Bool) return;
  std::vector<Value>* items = nullptr;
  if (auto* l = v.As<ListObj>()) items = &l->items;
  if (auto* t = v.As<TupleObj>()) items = &t->items;
  if (!items) InvalidIndex();
  for (const Value& x : *items) CheckIndexList(x);
}

Value Method(std::shared_ptr<NdArrayObj> self, const std::string& name,
             std::function<Value(NdArrayObj&, Interpreter&, CallArgs&)> f) {
  return Value(std::make_shared<BuiltinFn>(
      name, [self, f](Interpreter& in, CallArgs& a) { return f(*self, in, a); }));
}

}  // namespace

std::vector<IndexItem> IndexKeyItems(Interpreter& in, const Value& key) {
  std::vector<IndexItem> items;
  auto one = [&](const Value& k) {
    // A Python or NumPy bool is a 0-d mask (x[True] adds an axis), not the integer 1.
    if (k.kind() == VKind::Bool)
      return items.push_back(IndexItem::Take(NdArray::FromScalar(Scalar::Bool(k.b()))));
    if (k.IsIntLike()) return items.push_back(IndexItem::At(k.i()));
    if (k.IsNone()) return items.push_back(IndexItem::NewAxis());
    if (auto* s = k.As<SliceObj>()) {
      auto opt = [](const Value& v) -> std::optional<int64_t> {
        if (v.IsNone()) return std::nullopt;
        return ToIndex(v, "slice");
      };
      return items.push_back(IndexItem::Range(opt(s->lower), opt(s->upper), opt(s->step)));
    }
    if (auto* nd = k.As<NdArrayObj>()) {
      ScalarType t = nd->a.dtype();
      if (t == ScalarType::Bool) return items.push_back(IndexItem::Take(nd->a));
      // 0-d integer arrays and NumPy integers index like Python ints (basic indexing).
      if (IsInteger(t))
        return items.push_back(nd->a.ndim() == 0 ? IndexItem::At(nd->a.Item().AsInt()) : IndexItem::Take(nd->a));
      if (nd->scalar) InvalidIndex();
      IndexError("arrays used as indices must be of integer (or boolean) type");
    }
    if (k.As<ListObj>() || k.As<TupleObj>()) {
      CheckIndexList(k);
      // An empty list would be float64 as an array; as an index NumPy takes it as integers.
      NdArray idx = ToNdArray(in, k, "index");
      return items.push_back(IndexItem::Take(idx.size() == 0 ? idx.AsType(ScalarType::Int64) : idx));
    }
    if (k.IsObj())
      if (auto i = k.obj()->AsIndex()) return items.push_back(IndexItem::At(*i));
    if (TypeName(k) == "ellipsis") return items.push_back(IndexItem::Dots());
    InvalidIndex();
  };
  if (auto* t = key.As<TupleObj>())
    for (const Value& k : t->items) one(k);
  else
    one(key);
  return items;
}

Value ScalarToValue(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Kind::Bool: return Value::Bool(s.b);
    case Scalar::Kind::Int: return Value::Int(s.i);
    case Scalar::Kind::UInt: return Value::Int(int64_t(s.u));
    case Scalar::Kind::Float: return Value::Float(s.f);
  }
  return Value();
}

// ---------------------------------------------------------------- conversions

Value WrapNd(NdArray a, bool zero_d_is_scalar) {
  bool scalar = zero_d_is_scalar && a.ndim() == 0;
  return Value(std::make_shared<NdArrayObj>(std::move(a), scalar));
}

Value NestedToValue(const Nested& n) {
  switch (n.kind) {
    case Nested::Kind::List: {
      std::vector<Value> items;
      for (const Nested& x : n.items) items.push_back(NestedToValue(x));
      return MakeList(std::move(items));
    }
    case Nested::Kind::Array: return WrapNd(*n.array, false);
    default: return ScalarToValue(n.scalar);
  }
}

std::optional<Scalar> ToNdScalar(const Value& v) {
  switch (v.kind()) {
    case VKind::Bool: return Scalar::Bool(v.b());
    case VKind::Int: return Scalar::Int(v.i());
    case VKind::Float: return Scalar::Float(v.f());
    case VKind::Obj:
      if (auto* nd = v.As<NdArrayObj>(); nd && nd->a.size() == 1 && nd->a.ndim() == 0) return nd->a.Item();
      if (std::optional<Value> n = v.obj()->AsScalar(); n && n->IsNumber()) return ToNdScalar(*n);
      return std::nullopt;
    default: return std::nullopt;
  }
}

NdArray ToNdArray(Interpreter& in, const Value& v, const std::string& context,
                  std::optional<ScalarType> dtype) {
  if (auto* nd = v.As<NdArrayObj>()) return dtype && *dtype != nd->a.dtype() ? nd->a.AsType(*dtype) : nd->a;
  if (v.IsNumber()) {
    Scalar s = *ToNdScalar(v);
    return dtype ? NdArray::FromScalar(s, *dtype) : NdArray::FromScalar(s);
  }
  if (auto nd = WpArrayToNd(v)) return dtype && *dtype != nd->dtype() ? nd->AsType(*dtype) : *nd;
  // Warp's values convert as their ctypes arrays do: the components, flat (a mat22 gives (4,)).
  if (auto* c = v.As<CompositeValueObj>()) return dtype && *dtype != c->a.dtype() ? c->a.AsType(*dtype) : c->a.Copy();
  return NdArray::FromNested(ValueToNested(v, context), dtype);
}

ScalarType DTypeArg(const Value& v, bool warp, const std::string& context) {
  if (auto* d = v.As<DTypeObj>()) return d->type;
  if (auto* t = v.As<PyTypeObj>()) {
    if (t->name == "float") return warp ? ScalarType::Float32 : ScalarType::Float64;
    if (t->name == "int") return warp ? ScalarType::Int32 : ScalarType::Int64;
    if (t->name == "bool") return ScalarType::Bool;
  }
  if (auto* s = v.As<StrObj>())
    if (auto t = ScalarFromName(s->s); t && s->s != "int" && s->s != "float") return *t;
  TypeError((context.empty() ? "" : context + ": ") + "data type " + (v.As<StrObj>() ? StrRepr(v.As<StrObj>()->s) : Repr(v)) +
            " not understood");
}

Shape ShapeArg(const Value& v, const std::string& context) {
  Shape s;
  if (v.IsIntLike()) s.push_back(v.i());
  else if (auto* t = v.As<TupleObj>())
    for (const Value& x : t->items) s.push_back(ToInt(x, context + " shape"));
  else if (auto* l = v.As<ListObj>())
    for (const Value& x : l->items) s.push_back(ToInt(x, context + " shape"));
  else if (auto i = v.IsObj() ? v.obj()->AsIndex() : std::nullopt) s.push_back(*i);
  else TypeError(context + ": shape must be an int or a tuple of ints, not " + TypeName(v));
  for (int64_t d : s)
    if (d < 0) ValueError(context + ": negative dimensions are not allowed");
  return s;
}

// An `operator.index` argument, with Python's message for anything else.
static int64_t IntegerArg(const Value& v) {
  if (v.IsIntLike()) return v.i();
  if (auto i = v.IsObj() ? v.obj()->AsIndex() : std::nullopt) return *i;
  TypeError("'" + TypeName(v) + "' object cannot be interpreted as an integer");
}

std::optional<int> AxisArg(const ArgBinder& b, size_t idx) {
  if (!b.Has(idx) || b.Get(idx).IsNone()) return std::nullopt;
  return int(IntegerArg(b.Get(idx)));
}

NdArray SumOverAxes(const NdArray& in, const ArgBinder& b, size_t idx) {
  // sum(a, axis, dtype, out, keepdims): binders list them in NumPy's order from `idx`.
  NdArray a = b.Has(idx + 1) && !b.Get(idx + 1).IsNone() ? in.AsType(DTypeArg(b.Get(idx + 1), false, "sum() dtype"))
                                                         : in;
  if (b.Has(idx + 2) && !b.Get(idx + 2).IsNone()) TypeError("sum(): `out` is not supported");
  const bool keepdims = b.Has(idx + 3) && Truth(b.Get(idx + 3));
  const TupleObj* axes = b.Has(idx) ? b.Get(idx).As<TupleObj>() : nullptr;
  std::vector<int> order;
  if (!axes) {
    std::optional<int> axis = AxisArg(b, idx);
    if (!keepdims) return a.Sum(axis);
    if (axis) {
      order.push_back(*axis < 0 ? *axis + a.ndim() : *axis);
    } else {
      for (int k = 0; k < a.ndim(); ++k) order.push_back(k);
    }
  }
  // Each axis of the tuple reduced in turn, the highest first so the others keep their places.
  for (const Value& v : axes ? axes->items : std::vector<Value>{}) {
    int64_t ax = IntegerArg(v);
    if (ax < -int64_t(a.ndim()) || ax >= int64_t(a.ndim()))
      Raise("numpy.AxisError", "axis " + std::to_string(ax) + " is out of bounds for array of dimension " +
                                     std::to_string(a.ndim()));
    order.push_back(int(ax < 0 ? ax + int64_t(a.ndim()) : ax));
  }
  std::sort(order.rbegin(), order.rend());
  if (std::adjacent_find(order.begin(), order.end()) != order.end()) ValueError("duplicate value in 'axis'");
  NdArray r = a;
  for (int ax : order) r = r.Sum(ax);
  if (!keepdims) return r;
  Shape kept = a.shape();
  for (int ax : order) kept[size_t(ax)] = 1;
  return r.Reshape(kept);
}

Shape ReshapeArg(const Value& v) {
  const std::vector<Value>* items = nullptr;
  if (auto* t = v.As<TupleObj>()) items = &t->items;
  if (auto* l = v.As<ListObj>()) items = &l->items;
  if (!items) return {IntegerArg(v)};
  Shape shape;
  for (const Value& x : *items) shape.push_back(IntegerArg(x));
  return shape;
}

Shape ReshapeArgs(const CallArgs& args) {
  Shape shape;
  if (args.pos.size() == 1) shape = ReshapeArg(args.pos[0]);
  else
    for (const Value& v : args.pos) shape.push_back(ReshapeArg(v).at(0));
  for (auto& [k, v] : args.kw)
    if (k == "shape") shape = ReshapeArg(v);
    else TypeError("reshape() got an unexpected keyword argument '" + k + "'");
  return shape;
}

Value ShapeTuple(const Shape& s) {
  std::vector<Value> items;
  for (int64_t d : s) items.push_back(Value::Int(d));
  return MakeTuple(std::move(items));
}

// ---------------------------------------------------------------- dtypes

std::string DTypeObj::TypeName() const {
  return flavor == Flavor::NpDtype ? "numpy.dtype[" + NpClassName(type) + "]" : "type";
}

std::string DTypeObj::Repr() const {
  switch (flavor) {
    case Flavor::NpType: return "<class 'numpy." + NpClassName(type) + "'>";
    case Flavor::NpDtype: return "dtype('" + DtypeName(type) + "')";
    case Flavor::WpType: return "<class 'warp._src.types." + std::string(ScalarName(type)) + "'>";
  }
  return "?";
}

std::string DTypeObj::Str() const { return flavor == Flavor::NpDtype ? DtypeName(type) : Repr(); }

Value DTypeObj::Call(Interpreter& in, CallArgs& args) {
  std::string name = flavor == Flavor::WpType ? std::string(ScalarName(type)) : NpClassName(type);
  ArgBinder b(name, args, {"x"}, 0);
  if (!b.Has(0)) return WrapNd(NdArray::FromScalar(Scalar::Int(0), type));
  NdArray a = ToNdArray(in, b.Get(0), name + "()", type);
  return WrapNd(a, true);
}

std::optional<Value> DTypeObj::CmpOp(Interpreter&, ast::CmpOp op, const Value& other, bool) {
  if (op != ast::CmpOp::Eq && op != ast::CmpOp::NotEq) return std::nullopt;
  bool eq = false;
  if (auto* d = other.As<DTypeObj>()) eq = d->type == type;
  else if (auto* s = other.As<StrObj>()) eq = ScalarFromName(s->s) == type;
  else if (auto* t = other.As<PyTypeObj>())
    eq = (t->name == "float" && type == ScalarType::Float64) || (t->name == "int" && type == ScalarType::Int64) ||
         (t->name == "bool" && type == ScalarType::Bool);
  return Value::Bool(op == ast::CmpOp::Eq ? eq : !eq);
}

std::optional<Value> DTypeObj::GetAttr(Interpreter& in, const std::string& name) {
  if (name == "name" || name == "__name__")
    return MakeStr(flavor == Flavor::WpType ? std::string(ScalarName(type)) : DtypeName(type));
  if (name == "itemsize") return Value::Int(int64_t(ScalarSize(type)));
  // A Warp scalar type's ctypes type (half floats are their 16 bits, as in Warp).
  if (name == "_type_" && flavor == Flavor::WpType) {
    std::string c = type == ScalarType::Bool                                      ? "c_bool"
                    : type == ScalarType::Float32                                 ? "c_float"
                    : type == ScalarType::Float64                                 ? "c_double"
                    : type == ScalarType::Float16 || type == ScalarType::BFloat16 ? "c_uint16"
                                                                                  : "c_" + std::string(ScalarName(type));
    return in.GetAttr(in.ImportModule("ctypes"), c);
  }
  return std::nullopt;
}

// ---------------------------------------------------------------- arrays

std::string NdArrayObj::TypeName() const { return scalar ? "numpy." + NpClassName(a.dtype()) : "numpy.ndarray"; }
std::string NdArrayObj::Repr() const { return NdRepr(a, scalar); }
std::string NdArrayObj::Str() const { return NdStr(a, scalar); }

bool NdArrayObj::Truth() const {
  if (a.size() == 1) return a.GetFlat(0).AsBool();
  if (a.size() == 0) return false;
  ValueError("The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
}

std::optional<int64_t> NdArrayObj::Len() const {
  if (scalar) return std::nullopt;
  if (a.ndim() == 0) TypeError("len() of unsized object");
  return a.shape()[0];
}

std::optional<std::vector<Value>> NdArrayObj::Iterate(Interpreter&) {
  if (scalar) return std::nullopt;
  if (a.ndim() == 0) TypeError("iteration over a 0-d array");
  std::vector<Value> out;
  for (int64_t k = 0; k < a.shape()[0]; ++k) {
    IndexItem it = IndexItem::At(k);
    out.push_back(WrapNd(a.Index(std::span<const IndexItem>(&it, 1))));
  }
  return out;
}

std::optional<int64_t> NdArrayObj::AsIndex() const {
  if (a.ndim() == 0 && (IsInteger(a.dtype()) || a.dtype() == ScalarType::Bool)) return a.Item().AsInt();
  return std::nullopt;
}

std::optional<Value> NdArrayObj::AsScalar() const {
  if (a.size() != 1) return std::nullopt;
  return ScalarToValue(a.GetFlat(0));
}

Value NdArrayObj::GetItem(Interpreter& in, const Value& key) {
  if (scalar) IndexError("invalid index to scalar variable.");
  std::vector<IndexItem> items = IndexKeyItems(in, key);
  return WrapNd(a.Select(items));
}

void NdArrayObj::SetItem(Interpreter& in, const Value& key, const Value& v) {
  if (scalar) TypeError("'" + TypeName() + "' object does not support item assignment");
  std::vector<IndexItem> items = IndexKeyItems(in, key);
  // `x[1:3] += 1` updates the view in place and then stores it back onto itself (Python's
  // augmented assignment always ends in __setitem__): nothing is left to copy.
  if (auto* nd = v.As<NdArrayObj>(); nd && !NdArray::IsAdvanced(items)) {
    NdArray view = a.Index(items);
    if (nd->a.data() == view.data() && nd->a.dtype() == view.dtype() && nd->a.shape() == view.shape() &&
        nd->a.strides() == view.strides())
      return;
  }
  if (auto s = ToNdScalar(v); s && !v.As<NdArrayObj>()) {
    a.Assign(items, *s);
    return;
  }
  a.Assign(items, ToNdArray(in, v, "array assignment"));
}

NdArray MatMulNd(const NdArray& a, const NdArray& b) {
  if (a.ndim() == 0 || b.ndim() == 0)
    ValueError("matmul: Input operand " + std::string(a.ndim() == 0 ? "0" : "1") +
               " does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)");
  if (a.ndim() > 2 || b.ndim() > 2) {
    // A stack of matrices: the leading axes broadcast, each pair multiplies as 2-D (a 1-D
    // operand is a row on the left, a column on the right, and that axis is dropped).
    const NdArray A = a.ndim() == 1 ? a.Reshape({1, a.shape()[0]}) : a;
    const NdArray B = b.ndim() == 1 ? b.Reshape({b.shape()[0], 1}) : b;
    Shape batch = BroadcastShapes(Shape(A.shape().begin(), A.shape().end() - 2), Shape(B.shape().begin(), B.shape().end() - 2));
    auto full = [&](const NdArray& x) {
      Shape s = batch;
      s.insert(s.end(), x.shape().end() - 2, x.shape().end());
      return x.BroadcastTo(s);
    };
    const NdArray fa = full(A), fb = full(B);
    const int64_t n = A.shape()[A.ndim() - 2], m = B.shape()[B.ndim() - 1];
    int64_t count = 1;
    for (int64_t d : batch) count *= d;
    std::vector<NdArray> outs;
    for (int64_t flat = 0; flat < count; ++flat) {
      std::vector<IndexItem> at(batch.size());
      for (int64_t d = int64_t(batch.size()) - 1, rem = flat; d >= 0; --d) {
        at[size_t(d)] = IndexItem::At(rem % batch[size_t(d)]);
        rem /= batch[size_t(d)];
      }
      outs.push_back(MatMulNd(fa.Index(at), fb.Index(at)));
    }
    Shape shape = batch;
    if (a.ndim() > 1) shape.push_back(n);
    if (b.ndim() > 1) shape.push_back(m);
    if (outs.empty()) return NdArray::Zeros(shape, PromoteTypes(a.dtype(), b.dtype()));
    return Stack(outs, 0).Reshape(shape);
  }
  // 1-D operands are promoted to a row (left) or a column (right), and that axis is dropped.
  int64_t n = a.ndim() == 2 ? a.shape()[0] : 1, k = a.shape()[a.ndim() - 1];
  int64_t kb = b.shape()[0], m = b.ndim() == 2 ? b.shape()[1] : 1;
  if (k != kb)
    ValueError("matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
               "(n?,k),(k,m?)->(n?,m?) (size " + std::to_string(kb) + " is different from " + std::to_string(k) + ")");
  ScalarType t = PromoteTypes(a.dtype(), b.dtype());
  Shape shape;
  if (a.ndim() == 2) shape.push_back(n);
  if (b.ndim() == 2) shape.push_back(m);
  NdArray out = NdArray::Zeros(shape, t);
  // The operands are read once into row-major buffers (b transposed), so that each output
  // element is one contiguous dot product: a 1000^3 product takes seconds, not minutes. Each
  // sums in double (int64 for integers) in order of k, then casts to the result type.
  const bool fl = IsFloat(t);
  auto at = [](const NdArray& x, int64_t r, int64_t c, bool row_operand) {
    int64_t idx[2] = {r, c};
    if (x.ndim() == 2) return x.Get(idx);
    return x.Get(std::span<const int64_t>(row_operand ? idx + 1 : idx, 1));
  };
  std::vector<double> af, bf;
  std::vector<int64_t> ai, bi;
  if (fl) {
    af.resize(size_t(n * k));
    bf.resize(size_t(m * k));
  } else {
    ai.resize(size_t(n * k));
    bi.resize(size_t(m * k));
  }
  for (int64_t i = 0; i < n; ++i)
    for (int64_t q = 0; q < k; ++q) {
      Scalar x = at(a, i, q, true);
      if (fl) af[size_t(i * k + q)] = x.AsDouble();
      else ai[size_t(i * k + q)] = x.AsInt();
    }
  for (int64_t q = 0; q < k; ++q)
    for (int64_t j = 0; j < m; ++j) {
      Scalar y = at(b, q, j, false);
      if (fl) bf[size_t(j * k + q)] = y.AsDouble();
      else bi[size_t(j * k + q)] = y.AsInt();
    }
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j) {
      if (fl) {
        const double* x = af.data() + i * k;
        const double* y = bf.data() + j * k;
        double sf = 0;
        for (int64_t q = 0; q < k; ++q) sf += x[q] * y[q];
        out.SetFlat(i * m + j, Scalar::Float(sf));
      } else {
        const int64_t* x = ai.data() + i * k;
        const int64_t* y = bi.data() + j * k;
        int64_t si = 0;
        for (int64_t q = 0; q < k; ++q) si += x[q] * y[q];
        out.SetFlat(i * m + j, Scalar::Int(si));
      }
    }
  return out;
}

std::optional<Value> NdArrayObj::BinOp(Interpreter& in, ast::BinaryOp op, const Value& other, bool reflected) {
  if (op == ast::BinaryOp::MatMul) {
    if (!other.As<NdArrayObj>() && !other.As<ListObj>() && !other.As<TupleObj>()) return std::nullopt;
    NdArray o = ToNdArray(in, other, "operand");
    return WrapNd(reflected ? MatMulNd(o, a) : MatMulNd(a, o));
  }
  auto nop = NdBinary(op);
  if (!nop) return std::nullopt;
  if (!other.IsNumber() && !other.As<NdArrayObj>() && !other.As<ListObj>() && !other.As<TupleObj>())
    return std::nullopt;
  NdArray o = ToNdArray(in, other, "operand");
  return WrapNd(reflected ? Binary(*nop, o, a) : Binary(*nop, a, o));
}

std::optional<Value> NdArrayObj::CmpOp(Interpreter& in, ast::CmpOp op, const Value& other, bool reflected) {
  if (!other.IsNumber() && !other.As<NdArrayObj>() && !other.As<ListObj>() && !other.As<TupleObj>())
    return std::nullopt;
  BinaryOp nop;
  switch (op) {
    case ast::CmpOp::Eq: nop = BinaryOp::Eq; break;
    case ast::CmpOp::NotEq: nop = BinaryOp::Ne; break;
    case ast::CmpOp::Lt: nop = reflected ? BinaryOp::Gt : BinaryOp::Lt; break;
    case ast::CmpOp::LtE: nop = reflected ? BinaryOp::Ge : BinaryOp::Le; break;
    case ast::CmpOp::Gt: nop = reflected ? BinaryOp::Lt : BinaryOp::Gt; break;
    case ast::CmpOp::GtE: nop = reflected ? BinaryOp::Le : BinaryOp::Ge; break;
    default: return std::nullopt;
  }
  return WrapNd(Binary(nop, a, ToNdArray(in, other, "comparison")));
}

std::optional<Value> NdArrayObj::UnaryOp(Interpreter&, ast::UnaryOp op) {
  switch (op) {
    case ast::UnaryOp::Neg: return WrapNd(Unary(host::UnaryOp::Neg, a));
    case ast::UnaryOp::Pos: return WrapNd(Unary(host::UnaryOp::Pos, a));
    case ast::UnaryOp::Invert: return WrapNd(Unary(host::UnaryOp::Invert, a));
    default: return std::nullopt;
  }
}

bool NdArrayObj::InplaceOp(Interpreter& in, ast::BinaryOp op, const Value& other) {
  if (scalar) return false;  // NumPy scalars are immutable: `s += 1` rebinds
  auto nop = NdBinary(op);
  if (!nop) return false;
  NdArray r = Binary(*nop, a, ToNdArray(in, other, "operand"));
  if (KindRank(r.dtype()) > KindRank(a.dtype()))
    Raise("numpy.core._exceptions._UFuncOutputCastingError",
          std::string("Cannot cast ufunc '") + UfuncName(op) + "' output from dtype('" + DtypeName(r.dtype()) +
              "') to dtype('" + DtypeName(a.dtype()) + "') with casting rule 'same_kind'");
  a.CopyFrom(r);
  return true;
}

std::optional<Value> NdArrayObj::GetAttr(Interpreter&, const std::string& name) {
  auto self = std::static_pointer_cast<NdArrayObj>(shared_from_this());
  if (name == "shape") return ShapeTuple(a.shape());
  if (name == "dtype") return Value(std::make_shared<DTypeObj>(a.dtype(), DTypeObj::Flavor::NpDtype));
  if (name == "ndim") return Value::Int(a.ndim());
  if (name == "size") return Value::Int(a.size());
  if (name == "itemsize") return Value::Int(int64_t(a.itemsize()));
  if (name == "strides") return ShapeTuple(a.strides());
  if (name == "T") return WrapNd(a.Transpose(), scalar);
  if (name == "reshape")
    return Method(self, name, [](NdArrayObj& s, Interpreter&, CallArgs& args) {
      return WrapNd(s.a.Reshape(ReshapeArgs(args)), false);
    });
  if (name == "astype")
    return Method(self, name, [](NdArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b("astype", args, {"dtype"}, 1);
      return WrapNd(s.a.AsType(DTypeArg(b.Get(0), false, "")), s.scalar);
    });
  if (name == "copy" || name == "flatten")
    return Method(self, name, [name](NdArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b(name, args, {}, 0);
      NdArray c = s.a.Copy();
      if (name == "flatten") c = c.Reshape({-1});
      return WrapNd(c, s.scalar);
    });
  if (name == "sum")
    return Method(self, name, [](NdArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b("sum", args, {"axis", "dtype", "out", "keepdims"}, 0);
      return WrapNd(SumOverAxes(s.a, b, 0));
    });
  if (name == "prod")
    return Method(self, name, [](NdArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b("prod", args, {"axis", "dtype"}, 0);
      std::optional<ScalarType> dtype;
      if (b.Has(1) && !b.Get(1).IsNone()) dtype = DTypeArg(b.Get(1), false, "");
      return WrapNd(Prod(s.a, AxisArg(b, 0), dtype));
    });
  if (name == "repeat")
    return Method(self, name, [](NdArrayObj& s, Interpreter& in, CallArgs& args) {
      ArgBinder b("repeat", args, {"repeats", "axis"}, 1);
      NdArray counts = ToNdArray(in, b.Get(0), "repeat").AsType(ScalarType::Int64).Reshape({-1});
      std::vector<int64_t> reps;
      for (int64_t k = 0; k < counts.size(); ++k) reps.push_back(counts.GetFlat(k).i);
      return WrapNd(Repeat(s.a, reps, AxisArg(b, 1)), false);
    });
  if (name == "round")
    return Method(self, name, [](NdArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b("round", args, {"decimals"}, 0);
      return WrapNd(Round(s.a, b.Has(0) ? ToInt(b.Get(0), "round() decimals") : 0), s.scalar);
    });
  const std::pair<const char*, Reduction> kReductions[] = {
      {"max", Reduction::Max}, {"min", Reduction::Min}, {"argmax", Reduction::ArgMax}, {"argmin", Reduction::ArgMin}};
  for (auto [rname, kind] : kReductions)
    if (name == rname)
      return Method(self, name, [name, kind](NdArrayObj& s, Interpreter&, CallArgs& args) {
        ArgBinder b(name, args, {"axis"}, 0);
        return WrapNd(Reduce(kind, s.a, AxisArg(b, 0)));
      });
  if (name == "mean")
    return Method(self, name, [](NdArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b("mean", args, {"axis"}, 0);
      return WrapNd(Mean(s.a, AxisArg(b, 0)));
    });
  if (name == "std" || name == "var")
    return Method(self, name, [name](NdArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b(name, args, {"axis", "dtype", "out", "ddof"}, 0);
      if ((b.Has(1) && !b.Get(1).IsNone()) || (b.Has(2) && !b.Get(2).IsNone()))
        TypeError(name + "(): the dtype and out arguments are not supported");
      int64_t ddof = b.Has(3) ? ToInt(b.Get(3), name + "() ddof") : 0;
      return WrapNd(name == "std" ? Std(s.a, AxisArg(b, 0), ddof) : Var(s.a, AxisArg(b, 0), ddof));
    });
  if (name == "cumsum")
    return Method(self, name, [](NdArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b("cumsum", args, {"axis"}, 0);
      return WrapNd(CumSum(s.a, AxisArg(b, 0)), false);
    });
  if (name == "clip")
    return Method(self, name, [](NdArrayObj& s, Interpreter& in, CallArgs& args) {
      ArgBinder b("clip", args, {"min", "max"}, 0);
      auto bound = [&](size_t k) -> std::optional<NdArray> {
        if (!b.Has(k) || b.Get(k).IsNone()) return std::nullopt;
        return ToNdArray(in, b.Get(k), "clip");
      };
      return WrapNd(Clip(s.a, bound(0), bound(1)), s.scalar);
    });
  if (name == "argsort")
    return Method(self, name, [](NdArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b("argsort", args, {"axis"}, 0);
      return WrapNd(ArgSort(s.a, b.Has(0) ? AxisArg(b, 0) : std::optional<int>(-1)), false);
    });
  if (name == "sort")
    return Method(self, name, [](NdArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b("sort", args, {"axis"}, 0);
      // ndarray.sort sorts in place; its axis cannot be None.
      int axis = b.Has(0) && !b.Get(0).IsNone() ? *AxisArg(b, 0) : -1;
      s.a.CopyFrom(Sort(s.a, axis));
      return Value();
    });
  if (name == "ravel")
    return Method(self, name, [](NdArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b("ravel", args, {}, 0);
      return WrapNd(s.a.Reshape({-1}), false);
    });
  if (name == "squeeze")
    return Method(self, name, [](NdArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b("squeeze", args, {"axis"}, 0);
      Shape out;
      std::optional<int> axis = AxisArg(b, 0);
      for (int d = 0; d < s.a.ndim(); ++d) {
        bool drop = axis ? d == *axis : s.a.shape()[size_t(d)] == 1;
        if (axis && drop && s.a.shape()[size_t(d)] != 1)
          ValueError("cannot select an axis to squeeze out which has size not equal to one");
        if (!drop) out.push_back(s.a.shape()[size_t(d)]);
      }
      return WrapNd(s.a.Reshape(out), false);
    });
  if (name == "any" || name == "all")
    return Method(self, name, [name](NdArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b(name, args, {"axis"}, 0);
      // Along an axis: the largest (any) or smallest (all) truth value of each lane.
      if (std::optional<int> axis = AxisArg(b, 0); axis && s.a.size() > 0)
        return WrapNd(Reduce(name == "any" ? Reduction::Max : Reduction::Min, s.a.AsType(ScalarType::Bool), axis));
      bool any = false, all = true;
      for (int64_t i = 0, n = s.a.size(); i < n; ++i) {
        bool v = s.a.GetFlat(i).AsBool();
        any = any || v;
        all = all && v;
      }
      return WrapNd(NdArray::FromScalar(Scalar::Bool(name == "any" ? any : all)));
    });
  if (name == "tolist" || name == "item")
    return Method(self, name, [name](NdArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b(name, args, {}, 0);
      if (name == "item") return ScalarToValue(s.a.Item());
      return NestedToValue(s.a.ToList());
    });
  // The elements' bytes in C order, as the machine holds them.
  if (name == "tobytes")
    return Method(self, name, [](NdArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b("tobytes", args, {"order"}, 0);
      if (b.Has(0) && host::Str(b.Get(0)) != "C") ValueError("tobytes(): only order='C' is supported in host code");
      NdArray c = s.a.Copy();
      return MakeBytes(std::string(static_cast<const char*>(c.data()), size_t(c.size()) * ScalarSize(c.dtype())));
    });
  if (name == "nonzero")
    return Method(self, name, [](NdArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b("nonzero", args, {}, 0);
      std::vector<Value> parts;
      for (NdArray& p : NonZero(s.a)) parts.push_back(WrapNd(p, false));
      return MakeTuple(std::move(parts));
    });
  if (name == "fill")
    return Method(self, name, [](NdArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b("fill", args, {"value"}, 1);
      auto v = ToNdScalar(b.Get(0));
      if (!v) TypeError("fill(): expected a number, got " + host::TypeName(b.Get(0)));
      s.a.Fill(*v);
      return Value();
    });
  if (name == "transpose")
    return Method(self, name, [](NdArrayObj& s, Interpreter& in, CallArgs& args) {
      // x.transpose(), x.transpose((1, 0, 2)) or x.transpose(1, 0, 2).
      if (args.pos.empty() || (args.pos.size() == 1 && args.pos[0].IsNone())) return WrapNd(s.a.Transpose(), s.scalar);
      std::vector<int> axes;
      if (args.pos.size() == 1 && !args.pos[0].IsIntLike())
        for (const Value& v : IterateValue(in, args.pos[0])) axes.push_back(int(ToInt(v, "transpose() axes")));
      else
        for (const Value& v : args.pos) axes.push_back(int(ToInt(v, "transpose() axes")));
      return WrapNd(PermuteAxes(s.a, axes), false);
    });
  if (name == "view")
    return Method(self, name, [](NdArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b("view", args, {"dtype"}, 0);
      if (!b.Has(0)) return WrapNd(s.a, s.scalar);
      return NdArrayView(s.a, b.Get(0));
    });
  if (name == "__abs__")
    return Method(self, name, [](NdArrayObj& s, Interpreter&, CallArgs&) {
      return WrapNd(Unary(host::UnaryOp::Abs, s.a));
    });
  return std::nullopt;
}

}  // namespace tilec::host
