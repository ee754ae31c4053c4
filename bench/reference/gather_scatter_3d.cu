// CUDA reference for kernels/gather_scatter_3d.tile: a 2x16x32 tile gathered along axis 1 at
// offset (b*2, 0, 0), u = 2t - exp(t), atomically added along axis 1, previous values stored.
#include "ref_common.cuh"

namespace {
constexpr int kTileB = 2, kTileR = 16, kTileC = 32;
}

extern "C" __global__ void __launch_bounds__(REF_BLOCK)
ref_gather_scatter_3d(tilec_array x, tilec_array src_rows, tilec_array dst_rows, tilec_array y,
                      tilec_array previous, tilec_launch launch) {
  __shared__ int src[kTileR], dst[kTileR];
  const int64_t total = RefTotal(launch);
  for (int64_t lin = blockIdx.x; lin < total; lin += gridDim.x) {
    const int64_t b = lin / launch.dim[1], j = lin % launch.dim[1];  // b, j = wp.tid()
    RefLoadIndices(src_rows, j * kTileR, kTileR, src);
    RefLoadIndices(dst_rows, j * kTileR, kTileR, dst);
    __syncthreads();
    for (int e = threadIdx.x; e < kTileB * kTileR * kTileC; e += REF_BLOCK) {
      const int bb = e / (kTileR * kTileC), r = (e / kTileC) % kTileR, c = e % kTileC;
      const int64_t g0 = b * kTileB + bb;
      const int64_t gs = src[r], gd = dst[r];
      float t = 0.0f;
      if (RefIn(x, 0, g0) && RefIn(x, 1, gs) && RefIn(x, 2, c)) t = *RefAt3<float>(x, g0, gs, c);
      const float u = t * 2.0f - expf(t);
      float p = 0.0f;
      if (RefIn(y, 0, g0) && RefIn(y, 1, gd) && RefIn(y, 2, c))
        p = atomicAdd(RefAt3<float>(y, g0, gd, c), u);
      const int64_t pr = j * kTileR + r;
      if (RefIn(previous, 0, g0) && RefIn(previous, 1, pr) && RefIn(previous, 2, c))
        *RefAt3<float>(previous, g0, pr, c) = p;
    }
    __syncthreads();
  }
}
