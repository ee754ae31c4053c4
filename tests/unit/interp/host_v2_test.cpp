// The v2 host additions of LANGUAGE.md §7 (np.round and Python's round, f-strings, str.format
// and `%` with format specs, the NumPy reductions, sorting, joining and selection functions):
// each program's output, and each error line, is what CPython 3.11 and NumPy 1.24 print for
// the same code (host_v2_cases.inc). No Python is needed to run these.
#include <gtest/gtest.h>

#include "interp_test_util.h"

namespace tilec::host::test {
namespace {

struct OutputCase {
  const char* name;
  const char* code;
  const char* expected;
};

// An exception case: setup, one failing line, then the line that must still run.
struct RaiseCase {
  const char* name;
  const char* setup;
  const char* failing;
  const char* expected;  // the `Type: message` line
};

#include "host_v2_cases.inc"

class HostV2Output : public ::testing::TestWithParam<OutputCase> {};

TEST_P(HostV2Output, SameAsCPythonAndNumPy) {
  EXPECT_EQ(RunProgram(std::string("import numpy as np\n") + GetParam().code), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Programs, HostV2Output, ::testing::ValuesIn(kOutputs),
                         [](const auto& info) { return std::string(info.param.name); });

class HostV2Raises : public ::testing::TestWithParam<RaiseCase> {};

TEST_P(HostV2Raises, PythonMessageAndSessionContinues) {
  const RaiseCase& c = GetParam();
  std::string out = RunChunks({std::string("import numpy as np\n") + c.setup, std::string(c.failing) + "\n",
                               "print('still alive')\n"},
                              {10, 40, 41});
  EXPECT_EQ(ErrorLine(out), c.expected) << out;
  EXPECT_NE(out.find("  File \"page.rst\", line 40, in <module>\n    " + std::string(c.failing) + "\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("still alive\n"), std::string::npos) << out;
}

INSTANTIATE_TEST_SUITE_P(Errors, HostV2Raises, ::testing::ValuesIn(kRaises),
                         [](const auto& info) { return std::string(info.param.name); });

// f-strings are host code: in a kernel they are a syntax error that names the rule.
TEST(HostV2FStrings, RejectedInKernelCode) {
  std::string out = RunProgram("@wp.kernel\ndef k(a: wp.array(dtype=float)):\n    s = f\"{a}\"\n");
  EXPECT_NE(out.find("error[E0016]: f-strings are not supported in kernel code (only in host code)"), std::string::npos)
      << out;
}

TEST(HostV2FStrings, SyntaxErrorsPointIntoTheString) {
  EXPECT_NE(RunProgram("x = f'{}'\n").find("f-string: empty expression not allowed"), std::string::npos);
  EXPECT_NE(RunProgram("x = f'{1 +}'\n").find("page.rst:1:"), std::string::npos);
  EXPECT_NE(RunProgram("x = f'{a!z}'\n").find("f-string: invalid conversion character"), std::string::npos);
  EXPECT_NE(RunProgram("x = f'a}'\n").find("f-string: single '}' is not allowed"), std::string::npos);
}

}  // namespace
}  // namespace tilec::host::test
