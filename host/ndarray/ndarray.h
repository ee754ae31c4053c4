// The host interpreter's NumPy-like n-dimensional array: typed, strided, shared buffers (views
// share data), NumPy 1.24 casting and type promotion, basic indexing, broadcasting arithmetic.
// Printing lives in print.h. Errors are thrown as NdError carrying a Python exception type.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/dtype.h"

namespace tilec::host {

using Shape = std::vector<int64_t>;

// A failure NumPy reports as a Python exception: type() is "ValueError", "IndexError",
// "TypeError" or "ZeroDivisionError"; message() is NumPy's text.
class NdError : public std::runtime_error {
 public:
  NdError(std::string type, const std::string& message)
      : std::runtime_error(message), type_(std::move(type)) {}
  const std::string& type() const { return type_; }
  std::string message() const { return what(); }

 private:
  std::string type_;
};

// One element value, as NumPy scalars behave: its kind decides how it casts.
struct Scalar {
  enum class Kind : uint8_t { Bool, Int, UInt, Float };
  Kind kind = Kind::Float;
  bool b = false;
  int64_t i = 0;
  uint64_t u = 0;
  double f = 0.0;

  static Scalar Bool(bool v) { Scalar s; s.kind = Kind::Bool; s.b = v; return s; }
  static Scalar Int(int64_t v) { Scalar s; s.kind = Kind::Int; s.i = v; return s; }
  static Scalar UInt(uint64_t v) { Scalar s; s.kind = Kind::UInt; s.u = v; return s; }
  static Scalar Float(double v) { Scalar s; s.kind = Kind::Float; s.f = v; return s; }
  // C casts as NumPy does them: float to int truncates, anything to bool is `!= 0`.
  double AsDouble() const;
  int64_t AsInt() const;
  uint64_t AsUInt() const;
  bool AsBool() const;
};

class NdArray;

// A Python value crossing the array API: scalars, (nested) lists, or an array. np.array()
// takes one, tolist() and Item() give one back.
struct Nested {
  enum class Kind : uint8_t { Bool, Int, UInt, Float, List, Array };
  Kind kind = Kind::List;
  Scalar scalar;                            // Bool, Int, UInt, Float
  std::vector<Nested> items;                // List (a Python list or tuple)
  std::shared_ptr<const NdArray> array;     // Array

  static Nested FromScalar(const Scalar& s);
  static Nested Bool(bool v) { return FromScalar(Scalar::Bool(v)); }
  static Nested Int(int64_t v) { return FromScalar(Scalar::Int(v)); }
  static Nested Float(double v) { return FromScalar(Scalar::Float(v)); }
  static Nested List(std::vector<Nested> items);
  static Nested Array(const NdArray& a);
};

// One entry of a subscript `x[...]`: an integer, a slice, `None` (np.newaxis), `...`, or an
// integer or boolean array (advanced indexing; a Python list in the key arrives as one).
struct IndexItem {
  enum class Kind : uint8_t { Int, Slice, NewAxis, Ellipsis, Array };
  Kind kind = Kind::Int;
  int64_t index = 0;
  std::optional<int64_t> start, stop, step;
  std::shared_ptr<const NdArray> array;  // Array: any integer dtype, or bool (a mask)

  static IndexItem At(int64_t i) { IndexItem it; it.index = i; return it; }
  static IndexItem Range(std::optional<int64_t> start = std::nullopt,
                         std::optional<int64_t> stop = std::nullopt,
                         std::optional<int64_t> step = std::nullopt);
  static IndexItem NewAxis() { IndexItem it; it.kind = Kind::NewAxis; return it; }
  static IndexItem All() { return Range(); }
  static IndexItem Dots() { IndexItem it; it.kind = Kind::Ellipsis; return it; }
  static IndexItem Take(const NdArray& indices);
};

class NdArray {
 public:
  // A 0-d float64 zero; arrays are normally made by the factories below.
  NdArray();
  // Wraps memory owned elsewhere (a runtime array): `data` points at element [0,...,0],
  // `byte_strides` may be empty for C order, and `keep_alive` holds the owner.
  NdArray(ScalarType dtype, Shape shape, std::vector<int64_t> byte_strides, void* data,
          std::shared_ptr<void> keep_alive);

  // --- factories (np.*) ---
  static NdArray Empty(const Shape& shape, ScalarType dtype = ScalarType::Float64);
  static NdArray Zeros(const Shape& shape, ScalarType dtype = ScalarType::Float64);
  static NdArray Ones(const Shape& shape, ScalarType dtype = ScalarType::Float64);
  // np.full: without a dtype, the fill value's own (bool, int64 or float64).
  static NdArray Full(const Shape& shape, const Scalar& value,
                      std::optional<ScalarType> dtype = std::nullopt);
  // A 0-d array holding a Python scalar: bool, int64 or float64.
  static NdArray FromScalar(const Scalar& value);
  static NdArray FromScalar(const Scalar& value, ScalarType dtype);
  // np.array(obj, dtype): infers shape from nesting and dtype like NumPy (bools -> bool,
  // ints -> int64, any float -> float64, arrays keep theirs); always copies.
  static NdArray FromNested(const Nested& value, std::optional<ScalarType> dtype = std::nullopt);
  // np.arange(start, stop, step, dtype); the dtype defaults from the argument kinds.
  static NdArray Arange(const Scalar& start, const Scalar& stop, const Scalar& step,
                        std::optional<ScalarType> dtype = std::nullopt);
  static NdArray Arange(int64_t stop) {
    return Arange(Scalar::Int(0), Scalar::Int(stop), Scalar::Int(1));
  }
  static NdArray Linspace(double start, double stop, int64_t num = 50, bool endpoint = true,
                          std::optional<ScalarType> dtype = std::nullopt);

  // --- attributes ---
  ScalarType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  const std::vector<int64_t>& strides() const { return strides_; }  // in bytes
  int ndim() const { return static_cast<int>(shape_.size()); }
  int64_t size() const;
  size_t itemsize() const { return ScalarSize(dtype_); }
  void* data() const { return data_; }  // element [0,...,0]
  const std::shared_ptr<void>& owner() const { return owner_; }
  bool IsCContiguous() const;
  // True when both arrays see the same buffer (a view of the other or of a common base).
  bool SharesBufferWith(const NdArray& other) const { return owner_ == other.owner_; }

  // --- elements (multi-index, negative entries count from the end) ---
  Scalar Get(std::span<const int64_t> index) const;
  void Set(std::span<const int64_t> index, const Scalar& value);
  double GetDouble(std::span<const int64_t> index) const { return Get(index).AsDouble(); }
  int64_t GetInt(std::span<const int64_t> index) const { return Get(index).AsInt(); }
  bool GetBool(std::span<const int64_t> index) const { return Get(index).AsBool(); }
  // Element `flat` in C order, for any strides.
  Scalar GetFlat(int64_t flat) const;
  void SetFlat(int64_t flat, const Scalar& value);
  // The value of a one-element array (x.item()); ValueError otherwise.
  Scalar Item() const;

  // --- shape and type ---
  // A view when C-contiguous, else a copy; one entry may be -1.
  NdArray Reshape(const Shape& shape) const;
  NdArray Transpose() const;  // x.T, a view
  NdArray AsType(ScalarType dtype) const;  // always a new C-ordered array
  NdArray Copy() const;
  // View with the given shape where this broadcasts to it (strides 0); ValueError otherwise.
  NdArray BroadcastTo(const Shape& shape) const;
  Nested ToList() const;  // tolist(): Python scalars, lists for each axis

  // --- indexing ---
  // Basic indexing: always a view (0-d when every axis got an integer). No Array items.
  NdArray Index(std::span<const IndexItem> items) const;
  // True when `items` holds an Array item, which makes `x[items]` advanced indexing.
  static bool IsAdvanced(std::span<const IndexItem> items);
  // `x[items]` by NumPy's rules: Index() for basic keys, else a new array (advanced indexing,
  // where integers in the key count as 0-d index arrays).
  NdArray Select(std::span<const IndexItem> items) const;
  // `x[items] = value`: value broadcasts to the selection and casts to this dtype; with an
  // advanced key, elements selected twice keep the last value written.
  void Assign(std::span<const IndexItem> items, const NdArray& value);
  void Assign(std::span<const IndexItem> items, const Scalar& value);
  // Writes `value` (broadcast, cast) into every element of this array or view.
  void CopyFrom(const NdArray& value);
  void Fill(const Scalar& value);

  // --- reductions ---
  // np.sum / x.sum(axis): bools and small ints sum as int64 (unsigned as uint64).
  NdArray Sum(std::optional<int> axis = std::nullopt) const;

 private:
  uint8_t* ElementPtr(std::span<const int64_t> index) const;
  uint8_t* FlatPtr(int64_t flat) const;

  ScalarType dtype_ = ScalarType::Float64;
  Shape shape_;
  std::vector<int64_t> strides_;
  uint8_t* data_ = nullptr;
  std::shared_ptr<void> owner_;

  friend class NdAccess;
};

// --- element-wise operations (NumPy ufunc semantics, legacy value-based promotion: a 0-d
//     array, which is what a Python scalar becomes, promotes by its value) ---
enum class BinaryOp : uint8_t {
  Add, Sub, Mul, TrueDiv, FloorDiv, Mod, Pow,
  Eq, Ne, Lt, Le, Gt, Ge,
  And, Or, Xor,  // & | ^ (bools and integers)
};
// Sqrt and the ops after it are NumPy's float ufuncs: integer input runs the smallest float
// loop that holds it, float16 computes in float32.
enum class UnaryOp : uint8_t {
  Neg, Pos, Abs, Invert, Sign,
  Sqrt, Exp, Log, Log2, Log10, Sin, Cos, Tan, Arcsin, Arccos, Arctan, Rint, Floor, Ceil,
  Trunc, Sinh, Cosh, Tanh, Arcsinh, Arccosh, Arctanh, Expm1, Log1p, Cbrt,
};

NdArray Binary(BinaryOp op, const NdArray& a, const NdArray& b);
NdArray Unary(UnaryOp op, const NdArray& a);
// np.result_type of the operands (0-d ones by value when an n-d array is present).
ScalarType ResultType(std::span<const NdArray* const> operands);
// NumPy's promote_types table (bfloat16 promotes like float16, and with it to float32).
ScalarType PromoteTypes(ScalarType a, ScalarType b);
Shape BroadcastShapes(const Shape& a, const Shape& b);  // ValueError when incompatible

// np.allclose(a, b, rtol, atol): np.isclose everywhere.
bool AllClose(const NdArray& a, const NdArray& b, double rtol = 1e-5, double atol = 1e-8,
              bool equal_nan = false);
// np.array_equal: same shape and equal elements.
bool ArrayEqual(const NdArray& a, const NdArray& b);

// --- NumPy functions (ndarray_funcs.cpp); axes may be negative, numpy.AxisError otherwise ---
int NormalizeAxis(int axis, int ndim);
// np.round(a, decimals): multiply by 10**decimals, rint (half to even), divide, all in the
// array's dtype; integers come back unchanged for decimals >= 0, else go through float64.
NdArray Round(const NdArray& a, int64_t decimals);
enum class Reduction : uint8_t { Max, Min, ArgMax, ArgMin };
// np.max/min (dtype kept, NaN propagates) and np.argmax/argmin (int64, first hit); axis None
// reduces the flattened array.
NdArray Reduce(Reduction kind, const NdArray& a, std::optional<int> axis);
// np.mean, np.var, np.std with NumPy's accumulator dtypes (float64 for integers, float32 for
// float16) and its order of operations.
NdArray Mean(const NdArray& a, std::optional<int> axis);
NdArray Var(const NdArray& a, std::optional<int> axis, int64_t ddof = 0);
NdArray Std(const NdArray& a, std::optional<int> axis, int64_t ddof = 0);
NdArray CumSum(const NdArray& a, std::optional<int> axis);
// np.where(cond, x, y) with broadcasting; np.nonzero (what np.where(cond) returns).
NdArray Where(const NdArray& cond, const NdArray& x, const NdArray& y);
std::vector<NdArray> NonZero(const NdArray& a);
// np.clip; one bound may be absent (np.minimum / np.maximum then).
NdArray Clip(const NdArray& a, const std::optional<NdArray>& lo, const std::optional<NdArray>& hi);
// np.concatenate (axis None: flattened first) and np.stack.
NdArray Concatenate(std::span<const NdArray> arrays, std::optional<int> axis);
NdArray Stack(std::span<const NdArray> arrays, int axis);
// np.sort / np.argsort along an axis (None: flattened), NaNs last; argsort orders equal
// elements as NumPy's default quicksort does.
NdArray Sort(const NdArray& a, std::optional<int> axis);
NdArray ArgSort(const NdArray& a, std::optional<int> axis);
// np.isclose element-wise (a bool array, 0-d for scalars).
NdArray IsClose(const NdArray& a, const NdArray& b, double rtol = 1e-5, double atol = 1e-8,
                bool equal_nan = false);
// np.eye(n, m, k, dtype).
NdArray Eye(int64_t n, int64_t m, int64_t k, ScalarType dtype);

// np.prod / x.prod: sequential products in the accumulator dtype (`dtype`, else the dtype's
// own, with bools and small integers widened to 64 bits as np.sum does); 1 for empty lanes.
NdArray Prod(const NdArray& a, std::optional<int> axis, std::optional<ScalarType> dtype = std::nullopt);

// --- shape functions (ndarray_shape.cpp); results are new C-ordered arrays unless noted ---
// np.tile: `reps` and the array's shape are padded with leading 1s to the same length.
NdArray Tile(const NdArray& a, const Shape& reps);
// np.repeat: element i along `axis` (None: of the flattened array) repeated repeats[i]
// times; a single entry applies to every element.
NdArray Repeat(const NdArray& a, std::span<const int64_t> repeats, std::optional<int> axis);
// np.roll: shifts[k] along axes[k] (the pairs broadcast); no axes rolls the flattened array.
NdArray Roll(const NdArray& a, std::span<const int64_t> shifts, std::span<const int> axes);
// x.transpose(axes): a view with the axes in the order given (each once; negative ones count
// from the end).
NdArray PermuteAxes(const NdArray& a, std::span<const int> axes);
// np.flip over `axes` (every axis when absent): a view with negated strides.
NdArray Flip(const NdArray& a, const std::optional<std::vector<int>>& axes);
// np.expand_dims: a view with a length-1 axis at each of `axes` (positions in the result).
NdArray ExpandDims(const NdArray& a, std::span<const int> axes);
// np.outer: the flattened operands' products, one row per element of `a`.
NdArray Outer(const NdArray& a, const NdArray& b);
// np.asfortranarray: `a` itself when already Fortran-contiguous (and at least 1-D), else a
// Fortran-ordered copy; a 0-d array becomes 1-D.
NdArray AsFortran(const NdArray& a);
bool IsFContiguous(const NdArray& a);
// Normalizes each axis against `ndim`; ValueError "repeated axis" when one appears twice.
std::vector<int> NormalizeAxes(std::span<const int> axes, int ndim);

// --- ufunc extras (ndarray_ufuncs.cpp) ---
enum class Extremum : uint8_t { Minimum, Maximum, FMin, FMax };  // fmin/fmax skip NaNs
// np.fmin / np.fmax (and np.minimum / np.maximum) element-wise with broadcasting.
NdArray Extreme(Extremum kind, const NdArray& a, const NdArray& b);
// np.minimum.accumulate and friends along `axis` (the dtype is kept).
NdArray Accumulate(Extremum kind, const NdArray& a, int axis);
enum class FloatTest : uint8_t { IsNan, IsFinite, IsInf };
// np.isnan / np.isfinite / np.isinf: a bool array (integers and bools are always finite).
NdArray TestFloat(FloatTest test, const NdArray& a);
// np.add.at(a, items, b): a[items] += b unbuffered, so that repeated indices accumulate;
// the sums run in the ufunc's loop dtype and are cast back unsafely, as NumPy 1.24 does.
void AddAt(NdArray& a, std::span<const IndexItem> items, const NdArray& b);

// NumPy's name of a dtype ("float32", "bool"), as repr prints it.
std::string DtypeName(ScalarType t);
// Python's `(2, 3)` / `(4,)` spelling of a shape.
std::string ShapeString(const Shape& shape);

inline NdArray operator+(const NdArray& a, const NdArray& b) { return Binary(BinaryOp::Add, a, b); }
inline NdArray operator-(const NdArray& a, const NdArray& b) { return Binary(BinaryOp::Sub, a, b); }
inline NdArray operator*(const NdArray& a, const NdArray& b) { return Binary(BinaryOp::Mul, a, b); }
inline NdArray operator/(const NdArray& a, const NdArray& b) { return Binary(BinaryOp::TrueDiv, a, b); }
inline NdArray operator-(const NdArray& a) { return Unary(UnaryOp::Neg, a); }

}  // namespace tilec::host
