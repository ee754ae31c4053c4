// Devices: `cpu` and `cuda:N`. CUDA is reached through dlopen("libcuda.so.1"), so a process
// without a driver still runs and simply has no CUDA devices; the default device follows that.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace tilec::rt {

struct Device {
  enum class Kind : uint8_t { Cpu, Cuda };
  Kind kind = Kind::Cpu;
  int ordinal = 0;  // CUDA device number; 0 for the CPU

  static Device Cpu() { return Device{}; }
  static Device Cuda(int ordinal = 0) { return Device{Kind::Cuda, ordinal}; }
  // "cpu", "cuda" (= cuda:0) or "cuda:N". Throws Error on anything else. Does not check that
  // the device exists (see CheckDevice).
  static Device Parse(std::string_view name);

  bool is_cpu() const { return kind == Kind::Cpu; }
  bool is_cuda() const { return kind == Kind::Cuda; }
  std::string Name() const;  // "cpu", "cuda:0"
  bool operator==(const Device&) const = default;
};

// True when libcuda.so.1 loads, cuInit succeeds and at least one device exists.
bool IsCudaAvailable();
int CudaDeviceCount();
// Why CUDA is unavailable, e.g. "no CUDA driver found (libcuda.so.1: cannot open shared
// object file: No such file or directory)"; empty when it is available.
std::string CudaUnavailableReason();
// Compute capability as major*10+minor (90 for an H200). Throws for cpu or a missing device.
int CudaComputeCapability(const Device& device);
// "cpu" or the driver's device name.
std::string DeviceDescription(const Device& device);

// Throws Error unless the device exists here ("cuda:1" with one GPU, any CUDA without driver).
void CheckDevice(const Device& device);

// cuda:0 where a driver and a GPU exist, else cpu, until SetDefaultDevice changes it.
Device GetDefaultDevice();
void SetDefaultDevice(const Device& device);  // checks the device

// Waits for all work on a CUDA device (all CUDA devices when none is named). CPU launches are
// synchronous, so this is a no-op for cpu.
void Synchronize(std::optional<Device> device = std::nullopt);

// Where the runtime sends one-time notices such as the missing-driver line (default: stderr
// with a "tilec: " prefix). Pass nullptr to silence them.
void SetNoticeHandler(std::function<void(const std::string&)> handler);

}  // namespace tilec::rt
