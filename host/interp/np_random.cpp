// `np.random`: Generator objects from default_rng (PCG64) and the legacy RandomState functions
// (MT19937), drawing NumPy 1.24's exact streams through host/ndarray/random. Argument checks,
// scalar-or-array results and error messages follow numpy/random/_generator.pyx and mtrand.pyx.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <random>

#include "host/interp/args.h"
#include "host/interp/array_values.h"
#include "host/interp/interpreter.h"
#include "host/ndarray/random.h"

namespace tilec::host {

namespace {

namespace rnd = tilec::host::random;

// ---------------------------------------------------------------- arguments

int64_t IndexArg(const Value& v) {
  if (v.IsIntLike()) return v.i();
  if (auto i = v.IsObj() ? v.obj()->AsIndex() : std::nullopt) return *i;
  TypeError("'" + TypeName(v) + "' object cannot be interpreted as an integer");
}

// `size=`: None, an int or a sequence of ints, with NumPy's (unprefixed) messages.
std::optional<Shape> SizeArg(const ArgBinder& b, size_t idx) {
  if (!b.Has(idx) || b.Get(idx).IsNone()) return std::nullopt;
  const Value& v = b.Get(idx);
  Shape s;
  if (v.As<TupleObj>() || v.As<ListObj>()) {
    for (const Value& x : v.As<TupleObj>() ? v.As<TupleObj>()->items : v.As<ListObj>()->items)
      s.push_back(IndexArg(x));
  } else {
    s.push_back(IndexArg(v));
  }
  for (int64_t d : s)
    if (d < 0) ValueError("negative dimensions are not allowed");
  return s;
}

int64_t ShapeCount(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

std::string DtypeRepr(ScalarType t) { return "dtype('" + DtypeName(t) + "')"; }

// `dtype=int` / `dtype=bool` (the Python types) ask for Python scalars when size is None.
bool IsPythonType(const Value& v, const char* name) {
  auto* t = v.As<PyTypeObj>();
  return t && t->name == name;
}

bool IsScalarArg(const Value& v) {
  if (v.IsNumber()) return true;
  if (auto* nd = v.As<NdArrayObj>()) return nd->a.ndim() == 0;
  return false;
}

double ScalarDouble(Interpreter& in, const Value& v) {
  return ToNdArray(in, v, "np.random", ScalarType::Float64).Item().AsDouble();
}

// An integer bound: Python ints, NumPy integers, and floats truncated as int() does.
__int128 IntBound(Interpreter& in, const Value& v) {
  if (v.IsIntLike()) return v.i();
  NdArray a = ToNdArray(in, v, "np.random");
  Scalar s = a.Item();
  switch (s.kind) {
    case Scalar::Kind::Bool: return s.b;
    case Scalar::Kind::Int: return s.i;
    case Scalar::Kind::UInt: return s.u;
    case Scalar::Kind::Float:
      if (!std::isfinite(s.f)) Raise(std::isnan(s.f) ? "ValueError" : "OverflowError",
                                     std::isnan(s.f) ? "cannot convert float NaN to integer"
                                                     : "cannot convert float infinity to integer");
      return __int128(std::trunc(s.f));
  }
  return 0;
}

// ---------------------------------------------------------------- shared draws

// NumPy's `cont` with up to two parameters: scalars give a Python float (size None) or a
// filled array; array parameters broadcast against each other and against `size`.
using Cont2 = std::function<double(double, double)>;

// uniform's range, high - low, which both streams check and draw with (NumPy passes the
// range, not high); a scalar overflow has each stream's own message.
Value UniformRange(Interpreter& in, const Value& low, const Value& high, const char* scalar_overflow) {
  if (IsScalarArg(low) && IsScalarArg(high)) {
    double r = ScalarDouble(in, high) - ScalarDouble(in, low);
    if (!std::isfinite(r)) Raise("OverflowError", scalar_overflow);
    return Value::Float(r);
  }
  NdArray r = ToNdArray(in, high, "uniform", ScalarType::Float64) - ToNdArray(in, low, "uniform", ScalarType::Float64);
  for (int64_t i = 0; i < r.size(); ++i)
    if (!std::isfinite(r.GetFlat(i).AsDouble())) Raise("OverflowError", "Range exceeds valid bounds");
  return WrapNd(r, false);
}

Value DrawCont(Interpreter& in, const std::optional<Shape>& size, const Value& a, const Value& b,
               const char* b_name, bool b_non_negative, const Cont2& f) {
  auto check = [&](double bv) {
    if (b_non_negative && !std::isnan(bv) && std::signbit(bv)) ValueError(std::string(b_name) + " < 0");
  };
  if (IsScalarArg(a) && IsScalarArg(b)) {
    double av = ScalarDouble(in, a), bv = ScalarDouble(in, b);
    check(bv);
    if (!size) return Value::Float(f(av, bv));
    NdArray out = NdArray::Empty(*size, ScalarType::Float64);
    double* o = static_cast<double*>(out.data());
    for (int64_t i = 0, n = out.size(); i < n; ++i) o[i] = f(av, bv);
    return WrapNd(out, false);
  }
  NdArray aa = ToNdArray(in, a, "np.random", ScalarType::Float64);
  NdArray ba = ToNdArray(in, b, "np.random", ScalarType::Float64);
  for (int64_t i = 0, n = ba.size(); i < n; ++i) check(ba.GetFlat(i).AsDouble());
  Shape shape = BroadcastShapes(aa.shape(), ba.shape());
  if (size) {
    if (BroadcastShapes(*size, shape) != *size)
      ValueError("Output size " + ShapeString(*size) + " is not compatible with broadcast dimensions of inputs " +
                 ShapeString(shape) + ".");
    shape = *size;
  }
  NdArray ab = aa.BroadcastTo(shape), bb = ba.BroadcastTo(shape);
  NdArray out = NdArray::Empty(shape, ScalarType::Float64);
  double* o = static_cast<double*>(out.data());
  for (int64_t i = 0, n = out.size(); i < n; ++i) o[i] = f(ab.GetFlat(i).AsDouble(), bb.GetFlat(i).AsDouble());
  return WrapNd(out, false);
}

struct IntRange {
  __int128 lo, hi;
};

IntRange DtypeBounds(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return {0, 1};
    case ScalarType::Int8: return {INT8_MIN, INT8_MAX};
    case ScalarType::Int16: return {INT16_MIN, INT16_MAX};
    case ScalarType::Int32: return {INT32_MIN, INT32_MAX};
    case ScalarType::Int64: return {INT64_MIN, INT64_MAX};
    case ScalarType::UInt8: return {0, UINT8_MAX};
    case ScalarType::UInt16: return {0, UINT16_MAX};
    case ScalarType::UInt32: return {0, UINT32_MAX};
    case ScalarType::UInt64: return {0, UINT64_MAX};
    default: return {0, -1};
  }
}

// Generator.integers / RandomState.randint on scalar bounds (_bounded_integers._rand_<type>).
// The array path (_rand_<type>_broadcast): every bound is checked before any draw, then each
// element of the broadcast shape (or of `size`) gets its own range.
Value DrawIntegersBroadcast(Interpreter& in, rnd::BitGenerator& g, const Value& low, const Value& high,
                            const std::optional<Shape>& size, ScalarType t, bool masked, bool closed) {
  IntRange lim = DtypeBounds(t);
  std::string name = t == ScalarType::Bool ? "bool" : DtypeName(t);
  NdArray la = ToNdArray(in, low, "np.random"), ha = ToNdArray(in, high, "np.random");
  auto bound = [&](const NdArray& a, int64_t k) -> __int128 {
    Scalar s = a.GetFlat(k);
    if (s.kind == Scalar::Kind::UInt) return s.u;
    if (s.kind == Scalar::Kind::Float) return __int128(std::trunc(s.f));
    return s.AsInt();
  };
  bool all_low_zero = true;
  for (int64_t k = 0; k < la.size(); ++k) {
    __int128 v = bound(la, k);
    all_low_zero = all_low_zero && v == 0;
    if (v < lim.lo) ValueError("low is out of bounds for " + name);
  }
  for (int64_t k = 0; k < ha.size(); ++k)
    if (bound(ha, k) - (closed ? 0 : 1) > lim.hi) ValueError("high is out of bounds for " + name);
  Shape shape = BroadcastShapes(la.shape(), ha.shape());
  NdArray lb = la.BroadcastTo(shape), hb = ha.BroadcastTo(shape);
  for (int64_t k = 0, n = lb.size(); k < n; ++k)
    if (bound(lb, k) > bound(hb, k) - (closed ? 0 : 1))
      ValueError(all_low_zero ? std::string("high ") + (closed ? "<" : "<=") + " 0"
                              : std::string("low ") + (closed ? ">" : ">=") + " high");
  if (size) {
    shape = *size;
    lb = la.BroadcastTo(shape);
    hb = ha.BroadcastTo(shape);
  }
  int64_t n = ShapeCount(shape);
  std::vector<uint64_t> off(static_cast<size_t>(n)), rng(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    __int128 lo = bound(lb, k), hi = bound(hb, k) - (closed ? 0 : 1);
    off[size_t(k)] = uint64_t(lo);
    rng[size_t(k)] = uint64_t(hi - lo);
  }
  NdArray out = NdArray::Empty(shape, t);
  rnd::BoundedFillEach(g, t, off, rng, masked, out.data());
  return WrapNd(out, false);
}

// `python_int_default`: without a dtype, RandomState answers Python ints (its default is `int`).
Value DrawIntegers(Interpreter& in, rnd::BitGenerator& g, const ArgBinder& b, size_t size_idx, size_t dtype_idx,
                   bool python_int_default, bool masked, bool closed, const char* method) {
  Value low = b.Get(0), high = b.Get(1, Value());
  if (high.IsNone()) {
    high = low;
    low = Value::Int(0);
  }
  bool has_dtype = b.Has(dtype_idx);
  ScalarType t = has_dtype ? DTypeArg(b.Get(dtype_idx), false, method) : ScalarType::Int64;
  IntRange lim = DtypeBounds(t);
  if (lim.hi < lim.lo) TypeError("Unsupported dtype " + DtypeRepr(t) + " for " + method);
  std::optional<Shape> size = SizeArg(b, size_idx);
  if (size && ShapeCount(*size) == 0) return WrapNd(NdArray::Empty(*size, t), false);
  std::string name = t == ScalarType::Bool ? "bool" : DtypeName(t);
  if (!IsScalarArg(low) || !IsScalarArg(high)) return DrawIntegersBroadcast(in, g, low, high, size, t, masked, closed);
  __int128 lo = IntBound(in, low), hi = IntBound(in, high);
  if (!closed) hi -= 1;
  if (lo < lim.lo) ValueError("low is out of bounds for " + name);
  if (hi > lim.hi) ValueError("high is out of bounds for " + name);
  if (lo > hi)
    ValueError(lo == 0 ? std::string("high ") + (closed ? "<" : "<=") + " 0"
                       : std::string("low ") + (closed ? ">" : ">=") + " high");
  uint64_t rng = uint64_t(hi - lo), off = uint64_t(lo);
  NdArray out = NdArray::Empty(size.value_or(Shape{}), t);
  rnd::BoundedFill(g, t, off, rng, masked, out.size(), out.data());
  if (size) return WrapNd(out, false);
  if ((!has_dtype && python_int_default) || (has_dtype && IsPythonType(b.Get(dtype_idx), "int")))
    return Value::Int(out.Item().AsInt());
  if (has_dtype && IsPythonType(b.Get(dtype_idx), "bool")) return Value::Bool(out.Item().AsBool());
  return WrapNd(out, true);
}

void SwapRows(NdArray& x, int64_t i, int64_t j) {
  if (x.ndim() == 1) {
    Scalar t = x.GetFlat(i);
    x.SetFlat(i, x.GetFlat(j));
    x.SetFlat(j, t);
    return;
  }
  IndexItem ii = IndexItem::At(i), jj = IndexItem::At(j);
  NdArray ri = x.Index(std::span(&ii, 1)), rj = x.Index(std::span(&jj, 1));
  NdArray tmp = rj.Copy();
  rj.CopyFrom(ri);
  ri.CopyFrom(tmp);
}

// Generator.shuffle / RandomState.shuffle: Fisher-Yates from the end, random_interval draws.
void Shuffle(Interpreter& in, rnd::BitGenerator& g, const Value& x) {
  if (auto* nd = x.As<NdArrayObj>()) {
    if (nd->a.ndim() == 0) TypeError("len() of unsized object");
    int64_t n = nd->a.shape()[0];
    for (int64_t i = n - 1; i >= 1; --i) {
      int64_t j = int64_t(rnd::RandomInterval(g, uint64_t(i)));
      if (i != j) SwapRows(nd->a, i, j);
    }
    return;
  }
  if (auto* l = x.As<ListObj>()) {
    for (int64_t i = int64_t(l->items.size()) - 1; i >= 1; --i) {
      int64_t j = int64_t(rnd::RandomInterval(g, uint64_t(i)));
      std::swap(l->items[size_t(i)], l->items[size_t(j)]);
    }
    return;
  }
  if (x.As<TupleObj>()) TypeError("'tuple' object does not support item assignment");
  TypeError("object of type '" + TypeName(x) + "' has no len()");
}

Value Permutation(Interpreter& in, rnd::BitGenerator& g, const Value& x) {
  if (x.IsIntLike() || (x.As<NdArrayObj>() && x.As<NdArrayObj>()->scalar && x.obj()->AsIndex())) {
    int64_t n = x.IsIntLike() ? x.i() : *x.obj()->AsIndex();
    if (n < 0) ValueError("negative dimensions are not allowed");
    Value arr = WrapNd(NdArray::Arange(n), false);
    Shuffle(in, g, arr);
    return arr;
  }
  NdArray a = ToNdArray(in, x, "permutation");
  if (a.ndim() == 0) Raise("numpy.AxisError", "axis 0 is out of bounds for array of dimension 0");
  Value arr = WrapNd(a.Copy(), false);
  Shuffle(in, g, arr);
  return arr;
}

// ---------------------------------------------------------------- Generator.choice

double KahanSum(const std::vector<double>& v) {
  if (v.empty()) return 0.0;
  double sum = v[0], c = 0.0;
  for (size_t i = 1; i < v.size(); ++i) {
    double y = v[i] - c, t = sum + y;
    c = (t - sum) - y;
    sum = t;
  }
  return sum;
}

// Indices of uniform draws `u` in the normalised cumulative sum of `p` (searchsorted right).
std::vector<int64_t> InvertCdf(const std::vector<double>& p, const std::vector<double>& u) {
  std::vector<double> cdf(p.size());
  double acc = 0.0;
  for (size_t i = 0; i < p.size(); ++i) cdf[i] = acc += p[i];
  double last = cdf.back();
  for (double& c : cdf) c /= last;
  std::vector<int64_t> idx;
  for (double x : u) idx.push_back(int64_t(std::upper_bound(cdf.begin(), cdf.end(), x) - cdf.begin()));
  return idx;
}

void ShuffleInt(rnd::BitGenerator& g, int64_t n, int64_t first, int64_t* data) {
  for (int64_t i = n - 1; i >= first; --i) {
    int64_t j = int64_t(rnd::BoundedUint64(g, 0, uint64_t(i), false));
    std::swap(data[j], data[i]);
  }
}

Value Choice(Interpreter& in, rnd::BitGenerator& g, const ArgBinder& b) {
  const Value& a_arg = b.Get(0);
  NdArray a = ToNdArray(in, a_arg, "choice");
  std::optional<Shape> size = SizeArg(b, 1);
  bool replace = !b.Has(2) || Truth(b.Get(2));
  bool has_p = b.Has(3) && !b.Get(3).IsNone();
  if (b.Has(4) && ToInt(b.Get(4), "choice() axis") != 0)
    TypeError("choice(): only axis=0 is supported in host code");
  bool shuffle = !b.Has(5) || Truth(b.Get(5));
  Shape shape = size.value_or(Shape{});
  int64_t count = ShapeCount(shape);

  int64_t pop_size;
  if (a.ndim() == 0) {
    Scalar s = a.Item();
    if (s.kind == Scalar::Kind::Float)
      ValueError("a must be a sequence or an integer, not " + std::string("<class '") + TypeName(a_arg) + "'>");
    pop_size = s.AsInt();
    if (pop_size <= 0 && count != 0) ValueError("a must be a positive integer unless no samples are taken");
  } else {
    pop_size = a.shape()[0];
    if (pop_size == 0 && count != 0) ValueError("a cannot be empty unless no samples are taken");
  }
  std::vector<double> p;
  if (has_p) {
    double atol = std::sqrt(2.220446049250313e-16);
    const Value& pv = b.Get(3);
    if (auto* pnd = pv.As<NdArrayObj>(); pnd && (pnd->a.dtype() == ScalarType::Float32 || pnd->a.dtype() == ScalarType::Float16))
      atol = std::max(atol, std::sqrt(pnd->a.dtype() == ScalarType::Float32 ? 1.1920929e-07 : 0.000977));
    NdArray pa = ToNdArray(in, pv, "choice", ScalarType::Float64);
    if (pa.ndim() != 1) ValueError("p must be 1-dimensional");
    if (pa.size() != pop_size) ValueError("a and p must have same size");
    for (int64_t i = 0; i < pa.size(); ++i) p.push_back(pa.GetFlat(i).AsDouble());
    double p_sum = KahanSum(p);
    if (std::isnan(p_sum)) ValueError("probabilities contain NaN");
    for (double x : p)
      if (x < 0) ValueError("probabilities are not non-negative");
    if (std::fabs(p_sum - 1.0) > atol) ValueError("probabilities do not sum to 1");
  }

  std::vector<int64_t> idx;
  if (replace) {
    if (has_p) {
      std::vector<double> u(static_cast<size_t>(count));
      for (double& x : u) x = g.NextDouble();
      idx = InvertCdf(p, u);
    } else {
      idx.resize(size_t(count));
      if (count > 0) rnd::BoundedFill(g, ScalarType::Int64, 0, uint64_t(pop_size - 1), false, count, idx.data());
    }
  } else {
    if (count > pop_size) ValueError("Cannot take a larger sample than population when replace is False");
    if (has_p) {
      int64_t nonzero = 0;
      for (double x : p) nonzero += x > 0;
      if (nonzero < count) ValueError("Fewer non-zero entries in p than size");
      idx.assign(size_t(count), 0);
      int64_t n_uniq = 0;
      while (n_uniq < count) {
        std::vector<double> u(static_cast<size_t>(count - n_uniq));
        for (double& x : u) x = g.NextDouble();
        for (int64_t k = 0; k < n_uniq; ++k) p[size_t(idx[size_t(k)])] = 0;
        std::vector<int64_t> fresh = InvertCdf(p, u);
        // np.unique(return_index=True), re-sorted by position: first occurrences, in order.
        std::vector<int64_t> kept;
        for (int64_t v : fresh)
          if (std::find(kept.begin(), kept.end(), v) == kept.end()) kept.push_back(v);
        for (int64_t v : kept) idx[size_t(n_uniq++)] = v;
      }
    } else if (pop_size > 10000 && count > pop_size / (shuffle ? 50 : 20)) {
      // Partial Fisher-Yates over the whole population; the tail is the sample.
      std::vector<int64_t> all(static_cast<size_t>(pop_size));
      for (int64_t i = 0; i < pop_size; ++i) all[size_t(i)] = i;
      ShuffleInt(g, pop_size, std::max<int64_t>(pop_size - count, 1), all.data());
      idx.assign(all.end() - count, all.end());
    } else {
      // Floyd's algorithm with an open-addressing set of ~1.2 * count slots.
      idx.resize(size_t(count));
      uint64_t set_size = uint64_t(1.2 * double(count));
      uint64_t mask = set_size;
      for (int s = 1; s <= 32; s *= 2) mask |= mask >> s;
      std::vector<uint64_t> set(size_t(mask + 1), UINT64_MAX);
      for (int64_t j = pop_size - count; j < pop_size; ++j) {
        uint64_t val = rnd::BoundedUint64(g, 0, uint64_t(j), false);
        uint64_t loc = val & mask;
        while (set[loc] != UINT64_MAX && set[loc] != val) loc = (loc + 1) & mask;
        if (set[loc] == UINT64_MAX) {
          set[loc] = val;
          idx[size_t(j - pop_size + count)] = int64_t(val);
        } else {
          loc = uint64_t(j) & mask;
          while (set[loc] != UINT64_MAX) loc = (loc + 1) & mask;
          set[loc] = uint64_t(j);
          idx[size_t(j - pop_size + count)] = j;
        }
      }
      if (shuffle) ShuffleInt(g, count, 1, idx.data());
    }
  }

  if (a.ndim() == 0) {
    if (!size) return Value::Int(idx[0]);
    NdArray out = NdArray::Empty(shape, ScalarType::Int64);
    std::copy(idx.begin(), idx.end(), static_cast<int64_t*>(out.data()));
    return WrapNd(out, false);
  }
  // a.take(idx, axis=0): each index picks a row of `a`.
  Shape out_shape = shape;
  out_shape.insert(out_shape.end(), a.shape().begin() + 1, a.shape().end());
  NdArray out = NdArray::Empty(out_shape, a.dtype());
  int64_t row = a.size() / pop_size;
  for (size_t k = 0; k < idx.size(); ++k)
    for (int64_t e = 0; e < row; ++e) out.SetFlat(int64_t(k) * row + e, a.GetFlat(idx[k] * row + e));
  return WrapNd(out, !size);
}

// ---------------------------------------------------------------- objects

// Bound methods of a generator object: the state travels with the shared_ptr.
template <class Self>
Value Method(const std::shared_ptr<Self>& self, const std::string& name,
             Value (*fn)(Interpreter&, Self&, CallArgs&)) {
  return Value(std::make_shared<BuiltinFn>(name, [self, fn](Interpreter& in, CallArgs& a) { return fn(in, *self, a); }));
}

std::string Address(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llX", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p)));
  return buf;
}

struct NpGeneratorObj : Object {
  explicit NpGeneratorObj(const rnd::SeedSequence& seq) : bits(seq) {}
  std::string TypeName() const override { return "numpy.random._generator.Generator"; }
  std::string Repr() const override { return "Generator(PCG64) at " + Address(this); }
  std::string Str() const override { return "Generator(PCG64)"; }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  rnd::Pcg64 bits;
};

std::vector<uint32_t> SeedWords(Interpreter& in, const Value& seed) {
  auto words_of = [&](const Value& v) -> std::vector<uint32_t> {
    std::optional<int64_t> i;
    if (v.IsIntLike()) i = v.i();
    else if (v.IsObj()) i = v.obj()->AsIndex();
    if (!i) TypeError("SeedSequence expects int or sequence of ints for entropy not " + Repr(v));
    if (*i < 0) ValueError("expected non-negative integer");
    return rnd::IntToWords(uint64_t(*i));
  };
  if (seed.As<ListObj>() || seed.As<TupleObj>() || (seed.As<NdArrayObj>() && seed.As<NdArrayObj>()->a.ndim() > 0)) {
    std::vector<uint32_t> all;
    for (const Value& x : IterateValue(in, seed)) {
      std::vector<uint32_t> w = words_of(x);
      all.insert(all.end(), w.begin(), w.end());
    }
    return all;
  }
  return words_of(seed);
}

// Generator's float methods (random, standard_normal): size, dtype float64/float32 and `out`,
// an array filled in place and returned, as NumPy's _rand_float and float_fill do.
Value FloatDraws(ArgBinder& b, const char* method, const std::function<double()>& draw64,
                 const std::function<float()>& draw32) {
  ScalarType t = b.Has(1) ? DTypeArg(b.Get(1), false, method) : ScalarType::Float64;
  if (t != ScalarType::Float64 && t != ScalarType::Float32)
    TypeError("Unsupported dtype " + DtypeRepr(t) + " for " + method);
  std::optional<Shape> size = SizeArg(b, 0);
  auto fill = [&](NdArray& out) {
    for (int64_t i = 0, n = out.size(); i < n; ++i) {
      if (t == ScalarType::Float64) static_cast<double*>(out.data())[i] = draw64();
      else static_cast<float*>(out.data())[i] = draw32();
    }
  };
  if (b.Has(2) && !b.Get(2).IsNone()) {
    Value out_v = b.Get(2);
    auto* out = dynamic_cast<NdArrayObj*>(out_v.obj());
    if (!out || out->scalar || !out->a.IsCContiguous())
      ValueError("Supplied output array must be contiguous, writable, aligned, and in machine byte-order.");
    if (out->a.dtype() != t)
      TypeError("Supplied output array has the wrong type. Expected " + DtypeName(t) + ", got " +
                DtypeName(out->a.dtype()));
    if (size && *size != out->a.shape()) ValueError("size must match out.shape when used together");
    fill(out->a);
    return out_v;
  }
  if (!size) return Value::Float(t == ScalarType::Float64 ? draw64() : double(draw32()));
  NdArray out = NdArray::Empty(*size, t);
  fill(out);
  return WrapNd(out, false);
}

std::optional<Value> NpGeneratorObj::GetAttr(Interpreter& in, const std::string& name) {
  auto self = std::static_pointer_cast<NpGeneratorObj>(shared_from_this());
  using Fn = Value (*)(Interpreter&, NpGeneratorObj&, CallArgs&);
  static const std::map<std::string, Fn> kMethods = {
      {"random", [](Interpreter&, NpGeneratorObj& s, CallArgs& a) {
         ArgBinder b("random", a, {"size", "dtype", "out"}, 0);
         return FloatDraws(b, "random", [&s] { return s.bits.NextDouble(); }, [&s] { return rnd::NextFloat(s.bits); });
       }},
      {"standard_normal", [](Interpreter&, NpGeneratorObj& s, CallArgs& a) {
         ArgBinder b("standard_normal", a, {"size", "dtype", "out"}, 0);
         return FloatDraws(b, "standard_normal", [&s] { return rnd::StandardNormal(s.bits); },
                           [&s] { return rnd::StandardNormalF(s.bits); });
       }},
      {"normal", [](Interpreter& in, NpGeneratorObj& s, CallArgs& a) {
         ArgBinder b("normal", a, {"loc", "scale", "size"}, 0);
         return DrawCont(in, SizeArg(b, 2), b.Get(0, Value::Float(0.0)), b.Get(1, Value::Float(1.0)), "scale", true,
                         [&s](double loc, double scale) { return rnd::Normal(s.bits, loc, scale); });
       }},
      {"uniform", [](Interpreter& in, NpGeneratorObj& s, CallArgs& a) {
         ArgBinder b("uniform", a, {"low", "high", "size"}, 0);
         Value low = b.Get(0, Value::Float(0.0)), high = b.Get(1, Value::Float(1.0));
         Value range = UniformRange(in, low, high, "high - low range exceeds valid bounds");
         return DrawCont(in, SizeArg(b, 2), low, range, "high - low", true,
                         [&s](double lo, double r) { return lo + r * s.bits.NextDouble(); });
       }},
      {"integers", [](Interpreter& in, NpGeneratorObj& s, CallArgs& a) {
         ArgBinder b("integers", a, {"low", "high", "size", "dtype", "endpoint"}, 1);
         bool endpoint = b.Has(4) && host::Truth(b.Get(4));
         return DrawIntegers(in, s.bits, b, 2, 3, false, false, endpoint, "integers");
       }},
      // bytes(n): as NumPy makes them, from (n - 1) / 4 + 1 uint32 draws of `integers` (C's
      // division: bytes(0) draws one word too), little-endian.
      {"bytes", [](Interpreter& in, NpGeneratorObj& s, CallArgs& a) {
         ArgBinder b("bytes", a, {"length"}, 1);
         const int64_t length = ToInt(b.Get(0), "bytes() length");
         if (length < 0) ValueError("negative dimensions are not allowed");
         CallArgs draw;
         draw.pos = {Value::Int(0), Value::Int(int64_t(1) << 32), Value::Int((length - 1) / 4 + 1),
                     Value(std::make_shared<DTypeObj>(ScalarType::UInt32, DTypeObj::Flavor::NpType))};
         ArgBinder d("integers", draw, {"low", "high", "size", "dtype", "endpoint"}, 1);
         NdArray words = ToNdArray(in, DrawIntegers(in, s.bits, d, 2, 3, false, false, false, "bytes"), "bytes()");
         std::string out;
         for (int64_t k = 0; k < words.size(); ++k) {
           const uint64_t w = words.GetFlat(k).AsUInt();
           for (int byte = 0; byte < 4; ++byte) out += char((w >> (8 * byte)) & 0xff);
         }
         out.resize(size_t(length));
         return MakeBytes(out);
       }},
      {"choice", [](Interpreter& in, NpGeneratorObj& s, CallArgs& a) {
         ArgBinder b("choice", a, {"a", "size", "replace", "p", "axis", "shuffle"}, 1);
         return Choice(in, s.bits, b);
       }},
      {"shuffle", [](Interpreter& in, NpGeneratorObj& s, CallArgs& a) {
         ArgBinder b("shuffle", a, {"x", "axis"}, 1);
         if (b.Has(1) && ToInt(b.Get(1), "shuffle() axis") != 0)
           TypeError("shuffle(): only axis=0 is supported in host code");
         Shuffle(in, s.bits, b.Get(0));
         return Value();
       }},
      {"permutation", [](Interpreter& in, NpGeneratorObj& s, CallArgs& a) {
         ArgBinder b("permutation", a, {"x", "axis"}, 1);
         if (b.Has(1) && ToInt(b.Get(1), "permutation() axis") != 0)
           TypeError("permutation(): only axis=0 is supported in host code");
         return Permutation(in, s.bits, b.Get(0));
       }},
  };
  auto it = kMethods.find(name);
  if (it == kMethods.end()) return std::nullopt;
  return Method(self, name, it->second);
}

// numpy.random.RandomState: MT19937 plus the cached second polar normal.
struct RandomStateObj : Object {
  RandomStateObj() { bits.SeedFromEntropy(); }
  std::string TypeName() const override { return "numpy.random.mtrand.RandomState"; }
  std::string Repr() const override { return "RandomState(MT19937) at " + Address(this); }
  std::string Str() const override { return "RandomState(MT19937)"; }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  void Seed(Interpreter& in, const Value& seed);
  rnd::Mt19937 bits;
  rnd::LegacyGauss gauss;
};

void RandomStateObj::Seed(Interpreter& in, const Value& seed) {
  gauss = rnd::LegacyGauss();
  if (seed.IsNone()) {
    bits.SeedFromEntropy();
    return;
  }
  if (seed.IsFloat() || (seed.As<NdArrayObj>() && seed.As<NdArrayObj>()->a.ndim() == 0 &&
                          IsFloat(seed.As<NdArrayObj>()->a.dtype())))
    TypeError("Cannot cast scalar from dtype('float64') to dtype('int64') according to the rule 'safe'");
  std::optional<int64_t> i;
  if (seed.IsIntLike()) i = seed.i();
  else if (auto* nd = seed.As<NdArrayObj>(); nd && nd->a.ndim() == 0) i = nd->AsIndex();
  if (i) {
    if (*i < 0 || *i > int64_t(UINT32_MAX)) ValueError("Seed must be between 0 and 2**32 - 1");
    bits.Seed(uint32_t(*i));
    return;
  }
  NdArray arr = ToNdArray(in, seed, "seed");
  if (arr.size() == 0) ValueError("Seed must be non-empty");
  if (IsFloat(arr.dtype()))
    TypeError("Cannot cast array data from " + DtypeRepr(arr.dtype()) + " to dtype('int64') according to the rule 'safe'");
  if (arr.ndim() != 1) ValueError("Seed array must be 1-d");
  std::vector<uint32_t> key;
  for (int64_t k = 0; k < arr.size(); ++k) {
    Scalar s = arr.GetFlat(k);
    __int128 v = s.kind == Scalar::Kind::UInt ? __int128(s.u) : __int128(s.AsInt());
    if (v < 0 || v > UINT32_MAX) ValueError("Seed must be between 0 and 2**32 - 1");
    key.push_back(uint32_t(v));
  }
  bits.SeedByArray(key);
}

// rand(d0, d1, ...) / randn(d0, ...): the dimensions as separate arguments.
std::optional<Shape> DimsArgs(const CallArgs& a, const std::string& fname) {
  if (!a.kw.empty()) TypeError(fname + "() got an unexpected keyword argument '" + a.kw[0].first + "'");
  if (a.pos.empty()) return std::nullopt;
  Shape s;
  for (const Value& v : a.pos) {
    int64_t d = IndexArg(v);
    if (d < 0) ValueError("negative dimensions are not allowed");
    s.push_back(d);
  }
  return s;
}

Value FillDoubles(const std::optional<Shape>& size, const std::function<double()>& draw) {
  if (!size) return Value::Float(draw());
  NdArray out = NdArray::Empty(*size, ScalarType::Float64);
  double* o = static_cast<double*>(out.data());
  for (int64_t i = 0, n = out.size(); i < n; ++i) o[i] = draw();
  return WrapNd(out, false);
}

std::optional<Value> RandomStateObj::GetAttr(Interpreter& in, const std::string& name) {
  auto self = std::static_pointer_cast<RandomStateObj>(shared_from_this());
  using Fn = Value (*)(Interpreter&, RandomStateObj&, CallArgs&);
  static const std::map<std::string, Fn> kMethods = {
      {"seed", [](Interpreter& in, RandomStateObj& s, CallArgs& a) {
         ArgBinder b("seed", a, {"seed"}, 0);
         s.Seed(in, b.Get(0, Value()));
         return Value();
       }},
      {"random_sample", [](Interpreter& in, RandomStateObj& s, CallArgs& a) {
         ArgBinder b("random_sample", a, {"size"}, 0);
         return FillDoubles(SizeArg(b, 0), [&s] { return s.bits.NextDouble(); });
       }},
      {"random", [](Interpreter& in, RandomStateObj& s, CallArgs& a) {
         ArgBinder b("random", a, {"size"}, 0);
         return FillDoubles(SizeArg(b, 0), [&s] { return s.bits.NextDouble(); });
       }},
      {"rand", [](Interpreter& in, RandomStateObj& s, CallArgs& a) {
         return FillDoubles(DimsArgs(a, "rand"), [&s] { return s.bits.NextDouble(); });
       }},
      {"randn", [](Interpreter& in, RandomStateObj& s, CallArgs& a) {
         return FillDoubles(DimsArgs(a, "randn"), [&s] { return s.gauss.Next(s.bits); });
       }},
      {"standard_normal", [](Interpreter& in, RandomStateObj& s, CallArgs& a) {
         ArgBinder b("standard_normal", a, {"size"}, 0);
         return FillDoubles(SizeArg(b, 0), [&s] { return s.gauss.Next(s.bits); });
       }},
      {"normal", [](Interpreter& in, RandomStateObj& s, CallArgs& a) {
         ArgBinder b("normal", a, {"loc", "scale", "size"}, 0);
         return DrawCont(in, SizeArg(b, 2), b.Get(0, Value::Float(0.0)), b.Get(1, Value::Float(1.0)), "scale", true,
                         [&s](double loc, double scale) { return loc + scale * s.gauss.Next(s.bits); });
       }},
      {"uniform", [](Interpreter& in, RandomStateObj& s, CallArgs& a) {
         ArgBinder b("uniform", a, {"low", "high", "size"}, 0);
         Value low = b.Get(0, Value::Float(0.0)), high = b.Get(1, Value::Float(1.0));
         Value range = UniformRange(in, low, high, "Range exceeds valid bounds");
         return DrawCont(in, SizeArg(b, 2), low, range, "", false,
                         [&s](double lo, double r) { return lo + r * s.bits.NextDouble(); });
       }},
      {"randint", [](Interpreter& in, RandomStateObj& s, CallArgs& a) {
         ArgBinder b("randint", a, {"low", "high", "size", "dtype"}, 1);
         return DrawIntegers(in, s.bits, b, 2, 3, true, true, false, "randint");
       }},
      {"shuffle", [](Interpreter& in, RandomStateObj& s, CallArgs& a) {
         ArgBinder b("shuffle", a, {"x"}, 1);
         Shuffle(in, s.bits, b.Get(0));
         return Value();
       }},
      {"permutation", [](Interpreter& in, RandomStateObj& s, CallArgs& a) {
         ArgBinder b("permutation", a, {"x"}, 1);
         return Permutation(in, s.bits, b.Get(0));
       }},
  };
  auto it = kMethods.find(name);
  if (it == kMethods.end()) return std::nullopt;
  return Method(self, name, it->second);
}

}  // namespace

Value MakeNumpyRandomModule() {
  auto m = std::make_shared<ModuleObj>("numpy.random");
  m->Def("default_rng", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("default_rng", a, {"seed"}, 0);
    Value seed = b.Get(0, Value());
    if (seed.As<NpGeneratorObj>()) return seed;
    std::vector<uint32_t> words;
    if (seed.IsNone()) {
      std::random_device rd;
      words = {rd(), rd(), rd(), rd()};
    } else {
      words = SeedWords(in, seed);
    }
    return Value(std::make_shared<NpGeneratorObj>(rnd::SeedSequence(words)));
  });
  m->Def("RandomState", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("RandomState", a, {"seed"}, 0);
    auto rs = std::make_shared<RandomStateObj>();
    if (b.Has(0)) rs->Seed(in, b.Get(0));
    return Value(rs);
  });
  // The module-level legacy functions share one RandomState, seeded from OS entropy.
  auto global = std::make_shared<RandomStateObj>();
  for (const char* fname : {"seed", "random_sample", "random", "rand", "randn", "standard_normal", "normal", "uniform",
                            "randint", "shuffle", "permutation"}) {
    std::string name = fname;
    m->Def(name, [global, name](Interpreter& in, CallArgs& a) {
      Value method = *global->GetAttr(in, name);
      return in.CallValue(method, a);
    });
  }
  return Value(m);
}

}  // namespace tilec::host
