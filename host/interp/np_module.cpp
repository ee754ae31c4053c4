// The built-in `np` module: the NumPy subset of LANGUAGE.md §7 bound to host/ndarray.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "host/interp/args.h"
#include "host/interp/array_values.h"
#include "host/interp/interpreter.h"
#include "host/interp/np_funcs.h"

namespace tilec::host {

namespace {

// np.s_: `np.s_[1:3, ::2]` is the index expression itself, to pass around.
struct IndexMakerObj : Object {
  std::string TypeName() const override { return "numpy.lib.index_tricks.IndexExpression"; }
  Value GetItem(Interpreter&, const Value& key) override { return key; }
};

// np.lib.NumpyVersion: a release number compared with others or with version strings.
struct NumpyVersionObj : Object {
  explicit NumpyVersionObj(std::string v) : text(std::move(v)), parts(Parse(text)) {}
  static std::vector<int64_t> Parse(const std::string& v) {
    std::vector<int64_t> out;
    size_t at = 0;
    while (out.size() < 3 && at < v.size() && std::isdigit(static_cast<unsigned char>(v[at]))) {
      int64_t n = 0;
      while (at < v.size() && std::isdigit(static_cast<unsigned char>(v[at]))) n = n * 10 + (v[at++] - '0');
      out.push_back(n);
      if (at < v.size() && v[at] == '.') ++at;
      else break;
    }
    if (out.size() != 3) ValueError("Not a valid numpy version string");
    return out;
  }
  std::string TypeName() const override { return "NumpyVersion"; }
  std::string Repr() const override { return "NumpyVersion(" + text + ")"; }
  std::optional<Value> CmpOp(Interpreter&, ast::CmpOp op, const Value& other, bool reflected) override {
    std::vector<int64_t> o;
    if (const auto* v = other.As<NumpyVersionObj>()) o = v->parts;
    else if (const auto* s = other.As<StrObj>()) o = Parse(s->s);
    else return std::nullopt;
    const std::vector<int64_t>& l = reflected ? o : parts;
    const std::vector<int64_t>& r = reflected ? parts : o;
    switch (op) {
      case ast::CmpOp::Eq: return Value::Bool(l == r);
      case ast::CmpOp::NotEq: return Value::Bool(l != r);
      case ast::CmpOp::Lt: return Value::Bool(l < r);
      case ast::CmpOp::LtE: return Value::Bool(l <= r);
      case ast::CmpOp::Gt: return Value::Bool(l > r);
      case ast::CmpOp::GtE: return Value::Bool(l >= r);
      case ast::CmpOp::Is: case ast::CmpOp::IsNot: case ast::CmpOp::In: case ast::CmpOp::NotIn:
        return std::nullopt;
    }
    return std::nullopt;
  }
  std::string text;
  std::vector<int64_t> parts;
};

[[noreturn]] void OverflowErrorUInt64() {
  Raise("OverflowError", "np.iinfo(np.uint64).max does not fit a host int (64-bit signed)");
}

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
    // `dtype=` picks the loop: the operand is cast to it first.
    ArgBinder b(name, a, {"x", "out", "where", "casting", "order", "dtype"}, 1);
    if (b.Has(1) || b.Has(2)) TypeError("np." + name + "(): out= and where= are not supported in host code");
    NdArray x = ToNdArray(in, b.Get(0), "np." + name);
    if (b.Has(5) && !b.Get(5).IsNone()) x = x.AsType(DTypeArg(b.Get(5), false, "np." + name + "() dtype"));
    return WrapNd(host::Unary(op, x));
  });
}

std::vector<NdArray> ArraySequence(Interpreter& in, const Value& v, const std::string& fname) {
  std::vector<NdArray> out;
  for (const Value& x : IterateValue(in, v)) out.push_back(ToNdArray(in, x, "np." + fname));
  return out;
}

std::optional<NdArray> OptArray(Interpreter& in, const ArgBinder& b, size_t idx, const std::string& fname) {
  if (!b.Has(idx) || b.Get(idx).IsNone()) return std::nullopt;
  return ToNdArray(in, b.Get(idx), "np." + fname);
}

void DefineNumpyArrayFunctions(ModuleObj& m) {
  for (const char* fname : {"round", "around"}) {
    std::string name = fname;
    m.Def(name, [name](Interpreter& in, CallArgs& a) {
      ArgBinder b(name, a, {"a", "decimals"}, 1);
      int64_t decimals = b.Has(1) ? ToInt(b.Get(1), name + "() decimals") : 0;
      return WrapNd(Round(ToNdArray(in, b.Get(0), "np." + name), decimals));
    });
  }
  const std::pair<const char*, Reduction> kReductions[] = {
      {"max", Reduction::Max}, {"amax", Reduction::Max}, {"min", Reduction::Min}, {"amin", Reduction::Min},
      {"argmax", Reduction::ArgMax}, {"argmin", Reduction::ArgMin}};
  for (auto [fname, kind] : kReductions) {
    std::string name = fname;
    Reduction r = kind;
    m.Def(name, [name, r](Interpreter& in, CallArgs& a) {
      ArgBinder b(name, a, {"a", "axis"}, 1);
      return WrapNd(Reduce(r, ToNdArray(in, b.Get(0), "np." + name), AxisArg(b, 1)));
    });
  }
  m.Def("mean", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("mean", a, {"a", "axis"}, 1);
    return WrapNd(Mean(ToNdArray(in, b.Get(0), "np.mean"), AxisArg(b, 1)));
  });
  for (const char* fname : {"std", "var"}) {
    std::string name = fname;
    m.Def(name, [name](Interpreter& in, CallArgs& a) {
      ArgBinder b(name, a, {"a", "axis", "dtype", "out", "ddof"}, 1);
      if ((b.Has(2) && !b.Get(2).IsNone()) || (b.Has(3) && !b.Get(3).IsNone()))
        TypeError("np." + name + "(): the dtype and out arguments are not supported");
      int64_t ddof = b.Has(4) ? ToInt(b.Get(4), name + "() ddof") : 0;
      NdArray x = ToNdArray(in, b.Get(0), "np." + name);
      return WrapNd(name == "std" ? Std(x, AxisArg(b, 1), ddof) : Var(x, AxisArg(b, 1), ddof));
    });
  }
  m.Def("cumsum", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("cumsum", a, {"a", "axis"}, 1);
    return WrapNd(CumSum(ToNdArray(in, b.Get(0), "np.cumsum"), AxisArg(b, 1)), false);
  });
  m.Def("where", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("where", a, {"condition", "x", "y"}, 1);
    NdArray cond = ToNdArray(in, b.Get(0), "np.where");
    if (!b.Has(1) && !b.Has(2)) {
      std::vector<Value> parts;
      for (NdArray& p : NonZero(cond)) parts.push_back(WrapNd(p, false));
      return MakeTuple(std::move(parts));
    }
    if (!b.Has(1) || !b.Has(2)) ValueError("either both or neither of x and y should be given");
    // Unlike a ufunc, np.where gives a 0-d array, not a scalar, for scalar operands.
    return WrapNd(Where(cond, ToNdArray(in, b.Get(1), "np.where"), ToNdArray(in, b.Get(2), "np.where")), false);
  });
  m.Def("nonzero", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("nonzero", a, {"a"}, 1);
    std::vector<Value> parts;
    for (NdArray& p : NonZero(ToNdArray(in, b.Get(0), "np.nonzero"))) parts.push_back(WrapNd(p, false));
    return MakeTuple(std::move(parts));
  });
  m.Def("argwhere", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("argwhere", a, {"a"}, 1);
    NdArray x = ToNdArray(in, b.Get(0), "np.argwhere");
    // A 0-d input gives one row (or none) of zero columns, as NumPy's atleast_1d route does.
    if (x.ndim() == 0) return WrapNd(NdArray::Empty({x.Item().AsBool() ? 1 : 0, 0}, ScalarType::Int64), false);
    std::vector<NdArray> parts = NonZero(x);
    int64_t rows = parts[0].size(), cols = int64_t(parts.size());
    NdArray out = NdArray::Empty({rows, cols}, ScalarType::Int64);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) out.SetFlat(r * cols + c, parts[c].GetFlat(r));
    return WrapNd(out, false);
  });
  m.Def("clip", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("clip", a, {"a", "a_min", "a_max"}, 3);
    return WrapNd(Clip(ToNdArray(in, b.Get(0), "np.clip"), OptArray(in, b, 1, "clip"), OptArray(in, b, 2, "clip")));
  });
  m.Def("concatenate", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("concatenate", a, {"arrays", "axis"}, 1);
    std::optional<int> axis = b.Has(1) ? AxisArg(b, 1) : std::optional<int>(0);
    return WrapNd(Concatenate(ArraySequence(in, b.Get(0), "concatenate"), axis), false);
  });
  m.Def("stack", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("stack", a, {"arrays", "axis"}, 1);
    return WrapNd(Stack(ArraySequence(in, b.Get(0), "stack"), AxisArg(b, 1).value_or(0)), false);
  });
  for (const char* fname : {"sort", "argsort"}) {
    std::string name = fname;
    m.Def(name, [name](Interpreter& in, CallArgs& a) {
      ArgBinder b(name, a, {"a", "axis"}, 1);
      std::optional<int> axis = b.Has(1) ? AxisArg(b, 1) : std::optional<int>(-1);
      NdArray x = ToNdArray(in, b.Get(0), "np." + name);
      return WrapNd(name == "sort" ? Sort(x, axis) : ArgSort(x, axis), false);
    });
  }
  m.Def("isclose", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("isclose", a, {"a", "b", "rtol", "atol", "equal_nan"}, 2);
    double rtol = b.Has(2) ? ToDouble(b.Get(2), "isclose() rtol") : 1e-5;
    double atol = b.Has(3) ? ToDouble(b.Get(3), "isclose() atol") : 1e-8;
    bool equal_nan = b.Has(4) && Truth(b.Get(4));
    return WrapNd(IsClose(ToNdArray(in, b.Get(0), "np.isclose"), ToNdArray(in, b.Get(1), "np.isclose"), rtol, atol,
                          equal_nan));
  });
  m.Def("full_like", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("full_like", a, {"a", "fill_value", "dtype"}, 2);
    NdArray src = ToNdArray(in, b.Get(0), "np.full_like");
    auto fill = ToNdScalar(b.Get(1));
    if (!fill) TypeError("np.full_like: expected a number, got " + TypeName(b.Get(1)));
    ScalarType t = OptDType(b, 2, "full_like").value_or(src.dtype());
    return WrapNd(NdArray::Full(src.shape(), *fill, t), false);
  });
  m.Def("matmul", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("matmul", a, {"x1", "x2"}, 2);
    return WrapNd(MatMulNd(ToNdArray(in, b.Get(0), "matmul"), ToNdArray(in, b.Get(1), "matmul")));
  });
  m.Def("dot", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("dot", a, {"a", "b"}, 2);
    NdArray x = ToNdArray(in, b.Get(0), "dot"), y = ToNdArray(in, b.Get(1), "dot");
    if (x.ndim() == 0 || y.ndim() == 0) return WrapNd(x * y);
    return WrapNd(MatMulNd(x, y));
  });
  m.Def("diag", [](Interpreter& in, CallArgs& a) {
    // np.diag: a 1-D array gives the square matrix with it on diagonal k; a 2-D array gives
    // its diagonal k (a copy; NumPy returns a read-only view).
    ArgBinder b("diag", a, {"v", "k"}, 1);
    NdArray v = ToNdArray(in, b.Get(0), "diag");
    int64_t k = b.Has(1) ? ToInt(b.Get(1), "diag() k") : 0;
    int64_t off = k < 0 ? -k : k;
    if (v.ndim() == 1) {
      int64_t n = v.shape()[0] + off;
      NdArray out = NdArray::Zeros({n, n}, v.dtype());
      for (int64_t i = 0; i < v.shape()[0]; ++i) {
        int64_t idx[2] = {k >= 0 ? i : i + off, k >= 0 ? i + off : i};
        int64_t src[1] = {i};
        out.Set(idx, v.Get(src));
      }
      return WrapNd(out, false);
    }
    if (v.ndim() != 2) ValueError("Input must be 1- or 2-d.");
    int64_t rows = v.shape()[0], cols = v.shape()[1];
    int64_t r0 = k >= 0 ? 0 : off, c0 = k >= 0 ? off : 0;
    int64_t n = std::max<int64_t>(0, std::min(rows - r0, cols - c0));
    NdArray out = NdArray::Zeros({n}, v.dtype());
    for (int64_t i = 0; i < n; ++i) {
      int64_t idx[2] = {r0 + i, c0 + i};
      int64_t dst[1] = {i};
      out.Set(dst, v.Get(idx));
    }
    return WrapNd(out, false);
  });
  // np.any / np.all: the ndarray methods, on anything NumPy converts.
  for (const char* fname : {"any", "all"}) {
    std::string name = fname;
    m.Def(name, [name](Interpreter& in, CallArgs& a) {
      ArgBinder b(name, a, {"a", "axis"}, 1);
      Value arr = WrapNd(ToNdArray(in, b.Get(0), "np." + name), false);
      CallArgs c;
      if (b.Has(1)) c.kw.emplace_back("axis", b.Get(1));
      return in.CallValue(in.GetAttr(arr, name), c);
    });
  }
  // np.iinfo(dtype): the limits of an integer type, as .min, .max, .bits and .dtype.
  m.attrs["s_"] = Value(std::make_shared<IndexMakerObj>());
  m.Def("iinfo", [](Interpreter&, CallArgs& a) {
    ArgBinder b("iinfo", a, {"int_type"}, 1);
    const ScalarType t = DTypeArg(b.Get(0), false, "iinfo()");
    if (!IsInteger(t)) ValueError("Invalid integer data type '" + std::string(ScalarName(t)) + "'.");
    const int bits = int(ScalarSize(t) * 8);
    auto info = std::make_shared<ModuleObj>("numpy.iinfo");
    info->attrs["bits"] = Value::Int(bits);
    if (IsSigned(t)) {
      info->attrs["max"] = Value::Int(bits == 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1);
      info->attrs["min"] = Value::Int(bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1)));
    } else {
      // Host ints are 64-bit: uint64's maximum does not fit one.
      if (bits == 64) OverflowErrorUInt64();
      info->attrs["max"] = Value::Int((int64_t(1) << bits) - 1);
      info->attrs["min"] = Value::Int(0);
    }
    info->attrs["dtype"] = MakeStr(std::string(ScalarName(t)));
    return Value(info);
  });
  // np.tril / np.triu: elements above (below) diagonal k of the last two axes become zero.
  for (bool lower : {true, false}) {
    const char* name = lower ? "tril" : "triu";
    m.Def(name, [name, lower](Interpreter& in, CallArgs& a) {
      ArgBinder b(name, a, {"m", "k"}, 1);
      NdArray v = ToNdArray(in, b.Get(0), std::string("np.") + name).Copy();
      const int64_t k = b.Has(1) ? ToInt(b.Get(1), std::string(name) + "() k") : 0;
      if (v.ndim() < 2) ValueError(std::string("input array must be at least 2-d"));
      const Shape& shape = v.shape();
      const int64_t rows = shape[shape.size() - 2], cols = shape.back();
      const Scalar zero = Scalar::Int(0);
      for (int64_t flat = 0; flat < v.size(); ++flat) {
        const int64_t c = flat % cols, r = (flat / cols) % rows;
        if (lower ? c - r > k : c - r < k) v.SetFlat(flat, zero);
      }
      return WrapNd(v, false);
    });
  }
  m.Def("eye", [](Interpreter&, CallArgs& a) {
    ArgBinder b("eye", a, {"N", "M", "k", "dtype"}, 1);
    int64_t n = ToInt(b.Get(0), "eye() N");
    int64_t cols = b.Has(1) && !b.Get(1).IsNone() ? ToInt(b.Get(1), "eye() M") : n;
    int64_t k = b.Has(2) ? ToInt(b.Get(2), "eye() k") : 0;
    return WrapNd(Eye(n, cols, k, OptDType(b, 3, "eye").value_or(ScalarType::Float64)), false);
  });
  m.Def("identity", [](Interpreter&, CallArgs& a) {
    ArgBinder b("identity", a, {"n", "dtype"}, 1);
    int64_t n = ToInt(b.Get(0), "identity() n");
    return WrapNd(Eye(n, n, 0, OptDType(b, 1, "identity").value_or(ScalarType::Float64)), false);
  });
  m.Def("reshape", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("reshape", a, {"a", "newshape"}, 2);
    return WrapNd(ToNdArray(in, b.Get(0), "np.reshape").Reshape(ReshapeArg(b.Get(1))), false);
  });
  m.Def("atleast_1d", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("atleast_1d", a, {"arys"}, 1);
    NdArray x = ToNdArray(in, b.Get(0), "np.atleast_1d");
    return WrapNd(x.ndim() == 0 ? x.Reshape({1}) : x, false);
  });
  m.Def("ravel", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("ravel", a, {"a"}, 1);
    return WrapNd(ToNdArray(in, b.Get(0), "np.ravel").Reshape({-1}), false);
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
  // C-named aliases are the same type objects on a 64-bit Linux NumPy (`np.byte is np.int8`).
  const std::pair<const char*, const char*> kAliases[] = {
      {"byte", "int8"},     {"ubyte", "uint8"},   {"short", "int16"},   {"ushort", "uint16"},
      {"intc", "int32"},    {"uintc", "uint32"},  {"int_", "int64"},    {"uint", "uint64"},
      {"intp", "int64"},    {"uintp", "uint64"},  {"half", "float16"},  {"single", "float32"},
      {"double", "float64"}, {"float_", "float64"}};
  for (auto [alias, name] : kAliases) m->attrs[alias] = m->attrs.at(name);
  m->attrs["pi"] = Value::Float(M_PI);
  // The NumPy release whose printing and promotion rules the host follows.
  m->attrs["__version__"] = MakeStr("1.24.2");
  {
    auto lib = std::make_shared<ModuleObj>("numpy.lib");
    lib->Def("NumpyVersion", [](Interpreter&, CallArgs& a) {
      ArgBinder b("NumpyVersion", a, {"vstring"}, 1);
      return Value(std::make_shared<NumpyVersionObj>(ToStr(b.Get(0), "NumpyVersion()")));
    });
    m->attrs["lib"] = Value(lib);
  }
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
  // np.frombuffer(b, dtype): the bytes read as elements (a copy; NumPy's is a read-only view).
  m->Def("frombuffer", [](Interpreter&, CallArgs& a) {
    ArgBinder b("frombuffer", a, {"buffer", "dtype", "count", "offset"}, 1);
    const std::string* bytes = BytesOf(b.Get(0));
    if (!bytes) TypeError("a bytes-like object is required, not '" + TypeName(b.Get(0)) + "'");
    const ScalarType t = b.Has(1) ? DTypeArg(b.Get(1), false, "frombuffer()") : ScalarType::Float64;
    const int64_t offset = b.Has(3) ? ToInt(b.Get(3), "frombuffer() offset") : 0;
    int64_t count = b.Has(2) ? ToInt(b.Get(2), "frombuffer() count") : -1;
    const int64_t size = int64_t(ScalarSize(t));
    if (offset < 0 || offset > int64_t(bytes->size())) ValueError("offset must be non-negative and no greater than buffer length (" + std::to_string(bytes->size()) + ")");
    const int64_t avail = int64_t(bytes->size()) - offset;
    if (count < 0) {
      if (avail % size) ValueError("buffer size must be a multiple of element size");
      count = avail / size;
    } else if (count * size > avail) {
      ValueError("buffer is smaller than requested size");
    }
    NdArray out = NdArray::Empty({count}, t);
    if (count) std::memcpy(out.data(), bytes->data() + offset, size_t(count * size));
    return WrapNd(out, false);
  });
  m->Def("asarray", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("asarray", a, {"a", "dtype"}, 1);
    auto dtype = OptDType(b, 1, "asarray");
    // An ndarray of the requested dtype is returned as is; anything else converts (no copy
    // where ToNdArray gives a view, as of a CPU warp array).
    if (auto* nd = b.Get(0).As<NdArrayObj>(); nd && !nd->scalar && (!dtype || *dtype == nd->a.dtype()))
      return b.Get(0);
    return WrapNd(ToNdArray(in, b.Get(0), "asarray", dtype), false);
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
    ArgBinder b("sum", a, {"a", "axis", "dtype", "out", "keepdims"}, 1);
    return WrapNd(SumOverAxes(ToNdArray(in, b.Get(0), "np.sum"), b, 1));
  });
  Unary(*m, "abs", UnaryOp::Abs);
  Unary(*m, "absolute", UnaryOp::Abs);
  Unary(*m, "sqrt", UnaryOp::Sqrt);
  Unary(*m, "exp", UnaryOp::Exp);
  const std::pair<const char*, UnaryOp> kFloatFunctions[] = {
      {"log", UnaryOp::Log},       {"log2", UnaryOp::Log2},     {"log10", UnaryOp::Log10},
      {"sin", UnaryOp::Sin},       {"cos", UnaryOp::Cos},       {"tan", UnaryOp::Tan},
      {"arcsin", UnaryOp::Arcsin}, {"arccos", UnaryOp::Arccos}, {"arctan", UnaryOp::Arctan},
      {"rint", UnaryOp::Rint},     {"floor", UnaryOp::Floor},   {"ceil", UnaryOp::Ceil},
      {"trunc", UnaryOp::Trunc},   {"fix", UnaryOp::Trunc},     {"sinh", UnaryOp::Sinh},
      {"cosh", UnaryOp::Cosh},     {"tanh", UnaryOp::Tanh},     {"arcsinh", UnaryOp::Arcsinh},
      {"arccosh", UnaryOp::Arccosh}, {"arctanh", UnaryOp::Arctanh}, {"expm1", UnaryOp::Expm1},
      {"log1p", UnaryOp::Log1p},   {"cbrt", UnaryOp::Cbrt}};
  Unary(*m, "sign", UnaryOp::Sign);
  for (auto [name, op] : kFloatFunctions) Unary(*m, name, op);
  DefineNumpyArrayFunctions(*m);
  DefineNumpyShapeFunctions(*m);
  DefineNumpyUfuncs(*m);
  m->attrs["random"] = MakeNumpyRandomModule();
  DefineNumpyLinalgAndTesting(*m);
  DefineNumpyComplex(*m);
  DefineNumpySetsAndEinsum(*m);
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
