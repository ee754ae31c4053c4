// DLPack on device memory (label `gpu`; skipped without a CUDA driver): a tensor over CUDA
// memory imported without a copy, read and written through the runtime's transfers, exported
// back with the same device pointer, and its deleter run exactly once.
#include <gtest/gtest.h>

#include "tilec/dlpack.h"
#include "tilec/runtime.h"

namespace rt = tilec::rt;

namespace {

TEST(CppApiGpuTest, DLPackWrapsDeviceMemoryWithoutCopy) {
  if (!rt::IsCudaAvailable()) GTEST_SKIP() << rt::CudaUnavailableReason();
  const rt::Device gpu = rt::Device::Cuda(0);
  // The producer's memory: 4x6 int32 on the GPU holding 0..23.
  std::vector<int32_t> host(24);
  for (int i = 0; i < 24; ++i) host[i] = i;
  rt::Array owner = rt::Array::FromVector(host, {4, 6}, gpu);

  struct State {
    int64_t shape[2] = {2, 3};
    int64_t strides[2] = {12, 2};  // rows 0 and 2, columns 1, 3, 5 (after the byte_offset)
    int deleted = 0;
    DLManagedTensor tensor{};
  } s;
  DLTensor& t = s.tensor.dl_tensor;
  t.data = owner.data();
  t.device = {kDLCUDA, 0};
  t.ndim = 2;
  t.dtype = {kDLInt, 32, 1};
  t.shape = s.shape;
  t.strides = s.strides;
  t.byte_offset = sizeof(int32_t);
  s.tensor.manager_ctx = &s;
  s.tensor.deleter = [](DLManagedTensor* self) { ++static_cast<State*>(self->manager_ctx)->deleted; };

  DLManagedTensor* exported = nullptr;
  {
    rt::Array a = rt::FromDLPack(&s.tensor);
    EXPECT_EQ(a.device(), gpu);
    EXPECT_EQ(a.data(), static_cast<void*>(static_cast<char*>(owner.data()) + 4));
    EXPECT_EQ(a.ToVector<int32_t>(), (std::vector<int32_t>{1, 3, 5, 13, 15, 17}));
    std::vector<int32_t> neg = {-1, -3, -5, -13, -15, -17};
    a.CopyFromHost(neg.data());
    exported = rt::ToDLPack(a);
    EXPECT_EQ(exported->dl_tensor.data, a.data());
    EXPECT_EQ(exported->dl_tensor.device.device_type, kDLCUDA);
    EXPECT_EQ(exported->dl_tensor.strides[0], 12);
  }
  std::vector<int32_t> all = owner.ToVector<int32_t>();
  for (int i = 0; i < 24; ++i) {
    bool in_view = (i / 6 == 0 || i / 6 == 2) && i % 2 == 1;
    EXPECT_EQ(all[i], in_view ? -i : i) << i;
  }
  EXPECT_EQ(s.deleted, 0);
  exported->deleter(exported);
  EXPECT_EQ(s.deleted, 1);
}

}  // namespace
