// The interpreter's array-like values: NumPy arrays and scalars (NdArrayObj), dtype objects
// shared by `np` and `wp`, and conversions between them and Python values.
#pragma once
#include <optional>
#include <string>

#include "host/interp/value.h"
#include "host/ndarray/ndarray.h"
#include "support/dtype.h"

namespace tilec::host {

// A dtype as the host sees it: `np.float32` (a NumPy scalar type, callable), `x.dtype`
// (a numpy.dtype, prints `float32`), or `wp.float32` (a Warp scalar type).
struct DTypeObj : Object {
  enum class Flavor : uint8_t { NpType, NpDtype, WpType };
  DTypeObj(ScalarType t, Flavor f) : type(t), flavor(f) {}
  std::string TypeName() const override;
  std::string Repr() const override;
  std::string Str() const override;
  bool Callable() const override { return flavor != Flavor::NpDtype; }
  Value Call(Interpreter& in, CallArgs& args) override;
  std::optional<Value> CmpOp(Interpreter& in, ast::CmpOp op, const Value& other, bool reflected) override;
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  ScalarType type;
  Flavor flavor;
};

// numpy.ndarray, or a NumPy scalar (np.float32(1.5), x[0], x.sum()) when `scalar`.
struct NdArrayObj : Object {
  NdArrayObj(NdArray a, bool scalar) : a(std::move(a)), scalar(scalar) {}
  std::string TypeName() const override;
  std::string Repr() const override;
  std::string Str() const override;
  bool Truth() const override;
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  Value GetItem(Interpreter& in, const Value& key) override;
  void SetItem(Interpreter& in, const Value& key, const Value& v) override;
  std::optional<int64_t> Len() const override;
  std::optional<std::vector<Value>> Iterate(Interpreter& in) override;
  std::optional<int64_t> AsIndex() const override;
  std::optional<Value> AsScalar() const override;
  std::optional<Value> BinOp(Interpreter& in, ast::BinaryOp op, const Value& other, bool reflected) override;
  std::optional<Value> CmpOp(Interpreter& in, ast::CmpOp op, const Value& other, bool reflected) override;
  std::optional<Value> UnaryOp(Interpreter& in, ast::UnaryOp op) override;
  bool InplaceOp(Interpreter& in, ast::BinaryOp op, const Value& other) override;
  NdArray a;
  bool scalar;
};

// A complex NumPy array (complex64 / complex128), or a complex scalar when `scalar`: `parts` is
// a float32 / float64 array whose last axis (length 2) holds (real, imaginary). np_complex.cpp.
struct ComplexArrayObj : Object {
  ComplexArrayObj(NdArray parts, bool scalar) : parts(std::move(parts)), scalar(scalar) {}
  std::string TypeName() const override;
  std::string Repr() const override;
  std::string Str() const override;
  bool Truth() const override;
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  Value GetItem(Interpreter& in, const Value& key) override;
  void SetItem(Interpreter& in, const Value& key, const Value& v) override;
  std::optional<int64_t> Len() const override;
  std::optional<std::vector<Value>> Iterate(Interpreter& in) override;
  std::optional<Value> BinOp(Interpreter& in, ast::BinaryOp op, const Value& other, bool reflected) override;
  std::optional<Value> CmpOp(Interpreter& in, ast::CmpOp op, const Value& other, bool reflected) override;
  std::optional<Value> UnaryOp(Interpreter& in, ast::UnaryOp op) override;
  bool InplaceOp(Interpreter& in, ast::BinaryOp op, const Value& other) override;
  NdArray parts;
  bool scalar;
};

// A Python complex number (`2j`, `1 + 2j`): a complex128 scalar, as NumPy meets it.
Value ComplexScalar(double re, double im);

// np.complex64 / np.complex128 (callable scalar types), or when `dtype` their numpy.dtype.
struct ComplexTypeObj : Object {
  explicit ComplexTypeObj(ScalarType part) : part(part) {}
  std::string TypeName() const override;
  std::string Repr() const override;
  std::string Str() const override;
  bool Callable() const override { return !dtype; }
  Value Call(Interpreter& in, CallArgs& args) override;
  std::optional<Value> CmpOp(Interpreter& in, ast::CmpOp op, const Value& other, bool reflected) override;
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  ScalarType part;  // float32 for complex64, float64 for complex128
  bool dtype = false;
};

// The parts of a complex array value; nullopt for anything else.
std::optional<NdArray> ComplexParts(const Value& v);
// x.view(dtype) of a real array: another real dtype, or a complex one.
Value NdArrayView(const NdArray& a, const Value& dtype);
// np.complex64 / complex128, np.real / imag / conj, complex np.abs, np.fft (np_complex.cpp).
void DefineNumpyComplex(ModuleObj& np);

// A subscript key (`x[1, :, None]`, index arrays, masks) as the ndarray's index items.
std::vector<IndexItem> IndexKeyItems(Interpreter& in, const Value& key);

// Wraps an ndarray result: 0-d results of operations become NumPy scalars, as in NumPy.
Value WrapNd(NdArray a, bool zero_d_is_scalar = true);
// A Python value (number, nested list/tuple, ndarray, wp array) as an ndarray; TypeError
// naming `context` for anything else.
NdArray ToNdArray(Interpreter& in, const Value& v, const std::string& context,
                  std::optional<ScalarType> dtype = std::nullopt);
// A scalar Value (Python number or NumPy scalar) as an ndarray Scalar; nullopt otherwise.
std::optional<Scalar> ToNdScalar(const Value& v);
Value NestedToValue(const Nested& n);
// A NumPy scalar element as a Python value (bool, int or float).
Value ScalarToValue(const Scalar& s);
// `dtype=` arguments: dtype objects, `float`/`int`/`bool` (NumPy: float64/int64; Warp:
// float32/int32) and names. TypeError for anything else.
ScalarType DTypeArg(const Value& v, bool warp, const std::string& context);
// A shape argument: an int or a tuple/list of ints.
Shape ShapeArg(const Value& v, const std::string& context);
Value ShapeTuple(const Shape& s);
// A reshape target: an int or a tuple/list of ints, where one entry may be -1.
Shape ReshapeArg(const Value& v);
// x.reshape(...)'s arguments: one shape, the extents as arguments, or `shape=`.
Shape ReshapeArgs(const CallArgs& args);
// The `axis=` argument at `idx` of a binder: None or absent gives nullopt.
class ArgBinder;
std::optional<int> AxisArg(const ArgBinder& b, size_t idx);
// a.sum(axis, dtype, keepdims) from binder slot `idx` on: all elements (None or absent), one
// axis, or a tuple of axes.
NdArray SumOverAxes(const NdArray& a, const ArgBinder& b, size_t idx);

// Adds np.linalg, np.testing and np.cross to the numpy module (np_linalg.cpp).
void DefineNumpyLinalgAndTesting(ModuleObj& np);

// np.matmul / `@` for 1-D and 2-D operands (NumPy's rules for promoting 1-D ones).
NdArray MatMulNd(const NdArray& a, const NdArray& b);

// A `warp.array` value as a NumPy array (what `a.numpy()` gives); nullopt for other values.
std::optional<NdArray> WpArrayToNd(const Value& v);

// NumPy's printing (str and repr) of arrays and scalars; glue to host/ndarray's printer.
std::string NdStr(const NdArray& a, bool scalar);
std::string NdRepr(const NdArray& a, bool scalar);

}  // namespace tilec::host
