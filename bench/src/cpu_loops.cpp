// Hand-written peers: what a C++ programmer writes for the same operations, at -O3 with the
// machine's vector units. The scatter-add uses relaxed atomic float adds, as tilec must.
#include "bench/src/cpu_loops.h"

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>

#if defined(__AVX512F__) || defined(__FMA__)
#include <immintrin.h>
#endif

namespace tilec::bench {

void CopyFloats(ThreadPool& pool, const float* __restrict src, float* __restrict dst, int64_t n) {
  pool.For(n, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) dst[i] = src[i];
  });
}

void GatherRows(ThreadPool& pool, const float* x, int64_t x_rows, const int32_t* idx, int64_t n,
                float* y, int64_t width) {
  const size_t row_bytes = static_cast<size_t>(width) * sizeof(float);
  pool.For(n, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) {
      const int64_t g = idx[i];
      float* dst = y + i * width;
      if (g >= 0 && g < x_rows) std::memcpy(dst, x + g * width, row_bytes);
      else std::memset(dst, 0, row_bytes);
    }
  });
}

void ScatterAddRows(ThreadPool& pool, const float* x, const int32_t* idx, int64_t n, float* y,
                    int64_t y_rows, int64_t width) {
  pool.For(n, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) {
      const int64_t g = idx[i];
      if (g < 0 || g >= y_rows) continue;
      const float* src = x + i * width;
      float* dst = y + g * width;
      for (int64_t c = 0; c < width; ++c)
        std::atomic_ref<float>(dst[c]).fetch_add(src[c], std::memory_order_relaxed);
    }
  });
}

namespace {

// Enough independent accumulators to cover the FMA latency on every port (4 cycles x 2 ports
// on current x86 needs 8; 12 leaves slack), in registers: 12 of the 16 or 32 vector registers.
constexpr int kAccs = 12;

#if defined(__AVX512F__)
using Vec = __m512;
constexpr int kLanes = 16;
inline Vec Splat(float x) { return _mm512_set1_ps(x); }
inline Vec Fma(Vec a, Vec b, Vec c) { return _mm512_fmadd_ps(a, b, c); }
inline float Sum(Vec v) {
  alignas(64) float f[16];
  _mm512_store_ps(f, v);
  float s = 0;
  for (float x : f) s += x;
  return s;
}
#elif defined(__FMA__)
using Vec = __m256;
constexpr int kLanes = 8;
inline Vec Splat(float x) { return _mm256_set1_ps(x); }
inline Vec Fma(Vec a, Vec b, Vec c) { return _mm256_fmadd_ps(a, b, c); }
inline float Sum(Vec v) {
  alignas(32) float f[8];
  _mm256_store_ps(f, v);
  return f[0] + f[1] + f[2] + f[3] + f[4] + f[5] + f[6] + f[7];
}
#else
using Vec = float;
constexpr int kLanes = 1;
inline Vec Splat(float x) { return x; }
inline Vec Fma(Vec a, Vec b, Vec c) { return std::fma(a, b, c); }
inline float Sum(Vec v) { return v; }
#endif

}  // namespace

const char* FmaPeakIsa() {
#if defined(__AVX512F__)
  return "AVX-512 (zmm)";
#elif defined(__FMA__)
  return "AVX2+FMA (ymm)";
#else
  return "scalar fma";
#endif
}

double FmaPeakWork(ThreadPool& pool, int64_t chunks, int64_t iters_per_chunk) {
  std::atomic<float> sink{0};
  pool.For(chunks, [&](int64_t first, int64_t last) {
    for (int64_t c = first; c < last; ++c) {
      Vec acc[kAccs];
      for (int j = 0; j < kAccs; ++j) acc[j] = Splat(float(j + c));
      // acc -> acc * m + d converges to d / (1 - m): no overflow or subnormals at any count.
      const Vec m = Splat(0.999f), d = Splat(1e-3f);
      for (int64_t i = 0; i < iters_per_chunk; ++i)
        for (int j = 0; j < kAccs; ++j) acc[j] = Fma(acc[j], m, d);
      float s = 0;
      for (int j = 0; j < kAccs; ++j) s += Sum(acc[j]);
      sink.fetch_add(s, std::memory_order_relaxed);
    }
  });
  if (sink.load() == -1.0f) std::abort();  // keeps the loop's results alive
  return 2.0 * double(kLanes) * kAccs * double(iters_per_chunk) * double(chunks);
}

}  // namespace tilec::bench
