// bench_gpu: gather / scatter-add bandwidth on cuda:0 as a fraction of device-to-device copy
// bandwidth, for tilec's kernels (and its deterministic scatter-adds, impl tilec-det) and the
// nvcc-built references, all read from the signature files that bench_gpu_prepare wrote (PTX
// inside) and launched through the runtime with the same ABI. Links only libtilec_rt, so it runs on a machine without LLVM. Prints CSV:
//   op,width,rows,dup,impl,status,min_s,median_s,reps,note
// `--gemm SIG` instead measures tiled GEMMs against cuBLAS (bench_gpu_gemm.cpp), and
// `--self-test` checks that mode's host side without a GPU.
// Without a CUDA driver or GPU it prints one `skipped` line and exits 0.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "bench/src/bench_gpu_gemm.h"
#include "bench/src/bench_gpu_util.h"
#include "bench/src/bench_util.h"
#include "tilec/runtime.h"

using namespace tilec;
using tilec::bench::Flat;
using tilec::bench::LoadSignature;
using tilec::bench::MakeIndices;
using tilec::bench::Stat;
using tilec::bench::TimeOnDevice;

namespace {

constexpr int kBlock = 256;

std::vector<int64_t> ParseList(const std::string& s) {
  std::vector<int64_t> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');) out.push_back(std::atoll(item.c_str()));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--self-test") return tilec::bench::GemmSelfTest();
  std::string tilec_sig, det_sig, ref_sig;
  std::vector<int64_t> widths = {16, 64, 256, 1024, 4096}, sizes = {64 << 20, 1024 << 20};
  int reps = 5;
  tilec::bench::GemmOptions gemm;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--gemm") gemm.sig = v;
    else if (k == "--gemm-sizes") gemm.sizes = ParseList(v);
    else if (k == "--gemm-tiles") gemm.tiles = v;
    else if (k == "--gemm-cpu") gemm.cpu = v == "1";
    else if (k == "--tilec-sig") tilec_sig = v;
    else if (k == "--det-sig") det_sig = v;
    else if (k == "--ref-sig") ref_sig = v;
    else if (k == "--widths") widths = ParseList(v);
    else if (k == "--sizes") sizes = ParseList(v);
    else if (k == "--reps") reps = std::max(1, std::atoi(v.c_str()));
  }
  if (!gemm.sig.empty()) {
    gemm.reps = reps;
    return tilec::bench::RunGemm(gemm);
  }
  std::printf("op,width,rows,dup,impl,status,min_s,median_s,reps,note\n");
  if (!rt::IsCudaAvailable()) {
    std::printf("all,,,,,skipped,,,,%s\n", Flat(rt::CudaUnavailableReason()).c_str());
    return 0;
  }
  const rt::Device dev = rt::Device::Cuda(0);
  rt::SetNoticeHandler(nullptr);
  struct Impl {
    const char* name;
    std::string sig;
    bool scatter_only;  // the deterministic mode changes only the atomics
    rt::Module module;
    std::string why;
    bool have = false;
  };
  Impl impls[] = {{"tilec", tilec_sig, false}, {"tilec-det", det_sig, true}, {"nvcc", ref_sig, false}};
  for (Impl& impl : impls) {
    impl.why = "not available (no signature file given)";
    impl.have = !impl.sig.empty() && LoadSignature(impl.sig, impl.module, impl.why);
  }

  struct Op { const char* name; double dup; };
  const Op ops[] = {{"gather", 0.0}, {"scatter", 0.0}, {"scatter", 0.1}, {"scatter", 0.9}};
  for (int64_t size : sizes) {
    for (int64_t wb : widths) {
      const int64_t w = wb / 4, m = 2048 / w;
      const int64_t rows = std::max(m, size / wb / m * m);
      std::vector<float> hx(rows * w);
      for (size_t i = 0; i < hx.size(); ++i) hx[i] = static_cast<float>(i % 1021) * 0.001f;
      rt::Array x = rt::Array::FromHost(hx.data(), {rows, w}, ScalarType::Float32, dev);
      rt::Array y = rt::Array::Zeros({rows, w}, ScalarType::Float32, dev);
      Stat copy = TimeOnDevice([&] { y.CopyFrom(x); }, reps, dev);
      std::printf("copy,%lld,%lld,0,copy,ok,%.9g,%.9g,%d,cuMemcpyDtoD\n", (long long)wb, (long long)rows,
                  copy.min_s, copy.median_s, copy.reps);
      for (const Op& op : ops) {
        const bool gather = std::string(op.name) == "gather";
        std::vector<int32_t> hidx = MakeIndices(rows, rows, op.dup, gather ? 7 : 11);
        rt::Array idx = rt::Array::FromHost(hidx.data(), {rows}, ScalarType::Int32, dev);
        // Host reference for validation (one launch from zero).
        std::vector<float> want(rows * w, 0.0f);
        for (int64_t i = 0; i < rows; ++i)
          for (int64_t c = 0; c < w; ++c) {
            if (gather) want[i * w + c] = hx[hidx[i] * w + c];
            else want[hidx[i] * w + c] += hx[i * w + c];
          }
        const std::string kname = std::string(gather ? "gather_rows_" : "scatter_add_rows_") + std::to_string(wb) + "B";
        for (Impl& impl : impls) {
          if (impl.scatter_only && gather) continue;
          if (!impl.have) {
            std::printf("%s,%lld,%lld,%g,%s,n/a,,,,%s\n", op.name, (long long)wb, (long long)rows, op.dup, impl.name,
                        Flat(impl.why).c_str());
            continue;
          }
          try {
            rt::Kernel k = impl.module.GetKernel(kname);
            std::vector<rt::KernelArg> args = {x, idx, y};
            auto launch = [&] { rt::LaunchTiled(k, {rows / m}, args, kBlock, dev); };
            auto once = [&] {
              y.Zero();
              launch();
              rt::Synchronize(dev);
              return y.ToVector<float>();
            };
            std::vector<float> got = once();
            double diff = 0, scale = 1e-30;
            for (size_t i = 0; i < got.size(); ++i) {
              diff = std::max(diff, std::fabs(double(got[i]) - want[i]));
              scale = std::max(scale, std::fabs(double(want[i])));
            }
            bool ok = gather ? diff == 0 : diff / scale < 1e-4;
            // The deterministic mode's promise: a second launch repeats the first bit for bit.
            if (ok && impl.scatter_only) {
              const std::vector<float> again = once();
              ok = std::memcmp(again.data(), got.data(), got.size() * sizeof(float)) == 0;
            }
            Stat s = TimeOnDevice(launch, reps, dev);
            std::printf("%s,%lld,%lld,%g,%s,ok,%.9g,%.9g,%d,%s\n", op.name, (long long)wb, (long long)rows, op.dup,
                        impl.name, s.min_s, s.median_s, s.reps,
                        ok ? (impl.scatter_only ? "valid; repeats bit for bit" : "valid") : "WRONG RESULT");
          } catch (const std::exception& e) {
            std::printf("%s,%lld,%lld,%g,%s,n/a,,,,%s\n", op.name, (long long)wb, (long long)rows, op.dup, impl.name,
                        Flat(e.what()).c_str());
          }
          std::fflush(stdout);
        }
      }
    }
  }
  return 0;
}
