// The ufunc pieces beyond plain arithmetic: np.fmin/np.fmax and the minimum/maximum family's
// accumulate, the float classification tests (isnan, isfinite, isinf) and np.add.at, each
// with NumPy 1.24's NaN handling, loop dtypes and casts.
#include <cmath>

#include "host/ndarray/elements.h"

namespace tilec::host {

namespace {

// NumPy's loops: minimum keeps x when `x <= y || isnan(x)` (NaNs propagate), fmin when
// `x <= y || isnan(y)` (a NaN loses to a number); maximum and fmax mirror them.
Scalar Pick(Extremum kind, const Scalar& x, const Scalar& y) {
  const bool xn = ScalarIsNan(x), yn = ScalarIsNan(y);
  switch (kind) {
    case Extremum::Minimum: return xn || (!yn && !ScalarLess(y, x)) ? x : y;
    case Extremum::Maximum: return xn || (!yn && !ScalarLess(x, y)) ? x : y;
    case Extremum::FMin: return yn || (!xn && !ScalarLess(y, x)) ? x : y;
    case Extremum::FMax: return yn || (!xn && !ScalarLess(x, y)) ? x : y;
  }
  return x;
}

// `v` rounded to dtype `t`, as storing it in an array of `t` does.
Scalar InType(ScalarType t, const Scalar& v) {
  uint8_t buf[16] = {};
  StoreScalar(buf, t, v);
  return LoadScalar(buf, t);
}

// One step of np.add's loop for dtype `t` (bools: logical or; integers wrap).
Scalar AddIn(ScalarType t, const Scalar& x, const Scalar& y) {
  if (t == ScalarType::Bool) return Scalar::Bool(x.AsBool() || y.AsBool());
  if (IsFloat(t)) return InType(t, Scalar::Float(x.AsDouble() + y.AsDouble()));
  if (IsSigned(t)) return InType(t, Scalar::Int(int64_t(uint64_t(x.AsInt()) + uint64_t(y.AsInt()))));
  return InType(t, Scalar::UInt(x.AsUInt() + y.AsUInt()));
}

}  // namespace

NdArray Extreme(Extremum kind, const NdArray& a, const NdArray& b) {
  const NdArray* ops[] = {&a, &b};
  const ScalarType t = ResultType(ops);
  const Shape shape = BroadcastShapes(a.shape(), b.shape());
  NdArray x = (a.dtype() == t ? a : a.AsType(t)).BroadcastTo(shape);
  NdArray y = (b.dtype() == t ? b : b.AsType(t)).BroadcastTo(shape);
  NdArray out = NdArray::Empty(shape, t);
  const uint8_t *px = NdAccess::Data(x), *py = NdAccess::Data(y);
  uint8_t* po = NdAccess::Data(out);
  ForEachStrided(shape, {x.strides(), y.strides(), out.strides()}, [&](const int64_t* off) {
    StoreScalar(po + off[2], t, Pick(kind, LoadScalar(px + off[0], t), LoadScalar(py + off[1], t)));
  });
  return out;
}

NdArray Accumulate(Extremum kind, const NdArray& a, int axis) {
  if (a.ndim() == 0) throw NdError("TypeError", "cannot accumulate on a scalar");
  const int ax = NormalizeAxis(axis, a.ndim());
  const ScalarType t = a.dtype();
  NdArray out = NdArray::Empty(a.shape(), t);
  Shape rest;
  std::vector<int64_t> in_strides, out_strides;
  for (int k = 0; k < a.ndim(); ++k) {
    if (k == ax) continue;
    rest.push_back(a.shape()[k]);
    in_strides.push_back(a.strides()[k]);
    out_strides.push_back(out.strides()[k]);
  }
  const int64_t count = a.shape()[ax], in_stride = a.strides()[ax], out_stride = out.strides()[ax];
  const uint8_t* pa = NdAccess::Data(a);
  uint8_t* po = NdAccess::Data(out);
  ForEachStrided(rest, {in_strides, out_strides}, [&](const int64_t* off) {
    Scalar acc;
    for (int64_t i = 0; i < count; ++i) {
      Scalar v = LoadScalar(pa + off[0] + i * in_stride, t);
      acc = i == 0 ? v : Pick(kind, acc, v);
      StoreScalar(po + off[1] + i * out_stride, t, acc);
    }
  });
  return out;
}

NdArray TestFloat(FloatTest test, const NdArray& a) {
  NdArray out = NdArray::Empty(a.shape(), ScalarType::Bool);
  const ScalarType t = a.dtype();
  const uint8_t* pa = NdAccess::Data(a);
  uint8_t* po = NdAccess::Data(out);
  ForEachStrided(a.shape(), {a.strides(), out.strides()}, [&](const int64_t* off) {
    const double v = IsFloat(t) ? LoadFloat(pa + off[0], t) : 0.0;
    bool r = false;
    switch (test) {
      case FloatTest::IsNan: r = std::isnan(v); break;
      case FloatTest::IsFinite: r = std::isfinite(v); break;
      case FloatTest::IsInf: r = std::isinf(v); break;
    }
    po[off[1]] = r ? 1 : 0;
  });
  return out;
}

void AddAt(NdArray& a, std::span<const IndexItem> items, const NdArray& b) {
  // Selecting from an array of flat positions finds every target element, repeats and all,
  // with NumPy's index checks and messages.
  NdArray positions = NdArray::Arange(a.size()).Reshape(a.shape());
  NdArray where = positions.Select(items);
  NdArray values;
  try {
    values = b.BroadcastTo(where.shape());
  } catch (const NdError&) {
    throw NdError("ValueError", "array is not broadcastable to correct shape");
  }
  const NdArray* ops[] = {&a, &b};
  const ScalarType t = ResultType(ops);
  for (int64_t k = 0, n = where.size(); k < n; ++k) {
    const int64_t p = where.GetFlat(k).AsInt();
    a.SetFlat(p, AddIn(t, InType(t, a.GetFlat(p)), InType(t, values.GetFlat(k))));
  }
}

}  // namespace tilec::host
