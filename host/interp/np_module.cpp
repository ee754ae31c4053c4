// The built-in `np` module: the NumPy subset of LANGUAGE.md §7 bound to host/ndarray.
#include <cmath>

#include "host/interp/args.h"
#include "host/interp/array_values.h"
#include "host/interp/interpreter.h"

namespace tilec::host {

namespace {

std::optional<ScalarType> OptDType(const ArgBinder& b, size_t idx, const std::string& fname) {
  if (!b.Has(idx) || b.Get(idx).IsNone()) return std::nullopt;
  return DTypeArg(b.Get(idx), false, "");
}

Scalar NumberArg(const Value& v, const std::string& context) {
  auto s = ToNdScalar(v);
  if (!s) TypeError(context + ": expected a number, got " + TypeName(v));
  return *s;
}

void Unary(ModuleObj& m, const std::string& name, UnaryOp op) {
  m.Def(name, [name, op](Interpreter& in, CallArgs& a) {
    ArgBinder b(name, a, {"x"}, 1);
    return WrapNd(host::Unary(op, ToNdArray(in, b.Get(0), "np." + name)));
  });
}

}  // namespace

Value MakeNumpyModule() {
  auto m = std::make_shared<ModuleObj>("numpy");
  const ScalarType kTypes[] = {
      ScalarType::Bool,   ScalarType::Int8,   ScalarType::Int16,   ScalarType::Int32,   ScalarType::Int64,
      ScalarType::UInt8,  ScalarType::UInt16, ScalarType::UInt32,  ScalarType::UInt64,  ScalarType::Float16,
      ScalarType::Float32, ScalarType::Float64};
  for (ScalarType t : kTypes) {
    std::string name = t == ScalarType::Bool ? "bool_" : std::string(ScalarName(t));
    m->attrs[name] = Value(std::make_shared<DTypeObj>(t, DTypeObj::Flavor::NpType));
  }
  m->attrs["pi"] = Value::Float(M_PI);
  m->attrs["e"] = Value::Float(M_E);
  m->attrs["inf"] = Value::Float(INFINITY);
  m->attrs["nan"] = Value::Float(NAN);
  m->attrs["newaxis"] = Value();

  m->Def("array", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("array", a, {"object", "dtype"}, 1);
    auto dtype = OptDType(b, 1, "array");
    NdArray src = ToNdArray(in, b.Get(0), "array", dtype);
    // np.array always copies; ToNdArray may return a view of the argument.
    return WrapNd(src.Copy(), false);
  });
  m->Def("arange", [](Interpreter&, CallArgs& a) {
    ArgBinder b("arange", a, {"start", "stop", "step", "dtype"}, 1);
    auto dtype = OptDType(b, 3, "arange");
    Scalar start = Scalar::Int(0), stop, step = Scalar::Int(1);
    if (b.Has(1) && !b.Get(1).IsNone()) {
      start = NumberArg(b.Get(0), "arange");
      stop = NumberArg(b.Get(1), "arange");
    } else {
      stop = NumberArg(b.Get(0), "arange");
    }
    if (b.Has(2) && !b.Get(2).IsNone()) step = NumberArg(b.Get(2), "arange");
    if (step.AsDouble() == 0) Raise("ZeroDivisionError", "division by zero");
    return WrapNd(NdArray::Arange(start, stop, step, dtype), false);
  });
  for (const char* fname : {"zeros", "ones", "empty"}) {
    std::string name = fname;
    m->Def(name, [name](Interpreter&, CallArgs& a) {
      ArgBinder b(name, a, {"shape", "dtype"}, 1);
      Shape shape = ShapeArg(b.Get(0), name);
      ScalarType t = OptDType(b, 1, name).value_or(ScalarType::Float64);
      NdArray r = name == "zeros" ? NdArray::Zeros(shape, t)
                  : name == "ones" ? NdArray::Ones(shape, t)
                                   : NdArray::Empty(shape, t);
      return WrapNd(r, false);
    });
  }
  for (const char* fname : {"zeros_like", "ones_like"}) {
    std::string name = fname;
    m->Def(name, [name](Interpreter& in, CallArgs& a) {
      ArgBinder b(name, a, {"a", "dtype"}, 1);
      NdArray src = ToNdArray(in, b.Get(0), name);
      ScalarType t = OptDType(b, 1, name).value_or(src.dtype());
      return WrapNd(name == "zeros_like" ? NdArray::Zeros(src.shape(), t) : NdArray::Ones(src.shape(), t), false);
    });
  }
  m->Def("full", [](Interpreter&, CallArgs& a) {
    ArgBinder b("full", a, {"shape", "fill_value", "dtype"}, 2);
    return WrapNd(NdArray::Full(ShapeArg(b.Get(0), "full"), NumberArg(b.Get(1), "full"), OptDType(b, 2, "full")),
                  false);
  });
  m->Def("linspace", [](Interpreter&, CallArgs& a) {
    ArgBinder b("linspace", a, {"start", "stop", "num", "endpoint", "dtype"}, 2);
    int64_t num = b.Has(2) ? ToInt(b.Get(2), "linspace() num") : 50;
    if (num < 0) ValueError("Number of samples, " + std::to_string(num) + ", must be non-negative.");
    bool endpoint = !b.Has(3) || Truth(b.Get(3));
    return WrapNd(NdArray::Linspace(ToDouble(b.Get(0), "linspace() start"), ToDouble(b.Get(1), "linspace() stop"),
                                    num, endpoint, OptDType(b, 4, "linspace")),
                  false);
  });
  m->Def("allclose", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("allclose", a, {"a", "b", "rtol", "atol", "equal_nan"}, 2);
    double rtol = b.Has(2) ? ToDouble(b.Get(2), "allclose() rtol") : 1e-5;
    double atol = b.Has(3) ? ToDouble(b.Get(3), "allclose() atol") : 1e-8;
    bool equal_nan = b.Has(4) && Truth(b.Get(4));
    return Value::Bool(AllClose(ToNdArray(in, b.Get(0), "allclose"), ToNdArray(in, b.Get(1), "allclose"), rtol,
                                atol, equal_nan));
  });
  m->Def("array_equal", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("array_equal", a, {"a1", "a2"}, 2);
    return Value::Bool(ArrayEqual(ToNdArray(in, b.Get(0), "array_equal"), ToNdArray(in, b.Get(1), "array_equal")));
  });
  m->Def("sum", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("sum", a, {"a", "axis"}, 1);
    std::optional<int> axis;
    if (b.Has(1) && !b.Get(1).IsNone()) axis = int(ToInt(b.Get(1), "sum() axis"));
    return WrapNd(ToNdArray(in, b.Get(0), "np.sum").Sum(axis));
  });
  Unary(*m, "abs", UnaryOp::Abs);
  Unary(*m, "absolute", UnaryOp::Abs);
  Unary(*m, "sqrt", UnaryOp::Sqrt);
  Unary(*m, "exp", UnaryOp::Exp);
  m->Def("shape", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("shape", a, {"a"}, 1);
    return ShapeTuple(ToNdArray(in, b.Get(0), "np.shape").shape());
  });
  m->Def("dtype", [](Interpreter&, CallArgs& a) {
    ArgBinder b("dtype", a, {"dtype"}, 1);
    return Value(std::make_shared<DTypeObj>(DTypeArg(b.Get(0), false, ""), DTypeObj::Flavor::NpDtype));
  });
  return Value(m);
}

}  // namespace tilec::host
