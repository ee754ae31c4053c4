// tile_matmul at shapes that are and are not multiples of the CPU's register blocks, in
// float16, float32, float64 and mixed dtypes, two block programs per launch. References: the
// per-element fma loop in increasing k from zero, then added to out as Warp's scalar GEMM does
// (bit for bit, on every lowering), and float64 sums (within the rounding bound of K fused
// terms and the two roundings of the sum).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ir/autodiff/autodiff.h"
#include "support/half.h"
#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

using half_bits = uint16_t;  // float16 storage
struct bf16_bits {           // bfloat16 storage
  uint16_t bits;
};

template <typename T> struct DT;
template <> struct DT<half_bits> {
  using Acc = float;
  static constexpr const char* name = "wp.float16";
  static constexpr double unit = 1.0 / 2048;  // half an ulp at 1
  static double ToDouble(half_bits h) { return HalfToFloat(h); }
  static half_bits From(double x) { return FloatToHalf(float(x)); }
};
template <> struct DT<bf16_bits> {
  using Acc = float;
  static constexpr const char* name = "wp.bfloat16";
  static constexpr double unit = 1.0 / 256;  // half an ulp at 1
  static double ToDouble(bf16_bits h) { return BFloat16ToFloat(h.bits); }
  static bf16_bits From(double x) { return {FloatToBFloat16(float(x))}; }
};
template <> struct DT<float> {
  using Acc = float;
  static constexpr const char* name = "wp.float32";
  static constexpr double unit = 1.0 / (1 << 24);
  static double ToDouble(float f) { return f; }
  static float From(double x) { return float(x); }
};
template <> struct DT<double> {
  using Acc = double;
  static constexpr const char* name = "wp.float64";
  static constexpr double unit = 1.0 / 9007199254740992.0;
  static double ToDouble(double d) { return d; }
  static double From(double x) { return x; }
};

std::string Replace(std::string s, const std::string& key, const std::string& v) {
  for (size_t p; (p = s.find(key)) != std::string::npos;) s.replace(p, key.size(), v);
  return s;
}

// Values in (-1, 1) with full mantissas, so a separate multiply and add would round
// differently from fma.
template <typename T>
std::vector<T> Random(size_t n, uint64_t seed) {
  std::vector<T> v(n);
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = DT<T>::From(double(int64_t(s >> 11) - (int64_t(1) << 52)) / double(int64_t(1) << 52));
  }
  return v;
}

// Acc's view of a value stored as T (float16 widened exactly, float64 rounded into float32).
template <typename Acc, typename T>
Acc AsAcc(T x) { return Acc(DT<T>::ToDouble(x)); }

constexpr int kBlocks = 2;

// c[blk] += a[blk] @ b[blk] for two block programs, a (M, K) of TA, b (K, N) of TB, c (M, N)
// of TC; `returning` uses `c = wp.tile_matmul(a, b)` (c's zeros in a's type) instead.
template <typename TA, typename TB, typename TC>
void Check(int M, int K, int N, bool returning = false) {
  using Acc = typename DT<TC>::Acc;
  std::string src = returning ? R"(
@wp.kernel(enable_backward=False)
def mm(a: wp.array3d[{A}], b: wp.array3d[{B}], c: wp.array3d[{C}]):
    i = wp.tid()
    ta = wp.tile_load(a[i], shape=({M}, {K}))
    tb = wp.tile_load(b[i], shape=({K}, {N}))
    wp.tile_store(c[i], wp.tile_matmul(ta, tb))
)" : R"(
@wp.kernel(enable_backward=False)
def mm(a: wp.array3d[{A}], b: wp.array3d[{B}], c: wp.array3d[{C}]):
    i = wp.tid()
    ta = wp.tile_load(a[i], shape=({M}, {K}))
    tb = wp.tile_load(b[i], shape=({K}, {N}))
    tc = wp.tile_load(c[i], shape=({M}, {N}))
    wp.tile_matmul(ta, tb, tc)
    wp.tile_store(c[i], tc)
)";
  src = Replace(Replace(Replace(src, "{A}", DT<TA>::name), "{B}", DT<TB>::name), "{C}", DT<TC>::name);
  src = Replace(Replace(Replace(src, "{M}", std::to_string(M)), "{K}", std::to_string(K)), "{N}", std::to_string(N));
  auto c = CompileText(src);
  ASSERT_TRUE(c.module);
  const size_t mk = size_t(M) * size_t(K), kn = size_t(K) * size_t(N), mn = size_t(M) * size_t(N);
  std::vector<TA> a = Random<TA>(mk * kBlocks, 1 + uint64_t(M * 7 + K));
  std::vector<TB> b = Random<TB>(kn * kBlocks, 2 + uint64_t(N * 5 + K));
  std::vector<TC> c0 = returning ? std::vector<TC>(mn * kBlocks, DT<TC>::From(0.0)) : Random<TC>(mn * kBlocks, 3);
  std::vector<TC> ref(c0.size());
  std::vector<double> exact(c0.size()), bound(c0.size());
  for (int blk = 0; blk < kBlocks; ++blk)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        const size_t o = size_t(blk) * mn + size_t(i * N + j);
        Acc acc = Acc(0);
        double e = DT<TC>::ToDouble(c0[o]), mag = std::fabs(e);
        for (int k = 0; k < K; ++k) {
          TA x = a[size_t(blk) * mk + size_t(i * K + k)];
          TB y = b[size_t(blk) * kn + size_t(k * N + j)];
          acc = std::fma(AsAcc<Acc>(x), AsAcc<Acc>(y), acc);
          e += DT<TA>::ToDouble(x) * DT<TB>::ToDouble(y);
          mag += std::fabs(DT<TA>::ToDouble(x) * DT<TB>::ToDouble(y));
        }
        // The product rounded to TC, then out + product rounded to TC (the sum of two TC values
        // is exact in double, so From rounds it once, as the TC add does).
        const TC prod = DT<TC>::From(double(acc));
        ref[o] = returning ? prod : DT<TC>::From(DT<TC>::ToDouble(prod) + DT<TC>::ToDouble(c0[o]));
        exact[o] = e;
        // K roundings of the running sum (and factors rounded into Acc), the product's rounding
        // into TC, then the sum's.
        const double u = DT<Acc>::unit * (sizeof(TA) > sizeof(Acc) || sizeof(TB) > sizeof(Acc) ? 3 : 1);
        bound[o] = 1.01 * (double(K + 1) * u * mag + DT<TC>::unit * 2 * (std::fabs(e) + mag)) + 1e-300;
      }
  for (int bd : {1, 3, 32}) {
    std::vector<TC> out = c0;
    tilec_array aa = View(a.data(), {kBlocks, M, K}), ba = View(b.data(), {kBlocks, K, N}),
                ca = View(out.data(), {kBlocks, M, N});
    Launch(c.Entry("mm"), {&aa, &ba, &ca}, {kBlocks}, bd);
    int bad = 0;
    for (size_t o = 0; o < out.size() && bad < 5; ++o) {
      double got = DT<TC>::ToDouble(out[o]);
      if (!(got == DT<TC>::ToDouble(ref[o]) && std::fabs(got - exact[o]) <= bound[o])) {
        ++bad;
        ADD_FAILURE() << M << "x" << K << "x" << N << " " << DT<TA>::name << "," << DT<TB>::name << "->"
                      << DT<TC>::name << " bd=" << bd << " @" << o << ": " << got << ", fma order "
                      << DT<TC>::ToDouble(ref[o]) << ", float64 " << exact[o] << " +- " << bound[o];
      }
    }
  }
}

const int kShapes[][3] = {{1, 1, 1}, {3, 5, 7}, {16, 16, 16}, {33, 17, 65}, {64, 64, 64}, {128, 32, 64}};
// The last two in float64 would need more than sm_75's 64 KiB of shared memory per block
// (E0401 under exec_ptxas); these are still several register blocks in each direction.
const int kShapes64[][3] = {{1, 1, 1}, {3, 5, 7}, {16, 16, 16}, {33, 17, 65}, {64, 32, 32}, {128, 16, 32}};

TEST(TileMatmulShapes, Float32) {
  for (auto& s : kShapes) Check<float, float, float>(s[0], s[1], s[2]);
}
TEST(TileMatmulShapes, Float64) {
  for (auto& s : kShapes64) Check<double, double, double>(s[0], s[1], s[2]);
}
TEST(TileMatmulShapes, Float16) {
  for (auto& s : kShapes) Check<half_bits, half_bits, half_bits>(s[0], s[1], s[2]);
}
// 16-bit factors into a float32 accumulator, float32 factors into float64, and float64 factors
// rounded into a float32 accumulator (each read converted to the accumulator's type).
TEST(TileMatmulShapes, MixedDtypes) {
  for (auto& s : {kShapes64[1], kShapes64[3], kShapes64[4]}) {
    Check<half_bits, half_bits, float>(s[0], s[1], s[2]);
    Check<half_bits, float, float>(s[0], s[1], s[2]);
    Check<float, float, double>(s[0], s[1], s[2]);
    Check<double, float, float>(s[0], s[1], s[2]);
  }
}
// bfloat16 factors (Warp allows them without a backward pass) into float32 and float16 sums.
TEST(TileMatmulShapes, BFloat16Factors) {
  for (auto& s : kShapes) Check<bf16_bits, bf16_bits, float>(s[0], s[1], s[2]);
  for (auto& s : {kShapes[1], kShapes[2], kShapes[4]}) Check<bf16_bits, bf16_bits, half_bits>(s[0], s[1], s[2]);
}
// Shapes of whole m16n8k16 instructions, where GPUs from sm_80 (and host-SIMT emulation with
// whole warps) take the tensor-core path: more 16x8 result blocks than warps, fewer, and a
// count that does not divide among them.
TEST(TileMatmulShapes, TensorCoreShapes) {
  const int shapes[][3] = {{16, 16, 8}, {16, 32, 24}, {48, 16, 40}, {32, 64, 8}, {80, 32, 56}};
  for (auto& s : shapes) {
    Check<half_bits, half_bits, float>(s[0], s[1], s[2]);
    Check<half_bits, half_bits, half_bits>(s[0], s[1], s[2]);
    Check<bf16_bits, bf16_bits, float>(s[0], s[1], s[2]);
  }
  Check<half_bits, half_bits, half_bits>(48, 32, 40, true);
}
// The GEMM loop: one result tile accumulated over steps of k, each a tile_matmul of float16
// tiles loaded at the step's offset. Each step's product is one fma chain in increasing k from
// zero, added to the running tile (on the tensor-core path too, under emulation), and a lane
// that runs ahead into the next step must not disturb what another still reads.
TEST(TileMatmulShapes, AccumulatingLoop) {
  const int M = 32, N = 24, KT = 16, steps = 5, K = KT * steps;
  const std::string src = R"(
@wp.kernel(enable_backward=False)
def gemm(a: wp.array2d[wp.float16], b: wp.array2d[wp.float16], c: wp.array2d[float]):
    acc = wp.tile_zeros(shape=(32, 24), dtype=float)
    for s in range(5):
        ta = wp.tile_load(a, shape=(32, 16), offset=(0, s * 16))
        tb = wp.tile_load(b, shape=(16, 24), offset=(s * 16, 0))
        wp.tile_matmul(ta, tb, acc)
    wp.tile_store(c, acc)
)";
  auto c = CompileText(src);
  ASSERT_TRUE(c.module);
  std::vector<half_bits> a = Random<half_bits>(size_t(M * K), 11), b = Random<half_bits>(size_t(K * N), 12);
  std::vector<float> ref(size_t(M * N));
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int s = 0; s < steps; ++s) {
        float step = 0.0f;
        for (int k = s * KT; k < (s + 1) * KT; ++k)
          step = std::fma(HalfToFloat(a[size_t(i * K + k)]), HalfToFloat(b[size_t(k * N + j)]), step);
        acc = step + acc;
      }
      ref[size_t(i * N + j)] = acc;
    }
  for (int bd : {1, 32, 64}) {
    std::vector<float> out(size_t(M * N), -1.0f);
    tilec_array aa = View(a.data(), {M, K}), ba = View(b.data(), {K, N}), ca = View(out.data(), {M, N});
    Launch(c.Entry("gemm"), {&aa, &ba, &ca}, {1}, bd);
    for (size_t o = 0; o < out.size(); ++o) ASSERT_EQ(out[o], ref[o]) << "bd=" << bd << " @" << o;
  }
}
// precision="tf32": the CPU computes in float32 (as Warp's CPU device does), the tensor-core
// path (host-SIMT emulation with whole warps here) rounds each factor to tf32 (nearest, ties
// away from zero) and then sums in the fma order. The returning form takes alpha as well.
float RoundToTf32(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  if ((u & 0x7F800000u) != 0x7F800000u) u = (u + 0x1000u) & 0xFFFFE000u;
  std::memcpy(&x, &u, 4);
  return x;
}

TEST(TileMatmulShapes, Tf32Precision) {
  const int M = 32, K = 24, N = 40;
  const std::string src = R"(
@wp.kernel(enable_backward=False)
def mm(a: wp.array2d[float], b: wp.array2d[float], c: wp.array2d[float], d: wp.array2d[float]):
    ta = wp.tile_load(a, shape=(32, 24))
    tb = wp.tile_load(b, shape=(24, 40))
    tc = wp.tile_load(c, shape=(32, 40))
    wp.tile_matmul(ta, tb, tc, precision="tf32")
    wp.tile_store(c, tc)
    wp.tile_store(d, wp.tile_matmul(ta, tb, 2.0, precision="tf32"))
)";
  auto c = CompileText(src);
  ASSERT_TRUE(c.module);
  const char* lanes = std::getenv("TILEC_SIMT_EMULATION");
  const int emulated_lanes = lanes ? std::atoi(lanes) : 0;  // source_util.h's EmulateIfAsked
  const bool tensor_cores = emulated_lanes >= 32 && emulated_lanes <= 1024 && emulated_lanes % 32 == 0;
  std::vector<float> a = Random<float>(size_t(M * K), 21), b = Random<float>(size_t(K * N), 22),
                     c0 = Random<float>(size_t(M * N), 23);
  auto factor = [&](float x) { return tensor_cores ? RoundToTf32(x) : x; };
  std::vector<float> ref(c0.size()), ref2(c0.size());
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f, acc2 = 0.0f;
      for (int k = 0; k < K; ++k) {
        acc = std::fma(factor(a[size_t(i * K + k)]), factor(b[size_t(k * N + j)]), acc);
        acc2 = std::fma(factor(a[size_t(i * K + k)]), factor(b[size_t(k * N + j)]), acc2);
      }
      ref[size_t(i * N + j)] = acc + c0[size_t(i * N + j)];
      ref2[size_t(i * N + j)] = acc2 * 2.0f;
    }
  std::vector<float> out = c0, out2(c0.size(), -1.0f);
  tilec_array aa = View(a.data(), {M, K}), ba = View(b.data(), {K, N}), ca = View(out.data(), {M, N}),
              da = View(out2.data(), {M, N});
  Launch(c.Entry("mm"), {&aa, &ba, &ca, &da}, {1}, 32);
  for (size_t o = 0; o < out.size(); ++o) {
    ASSERT_EQ(out[o], ref[o]) << "@" << o << (tensor_cores ? " (tf32)" : "");
    ASSERT_EQ(out2[o], ref2[o]) << "@" << o << (tensor_cores ? " (tf32)" : "");
  }
}
// A beta known only at launch: zero leaves out unread (NaN and inf there do not reach the
// result), as BLAS and Warp do; otherwise out = a @ b + beta * out. Gradients of both branches.
TEST(TileMatmulShapes, RuntimeBetaZeroLeavesOutUnread) {
  constexpr int M = 5, K = 6, N = 3;
  auto c = CompileText(R"(
@wp.kernel
def mm(a: wp.array2d[wp.float64], b: wp.array2d[wp.float64], c: wp.array2d[wp.float64], d: wp.array2d[wp.float64],
       beta: wp.float64):
    ta = wp.tile_load(a, shape=(5, 6))
    tb = wp.tile_load(b, shape=(6, 3))
    tc = wp.tile_load(c, shape=(5, 3))
    wp.tile_matmul(ta, tb, tc, beta=beta)
    wp.tile_store(d, tc)
)");
  ASSERT_TRUE(c.module);
  void* adj = c.Entry(autodiff::AdjointName("mm"));
  ASSERT_NE(adj, nullptr);
  std::vector<double> a = Random<double>(size_t(M * K), 31), b = Random<double>(size_t(K * N), 32),
                      g = Random<double>(size_t(M * N), 33);
  for (double beta : {0.0, 0.5}) {
    std::vector<double> out(size_t(M * N), std::nan("")), d(size_t(M * N), -1.0);
    for (size_t e = 0; e < out.size(); e += 2) out[e] = INFINITY;
    if (beta != 0.0) out = Random<double>(size_t(M * N), 34);
    tilec_array aa = View(a.data(), {M, K}), ba = View(b.data(), {K, N}), ca = View(out.data(), {M, N}),
                da = View(d.data(), {M, N});
    Launch(c.Entry("mm"), {&aa, &ba, &ca, &da, &beta}, {1}, 32);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double acc = 0.0;
        for (int k = 0; k < K; ++k) acc = std::fma(a[size_t(i * K + k)], b[size_t(k * N + j)], acc);
        double want = beta == 0.0 ? acc : acc + beta * out[size_t(i * N + j)];
        ASSERT_EQ(d[size_t(i * N + j)], want) << "beta " << beta << " @" << i << "," << j;
      }
    std::vector<double> ga(a.size(), 0.0), gb(b.size(), 0.0), gc(out.size(), 0.0), gd = g;
    aa.grad = ga.data();
    ba.grad = gb.data();
    ca.grad = gc.data();
    da.grad = gd.data();
    Launch(adj, {&aa, &ba, &ca, &da, &beta, nullptr, nullptr, nullptr, nullptr, nullptr}, {1}, 32);
    for (int i = 0; i < M; ++i)
      for (int k = 0; k < K; ++k) {
        double want = 0;
        for (int j = 0; j < N; ++j) want += g[size_t(i * N + j)] * b[size_t(k * N + j)];
        EXPECT_NEAR(ga[size_t(i * K + k)], want, 1e-12) << "beta " << beta;
      }
    for (size_t e = 0; e < gc.size(); ++e) EXPECT_EQ(gc[e], beta * g[e]) << "beta " << beta;
  }
}

TEST(TileMatmulShapes, ReturningForm) {
  Check<float, float, float>(33, 17, 65, true);
  Check<half_bits, half_bits, half_bits>(3, 5, 7, true);
}

}  // namespace
}  // namespace tilec
