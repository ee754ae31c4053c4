// Host expressions against CPython 3.11 and NumPy 1.24: formatting, strings, comprehensions and
// builtins, NumPy functions with broadcasting and dtypes, and the exception line of each error.
// The expected text in host_expr_cases.inc was printed by the real interpreters
// (gen_host_expr_cases.py); running these needs no Python.
#include <gtest/gtest.h>

#include "interp_test_util.h"

namespace tilec::host::test {
namespace {

struct ExprCase {
  const char* name;
  const char* setup;
  const char* expr;
  bool raises;
  const char* expected;  // printed repr, or the `Type: message` line
};

#include "host_expr_cases.inc"

class HostExpr : public ::testing::TestWithParam<ExprCase> {};

TEST_P(HostExpr, SameAsCPythonAndNumPy) {
  const ExprCase& c = GetParam();
  std::string out =
      RunProgram(std::string("import numpy as np\n") + c.setup + "print(repr(" + c.expr + "))\n");
  if (c.raises) EXPECT_EQ(ErrorLine(out), c.expected) << out;
  else EXPECT_EQ(out, c.expected);
}

INSTANTIATE_TEST_SUITE_P(Cases, HostExpr, ::testing::ValuesIn(kExprCases),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace tilec::host::test
