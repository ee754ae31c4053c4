// AOT GPU modules on a GPU (label `gpu`; every test skips without a CUDA driver or device): the
// build-time aot_kernels.tlm launched on cuda:0, forward and adjoint, against the CPU results
// of aot_kernels.so; the same .so on cuda:0; a launch on a stream; a missing block_dim; and the
// first-launch time of the cubin path against the driver's PTX JIT.
// $TILEC_AOT_DIR overrides where the artifacts are (the GPU pack carries them).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <string>

#include "tilec/runtime.h"

namespace tilec::rt {
namespace {

// The driver's on-disk JIT cache would make the PTX path's first launch a cache hit on a
// rerun; set before the runtime's first cuInit (nothing runs CUDA during static initialization).
const bool kNoDriverJitCache = (setenv("CUDA_CACHE_DISABLE", "1", 0), true);

std::string AotDir() {
  const char* env = std::getenv("TILEC_AOT_DIR");
  return env && *env ? env : TILEC_AOT_DIR;
}

std::vector<float> Inputs(int64_t n) {
  std::vector<float> xs(n);
  for (int64_t i = 0; i < n; ++i) xs[i] = 0.01f * float(i % 1000) - 3.0f;
  return xs;
}

class AotGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    (void)kNoDriverJitCache;
    if (!IsCudaAvailable()) GTEST_SKIP() << CudaUnavailableReason();
    tlm_ = Module::Load(AotDir() + "/aot_kernels.tlm");
    so_ = Module::Load(AotDir() + "/aot_kernels.so");
  }

  // y = 3 * x^2 through `module`'s scale_square on `device`.
  std::vector<float> ScaleSquare(const Module& module, const Device& device, const std::vector<float>& xs) {
    int64_t n = static_cast<int64_t>(xs.size());
    Array x = Array::FromVector(xs, {n}, device);
    Array y = Array::Zeros({n}, ScalarType::Float32, device);
    Launch(module.GetKernel("scale_square"), {n}, {x, y, KernelArg::Float(3.0)}, device);
    return y.ToVector<float>();
  }
  std::vector<float> TileSquare(const Module& module, const Device& device, const std::vector<float>& xs,
                                int block_dim) {
    int64_t n = static_cast<int64_t>(xs.size());
    Array x = Array::FromVector(xs, {n}, device);
    Array y = Array::Zeros({n}, ScalarType::Float32, device);
    LaunchTiled(module.GetKernel("tile_square"), {n / 32}, {x, y}, block_dim, device);
    return y.ToVector<float>();
  }

  const Device gpu_ = Device::Cuda(0);
  Module tlm_, so_;
};

void ExpectClose(const std::vector<float>& got, const std::vector<float>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], 1e-5f * (1 + std::fabs(want[i]))) << what << " at " << i;
}

// The first launch of each path loads its image: a cubin as it is, PTX through the driver's
// JIT (TILEC_GPU_IMAGE=ptx). Printed, not asserted: the numbers depend on the machine. First
// in this file, so that no other test has loaded either image yet.
TEST_F(AotGpuTest, FirstLaunchCubinVersusPtxJit) {
  int cc = CudaComputeCapability(gpu_);
  bool has_cubin = false;
  for (const GpuImage& g : tlm_.signature().gpu_images)
    has_cubin |= g.arch == "sm_" + std::to_string(cc) && !g.cubin.empty();
  std::vector<float> xs = Inputs(1 << 12);
  std::vector<float> cpu = ScaleSquare(so_, Device::Cpu(), xs);
  auto first_launch_ms = [&](const char* image) {
    if (image) setenv("TILEC_GPU_IMAGE", image, 1);
    else unsetenv("TILEC_GPU_IMAGE");
    // A fresh load of the file: the images are new to the driver only on their first use.
    Module m = Module::Load(AotDir() + "/aot_kernels.tlm");
    Array x = Array::FromVector(xs, {int64_t(xs.size())}, gpu_);
    Array y = Array::Zeros({int64_t(xs.size())}, ScalarType::Float32, gpu_);
    Synchronize(gpu_);
    auto t0 = std::chrono::steady_clock::now();
    Launch(m.GetKernel("scale_square"), {int64_t(xs.size())}, {x, y, KernelArg::Float(3.0)}, gpu_);
    Synchronize(gpu_);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ExpectClose(y.ToVector<float>(), cpu, image ? "PTX path" : "default path");
    unsetenv("TILEC_GPU_IMAGE");
    return ms;
  };
  double ptx_ms = first_launch_ms("ptx");
  double cubin_ms = first_launch_ms(nullptr);
  std::printf("aot first launch on sm_%d: %s %.2f ms, PTX JIT %.2f ms\n", cc,
              has_cubin ? "cubin" : "(no cubin for this arch; PTX again, already loaded)", cubin_ms, ptx_ms);
  RecordProperty("first_launch_cubin_ms", std::to_string(cubin_ms));
  RecordProperty("first_launch_ptx_jit_ms", std::to_string(ptx_ms));
}

TEST_F(AotGpuTest, GpuModuleMatchesTheCpu) {
  std::vector<float> xs = Inputs(1 << 16);
  std::vector<float> cpu = ScaleSquare(so_, Device::Cpu(), xs);
  ExpectClose(ScaleSquare(tlm_, gpu_, xs), cpu, "scale_square from the .tlm");
  ExpectClose(ScaleSquare(so_, gpu_, xs), cpu, "scale_square from the .so");
  std::vector<float> cpu_tiled = TileSquare(so_, Device::Cpu(), xs, 64);
  for (int block_dim : {64, 128}) {
    ExpectClose(TileSquare(tlm_, gpu_, xs, block_dim), cpu_tiled, "tile_square from the .tlm");
    ExpectClose(TileSquare(so_, gpu_, xs, block_dim), cpu_tiled, "tile_square from the .so");
  }
}

TEST_F(AotGpuTest, AdjointsMatchTheCpu) {
  std::vector<float> xs = Inputs(4096);
  int64_t n = static_cast<int64_t>(xs.size());
  auto grad_of = [&](const Module& m, const Device& d, bool tiled) {
    Array x = Array::FromVector(xs, {n}, d, true);
    Array y = Array::Zeros({n}, ScalarType::Float32, d, true);
    Tape tape;
    {
      Tape::Scope scope(tape);
      if (tiled) LaunchTiled(m.GetKernel("tile_square"), {n / 32}, {x, y}, 128, d);
      else Launch(m.GetKernel("scale_square"), {n}, {x, y, KernelArg::Float(3.0)}, d);
    }
    tape.Backward({{y, Array::FromVector(std::vector<float>(n, 1.0f), {n}, d)}});
    return x.grad().ToVector<float>();
  };
  for (bool tiled : {false, true}) {
    std::vector<float> cpu = grad_of(so_, Device::Cpu(), tiled);
    for (int64_t i = 0; i < n; ++i)  // independent: d(a x^2)/dx = 2 a x
      ASSERT_NEAR(cpu[i], (tiled ? 2.0f : 6.0f) * xs[i], 1e-4f * (1 + std::fabs(xs[i])));
    ExpectClose(grad_of(tlm_, gpu_, tiled), cpu, tiled ? "tile_square adjoint" : "scale_square adjoint");
  }
}

// A stream made through the driver itself: the runtime's launches take it as an opaque pointer.
TEST_F(AotGpuTest, LaunchOnAStream) {
  void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(cuda, nullptr);
  using Create = int (*)(void**, unsigned);
  using Sync = int (*)(void*);
  using Destroy = int (*)(void*);
  auto create = reinterpret_cast<Create>(dlsym(cuda, "cuStreamCreate"));
  auto sync = reinterpret_cast<Sync>(dlsym(cuda, "cuStreamSynchronize"));
  auto destroy = reinterpret_cast<Destroy>(dlsym(cuda, "cuStreamDestroy_v2"));
  ASSERT_TRUE(create && sync && destroy);
  std::vector<float> xs = Inputs(1 << 20);
  int64_t n = static_cast<int64_t>(xs.size());
  Array x = Array::FromVector(xs, {n}, gpu_);  // makes the device's context current here
  Array y = Array::Zeros({n}, ScalarType::Float32, gpu_);
  Synchronize(gpu_);
  void* stream = nullptr;
  ASSERT_EQ(create(&stream, 1 /* CU_STREAM_NON_BLOCKING */), 0);
  Launch(tlm_.GetKernel("scale_square"), LaunchOptions({n}).on(gpu_).on_stream(stream), {x, y, KernelArg::Float(3.0)});
  Array z = Array::Zeros({n}, ScalarType::Float32, gpu_);
  Synchronize(gpu_);  // the zeroing ran on the legacy stream, which a non-blocking one ignores
  Launch(tlm_.GetKernel("tile_square"), LaunchOptions({n / 32}, 64).on(gpu_).on_stream(stream), {y, z});
  ASSERT_EQ(sync(stream), 0);
  std::vector<float> got = z.ToVector<float>();
  for (int64_t i = 0; i < n; i += 997) {
    float s = 3.0f * xs[i] * xs[i];
    ASSERT_NEAR(got[i], s * s, 1e-4f * (1 + s * s)) << i;
  }
  destroy(stream);
}

TEST_F(AotGpuTest, MissingBlockDimIsAClearError) {
  Array x = Array::Zeros({64}, ScalarType::Float32, gpu_);
  try {
    LaunchTiled(tlm_.GetKernel("tile_square"), {2}, {x, x}, 32, gpu_);
    FAIL() << "no variant for block_dim 32, yet the launch ran";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("has no variant of kernel `tile_square` for sm_"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("with block_dim 32"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tilec::rt
