// CUDA reference for kernels/matmul_tc.tile: block program i multiplies its (64, 64) float16
// tiles of a and b (rows i*64.., bounds-checked loads into shared memory, zeros outside) on
// tensor cores through the WMMA API (16x16x16 fragments, float32 accumulators) and stores the
// float32 product at the same rows of c.
#include <cuda_fp16.h>
#include <mma.h>

#include "ref_common.cuh"

namespace {
constexpr int kT = 64, kF = 16, kWarps = REF_BLOCK / 32;
}

extern "C" __global__ void __launch_bounds__(REF_BLOCK)
ref_matmul_tc(tilec_array a, tilec_array b, tilec_array c, tilec_launch launch) {
  using namespace nvcuda;
  __shared__ __align__(32) __half sa[kT * kT], sb[kT * kT];
  __shared__ __align__(32) float sc[kT * kT];
  const int64_t total = RefTotal(launch);
  const int warp = threadIdx.x / 32;
  for (int64_t i = blockIdx.x; i < total; i += gridDim.x) {
    for (int e = threadIdx.x; e < kT * kT; e += REF_BLOCK) {
      const int64_t r = i * kT + e / kT, col = e % kT;
      sa[e] = RefIn(a, 0, r) && RefIn(a, 1, col) ? *RefAt2<__half>(a, r, col) : __float2half(0.0f);
      sb[e] = RefIn(b, 0, r) && RefIn(b, 1, col) ? *RefAt2<__half>(b, r, col) : __float2half(0.0f);
    }
    __syncthreads();
    // Each warp owns 16x16 blocks of the product, as tilec's warps own 16x8 ones.
    for (int blk = warp; blk < (kT / kF) * (kT / kF); blk += kWarps) {
      const int m0 = (blk / (kT / kF)) * kF, n0 = (blk % (kT / kF)) * kF;
      wmma::fragment<wmma::accumulator, kF, kF, kF, float> acc;
      wmma::fill_fragment(acc, 0.0f);
      for (int k0 = 0; k0 < kT; k0 += kF) {
        wmma::fragment<wmma::matrix_a, kF, kF, kF, __half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, kF, kF, kF, __half, wmma::row_major> fb;
        wmma::load_matrix_sync(fa, sa + m0 * kT + k0, kT);
        wmma::load_matrix_sync(fb, sb + k0 * kT + n0, kT);
        wmma::mma_sync(acc, fa, fb, acc);
      }
      wmma::store_matrix_sync(sc + m0 * kT + n0, acc, kT, wmma::mem_row_major);
    }
    __syncthreads();
    for (int e = threadIdx.x; e < kT * kT; e += REF_BLOCK) {
      const int64_t r = i * kT + e / kT, col = e % kT;
      if (RefIn(c, 0, r) && RefIn(c, 1, col)) *RefAt2<float>(c, r, col) = sc[e];
    }
    __syncthreads();
  }
}
