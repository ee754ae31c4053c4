// NumPy's ufunc objects in the `np` module: callables that print as `<ufunc 'name'>` and carry
// the methods host programs use (np.add.at, np.minimum.accumulate, ...). The element loops
// are in host/ndarray (ndarray_ufuncs.cpp, ndarray_ops.cpp).
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
  Define(m, "bitwise_and",
         BinaryCall("bitwise_and", [](const NdArray& x, const NdArray& y) { return Binary(BinaryOp::And, x, y); }));
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
  FloatTestUfunc(m, "isnan", FloatTest::IsNan);
  FloatTestUfunc(m, "isfinite", FloatTest::IsFinite);
  FloatTestUfunc(m, "isinf", FloatTest::IsInf);
}

}  // namespace tilec::host
