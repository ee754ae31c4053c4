// bench_gpu's GEMM mode: TFLOP/s of tilec's tiled GEMM kernels (bench/kernels/gemm.tile, PTX in
// the signature file bench_gpu_prepare wrote) against cuBLAS on the same data, cuBLAS being
// dlopen'ed at run time so that bench_gpu neither links nor needs it. See bench_gpu_gemm.cpp.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tilec::bench {

struct GemmOptions {
  std::string sig;                                 // gemm.sig: gemm_f16, gemm_f32
  std::vector<int64_t> sizes = {1024, 2048, 4096, 8192};  // M = N = K
  std::string tiles;                               // "gemm_f16=64x64,gemm_f32=64x64": (TM, TN) per kernel
  int reps = 5;
  // Test mode (--gemm-cpu 1): `sig` is a host module (`tilec compile --target=host -o`) run on
  // the CPU device, so that launch geometry, arguments and checks run without a GPU; no cuBLAS.
  bool cpu = false;
};

// Prints CSV `dtype,size,impl,status,min_s,median_s,reps,max_err,note`; one `skipped` row and
// exit 0 without a CUDA driver or GPU.
int RunGemm(const GemmOptions& opts);

// No GPU needed: the host reference and result check against a naive loop, the cuBLAS operand
// mapping (row-major through column-major) on the host, and where libcublas is found. Exit 1
// on a failure.
int GemmSelfTest();

}  // namespace tilec::bench
