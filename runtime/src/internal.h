// Pieces shared by the runtime's source files and nothing else: device buffers, raw memory
// operations per device, the CPU worker pool and the CUDA driver entry points.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tilec/device.h"
#include "tilec/signature.h"

namespace tilec::rt {

class Kernel;
class KernelArg;

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

// The size of the largest cache of the CPU the process starts on, in bytes (0 when unknown):
// arrays at least this large are not read back from cache, and CPU kernels store whole rows
// into them with non-temporal stores (tilec_launch::stream_bytes).
int64_t CpuLastLevelCacheBytes();

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
// Loads `image` (PTX text, JIT-compiled by the driver, or cubin bytes) once per device (the
// driver's JIT log goes into the Error) and returns the CUfunction for `entry`, opted in to
// `shared_bytes` of dynamic shared memory.
void* GetFunction(int ordinal, const std::string& image, const std::string& entry,
                  uint32_t shared_bytes, const std::string& kernel_name);
// `stream`: a CUstream, or null for the legacy default stream.
void LaunchKernel(int ordinal, void* function, uint32_t grid, uint32_t block,
                  uint32_t shared_bytes, void** params, const std::string& kernel_name,
                  void* stream = nullptr);
void StreamSynchronize(int ordinal, void* stream);
}  // namespace cuda

// Which of a kernel's AOT GPU variants (KernelSignature::gpu_variants, which must not be empty)
// a launch on a device of compute capability `cc` (major*10+minor) runs: for a tiled kernel
// only those of `block_dim`; among them the cubin of exactly that architecture (when
// `allow_cubin`), else the PTX of the newest architecture not above it, which the driver
// JIT-compiles (PTX runs on later architectures, a cubin only on its own). Throws Error naming
// what the module has when none fits.
struct GpuChoice {
  const GpuVariant* variant = nullptr;
  bool cubin = false;
};
GpuChoice ChooseGpuVariant(const Kernel& kernel, int cc, int block_dim, bool allow_cubin);

// The launch functions of launch.h with a CUDA stream (null: the legacy default stream); what
// Launch(kernel, LaunchOptions, args) calls. block_dim 0 is a plain launch.
void LaunchOnStream(const Kernel& kernel, const std::vector<int64_t>& dim,
                    const std::vector<KernelArg>& args, int block_dim,
                    std::optional<Device> device, void* stream);

}  // namespace tilec::rt
