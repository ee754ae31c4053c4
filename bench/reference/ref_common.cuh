// Helpers shared by the reference CUDA kernels: the tilec GPU ABI (arrays by value with byte
// strides, a trailing tilec_launch; block programs stepped by gridDim.x) and both-sided bounds
// checks, so that each reference does exactly what its Tile kernel promises.
#pragma once
#include <stdint.h>

#include "tilec/abi.h"

#ifndef REF_BLOCK
#define REF_BLOCK 256  // lanes per block, as tilec's default --block-dim
#endif

// Unused extents are 1 (abi.h); constant indices keep the parameter out of local memory.
__device__ __forceinline__ int64_t RefTotal(const tilec_launch& l) {
  return l.dim[0] * l.dim[1] * l.dim[2] * l.dim[3];
}

__device__ __forceinline__ bool RefIn(const tilec_array& a, int d, int64_t g) {
  return g >= 0 && g < a.shape[d];
}

template <typename T>
__device__ __forceinline__ T* RefAt1(const tilec_array& a, int64_t i) {
  return reinterpret_cast<T*>(static_cast<char*>(a.data) + i * a.strides[0]);
}
template <typename T>
__device__ __forceinline__ T* RefAt2(const tilec_array& a, int64_t i, int64_t j) {
  return reinterpret_cast<T*>(static_cast<char*>(a.data) + i * a.strides[0] + j * a.strides[1]);
}
template <typename T>
__device__ __forceinline__ T* RefAt3(const tilec_array& a, int64_t i, int64_t j, int64_t k) {
  return reinterpret_cast<T*>(static_cast<char*>(a.data) + i * a.strides[0] + j * a.strides[1] +
                              k * a.strides[2]);
}

// A 1-D int32 tile_load of `n` indices at `offset` into shared memory (out of bounds: 0).
__device__ __forceinline__ void RefLoadIndices(const tilec_array& a, int64_t offset, int n,
                                               int* dst) {
  for (int l = threadIdx.x; l < n; l += REF_BLOCK) {
    const int64_t g = offset + l;
    dst[l] = RefIn(a, 0, g) ? *RefAt1<int>(a, g) : 0;
  }
}
