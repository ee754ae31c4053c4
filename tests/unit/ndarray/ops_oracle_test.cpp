// Compares element-wise operations, their result dtypes (NumPy 1.24 value-based promotion of
// 0-d operands) and sums with NumPy, operand by operand, from numpy_oracle.py's `ops` records.
// Skips when /usr/bin/python3 or NumPy 1.x is not available.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>

#include "host/ndarray/print.h"
#include "tests/unit/ndarray/oracle_util.h"

namespace tilec::host {
namespace {

const std::map<std::string, BinaryOp> kBinary = {
    {"add", BinaryOp::Add}, {"sub", BinaryOp::Sub}, {"mul", BinaryOp::Mul},
    {"truediv", BinaryOp::TrueDiv}, {"floordiv", BinaryOp::FloorDiv}, {"mod", BinaryOp::Mod},
    {"pow", BinaryOp::Pow}, {"eq", BinaryOp::Eq}, {"ne", BinaryOp::Ne}, {"lt", BinaryOp::Lt},
    {"le", BinaryOp::Le}, {"gt", BinaryOp::Gt}, {"ge", BinaryOp::Ge}, {"and", BinaryOp::And},
    {"or", BinaryOp::Or}, {"xor", BinaryOp::Xor}};

NdArray RunUnary(const std::string& name, const NdArray& a) {
  if (name == "neg") return Unary(UnaryOp::Neg, a);
  if (name == "abs") return Unary(UnaryOp::Abs, a);
  if (name == "sqrt") return Unary(UnaryOp::Sqrt, a);
  if (name == "exp") return Unary(UnaryOp::Exp, a);
  if (name == "invert") return Unary(UnaryOp::Invert, a);
  if (name == "sum") return a.Sum();
  if (name == "sum0") return a.Sum(0);
  if (name == "sumlast") return a.Sum(-1);
  throw std::runtime_error("unknown unary " + name);
}

// Equal elements; transcendental results (exp, pow) may differ from NumPy's in the last bits.
bool SameValues(const NdArray& want, const NdArray& got, bool approximate) {
  for (int64_t i = 0; i < want.size(); ++i) {
    Scalar w = want.GetFlat(i), g = got.GetFlat(i);
    if (w.kind != Scalar::Kind::Float) {
      if (w.AsUInt() != g.AsUInt()) return false;
      continue;
    }
    if (std::isnan(w.f) || std::isnan(g.f)) {
      if (std::isnan(w.f) != std::isnan(g.f)) return false;
      continue;
    }
    if (w.f == g.f && std::signbit(w.f) == std::signbit(g.f)) continue;
    double eps = want.dtype() == ScalarType::Float64 ? 0x1p-52 : want.dtype() == ScalarType::Float32 ? 0x1p-23 : 0x1p-10;
    if (!approximate || std::isinf(w.f) || std::fabs(w.f - g.f) > 2 * eps * std::fabs(w.f))
      return false;
  }
  return true;
}

std::string Describe(const NdArray& a) {
  return DtypeName(a.dtype()) + " " + ShapeString(a.shape()) + " " + ArrayStr(a);
}

TEST(NumpyOracle, OperationsMatchNumpy) {
  OracleFile oracle = GenerateOracle("ops");
  if (!oracle.skip_reason.empty()) GTEST_SKIP() << oracle.skip_reason;
  std::ifstream in(oracle.path, std::ios::binary);
  ASSERT_TRUE(in) << oracle.path;
  int cases = 0, failures = 0;
  std::string tag, name;
  while (in >> tag >> name) {
    NdArray a = ReadArray(in);
    std::optional<NdArray> b;
    if (tag == "B") b = ReadArray(in);
    std::string outcome;
    in >> outcome;
    std::optional<NdArray> want;
    std::string want_error;
    if (outcome == "=") want = ReadArray(in);
    else in >> want_error;
    ++cases;
    std::string got_error;
    std::optional<NdArray> got;
    try {
      got = b ? Binary(kBinary.at(name), a, *b) : RunUnary(name, a);
    } catch (const NdError& e) {
      got_error = e.type();
    }
    bool approximate = name == "pow" || name == "exp";
    bool ok = want ? got && got->dtype() == want->dtype() && got->shape() == want->shape() &&
                         SameValues(*want, *got, approximate)
                   : got_error == want_error;
    if (!ok && ++failures <= MaxReported()) {
      ADD_FAILURE() << name << "(" << Describe(a) << (b ? ", " + Describe(*b) : "") << ")\n  numpy: "
                    << (want ? Describe(*want) : want_error)
                    << "\n  ours:  " << (got ? Describe(*got) : got_error);
    }
  }
  EXPECT_GE(cases, 5000);
  EXPECT_EQ(failures, 0) << "of " << cases << " operations";
}

}  // namespace
}  // namespace tilec::host
