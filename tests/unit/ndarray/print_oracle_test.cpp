// Compares ArrayStr/ArrayRepr/FormatPythonFloat with NumPy itself: numpy_oracle.py writes
// arrays as raw bytes with NumPy's text, and every one must print identically here.
// Skips when /usr/bin/python3 or NumPy 1.x is not available.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "host/ndarray/print.h"
#include "tests/unit/ndarray/oracle_util.h"

namespace tilec::host {
namespace {

TEST(NumpyOracle, ArraysAndFloatsPrintLikeNumpy) {
  OracleFile oracle = GenerateOracle("print");
  if (!oracle.skip_reason.empty()) GTEST_SKIP() << oracle.skip_reason;
  std::ifstream in(oracle.path, std::ios::binary);
  ASSERT_TRUE(in) << oracle.path;
  int arrays = 0, floats = 0, failures = 0;
  std::string tag;
  while (in >> tag) {
    if (tag == "A") {
      std::string dtype_name, hex;
      int ndim = 0;
      in >> dtype_name >> ndim;
      Shape shape(ndim);
      for (int k = 0; k < ndim; ++k) in >> shape[k];
      in >> hex;
      std::string want_str = ReadBlock(in, "S");
      std::string want_repr = ReadBlock(in, "R");
      auto dtype = ScalarFromName(dtype_name);
      ASSERT_TRUE(dtype) << dtype_name;
      std::vector<uint8_t> bytes = FromHex(hex);
      NdArray a = NdArray::Empty(shape, *dtype);
      ASSERT_EQ(bytes.size(), a.size() * a.itemsize());
      if (!bytes.empty()) std::memcpy(a.data(), bytes.data(), bytes.size());
      std::string got_str = ArrayStr(a), got_repr = ArrayRepr(a);
      ++arrays;
      if (got_str != want_str || got_repr != want_repr) {
        if (++failures <= MaxReported()) {
          ADD_FAILURE() << "array #" << arrays << " dtype " << dtype_name << " shape "
                        << ShapeString(shape) << "\nstr: " << FirstDifference(want_str, got_str)
                        << "\nrepr: " << FirstDifference(want_repr, got_repr);
        }
      }
    } else if (tag == "P") {
      std::string hex;
      in >> hex;
      std::string want = ReadBlock(in, "S");
      std::vector<uint8_t> bytes = FromHex(hex);
      double v;
      std::memcpy(&v, bytes.data(), 8);
      ++floats;
      std::string got = FormatPythonFloat(v);
      if (got != want && ++failures <= MaxReported())
        ADD_FAILURE() << "repr(float) numpy/python: " << want << " ours: " << got;
    } else {
      FAIL() << "bad oracle tag " << tag;
    }
  }
  EXPECT_GE(arrays, 1000);
  EXPECT_GE(floats, 100);
  EXPECT_EQ(failures, 0) << "of " << arrays << " arrays and " << floats << " floats";
}

}  // namespace
}  // namespace tilec::host
