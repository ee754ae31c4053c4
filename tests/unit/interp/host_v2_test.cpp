// The v2 host additions of LANGUAGE.md §7 (np.round and Python's round, f-strings, str.format
// and `%` with format specs, the NumPy reductions, sorting, joining and selection functions,
// np.random's argument handling, comprehensions, lambda, try/except/raise, sets, the string
// methods and builtins such as sorted(key=), map, any): each program's output, and each error
// line, is what CPython 3.11 and NumPy 1.24 print for the same code (host_v2_cases.inc). No
// Python is needed to run these.
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

// Complex arrays reach only the functions that know them; any other NumPy function refuses one
// by name instead of reading its parts as a real array.
TEST(HostV2Complex, OtherFunctionsRefuseComplexArrays) {
  const std::string setup = "import numpy as np\nc = np.arange(4.0).view(np.complex128)\n";
  EXPECT_NE(RunProgram(setup + "np.sum(c)\n").find("TypeError: np.sum: complex arrays are not supported here"),
            std::string::npos);
  EXPECT_NE(RunProgram(setup + "np.sort(c)\n").find("complex arrays are not supported here"), std::string::npos);
  EXPECT_NE(RunProgram(setup + "c @ c\n").find("TypeError"), std::string::npos);
}

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

// Chained exceptions print both tracebacks with CPython's separator lines (CPython 3.11's
// output for the same code, less its `~~^~~` marker lines, which host tracebacks omit).
TEST(HostV2Exceptions, ChainedTracebacksPrintLikeCPython) {
  EXPECT_EQ(RunProgram("def f():\n    return 1 / 0\ntry:\n    f()\nexcept ZeroDivisionError as e:\n"
                       "    raise ValueError(\"bad\") from e\n"),
            "Traceback (most recent call last):\n  File \"page.rst\", line 4, in <module>\n    f()\n"
            "  File \"page.rst\", line 2, in f\n    return 1 / 0\nZeroDivisionError: division by zero\n\n"
            "The above exception was the direct cause of the following exception:\n\n"
            "Traceback (most recent call last):\n  File \"page.rst\", line 6, in <module>\n"
            "    raise ValueError(\"bad\") from e\nValueError: bad\n");
  EXPECT_EQ(RunProgram("try:\n    {}[\"k\"]\nexcept KeyError:\n    try:\n        raise\n    except KeyError:\n"
                       "        int(\"x\")\n"),
            "Traceback (most recent call last):\n  File \"page.rst\", line 2, in <module>\n    {}[\"k\"]\n"
            "KeyError: 'k'\n\nDuring handling of the above exception, another exception occurred:\n\n"
            "Traceback (most recent call last):\n  File \"page.rst\", line 7, in <module>\n    int(\"x\")\n"
            "ValueError: invalid literal for int() with base 10: 'x'\n");
  // A bare re-raise keeps the original line; `from None` hides the context.
  EXPECT_EQ(RunProgram("try:\n    1 / 0\nexcept ZeroDivisionError:\n    raise\n"),
            "Traceback (most recent call last):\n  File \"page.rst\", line 2, in <module>\n    1 / 0\n"
            "ZeroDivisionError: division by zero\n");
  EXPECT_EQ(RunProgram("try:\n    1 / 0\nexcept ZeroDivisionError:\n    raise KeyError('k') from None\n"),
            "Traceback (most recent call last):\n  File \"page.rst\", line 4, in <module>\n"
            "    raise KeyError('k') from None\nKeyError: 'k'\n");
}

}  // namespace
}  // namespace tilec::host::test
