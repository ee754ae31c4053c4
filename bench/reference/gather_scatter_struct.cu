// CUDA reference for kernels/gather_scatter_struct.tile: gather Particle structs and weights,
// add the atomic fields (px, py, mass, hits) into cells (flags untouched), and add
// w * 0.5 + sqrt(w) into weighted.
#include "ref_common.cuh"

namespace {
constexpr int kTileM = 64;
struct Particle {
  float px, py, mass;
  int hits;
  uint8_t flags;
};
}

extern "C" __global__ void __launch_bounds__(REF_BLOCK)
ref_gather_scatter_struct(tilec_array particles, tilec_array weights, tilec_array src,
                          tilec_array cell, tilec_array cells, tilec_array weighted,
                          tilec_launch launch) {
  __shared__ int s[kTileM], c[kTileM];
  const int64_t total = RefTotal(launch);
  for (int64_t i = blockIdx.x; i < total; i += gridDim.x) {
    RefLoadIndices(src, i * kTileM, kTileM, s);
    RefLoadIndices(cell, i * kTileM, kTileM, c);
    __syncthreads();
    for (int e = threadIdx.x; e < kTileM; e += REF_BLOCK) {
      const int64_t gs = s[e], gc = c[e];
      Particle p = {};
      float w = 0.0f;
      if (RefIn(particles, 0, gs)) p = *RefAt1<Particle>(particles, gs);
      if (RefIn(weights, 0, gs)) w = *RefAt1<float>(weights, gs);
      if (RefIn(cells, 0, gc)) {
        Particle* d = RefAt1<Particle>(cells, gc);
        atomicAdd(&d->px, p.px);
        atomicAdd(&d->py, p.py);
        atomicAdd(&d->mass, p.mass);
        atomicAdd(&d->hits, p.hits);
      }
      if (RefIn(weighted, 0, gc)) atomicAdd(RefAt1<float>(weighted, gc), w * 0.5f + sqrtf(w));
    }
    __syncthreads();
  }
}
