// CUDA references for the throughput kernels (bench/kernels/throughput.tile.in) at each row
// width: gather_rows_<B>B and scatter_add_rows_<B>B, TILE_M rows of TILE_W floats per block.
#include "ref_common.cuh"

namespace {
template <int M, int W>
__device__ __forceinline__ void GatherRows(const tilec_array& x, const tilec_array& idx,
                                           const tilec_array& y, const tilec_launch& launch) {
  __shared__ int rows[M];
  const int64_t total = RefTotal(launch);
  for (int64_t i = blockIdx.x; i < total; i += gridDim.x) {
    RefLoadIndices(idx, i * M, M, rows);
    __syncthreads();
    for (int e = threadIdx.x; e < M * W; e += REF_BLOCK) {
      const int r = e / W, c = e % W;
      const int64_t gr = rows[r], yr = i * M + r;
      float v = 0.0f;
      if (RefIn(x, 0, gr) && RefIn(x, 1, c)) v = *RefAt2<float>(x, gr, c);
      if (RefIn(y, 0, yr) && RefIn(y, 1, c)) *RefAt2<float>(y, yr, c) = v;
    }
    __syncthreads();
  }
}

template <int M, int W>
__device__ __forceinline__ void ScatterAddRows(const tilec_array& x, const tilec_array& idx,
                                               const tilec_array& y, const tilec_launch& launch) {
  __shared__ int rows[M];
  const int64_t total = RefTotal(launch);
  for (int64_t i = blockIdx.x; i < total; i += gridDim.x) {
    RefLoadIndices(idx, i * M, M, rows);
    __syncthreads();
    for (int e = threadIdx.x; e < M * W; e += REF_BLOCK) {
      const int r = e / W, c = e % W;
      const int64_t xr = i * M + r, gr = rows[r];
      float t = 0.0f;
      if (RefIn(x, 0, xr) && RefIn(x, 1, c)) t = *RefAt2<float>(x, xr, c);
      if (RefIn(y, 0, gr) && RefIn(y, 1, c)) atomicAdd(RefAt2<float>(y, gr, c), t);
    }
    __syncthreads();
  }
}
}  // namespace

// Rows per block keep 2048 floats per tile, as the bench driver instantiates the Tile kernels.
#define REF_THROUGHPUT(BYTES, M, W)                                                          \
  extern "C" __global__ void __launch_bounds__(REF_BLOCK) ref_gather_rows_##BYTES##B(       \
      tilec_array x, tilec_array idx, tilec_array y, tilec_launch launch) {                  \
    GatherRows<M, W>(x, idx, y, launch);                                                     \
  }                                                                                          \
  extern "C" __global__ void __launch_bounds__(REF_BLOCK) ref_scatter_add_rows_##BYTES##B( \
      tilec_array x, tilec_array idx, tilec_array y, tilec_launch launch) {                  \
    ScatterAddRows<M, W>(x, idx, y, launch);                                                 \
  }

REF_THROUGHPUT(16, 512, 4)
REF_THROUGHPUT(64, 128, 16)
REF_THROUGHPUT(256, 32, 64)
REF_THROUGHPUT(1024, 8, 256)
REF_THROUGHPUT(4096, 2, 1024)
