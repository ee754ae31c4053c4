// CUDA reference for kernels/gather_scatter_2d.tile: gather 32x64 rows through src_rows,
// u = smooth(t) * scale + sin(t), atomically add u into y at dst_rows (previous values unused).
#include "ref_common.cuh"

namespace {
constexpr int kTileM = 32, kTileN = 64;
__device__ __forceinline__ float Smooth(float v) { return v / (1.0f + fabsf(v)); }
}

extern "C" __global__ void __launch_bounds__(REF_BLOCK)
ref_gather_scatter_2d(tilec_array x, tilec_array src_rows, tilec_array dst_rows, float scale,
                      tilec_array y, tilec_launch launch) {
  __shared__ int src[kTileM], dst[kTileM];
  const int64_t total = RefTotal(launch);
  for (int64_t i = blockIdx.x; i < total; i += gridDim.x) {
    RefLoadIndices(src_rows, i * kTileM, kTileM, src);
    RefLoadIndices(dst_rows, i * kTileM, kTileM, dst);
    __syncthreads();
    for (int e = threadIdx.x; e < kTileM * kTileN; e += REF_BLOCK) {
      const int r = e / kTileN, c = e % kTileN;
      const int64_t gs = src[r], gd = dst[r];
      float t = 0.0f;
      if (RefIn(x, 0, gs) && RefIn(x, 1, c)) t = *RefAt2<float>(x, gs, c);
      const float u = Smooth(t) * scale + sinf(t);
      if (RefIn(y, 0, gd) && RefIn(y, 1, c)) atomicAdd(RefAt2<float>(y, gd, c), u);
    }
    __syncthreads();
  }
}
