// NumPy functions beyond the ufunc core: rounding, the max/min/argmax/argmin/mean/std/prod
// reductions, cumsum, where/nonzero, clip, concatenate/stack, sort/argsort, isclose and eye.
// Each follows the NumPy 1.24 code path it stands for, so dtypes and roundings come out alike.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "host/ndarray/elements.h"

namespace tilec::host {

namespace {

NdArray PyFloat(double v) { return NdArray::FromScalar(Scalar::Float(v)); }
NdArray PyInt(int64_t v) { return NdArray::FromScalar(Scalar::Int(v)); }

// Shape of `a` without axis `ax`, and the strides of the remaining axes.
void DropAxis(const NdArray& a, int ax, Shape& shape, std::vector<int64_t>& strides) {
  for (int k = 0; k < a.ndim(); ++k) {
    if (k == ax) continue;
    shape.push_back(a.shape()[k]);
    strides.push_back(a.strides()[k]);
  }
}

// Calls fn(in, out) for each 1-d lane of `a` along `ax`; `out` walks the matching element of
// `out` (whose shape lacks the axis) or its matching lane (same shape as `a`).
void ForEachLane(const NdArray& a, int ax, const NdArray& out, bool out_has_axis,
                 const std::function<void(const uint8_t* in, uint8_t* out)>& fn) {
  Shape rest;
  std::vector<int64_t> in_strides, out_strides;
  DropAxis(a, ax, rest, in_strides);
  if (out_has_axis) {
    Shape unused;
    DropAxis(out, ax, unused, out_strides);
  } else {
    out_strides = out.strides();
  }
  const uint8_t* pa = NdAccess::Data(a);
  uint8_t* po = NdAccess::Data(out);
  ForEachStrided(rest, {in_strides, out_strides}, [&](const int64_t* off) { fn(pa + off[0], po + off[1]); });
}

// The array and axis a reduction works on: axis None reduces the C-ordered flattening.
struct Target {
  NdArray a;
  int ax;
};
Target ReductionTarget(const NdArray& a, std::optional<int> axis) {
  if (!axis) return {a.Reshape({-1}), 0};
  if (a.ndim() == 0 && (*axis == 0 || *axis == -1)) return {a.Reshape({1}), 0};
  return {a, NormalizeAxis(*axis, a.ndim())};
}

bool IsNan(const Scalar& s) { return ScalarIsNan(s); }
bool Less(const Scalar& x, const Scalar& y) { return ScalarLess(x, y); }

// NumPy's sort order: NaNs after everything else.
bool SortLess(const Scalar& x, const Scalar& y) {
  if (x.kind == Scalar::Kind::Float) return x.f < y.f || (std::isnan(y.f) && !std::isnan(x.f));
  return Less(x, y);
}

NdArray Cast(const NdArray& a, ScalarType t) { return a.dtype() == t ? a : a.AsType(t); }

}  // namespace

int NormalizeAxis(int axis, int ndim) {
  int ax = axis < 0 ? axis + ndim : axis;
  if (ax < 0 || ax >= ndim) {
    throw NdError("numpy.AxisError", "axis " + std::to_string(axis) +
                                         " is out of bounds for array of dimension " + std::to_string(ndim));
  }
  return ax;
}

// --- rounding ---

NdArray Round(const NdArray& a, int64_t decimals) {
  ScalarType t = a.dtype();
  bool integer = IsInteger(t);
  if (integer && decimals >= 0) return a;
  if (decimals == 0) return Unary(UnaryOp::Rint, a);
  // PyArray_Round: multiply (or divide) by 10**|decimals| into an array of the input's dtype
  // (float64 for integers), rint in place, then divide (or multiply) back.
  ScalarType out_type = integer ? ScalarType::Float64 : t;
  BinaryOp op1 = decimals >= 0 ? BinaryOp::Mul : BinaryOp::TrueDiv;
  BinaryOp op2 = decimals >= 0 ? BinaryOp::TrueDiv : BinaryOp::Mul;
  int64_t n = decimals >= 0 ? decimals : -decimals;
  // NumPy's power_of_ten: a table up to 1e8, then repeated multiplication.
  static const double kPowers[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
  double f = n < 9 ? kPowers[n] : 1e9;
  for (int64_t k = 9; k < n && std::isfinite(f); ++k) f *= 10.0;
  NdArray factor = PyFloat(f);
  NdArray scaled = Binary(op1, a, factor);
  if (t == ScalarType::Bool) {
    throw NdError("numpy.core._exceptions._UFuncOutputCastingError",
                  std::string("Cannot cast ufunc '") + (decimals >= 0 ? "multiply" : "divide") + "' output from dtype('" +
                      DtypeName(scaled.dtype()) + "') to dtype('bool') with casting rule 'same_kind'");
  }
  NdArray r = Unary(UnaryOp::Rint, Cast(scaled, out_type));
  r = Cast(Binary(op2, r, factor), out_type);
  return integer ? r.AsType(t) : r;
}

// --- reductions ---

NdArray Reduce(Reduction kind, const NdArray& a, std::optional<int> axis) {
  Target tg = ReductionTarget(a, axis);
  const NdArray& x = tg.a;
  bool arg = kind == Reduction::ArgMax || kind == Reduction::ArgMin;
  bool is_max = kind == Reduction::Max || kind == Reduction::ArgMax;
  if (x.shape()[tg.ax] == 0) {
    if (arg) throw NdError("ValueError", std::string("attempt to get ") + (is_max ? "argmax" : "argmin") + " of an empty sequence");
    throw NdError("ValueError", std::string("zero-size array to reduction operation ") + (is_max ? "maximum" : "minimum") +
                                    " which has no identity");
  }
  Shape out_shape;
  std::vector<int64_t> unused;
  DropAxis(x, tg.ax, out_shape, unused);
  ScalarType out_type = arg ? ScalarType::Int64 : x.dtype();
  NdArray out = NdArray::Empty(out_shape, out_type);
  int64_t count = x.shape()[tg.ax], stride = x.strides()[tg.ax];
  ScalarType t = x.dtype();
  ForEachLane(x, tg.ax, out, false, [&](const uint8_t* in, uint8_t* o) {
    Scalar best = LoadScalar(in, t);
    int64_t best_at = 0;
    // The first NaN wins: NumPy's maximum and minimum propagate it, argmax/argmin point at it.
    for (int64_t i = 1; i < count && !IsNan(best); ++i) {
      Scalar v = LoadScalar(in + i * stride, t);
      if (IsNan(v) || (is_max ? Less(best, v) : Less(v, best))) best = v, best_at = i;
    }
    StoreScalar(o, out_type, arg ? Scalar::Int(best_at) : best);
  });
  return out;
}

NdArray Mean(const NdArray& a, std::optional<int> axis) {
  ScalarType t = a.dtype();
  Target tg = ReductionTarget(a, axis);
  int64_t n = tg.a.shape()[tg.ax];
  bool f16 = t == ScalarType::Float16;
  ScalarType sum_type = !IsFloat(t) ? ScalarType::Float64 : f16 ? ScalarType::Float32 : t;
  NdArray s = SumReduce(tg.a, tg.ax, sum_type);
  NdArray r;
  if (s.ndim() == 0) {
    // A NumPy scalar divided by the np.intp count: float64 arithmetic, cast back after.
    r = NdArray::FromScalar(Scalar::Float(s.Item().AsDouble() / double(n)), sum_type);
  } else {
    r = Cast(Binary(BinaryOp::TrueDiv, s, PyInt(n)), sum_type);
  }
  return f16 ? r.AsType(t) : r;
}

NdArray Var(const NdArray& a, std::optional<int> axis, int64_t ddof) {
  ScalarType t = a.dtype();
  Target tg = ReductionTarget(a, axis);
  int64_t n = tg.a.shape()[tg.ax];
  ScalarType sum_type = !IsFloat(t) ? ScalarType::Float64 : t;
  // The mean keeps the reduced axis so that it broadcasts against the data.
  NdArray mean = SumReduce(tg.a, tg.ax, sum_type);
  Shape kept = tg.a.shape();
  kept[tg.ax] = 1;
  mean = mean.Reshape(kept);
  mean = Cast(Binary(BinaryOp::TrueDiv, mean, PyInt(n)), mean.dtype());
  NdArray dev = Binary(BinaryOp::Sub, tg.a, mean);
  dev = Binary(BinaryOp::Mul, dev, dev);
  NdArray s = SumReduce(dev, tg.ax, IsFloat(t) ? SumResultType(dev.dtype()) : sum_type);
  int64_t dof = std::max<int64_t>(n - ddof, 0);
  if (s.ndim() == 0) return NdArray::FromScalar(Scalar::Float(s.Item().AsDouble() / double(dof)), s.dtype());
  return Cast(Binary(BinaryOp::TrueDiv, s, PyInt(dof)), s.dtype());
}

NdArray Std(const NdArray& a, std::optional<int> axis, int64_t ddof) {
  return Unary(UnaryOp::Sqrt, Var(a, axis, ddof));
}

NdArray CumSum(const NdArray& a, std::optional<int> axis) {
  Target tg = ReductionTarget(a, axis);
  ScalarType t = tg.a.dtype(), out_type = SumResultType(t);
  NdArray out = NdArray::Empty(tg.a.shape(), out_type);
  int64_t count = tg.a.shape()[tg.ax], in_stride = tg.a.strides()[tg.ax], out_stride = out.strides()[tg.ax];
  ForEachLane(tg.a, tg.ax, out, true, [&](const uint8_t* in, uint8_t* o) {
    // add.accumulate: each partial sum is stored in the output dtype before the next step.
    Scalar acc;
    for (int64_t i = 0; i < count; ++i) {
      Scalar v = LoadScalar(in + i * in_stride, t);
      Scalar next;
      if (i == 0) next = v;
      else if (IsFloat(out_type)) {
        double sum = out_type == ScalarType::Float64 ? acc.f + v.AsDouble()
                                                      : double(float(acc.f) + float(v.AsDouble()));
        next = Scalar::Float(sum);
      } else if (IsSigned(out_type)) {
        next = Scalar::Int(int64_t(uint64_t(acc.i) + uint64_t(v.AsInt())));
      } else {
        next = Scalar::UInt(acc.u + v.AsUInt());
      }
      StoreScalar(o + i * out_stride, out_type, next);
      acc = LoadScalar(o + i * out_stride, out_type);
    }
  });
  return out;
}

NdArray Prod(const NdArray& a, std::optional<int> axis, std::optional<ScalarType> dtype) {
  Target tg = ReductionTarget(a, axis);
  ScalarType t = dtype.value_or(SumResultType(a.dtype()));
  NdArray x = Cast(tg.a, t);
  Shape out_shape;
  std::vector<int64_t> unused;
  DropAxis(x, tg.ax, out_shape, unused);
  NdArray out = NdArray::Empty(out_shape, t);
  const int64_t count = x.shape()[tg.ax], stride = x.strides()[tg.ax];
  // float16 multiplies in float32: within one inner loop (the reduced axis is the innermost
  // in memory) the product stays float32 until the end, otherwise each step is stored back.
  bool lane_in_float32 = true;
  for (int k = 0; k < x.ndim(); ++k)
    if (k != tg.ax && x.shape()[k] > 1 && std::llabs(x.strides()[k]) < std::llabs(stride)) lane_in_float32 = false;
  ForEachLane(x, tg.ax, out, false, [&](const uint8_t* in, uint8_t* o) {
    if (IsFloat(t)) {
      double acc = 1.0;
      for (int64_t i = 0; i < count; ++i) {
        acc *= LoadFloat(in + i * stride, t);
        // A product of two float32 values is exact in double, so this rounds it once.
        if (t != ScalarType::Float64) acc = double(float(acc));
        if (t == ScalarType::Float16 && !lane_in_float32) acc = double(RoundToFloatType(acc, t));
      }
      StoreScalar(o, t, Scalar::Float(acc));
    } else if (t == ScalarType::Bool) {
      bool acc = true;
      for (int64_t i = 0; i < count; ++i) acc = acc && LoadScalar(in + i * stride, t).AsBool();
      StoreScalar(o, t, Scalar::Bool(acc));
    } else {
      // Integer products wrap; reducing modulo 2^64 and storing narrows like each step would.
      uint64_t acc = 1;
      for (int64_t i = 0; i < count; ++i) acc *= LoadScalar(in + i * stride, t).AsUInt();
      StoreScalar(o, t, IsSigned(t) ? Scalar::Int(int64_t(acc)) : Scalar::UInt(acc));
    }
  });
  return out;
}

// --- selection ---

NdArray Where(const NdArray& cond, const NdArray& x, const NdArray& y) {
  const NdArray* ops[] = {&x, &y};
  ScalarType t = ResultType(ops);
  Shape shape = BroadcastShapes(BroadcastShapes(cond.shape(), x.shape()), y.shape());
  NdArray c = cond.BroadcastTo(shape), bx = Cast(x, t).BroadcastTo(shape), by = Cast(y, t).BroadcastTo(shape);
  NdArray out = NdArray::Empty(shape, t);
  const uint8_t *pc = NdAccess::Data(c), *px = NdAccess::Data(bx), *py = NdAccess::Data(by);
  uint8_t* po = NdAccess::Data(out);
  size_t n = out.itemsize();
  ScalarType ct = c.dtype();
  ForEachStrided(shape, {c.strides(), bx.strides(), by.strides(), out.strides()}, [&](const int64_t* off) {
    bool pick_x = LoadScalar(pc + off[0], ct).AsBool();
    std::memcpy(po + off[3], pick_x ? px + off[1] : py + off[2], n);
  });
  return out;
}

std::vector<NdArray> NonZero(const NdArray& a) {
  if (a.ndim() == 0)
    throw NdError("ValueError", "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.");
  std::vector<std::vector<int64_t>> hits(a.ndim());
  Shape index(a.ndim(), 0);
  for (int64_t flat = 0, n = a.size(); flat < n; ++flat) {
    int64_t rest = flat;
    for (int k = a.ndim() - 1; k >= 0; --k) {
      index[k] = rest % a.shape()[k];
      rest /= a.shape()[k];
    }
    if (a.GetFlat(flat).AsBool())
      for (int k = 0; k < a.ndim(); ++k) hits[k].push_back(index[k]);
  }
  std::vector<NdArray> out;
  for (auto& h : hits) {
    NdArray r = NdArray::Empty({int64_t(h.size())}, ScalarType::Int64);
    for (size_t i = 0; i < h.size(); ++i) r.SetFlat(int64_t(i), Scalar::Int(h[i]));
    out.push_back(r);
  }
  return out;
}

NdArray Clip(const NdArray& a, const std::optional<NdArray>& lo, const std::optional<NdArray>& hi) {
  if (!lo && !hi) throw NdError("ValueError", "One of max or min must be given");
  std::vector<const NdArray*> ops = {&a};
  if (lo) ops.push_back(&*lo);
  if (hi) ops.push_back(&*hi);
  ScalarType t = ResultType(ops);
  Shape shape = a.shape();
  if (lo) shape = BroadcastShapes(shape, lo->shape());
  if (hi) shape = BroadcastShapes(shape, hi->shape());
  NdArray x = Cast(a, t).BroadcastTo(shape);
  NdArray l = lo ? Cast(*lo, t).BroadcastTo(shape) : x, h = hi ? Cast(*hi, t).BroadcastTo(shape) : x;
  NdArray out = NdArray::Empty(shape, t);
  const uint8_t *px = NdAccess::Data(x), *pl = NdAccess::Data(l), *ph = NdAccess::Data(h);
  uint8_t* po = NdAccess::Data(out);
  ForEachStrided(shape, {x.strides(), l.strides(), h.strides(), out.strides()}, [&](const int64_t* off) {
    // NumPy's clip loop: max(x, lo) then min(., hi), where a NaN on either side propagates.
    Scalar v = LoadScalar(px + off[0], t);
    if (lo && !IsNan(v)) {
      Scalar m = LoadScalar(pl + off[1], t);
      if (!Less(m, v)) v = m;
    }
    if (hi && !IsNan(v)) {
      Scalar m = LoadScalar(ph + off[2], t);
      if (!Less(v, m)) v = m;
    }
    StoreScalar(po + off[3], t, v);
  });
  return out;
}

// --- joining ---

NdArray Concatenate(std::span<const NdArray> arrays, std::optional<int> axis) {
  if (arrays.empty()) throw NdError("ValueError", "need at least one array to concatenate");
  std::vector<NdArray> parts(arrays.begin(), arrays.end());
  if (!axis)
    for (auto& p : parts) p = p.Reshape({-1});
  for (auto& p : parts)
    if (p.ndim() == 0) throw NdError("ValueError", "zero-dimensional arrays cannot be concatenated");
  int nd = parts[0].ndim();
  int ax = NormalizeAxis(axis.value_or(0), nd);
  Shape shape = parts[0].shape();
  shape[ax] = 0;
  std::vector<const NdArray*> ops;
  for (size_t i = 0; i < parts.size(); ++i) {
    const NdArray& p = parts[i];
    if (p.ndim() != nd) {
      throw NdError("ValueError", "all the input arrays must have same number of dimensions, but the array at index 0 has " +
                                      std::to_string(nd) + " dimension(s) and the array at index " + std::to_string(i) +
                                      " has " + std::to_string(p.ndim()) + " dimension(s)");
    }
    for (int k = 0; k < nd; ++k) {
      if (k == ax || p.shape()[k] == parts[0].shape()[k]) continue;
      throw NdError("ValueError",
                    "all the input array dimensions except for the concatenation axis must match exactly, but along "
                    "dimension " + std::to_string(k) + ", the array at index 0 has size " +
                        std::to_string(parts[0].shape()[k]) + " and the array at index " + std::to_string(i) +
                        " has size " + std::to_string(p.shape()[k]));
    }
    shape[ax] += p.shape()[ax];
    ops.push_back(&p);
  }
  NdArray out = NdArray::Empty(shape, ResultType(ops));
  int64_t at = 0;
  for (const NdArray& p : parts) {
    std::vector<IndexItem> items(nd, IndexItem::All());
    items[ax] = IndexItem::Range(at, at + p.shape()[ax]);
    out.Assign(items, p);
    at += p.shape()[ax];
  }
  return out;
}

NdArray Stack(std::span<const NdArray> arrays, int axis) {
  if (arrays.empty()) throw NdError("ValueError", "need at least one array to stack");
  for (const NdArray& p : arrays)
    if (p.shape() != arrays[0].shape()) throw NdError("ValueError", "all input arrays must have the same shape");
  int ax = NormalizeAxis(axis, arrays[0].ndim() + 1);
  std::vector<NdArray> parts;
  for (const NdArray& p : arrays) {
    Shape s = p.shape();
    s.insert(s.begin() + ax, 1);
    parts.push_back(p.Reshape(s));
  }
  return Concatenate(parts, ax);
}

// --- sorting ---

namespace {

// NumPy's default argsort (`quicksort`): an introsort over the indices with median-of-three
// pivots, insertion sort below 17 elements and heapsort past the depth limit. Following it
// step by step keeps the order NumPy gives to equal elements.
void HeapSortIndices(const std::vector<Scalar>& v, int64_t* idx, int64_t n) {
  auto sift = [&](int64_t* a, int64_t i, int64_t n1) {  // a is 1-based
    int64_t tmp = a[i];
    int64_t j;
    for (j = i * 2; j <= n1; i = j, j *= 2) {
      if (j < n1 && SortLess(v[a[j]], v[a[j + 1]])) ++j;
      if (!SortLess(v[tmp], v[a[j]])) break;
      a[i] = a[j];
    }
    a[i] = tmp;
  };
  int64_t* a = idx - 1;
  for (int64_t l = n >> 1; l > 0; --l) sift(a, l, n);
  for (; n > 1;) {
    std::swap(a[1], a[n]);
    --n;
    sift(a, 1, n);
  }
}

void QuickSortIndices(const std::vector<Scalar>& v, int64_t* idx, int64_t num) {
  constexpr int64_t kSmall = 16;
  auto lt = [&](int64_t a, int64_t b) { return SortLess(v[a], v[b]); };
  std::vector<int64_t*> stack;
  std::vector<int> depths;
  int64_t* pl = idx;
  int64_t* pr = idx + num - 1;
  int depth = 0;
  for (int64_t m = num; m > 1; m >>= 1) ++depth;
  depth *= 2;
  while (true) {
    if (depth < 0) {
      HeapSortIndices(v, pl, pr - pl + 1);
    } else {
      while (pr - pl > kSmall) {
        int64_t* pm = pl + ((pr - pl) >> 1);
        if (lt(*pm, *pl)) std::swap(*pm, *pl);
        if (lt(*pr, *pm)) std::swap(*pr, *pm);
        if (lt(*pm, *pl)) std::swap(*pm, *pl);
        int64_t pivot = *pm;
        int64_t* pi = pl;
        int64_t* pj = pr - 1;
        std::swap(*pm, *pj);
        while (true) {
          do ++pi; while (lt(*pi, pivot));
          do --pj; while (lt(pivot, *pj));
          if (pi >= pj) break;
          std::swap(*pi, *pj);
        }
        std::swap(*pi, *(pr - 1));
        // The larger part waits on the stack; the loop goes on with the smaller.
        if (pi - pl < pr - pi) {
          stack.push_back(pi + 1);
          stack.push_back(pr);
          pr = pi - 1;
        } else {
          stack.push_back(pl);
          stack.push_back(pi - 1);
          pl = pi + 1;
        }
        depths.push_back(--depth);
      }
      for (int64_t* pi = pl + 1; pi <= pr; ++pi) {
        int64_t vi = *pi;
        int64_t* pj = pi;
        while (pj > pl && lt(vi, *(pj - 1))) {
          *pj = *(pj - 1);
          --pj;
        }
        *pj = vi;
      }
    }
    if (stack.empty()) break;
    pr = stack.back();
    stack.pop_back();
    pl = stack.back();
    stack.pop_back();
    depth = depths.back();
    depths.pop_back();
  }
}

NdArray SortLanes(const NdArray& a, std::optional<int> axis, bool indices) {
  Target tg = axis ? Target{a, NormalizeAxis(*axis, a.ndim())} : Target{a.Reshape({-1}), 0};
  if (tg.a.ndim() == 0) throw NdError("numpy.AxisError", "axis -1 is out of bounds for array of dimension 0");
  ScalarType t = tg.a.dtype(), out_type = indices ? ScalarType::Int64 : t;
  NdArray out = NdArray::Empty(tg.a.shape(), out_type);
  int64_t count = tg.a.shape()[tg.ax], in_stride = tg.a.strides()[tg.ax], out_stride = out.strides()[tg.ax];
  ForEachLane(tg.a, tg.ax, out, true, [&](const uint8_t* in, uint8_t* o) {
    std::vector<Scalar> v(count);
    for (int64_t i = 0; i < count; ++i) v[i] = LoadScalar(in + i * in_stride, t);
    std::vector<int64_t> idx(count);
    std::iota(idx.begin(), idx.end(), 0);
    if (count > 1) QuickSortIndices(v, idx.data(), count);
    for (int64_t i = 0; i < count; ++i)
      StoreScalar(o + i * out_stride, out_type, indices ? Scalar::Int(idx[i]) : v[idx[i]]);
  });
  return out;
}

}  // namespace

NdArray Sort(const NdArray& a, std::optional<int> axis) { return SortLanes(a, axis, false); }
NdArray ArgSort(const NdArray& a, std::optional<int> axis) { return SortLanes(a, axis, true); }

// --- comparison and construction ---

NdArray IsClose(const NdArray& a, const NdArray& b, double rtol, double atol, bool equal_nan) {
  // np.isclose: y in result_type(y, 1.0), |x - y| <= atol + rtol * |y| in the promoted dtype
  // where both are finite, plain equality (infinities) elsewhere.
  NdArray one = PyFloat(1.0);
  const NdArray* ops[] = {&b, &one};
  NdArray y = Cast(b, ResultType(ops));
  NdArray diff = Unary(UnaryOp::Abs, Binary(BinaryOp::Sub, a, y));
  NdArray tol = Binary(BinaryOp::Add, PyFloat(atol), Binary(BinaryOp::Mul, PyFloat(rtol), Unary(UnaryOp::Abs, y)));
  NdArray within = Binary(BinaryOp::Le, diff, tol);
  NdArray equal = Binary(BinaryOp::Eq, a, y);
  Shape shape = within.shape();
  NdArray x = a.BroadcastTo(shape), yy = y.BroadcastTo(shape);
  NdArray out = NdArray::Empty(shape, ScalarType::Bool);
  for (int64_t i = 0, n = out.size(); i < n; ++i) {
    double u = x.GetFlat(i).AsDouble(), v = yy.GetFlat(i).AsDouble();
    bool r;
    if (std::isfinite(u) && std::isfinite(v)) r = within.GetFlat(i).b;
    else r = equal.GetFlat(i).b || (equal_nan && std::isnan(u) && std::isnan(v));
    out.SetFlat(i, Scalar::Bool(r));
  }
  return out;
}

NdArray Eye(int64_t n, int64_t m, int64_t k, ScalarType dtype) {
  if (n < 0 || m < 0) throw NdError("ValueError", "negative dimensions are not allowed");
  NdArray out = NdArray::Zeros({n, m}, dtype);
  for (int64_t i = 0; i < n; ++i) {
    int64_t j = i + k;
    if (j >= 0 && j < m) out.Set(std::vector<int64_t>{i, j}, Scalar::Int(1));
  }
  return out;
}

}  // namespace tilec::host
