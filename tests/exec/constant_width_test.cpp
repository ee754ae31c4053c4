// Constants folded by the checker hold the value their type holds at run time: a cast to
// float32 or float16 rounds, typed arithmetic rounds once per operation, a weak literal meets
// a typed value at its width. Each folded result is compared bit for bit with the same
// expression computed at run time from array inputs, and with C++ float arithmetic.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "support/half.h"
#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

TEST(ConstantWidth, FoldedCastsAndArithmeticMatchTheRunTime) {
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array[wp.float64], out: wp.array2d[wp.float64]):
    # row 0: folded; row 1: the same from x = [0.1, 3.0, 1e-3, 0.7]
    out[0, 0] = wp.float64(float(wp.float64(0.1)))
    out[1, 0] = wp.float64(float(x[0]))
    out[0, 1] = wp.float64(wp.float16(0.1))
    out[1, 1] = wp.float64(wp.float16(x[0]))
    out[0, 2] = wp.float64(wp.float32(0.1) * wp.float32(3.0))
    out[1, 2] = wp.float64(wp.float32(x[0]) * wp.float32(x[1]))
    out[0, 3] = wp.float64(wp.float32(0.1) + 1e-3)
    out[1, 3] = wp.float64(wp.float32(x[0]) + wp.float32(x[2]))
    out[0, 4] = wp.float64(wp.float16(0.7) / wp.float16(3.0))
    out[1, 4] = wp.float64(wp.float16(x[3]) / wp.float16(x[1]))
    out[0, 5] = wp.float64(0.0)
    if wp.float32(0.1) == 0.1:
        out[0, 5] = wp.float64(1.0)
    out[1, 5] = wp.float64(0.0)
    if wp.float32(x[0]) == wp.float32(x[0]):
        out[1, 5] = wp.float64(1.0)
    out[0, 6] = wp.float64(0.0)
    if wp.float64(wp.float32(0.1)) == wp.float64(0.1):
        out[0, 6] = wp.float64(1.0)
    out[1, 6] = wp.float64(0.0)
    if wp.float64(wp.float32(x[0])) == x[0]:
        out[1, 6] = wp.float64(1.0)
)");
  ASSERT_TRUE(c.module);
  std::vector<double> x = {0.1, 3.0, 1e-3, 0.7}, out(14, -1.0);
  tilec_array xa = View(x.data(), {4}), oa = View(out.data(), {2, 7});
  Launch(c.Entry("k"), {&xa, &oa}, {1});
  auto half = [](double v) { return double(HalfToFloat(DoubleToHalfBits(v))); };
  const double want[7] = {double(0.1f), half(0.1), double(0.1f * 3.0f), double(0.1f + 1e-3f),
                          half(double(float(half(0.7))) / half(3.0)), 1.0, 0.0};
  for (int j = 0; j < 7; ++j) {
    EXPECT_EQ(std::memcmp(&out[size_t(j)], &want[j], 8), 0) << "folded column " << j << ": " << out[size_t(j)];
    EXPECT_EQ(std::memcmp(&out[size_t(7 + j)], &want[j], 8), 0) << "run-time column " << j << ": " << out[size_t(7 + j)];
  }
}

// Warp's svd3 and eig3 sweep 4 times in float32 and 8 in float64; the prelude picks the count
// by a folded cast, which kept double precision and gave float32 the 8 sweeps. The expected
// bits are Warp 1.19's on the CPU for this matrix with a repeated singular value, where the
// extra sweeps show.
TEST(ConstantWidth, Float32Svd3AndEig3SweepAsWarpDoes) {
  auto c = CompileText(R"(
@wp.kernel
def k(a: wp.array[wp.vec3], sig: wp.array[wp.vec3], u: wp.array[wp.mat33], v: wp.array[wp.mat33], q: wp.array[wp.mat33]):
    s = wp.skew(a[0])
    U, sigma, V = wp.svd3(s)
    sig[0] = sigma
    u[0] = U
    v[0] = V
    Q, d = wp.eig3(wp.transpose(s) * s)
    q[0] = Q
)");
  ASSERT_TRUE(c.module);
  std::vector<float> a = {-2.170358896255493f, 1.7270727157592773f, -0.4980282187461853f};
  std::vector<float> sig(3), u(9), v(9), q(9);
  tilec_array aa = View(a.data(), {1}, {3}), sa = View(sig.data(), {1}, {3}), ua = View(u.data(), {1}, {9}),
              va = View(v.data(), {1}, {9}), qa = View(q.data(), {1}, {9});
  Launch(c.Entry("k"), {&aa, &sa, &ua, &va, &qa}, {1});
  const float want_sig[3] = {0x1.68b51p+1f, 0x1.68b51p+1f, -0x1.13d2p-27f};
  const float want_u[9] = {0x1.45001ap-1f, -0x1.001f28p-4f, 0x1.8a53b4p-1f, 0x1.86f87ap-1f, 0x1.a0245p-3f,
                           -0x1.39c998p-1f, -0x1.e40814p-4f, 0x1.f44baap-1f, 0x1.69f128p-3f};
  const float want_v[9] = {-0x1.001f1p-4f, -0x1.450018p-1f, 0x1.8a53b2p-1f, 0x1.a0244ap-3f, -0x1.86f876p-1f,
                           -0x1.39c99cp-1f, 0x1.f44baap-1f, 0x1.e4081cp-4f, 0x1.69f116p-3f};
  const float want_q[9] = {0x1.45b16p-1f, -0x1.8a53b2p-1f, -0x1.7f7618p-5f, 0x1.84470ep-1f, 0x1.39c99cp-1f,
                           0x1.c6b2aap-3f, -0x1.23712cp-3f, -0x1.69f11ap-3f, 0x1.f2a55ap-1f};
  for (int i = 0; i < 3; ++i) EXPECT_EQ(sig[size_t(i)], want_sig[i]) << "sigma " << i;
  for (int i = 0; i < 9; ++i) {
    EXPECT_EQ(u[size_t(i)], want_u[i]) << "U " << i;
    EXPECT_EQ(v[size_t(i)], want_v[i]) << "V " << i;
    EXPECT_EQ(q[size_t(i)], want_q[i]) << "eig3 Q " << i;
  }
}

}  // namespace
}  // namespace tilec
