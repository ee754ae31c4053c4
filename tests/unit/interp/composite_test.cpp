// Warp's vector-like types in host code (host/interp/wp_composite.cpp): construction, printing,
// component access, arithmetic, NumPy conversions, arrays of them and host calls of the
// vector-math builtins. The expected text of composite_cases.inc is what Warp 1.19 prints for
// the same programs (gen_composite_cases.py runs them under Warp). The kernel tests need the
// kernel side of the vector types (arrays of vec3 as kernel parameters).
#include <gtest/gtest.h>

#include "interp_test_util.h"

namespace tilec::host::test {
namespace {

struct CompositeCase {
  const char* name;
  const char* code;
  const char* expected;
};

#include "composite_cases.inc"

class CompositeHost : public ::testing::TestWithParam<CompositeCase> {};

TEST_P(CompositeHost, SameAsWarp) { EXPECT_EQ(RunProgram(GetParam().code), GetParam().expected); }

INSTANTIATE_TEST_SUITE_P(Programs, CompositeHost, ::testing::ValuesIn(kCompositeCases),
                         [](const auto& info) { return std::string(info.param.name); });

// Warp 1.19 refuses `a[i]` on arrays in host code; tilec reads the element, as a host value.
TEST(CompositeHostExtras, ArrayElementIsAHostValue) {
  EXPECT_EQ(RunProgram("a = wp.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=wp.vec3, device='cpu')\n"
                       "print(a[1], a[-2].y)\n"
                       "m = wp.array(np.arange(8.0).reshape(2, 2, 2), dtype=wp.mat22, device='cpu')\n"
                       "print(m[1])\n"),
            "[4.0, 5.0, 6.0] 2.0\n[[4.0, 5.0],\n [6.0, 7.0]]\n");
}

// Warp's reading of flat data (what Warp 1.19 prints for the same lines): a last axis that is
// a multiple of the element's length splits into elements, after trailing axes of length 1 drop.
TEST(CompositeHostExtras, FlatLastAxisSplitsIntoElements) {
  EXPECT_EQ(RunProgram("print(wp.array(np.zeros((2, 12), dtype=np.float32), dtype=wp.vec2f).shape,\n"
                       "      wp.array(np.zeros((4, 6, 1), dtype=np.float32), dtype=wp.vec2f).shape,\n"
                       "      wp.array(np.zeros((3, 8), dtype=np.float32), dtype=wp.mat22).shape,\n"
                       "      wp.array(np.arange(8.0, dtype=np.float32), dtype=wp.vec2f).numpy()[3])\n"),
            "(2, 6) (4, 3) (3, 2) [6. 7.]\n");
}

TEST(CompositeHostExtras, Errors) {
  EXPECT_EQ(ErrorLine(RunProgram("wp.vec3(1.0, 2.0)\n")),
            "ValueError: Invalid number of arguments in vector constructor, expected 3 elements, got 2");
  EXPECT_EQ(ErrorLine(RunProgram("wp.vec3()[3]\n")), "IndexError: Invalid index 3 for vec3f");
  EXPECT_EQ(ErrorLine(RunProgram("wp.not_a_builtin(wp.vec3())\n")),
            "AttributeError: module 'warp' has no attribute 'not_a_builtin'");
  EXPECT_EQ(ErrorLine(RunProgram("wp.array([[1.0, 2.0]], dtype=wp.vec3, device='cpu')\n")),
            "ValueError: array(): data of shape (1, 2) does not hold vec3f elements (expected a trailing shape (3,) or a last axis that is a multiple of 3)");
}

TEST(CompositeKernels, Vec3ArrayRoundTrip) {
  std::string out = RunProgram(
      "@wp.kernel\n"
      "def scale(a: wp.array[wp.vec3], s: float, out: wp.array[wp.vec3]):\n"
      "    i = wp.tid()\n"
      "    out[i] = a[i] * s\n"
      "a = wp.array([wp.vec3(1.0, 2.0, 3.0), wp.vec3(4.0, 5.0, 6.0)], dtype=wp.vec3, device='cpu')\n"
      "out = wp.empty_like(a)\n"
      "wp.launch(scale, dim=2, inputs=[a, 2.0], outputs=[out], device='cpu')\n"
      "print(out.numpy())\n"
      "print(out.numpy().shape)\n");
  EXPECT_EQ(out, "[[ 2.  4.  6.]\n [ 8. 10. 12.]]\n(2, 3)\n");
}

}  // namespace
}  // namespace tilec::host::test
