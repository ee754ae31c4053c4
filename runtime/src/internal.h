// Pieces shared by the runtime's source files and nothing else: device buffers, raw memory
// operations per device, the CPU worker pool and the CUDA driver entry points.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "tilec/device.h"

namespace tilec::rt {

// A block of memory on one device; frees itself unless it wraps foreign memory.
struct Buffer {
  void* ptr = nullptr;
  size_t bytes = 0;
  Device device;
  bool owned = true;
  std::shared_ptr<void> keep_alive;
  ~Buffer();
};
std::shared_ptr<Buffer> AllocBuffer(size_t bytes, const Device& device, bool zero);
// The memory a device has, in bytes (the host's physical memory for `cpu`); 0 when unknown,
// where the allocation itself reports a shortage.
uint64_t DeviceMemoryBytes(const Device& device);

// Raw copies; `device` is where the device-side pointer lives (cpu: plain memcpy).
void CopyHostToDevice(const Device& device, void* dst, const void* src, size_t bytes);
void CopyDeviceToHost(const Device& device, void* dst, const void* src, size_t bytes);
void CopyDeviceToDevice(const Device& device, void* dst, const void* src, size_t bytes);
void ZeroDeviceMemory(const Device& device, void* dst, size_t bytes);

// Runs body(first, last, worker) over [0, n) in chunks of about `grain` on the worker
// threads and the caller; returns when all chunks are done. `worker` is in [0, workers].
void CpuParallelFor(int64_t n, int64_t grain,
                    const std::function<void(int64_t, int64_t, int)>& body);

void Notice(const std::string& text);

namespace cuda {
// Loads libcuda.so.1 and calls cuInit once. ok == false carries the reason.
struct Status {
  bool ok = false;
  std::string reason;
  int device_count = 0;
};
const Status& DriverStatus();
void* Alloc(int ordinal, size_t bytes);
void Free(int ordinal, void* ptr) noexcept;
void CopyHtoD(int ordinal, void* dst, const void* src, size_t bytes);
void CopyDtoH(int ordinal, void* dst, const void* src, size_t bytes);
void CopyDtoD(int ordinal, void* dst, const void* src, size_t bytes);
void MemsetZero(int ordinal, void* dst, size_t bytes);
void Synchronize(int ordinal);
int ComputeCapability(int ordinal);
std::string DeviceName(int ordinal);
// Loads `ptx` once per device (the driver's JIT log goes into the Error) and returns the
// CUfunction for `entry`, opted in to `shared_bytes` of dynamic shared memory.
void* GetFunction(int ordinal, const std::string& ptx, const std::string& entry,
                  uint32_t shared_bytes, const std::string& kernel_name);
void LaunchKernel(int ordinal, void* function, uint32_t grid, uint32_t block,
                  uint32_t shared_bytes, void** params, const std::string& kernel_name);
}  // namespace cuda

}  // namespace tilec::rt
