// How a C++ host describes one launch in a single value: the grid, the block size of a tiled
// launch, the device and the CUDA stream. Typed launchers (`tilec compile --emit=header`) take
// one; Launch(kernel, options, args) dispatches it to rt::Launch or rt::LaunchTiled.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "tilec/device.h"

namespace tilec::rt {

class Kernel;
class KernelArg;

struct LaunchOptions {
  // 1 to 4 extents, each >= 0: threads of a plain launch, block programs of a tiled one.
  std::vector<int64_t> dim;
  // 0: a plain (untiled) launch. 1 to 1024: a tiled launch with that many lanes per block.
  int block_dim = 0;
  // Empty: the default device (GetDefaultDevice()).
  std::optional<Device> device;
  // A CUstream for a CUDA launch; nullptr is the legacy default stream. Ignored on the CPU,
  // whose launches are synchronous.
  void* stream = nullptr;

  LaunchOptions() = default;
  LaunchOptions(std::vector<int64_t> dim_) : dim(std::move(dim_)) {}  // NOLINT: {n} reads well
  LaunchOptions(std::vector<int64_t> dim_, int block_dim_) : dim(std::move(dim_)), block_dim(block_dim_) {}

  // Chainable setters: LaunchOptions({n}).on(Device::Cuda(0)).on_stream(s).
  LaunchOptions& tiled(int block_dim_) { block_dim = block_dim_; return *this; }
  LaunchOptions& on(Device device_) { device = device_; return *this; }
  LaunchOptions& on_stream(void* stream_) { stream = stream_; return *this; }
};

// Launches `kernel` as `options` says: LaunchTiled when block_dim > 0, Launch otherwise. The
// arguments are checked against the kernel's signature exactly as those functions check them.
void Launch(const Kernel& kernel, const LaunchOptions& options, const std::vector<KernelArg>& args);

}  // namespace tilec::rt
