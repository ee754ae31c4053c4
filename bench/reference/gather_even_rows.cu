// CUDA reference for the specification page's gather_even_rows: a 2x4 tile gathered from
// rows 0 and 2 of x (tile_load_indexed) and stored into y (tile_store).
#include "ref_common.cuh"

namespace {
constexpr int kTileM = 2, kTileN = 4;
}

extern "C" __global__ void __launch_bounds__(REF_BLOCK)
ref_gather_even_rows(tilec_array x, tilec_array y, tilec_launch launch) {
  __shared__ int rows[kTileM];
  const int64_t total = RefTotal(launch);
  for (int64_t b = blockIdx.x; b < total; b += gridDim.x) {
    for (int l = threadIdx.x; l < kTileM; l += REF_BLOCK) rows[l] = l * 2;  // tile_arange * 2
    __syncthreads();
    for (int e = threadIdx.x; e < kTileM * kTileN; e += REF_BLOCK) {
      const int r = e / kTileN, c = e % kTileN;
      const int64_t gr = rows[r];
      float v = 0.0f;
      if (RefIn(x, 0, gr) && RefIn(x, 1, c)) v = *RefAt2<float>(x, gr, c);
      if (RefIn(y, 0, r) && RefIn(y, 1, c)) *RefAt2<float>(y, r, c) = v;
    }
    __syncthreads();
  }
}
