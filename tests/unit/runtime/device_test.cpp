// Devices without a GPU: names parse, the process reports the missing driver cleanly, cpu is
// the default, and asking for CUDA memory is a clear error rather than a crash.
#include <gtest/gtest.h>

#include "tilec/runtime.h"

namespace tilec::rt {
namespace {

TEST(DeviceTest, ParsesNames) {
  EXPECT_EQ(Device::Parse("cpu"), Device::Cpu());
  EXPECT_EQ(Device::Parse("cuda"), Device::Cuda(0));
  EXPECT_EQ(Device::Parse("cuda:3"), Device::Cuda(3));
  EXPECT_EQ(Device::Cuda(2).Name(), "cuda:2");
  EXPECT_EQ(Device::Cpu().Name(), "cpu");
  for (const char* bad : {"gpu", "cuda:", "cuda:x", "cuda:-1", "CPU", ""}) {
    try {
      Device::Parse(bad);
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()),
                "invalid device `" + std::string(bad) + "`: expected `cpu`, `cuda` or `cuda:N`");
    }
  }
}

TEST(DeviceTest, DefaultFollowsDriver) {
  if (IsCudaAvailable()) {
    EXPECT_EQ(GetDefaultDevice(), Device::Cuda(0));
    EXPECT_TRUE(CudaUnavailableReason().empty());
  } else {
    EXPECT_EQ(GetDefaultDevice(), Device::Cpu());
    EXPECT_EQ(CudaDeviceCount(), 0);
  }
}

TEST(DeviceTest, NoDriverIsReportedCleanly) {
  if (IsCudaAvailable()) GTEST_SKIP() << "a CUDA device is present";
  std::string reason = CudaUnavailableReason();
  // Either no libcuda.so.1 at all, or a driver without a usable device.
  bool no_lib = reason.rfind("no CUDA driver found (", 0) == 0;
  bool no_dev = reason.rfind("CUDA driver found but", 0) == 0;
  EXPECT_TRUE(no_lib || no_dev) << reason;
  if (no_lib) {
    EXPECT_NE(reason.find("libcuda.so.1"), std::string::npos) << reason;
  }
  try {
    Array::Zeros({4}, ScalarType::Float32, Device::Cuda(0));
    FAIL() << "allocated on a missing device";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "device `cuda:0` is not available: " + reason);
  }
  EXPECT_THROW(SetDefaultDevice(Device::Cuda(0)), Error);
  EXPECT_THROW(CudaComputeCapability(Device::Cuda(0)), Error);
  Synchronize();  // nothing to wait for: no error
  EXPECT_THROW(Synchronize(Device::Cuda(0)), Error);
}

TEST(DeviceTest, SetDefaultDevice) {
  Device before = GetDefaultDevice();
  SetDefaultDevice(Device::Cpu());
  EXPECT_EQ(GetDefaultDevice(), Device::Cpu());
  Array a = Array::Zeros({2}, ScalarType::Int32);
  EXPECT_EQ(a.device(), Device::Cpu());
  SetDefaultDevice(before);
}

}  // namespace
}  // namespace tilec::rt
