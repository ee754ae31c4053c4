// NumPy's complex arrays on the host: complex64 / complex128 values held as their float parts
// (a last axis of (re, im)), `x.view(dtype)` between real and complex arrays, their arithmetic,
// np.real / np.imag / np.conj / np.abs, and np.fft.fft / np.fft.ifft.
#include <cmath>

#include "host/interp/args.h"
#include "host/interp/array_values.h"
#include "host/interp/errors.h"
#include "host/interp/interpreter.h"
#include "host/ndarray/elements.h"
#include "host/ndarray/fft.h"
#include "host/ndarray/print.h"

namespace tilec::host {

namespace {

std::string ComplexName(ScalarType part) { return part == ScalarType::Float32 ? "complex64" : "complex128"; }

NdArray Re(const NdArray& parts) {
  std::vector<IndexItem> k{IndexItem::Dots(), IndexItem::At(0)};
  return parts.Index(k);
}
NdArray Im(const NdArray& parts) {
  std::vector<IndexItem> k{IndexItem::Dots(), IndexItem::At(1)};
  return parts.Index(k);
}

// Parts from real and imaginary arrays (broadcast together, in the real part's dtype, which
// must be float32 or float64: a complex dtype's part).
NdArray Join(const NdArray& re, const NdArray& im) {
  ScalarType t = re.dtype() == ScalarType::Float32 && im.dtype() == ScalarType::Float32 ? ScalarType::Float32
                                                                                         : ScalarType::Float64;
  Shape s = BroadcastShapes(re.shape(), im.shape());
  std::vector<NdArray> both{re.AsType(t).BroadcastTo(s), im.AsType(t).BroadcastTo(s)};
  return Stack(both, -1);
}

Value WrapComplex(NdArray parts, bool zero_d_is_scalar = true) {
  const bool scalar = zero_d_is_scalar && parts.ndim() == 1;
  return Value(std::make_shared<ComplexArrayObj>(std::move(parts), scalar));
}

// Real arrays the complex arithmetic meets keep their own form (a 0-d one still promotes by
// value: complex64 * 2.0 stays complex64).
struct Operand {
  NdArray re;
  std::optional<NdArray> im;
};

std::optional<Operand> AsOperand(Interpreter& in, const Value& v) {
  if (auto* c = v.As<ComplexArrayObj>()) return Operand{Re(c->parts), Im(c->parts)};
  if (v.IsNumber() || v.As<NdArrayObj>() || v.As<ListObj>() || v.As<TupleObj>())
    return Operand{ToNdArray(in, v, "operand"), std::nullopt};
  return std::nullopt;
}

// The part dtype of a complex result: float32 only when every float part is float32 or a
// value-promoted scalar.
NdArray Promoted(const NdArray& x) {
  if (x.dtype() == ScalarType::Float32 || x.dtype() == ScalarType::Float64) return x;
  return x.AsType(IsFloat(x.dtype()) && ScalarSize(x.dtype()) < 4 ? ScalarType::Float32 : ScalarType::Float64);
}

// Complex division as NumPy's loop does it in the part type T (Smith's method: scale by the
// larger component of the divisor).
template <class T>
NdArray Quotient(const NdArray& num, const NdArray& den) {
  const ScalarType t = sizeof(T) == 4 ? ScalarType::Float32 : ScalarType::Float64;
  Shape s = BroadcastShapes(num.shape(), den.shape());
  NdArray a = num.BroadcastTo(s), b = den.BroadcastTo(s);
  NdArray out = NdArray::Empty(s, t);
  for (int64_t k = 0; k + 1 < out.size(); k += 2) {
    const T ar = T(a.GetFlat(k).AsDouble()), ai = T(a.GetFlat(k + 1).AsDouble());
    const T br = T(b.GetFlat(k).AsDouble()), bi = T(b.GetFlat(k + 1).AsDouble());
    const T br_abs = std::fabs(br), bi_abs = std::fabs(bi);
    T re, im;
    if (br_abs >= bi_abs) {
      if (br_abs == 0 && bi_abs == 0) {
        re = ar / br_abs;
        im = ai / br_abs;
      } else {
        const T rat = bi / br;
        const T scl = T(1) / (br + bi * rat);
        re = (ar + ai * rat) * scl;
        im = (ai - ar * rat) * scl;
      }
    } else {
      const T rat = br / bi;
      const T scl = T(1) / (bi + br * rat);
      re = (ar * rat + ai) * scl;
      im = (ai * rat - ar) * scl;
    }
    out.SetFlat(k, Scalar::Float(re));
    out.SetFlat(k + 1, Scalar::Float(im));
  }
  return out;
}

NdArray Arith(ast::BinaryOp op, const Operand& a, const Operand& b) {
  const NdArray zero = NdArray::FromScalar(Scalar::Float(0.0));
  auto im_or_zero = [&](const Operand& o) { return o.im ? *o.im : Binary(BinaryOp::Mul, o.re, zero); };
  switch (op) {
    case ast::BinaryOp::Add:
    case ast::BinaryOp::Sub: {
      const BinaryOp f = op == ast::BinaryOp::Add ? BinaryOp::Add : BinaryOp::Sub;
      NdArray re = Binary(f, a.re, b.re);
      NdArray im = !b.im ? *a.im : !a.im ? (f == BinaryOp::Sub ? Unary(UnaryOp::Neg, *b.im) : *b.im) : Binary(f, *a.im, *b.im);
      return Join(Promoted(re), im);
    }
    case ast::BinaryOp::Mul: {
      if (!b.im) return Join(Promoted(Binary(BinaryOp::Mul, a.re, b.re)), Binary(BinaryOp::Mul, *a.im, b.re));
      if (!a.im) return Join(Promoted(Binary(BinaryOp::Mul, a.re, b.re)), Binary(BinaryOp::Mul, a.re, *b.im));
      NdArray re = Binary(BinaryOp::Sub, Binary(BinaryOp::Mul, a.re, b.re), Binary(BinaryOp::Mul, *a.im, *b.im));
      NdArray im = Binary(BinaryOp::Add, Binary(BinaryOp::Mul, a.re, *b.im), Binary(BinaryOp::Mul, *a.im, b.re));
      return Join(Promoted(re), im);
    }
    case ast::BinaryOp::Div: {
      if (!b.im) return Join(Promoted(Binary(BinaryOp::TrueDiv, a.re, b.re)), Binary(BinaryOp::TrueDiv, *a.im, b.re));
      // Both operands complex (a real numerator gets a zero imaginary part): NumPy's loop.
      const NdArray ai = im_or_zero(a);
      const NdArray* ops[] = {&a.re, &ai, &b.re, &*b.im};
      const ScalarType rt = ResultType(ops);
      const ScalarType t = IsFloat(rt) && ScalarSize(rt) <= 4 ? ScalarType::Float32 : ScalarType::Float64;
      const NdArray num = Join(a.re.AsType(t), ai.AsType(t)), den = Join(b.re.AsType(t), b.im->AsType(t));
      return t == ScalarType::Float32 ? Quotient<float>(num, den) : Quotient<double>(num, den);
    }
    default: TypeError("unsupported operand type for complex arrays");
  }
}

// |z| per element, in the part dtype (hypot, as NumPy's npy_cabs).
NdArray Magnitude(const NdArray& parts) {
  NdArray re = Re(parts), im = Im(parts);
  NdArray out = NdArray::Empty(re.shape(), parts.dtype());
  for (int64_t k = 0; k < out.size(); ++k)
    out.SetFlat(k, Scalar::Float(std::hypot(re.GetFlat(k).AsDouble(), im.GetFlat(k).AsDouble())));
  return out;
}

// x.view(t) between real dtypes: the last axis (contiguous) is re-cut into elements of t.
NdArray ViewReal(const NdArray& a, ScalarType t) {
  const int64_t os = int64_t(a.itemsize()), ns = int64_t(ScalarSize(t));
  if (os == ns) return NdArray(t, a.shape(), a.strides(), a.data(), a.owner());
  if (a.ndim() == 0) ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
  Shape shape = a.shape();
  std::vector<int64_t> strides = a.strides();
  if (shape.back() != 1 && strides.back() != os)
    ValueError("To change to a dtype of a different size, the last axis must be contiguous");
  const int64_t bytes = shape.back() * os;
  if (bytes % ns != 0)
    ValueError("When changing to a larger dtype, its size must be a divisor of the total size in bytes of the last "
               "axis of the array.");
  shape.back() = bytes / ns;
  strides.back() = ns;
  return NdArray(t, shape, strides, a.data(), a.owner());
}

// The complex view of a real array: its bytes as float parts of `part`, the last axis split
// into (n, 2).
NdArray ViewComplex(const NdArray& a, ScalarType part) {
  if (a.ndim() == 0) ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
  NdArray f = ViewReal(a, part);
  if (f.shape().back() != 1 && f.strides().back() != int64_t(ScalarSize(part)))
    ValueError("To change to a dtype of a different size, the last axis must be contiguous");
  if (f.shape().back() % 2 != 0)
    ValueError("When changing to a larger dtype, its size must be a divisor of the total size in bytes of the last "
               "axis of the array.");
  Shape shape = f.shape();
  std::vector<int64_t> strides = f.strides();
  const int64_t ps = int64_t(ScalarSize(part));
  shape.back() /= 2;
  strides.back() = 2 * ps;
  shape.push_back(2);
  strides.push_back(ps);
  return NdArray(part, shape, strides, f.data(), f.owner());
}

// The real view of complex parts: (…, n, 2) as (…, 2n) of the part dtype (then any real view).
NdArray PartsAsReal(const NdArray& parts) {
  const int64_t ps = int64_t(parts.itemsize());
  const int nd = parts.ndim();
  if (nd < 2) ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
  if (parts.strides()[nd - 1] != ps || (parts.shape()[nd - 2] != 1 && parts.strides()[nd - 2] != 2 * ps))
    ValueError("To change to a dtype of a different size, the last axis must be contiguous");
  Shape shape(parts.shape().begin(), parts.shape().end() - 1);
  std::vector<int64_t> strides(parts.strides().begin(), parts.strides().end() - 1);
  shape.back() *= 2;
  strides.back() = ps;
  return NdArray(parts.dtype(), shape, strides, parts.data(), parts.owner());
}

// A dtype argument: a complex type's part dtype, or nullopt for a real dtype.
std::optional<ScalarType> ComplexPart(const Value& v) {
  if (auto* t = v.As<ComplexTypeObj>()) return t->part;
  if (auto* s = v.As<StrObj>()) {
    if (s->s == "complex64") return ScalarType::Float32;
    if (s->s == "complex128" || s->s == "complex") return ScalarType::Float64;
  }
  if (auto* t = v.As<PyTypeObj>(); t && t->name == "complex") return ScalarType::Float64;
  return std::nullopt;
}

Value ViewAs(const NdArray& real_bytes, const Value& dtype) {
  if (auto part = ComplexPart(dtype)) return WrapComplex(ViewComplex(real_bytes, *part), false);
  return WrapNd(ViewReal(real_bytes, DTypeArg(dtype, false, "view")), false);
}

Value ComplexMethod(std::shared_ptr<ComplexArrayObj> self, const std::string& name,
                    std::function<Value(ComplexArrayObj&, Interpreter&, CallArgs&)> f) {
  return Value(std::make_shared<BuiltinFn>(name, [self, f](Interpreter& in, CallArgs& a) { return f(*self, in, a); }));
}

std::vector<IndexItem> WithPartAxis(std::vector<IndexItem> items) {
  for (const IndexItem& it : items)
    if (it.kind == IndexItem::Kind::Ellipsis) {
      items.push_back(IndexItem::All());
      return items;
    }
  items.push_back(IndexItem::Dots());
  items.push_back(IndexItem::All());
  return items;
}

// The complex operand a np function takes: its parts (real arrays with zero imaginary parts).
NdArray PartsArg(Interpreter& in, const Value& v, const std::string& fn) {
  if (auto* c = v.As<ComplexArrayObj>()) return c->parts;
  NdArray re = Promoted(ToNdArray(in, v, fn));
  return Join(re, NdArray::Zeros(re.shape(), re.dtype()));
}

}  // namespace

std::optional<NdArray> ComplexParts(const Value& v) {
  if (auto* c = v.As<ComplexArrayObj>()) return c->parts;
  return std::nullopt;
}

Value NdArrayView(const NdArray& a, const Value& dtype) { return ViewAs(a, dtype); }

// ---------------------------------------------------------------- np.complex64 / complex128

std::string ComplexTypeObj::TypeName() const { return dtype ? "numpy.dtype[" + ComplexName(part) + "]" : "type"; }
std::string ComplexTypeObj::Repr() const {
  return dtype ? "dtype('" + ComplexName(part) + "')" : "<class 'numpy." + ComplexName(part) + "'>";
}
std::string ComplexTypeObj::Str() const { return dtype ? ComplexName(part) : Repr(); }

Value ComplexTypeObj::Call(Interpreter& in, CallArgs& args) {
  if (args.pos.size() + args.kw.size() > 1)
    TypeError("function takes at most 1 argument (" + std::to_string(args.pos.size() + args.kw.size()) + " given)");
  ArgBinder b(ComplexName(part), args, {"x"}, 0);
  if (b.Has(0))
    if (auto* c = b.Get(0).As<ComplexArrayObj>()) return WrapComplex(c->parts.AsType(part));
  NdArray re = b.Has(0) ? ToNdArray(in, b.Get(0), ComplexName(part) + "()", part) : NdArray::FromScalar(Scalar::Float(0), part);
  return WrapComplex(Join(re, NdArray::Zeros(re.shape(), part)));
}

std::optional<Value> ComplexTypeObj::CmpOp(Interpreter&, ast::CmpOp op, const Value& other, bool) {
  if (op != ast::CmpOp::Eq && op != ast::CmpOp::NotEq) return std::nullopt;
  const bool eq = ComplexPart(other) == part;
  return Value::Bool(op == ast::CmpOp::Eq ? eq : !eq);
}

std::optional<Value> ComplexTypeObj::GetAttr(Interpreter&, const std::string& name) {
  if (name == "name" || name == "__name__") return MakeStr(ComplexName(part));
  if (name == "itemsize") return Value::Int(2 * int64_t(ScalarSize(part)));
  return std::nullopt;
}

// ---------------------------------------------------------------- complex arrays

std::string ComplexArrayObj::TypeName() const { return scalar ? "numpy." + ComplexName(parts.dtype()) : "numpy.ndarray"; }
std::string ComplexArrayObj::Repr() const { return ComplexArrayRepr(parts); }
std::string ComplexArrayObj::Str() const { return ComplexArrayStr(parts); }

bool ComplexArrayObj::Truth() const {
  if (parts.size() != 2)
    ValueError("The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
  return parts.GetFlat(0).AsDouble() != 0 || parts.GetFlat(1).AsDouble() != 0;
}

std::optional<int64_t> ComplexArrayObj::Len() const {
  if (parts.ndim() == 1) TypeError("len() of unsized object");
  return parts.shape()[0];
}

std::optional<std::vector<Value>> ComplexArrayObj::Iterate(Interpreter&) {
  if (parts.ndim() == 1) TypeError("iteration over a 0-d array");
  std::vector<Value> out;
  for (int64_t i = 0; i < parts.shape()[0]; ++i) {
    std::vector<IndexItem> k{IndexItem::At(i)};
    out.push_back(WrapComplex(parts.Index(k)));
  }
  return out;
}

Value ComplexArrayObj::GetItem(Interpreter& in, const Value& key) {
  if (scalar) IndexError("invalid index to scalar variable.");
  return WrapComplex(parts.Select(WithPartAxis(IndexKeyItems(in, key))));
}

void ComplexArrayObj::SetItem(Interpreter& in, const Value& key, const Value& v) {
  if (scalar) TypeError("'" + TypeName() + "' object does not support item assignment");
  parts.Assign(WithPartAxis(IndexKeyItems(in, key)), PartsArg(in, v, "array assignment"));
}

std::optional<Value> ComplexArrayObj::BinOp(Interpreter& in, ast::BinaryOp op, const Value& other, bool reflected) {
  if (op != ast::BinaryOp::Add && op != ast::BinaryOp::Sub && op != ast::BinaryOp::Mul && op != ast::BinaryOp::Div)
    return std::nullopt;
  auto o = AsOperand(in, other);
  if (!o) return std::nullopt;
  Operand self{Re(parts), Im(parts)};
  return WrapComplex(reflected ? Arith(op, *o, self) : Arith(op, self, *o));
}

bool ComplexArrayObj::InplaceOp(Interpreter& in, ast::BinaryOp op, const Value& other) {
  if (scalar) return false;
  auto r = BinOp(in, op, other, false);
  if (!r) return false;
  const NdArray& rp = r->As<ComplexArrayObj>()->parts;
  if (ScalarSize(rp.dtype()) > ScalarSize(parts.dtype()))
    Raise("numpy.core._exceptions._UFuncOutputCastingError",
          "Cannot cast ufunc output from dtype('complex128') to dtype('complex64') with casting rule 'same_kind'");
  parts.CopyFrom(rp);
  return true;
}

std::optional<Value> ComplexArrayObj::CmpOp(Interpreter& in, ast::CmpOp op, const Value& other, bool) {
  if (op != ast::CmpOp::Eq && op != ast::CmpOp::NotEq) return std::nullopt;
  auto o = AsOperand(in, other);
  if (!o) return std::nullopt;
  const NdArray oi = o->im ? *o->im : NdArray::FromScalar(Scalar::Float(0.0));
  NdArray eq = Binary(BinaryOp::And, Binary(BinaryOp::Eq, Re(parts), o->re), Binary(BinaryOp::Eq, Im(parts), oi));
  if (op == ast::CmpOp::NotEq) eq = Unary(UnaryOp::Invert, eq);
  return WrapNd(eq);
}

std::optional<Value> ComplexArrayObj::UnaryOp(Interpreter&, ast::UnaryOp op) {
  switch (op) {
    case ast::UnaryOp::Neg: return WrapComplex(Unary(host::UnaryOp::Neg, parts), scalar);
    case ast::UnaryOp::Pos: return WrapComplex(parts.Copy(), scalar);
    default: return std::nullopt;
  }
}

std::optional<Value> ComplexArrayObj::GetAttr(Interpreter&, const std::string& name) {
  auto self = std::static_pointer_cast<ComplexArrayObj>(shared_from_this());
  Shape shape(parts.shape().begin(), parts.shape().end() - 1);
  if (name == "shape") return ShapeTuple(shape);
  if (name == "dtype") {
    auto t = std::make_shared<ComplexTypeObj>(parts.dtype());
    t->dtype = true;
    return Value(t);
  }
  if (name == "ndim") return Value::Int(int64_t(shape.size()));
  if (name == "size") return Value::Int(ShapeSize(shape));
  if (name == "itemsize") return Value::Int(2 * int64_t(parts.itemsize()));
  if (name == "real") return WrapNd(Re(parts), scalar);
  if (name == "imag") return WrapNd(Im(parts), scalar);
  if (name == "reshape")
    return ComplexMethod(self, name, [](ComplexArrayObj& s, Interpreter&, CallArgs& args) {
      Shape shape = ReshapeArgs(args);
      shape.push_back(2);
      return WrapComplex(s.parts.Reshape(shape), false);
    });
  if (name == "copy" || name == "flatten" || name == "ravel")
    return ComplexMethod(self, name, [name](ComplexArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b(name, args, {}, 0);
      NdArray c = s.parts.Copy();
      if (name != "copy") c = c.Reshape({-1, 2});
      return WrapComplex(c, s.scalar);
    });
  if (name == "view")
    return ComplexMethod(self, name, [](ComplexArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b("view", args, {"dtype"}, 0);
      if (!b.Has(0)) return WrapComplex(s.parts, false);
      return ViewAs(PartsAsReal(s.parts), b.Get(0));
    });
  if (name == "conj" || name == "conjugate")
    return ComplexMethod(self, name, [name](ComplexArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b(name, args, {}, 0);
      return WrapComplex(Join(Re(s.parts), Unary(host::UnaryOp::Neg, Im(s.parts))), s.scalar);
    });
  if (name == "astype")
    return ComplexMethod(self, name, [](ComplexArrayObj& s, Interpreter&, CallArgs& args) {
      ArgBinder b("astype", args, {"dtype"}, 1);
      auto part = ComplexPart(b.Get(0));
      if (!part) TypeError("astype(): casting a complex array to a real dtype discards the imaginary part; use .real");
      return WrapComplex(s.parts.AsType(*part), s.scalar);
    });
  if (name == "__abs__")
    return ComplexMethod(self, name, [](ComplexArrayObj& s, Interpreter&, CallArgs&) {
      return WrapNd(Magnitude(s.parts), s.scalar);
    });
  return std::nullopt;
}

// ---------------------------------------------------------------- np functions

void DefineNumpyComplex(ModuleObj& np) {
  for (ScalarType part : {ScalarType::Float32, ScalarType::Float64})
    np.attrs[ComplexName(part)] = Value(std::make_shared<ComplexTypeObj>(part));
  np.attrs["cdouble"] = np.attrs["complex128"];
  np.attrs["csingle"] = np.attrs["complex64"];
  np.Def("real", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("real", a, {"val"}, 1);
    if (auto* c = b.Get(0).As<ComplexArrayObj>()) return WrapNd(Re(c->parts), c->scalar);
    return WrapNd(ToNdArray(in, b.Get(0), "np.real"), false);
  });
  np.Def("imag", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("imag", a, {"val"}, 1);
    if (auto* c = b.Get(0).As<ComplexArrayObj>()) return WrapNd(Im(c->parts), c->scalar);
    NdArray re = ToNdArray(in, b.Get(0), "np.imag");
    return WrapNd(NdArray::Zeros(re.shape(), re.dtype()), false);
  });
  for (const char* name : {"conj", "conjugate"})
    np.Def(name, [name](Interpreter& in, CallArgs& a) {
      ArgBinder b(name, a, {"x"}, 1);
      if (auto* c = b.Get(0).As<ComplexArrayObj>())
        return WrapComplex(Join(Re(c->parts), Unary(UnaryOp::Neg, Im(c->parts))), c->scalar);
      return WrapNd(ToNdArray(in, b.Get(0), std::string("np.") + name));
    });
  np.Def("iscomplexobj", [](Interpreter&, CallArgs& a) {
    ArgBinder b("iscomplexobj", a, {"x"}, 1);
    return Value::Bool(b.Get(0).As<ComplexArrayObj>() != nullptr);
  });
  // np.abs / np.absolute: the magnitude for complex arrays, the real ufunc otherwise.
  for (const char* name : {"abs", "absolute"}) {
    Value real_abs = np.attrs[name];
    np.Def(name, [real_abs](Interpreter& in, CallArgs& a) {
      if (a.pos.size() == 1 && a.kw.empty())
        if (auto* c = a.pos[0].As<ComplexArrayObj>()) return WrapNd(Magnitude(c->parts), c->scalar);
      return in.CallValue(real_abs, a);
    });
  }
  auto fft = std::make_shared<ModuleObj>("numpy.fft");
  for (bool inverse : {false, true}) {
    const std::string name = inverse ? "ifft" : "fft";
    fft->Def(name, [name, inverse](Interpreter& in, CallArgs& a) {
      ArgBinder b(name, a, {"a", "n", "axis", "norm"}, 1);
      NdArray parts = PartsArg(in, b.Get(0), "np.fft." + name);
      if (parts.ndim() < 2) ValueError("Invalid number of FFT data points (0) specified.");
      std::optional<int64_t> n;
      if (b.Has(1) && !b.Get(1).IsNone()) n = ToInt(b.Get(1), name + "() n");
      const int axis = b.Has(2) ? int(ToInt(b.Get(2), name + "() axis")) : -1;
      // NumPy 1.24 reads a.shape[axis] before it checks the axis.
      if (axis >= parts.ndim() - 1 || axis < -(parts.ndim() - 1)) IndexError("tuple index out of range");
      FftNorm norm = FftNorm::Backward;
      if (b.Has(3) && !b.Get(3).IsNone()) {
        const std::string s = ToStr(b.Get(3), name + "() norm");
        if (s == "ortho") norm = FftNorm::Ortho;
        else if (s == "forward") norm = FftNorm::Forward;
        else if (s != "backward")
          ValueError("Invalid norm value " + s + "; should be \"backward\",\"ortho\" or \"forward\".");
      }
      return WrapComplex(Fft(parts, axis, n, inverse, norm), false);
    });
  }
  // fftfreq(n, d) / rfftfreq(n, d): the sample frequencies, integers times 1 / (n d) as NumPy
  // computes them.
  for (bool real : {false, true}) {
    const std::string name = real ? "rfftfreq" : "fftfreq";
    fft->Def(name, [name, real](Interpreter& in, CallArgs& a) {
      ArgBinder b(name, a, {"n", "d"}, 1);
      const int64_t n = ToInt(b.Get(0), name + "() n");
      if (n < 0) ValueError("negative dimensions are not allowed");
      if (n == 0) Raise("ZeroDivisionError", "float division by zero");
      const double d = b.Has(1) ? ToDouble(b.Get(1), name + "() d") : 1.0;
      const double val = 1.0 / (double(n) * d);
      const int64_t count = real ? n / 2 + 1 : n;
      NdArray out = NdArray::Empty({count}, ScalarType::Float64);
      for (int64_t k = 0; k < count; ++k) {
        const int64_t m = real || k <= (n - 1) / 2 ? k : k - n;
        out.SetFlat(k, Scalar::Float(double(m) * val));
      }
      return WrapNd(out, false);
    });
  }
  np.attrs["fft"] = Value(fft);
}

Value ComplexScalar(double re, double im) {
  NdArray parts = NdArray::Empty({2}, ScalarType::Float64);
  parts.SetFlat(0, Scalar::Float(re));
  parts.SetFlat(1, Scalar::Float(im));
  return Value(std::make_shared<ComplexArrayObj>(std::move(parts), true));
}

}  // namespace tilec::host
