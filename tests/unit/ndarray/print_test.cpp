// Hand-written NumPy 1.24 print expectations for the cases the language docs rely on; the
// broad comparison against NumPy itself is print_oracle_test.cpp.
#include <gtest/gtest.h>

#include <cmath>

#include "host/ndarray/print.h"
#include "tests/unit/ndarray/test_util.h"

namespace tilec::host {
namespace {

using testing::FromDoubles;
using testing::FromInts;

TEST(Print, FloatArrays) {
  EXPECT_EQ(ArrayStr(FromDoubles({1, 2}, {2})), "[1. 2.]");
  EXPECT_EQ(ArrayStr(FromDoubles({1, 2.5}, {2})), "[1.  2.5]");
  EXPECT_EQ(ArrayStr(FromDoubles({0.1, -0.0}, {2})), "[ 0.1 -0. ]");
  EXPECT_EQ(ArrayStr(FromDoubles({1.0 / 3}, {1})), "[0.33333333]");
  EXPECT_EQ(ArrayStr(FromDoubles({1e-5, 1}, {2})), "[1.e-05 1.e+00]");
  EXPECT_EQ(ArrayStr(FromDoubles({1.5e-5, 1e10}, {2})), "[1.5e-05 1.0e+10]");
  EXPECT_EQ(ArrayStr(FromDoubles({1e100, 1}, {2})), "[1.e+100 1.e+000]");
  EXPECT_EQ(ArrayStr(FromDoubles({NAN, 1.5, -INFINITY}, {3})), "[ nan  1.5 -inf]");
  EXPECT_EQ(ArrayStr(FromDoubles({0.1}, {1}, ScalarType::Float32)), "[0.1]");
  EXPECT_EQ(ArrayStr(FromDoubles({65504}, {1}, ScalarType::Float16)), "[65504.]");
  EXPECT_EQ(ArrayStr(FromDoubles({1, 2, 3, 4}, {2, 2})), "[[1. 2.]\n [3. 4.]]");
  // bfloat16 (not in NumPy) prints with the shortest digits of its own 8-bit mantissa.
  NdArray bf = FromDoubles({0.1, 3.0}, {2}, ScalarType::BFloat16);
  EXPECT_EQ(ArrayStr(bf), "[0.1 3. ]");
  EXPECT_EQ(ArrayRepr(bf), "array([0.1, 3. ], dtype=bfloat16)");
}

TEST(Print, IntegerBoolAndEmpty) {
  EXPECT_EQ(ArrayStr(FromInts({1, -20, 300}, {3})), "[  1 -20 300]");
  EXPECT_EQ(ArrayStr(FromInts({1, 0}, {2}, ScalarType::Bool)), "[ True False]");
  EXPECT_EQ(ArrayStr(NdArray::Zeros({0})), "[]");
  EXPECT_EQ(ArrayStr(NdArray::Zeros({0, 3})), "[]");
  EXPECT_EQ(ArrayRepr(NdArray::Zeros({0, 3})), "array([], shape=(0, 3), dtype=float64)");
  EXPECT_EQ(ArrayRepr(NdArray::Zeros({0}, ScalarType::Int32)), "array([], dtype=int32)");
  EXPECT_EQ(ArrayStr(NdArray::Arange(8).Reshape({2, 2, 2})),
            "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]");
}

TEST(Print, ZeroDimensionalAndScalars) {
  EXPECT_EQ(ArrayStr(FromDoubles({1.0}, {})), "1.0");
  EXPECT_EQ(ArrayRepr(FromDoubles({1.0}, {})), "array(1.)");
  EXPECT_EQ(ArrayStr(FromInts({1}, {}, ScalarType::Bool)), "True");
  EXPECT_EQ(ArrayRepr(FromDoubles({1.5}, {}, ScalarType::Float32)), "array(1.5, dtype=float32)");
  EXPECT_EQ(NumpyScalarStr(Scalar::Float(0.1f), ScalarType::Float32), "0.1");
  EXPECT_EQ(NumpyScalarStr(Scalar::Float(1.5), ScalarType::Float32), "1.5");
  EXPECT_EQ(NumpyScalarStr(Scalar::Float(65504), ScalarType::Float16), "65500.0");
  EXPECT_EQ(NumpyScalarStr(Scalar::Float(1e16), ScalarType::Float64), "1e+16");
  EXPECT_EQ(NumpyScalarStr(Scalar::Int(-3), ScalarType::Int8), "-3");
  EXPECT_EQ(FormatPythonFloat(0.1), "0.1");
  EXPECT_EQ(FormatPythonFloat(1.0), "1.0");
  EXPECT_EQ(FormatPythonFloat(-0.0), "-0.0");
  EXPECT_EQ(FormatPythonFloat(1e16), "1e+16");
  EXPECT_EQ(FormatPythonFloat(1e15), "1000000000000000.0");
  EXPECT_EQ(FormatPythonFloat(1e-5), "1e-05");
  EXPECT_EQ(FormatPythonFloat(0.0001), "0.0001");
  EXPECT_EQ(FormatPythonFloat(1.5e300), "1.5e+300");
  EXPECT_EQ(FormatPythonFloat(INFINITY), "inf");
  EXPECT_EQ(FormatPythonFloat(NAN), "nan");
}

TEST(Print, ReprWrapsAndSummarizes) {
  EXPECT_EQ(ArrayRepr(FromDoubles({1, 2}, {2}, ScalarType::Float32)),
            "array([1., 2.], dtype=float32)");
  EXPECT_EQ(ArrayRepr(NdArray::Arange(4).Reshape({2, 2})), "array([[0, 1],\n       [2, 3]])");
  // 30 three-wide ints: "[" + 30 * 3 chars + separators exceeds 75 columns.
  std::string s = ArrayStr(NdArray::Arange(Scalar::Int(100), Scalar::Int(130), Scalar::Int(1)));
  EXPECT_EQ(s,
            "[100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117\n"
            " 118 119 120 121 122 123 124 125 126 127 128 129]");
  EXPECT_EQ(ArrayStr(NdArray::Arange(2000)), "[   0    1    2 ... 1997 1998 1999]");
  EXPECT_EQ(ArrayRepr(NdArray::Arange(2000)), "array([   0,    1,    2, ..., 1997, 1998, 1999])");
}

}  // namespace
}  // namespace tilec::host
