// np.unique, np.einsum, np.ndindex, np.linalg.matrix_power, and np.issubdtype with NumPy's
// abstract scalar classes (np.integer, np.floating, ...), as NumPy 1.24 has them.
#include <algorithm>
#include <cmath>
#include <map>

#include "host/interp/args.h"
#include "host/interp/array_values.h"
#include "host/interp/errors.h"
#include "host/interp/interpreter.h"
#include "host/interp/np_funcs.h"

namespace tilec::host {
namespace {

// Equal as np.unique compares (NaNs equal one another, as with equal_nan=True).
bool SameElement(const Scalar& a, const Scalar& b) {
  if (a.kind == Scalar::Kind::Float || b.kind == Scalar::Kind::Float) {
    double x = a.AsDouble(), y = b.AsDouble();
    return x == y || (std::isnan(x) && std::isnan(y));
  }
  if (a.kind == Scalar::Kind::UInt || b.kind == Scalar::Kind::UInt) return a.AsUInt() == b.AsUInt();
  return a.AsInt() == b.AsInt();
}

Value Unique(Interpreter& in, CallArgs& args) {
  ArgBinder b("unique", args, {"ar", "return_index", "return_inverse", "return_counts", "axis", "equal_nan"}, 1);
  if (b.Has(4) && !b.Get(4).IsNone()) TypeError("unique(): `axis` is not supported");
  NdArray flat = ToNdArray(in, b.Get(0), "unique").Reshape({-1}).Copy();
  const bool want_index = b.Has(1) && Truth(b.Get(1));
  const bool want_inverse = b.Has(2) && Truth(b.Get(2));
  const bool want_counts = b.Has(3) && Truth(b.Get(3));
  // A stable order of the elements (NumPy sorts with mergesort when indices are asked for).
  NdArray order = ArgSort(flat, 0);
  const int64_t n = flat.size();
  std::vector<Scalar> values;
  std::vector<int64_t> first, counts, inverse(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    const int64_t at = order.GetFlat(k).AsInt();
    const Scalar v = flat.GetFlat(at);
    if (values.empty() || !SameElement(values.back(), v)) {
      values.push_back(v);
      first.push_back(at);
      counts.push_back(0);
    }
    ++counts.back();
    inverse[size_t(at)] = int64_t(values.size()) - 1;
  }
  NdArray out = NdArray::Empty({int64_t(values.size())}, flat.dtype());
  for (size_t k = 0; k < values.size(); ++k) out.SetFlat(int64_t(k), values[k]);
  if (!want_index && !want_inverse && !want_counts) return WrapNd(out, false);
  auto ints = [](const std::vector<int64_t>& v) {
    NdArray a = NdArray::Empty({int64_t(v.size())}, ScalarType::Int64);
    for (size_t k = 0; k < v.size(); ++k) a.SetFlat(int64_t(k), Scalar::Int(v[k]));
    return WrapNd(a, false);
  };
  std::vector<Value> parts = {WrapNd(out, false)};
  if (want_index) parts.push_back(ints(first));
  if (want_inverse) parts.push_back(ints(inverse));
  if (want_counts) parts.push_back(ints(counts));
  return MakeTuple(parts);
}

// np.einsum over explicit subscripts ("ij,jk->ik", or implicit output "ij,jk"): every
// combination of the labels' indices, the products summed in float64 and cast to the
// operands' result type.
Value Einsum(Interpreter& in, CallArgs& args) {
  if (args.pos.empty()) TypeError("einsum(): at least one argument is required");
  const std::string& spec = ToStr(args.pos[0], "einsum() subscripts");
  std::vector<NdArray> ops;
  for (size_t k = 1; k < args.pos.size(); ++k) ops.push_back(ToNdArray(in, args.pos[k], "einsum"));
  std::string lhs = spec, rhs;
  const bool explicit_out = spec.find("->") != std::string::npos;
  if (explicit_out) {
    lhs = spec.substr(0, spec.find("->"));
    rhs = spec.substr(spec.find("->") + 2);
  }
  auto strip = [](std::string s) {
    s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
    return s;
  };
  lhs = strip(lhs);
  rhs = strip(rhs);
  if (spec.find("...") != std::string::npos) ValueError("einsum(): '...' in subscripts is not supported");
  std::vector<std::string> terms;
  for (size_t s = 0;;) {
    size_t c = lhs.find(',', s);
    terms.push_back(lhs.substr(s, c == std::string::npos ? std::string::npos : c - s));
    if (c == std::string::npos) break;
    s = c + 1;
  }
  if (terms.size() != ops.size())
    ValueError("more operands provided to einstein sum function than specified in the subscripts string");
  std::map<char, int64_t> extent;
  std::map<char, int> uses;
  for (size_t t = 0; t < terms.size(); ++t) {
    if (int64_t(terms[t].size()) != ops[t].ndim())
      ValueError("operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
                 "provided to broadcast the extra dimensions.");
    for (size_t d = 0; d < terms[t].size(); ++d) {
      char c = terms[t][d];
      if (!std::isalpha(static_cast<unsigned char>(c))) ValueError(std::string("invalid subscript '") + c + "' in einstein sum subscripts string");
      int64_t e = ops[t].shape()[d];
      auto [it, fresh] = extent.emplace(c, e);
      if (!fresh && it->second != e) {
        if (it->second == 1) it->second = e;
        else if (e != 1)
          ValueError(std::string("operands could not be broadcast together with remapped shapes"));
      }
      ++uses[c];
    }
  }
  if (!explicit_out)
    for (auto [c, u] : uses)
      if (u == 1) rhs += c;  // the labels used once, in alphabetical order
  std::string labels;
  for (auto [c, e] : extent) labels += c;
  Shape out_shape;
  for (char c : rhs) {
    if (!extent.count(c)) ValueError(std::string("einstein sum subscripts string included output subscript '") + c + "' which never appeared in an input");
    out_shape.push_back(extent[c]);
  }
  std::vector<const NdArray*> ptrs;
  for (const NdArray& o : ops) ptrs.push_back(&o);
  const ScalarType type = ResultType(ptrs);
  int64_t out_size = 1;
  for (int64_t e : out_shape) out_size *= e;
  std::vector<double> acc(size_t(out_size), 0.0);
  std::map<char, int64_t> at;
  for (char c : labels) at[c] = 0;
  std::vector<int64_t> idx;
  const bool empty = std::any_of(labels.begin(), labels.end(), [&](char c) { return extent[c] == 0; });
  while (!empty) {
    double prod = 1.0;
    for (size_t t = 0; t < terms.size(); ++t) {
      idx.clear();
      for (size_t d = 0; d < terms[t].size(); ++d)
        idx.push_back(ops[t].shape()[d] == 1 ? 0 : at[terms[t][d]]);
      prod *= ops[t].Get(idx).AsDouble();
    }
    int64_t o = 0;
    for (char c : rhs) o = o * extent[c] + at[c];
    acc[size_t(o)] += prod;
    // The next combination, last label fastest.
    int k = int(labels.size()) - 1;
    for (; k >= 0; --k) {
      if (++at[labels[size_t(k)]] < extent[labels[size_t(k)]]) break;
      at[labels[size_t(k)]] = 0;
    }
    if (k < 0) break;
  }
  NdArray out = NdArray::Empty(out_shape, type);
  for (int64_t k = 0; k < out_size; ++k) out.SetFlat(k, Scalar::Float(acc[size_t(k)]));
  return WrapNd(out);
}

Value MatrixPower(Interpreter& in, CallArgs& args) {
  ArgBinder b("matrix_power", args, {"a", "n"}, 2);
  NdArray a = ToNdArray(in, b.Get(0), "matrix_power");
  if (!b.Get(1).IsIntLike()) TypeError("exponent must be an integer");
  int64_t n = b.Get(1).i();
  if (a.ndim() != 2 || a.shape()[0] != a.shape()[1])
    Raise("numpy.linalg.LinAlgError", "Last 2 dimensions of the array must be square");
  if (n == 0) {
    NdArray id = NdArray::Zeros(a.shape(), a.dtype());
    for (int64_t i = 0; i < a.shape()[0]; ++i) id.SetFlat(i * a.shape()[0] + i, Scalar::Int(1));
    return WrapNd(id, false);
  }
  if (n < 0) {
    CallArgs inv_args;
    inv_args.pos.push_back(WrapNd(a, false));
    a = ToNdArray(in, in.CallValue(in.GetAttr(in.GetAttr(in.ImportModule("numpy"), "linalg"), "inv"), inv_args),
                  "matrix_power");
    n = -n;
  }
  // NumPy's order of products: a, a @ a, a @ a @ a, then binary decomposition.
  if (n == 1) return WrapNd(a.Copy(), false);
  if (n == 2) return WrapNd(MatMulNd(a, a), false);
  if (n == 3) return WrapNd(MatMulNd(MatMulNd(a, a), a), false);
  std::optional<NdArray> z, result;
  while (n > 0) {
    z = z ? MatMulNd(*z, *z) : a;
    const bool bit = n % 2;
    n /= 2;
    if (bit) result = result ? MatMulNd(*result, *z) : *z;
  }
  return WrapNd(*result, false);
}

// NumPy's abstract scalar classes, for np.issubdtype: each names the kinds it covers.
struct AbstractDTypeObj : Object {
  AbstractDTypeObj(std::string name, std::string kinds) : name(std::move(name)), kinds(std::move(kinds)) {}
  std::string TypeName() const override { return "type"; }
  std::string Repr() const override { return "<class 'numpy." + name + "'>"; }
  std::string name;
  std::string kinds;  // of "b", "i", "u", "f", "c"
};

// The kind letter of a concrete type (NumPy's dtype.kind).
char KindOf(ScalarType t) {
  if (t == ScalarType::Bool) return 'b';
  if (IsFloat(t)) return 'f';
  if (IsSigned(t)) return 'i';
  return 'u';
}

}  // namespace

void DefineNumpySetsAndEinsum(ModuleObj& np) {
  np.Def("unique", Unique);
  np.Def("einsum", Einsum);
  np.Def("ndindex", [](Interpreter&, CallArgs& a) {
    Shape shape;
    if (a.pos.size() == 1 && !a.pos[0].IsIntLike()) shape = ShapeArg(a.pos[0], "ndindex");
    else
      for (const Value& v : a.pos) shape.push_back(ToInt(v, "ndindex()"));
    std::vector<Value> out;
    int64_t total = 1;
    for (int64_t e : shape) total *= e;
    for (int64_t k = 0; k < total; ++k) {
      std::vector<Value> idx(shape.size());
      int64_t r = k;
      for (size_t d = shape.size(); d-- > 0;) {
        idx[d] = Value::Int(r % shape[d]);
        r /= shape[d];
      }
      out.push_back(MakeTuple(idx));
    }
    return MakeIterator(std::move(out), "ndindex");
  });
  auto linalg = np.attrs.at("linalg").As<ModuleObj>();
  linalg->Def("matrix_power", MatrixPower);
  const std::pair<const char*, const char*> kAbstract[] = {
      {"generic", "biufc"}, {"number", "iufc"},        {"integer", "iu"},     {"signedinteger", "i"},
      {"unsignedinteger", "u"}, {"inexact", "fc"},     {"floating", "f"},     {"complexfloating", "c"}};
  for (auto [name, kinds] : kAbstract) np.attrs[name] = Value(std::make_shared<AbstractDTypeObj>(name, kinds));
  np.Def("issubdtype", [](Interpreter&, CallArgs& a) {
    ArgBinder b("issubdtype", a, {"arg1", "arg2"}, 2);
    auto kind_of = [](const Value& v) -> std::optional<char> {
      if (v.As<AbstractDTypeObj>()) return std::nullopt;
      if (v.As<ComplexTypeObj>()) return 'c';
      return KindOf(DTypeArg(v, false, "issubdtype()"));
    };
    const Value &x = b.Get(0), &y = b.Get(1);
    if (const auto* ay = y.As<AbstractDTypeObj>()) {
      if (const auto* ax = x.As<AbstractDTypeObj>())
        return Value::Bool(std::all_of(ax->kinds.begin(), ax->kinds.end(),
                                       [&](char c) { return ay->kinds.find(c) != std::string::npos; }));
      return Value::Bool(ay->kinds.find(*kind_of(x)) != std::string::npos);
    }
    if (x.As<AbstractDTypeObj>()) return Value::Bool(false);
    if (x.As<ComplexTypeObj>() || y.As<ComplexTypeObj>())
      return Value::Bool(x.As<ComplexTypeObj>() && y.As<ComplexTypeObj>() &&
                         x.As<ComplexTypeObj>()->part == y.As<ComplexTypeObj>()->part);
    return Value::Bool(DTypeArg(x, false, "issubdtype()") == DTypeArg(y, false, "issubdtype()"));
  });
}

}  // namespace tilec::host
