// The numerics every device shares: reductions in the documented order (docs/semantics.md:
// 32 partials and a halving tree), checked bit for bit against an independent fold over inputs
// where the order shows, and float32 exp, checked against double-precision exp to within one
// ulp with its special values exact. CTest reruns these under host-SIMT emulation, so the GPU
// lowering must give the same bits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "support/half.h"
#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::FoldInDocumentedOrder;
using testing::Launch;
using testing::View;

bool SameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Values whose sum depends on the order: large terms that cancel and small ones that are
// absorbed or not.
std::vector<float> OrderSensitive(int n, int seed) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const int k = (i * 7 + seed) % 13;
    v[size_t(i)] = k == 0 ? 1.0e8f : k == 1 ? -1.0e8f : float(k) * 0.37f - 2.1f;
  }
  return v;
}

float Add(float a, float b) { return a + b; }

TEST(FoldOrder, SumsAndProductsOfWholeTilesInTheDocumentedOrder) {
  auto c = CompileText(R"(
@wp.kernel
def k(a: wp.array[float], b: wp.array[float], c: wp.array[float], p: wp.array[float], out: wp.array[float]):
    ta = wp.tile_load(a, shape=37)
    tb = wp.tile_load(b, shape=64)
    tc = wp.tile_load(c, shape=1000)
    wp.tile_store(out, wp.tile_sum(ta), offset=0)
    wp.tile_store(out, wp.tile_sum(tb), offset=1)
    wp.tile_store(out, wp.tile_sum(tc), offset=2)
    wp.tile_store(out, wp.tile_reduce(wp.add, tc), offset=3)
    wp.tile_store(out, wp.tile_reduce(wp.mul, wp.tile_load(p, shape=37)), offset=4)
)");
  ASSERT_TRUE(c.module);
  std::vector<float> a = OrderSensitive(37, 1), b = OrderSensitive(64, 2), cc = OrderSensitive(1000, 3);
  std::vector<float> pa;
  for (float x : a) pa.push_back(x * 0.25f + 1.0f);
  for (int bd : {1, 3, 32}) {
    std::vector<float> out(5, -1.0f);
    tilec_array aa = View(a.data(), {37}), ba = View(b.data(), {64}), ca = View(cc.data(), {1000}),
                pa_ = View(pa.data(), {37}), oa = View(out.data(), {5});
    Launch(c.Entry("k"), {&aa, &ba, &ca, &pa_, &oa}, {1}, bd);
    // tile_sum is 0.0 + the fold; the fold of these is never -0.0, so that changes nothing.
    EXPECT_TRUE(SameBits(out[0], FoldInDocumentedOrder(a, -0.0f, Add))) << out[0] << " bd=" << bd;
    EXPECT_TRUE(SameBits(out[1], FoldInDocumentedOrder(b, -0.0f, Add))) << out[1] << " bd=" << bd;
    EXPECT_TRUE(SameBits(out[2], FoldInDocumentedOrder(cc, -0.0f, Add))) << out[2] << " bd=" << bd;
    EXPECT_TRUE(SameBits(out[3], out[2])) << "tile_reduce(wp.add) and tile_sum fold alike";
    EXPECT_TRUE(SameBits(out[4], FoldInDocumentedOrder(pa, 1.0f, [](float x, float y) { return x * y; })))
        << out[4] << " bd=" << bd;
  }
}

TEST(FoldOrder, AlongEachAxisAndInFloat16) {
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array2d[float], h: wp.array[wp.float16], r0: wp.array[float], r1: wp.array[float],
      hs: wp.array[wp.float16]):
    t = wp.tile_load(x, shape=(5, 77))
    wp.tile_store(r0, wp.tile_sum(t, axis=0))
    wp.tile_store(r1, wp.tile_reduce(wp.add, t, axis=1))
    wp.tile_store(hs, wp.tile_sum(wp.tile_load(h, shape=300)))
)");
  ASSERT_TRUE(c.module);
  std::vector<float> x = OrderSensitive(5 * 77, 4);
  // float16 inputs are summed in float32 and rounded once: halves up to 100 in magnitude.
  std::vector<uint16_t> h(300);
  std::vector<float> hf(300);
  for (int i = 0; i < 300; ++i) {
    hf[size_t(i)] = float((i * 37) % 401 - 200) * 0.5f;
    h[size_t(i)] = FloatToHalf(hf[size_t(i)]);
  }
  std::vector<float> r0(77, -1.0f), r1(5, -1.0f);
  std::vector<uint16_t> hs(1, 0);
  tilec_array xa = View(x.data(), {5, 77}), ha = View(h.data(), {300}), a0 = View(r0.data(), {77}),
              a1 = View(r1.data(), {5}), hsa = View(hs.data(), {1});
  Launch(c.Entry("k"), {&xa, &ha, &a0, &a1, &hsa}, {1}, 32);
  for (int j = 0; j < 77; ++j) {
    std::vector<float> col;
    for (int i = 0; i < 5; ++i) col.push_back(x[size_t(i * 77 + j)]);
    EXPECT_TRUE(SameBits(r0[size_t(j)], 0.0f + FoldInDocumentedOrder(col, -0.0f, Add))) << "column " << j;
  }
  for (int i = 0; i < 5; ++i) {
    std::vector<float> row(x.begin() + i * 77, x.begin() + (i + 1) * 77);
    EXPECT_TRUE(SameBits(r1[size_t(i)], FoldInDocumentedOrder(row, -0.0f, Add))) << "row " << i;
  }
  EXPECT_EQ(hs[0], FloatToHalf(0.0f + FoldInDocumentedOrder(hf, -0.0f, Add)));
}

TEST(FoldOrder, MinAndMaxKeepNaNOnlyWhenEveryElementIsNaN) {
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array[float], n: wp.array[float], out: wp.array[float]):
    t = wp.tile_load(x, shape=70)
    tn = wp.tile_load(n, shape=40)
    wp.tile_store(out, wp.tile_min(t), offset=0)
    wp.tile_store(out, wp.tile_max(t), offset=1)
    wp.tile_store(out, wp.tile_min(tn), offset=2)
    wp.tile_store(out, wp.tile_max(tn), offset=3)
)");
  ASSERT_TRUE(c.module);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x(70), n(40, nan), out(4, 0.0f);
  for (int i = 0; i < 70; ++i) x[size_t(i)] = i % 9 == 0 ? nan : float((i * 31) % 71) - 35.0f;
  tilec_array xa = View(x.data(), {70}), na = View(n.data(), {40}), oa = View(out.data(), {4});
  Launch(c.Entry("k"), {&xa, &na, &oa}, {1}, 32);
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  for (float v : x)
    if (!std::isnan(v)) lo = std::fmin(lo, v), hi = std::fmax(hi, v);
  EXPECT_EQ(out[0], lo);
  EXPECT_EQ(out[1], hi);
  EXPECT_TRUE(std::isnan(out[2]));
  EXPECT_TRUE(std::isnan(out[3]));
}

// |got - e^x| in units of the last place of the float nearest e^x.
double UlpError(float got, double exact) {
  const float nearest = float(exact);
  const double ulp = std::fabs(nearest) < std::numeric_limits<float>::min()
                         ? std::ldexp(1.0, -149)
                         : std::ldexp(1.0, std::ilogb(nearest) - 23);
  return std::fabs(double(got) - exact) / ulp;
}

TEST(FloatExp, WithinOneUlpOnScalarsAndTilesWithExactSpecialValues) {
  auto c = CompileText(R"(
@wp.kernel
def scalar(x: wp.array[float], y: wp.array[float]):
    i = wp.tid()
    y[i] = wp.exp(x[i])

@wp.kernel
def tiled(x: wp.array[float], y: wp.array[float]):
    i = wp.tid()
    t = wp.tile_load(x, shape=256, offset=i * 256)
    wp.tile_store(y, wp.tile_map(wp.exp, t), offset=i * 256)
)");
  ASSERT_TRUE(c.module);
  // A sweep of [-105, 90] (subnormal results to overflow), then the special values.
  const int sweep = 256 * 1024;
  std::vector<float> x;
  for (int i = 0; i < sweep; ++i) x.push_back(-105.0f + 195.0f * float(i) / float(sweep - 1));
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> special = {0.0f, -0.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(), 1.0f, -1.0f,
                                      88.72283f, 88.7229f, -87.33654f, -103.97f, -104.5f, 1.0e-8f, -1.0e-8f};
  x.insert(x.end(), special.begin(), special.end());
  while (x.size() % 256) x.push_back(0.5f);
  const int n = int(x.size());
  for (const char* kernel : {"scalar", "tiled"}) {
    std::vector<float> y(size_t(n), -1.0f);
    tilec_array xa = View(x.data(), {n}), ya = View(y.data(), {n});
    if (std::string(kernel) == "scalar")
      Launch(c.Entry(kernel), {&xa, &ya}, {n});
    else
      Launch(c.Entry(kernel), {&xa, &ya}, {n / 256}, 64);
    double worst = 0;
    float worst_x = 0;
    for (int i = 0; i < n; ++i) {
      const float xi = x[size_t(i)], yi = y[size_t(i)];
      const double exact = std::exp(double(xi));
      if (std::isnan(xi)) {
        EXPECT_TRUE(std::isnan(yi)) << kernel;
        continue;
      }
      if (std::isinf(float(exact)) || float(exact) == 0.0f) {
        EXPECT_EQ(yi, float(exact)) << kernel << " exp(" << xi << ")";
        continue;
      }
      const double e = UlpError(yi, exact);
      if (e > worst) worst = e, worst_x = xi;
    }
    EXPECT_LE(worst, 1.0) << kernel << ": worst at x = " << worst_x;
    EXPECT_EQ(y[size_t(sweep)], 1.0f) << kernel << ": exp(0)";
    EXPECT_EQ(y[size_t(sweep + 1)], 1.0f) << kernel << ": exp(-0)";
  }
}

}  // namespace
}  // namespace tilec
