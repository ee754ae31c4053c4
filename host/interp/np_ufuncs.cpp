// NumPy's ufunc objects in the `np` module: callables that print as `<ufunc 'name'>` and carry
// the methods host programs use (np.add.at, np.minimum.accumulate, ...). The element loops
// are in host/ndarray (ndarray_ufuncs.cpp, ndarray_ops.cpp).
#include <cmath>
#include <map>

#include "host/interp/args.h"
#include "host/interp/array_values.h"
#include "host/interp/interpreter.h"
#include "host/interp/np_funcs.h"

namespace tilec::host {

namespace {

struct UfuncObj : Object {
  UfuncObj(std::string name, NativeFn call) : name(std::move(name)), call(std::move(call)) {}
  std::string TypeName() const override { return "numpy.ufunc"; }
  std::string Repr() const override { return "<ufunc '" + name + "'>"; }
  bool Callable() const override { return true; }
  Value Call(Interpreter& in, CallArgs& args) override { return call(in, args); }
  std::optional<Value> GetAttr(Interpreter&, const std::string& attr) override {
    if (attr == "__name__") return MakeStr(name);
    auto it = methods.find(attr);
    if (it == methods.end()) return std::nullopt;
    return Value(std::make_shared<BuiltinFn>(attr, it->second));
  }
  std::string name;
  NativeFn call;
  std::map<std::string, NativeFn> methods;
};

std::shared_ptr<UfuncObj> Define(ModuleObj& m, const std::string& name, NativeFn call) {
  auto u = std::make_shared<UfuncObj>(name, std::move(call));
  m.attrs[name] = Value(u);
  return u;
}

// A two-operand ufunc call: f(x1, x2) on the operands as arrays.
NativeFn BinaryCall(const std::string& name, std::function<NdArray(const NdArray&, const NdArray&)> f) {
  return [name, f](Interpreter& in, CallArgs& a) {
    ArgBinder b(name, a, {"x1", "x2"}, 2);
    return WrapNd(f(ToNdArray(in, b.Get(0), "np." + name), ToNdArray(in, b.Get(1), "np." + name)));
  };
}

// The float loop NumPy runs a float ufunc in: the operands' type when it is a float, else the
// smallest float that holds it (int8 -> float16, int16 -> float32, wider -> float64).
ScalarType FloatLoop(ScalarType t) {
  if (t == ScalarType::Float16 || t == ScalarType::Float32 || t == ScalarType::Float64) return t;
  size_t size = t == ScalarType::Bool ? 1 : ScalarSize(t);
  return size == 1 ? ScalarType::Float16 : size == 2 ? ScalarType::Float32 : ScalarType::Float64;
}

// Elementwise f over the broadcast operands in their float loop (float16 computes in float32).
template <class Fn>
std::vector<NdArray> FloatElementwise(std::vector<NdArray> xs, size_t outputs, Fn f) {
  std::vector<const NdArray*> ptrs;
  for (const auto& x : xs) ptrs.push_back(&x);
  const ScalarType loop = FloatLoop(ResultType(ptrs));
  Shape shape = xs[0].shape();
  for (size_t k = 1; k < xs.size(); ++k) shape = BroadcastShapes(shape, xs[k].shape());
  const ScalarType compute = loop == ScalarType::Float64 ? ScalarType::Float64 : ScalarType::Float32;
  for (auto& x : xs) x = x.BroadcastTo(shape).AsType(compute);
  std::vector<NdArray> out;
  for (size_t k = 0; k < outputs; ++k) out.push_back(NdArray::Zeros(shape, compute));
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  auto run = [&](auto zero) {
    using F = decltype(zero);
    std::vector<const F*> in;
    for (auto& x : xs) in.push_back(static_cast<const F*>(x.data()));
    std::vector<F*> res;
    for (auto& o : out) res.push_back(static_cast<F*>(o.data()));
    for (int64_t i = 0; i < n; ++i) f(in, res, i);
  };
  if (compute == ScalarType::Float64) run(double{});
  else run(float{});
  for (auto& o : out) o = o.AsType(loop);
  return out;
}

// ufunc.accumulate(array, axis=0, dtype=None) for the minimum/maximum family.
NativeFn AccumulateCall(const std::string& name, Extremum kind) {
  return [name, kind](Interpreter& in, CallArgs& a) {
    ArgBinder b("accumulate", a, {"array", "axis", "dtype"}, 1);
    std::optional<ScalarType> dtype;
    if (b.Has(2) && !b.Get(2).IsNone()) dtype = DTypeArg(b.Get(2), false, "");
    NdArray x = ToNdArray(in, b.Get(0), "np." + name + ".accumulate", dtype);
    int axis = 0;
    if (b.Has(1) && b.Get(1).IsNone()) {
      if (x.ndim() > 1) ValueError("accumulate does not allow multiple axes");
    } else if (b.Has(1)) {
      axis = int(ToInt(b.Get(1), "accumulate() axis"));
    }
    return WrapNd(Accumulate(kind, x, axis), false);
  };
}

Value AddAtCall(Interpreter& in, CallArgs& a) {
  ArgBinder b("at", a, {"a", "indices", "b"}, 2);
  auto* target = b.Get(0).As<NdArrayObj>();
  if (!target || target->scalar) TypeError("first operand must be array");
  if (!b.Has(2)) ValueError("second operand needed for ufunc");
  if (b.Get(2).As<StrObj>())
    Raise("numpy.core._exceptions._UFuncNoLoopError",
          "ufunc 'add' did not contain a loop with signature matching types (dtype('" + DtypeName(target->a.dtype()) +
              "'), dtype('<U" + std::to_string(b.Get(2).As<StrObj>()->s.size()) + "')) -> None");
  std::vector<IndexItem> items = IndexKeyItems(in, b.Get(1));
  AddAt(target->a, items, ToNdArray(in, b.Get(2), "np.add.at"));
  return Value();
}

// np.isnan and friends; a string operand gets the ufunc's type error, as in NumPy.
void FloatTestUfunc(ModuleObj& m, const std::string& name, FloatTest test) {
  Define(m, name, [name, test](Interpreter& in, CallArgs& a) {
    ArgBinder b(name, a, {"x"}, 1);
    if (b.Get(0).As<StrObj>())
      TypeError("ufunc '" + name + "' not supported for the input types, and the inputs could not be safely coerced "
                "to any supported types according to the casting rule ''safe''");
    return WrapNd(TestFloat(test, ToNdArray(in, b.Get(0), "np." + name)));
  });
}

}  // namespace

void DefineNumpyUfuncs(ModuleObj& m) {
  auto add = Define(m, "add", BinaryCall("add", [](const NdArray& x, const NdArray& y) { return x + y; }));
  add->methods["at"] = AddAtCall;
  const std::pair<const char*, BinaryOp> kArithmetic[] = {
      {"subtract", BinaryOp::Sub},        {"multiply", BinaryOp::Mul},     {"divide", BinaryOp::TrueDiv},
      {"true_divide", BinaryOp::TrueDiv}, {"floor_divide", BinaryOp::FloorDiv}, {"remainder", BinaryOp::Mod},
      {"mod", BinaryOp::Mod},             {"power", BinaryOp::Pow},        {"bitwise_and", BinaryOp::And},
      {"bitwise_or", BinaryOp::Or},       {"bitwise_xor", BinaryOp::Xor}};
  for (auto [name, op] : kArithmetic)
    Define(m, name, BinaryCall(name, [op](const NdArray& x, const NdArray& y) { return Binary(op, x, y); }));
  // np.minimum / np.maximum keep the clip loop they were called through before.
  auto minimum = Define(m, "minimum", BinaryCall("minimum", [](const NdArray& x, const NdArray& y) {
                          return Clip(x, std::nullopt, y);
                        }));
  auto maximum = Define(m, "maximum", BinaryCall("maximum", [](const NdArray& x, const NdArray& y) {
                          return Clip(x, y, std::nullopt);
                        }));
  auto fmin = Define(m, "fmin", BinaryCall("fmin", [](const NdArray& x, const NdArray& y) {
                       return Extreme(Extremum::FMin, x, y);
                     }));
  auto fmax = Define(m, "fmax", BinaryCall("fmax", [](const NdArray& x, const NdArray& y) {
                       return Extreme(Extremum::FMax, x, y);
                     }));
  minimum->methods["accumulate"] = AccumulateCall("minimum", Extremum::Minimum);
  maximum->methods["accumulate"] = AccumulateCall("maximum", Extremum::Maximum);
  fmin->methods["accumulate"] = AccumulateCall("fmin", Extremum::FMin);
  fmax->methods["accumulate"] = AccumulateCall("fmax", Extremum::FMax);
  Define(m, "arctan2", BinaryCall("arctan2", [](const NdArray& y, const NdArray& x) {
           return FloatElementwise({y, x}, 1, [](const auto& in, const auto& out, int64_t i) {
             out[0][i] = std::atan2(in[0][i], in[1][i]);
           })[0];
         }));
  // heaviside(x1, x2): 0 below zero, x2 at zero, 1 above; NaN stays NaN.
  Define(m, "heaviside", BinaryCall("heaviside", [](const NdArray& x1, const NdArray& x2) {
           return FloatElementwise({x1, x2}, 1, [](const auto& in, const auto& out, int64_t i) {
             auto v = in[0][i];
             out[0][i] = v < 0 ? 0 : v > 0 ? 1 : v == 0 ? in[1][i] : v;
           })[0];
         }));
  // modf(x): the fractional and integral parts, each with x's sign.
  Define(m, "modf", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("modf", a, {"x"}, 1);
    auto parts = FloatElementwise({ToNdArray(in, b.Get(0), "np.modf")}, 2, [](const auto& x, const auto& out, int64_t i) {
      auto whole = x[0][i];
      out[0][i] = std::modf(x[0][i], &whole);
      out[1][i] = whole;
    });
    return MakeTuple({WrapNd(parts[0]), WrapNd(parts[1])});
  });
  FloatTestUfunc(m, "isnan", FloatTest::IsNan);
  FloatTestUfunc(m, "isfinite", FloatTest::IsFinite);
  FloatTestUfunc(m, "isinf", FloatTest::IsInf);
}

}  // namespace tilec::host
