// np.linalg (solve, cholesky, inv, norm), np.testing (assert_allclose, the equality asserts,
// assert_array_less) and np.cross: what Warp's example programs check their kernels against. Dense
// float64 arithmetic (partial pivoting), float32 results when every operand is float32, as
// NumPy's LAPACK calls return them.
#include <cmath>
#include <cstdio>

#include "host/interp/args.h"
#include "host/interp/array_values.h"
#include "host/interp/exceptions.h"
#include "host/interp/interpreter.h"

namespace tilec::host {
namespace {

using Matrix = std::vector<double>;  // row-major

Matrix ToMatrix(const NdArray& a) {
  Matrix m(size_t(a.size()));
  for (int64_t k = 0; k < a.size(); ++k) m[size_t(k)] = a.GetFlat(k).AsDouble();
  return m;
}

NdArray FromMatrix(const Matrix& m, const Shape& shape, ScalarType dtype) {
  NdArray out = NdArray::Zeros(shape, ScalarType::Float64);
  for (size_t k = 0; k < m.size(); ++k) out.SetFlat(int64_t(k), Scalar::Float(m[k]));
  return dtype == ScalarType::Float64 ? out : out.AsType(dtype);
}

// NumPy computes in the operands' common inexact type: float32 stays float32 (and float16 is
// solved in float32), anything else in float64.
ScalarType ResultType(std::initializer_list<const NdArray*> xs) {
  for (const NdArray* x : xs)
    if (x->dtype() != ScalarType::Float32 && x->dtype() != ScalarType::Float16) return ScalarType::Float64;
  return ScalarType::Float32;
}

[[noreturn]] void LinAlgError(const std::string& m) { Raise("numpy.linalg.LinAlgError", m); }

int64_t SquareSize(const NdArray& a) {
  if (a.ndim() != 2)
    LinAlgError(std::to_string(a.ndim()) + "-dimensional array given. Array must be at least two-dimensional");
  if (a.shape()[0] != a.shape()[1]) LinAlgError("Last 2 dimensions of the array must be square");
  return a.shape()[0];
}

// LU with partial pivoting of the n x n `a` in place; false when singular.
bool Factor(Matrix& a, int64_t n, std::vector<int64_t>& piv) {
  piv.resize(size_t(n));
  for (int64_t k = 0; k < n; ++k) {
    int64_t p = k;
    for (int64_t i = k + 1; i < n; ++i)
      if (std::fabs(a[size_t(i * n + k)]) > std::fabs(a[size_t(p * n + k)])) p = i;
    piv[size_t(k)] = p;
    if (a[size_t(p * n + k)] == 0.0) return false;
    if (p != k)
      for (int64_t j = 0; j < n; ++j) std::swap(a[size_t(k * n + j)], a[size_t(p * n + j)]);
    for (int64_t i = k + 1; i < n; ++i) {
      double f = a[size_t(i * n + k)] /= a[size_t(k * n + k)];
      for (int64_t j = k + 1; j < n; ++j) a[size_t(i * n + j)] -= f * a[size_t(k * n + j)];
    }
  }
  return true;
}

// Solves with the factors for `nrhs` right-hand sides stored column by column in b (n x nrhs).
void Substitute(const Matrix& lu, const std::vector<int64_t>& piv, int64_t n, Matrix& b, int64_t nrhs) {
  for (int64_t k = 0; k < n; ++k)
    if (piv[size_t(k)] != k)
      for (int64_t c = 0; c < nrhs; ++c) std::swap(b[size_t(k * nrhs + c)], b[size_t(piv[size_t(k)] * nrhs + c)]);
  for (int64_t c = 0; c < nrhs; ++c) {
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < i; ++j) b[size_t(i * nrhs + c)] -= lu[size_t(i * n + j)] * b[size_t(j * nrhs + c)];
    for (int64_t i = n - 1; i >= 0; --i) {
      for (int64_t j = i + 1; j < n; ++j) b[size_t(i * nrhs + c)] -= lu[size_t(i * n + j)] * b[size_t(j * nrhs + c)];
      b[size_t(i * nrhs + c)] /= lu[size_t(i * n + i)];
    }
  }
}

Value Solve(Interpreter& in, CallArgs& args) {
  ArgBinder b("solve", args, {"a", "b"}, 2);
  NdArray a = ToNdArray(in, b.Get(0), "solve"), rhs = ToNdArray(in, b.Get(1), "solve");
  int64_t n = SquareSize(a);
  if (rhs.ndim() < 1 || rhs.ndim() > 2 || rhs.shape()[0] != n)
    ValueError("solve: Input operand 1 has a mismatch in its core dimension 0 (size " +
               std::to_string(rhs.ndim() ? rhs.shape()[0] : 0) + " is different from " + std::to_string(n) + ")");
  Matrix lu = ToMatrix(a);
  std::vector<int64_t> piv;
  if (!Factor(lu, n, piv)) LinAlgError("Singular matrix");
  Matrix x = ToMatrix(rhs);
  Substitute(lu, piv, n, x, rhs.ndim() == 2 ? rhs.shape()[1] : 1);
  return WrapNd(FromMatrix(x, rhs.shape(), ResultType({&a, &rhs})), false);
}

Value Inv(Interpreter& in, CallArgs& args) {
  ArgBinder b("inv", args, {"a"}, 1);
  NdArray a = ToNdArray(in, b.Get(0), "inv");
  int64_t n = SquareSize(a);
  Matrix lu = ToMatrix(a);
  std::vector<int64_t> piv;
  if (!Factor(lu, n, piv)) LinAlgError("Singular matrix");
  Matrix x(size_t(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i) x[size_t(i * n + i)] = 1.0;
  Substitute(lu, piv, n, x, n);
  return WrapNd(FromMatrix(x, a.shape(), ResultType({&a})), false);
}

Value Cholesky(Interpreter& in, CallArgs& args) {
  ArgBinder b("cholesky", args, {"a", "upper"}, 1);
  NdArray a = ToNdArray(in, b.Get(0), "cholesky");
  int64_t n = SquareSize(a);
  Matrix m = ToMatrix(a), l(size_t(n * n), 0.0);
  for (int64_t j = 0; j < n; ++j) {
    double d = m[size_t(j * n + j)];
    for (int64_t k = 0; k < j; ++k) d -= l[size_t(j * n + k)] * l[size_t(j * n + k)];
    if (!(d > 0.0)) LinAlgError("Matrix is not positive definite");
    double ljj = std::sqrt(d);
    l[size_t(j * n + j)] = ljj;
    for (int64_t i = j + 1; i < n; ++i) {
      double s = m[size_t(i * n + j)];
      for (int64_t k = 0; k < j; ++k) s -= l[size_t(i * n + k)] * l[size_t(j * n + k)];
      l[size_t(i * n + j)] = s / ljj;
    }
  }
  if (b.Has(1) && Truth(b.Get(1))) {
    Matrix u(size_t(n * n));
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) u[size_t(i * n + j)] = l[size_t(j * n + i)];
    l = u;
  }
  return WrapNd(FromMatrix(l, a.shape(), ResultType({&a})), false);
}

// norm(x): the 2-norm of the flattened array (Frobenius for matrices); ord=inf/-inf/1 too for
// vectors. A NumPy float64 scalar (float32 for float32 input).
Value Norm(Interpreter& in, CallArgs& args) {
  ArgBinder b("norm", args, {"x", "ord", "axis", "keepdims"}, 1);
  NdArray x = ToNdArray(in, b.Get(0), "norm");
  if (b.Has(2) && !b.Get(2).IsNone()) TypeError("norm(): axis is not supported in host code");
  double r = 0;
  Value ord = b.Get(1, Value());
  if (ord.IsNone() || (ord.IsNumber() && ord.AsDouble() == 2 && x.ndim() == 1)) {
    double scale = 0;
    for (int64_t k = 0; k < x.size(); ++k) scale = std::max(scale, std::fabs(x.GetFlat(k).AsDouble()));
    if (scale > 0 && std::isfinite(scale)) {
      double s = 0;
      for (int64_t k = 0; k < x.size(); ++k) {
        double v = x.GetFlat(k).AsDouble() / scale;
        s += v * v;
      }
      r = scale * std::sqrt(s);
    } else {
      r = scale;
    }
  } else if (ord.IsNumber() && x.ndim() == 1) {
    double p = ord.AsDouble();
    if (std::isinf(p)) {
      r = p > 0 ? 0 : INFINITY;
      for (int64_t k = 0; k < x.size(); ++k)
        r = p > 0 ? std::max(r, std::fabs(x.GetFlat(k).AsDouble())) : std::min(r, std::fabs(x.GetFlat(k).AsDouble()));
    } else {
      for (int64_t k = 0; k < x.size(); ++k) r += std::pow(std::fabs(x.GetFlat(k).AsDouble()), p);
      r = std::pow(r, 1.0 / p);
    }
  } else {
    TypeError("norm(): only ord=None for arrays, and numeric ord for vectors, are supported in host code");
  }
  return WrapNd(NdArray::FromScalar(Scalar::Float(r), x.dtype() == ScalarType::Float32 ? ScalarType::Float32 : ScalarType::Float64));
}

Value Cross(Interpreter& in, CallArgs& args) {
  ArgBinder b("cross", args, {"a", "b"}, 2);
  NdArray x = ToNdArray(in, b.Get(0), "cross"), y = ToNdArray(in, b.Get(1), "cross");
  if (x.ndim() == 0 || y.ndim() == 0 || x.shape().back() != 3 || y.shape().back() != 3)
    ValueError("incompatible dimensions for cross product\n(dimension must be 3)");
  // Broadcast the leading axes, as NumPy does.
  Shape lead_x(x.shape().begin(), x.shape().end() - 1), lead_y(y.shape().begin(), y.shape().end() - 1);
  Shape lead(std::max(lead_x.size(), lead_y.size()), 1);
  for (size_t k = 0; k < lead.size(); ++k) {
    int64_t dx = k + lead_x.size() >= lead.size() ? lead_x[k + lead_x.size() - lead.size()] : 1;
    int64_t dy = k + lead_y.size() >= lead.size() ? lead_y[k + lead_y.size() - lead.size()] : 1;
    if (dx != dy && dx != 1 && dy != 1) ValueError("operands could not be broadcast together");
    lead[k] = std::max(dx, dy);
  }
  Shape full = lead;
  full.push_back(3);
  NdArray bx = x.BroadcastTo(full), by = y.BroadcastTo(full);
  ScalarType dt = ResultType({&x, &y});
  if (!IsFloat(x.dtype()) && !IsFloat(y.dtype())) dt = ScalarType::Int64;
  NdArray out = NdArray::Zeros(full, ScalarType::Float64);
  int64_t rows = out.size() / 3;
  for (int64_t r = 0; r < rows; ++r) {
    double a[3], c[3];
    for (int k = 0; k < 3; ++k) {
      a[k] = bx.GetFlat(r * 3 + k).AsDouble();
      c[k] = by.GetFlat(r * 3 + k).AsDouble();
    }
    out.SetFlat(r * 3 + 0, Scalar::Float(a[1] * c[2] - a[2] * c[1]));
    out.SetFlat(r * 3 + 1, Scalar::Float(a[2] * c[0] - a[0] * c[2]));
    out.SetFlat(r * 3 + 2, Scalar::Float(a[0] * c[1] - a[1] * c[0]));
  }
  return WrapNd(dt == ScalarType::Float64 ? out : out.AsType(dt), false);
}

// A number as NumPy 1.24's messages print it: array2string of the value (8 digits; ints
// as ints).
std::string G(double v, bool integer = false) {
  NdArray one = NdArray::Zeros({1}, integer ? ScalarType::Int64 : ScalarType::Float64);
  one.SetFlat(0, integer ? Scalar::Int(int64_t(v)) : Scalar::Float(v));
  std::string s = Str(WrapNd(one, false));
  return s.substr(1, s.size() - 2);
}

std::string PercentG(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// assert_allclose(actual, desired, rtol=1e-7, atol=0, equal_nan=True, err_msg=''): equal
// shapes (or a scalar), every |actual - desired| <= atol + rtol * |desired|; AssertionError
// with NumPy 1.24's message otherwise (mismatches, the largest differences over the finite
// elements, both arrays). assert_array_equal / assert_equal: the same with no tolerance.
Value AssertClose(Interpreter& in, CallArgs& args, const std::string& fn, bool exact) {
  ArgBinder b(fn, args, {exact ? "x" : "actual", exact ? "y" : "desired", "rtol", "atol", "equal_nan", "err_msg", "verbose", "strict"},
              2);
  // Complex operands compare by |x - y| and |y| as complex magnitudes; their parts' last axis
  // moves out of the element loop below into (re, im) pairs.
  const bool complex = ComplexParts(b.Get(0)) || ComplexParts(b.Get(1));
  auto operand = [&](const Value& v, NdArray& re, NdArray& im) {
    if (auto p = ComplexParts(v)) {
      std::vector<IndexItem> r{IndexItem::Dots(), IndexItem::At(0)}, i{IndexItem::Dots(), IndexItem::At(1)};
      re = p->Index(r);
      im = p->Index(i);
    } else {
      re = ToNdArray(in, v, fn);
      im = NdArray::Zeros(re.shape(), ScalarType::Float64);
    }
  };
  NdArray x, y, xi, yi;
  operand(b.Get(0), x, xi);
  operand(b.Get(1), y, yi);
  double rtol = exact ? 0 : b.Has(2) ? ToDouble(b.Get(2), fn) : 1e-7;
  double atol = exact ? 0 : b.Has(3) ? ToDouble(b.Get(3), fn) : 0;
  bool equal_nan = !b.Has(4) || Truth(b.Get(4));
  std::string err_msg = b.Has(5) ? Str(b.Get(5)) : "";
  auto shape_str = [](const Shape& s) {
    std::string o = "(";
    for (size_t k = 0; k < s.size(); ++k) o += (k ? ", " : "") + std::to_string(s[k]);
    return o + (s.size() == 1 ? ",)" : ")");
  };
  auto fail = [&](const std::string& remarks) {
    std::string header = exact ? "Arrays are not equal" : "Not equal to tolerance rtol=" + PercentG(rtol) + ", atol=" + PercentG(atol);
    auto text = [&](size_t k, const NdArray& re) { return complex ? Repr(b.Get(k)) : Repr(WrapNd(re, false)); };
    Raise("AssertionError", "\n" + header + "\n" + err_msg + "\n" + remarks + "\n x: " + text(0, x) + "\n y: " + text(1, y));
  };
  if (x.shape() != y.shape() && x.ndim() != 0 && y.ndim() != 0)
    fail("(shapes " + shape_str(x.shape()) + ", " + shape_str(y.shape()) + " mismatch)");
  Shape s = x.ndim() ? x.shape() : y.shape();
  NdArray bx = x.BroadcastTo(s), by = y.BroadcastTo(s), bxi = xi.BroadcastTo(s), byi = yi.BroadcastTo(s);
  const bool integer = !complex && !IsFloat(x.dtype()) && !IsFloat(y.dtype());
  int64_t bad = 0, n = bx.size();
  double max_abs = 0, max_rel = 0;
  bool any_nonzero = false;
  for (int64_t k = 0; k < n; ++k) {
    const double a = bx.GetFlat(k).AsDouble(), d = by.GetFlat(k).AsDouble();
    const double ai = bxi.GetFlat(k).AsDouble(), di = byi.GetFlat(k).AsDouble();
    const bool a_nan = std::isnan(a) || std::isnan(ai), d_nan = std::isnan(d) || std::isnan(di);
    const bool a_fin = std::isfinite(a) && std::isfinite(ai), d_fin = std::isfinite(d) && std::isfinite(di);
    const double diff = std::hypot(a - d, ai - di), mag = std::hypot(d, di);
    bool ok;
    if (a_nan || d_nan) ok = equal_nan && a_nan && d_nan;
    else if (!a_fin || !d_fin) ok = a == d && ai == di;
    else ok = diff <= atol + rtol * mag;
    bad += !ok;
    if (!a_fin || !d_fin) continue;
    max_abs = std::max(max_abs, diff);
    if (mag != 0) {
      any_nonzero = true;
      max_rel = std::max(max_rel, diff / mag);
    }
  }
  if (bad == 0) return Value();
  if (!any_nonzero) max_rel = INFINITY;
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.3g", 100.0 * double(bad) / double(n));
  fail("Mismatched elements: " + std::to_string(bad) + " / " + std::to_string(n) + " (" + pct + "%)\n" +
       "Max absolute difference: " + G(max_abs, integer) + "\n" + "Max relative difference: " + G(max_rel));
  return Value();
}

// A 0-d or one-element value as np.array2string prints it ("1", "2.", "0.5", "nan").
std::string Array2String(const NdArray& v) {
  std::string s = Str(WrapNd(v.Reshape({1}), false));
  return s.substr(1, s.size() - 2);
}

// assert_array_less(x, y, err_msg=''): x < y everywhere, where NaNs in the same places are
// left out; AssertionError with NumPy 1.24's report (mismatches, and the largest absolute and
// relative differences over the compared elements) otherwise.
Value AssertLess(Interpreter& in, CallArgs& args) {
  ArgBinder b("assert_array_less", args, {"x", "y", "err_msg", "verbose"}, 2);
  const NdArray ox = ToNdArray(in, b.Get(0), "assert_array_less"), oy = ToNdArray(in, b.Get(1), "assert_array_less");
  const std::string err_msg = b.Has(2) ? Str(b.Get(2)) : "";
  auto fail = [&](const std::string& remarks) {
    Raise("AssertionError", "\nArrays are not less-ordered\n" + err_msg + "\n" + remarks + "\n x: " +
                                Repr(WrapNd(ox, false)) + "\n y: " + Repr(WrapNd(oy, false)));
  };
  if (ox.shape() != oy.shape() && ox.ndim() != 0 && oy.ndim() != 0)
    fail("(shapes " + ShapeString(ox.shape()) + ", " + ShapeString(oy.shape()) + " mismatch)");
  NdArray x = ox, y = oy;
  const NdArray xn = TestFloat(FloatTest::IsNan, x), yn = TestFloat(FloatTest::IsNan, y);
  const NdArray nan_differs = Binary(BinaryOp::Ne, xn, yn);
  for (int64_t k = 0; k < nan_differs.size(); ++k)
    if (nan_differs.GetFlat(k).b) fail("x and y nan location mismatch:");
  // Where one side is a scalar, its NaN flag stands for every element.
  const bool scalar_flag = x.ndim() == 0 || y.ndim() == 0;
  const NdArray flagged = x.ndim() == 0 ? xn : yn;
  if (scalar_flag && flagged.Item().b) return Value();
  if (!scalar_flag) {
    IndexItem keep = IndexItem::Take(Unary(UnaryOp::Invert, flagged));
    x = x.Select(std::span<const IndexItem>(&keep, 1));
    y = y.Select(std::span<const IndexItem>(&keep, 1));
    if (x.size() == 0) return Value();
  }
  const NdArray less = Binary(BinaryOp::Lt, x, y);
  int64_t bad = 0;
  for (int64_t k = 0; k < less.size(); ++k) bad += !less.GetFlat(k).b;
  if (bad == 0) return Value();
  const int64_t n = scalar_flag ? less.size() : flagged.size();
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.3g", 100.0 * double(bad) / double(n));
  std::string remarks = "Mismatched elements: " + std::to_string(bad) + " / " + std::to_string(n) + " (" + pct + "%)";
  try {
    NdArray error = Unary(UnaryOp::Abs, Binary(BinaryOp::Sub, x, y));
    if (IsInteger(x.dtype()) && !IsSigned(x.dtype()))
      error = Extreme(Extremum::Minimum, error, Unary(UnaryOp::Abs, Binary(BinaryOp::Sub, y, x)));
    remarks += "\nMax absolute difference: " + Array2String(Reduce(Reduction::Max, error, std::nullopt));
    const NdArray by = y.BroadcastTo(error.shape());
    IndexItem nonzero = IndexItem::Take(Binary(BinaryOp::Ne, by, NdArray::FromScalar(Scalar::Int(0))));
    const NdArray e = error.Select(std::span<const IndexItem>(&nonzero, 1));
    const NdArray d = by.Select(std::span<const IndexItem>(&nonzero, 1));
    const NdArray rel = e.size() == 0 ? NdArray::FromScalar(Scalar::Float(INFINITY))
                                      : Reduce(Reduction::Max, Binary(BinaryOp::TrueDiv, e, Unary(UnaryOp::Abs, d)),
                                               std::nullopt);
    remarks += "\nMax relative difference: " + Array2String(rel);
  } catch (const NdError& err) {
    // NumPy leaves the differences out where subtraction is undefined (booleans).
    if (err.type() != "TypeError") throw;
  }
  fail(remarks);
  return Value();
}

}  // namespace

void DefineNumpyLinalgAndTesting(ModuleObj& np) {
  auto linalg = std::make_shared<ModuleObj>("numpy.linalg");
  linalg->Def("solve", Solve);
  linalg->Def("inv", Inv);
  linalg->Def("cholesky", Cholesky);
  linalg->Def("norm", Norm);
  linalg->attrs["LinAlgError"] = Value(std::const_pointer_cast<ExcTypeObj>(ExceptionType("numpy.linalg.LinAlgError")));
  np.attrs["linalg"] = Value(linalg);
  auto testing = std::make_shared<ModuleObj>("numpy.testing");
  testing->Def("assert_allclose", [](Interpreter& in, CallArgs& a) { return AssertClose(in, a, "assert_allclose", false); });
  testing->Def("assert_array_equal", [](Interpreter& in, CallArgs& a) { return AssertClose(in, a, "assert_array_equal", true); });
  testing->Def("assert_array_less", AssertLess);
  testing->Def("assert_equal", [](Interpreter& in, CallArgs& a) { return AssertClose(in, a, "assert_equal", true); });
  np.attrs["testing"] = Value(testing);
  np.Def("cross", Cross);
}

}  // namespace tilec::host
