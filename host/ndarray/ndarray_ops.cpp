// Element-wise ufuncs with broadcasting (arithmetic, comparisons, bitwise, the float functions), the
// sum reduction with NumPy's pairwise float summation, np.allclose and np.array_equal.
// Operands are cast to the loop dtype first; float16/32 loops compute in float as NumPy does.
#include <cmath>

#include "host/ndarray/elements.h"

namespace tilec::host {

namespace {

[[noreturn]] void UnsupportedTypes(const char* ufunc) {
  throw NdError("TypeError", std::string("ufunc '") + ufunc +
                                 "' not supported for the input types, and the inputs could not "
                                 "be safely coerced to any supported types according to the "
                                 "casting rule ''safe''");
}

const char* UfuncName(BinaryOp op) {
  switch (op) {
    case BinaryOp::And: return "bitwise_and";
    case BinaryOp::Or: return "bitwise_or";
    case BinaryOp::Xor: return "bitwise_xor";
    case BinaryOp::FloorDiv: return "floor_divide";
    case BinaryOp::Mod: return "remainder";
    case BinaryOp::Pow: return "power";
    default: return "binary";
  }
}

bool IsComparison(BinaryOp op) {
  return op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::Lt || op == BinaryOp::Le ||
         op == BinaryOp::Gt || op == BinaryOp::Ge;
}

// Python-style floor division and modulo on floats (the result of % takes the divisor's sign).
double FloorDivF(double a, double b) {
  if (b == 0) return a / b;
  double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1.0;
  if (div == 0) return std::copysign(0.0, a / b);
  double floordiv = std::floor(div);
  if (div - floordiv > 0.5) floordiv += 1.0;
  return floordiv;
}

double ModF(double a, double b) {
  if (b == 0) return std::fmod(a, b);
  double mod = std::fmod(a, b);
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) mod += b;
  } else {
    mod = std::copysign(0.0, b);
  }
  return mod;
}

template <class F> F ArithFloat(BinaryOp op, F a, F b) {
  switch (op) {
    case BinaryOp::Add: return a + b;
    case BinaryOp::Sub: return a - b;
    case BinaryOp::Mul: return a * b;
    case BinaryOp::TrueDiv: return a / b;
    case BinaryOp::FloorDiv: return static_cast<F>(FloorDivF(a, b));
    case BinaryOp::Mod: return static_cast<F>(ModF(a, b));
    case BinaryOp::Pow: return std::pow(a, b);
    default: return 0;
  }
}

bool Compare(BinaryOp op, double a, double b) {
  switch (op) {
    case BinaryOp::Eq: return a == b;
    case BinaryOp::Ne: return a != b;
    case BinaryOp::Lt: return a < b;
    case BinaryOp::Le: return a <= b;
    case BinaryOp::Gt: return a > b;
    case BinaryOp::Ge: return a >= b;
    default: return false;
  }
}

template <class I> bool CompareInt(BinaryOp op, I a, I b) {
  switch (op) {
    case BinaryOp::Eq: return a == b;
    case BinaryOp::Ne: return a != b;
    case BinaryOp::Lt: return a < b;
    case BinaryOp::Le: return a <= b;
    case BinaryOp::Gt: return a > b;
    case BinaryOp::Ge: return a >= b;
    default: return false;
  }
}

// Integer arithmetic wraps like C on the loop type (the store truncates to its width).
int64_t ArithSigned(BinaryOp op, int64_t a, int64_t b) {
  uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  switch (op) {
    case BinaryOp::Add: return static_cast<int64_t>(ua + ub);
    case BinaryOp::Sub: return static_cast<int64_t>(ua - ub);
    case BinaryOp::Mul: return static_cast<int64_t>(ua * ub);
    case BinaryOp::FloorDiv: {
      if (b == 0) return 0;
      if (b == -1) return static_cast<int64_t>(0 - ua);
      int64_t q = a / b;
      if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
      return q;
    }
    case BinaryOp::Mod: {
      if (b == 0 || b == -1) return 0;
      int64_t r = a % b;
      if (r != 0 && ((r < 0) != (b < 0))) r += b;
      return r;
    }
    case BinaryOp::Pow: {
      if (b < 0) throw NdError("ValueError", "Integers to negative integer powers are not allowed.");
      uint64_t result = 1, base = ua;
      for (uint64_t e = ub; e; e >>= 1) {
        if (e & 1) result *= base;
        base *= base;
      }
      return static_cast<int64_t>(result);
    }
    case BinaryOp::And: return a & b;
    case BinaryOp::Or: return a | b;
    case BinaryOp::Xor: return a ^ b;
    default: return 0;
  }
}

uint64_t ArithUnsigned(BinaryOp op, uint64_t a, uint64_t b) {
  switch (op) {
    case BinaryOp::Add: return a + b;
    case BinaryOp::Sub: return a - b;
    case BinaryOp::Mul: return a * b;
    case BinaryOp::FloorDiv: return b == 0 ? 0 : a / b;
    case BinaryOp::Mod: return b == 0 ? 0 : a % b;
    case BinaryOp::Pow: {
      uint64_t result = 1;
      for (uint64_t e = b; e; e >>= 1) {
        if (e & 1) result *= a;
        a *= a;
      }
      return result;
    }
    case BinaryOp::And: return a & b;
    case BinaryOp::Or: return a | b;
    case BinaryOp::Xor: return a ^ b;
    default: return 0;
  }
}

// The dtype of the inner loop NumPy picks for unary float functions on integer input.
ScalarType FloatLoopFor(ScalarType t) {
  if (IsFloat(t)) return t;
  size_t size = t == ScalarType::Bool ? 1 : ScalarSize(t);
  return size == 1 ? ScalarType::Float16 : size == 2 ? ScalarType::Float32 : ScalarType::Float64;
}

bool ComputesInFloat(ScalarType t) { return t != ScalarType::Float64; }

// The float ufuncs in the precision of the loop; rint rounds half to even, as the default
// rounding mode does.
template <class F> F FloatFunction(UnaryOp op, F x) {
  switch (op) {
    case UnaryOp::Sqrt: return std::sqrt(x);
    case UnaryOp::Exp: return std::exp(x);
    case UnaryOp::Log: return std::log(x);
    case UnaryOp::Log2: return std::log2(x);
    case UnaryOp::Log10: return std::log10(x);
    case UnaryOp::Sin: return std::sin(x);
    case UnaryOp::Cos: return std::cos(x);
    case UnaryOp::Tan: return std::tan(x);
    case UnaryOp::Arcsin: return std::asin(x);
    case UnaryOp::Arccos: return std::acos(x);
    case UnaryOp::Arctan: return std::atan(x);
    case UnaryOp::Rint: return std::nearbyint(x);
    case UnaryOp::Floor: return std::floor(x);
    case UnaryOp::Ceil: return std::ceil(x);
    case UnaryOp::Trunc: return std::trunc(x);
    case UnaryOp::Sinh: return std::sinh(x);
    case UnaryOp::Cosh: return std::cosh(x);
    case UnaryOp::Tanh: return std::tanh(x);
    case UnaryOp::Arcsinh: return std::asinh(x);
    case UnaryOp::Arccosh: return std::acosh(x);
    case UnaryOp::Arctanh: return std::atanh(x);
    case UnaryOp::Expm1: return std::expm1(x);
    case UnaryOp::Log1p: return std::log1p(x);
    case UnaryOp::Cbrt: return std::cbrt(x);
    default: return x;
  }
}

// The loop dtype NumPy 1.24 runs `op` in. add, subtract, multiply, true_divide and the
// comparisons resolve through result_type; floor_divide, remainder, power and the bitwise ops
// search their loop list, which can differ for unsigned arrays with Python ints (uint8 // 300
// runs as int16, uint8 + 300 as uint16).
ScalarType LoopType(BinaryOp op, const NdArray& a, const NdArray& b) {
  using T = ScalarType;
  const NdArray* ops[] = {&a, &b};
  bool bitwise = op == BinaryOp::And || op == BinaryOp::Or || op == BinaryOp::Xor;
  bool searched = bitwise || op == BinaryOp::FloorDiv || op == BinaryOp::Mod || op == BinaryOp::Pow;
  bool has_bf16 = a.dtype() == T::BFloat16 || b.dtype() == T::BFloat16;
  if (searched && !has_bf16) {
    static constexpr T kIntLoops[] = {T::Bool, T::Int8, T::UInt8, T::Int16, T::UInt16, T::Int32,
                                      T::UInt32, T::Int64, T::UInt64};
    static constexpr T kNumberLoops[] = {T::Int8, T::UInt8, T::Int16, T::UInt16, T::Int32,
                                         T::UInt32, T::Int64, T::UInt64, T::Float16, T::Float32,
                                         T::Float64};
    std::optional<T> loop = bitwise ? SearchLoop(ops, kIntLoops) : SearchLoop(ops, kNumberLoops);
    if (!loop) UnsupportedTypes(UfuncName(op));
    return *loop;
  }
  ScalarType loop = ResultType(ops);
  if (bitwise && IsFloat(loop)) UnsupportedTypes(UfuncName(op));
  if (op == BinaryOp::TrueDiv && !IsFloat(loop)) loop = T::Float64;
  if (loop == T::Bool && op == BinaryOp::Sub) {
    throw NdError("TypeError", "numpy boolean subtract, the `-` operator, is not supported, use "
                               "the bitwise_xor, the `^` operator, or the logical_xor function "
                               "instead.");
  }
  if (loop == T::Bool && (op == BinaryOp::FloorDiv || op == BinaryOp::Mod || op == BinaryOp::Pow))
    loop = T::Int8;
  return loop;
}

}  // namespace

NdArray Binary(BinaryOp op, const NdArray& a, const NdArray& b) {
  ScalarType loop = LoopType(op, a, b);
  ScalarType out_type = IsComparison(op) ? ScalarType::Bool : loop;
  Shape shape = BroadcastShapes(a.shape(), b.shape());
  NdArray x = a.BroadcastTo(shape), y = b.BroadcastTo(shape);
  NdArray out = NdArray::Empty(shape, out_type);
  uint8_t *px = NdAccess::Data(x), *py = NdAccess::Data(y), *po = NdAccess::Data(out);
  ScalarType tx = x.dtype(), ty = y.dtype();
  bool cmp = IsComparison(op);
  ForEachStrided(shape, {x.strides(), y.strides(), out.strides()}, [&](const int64_t* off) {
    Scalar sx = LoadScalar(px + off[0], tx), sy = LoadScalar(py + off[1], ty);
    Scalar r;
    if (IsFloat(loop)) {
      double fx = RoundToFloatType(sx.AsDouble(), loop), fy = RoundToFloatType(sy.AsDouble(), loop);
      if (cmp) r = Scalar::Bool(Compare(op, fx, fy));
      else if (ComputesInFloat(loop))
        r = Scalar::Float(ArithFloat<float>(op, static_cast<float>(fx), static_cast<float>(fy)));
      else
        r = Scalar::Float(ArithFloat<double>(op, fx, fy));
    } else if (loop == ScalarType::Bool) {
      bool bx = sx.AsBool(), by = sy.AsBool();
      switch (op) {
        case BinaryOp::Add: case BinaryOp::Or: r = Scalar::Bool(bx || by); break;
        case BinaryOp::Mul: case BinaryOp::And: r = Scalar::Bool(bx && by); break;
        case BinaryOp::Xor: r = Scalar::Bool(bx != by); break;
        default: r = Scalar::Bool(CompareInt<int>(op, bx, by));
      }
    } else if (IsSigned(loop)) {
      // Cast both operands to the loop type first (wrapping), as NumPy's casts do.
      uint8_t bx[8], by[8];
      StoreScalar(bx, loop, sx);
      StoreScalar(by, loop, sy);
      int64_t ix = LoadScalar(bx, loop).i, iy = LoadScalar(by, loop).i;
      r = cmp ? Scalar::Bool(CompareInt(op, ix, iy)) : Scalar::Int(ArithSigned(op, ix, iy));
    } else {
      uint8_t bx[8], by[8];
      StoreScalar(bx, loop, sx);
      StoreScalar(by, loop, sy);
      uint64_t ux = LoadScalar(bx, loop).u, uy = LoadScalar(by, loop).u;
      r = cmp ? Scalar::Bool(CompareInt(op, ux, uy)) : Scalar::UInt(ArithUnsigned(op, ux, uy));
    }
    StoreScalar(po + off[2], out_type, r);
  });
  return out;
}

NdArray Unary(UnaryOp op, const NdArray& a) {
  ScalarType t = a.dtype();
  ScalarType loop = t;
  if (op >= UnaryOp::Sqrt) loop = FloatLoopFor(t);
  if (op == UnaryOp::Neg && t == ScalarType::Bool) {
    throw NdError("TypeError", "The numpy boolean negative, the `-` operator, is not supported, "
                               "use the `~` operator or the logical_not function instead.");
  }
  if (op == UnaryOp::Invert && IsFloat(t)) UnsupportedTypes("invert");
  if (op == UnaryOp::Sign && t == ScalarType::Bool) UnsupportedTypes("sign");
  NdArray out = NdArray::Empty(a.shape(), loop);
  uint8_t *pa = NdAccess::Data(a), *po = NdAccess::Data(out);
  ForEachStrided(a.shape(), {a.strides(), out.strides()}, [&](const int64_t* off) {
    Scalar s = LoadScalar(pa + off[0], t);
    Scalar r = s;
    if (IsFloat(loop)) {
      double x = RoundToFloatType(s.AsDouble(), loop);
      float xf = static_cast<float>(x);
      bool in_float = ComputesInFloat(loop);
      switch (op) {
        case UnaryOp::Neg: r = Scalar::Float(-x); break;
        case UnaryOp::Pos: r = Scalar::Float(x); break;
        case UnaryOp::Abs: r = Scalar::Float(std::fabs(x)); break;
        case UnaryOp::Sign: r = Scalar::Float(x > 0 ? 1.0 : x < 0 ? -1.0 : x == 0 ? 0.0 : x); break;
        case UnaryOp::Invert: break;
        default: r = Scalar::Float(in_float ? FloatFunction(op, xf) : FloatFunction(op, x)); break;
      }
    } else if (loop == ScalarType::Bool) {
      if (op == UnaryOp::Invert) r = Scalar::Bool(!s.b);
    } else if (IsSigned(loop)) {
      uint64_t u = static_cast<uint64_t>(s.i);
      switch (op) {
        case UnaryOp::Neg: r = Scalar::Int(static_cast<int64_t>(0 - u)); break;
        case UnaryOp::Abs: r = Scalar::Int(s.i < 0 ? static_cast<int64_t>(0 - u) : s.i); break;
        case UnaryOp::Invert: r = Scalar::Int(~s.i); break;
        case UnaryOp::Sign: r = Scalar::Int(s.i > 0 ? 1 : s.i < 0 ? -1 : 0); break;
        default: break;
      }
    } else {
      switch (op) {
        case UnaryOp::Neg: r = Scalar::UInt(0 - s.u); break;
        case UnaryOp::Invert: r = Scalar::UInt(~s.u); break;
        case UnaryOp::Sign: r = Scalar::UInt(s.u > 0 ? 1 : 0); break;
        default: break;
      }
    }
    StoreScalar(po + off[1], loop, r);
  });
  return out;
}

// --- sum ---

namespace {

// NumPy's pairwise summation: blocks of up to 128 summed with eight accumulators.
template <class F> F PairwiseSum(const std::vector<F>& v, size_t begin, size_t n) {
  if (n < 8) {
    F res = 0;
    for (size_t i = 0; i < n; ++i) res += v[begin + i];
    return res;
  }
  if (n <= 128) {
    F r[8];
    for (int j = 0; j < 8; ++j) r[j] = v[begin + j];
    size_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int j = 0; j < 8; ++j) r[j] += v[begin + i + j];
    F res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += v[begin + i];
    return res;
  }
  size_t n2 = n / 2;
  n2 -= n2 % 8;
  return PairwiseSum(v, begin, n2) + PairwiseSum(v, begin + n2, n - n2);
}

// NumPy's reduction hands the add loop at most one buffer (8,192 elements) at a time; each
// call adds its chunk's pairwise sum to the running result.
constexpr size_t kReduceBuffer = 8192;

template <class F> F ChunkedPairwiseSum(const std::vector<F>& v) {
  F acc = 0;
  for (size_t begin = 0; begin < v.size(); begin += kReduceBuffer)
    acc += PairwiseSum(v, begin, std::min(kReduceBuffer, v.size() - begin));
  return acc;
}

// Sums `count` elements starting at `p` with byte stride `stride`, into dtype `out`.
Scalar SumRun(const uint8_t* p, int64_t count, int64_t stride, ScalarType in, ScalarType out,
              bool pairwise) {
  if (IsFloat(out)) {
    if (out == ScalarType::Float64) {
      std::vector<double> v(count);
      for (int64_t i = 0; i < count; ++i) v[i] = LoadFloat(p + i * stride, in);
      if (pairwise) return Scalar::Float(ChunkedPairwiseSum(v));
      double acc = 0.0;
      for (double x : v) acc += x;
      return Scalar::Float(acc);
    }
    std::vector<float> v(count);
    for (int64_t i = 0; i < count; ++i) v[i] = static_cast<float>(LoadFloat(p + i * stride, in));
    float acc = 0.0f;
    if (pairwise) {
      acc = ChunkedPairwiseSum(v);
    } else {
      // Without the pairwise loop each step stores back into the output dtype.
      for (float x : v) acc = static_cast<float>(RoundToFloatType(acc + x, out));
    }
    return Scalar::Float(acc);
  }
  uint64_t acc = 0;
  for (int64_t i = 0; i < count; ++i) acc += LoadScalar(p + i * stride, in).AsUInt();
  return IsSigned(out) ? Scalar::Int(static_cast<int64_t>(acc)) : Scalar::UInt(acc);
}

}  // namespace

ScalarType SumResultType(ScalarType t) {
  if (t == ScalarType::Bool) return ScalarType::Int64;
  if (IsInteger(t) && ScalarSize(t) < 8) return IsSigned(t) ? ScalarType::Int64 : ScalarType::UInt64;
  return t;
}

NdArray SumReduce(const NdArray& a, int ax, ScalarType out_type) {
  Shape out_shape;
  std::vector<int64_t> rest_strides;
  for (int k = 0; k < a.ndim(); ++k) {
    if (k == ax) continue;
    out_shape.push_back(a.shape()[k]);
    rest_strides.push_back(a.strides()[k]);
  }
  NdArray out = NdArray::Empty(out_shape, out_type);
  // Only a reduction over the innermost axis runs NumPy's pairwise loop; over an outer axis
  // the rows are added one after another.
  bool last = ax == a.ndim() - 1;
  const uint8_t* pa = NdAccess::Data(a);
  uint8_t* po = NdAccess::Data(out);
  ForEachStrided(out_shape, {rest_strides, out.strides()}, [&](const int64_t* off) {
    StoreScalar(po + off[1], out_type,
                SumRun(pa + off[0], a.shape()[ax], a.strides()[ax], a.dtype(), out_type, last));
  });
  return out;
}

NdArray NdArray::Sum(std::optional<int> axis) const {
  ScalarType out_type = SumResultType(dtype_);
  if (!axis) {
    NdArray flat = IsCContiguous() ? *this : Copy();
    return SumReduce(flat.Reshape({-1}), 0, out_type);
  }
  // NumPy lets a 0-d array reduce over axis 0 or -1, as if it had one length-1 axis.
  if (ndim() == 0 && (*axis == 0 || *axis == -1)) return Sum();
  return SumReduce(*this, NormalizeAxis(*axis, ndim()), out_type);
}

bool AllClose(const NdArray& a, const NdArray& b, double rtol, double atol, bool equal_nan) {
  NdArray close = IsClose(a, b, rtol, atol, equal_nan);
  for (int64_t i = 0, n = close.size(); i < n; ++i)
    if (!close.GetFlat(i).b) return false;
  return true;
}

bool ArrayEqual(const NdArray& a, const NdArray& b) {
  if (a.shape() != b.shape()) return false;
  NdArray eq = Binary(BinaryOp::Eq, a, b);
  for (int64_t i = 0, n = eq.size(); i < n; ++i)
    if (!eq.GetFlat(i).b) return false;
  return true;
}

}  // namespace tilec::host
