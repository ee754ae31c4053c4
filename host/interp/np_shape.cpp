// The `np` module's shape and counting functions (tile, repeat, roll, flip, expand_dims,
// broadcast_to, meshgrid, outer, copy, empty_like, asfortranarray, ndim, prod, count_nonzero,
// diag_indices_from) and np.finfo: argument handling and NumPy's messages; the array work is
// in host/ndarray.
#include <cstdio>

#include "host/interp/args.h"
#include "host/interp/array_values.h"
#include "host/interp/interpreter.h"
#include "host/interp/np_funcs.h"

namespace tilec::host {

namespace {

std::vector<int> IntAxes(const Value& v) {
  std::vector<int> axes;
  for (int64_t ax : ReshapeArg(v)) axes.push_back(int(ax));
  return axes;
}

std::optional<ScalarType> OptionalDType(const ArgBinder& b, size_t idx) {
  if (!b.Has(idx) || b.Get(idx).IsNone()) return std::nullopt;
  return DTypeArg(b.Get(idx), false, "");
}

// NumPy's shape spelling in broadcast messages: no spaces, "(3,)" for one axis.
std::string CompactShapeString(const Shape& s) {
  std::string o = "(";
  for (size_t k = 0; k < s.size(); ++k) o += (k ? "," : "") + std::to_string(s[k]);
  return o + (s.size() == 1 ? ",)" : ")");
}

Value BroadcastTo(Interpreter& in, CallArgs& args) {
  ArgBinder b("broadcast_to", args, {"array", "shape"}, 2);
  NdArray a = ToNdArray(in, b.Get(0), "np.broadcast_to");
  Shape shape = ReshapeArg(b.Get(1));
  for (int64_t d : shape)
    if (d < 0) ValueError("all elements of broadcast shape must be non-negative");
  if (size_t(a.ndim()) > shape.size()) ValueError("input operand has more dimensions than allowed by the axis remapping");
  for (size_t k = 0; k < size_t(a.ndim()); ++k) {
    int64_t have = a.shape()[k], want = shape[shape.size() - size_t(a.ndim()) + k];
    if (have != want && have != 1)
      ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                 CompactShapeString(a.shape()) + "  and requested shape " + CompactShapeString(shape));
  }
  // NumPy's result is a read-only view; this one is a plain view of the same buffer.
  return WrapNd(a.BroadcastTo(shape), false);
}

// np.meshgrid(*xi, indexing="xy", sparse=False, copy=True): input k (flattened) runs along
// axis k of the result, except that "xy" swaps the first two axes (x along columns). NumPy
// 1.24 returns a list.
Value Meshgrid(Interpreter& in, CallArgs& args) {
  std::string indexing = "xy";
  bool sparse = false;
  for (const auto& [name, v] : args.kw) {
    if (name == "indexing") indexing = ToStr(v, "meshgrid");
    else if (name == "sparse") sparse = Truth(v);
    else if (name != "copy") TypeError("meshgrid() got an unexpected keyword argument '" + name + "'");
  }
  if (indexing != "xy" && indexing != "ij") ValueError("Valid values for `indexing` are 'xy' and 'ij'.");
  const size_t n = args.pos.size();
  std::vector<NdArray> xs;
  Shape full;
  for (const Value& v : args.pos) {
    NdArray a = ToNdArray(in, v, "np.meshgrid");
    xs.push_back(a.Reshape({a.size()}));
    full.push_back(a.size());
  }
  const bool swap = indexing == "xy" && n > 1;
  if (swap) std::swap(full[0], full[1]);
  std::vector<Value> out;
  for (size_t k = 0; k < n; ++k) {
    Shape s(n, 1);
    size_t axis = swap && k < 2 ? 1 - k : k;
    s[axis] = xs[k].size();
    NdArray r = xs[k].Reshape(s);
    out.push_back(WrapNd(sparse ? r.Copy() : r.BroadcastTo(full).Copy(), false));
  }
  return MakeList(std::move(out));
}

Value DiagIndicesFrom(Interpreter& in, CallArgs& args) {
  ArgBinder b("diag_indices_from", args, {"arr"}, 1);
  NdArray a = ToNdArray(in, b.Get(0), "np.diag_indices_from");
  if (a.ndim() < 2) ValueError("input array must be at least 2-d");
  for (int64_t d : a.shape())
    if (d != a.shape()[0]) ValueError("All dimensions of input must be of equal length");
  // NumPy's tuple holds the same index array once per axis.
  Value idx = WrapNd(NdArray::Arange(a.shape()[0]), false);
  return MakeTuple(std::vector<Value>(size_t(a.ndim()), idx));
}

Value CountNonzero(Interpreter& in, CallArgs& args) {
  ArgBinder b("count_nonzero", args, {"a", "axis"}, 1);
  NdArray a = ToNdArray(in, b.Get(0), "np.count_nonzero");
  if (auto axis = AxisArg(b, 1)) return WrapNd(a.AsType(ScalarType::Bool).Sum(*axis));
  // Without an axis NumPy answers a Python int.
  int64_t n = 0;
  for (int64_t k = 0, size = a.size(); k < size; ++k) n += a.GetFlat(k).AsBool();
  return Value::Int(n);
}

// np.finfo: the parameters of one float type, with NumPy's printed forms of each.
struct FloatInfo {
  ScalarType type;
  int bits, precision, machep, negep, minexp, maxexp, nexp;
  double eps, epsneg, max, tiny, resolution, subnormal;
  const char *res_str, *res_long, *eps_str, *epsneg_str, *tiny_str, *max_str, *sub_str;
};

const FloatInfo kFloatInfos[] = {
    {ScalarType::Float16, 16, 3, -10, -11, -14, 16, 5, 0x1p-10, 0x1p-11, 65504.0, 0x1p-14, 1e-3, 0x1p-24, "0.001",
     "1.00040e-03", "9.76562e-04", "4.88281e-04", "6.10352e-05", "6.55040e+04", "5.96046e-08"},
    {ScalarType::Float32, 32, 6, -23, -24, -126, 128, 8, 0x1p-23, 0x1p-24, 3.4028234663852886e38, 0x1p-126, 1e-6,
     0x1p-149, "1e-06", "1.0000000e-06", "1.1920929e-07", "5.9604645e-08", "1.1754944e-38", "3.4028235e+38",
     "1.4012985e-45"},
    {ScalarType::Float64, 64, 15, -52, -53, -1022, 1024, 11, 0x1p-52, 0x1p-53, 1.7976931348623157e308, 0x1p-1022,
     1e-15, 0x1p-1074, "1e-15", "1.0000000000000001e-15", "2.2204460492503131e-16", "1.1102230246251565e-16",
     "2.2250738585072014e-308", "1.7976931348623157e+308", "4.9406564584124654e-324"},
};

struct FinfoObj : Object {
  explicit FinfoObj(const FloatInfo& info) : f(info) {}
  std::string TypeName() const override { return "numpy.finfo"; }
  std::string Repr() const override {
    const std::string max = f.max_str;
    return "finfo(resolution=" + std::string(f.res_str) + ", min=-" + max + ", max=" + max +
           ", dtype=" + DtypeName(f.type) + ")";
  }
  std::string Str() const override {
    const std::string rule(63, '-');
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "Machine parameters for %s\n%s\nprecision = %3d   resolution = %s\nmachep = %6d   eps =        %s\n"
                  "negep = %7d   epsneg =     %s\nminexp = %6d   tiny =       %s\nmaxexp = %6d   max =        %s\n"
                  "nexp = %8d   min =        -max\nsmallest_normal = %s   smallest_subnormal = %s\n%s\n",
                  DtypeName(f.type).c_str(), rule.c_str(), f.precision, f.res_long, f.machep, f.eps_str, f.negep,
                  f.epsneg_str, f.minexp, f.tiny_str, f.maxexp, f.max_str, f.nexp, f.tiny_str, f.sub_str, rule.c_str());
    return buf;
  }
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    auto number = [&](double v) { return WrapNd(NdArray::FromScalar(Scalar::Float(v), f.type)); };
    if (name == "eps") return number(f.eps);
    if (name == "epsneg") return number(f.epsneg);
    if (name == "max") return number(f.max);
    if (name == "min") return number(-f.max);
    if (name == "tiny" || name == "smallest_normal") return number(f.tiny);
    if (name == "smallest_subnormal") return number(f.subnormal);
    if (name == "resolution") return number(f.resolution);
    if (name == "bits") return Value::Int(f.bits);
    if (name == "precision") return Value::Int(f.precision);
    if (name == "dtype") return Value(std::make_shared<DTypeObj>(f.type, DTypeObj::Flavor::NpDtype));
    return std::nullopt;
  }
  const FloatInfo& f;
};

Value Finfo(Interpreter&, CallArgs& args) {
  ArgBinder b("finfo", args, {"dtype"}, 1);
  const Value& v = b.Get(0);
  ScalarType t;
  if (auto* nd = v.As<NdArrayObj>()) {
    if (!nd->scalar) ValueError("data type <class 'numpy.object_'> not inexact");
    t = nd->a.dtype();
  } else if (v.IsFloat()) {
    t = ScalarType::Float64;
  } else if (v.IsBool()) {
    t = ScalarType::Bool;
  } else if (v.IsInt()) {
    t = ScalarType::Int64;
  } else {
    t = DTypeArg(v, false, "");
  }
  for (const FloatInfo& info : kFloatInfos)
    if (info.type == t) return Value(std::make_shared<FinfoObj>(info));
  ValueError("data type " + DTypeObj(t, DTypeObj::Flavor::NpType).Repr() + " not inexact");
}

}  // namespace

void DefineNumpyShapeFunctions(ModuleObj& m) {
  m.Def("tile", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("tile", a, {"A", "reps"}, 2);
    return WrapNd(Tile(ToNdArray(in, b.Get(0), "np.tile"), ReshapeArg(b.Get(1))), false);
  });
  m.Def("repeat", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("repeat", a, {"a", "repeats", "axis"}, 2);
    // NumPy casts the repeat counts to integers unsafely: 1.5 repeats once.
    NdArray counts = ToNdArray(in, b.Get(1), "np.repeat").AsType(ScalarType::Int64).Reshape({-1});
    std::vector<int64_t> reps;
    for (int64_t k = 0; k < counts.size(); ++k) reps.push_back(counts.GetFlat(k).i);
    return WrapNd(Repeat(ToNdArray(in, b.Get(0), "np.repeat"), reps, AxisArg(b, 2)), false);
  });
  m.Def("outer", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("outer", a, {"a", "b"}, 2);
    return WrapNd(Outer(ToNdArray(in, b.Get(0), "np.outer"), ToNdArray(in, b.Get(1), "np.outer")), false);
  });
  m.Def("roll", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("roll", a, {"a", "shift", "axis"}, 2);
    std::vector<int> axes;
    if (b.Has(2) && !b.Get(2).IsNone()) axes = IntAxes(b.Get(2));
    Shape shifts = ReshapeArg(b.Get(1));
    return WrapNd(Roll(ToNdArray(in, b.Get(0), "np.roll"), shifts, axes), false);
  });
  m.Def("flip", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("flip", a, {"m", "axis"}, 1);
    std::optional<std::vector<int>> axes;
    if (b.Has(1) && !b.Get(1).IsNone()) axes = IntAxes(b.Get(1));
    // A 0-d input comes back as a NumPy scalar, as `m[()]` gives it.
    return WrapNd(Flip(ToNdArray(in, b.Get(0), "np.flip"), axes));
  });
  m.Def("expand_dims", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("expand_dims", a, {"a", "axis"}, 2);
    return WrapNd(ExpandDims(ToNdArray(in, b.Get(0), "np.expand_dims"), IntAxes(b.Get(1))), false);
  });
  m.Def("broadcast_to", BroadcastTo);
  m.Def("meshgrid", Meshgrid);
  m.Def("copy", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("copy", a, {"a"}, 1);
    return WrapNd(ToNdArray(in, b.Get(0), "np.copy").Copy(), false);
  });
  m.Def("empty_like", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("empty_like", a, {"prototype", "dtype"}, 1);
    NdArray src = ToNdArray(in, b.Get(0), "np.empty_like");
    return WrapNd(NdArray::Zeros(src.shape(), OptionalDType(b, 1).value_or(src.dtype())), false);
  });
  m.Def("asfortranarray", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("asfortranarray", a, {"a", "dtype"}, 1);
    std::optional<ScalarType> dtype = OptionalDType(b, 1);
    // An array that already qualifies is returned itself, as NumPy does.
    if (auto* nd = b.Get(0).As<NdArrayObj>();
        nd && !nd->scalar && nd->a.ndim() > 0 && (!dtype || *dtype == nd->a.dtype()) && IsFContiguous(nd->a))
      return b.Get(0);
    return WrapNd(AsFortran(ToNdArray(in, b.Get(0), "np.asfortranarray", dtype)), false);
  });
  m.Def("ndim", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("ndim", a, {"a"}, 1);
    return Value::Int(ToNdArray(in, b.Get(0), "np.ndim").ndim());
  });
  m.Def("prod", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("prod", a, {"a", "axis", "dtype"}, 1);
    return WrapNd(Prod(ToNdArray(in, b.Get(0), "np.prod"), AxisArg(b, 1), OptionalDType(b, 2)));
  });
  m.Def("count_nonzero", CountNonzero);
  m.Def("diag_indices_from", DiagIndicesFrom);
  m.Def("finfo", Finfo);
}

}  // namespace tilec::host
