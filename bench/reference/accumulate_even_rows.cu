// CUDA reference for the specification page's accumulate_even_rows: a 2x4 tile of x
// atomically added into rows 0 and 2 of y, the previous values stored into `previous`.
#include "ref_common.cuh"

namespace {
constexpr int kTileM = 2, kTileN = 4;
}

extern "C" __global__ void __launch_bounds__(REF_BLOCK)
ref_accumulate_even_rows(tilec_array x, tilec_array y, tilec_array previous,
                         tilec_launch launch) {
  __shared__ int rows[kTileM];
  const int64_t total = RefTotal(launch);
  for (int64_t b = blockIdx.x; b < total; b += gridDim.x) {
    for (int l = threadIdx.x; l < kTileM; l += REF_BLOCK) rows[l] = l * 2;
    __syncthreads();
    for (int e = threadIdx.x; e < kTileM * kTileN; e += REF_BLOCK) {
      const int r = e / kTileN, c = e % kTileN;
      float t = 0.0f;
      if (RefIn(x, 0, r) && RefIn(x, 1, c)) t = *RefAt2<float>(x, r, c);
      const int64_t gr = rows[r];
      float p = 0.0f;
      if (RefIn(y, 0, gr) && RefIn(y, 1, c)) p = atomicAdd(RefAt2<float>(y, gr, c), t);
      if (RefIn(previous, 0, r) && RefIn(previous, 1, c)) *RefAt2<float>(previous, r, c) = p;
    }
    __syncthreads();
  }
}
