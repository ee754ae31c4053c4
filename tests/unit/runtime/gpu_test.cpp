// The CUDA device (label `gpu`): memory, copies, PTX load errors with the JIT log, plain and
// tiled launches with dynamic shared memory above 48 KiB, and a GPU adjoint through the Tape.
// Every test skips cleanly where no driver or device is found.
#include <gtest/gtest.h>

#include "gpu_kernels.h"
#include "stand_in.h"

namespace tilec::rt {
namespace {

using namespace test;

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!IsCudaAvailable()) GTEST_SKIP() << CudaUnavailableReason();
  }
  const Device gpu_ = Device::Cuda(0);
};

TEST_F(GpuTest, DeviceIsDefaultAndDescribed) {
  EXPECT_EQ(GetDefaultDevice(), gpu_);
  EXPECT_FALSE(DeviceDescription(gpu_).empty());
  EXPECT_GE(CudaComputeCapability(gpu_), 50);
}

TEST_F(GpuTest, CopiesRoundTrip) {
  std::vector<double> v(1000);
  for (int i = 0; i < 1000; ++i) v[i] = i * 0.5;
  Array a = Array::FromVector(v, {10, 100}, gpu_);
  EXPECT_EQ(a.device(), gpu_);
  EXPECT_EQ(a.ToVector<double>(), v);
  // A strided device view, read back and written through.
  Array col = a.Slice({SliceSpec::Range(std::nullopt, std::nullopt, -1), SliceSpec::Index(3)});
  std::vector<double> got = col.ToVector<double>();
  for (int i = 0; i < 10; ++i) EXPECT_EQ(got[i], v[(9 - i) * 100 + 3]);
  col.Fill(-1);
  std::vector<double> after = a.ToVector<double>();
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(after[i], i % 100 == 3 ? -1.0 : v[i]);
  Array host = a.Clone(Device::Cpu());
  EXPECT_EQ(host.ToVector<double>(), after);
  a.Zero();
  for (double x : a.ToVector<double>()) ASSERT_EQ(x, 0.0);
}

KernelSignature AddOne() {
  KernelSignature k = KernelSig("add_one", {ArrayParam("x", ScalarType::Float32),
                                            ScalarParam("amount", ScalarType::Int32)},
                                false, true);
  k.entry_symbol = "tk_add_one";
  k.adjoint_symbol = "tk_add_one_adj";
  k.ptx = kAddOnePtx;
  return k;
}

TEST_F(GpuTest, PlainLaunch) {
  ModuleSignature sig;
  sig.kernels.push_back(AddOne());
  Module m = Module::FromResolver(sig, nullptr);
  int64_t n = 100000;  // several blocks of TILEC_GPU_THREADS
  Array x = Array::Zeros({n}, ScalarType::Float32, gpu_);
  Launch(m.GetKernel("add_one"), {n}, {x, KernelArg::Int(3)}, gpu_);
  Launch(m.GetKernel("add_one"), {n / 2}, {x.Slice({SliceSpec::Range(std::nullopt, std::nullopt, 2)}), KernelArg::Int(1)}, gpu_);
  Synchronize(gpu_);
  std::vector<float> got = x.ToVector<float>();
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], i % 2 == 0 ? 4.0f : 3.0f) << i;
}

TEST_F(GpuTest, AdjointThroughTape) {
  ModuleSignature sig;
  sig.kernels.push_back(AddOne());
  Module m = Module::FromResolver(sig, nullptr);
  Array x = Array::Zeros({1000}, ScalarType::Float32, gpu_, true);
  Tape tape;
  {
    Tape::Scope scope(tape);
    Launch(m.GetKernel("add_one"), {1000}, {x, KernelArg::Int(1)}, gpu_);
  }
  Array seed = Array::Zeros({1000}, ScalarType::Float32, gpu_);
  seed.Fill(2.0);
  tape.Backward({{x, seed}});
  for (float g : x.grad().ToVector<float>()) ASSERT_EQ(g, 3.0f);
}

TEST_F(GpuTest, TiledLaunchWithLargeSharedMemory) {
  ModuleSignature sig;
  KernelSignature k = KernelSig("block_sum", {ArrayParam("out", ScalarType::Int32)}, true);
  k.entry_symbol = "tk_block_sum";
  k.ptx = kBlockSumPtx;
  k.block_dim = 128;
  k.shared_bytes = 64 * 1024;  // above 48 KiB: needs the opt-in
  sig.kernels.push_back(k);
  Module m = Module::FromResolver(sig, nullptr);
  Array out = Array::Zeros({70000}, ScalarType::Int32, gpu_);  // more blocks than one grid row
  LaunchTiled(m.GetKernel("block_sum"), {70000}, {out}, 128, gpu_);
  for (int32_t v : out.ToVector<int32_t>()) ASSERT_EQ(v, 128 * 127 / 2);
  try {
    LaunchTiled(m.GetKernel("block_sum"), {1}, {out}, 64, gpu_);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "kernel `block_sum` was compiled for block_dim 128, launched with block_dim 64");
  }
}

TEST_F(GpuTest, BadPtxShowsDriverLog) {
  ModuleSignature sig;
  KernelSignature k = AddOne();
  k.ptx = ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry tk_add_one() { bogus; }\n";
  sig.kernels.push_back(k);
  Module m = Module::FromResolver(sig, nullptr);
  Array x = Array::Zeros({4}, ScalarType::Float32, gpu_);
  try {
    Launch(m.GetKernel("add_one"), {4}, {x, KernelArg::Int(1)}, gpu_);
    FAIL();
  } catch (const Error& e) {
    std::string msg = e.what();
    EXPECT_EQ(msg.rfind("cuModuleLoadDataEx failed for kernel `add_one`: ", 0), 0u) << msg;
    EXPECT_NE(msg.find("driver JIT log:"), std::string::npos) << msg;
  }
}

TEST_F(GpuTest, DeviceMismatch) {
  ModuleSignature sig;
  sig.kernels.push_back(AddOne());
  Module m = Module::FromResolver(sig, nullptr);
  Array x = Array::Zeros({4}, ScalarType::Float32, Device::Cpu());
  try {
    Launch(m.GetKernel("add_one"), {4}, {x, KernelArg::Int(1)}, gpu_);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "kernel `add_one`, parameter `x`: the array is on `cpu` but the launch is on `cuda:0`");
  }
}

TEST_F(GpuTest, MissingDeviceOrdinal) {
  Device far = Device::Cuda(CudaDeviceCount());
  EXPECT_THROW(Array::Zeros({1}, ScalarType::Float32, far), Error);
}

}  // namespace
}  // namespace tilec::rt
