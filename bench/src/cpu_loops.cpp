// Hand-written peers: what a C++ programmer writes for the same operations, at -O3 with the
// machine's vector units. The scatter-add uses relaxed atomic float adds, as tilec must.
#include "bench/src/cpu_loops.h"

#include <atomic>
#include <cstring>

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

}  // namespace tilec::bench
