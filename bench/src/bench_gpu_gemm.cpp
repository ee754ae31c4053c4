// bench_gpu --gemm: tilec's tiled GEMMs (gemm_f16: float16 factors, float32 sums, tensor cores;
// gemm_f32: float32 FMA) against cuBLAS (cublasGemmEx 16F x 16F -> 32F with 32F compute, and
// cublasSgemm without TF32) for square sizes, on the same deterministic random factors. Every
// result is checked at sampled entries against a float64 host product before it is timed.
#include "bench/src/bench_gpu_gemm.h"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "bench/src/bench_gpu_util.h"
#include "support/half.h"
#include "tilec/runtime.h"

namespace tilec::bench {
namespace {

// Sampled entries must lie within kTol * sum_k |a_ik b_kj| of the float64 product. Rounding in
// a float32 sum stays near 1e-7 of that here (the self-test measures it at K = 8192), while an
// entry missing one average product term is off by 1/K of it, above kTol up to K = 10^4.
constexpr double kTol = 1e-4;
constexpr int kSamples = 1024;

// ---- cuBLAS, reached through dlopen: its C API declared here, so that bench_gpu builds with
// the driver-free runtime alone and runs (without the cuBLAS rows) where the library is missing.
// The values are those of cublas_api.h and library_types.h (CUDA 12 and 13 alike).
using CublasHandle = void*;
using CublasStatus = int;
constexpr int kCublasOpN = 0;          // CUBLAS_OP_N
constexpr int kCudaR32F = 0;           // CUDA_R_32F
constexpr int kCudaR16F = 2;           // CUDA_R_16F
constexpr int kCublasCompute32F = 68;  // CUBLAS_COMPUTE_32F
constexpr int kCublasGemmDefault = -1; // CUBLAS_GEMM_DEFAULT
constexpr int kCublasDefaultMath = 0;  // CUBLAS_DEFAULT_MATH: no TF32 for cublasSgemm

struct Cublas {
  std::string path;  // the library loaded; empty when none
  std::string why;   // why none was
  CublasStatus (*create)(CublasHandle*) = nullptr;
  CublasStatus (*destroy)(CublasHandle) = nullptr;
  CublasStatus (*get_version)(CublasHandle, int*) = nullptr;
  CublasStatus (*set_math_mode)(CublasHandle, int) = nullptr;
  CublasStatus (*sgemm)(CublasHandle, int, int, int, int, int, const float*, const float*, int, const float*, int,
                        const float*, float*, int) = nullptr;
  CublasStatus (*gemm_ex)(CublasHandle, int, int, int, int, int, const void*, const void*, int, int, const void*,
                          int, int, const void*, void*, int, int, int, int) = nullptr;

  // $CUDA_HOME/lib64 and /usr/local/cuda/lib64 first (a toolkit's own copy), then the dynamic
  // linker's search path; the newest soname first. Never closed: cuBLAS tears down at exit.
  bool Load() {
    std::vector<std::string> dirs;
    for (const char* env : {"CUDA_HOME", "CUDA_PATH"})
      if (const char* d = std::getenv(env); d && *d) dirs.push_back(std::string(d) + "/lib64/");
    dirs.push_back("/usr/local/cuda/lib64/");
    dirs.push_back("");
    std::string first_error;
    for (const std::string& dir : dirs) {
      for (const char* name : {"libcublas.so.13", "libcublas.so.12", "libcublas.so"}) {
        const std::string p = dir + name;
        void* h = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!h) {
          if (first_error.empty()) first_error = dlerror();
          continue;
        }
        bool all = true;
        auto sym = [&](auto& fn, const char* s) {
          fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(h, s));
          if (!fn) all = false;
        };
        sym(create, "cublasCreate_v2");
        sym(destroy, "cublasDestroy_v2");
        sym(get_version, "cublasGetVersion_v2");
        sym(set_math_mode, "cublasSetMathMode");
        sym(sgemm, "cublasSgemm_v2");
        sym(gemm_ex, "cublasGemmEx");
        if (all) {
          path = p;
          return true;
        }
        if (first_error.empty()) first_error = p + " lacks a cuBLAS v2 entry point";
        dlclose(h);
      }
    }
    why = "no libcublas (libcublas.so.13/.12/.so in $CUDA_HOME/lib64, /usr/local/cuda/lib64 and the library path: " +
          first_error + ")";
    return false;
  }
};

// Row-major C (M x N) = A (M x K) B (K x N) is, read column-major, C^T (N x M) = B^T A^T, with
// B^T and A^T being B and A as they lie in memory: cuBLAS gets B as its first factor and A as
// its second, dimensions (N, M, K), no transposes.
struct ColumnMajorCall {
  int m, n, k;
  int lda, ldb, ldc;
};

ColumnMajorCall ForRowMajor(int64_t M, int64_t N, int64_t K) {
  return {int(N), int(M), int(K), int(N), int(K), int(N)};
}

// The (first, second) factors of that call for row-major a and b.
template <typename T>
std::pair<T, T> CublasFactors(T a, T b) {
  return {b, a};
}

// cuBLAS's gemm without transposes, by its definition, for the self-test:
// C[i + j ldc] = sum_l A[i + l lda] B[l + j ldb].
void HostColumnMajorGemm(const ColumnMajorCall& c, const float* A, const float* B, float* C) {
  for (int j = 0; j < c.n; ++j)
    for (int i = 0; i < c.m; ++i) {
      double s = 0;
      for (int l = 0; l < c.k; ++l) s += double(A[i + int64_t(l) * c.lda]) * B[l + int64_t(j) * c.ldb];
      C[i + int64_t(j) * c.ldc] = float(s);
    }
}

// ---- The problem and its host reference.

struct Problem {
  int64_t M = 0, N = 0, K = 0;
  bool half = false;
  std::vector<float> a, b;        // the factors' values (float16-representable when half)
  std::vector<uint16_t> ah, bh;   // their float16 bits, when half
};

// Uniform in [-1, 1), from a fixed seed: the same factors on every machine and run.
Problem MakeProblem(int64_t M, int64_t N, int64_t K, bool half, uint64_t seed) {
  Problem p;
  p.M = M, p.N = N, p.K = K, p.half = half;
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  auto next = [&s] {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    return float(int64_t((s * 0x2545F4914F6CDD1Dull) >> 40) - (1 << 23)) * (1.0f / (1 << 23));
  };
  auto fill = [&](std::vector<float>& v, std::vector<uint16_t>& h, int64_t n) {
    v.resize(size_t(n));
    if (half) h.resize(size_t(n));
    for (int64_t i = 0; i < n; ++i) {
      float x = next();
      if (half) {
        h[size_t(i)] = FloatToHalf(x);
        x = HalfToFloat(h[size_t(i)]);
      }
      v[size_t(i)] = x;
    }
  };
  fill(p.a, p.ah, M * K);
  fill(p.b, p.bh, K * N);
  return p;
}

struct RefEntry {
  double value, sum_abs;
};

// sum_k a[i, k] b[k, j] and sum_k |a[i, k] b[k, j]| in float64, k increasing.
RefEntry Reference(const Problem& p, int64_t i, int64_t j) {
  double s = 0, s_abs = 0;
  for (int64_t k = 0; k < p.K; ++k) {
    const double t = double(p.a[size_t(i * p.K + k)]) * p.b[size_t(k * p.N + j)];
    s += t;
    s_abs += std::fabs(t);
  }
  return {s, s_abs};
}

// The entries checked: the four corners, then pseudo-random ones.
std::vector<std::pair<int64_t, int64_t>> Samples(int64_t M, int64_t N, int count) {
  std::vector<std::pair<int64_t, int64_t>> out = {{0, 0}, {0, N - 1}, {M - 1, 0}, {M - 1, N - 1}};
  uint64_t s = 0x243F6A8885A308D3ull;
  while (int(out.size()) < count) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    out.push_back({int64_t((s >> 33) % uint64_t(M)), int64_t((s >> 13) % uint64_t(N))});
  }
  return out;
}

// The largest |got - want| / sum|a b| over the samples (infinity for a NaN), row-major got.
double MaxError(const Problem& p, const std::vector<float>& got) {
  double worst = 0;
  for (auto [i, j] : Samples(p.M, p.N, kSamples)) {
    const RefEntry r = Reference(p, i, j);
    const double g = got[size_t(i * p.N + j)];
    const double e = std::fabs(g - r.value) / std::max(r.sum_abs, 1e-30);
    worst = std::max(worst, std::isfinite(e) ? e : std::numeric_limits<double>::infinity());
  }
  return worst;
}

// "valid (max err 2.1e-07)": the error relative to sum|a*b|, whose bound kTol the table states.
std::string Verdict(double err) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s (max err %.2g%s)", err <= kTol ? "valid" : "WRONG RESULT", err,
                err <= kTol ? "" : " > 1e-4");
  return buf;
}

// "gemm_f16=64x64,gemm_f32=64x64" -> kernel -> (TM, TN).
std::map<std::string, std::pair<int64_t, int64_t>> ParseTiles(const std::string& text) {
  std::map<std::string, std::pair<int64_t, int64_t>> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    const size_t eq = item.find('='), x = item.find('x', eq == std::string::npos ? 0 : eq);
    if (eq == std::string::npos || x == std::string::npos) continue;
    out[item.substr(0, eq)] = {std::atoll(item.c_str() + eq + 1), std::atoll(item.c_str() + x + 1)};
  }
  return out;
}

void Row(const char* dtype, int64_t n, const char* impl, const char* status, const Stat* s, double err,
         const std::string& note) {
  if (s)
    std::printf("%s,%lld,%s,%s,%.9g,%.9g,%d,%.3g,%s\n", dtype, (long long)n, impl, status, s->min_s, s->median_s,
                s->reps, err, Flat(note).c_str());
  else
    std::printf("%s,%lld,%s,%s,,,,,%s\n", dtype, (long long)n, impl, status, Flat(note).c_str());
  std::fflush(stdout);
}

}  // namespace

int RunGemm(const GemmOptions& opts) {
  std::printf("dtype,size,impl,status,min_s,median_s,reps,max_err,note\n");
  const bool cpu = opts.cpu;
  if (!cpu && !rt::IsCudaAvailable()) {
    std::printf("all,,,skipped,,,,,%s\n", Flat(rt::CudaUnavailableReason()).c_str());
    return 0;
  }
  const rt::Device dev = cpu ? rt::Device::Cpu() : rt::Device::Cuda(0);
  rt::SetNoticeHandler(nullptr);
  rt::Module module;
  std::string why;
  bool have_module = false;
  if (cpu) {
    try {
      module = rt::Module::Load(opts.sig);
      have_module = true;
    } catch (const std::exception& e) {
      why = e.what();
    }
  } else {
    have_module = LoadSignature(opts.sig, module, why);
  }
  const auto tiles = ParseTiles(opts.tiles);
  Cublas blas;
  if (cpu)
    blas.why = "cuBLAS runs on cuda devices only";
  else
    blas.Load();
  CublasHandle handle = nullptr;
  std::string blas_note;  // the library's version, or why its rows are n/a

  struct Case {
    const char* dtype;
    const char* kernel;
    bool half;
  };
  for (int64_t n : opts.sizes) {
    for (const Case& c : {Case{"float16", "gemm_f16", true}, Case{"float32", "gemm_f32", false}}) {
      try {
        const Problem p = MakeProblem(n, n, n, c.half, c.half ? 16 : 32);
        const ScalarType in = c.half ? ScalarType::Float16 : ScalarType::Float32;
        rt::Array a = c.half ? rt::Array::FromHost(p.ah.data(), {n, n}, in, dev)
                             : rt::Array::FromHost(p.a.data(), {n, n}, in, dev);
        rt::Array b = c.half ? rt::Array::FromHost(p.bh.data(), {n, n}, in, dev)
                             : rt::Array::FromHost(p.b.data(), {n, n}, in, dev);
        rt::Array out = rt::Array::Zeros({n, n}, ScalarType::Float32, dev);
        // The context exists from the first allocation on; cuBLAS joins it (the primary one).
        if (!blas.path.empty() && !handle && blas_note.empty()) {
          if (CublasStatus st = blas.create(&handle); st != 0) {
            handle = nullptr;
            blas_note = "cublasCreate_v2 failed (status " + std::to_string(st) + ")";
          } else {
            blas.set_math_mode(handle, kCublasDefaultMath);
            int v = 0;
            blas.get_version(handle, &v);
            blas_note = "cuBLAS " + std::to_string(v / 10000) + "." + std::to_string(v % 10000 / 100) + "." +
                        std::to_string(v % 100);
          }
        }
        auto measure = [&](const char* impl, const std::function<void()>& launch, const std::string& what) {
          try {
            out.Zero();
            launch();
            rt::Synchronize(dev);
            const double err = MaxError(p, out.ToVector<float>());
            const Stat s = TimeOnDevice(launch, opts.reps, dev);
            Row(c.dtype, n, impl, "ok", &s, err, Verdict(err) + "; " + what);
          } catch (const std::exception& e) {
            Row(c.dtype, n, impl, "n/a", nullptr, 0, e.what());
          }
        };

        // tilec: block program (i, j) owns the (TM, TN) block of the product.
        auto tile = tiles.find(c.kernel);
        if (!have_module) {
          Row(c.dtype, n, "tilec", "n/a", nullptr, 0, why);
        } else if (tile == tiles.end() || tile->second.first <= 0 || tile->second.second <= 0) {
          Row(c.dtype, n, "tilec", "n/a", nullptr, 0, std::string("no tile shape for ") + c.kernel + " (--gemm-tiles)");
        } else if (!module.HasKernel(c.kernel)) {
          Row(c.dtype, n, "tilec", "n/a", nullptr, 0, std::string("no kernel ") + c.kernel + " in " + opts.sig);
        } else {
          const rt::Kernel k = module.GetKernel(c.kernel);
          const int block = k.signature().block_dim > 0 ? k.signature().block_dim : 256;
          const int64_t tm = tile->second.first, tn = tile->second.second;
          const std::vector<rt::KernelArg> args = {a, b, out};
          measure("tilec", [&] { rt::LaunchTiled(k, {n / tm, n / tn}, args, block, dev); },
                  std::to_string(tm) + "x" + std::to_string(tn) + " tiles; block_dim " + std::to_string(block));
        }

        // cuBLAS on the same factors.
        if (!handle) {
          Row(c.dtype, n, "cublas", "n/a", nullptr, 0, blas.path.empty() ? blas.why : blas_note);
          continue;
        }
        const ColumnMajorCall call = ForRowMajor(n, n, n);
        const std::pair<void*, void*> factors = CublasFactors(a.data(), b.data());
        void* first = factors.first;
        void* second = factors.second;
        const float one = 1.0f, zero = 0.0f;
        auto gemm = [&] {
          const CublasStatus st =
              c.half ? blas.gemm_ex(handle, kCublasOpN, kCublasOpN, call.m, call.n, call.k, &one, first, kCudaR16F,
                                    call.lda, second, kCudaR16F, call.ldb, &zero, out.data(), kCudaR32F, call.ldc,
                                    kCublasCompute32F, kCublasGemmDefault)
                     : blas.sgemm(handle, kCublasOpN, kCublasOpN, call.m, call.n, call.k, &one,
                                  static_cast<const float*>(first), call.lda, static_cast<const float*>(second),
                                  call.ldb, &zero, static_cast<float*>(out.data()), call.ldc);
          if (st != 0)
            throw std::runtime_error(std::string(c.half ? "cublasGemmEx" : "cublasSgemm_v2") + " failed (status " +
                                     std::to_string(st) + ")");
        };
        measure("cublas", gemm, std::string(c.half ? "cublasGemmEx" : "cublasSgemm_v2") + "; " + blas_note);
      } catch (const std::exception& e) {
        Row(c.dtype, n, "tilec", "n/a", nullptr, 0, e.what());
      }
    }
  }
  if (handle) blas.destroy(handle);
  return 0;
}

int GemmSelfTest() {
  int failures = 0;
  auto expect = [&failures](bool ok, const std::string& what) {
    std::printf("gemm self-test: %-88s %s\n", what.c_str(), ok ? "ok" : "FAILED");
    failures += ok ? 0 : 1;
  };
  for (const bool half : {true, false}) {
    const char* dt = half ? "float16" : "float32";
    // Shapes all different, so that a swapped or transposed operand cannot pass.
    const int64_t M = 48, N = 40, K = 64;
    const Problem p = MakeProblem(M, N, K, half, 7);
    if (half) {
      bool representable = true;
      for (size_t i = 0; i < p.a.size(); ++i) representable &= HalfToFloat(p.ah[i]) == p.a[i];
      expect(representable, "float16: the factors are float16 values");
    }
    std::vector<double> naive(size_t(M * N), 0.0);
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j)
        for (int64_t k = 0; k < K; ++k)
          naive[size_t(i * N + j)] += double(p.a[size_t(i * K + k)]) * p.b[size_t(k * N + j)];
    bool same = true;
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) same &= Reference(p, i, j).value == naive[size_t(i * N + j)];
    expect(same, std::string(dt) + ": sampled reference == naive float64 loop (48x40x64, every entry)");
    std::vector<float> got(naive.begin(), naive.end());
    expect(MaxError(p, got) <= kTol, std::string(dt) + ": the float product passes the check");
    // The cuBLAS call as bench_gpu makes it, run on the host by cuBLAS's column-major definition.
    const ColumnMajorCall call = ForRowMajor(M, N, K);
    const auto [first, second] = CublasFactors(p.a.data(), p.b.data());
    std::vector<float> col(size_t(M * N), std::nanf(""));
    HostColumnMajorGemm(call, first, second, col.data());
    expect(MaxError(p, col) <= 1e-6,
           std::string(dt) + ": cuBLAS operands (B, A; N, M, K; ld N, K, N) give row-major a @ b");
  }
  {
    // At the largest K: a float32 fma chain passes, an entry one average term off does not.
    const int64_t M = 8, N = 8, K = 8192;
    const Problem p = MakeProblem(M, N, K, false, 9);
    std::vector<float> got(size_t(M * N));
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        float acc = 0;
        for (int64_t k = 0; k < K; ++k) acc = std::fma(p.a[size_t(i * K + k)], p.b[size_t(k * N + j)], acc);
        got[size_t(i * N + j)] = acc;
      }
    const double err = MaxError(p, got);
    char what[120];
    std::snprintf(what, sizeof what, "K=8192: float32 fma chain within bound (%.2g of sum|a*b|)", err);
    expect(err <= kTol, what);
    for (auto [i, j] : std::vector<std::pair<int64_t, int64_t>>{{M - 1, N - 1}, {3, 5}}) {
      std::vector<float> off = got;
      off[size_t(i * N + j)] += float(Reference(p, i, j).sum_abs / double(K));
      expect(MaxError(p, off) > kTol, "K=8192: an entry one average product term off is caught (" +
                                          std::to_string(i) + ", " + std::to_string(j) + ")");
    }
    std::vector<float> nan = got;
    nan[0] = std::nanf("");
    expect(MaxError(p, nan) > kTol, "a NaN entry is caught");
  }
  Cublas blas;
  if (blas.Load())
    std::printf("gemm self-test: cuBLAS would come from %s (every entry point resolved)\n", blas.path.c_str());
  else
    std::printf("gemm self-test: cuBLAS rows would say n/a: %s\n", blas.why.c_str());
  std::printf("gemm self-test: %s\n", failures ? (std::to_string(failures) + " FAILED").c_str() : "ok");
  return failures ? 1 : 0;
}

}  // namespace tilec::bench
