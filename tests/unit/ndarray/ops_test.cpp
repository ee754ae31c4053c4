// Element-wise operations: broadcasting, NumPy 1.24 promotion (Python scalars by value),
// integer/float semantics of // % ** and the reductions, against hand-computed results.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/unit/ndarray/test_util.h"

namespace tilec::host {
namespace {

using testing::Flat;
using testing::FromDoubles;
using testing::FromInts;
using testing::PyBool;
using testing::PyFloat;
using testing::PyInt;

ScalarType BinType(ScalarType a, const NdArray& b) {
  return Binary(BinaryOp::Add, NdArray::Ones({2}, a), b).dtype();
}

TEST(Promotion, ArraysWithArrays) {
  using T = ScalarType;
  EXPECT_EQ(PromoteTypes(T::Int8, T::UInt8), T::Int16);
  EXPECT_EQ(PromoteTypes(T::Int64, T::UInt64), T::Float64);
  EXPECT_EQ(PromoteTypes(T::UInt32, T::Int32), T::Int64);
  EXPECT_EQ(PromoteTypes(T::Int16, T::Float16), T::Float32);
  EXPECT_EQ(PromoteTypes(T::UInt8, T::Float16), T::Float16);
  EXPECT_EQ(PromoteTypes(T::Int32, T::Float32), T::Float64);
  EXPECT_EQ(PromoteTypes(T::Bool, T::Int8), T::Int8);
  EXPECT_EQ(PromoteTypes(T::Float16, T::BFloat16), T::Float32);
  EXPECT_EQ(PromoteTypes(T::Float32, T::Float64), T::Float64);
  EXPECT_EQ(BinType(T::Int8, NdArray::Ones({2}, T::Int64)), T::Int64);
}

TEST(Promotion, PythonScalarsAreWeak) {
  using T = ScalarType;
  EXPECT_EQ(BinType(T::Int32, PyFloat(1.5)), T::Float64);
  EXPECT_EQ(BinType(T::Int8, PyFloat(1.5)), T::Float64);
  EXPECT_EQ(BinType(T::Float32, PyFloat(0.1)), T::Float32);
  EXPECT_EQ(BinType(T::Float32, PyFloat(1e300)), T::Float64);
  EXPECT_EQ(BinType(T::Float32, PyFloat(INFINITY)), T::Float32);
  EXPECT_EQ(BinType(T::Float16, PyFloat(70000.0)), T::Float32);
  EXPECT_EQ(BinType(T::Int32, PyInt(5)), T::Int32);
  EXPECT_EQ(BinType(T::Int8, PyInt(127)), T::Int8);
  EXPECT_EQ(BinType(T::Int8, PyInt(128)), T::Int16);
  EXPECT_EQ(BinType(T::Int8, PyInt(-100)), T::Int8);
  EXPECT_EQ(BinType(T::UInt8, PyInt(-1)), T::Int16);
  EXPECT_EQ(BinType(T::UInt8, PyInt(100)), T::UInt8);
  EXPECT_EQ(BinType(T::UInt16, PyInt(-1)), T::Int32);
  EXPECT_EQ(BinType(T::Bool, PyInt(1)), T::Int64);
  EXPECT_EQ(BinType(T::Bool, PyBool(true)), T::Bool);
  EXPECT_EQ(BinType(T::Bool, PyFloat(1.5)), T::Float64);
  // Two scalars: plain promotion of their own dtypes.
  NdArray i8 = NdArray::FromScalar(Scalar::Int(5), T::Int8);
  EXPECT_EQ(Binary(BinaryOp::Add, i8, PyInt(5)).dtype(), T::Int64);
  EXPECT_EQ(Binary(BinaryOp::Add, i8, i8).dtype(), T::Int8);
  // The scalar is cast to the array's float32 before the add.
  NdArray f = Binary(BinaryOp::Add, NdArray::Zeros({1}, T::Float32), PyFloat(0.1));
  EXPECT_EQ(f.GetFlat(0).f, static_cast<double>(0.1f));
}

TEST(Promotion, LoopTypesOfDivisionAndMath) {
  using T = ScalarType;
  NdArray i8 = NdArray::Ones({2}, T::Int8);
  EXPECT_EQ(Binary(BinaryOp::TrueDiv, i8, i8).dtype(), T::Float64);
  EXPECT_EQ(Binary(BinaryOp::FloorDiv, NdArray::Ones({2}, T::Int32), PyInt(2)).dtype(), T::Int32);
  EXPECT_EQ(Binary(BinaryOp::TrueDiv, NdArray::Ones({2}, T::Float16), NdArray::Ones({2}, T::Float16)).dtype(), T::Float16);
  EXPECT_EQ(Unary(UnaryOp::Sqrt, i8).dtype(), T::Float16);
  EXPECT_EQ(Unary(UnaryOp::Exp, NdArray::Ones({2}, T::Int16)).dtype(), T::Float32);
  EXPECT_EQ(Unary(UnaryOp::Sqrt, NdArray::Ones({2}, T::Int32)).dtype(), T::Float64);
  EXPECT_EQ(Unary(UnaryOp::Abs, NdArray::Ones({2}, T::Bool)).dtype(), T::Bool);
  EXPECT_EQ(Binary(BinaryOp::Lt, i8, PyFloat(0.5)).dtype(), T::Bool);
}

TEST(Broadcasting, ShapesCombineOrFail) {
  EXPECT_EQ(BroadcastShapes({3, 1}, {4}), (Shape{3, 4}));
  EXPECT_EQ(BroadcastShapes({}, {2, 2}), (Shape{2, 2}));
  EXPECT_EQ(BroadcastShapes({5, 1, 3}, {4, 1}), (Shape{5, 4, 3}));
  try {
    BroadcastShapes({2, 3}, {4});
    FAIL();
  } catch (const NdError& e) {
    EXPECT_EQ(e.type(), "ValueError");
    EXPECT_EQ(e.message(), "operands could not be broadcast together with shapes (2,3) (4,) ");
  }
  NdArray col = FromInts({1, 2, 3}, {3, 1});
  NdArray row = FromInts({10, 20}, {2});
  NdArray sum = col + row;
  EXPECT_EQ(sum.shape(), (Shape{3, 2}));
  EXPECT_EQ(Flat(sum), (std::vector<double>{11, 21, 12, 22, 13, 23}));
  NdArray prod = Binary(BinaryOp::Mul, NdArray::Arange(6).Reshape({2, 3}), PyInt(2));
  EXPECT_EQ(Flat(prod), (std::vector<double>{0, 2, 4, 6, 8, 10}));
}

TEST(Arithmetic, IntegerSemantics) {
  NdArray a = FromInts({7, -7, 7, -7, 5}, {5});
  NdArray b = FromInts({2, 2, -2, -2, 0}, {5});
  EXPECT_EQ(Flat(Binary(BinaryOp::FloorDiv, a, b)), (std::vector<double>{3, -4, -4, 3, 0}));
  EXPECT_EQ(Flat(Binary(BinaryOp::Mod, a, b)), (std::vector<double>{1, 1, -1, -1, 0}));
  EXPECT_EQ(Flat(Binary(BinaryOp::Pow, FromInts({2, 3, -2}, {3}), FromInts({10, 0, 3}, {3}))),
            (std::vector<double>{1024, 1, -8}));
  EXPECT_THROW(Binary(BinaryOp::Pow, a, PyInt(-1)), NdError);
  NdArray i8 = FromInts({127, -128}, {2}, ScalarType::Int8);
  EXPECT_EQ(Flat(Binary(BinaryOp::Add, i8, PyInt(1))), (std::vector<double>{-128, -127}));
  EXPECT_EQ(Flat(Unary(UnaryOp::Neg, FromInts({1, 2}, {2}, ScalarType::UInt8))),
            (std::vector<double>{255, 254}));
  EXPECT_EQ(Flat(Unary(UnaryOp::Abs, i8)), (std::vector<double>{127, -128}));
  EXPECT_EQ(Flat(Binary(BinaryOp::TrueDiv, FromInts({1, -3}, {2}), PyInt(2))),
            (std::vector<double>{0.5, -1.5}));
  EXPECT_EQ(Flat(Binary(BinaryOp::And, FromInts({12, 10}, {2}), PyInt(6))),
            (std::vector<double>{4, 2}));
}

TEST(Arithmetic, FloatSemantics) {
  NdArray a = FromDoubles({5.0, -5.0, 5.0, 1.0, -0.0}, {5});
  NdArray b = FromDoubles({3.0, 3.0, -3.0, 0.0, 1.0}, {5});
  std::vector<double> mod = Flat(Binary(BinaryOp::Mod, a, b));
  EXPECT_EQ(mod[0], 2.0);
  EXPECT_EQ(mod[1], 1.0);
  EXPECT_EQ(mod[2], -1.0);
  EXPECT_TRUE(std::isnan(mod[3]));
  std::vector<double> fd = Flat(Binary(BinaryOp::FloorDiv, a, b));
  EXPECT_EQ(fd[1], -2.0);
  EXPECT_EQ(fd[2], -2.0);
  EXPECT_TRUE(std::isinf(fd[3]));
  std::vector<double> q = Flat(a / b);
  EXPECT_TRUE(std::isinf(q[3]));
  EXPECT_TRUE(std::signbit(q[4]));
  // float32 arithmetic rounds to float32 at each operation.
  NdArray f = FromDoubles({16777216.0}, {1}, ScalarType::Float32);
  EXPECT_EQ(Binary(BinaryOp::Add, f, PyFloat(1.0)).GetFlat(0).f, 16777216.0);
  EXPECT_EQ(Flat(Unary(UnaryOp::Sqrt, FromDoubles({4, 2}, {2}))),
            (std::vector<double>{2, std::sqrt(2.0)}));
  EXPECT_EQ(Unary(UnaryOp::Exp, FromDoubles({1}, {1}, ScalarType::Float32)).GetFlat(0).f,
            static_cast<double>(std::exp(1.0f)));
  EXPECT_EQ(Flat(Binary(BinaryOp::Pow, FromDoubles({2, 9}, {2}), PyFloat(0.5))),
            (std::vector<double>{std::sqrt(2.0), 3}));
}

TEST(Arithmetic, ComparisonsAndBools) {
  NdArray a = FromDoubles({1, NAN, 3}, {3});
  EXPECT_EQ(Flat(Binary(BinaryOp::Lt, a, PyInt(2))), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(Flat(Binary(BinaryOp::Ne, a, a)), (std::vector<double>{0, 1, 0}));
  EXPECT_EQ(Flat(Binary(BinaryOp::Ge, FromInts({-1}, {1}), FromInts({1}, {1}, ScalarType::UInt64))),
            (std::vector<double>{0}));
  NdArray t = FromInts({1, 1, 0, 0}, {4}, ScalarType::Bool);
  NdArray u = FromInts({1, 0, 1, 0}, {4}, ScalarType::Bool);
  EXPECT_EQ(Flat(Binary(BinaryOp::And, t, u)), (std::vector<double>{1, 0, 0, 0}));
  EXPECT_EQ(Flat(Binary(BinaryOp::Or, t, u)), (std::vector<double>{1, 1, 1, 0}));
  EXPECT_EQ(Binary(BinaryOp::Or, t, u).dtype(), ScalarType::Bool);
  EXPECT_EQ(Flat(Binary(BinaryOp::Add, t, u)), (std::vector<double>{1, 1, 1, 0}));
  EXPECT_EQ(Flat(Unary(UnaryOp::Invert, t)), (std::vector<double>{0, 0, 1, 1}));
  try {
    Binary(BinaryOp::Sub, t, u);
    FAIL();
  } catch (const NdError& e) {
    EXPECT_EQ(e.type(), "TypeError");
  }
  EXPECT_THROW(Unary(UnaryOp::Neg, t), NdError);
  EXPECT_THROW(Binary(BinaryOp::And, a, a), NdError);
}

TEST(Reductions, SumTypesAndAxes) {
  NdArray a = NdArray::Arange(6).Reshape({2, 3});
  EXPECT_EQ(a.Sum().Item().i, 15);
  EXPECT_EQ(a.Sum().ndim(), 0);
  EXPECT_EQ(Flat(a.Sum(0)), (std::vector<double>{3, 5, 7}));
  EXPECT_EQ(Flat(a.Sum(1)), (std::vector<double>{3, 12}));
  EXPECT_EQ(Flat(a.Sum(-1)), (std::vector<double>{3, 12}));
  EXPECT_EQ(a.Transpose().Sum(0).shape(), (Shape{2}));
  EXPECT_THROW(a.Sum(2), NdError);
  EXPECT_EQ(NdArray::Ones({3}, ScalarType::Int8).Sum().dtype(), ScalarType::Int64);
  EXPECT_EQ(NdArray::Ones({3}, ScalarType::UInt16).Sum().dtype(), ScalarType::UInt64);
  EXPECT_EQ(NdArray::Ones({3}, ScalarType::Bool).Sum().Item().i, 3);
  EXPECT_EQ(NdArray::Ones({3}, ScalarType::Float16).Sum().dtype(), ScalarType::Float16);
  EXPECT_EQ(NdArray::Zeros({0}).Sum().Item().f, 0.0);
  // float32 sums accumulate in float32: 2^24 + 1 is lost, as in NumPy.
  NdArray f = FromDoubles({16777216.0, 1.0}, {2}, ScalarType::Float32);
  EXPECT_EQ(f.Sum().Item().f, 16777216.0);
  // Pairwise summation: 1e16 + (eight 1.0s in other lanes) differs from a running sum.
  std::vector<double> v(16, 1.0);
  v[0] = 1e16;
  double pairwise = FromDoubles(v, {16}).Sum().Item().f;
  EXPECT_EQ(pairwise, 1e16 + 16.0 - 2.0);  // lane 0 loses its second 1.0; lanes 1..7 keep theirs
}

TEST(Reductions, AllCloseAndArrayEqual) {
  NdArray a = FromDoubles({1.0, 2.0}, {2});
  NdArray b = FromDoubles({1.0 + 1e-6, 2.0}, {2});
  EXPECT_TRUE(AllClose(a, b));
  EXPECT_FALSE(AllClose(a, FromDoubles({1.001, 2.0}, {2})));
  EXPECT_TRUE(AllClose(a, FromDoubles({1.0}, {1})) == false);
  EXPECT_TRUE(AllClose(FromDoubles({0.0}, {1}), FromDoubles({1e-9}, {1})));
  EXPECT_FALSE(AllClose(FromDoubles({NAN}, {1}), FromDoubles({NAN}, {1})));
  EXPECT_TRUE(AllClose(FromDoubles({NAN, INFINITY}, {2}), FromDoubles({NAN, INFINITY}, {2}), 1e-5,
                       1e-8, true));
  EXPECT_TRUE(ArrayEqual(FromInts({1, 2}, {2}), FromDoubles({1, 2}, {2})));
  EXPECT_FALSE(ArrayEqual(FromInts({1, 2}, {2}), FromInts({1, 2}, {1, 2})));
  EXPECT_FALSE(ArrayEqual(FromDoubles({NAN}, {1}), FromDoubles({NAN}, {1})));
}

}  // namespace
}  // namespace tilec::host
