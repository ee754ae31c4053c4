// Warp's wider scalar math, the other scalar atomics and wp.static, compiled from source: each
// math function against <cmath> in the same precision over special values (NaN, infinities,
// signed zeros, halves), also through tile_map; atomics where every thread hits one element
// against folds computed here, with the returned previous values checked for consistency
// (permutations for exch, cas and sub).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "support/half.h"
#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;
using testing::WithDType;

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

const std::vector<double> kInputs = {0.0,  -0.0, 0.5,  -0.5, 1.5,  2.5,   -2.5,  1.0,  -1.0, 3.7,
                                     -3.7, 1e-3, 0.99, -1.2, 100., 7.25,  -0.75, kInf, -kInf, kNaN};

// The unary functions in kernel order, with their references in the computing type.
struct Unary {
  const char* name;
  double (*f64)(double);
  float (*f32)(float);
};
double ClampUnit(double x) { return std::fmin(std::fmax(x, -1.0), 1.0); }
float ClampUnit(float x) { return std::fmin(std::fmax(x, -1.0f), 1.0f); }
const Unary kUnary[] = {
    {"tan", [](double x) { return std::tan(x); }, [](float x) { return std::tan(x); }},
    {"asin", [](double x) { return std::asin(ClampUnit(x)); }, [](float x) { return std::asin(ClampUnit(x)); }},
    {"acos", [](double x) { return std::acos(ClampUnit(x)); }, [](float x) { return std::acos(ClampUnit(x)); }},
    {"atan", [](double x) { return std::atan(x); }, [](float x) { return std::atan(x); }},
    {"sinh", [](double x) { return std::sinh(x); }, [](float x) { return std::sinh(x); }},
    {"cosh", [](double x) { return std::cosh(x); }, [](float x) { return std::cosh(x); }},
    {"tanh", [](double x) { return std::tanh(x); }, [](float x) { return std::tanh(x); }},
    {"log2", [](double x) { return std::log2(x); }, [](float x) { return std::log2(x); }},
    {"log10", [](double x) { return std::log10(x); }, [](float x) { return std::log10(x); }},
    {"exp2", [](double x) { return std::exp2(x); }, [](float x) { return std::exp2(x); }},
    {"cbrt", [](double x) { return std::cbrt(x); }, [](float x) { return std::cbrt(x); }},
    {"erf", [](double x) { return std::erf(x); }, [](float x) { return std::erf(x); }},
    {"round", [](double x) { return std::round(x); }, [](float x) { return std::round(x); }},
    {"rint", [](double x) { return std::rint(x); }, [](float x) { return std::rint(x); }},
    {"trunc", [](double x) { return std::trunc(x); }, [](float x) { return std::trunc(x); }},
    {"frac", [](double x) { return x - std::trunc(x); }, [](float x) { return x - std::trunc(x); }},
    {"sign", [](double x) { return x < 0 ? -1.0 : 1.0; }, [](float x) { return x < 0 ? -1.0f : 1.0f; }},
    {"step", [](double x) { return x < 0 ? 1.0 : 0.0; }, [](float x) { return x < 0 ? 1.0f : 0.0f; }},
    {"nonzero", [](double x) { return x == 0 ? 0.0 : 1.0; }, [](float x) { return x == 0 ? 0.0f : 1.0f; }},
};
constexpr int kNumUnary = int(sizeof(kUnary) / sizeof(kUnary[0]));

std::string UnaryKernel() {
  std::string s = "@wp.kernel\ndef k(x: wp.array[{T}], y: wp.array2d[{T}]):\n    i = wp.tid()\n    v = x[i]\n";
  for (int f = 0; f < kNumUnary; ++f)
    s += "    y[" + std::to_string(f) + ", i] = wp." + kUnary[f].name + "(v)\n";
  return s;
}

// Same value, NaN matching NaN, within `ulps` units in the last place of the reference (GPU
// libraries are not correctly rounded; <cmath> here and the JIT's libm usually agree exactly).
template <typename T>
::testing::AssertionResult Near(T got, T want, double ulps) {
  if (std::isnan(want) && std::isnan(got)) return ::testing::AssertionSuccess();
  if (got == want && std::signbit(got) == std::signbit(want)) return ::testing::AssertionSuccess();
  if (std::isfinite(want) && std::isfinite(got)) {
    T step = std::nextafter(std::fabs(want), std::numeric_limits<T>::infinity()) - std::fabs(want);
    if (std::fabs(double(got) - double(want)) <= ulps * double(step) && want != 0) return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "got " << got << ", want " << want;
}

template <typename T>
void UnaryMath(const std::string& dtype) {
  auto c = CompileText(WithDType(UnaryKernel(), dtype));
  ASSERT_TRUE(c.module);
  int n = int(kInputs.size());
  std::vector<T> x;
  for (double v : kInputs) x.push_back(T(v));
  std::vector<T> y(size_t(kNumUnary * n), T(-123));
  tilec_array xa = View(x.data(), {n}), ya = View(y.data(), {kNumUnary, n});
  Launch(c.Entry("k"), {&xa, &ya}, {n});
  for (int f = 0; f < kNumUnary; ++f)
    for (int i = 0; i < n; ++i) {
      T want = sizeof(T) == 8 ? T(kUnary[f].f64(double(x[size_t(i)]))) : T(kUnary[f].f32(float(x[size_t(i)])));
      EXPECT_TRUE(Near(y[size_t(f * n + i)], want, 2)) << dtype << " wp." << kUnary[f].name << "(" << x[size_t(i)] << ")";
    }
}

TEST(ScalarMath, UnaryFunctionsFloat32) { UnaryMath<float>("wp.float32"); }
TEST(ScalarMath, UnaryFunctionsFloat64) { UnaryMath<double>("wp.float64"); }

// float16 computes in float32 and rounds once (docs/semantics.md): the reference does the same.
TEST(ScalarMath, UnaryFunctionsFloat16RoundTheFloat32Result) {
  auto c = CompileText(WithDType(UnaryKernel(), "wp.float16"));
  ASSERT_TRUE(c.module);
  int n = int(kInputs.size());
  std::vector<uint16_t> x;
  for (double v : kInputs) x.push_back(FloatToHalf(float(v)));
  std::vector<uint16_t> y(size_t(kNumUnary * n), 0);
  tilec_array xa = View(x.data(), {n}), ya = View(y.data(), {kNumUnary, n});
  Launch(c.Entry("k"), {&xa, &ya}, {n});
  for (int f = 0; f < kNumUnary; ++f)
    for (int i = 0; i < n; ++i) {
      float in = HalfToFloat(x[size_t(i)]);
      float want = HalfToFloat(FloatToHalf(kUnary[f].f32(in)));
      // One half-ulp of slack where float32 libraries differ near a rounding boundary.
      EXPECT_TRUE(Near(HalfToFloat(y[size_t(f * n + i)]), want, 1024)) << "float16 wp." << kUnary[f].name << "(" << in << ")";
    }
}

template <typename T>
void BinaryAndPredicates(const std::string& dtype) {
  auto c = CompileText(WithDType(R"(
@wp.kernel
def k(x: wp.array[{T}], z: wp.array[{T}], y: wp.array2d[{T}], p: wp.array2d[int]):
    i = wp.tid()
    a = x[i]
    b = z[i]
    y[0, i] = wp.atan2(a, b)
    y[1, i] = wp.lerp(a, b, {T}(0.25))
    y[2, i] = wp.smoothstep(b, {T}(4.0), a)
    p[0, i] = int(wp.isnan(a))
    p[1, i] = int(wp.isinf(a))
    p[2, i] = int(wp.isfinite(a))
)",
                                 dtype));
  ASSERT_TRUE(c.module);
  int n = int(kInputs.size());
  std::vector<T> x, z;
  for (int i = 0; i < n; ++i) {
    x.push_back(T(kInputs[size_t(i)]));
    z.push_back(T(kInputs[size_t((i * 7 + 3) % n)]));
  }
  std::vector<T> y(size_t(3 * n), T(-123));
  std::vector<int32_t> p(size_t(3 * n), -1);
  tilec_array xa = View(x.data(), {n}), za = View(z.data(), {n}), ya = View(y.data(), {3, n}), pa = View(p.data(), {3, n});
  Launch(c.Entry("k"), {&xa, &za, &ya, &pa}, {n});
  for (int i = 0; i < n; ++i) {
    T a = x[size_t(i)], b = z[size_t(i)];
    EXPECT_TRUE(Near(y[size_t(i)], T(std::atan2(a, b)), 2)) << dtype << " atan2(" << a << ", " << b << ")";
    T lerp = a * (T(1) - T(0.25)) + b * T(0.25);
    EXPECT_TRUE(Near(y[size_t(n + i)], lerp, 2)) << dtype << " lerp(" << a << ", " << b << ")";
    T u = std::fmin(std::fmax((a - b) / (T(4) - b), T(0)), T(1));
    EXPECT_TRUE(Near(y[size_t(2 * n + i)], T(u * u * (T(3) - T(2) * u)), 2)) << dtype << " smoothstep(" << b << ", 4, " << a << ")";
    EXPECT_EQ(p[size_t(i)], int(std::isnan(a))) << a;
    EXPECT_EQ(p[size_t(n + i)], int(std::isinf(a))) << a;
    EXPECT_EQ(p[size_t(2 * n + i)], int(std::isfinite(a))) << a;
  }
}

TEST(ScalarMath, Atan2LerpSmoothstepAndPredicatesFloat32) { BinaryAndPredicates<float>("wp.float32"); }
TEST(ScalarMath, Atan2LerpSmoothstepAndPredicatesFloat64) { BinaryAndPredicates<double>("wp.float64"); }

// Warp's sign, step and nonzero on integers: unsigned values are never negative.
TEST(ScalarMath, SignStepNonzeroOnIntegers) {
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array[int], u: wp.array[wp.uint32], y: wp.array2d[int], v: wp.array2d[wp.uint32]):
    i = wp.tid()
    y[0, i] = wp.sign(x[i])
    y[1, i] = wp.step(x[i])
    y[2, i] = wp.nonzero(x[i])
    v[0, i] = wp.sign(u[i])
    v[1, i] = wp.step(u[i])
    v[2, i] = wp.nonzero(u[i])
)");
  ASSERT_TRUE(c.module);
  std::vector<int32_t> x = {-5, 0, 3, -1, 2147483647, -2147483647 - 1};
  std::vector<uint32_t> u = {0, 1, 4000000000u, 7, 0, 2};
  int n = int(x.size());
  std::vector<int32_t> y(size_t(3 * n), 99);
  std::vector<uint32_t> v(size_t(3 * n), 99);
  tilec_array xa = View(x.data(), {n}), ua = View(u.data(), {n}), ya = View(y.data(), {3, n}), va = View(v.data(), {3, n});
  Launch(c.Entry("k"), {&xa, &ua, &ya, &va}, {n});
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(y[size_t(i)], x[size_t(i)] < 0 ? -1 : 1);
    EXPECT_EQ(y[size_t(n + i)], x[size_t(i)] < 0 ? 1 : 0);
    EXPECT_EQ(y[size_t(2 * n + i)], x[size_t(i)] == 0 ? 0 : 1);
    EXPECT_EQ(v[size_t(i)], 1u);
    EXPECT_EQ(v[size_t(n + i)], 0u);
    EXPECT_EQ(v[size_t(2 * n + i)], u[size_t(i)] == 0 ? 0u : 1u);
  }
}

// The same functions element by element on tiles through tile_map, a bool tile included.
TEST(ScalarMath, TileMapAppliesTheNewFunctions) {
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array[float], z: wp.array[float], y: wp.array2d[float], nan: wp.array[bool]):
    a = wp.tile_load(x, shape=20)
    b = wp.tile_load(z, shape=20)
    wp.tile_store(y[0], wp.tile_map(wp.tanh, a))
    wp.tile_store(y[1], wp.tile_map(wp.atan2, a, b))
    wp.tile_store(y[2], wp.tile_map(wp.round, a))
    wp.tile_store(y[3], wp.tile_map(wp.sign, a))
    wp.tile_store(y[4], wp.tile_map(wp.lerp, a, b, b))
    wp.tile_store(nan, wp.tile_map(wp.isnan, a))
)");
  ASSERT_TRUE(c.module);
  int n = 20;
  std::vector<float> x, z;
  for (int i = 0; i < n; ++i) {
    x.push_back(float(kInputs[size_t(i)]));
    z.push_back(float(0.1 * i - 0.7));
  }
  for (int bd : {1, 3, 32}) {
    std::vector<float> y(size_t(5 * n), -123.f);
    std::vector<uint8_t> nan(size_t(n), 7);
    tilec_array xa = View(x.data(), {n}), za = View(z.data(), {n}), ya = View(y.data(), {5, n}), na = View(nan.data(), {n});
    Launch(c.Entry("k"), {&xa, &za, &ya, &na}, {1}, bd);
    for (int i = 0; i < n; ++i) {
      float a = x[size_t(i)], b = z[size_t(i)];
      EXPECT_TRUE(Near(y[size_t(i)], std::tanh(a), 2)) << "tanh " << a;
      EXPECT_TRUE(Near(y[size_t(n + i)], std::atan2(a, b), 2)) << "atan2 " << a;
      EXPECT_TRUE(Near(y[size_t(2 * n + i)], std::round(a), 0)) << "round " << a;
      EXPECT_TRUE(Near(y[size_t(3 * n + i)], a < 0 ? -1.f : 1.f, 0)) << "sign " << a;
      EXPECT_TRUE(Near(y[size_t(4 * n + i)], a * (1 - b) + b * b, 2)) << "lerp " << a;
      EXPECT_EQ(nan[size_t(i)], uint8_t(std::isnan(a))) << "isnan " << a << " bd=" << bd;
    }
  }
}

// ---------------------------------------------------------------- atomics

constexpr int kThreads = 300;

// Folds of integer atomics where every thread hits a few shared elements.
template <typename T>
void IntegerAtomics(const std::string& dtype) {
  auto c = CompileText(WithDType(R"(
@wp.kernel
def k(a: wp.array[{T}], prev: wp.array2d[{T}]):
    i = wp.tid()
    v = {T}((i * 37) % 101)
    prev[0, i] = wp.atomic_sub(a, 0, {T}(1))
    prev[1, i] = wp.atomic_min(a, 1, v)
    prev[2, i] = wp.atomic_max(a, 2, v)
    prev[3, i] = wp.atomic_and(a, 3, ~({T}(1) << {T}(i % 31)))
    prev[4, i] = wp.atomic_or(a, 4, {T}(1) << {T}(i % 29))
    prev[5, i] = wp.atomic_xor(a, 5, {T}(i * 40503))
    prev[6, i] = wp.atomic_exch(a, 6, {T}(i))
)",
                                 dtype));
  ASSERT_TRUE(c.module);
  const T init[7] = {T(1000), T(77), T(20), T(-1), T(0), T(12345), T(100000)};
  std::vector<T> a(init, init + 7);
  std::vector<T> prev(size_t(7 * kThreads), T(0));
  tilec_array aa = View(a.data(), {7}), pa = View(prev.data(), {7, kThreads});
  Launch(c.Entry("k"), {&aa, &pa}, {kThreads});
  T sub = init[0], mn = init[1], mx = init[2], band = init[3], bor = init[4], bxor = init[5];
  for (int i = 0; i < kThreads; ++i) {
    T v = T((i * 37) % 101);
    sub = T(sub - T(1));
    mn = std::min(mn, v);
    mx = std::max(mx, v);
    band = T(band & ~(T(1) << T(i % 31)));
    bor = T(bor | (T(1) << T(i % 29)));
    bxor = T(bxor ^ T(i * 40503));
  }
  EXPECT_EQ(a[0], sub) << dtype;
  EXPECT_EQ(a[1], mn) << dtype;
  EXPECT_EQ(a[2], mx) << dtype;
  EXPECT_EQ(a[3], band) << dtype;
  EXPECT_EQ(a[4], bor) << dtype;
  EXPECT_EQ(a[5], bxor) << dtype;
  auto row = [&](int r) { return std::vector<T>(prev.begin() + r * kThreads, prev.begin() + (r + 1) * kThreads); };
  // sub by 1: the previous values are init, init-1, ..., each once.
  std::vector<T> s = row(0);
  std::sort(s.begin(), s.end());
  for (int i = 0; i < kThreads; ++i) EXPECT_EQ(s[size_t(i)], T(init[0] - T(kThreads - 1 - i))) << dtype;
  // min/max: every previous value is between the extreme and the initial value.
  for (T p : row(1)) EXPECT_TRUE(p >= mn && p <= init[1]) << dtype << " " << p;
  for (T p : row(2)) EXPECT_TRUE(p <= mx && p >= init[2]) << dtype << " " << p;
  // exch: the previous values and the final value are the initial value and every id, once.
  std::vector<T> e = row(6);
  e.push_back(a[6]);
  std::sort(e.begin(), e.end());
  std::vector<T> want;
  for (int i = 0; i < kThreads; ++i) want.push_back(T(i));
  want.push_back(init[6]);
  std::sort(want.begin(), want.end());
  EXPECT_EQ(e, want) << dtype;
}

TEST(ScalarAtomics, IntegerFoldsAndPreviousValuesInt32) { IntegerAtomics<int32_t>("wp.int32"); }
TEST(ScalarAtomics, IntegerFoldsAndPreviousValuesUInt32) { IntegerAtomics<uint32_t>("wp.uint32"); }
TEST(ScalarAtomics, IntegerFoldsAndPreviousValuesInt64) { IntegerAtomics<int64_t>("wp.int64"); }
TEST(ScalarAtomics, IntegerFoldsAndPreviousValuesUInt64) { IntegerAtomics<uint64_t>("wp.uint64"); }

// Float min/max (NaN is missing, as fmin/fmax), sub, exch and a compare-and-swap counter.
template <typename T>
void FloatAtomics(const std::string& dtype) {
  // No adjoint: the compare-and-swap loop puts a loaded float on a differentiated path, and
  // atomic_cas has no gradient (E0502, tests/golden).
  auto c = CompileText(WithDType(R"(
@wp.kernel(enable_backward=False)
def k(x: wp.array[{T}], a: wp.array[{T}], prev: wp.array2d[{T}], won: wp.array[int]):
    i = wp.tid()
    prev[0, i] = wp.atomic_min(a, 0, x[i])
    prev[1, i] = wp.atomic_max(a, 1, x[i])
    prev[2, i] = wp.atomic_sub(a, 2, {T}(0.5))
    prev[3, i] = wp.atomic_exch(a, 3, {T}(i))
    # a counter of compare-and-swap increments: each thread retries until its swap lands
    done = int(0)
    while done == 0:
        old = a[4]
        seen = wp.atomic_cas(a, 4, old, old + {T}(1.0))
        if seen == old:
            prev[4, i] = seen
            done = 1
    if wp.atomic_cas(a, 5, {T}(-1.0), {T}(i)) == {T}(-1.0):
        wp.atomic_add(won, 0, 1)
)",
                                 dtype));
  ASSERT_TRUE(c.module);
  std::vector<T> x(kThreads);
  for (int i = 0; i < kThreads; ++i) x[size_t(i)] = T(std::sin(double(i)) * 100.0);
  x[17] = T(kNaN);
  x[200] = T(kNaN);
  std::vector<T> a = {T(50), T(-50), T(1000), T(-7), T(0), T(-1)};
  std::vector<T> prev(size_t(5 * kThreads), T(-999));
  std::vector<int32_t> won = {0};
  tilec_array xa = View(x.data(), {kThreads}), aa = View(a.data(), {6}), pa = View(prev.data(), {5, kThreads}),
              wa = View(won.data(), {1});
  Launch(c.Entry("k"), {&xa, &aa, &pa, &wa}, {kThreads});
  T mn = T(50), mx = T(-50);
  for (T v : x) {
    mn = std::fmin(mn, v);
    mx = std::fmax(mx, v);
  }
  EXPECT_EQ(a[0], mn) << dtype;
  EXPECT_EQ(a[1], mx) << dtype;
  EXPECT_EQ(a[2], T(1000 - 0.5 * kThreads)) << dtype;
  EXPECT_EQ(a[4], T(kThreads)) << dtype;
  EXPECT_EQ(won[0], 1) << dtype;
  EXPECT_GE(a[5], T(0)) << dtype;
  for (int i = 0; i < kThreads; ++i) {
    EXPECT_FALSE(std::isnan(prev[size_t(i)])) << "a NaN value never wins a min";
    EXPECT_GE(prev[size_t(i)], mn);
  }
  std::vector<T> s(prev.begin() + 2 * kThreads, prev.begin() + 3 * kThreads);
  std::sort(s.begin(), s.end());
  for (int i = 0; i < kThreads; ++i) EXPECT_EQ(s[size_t(i)], T(1000 - 0.5 * (kThreads - 1 - i))) << dtype;
  std::vector<T> e(prev.begin() + 3 * kThreads, prev.begin() + 4 * kThreads);
  e.push_back(a[3]);
  std::sort(e.begin(), e.end());
  for (int i = 0; i <= kThreads; ++i) EXPECT_EQ(e[size_t(i)], T(i - 1 < 0 ? -7 : i - 1)) << dtype;
  // Each successful swap saw a distinct count: 0 .. threads-1.
  std::vector<T> cs(prev.begin() + 4 * kThreads, prev.begin() + 5 * kThreads);
  std::sort(cs.begin(), cs.end());
  for (int i = 0; i < kThreads; ++i) EXPECT_EQ(cs[size_t(i)], T(i)) << dtype;
}

TEST(ScalarAtomics, FloatMinMaxSubExchCasFloat32) { FloatAtomics<float>("wp.float32"); }
TEST(ScalarAtomics, FloatMinMaxSubExchCasFloat64) { FloatAtomics<double>("wp.float64"); }

// The 16-bit floats: atomic_sub on float16, min/max on bfloat16 (Warp's lists), computed in
// float32 and rounded.
TEST(ScalarAtomics, Float16SubAndBFloat16MinMax) {
  auto c = CompileText(R"(
@wp.kernel
def k(h: wp.array[wp.float16], b: wp.array[wp.bfloat16], x: wp.array[wp.bfloat16]):
    i = wp.tid()
    wp.atomic_sub(h, 0, wp.float16(0.25))
    wp.atomic_min(b, 0, x[i])
    wp.atomic_max(b, 1, x[i])
)");
  ASSERT_TRUE(c.module);
  std::vector<uint16_t> h = {FloatToHalf(100.0f)}, b = {FloatToBFloat16(0.0f), FloatToBFloat16(0.0f)}, x;
  float mn = 0, mx = 0;
  for (int i = 0; i < 64; ++i) {
    float v = float((i * 13) % 41 - 20);
    x.push_back(FloatToBFloat16(v));
    mn = std::min(mn, v);
    mx = std::max(mx, v);
  }
  tilec_array ha = View(h.data(), {1}), ba = View(b.data(), {2}), xa = View(x.data(), {64});
  Launch(c.Entry("k"), {&ha, &ba, &xa}, {64});
  EXPECT_EQ(HalfToFloat(h[0]), 100.0f - 0.25f * 64);
  EXPECT_EQ(BFloat16ToFloat(b[0]), mn);
  EXPECT_EQ(BFloat16ToFloat(b[1]), mx);
}

// In a tiled kernel the scalar atomics run as often as atomic_add does there (LANGUAGE.md §4),
// whatever block_dim is.
TEST(ScalarAtomics, TiledKernelsRunThemAsOftenAsAtomicAdd) {
  auto c = CompileText(R"(
@wp.kernel
def k(a: wp.array[int], x: wp.array[float], y: wp.array[float]):
    b = wp.tid()
    wp.atomic_max(a, 0, b)
    wp.atomic_sub(a, 1, 3)
    wp.atomic_add(a, 2, 1)
    wp.atomic_or(a, 3, 1 << b)
    wp.tile_store(y, wp.tile_load(x, shape=4))
)");
  ASSERT_TRUE(c.module);
  for (int bd : {1, 3, 32}) {
    std::vector<int32_t> a = {-1, 100, 0, 0};
    std::vector<float> x(4, 1.f), y(4, 0.f);
    tilec_array aa = View(a.data(), {4}), xa = View(x.data(), {4}), ya = View(y.data(), {4});
    Launch(c.Entry("k"), {&aa, &xa, &ya}, {5}, bd);
    EXPECT_EQ(a[0], 4) << bd;
    EXPECT_GE(a[2], 5) << bd;
    EXPECT_EQ(a[1], 100 - 3 * a[2]) << bd;
    EXPECT_EQ(a[3], 31) << bd;
  }
}

// ---------------------------------------------------------------- wp.static

TEST(Static, ConstantsShapesAndUnrolledRanges) {
  auto c = CompileText(R"(
N = 3
SHAPE = (2, 4)

@wp.kernel
def k(x: wp.array2d[float], y: wp.array2d[float], n: wp.array[int]):
    t = wp.tile_load(x, shape=wp.static(SHAPE))
    for r in range(wp.static(N - 1)):
        t = t + t
    wp.tile_store(y, t)
    s = int(0)
    for j in range(wp.static(N * len(SHAPE))):
        s = s + j
    n[0] = s
    n[1] = wp.static(len(SHAPE) + N * 10)
    n[2] = len(x.shape)
)");
  ASSERT_TRUE(c.module);
  std::vector<float> x(8), y(8, -1.f);
  for (int i = 0; i < 8; ++i) x[size_t(i)] = float(i);
  std::vector<int32_t> n(3, -1);
  tilec_array xa = View(x.data(), {2, 4}), ya = View(y.data(), {2, 4}), na = View(n.data(), {3});
  Launch(c.Entry("k"), {&xa, &ya, &na}, {1}, 4);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(y[size_t(i)], 4.f * float(i));
  EXPECT_EQ(n[0], 15);  // 0 + 1 + ... + 5
  EXPECT_EQ(n[1], 32);
  EXPECT_EQ(n[2], 2);
}

}  // namespace
}  // namespace tilec
