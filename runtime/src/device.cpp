// Device names, CUDA availability, the process-wide default device, raw memory per device and
// the one-time notices (such as the missing-driver line).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <sys/mman.h>
#include <unistd.h>

#include "runtime/src/internal.h"
#include "tilec/error.h"

namespace tilec::rt {

namespace {
std::mutex g_mutex;
std::optional<Device> g_default;
std::function<void(const std::string&)> g_notice = [](const std::string& text) {
  std::fprintf(stderr, "tilec: %s\n", text.c_str());
};
}  // namespace

void SetNoticeHandler(std::function<void(const std::string&)> handler) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_notice = std::move(handler);
}

void Notice(const std::string& text) {
  std::function<void(const std::string&)> handler;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    handler = g_notice;
  }
  if (handler) handler(text);
}

Device Device::Parse(std::string_view name) {
  if (name == "cpu") return Cpu();
  if (name == "cuda") return Cuda(0);
  if (name.substr(0, 5) == "cuda:" && name.size() > 5 && name.size() < 12) {
    int n = 0;
    for (char c : name.substr(5)) {
      if (c < '0' || c > '9') n = -1;
      if (n < 0) break;
      n = n * 10 + (c - '0');
    }
    if (n >= 0) return Cuda(n);
  }
  throw Error("invalid device `" + std::string(name) + "`: expected `cpu`, `cuda` or `cuda:N`");
}

std::string Device::Name() const {
  return is_cpu() ? std::string("cpu") : "cuda:" + std::to_string(ordinal);
}

bool IsCudaAvailable() { return cuda::DriverStatus().ok; }
int CudaDeviceCount() { return cuda::DriverStatus().device_count; }
std::string CudaUnavailableReason() { return cuda::DriverStatus().reason; }

void CheckDevice(const Device& device) {
  if (device.is_cpu()) return;
  const cuda::Status& s = cuda::DriverStatus();
  if (!s.ok) throw Error("device `" + device.Name() + "` is not available: " + s.reason);
  if (device.ordinal < 0 || device.ordinal >= s.device_count)
    throw Error("device `" + device.Name() + "` does not exist (" +
                std::to_string(s.device_count) + " CUDA device(s) found)");
}

int CudaComputeCapability(const Device& device) {
  if (!device.is_cuda()) throw Error("`cpu` has no compute capability");
  CheckDevice(device);
  return cuda::ComputeCapability(device.ordinal);
}

std::string DeviceDescription(const Device& device) {
  if (device.is_cpu()) return "cpu";
  CheckDevice(device);
  return cuda::DeviceName(device.ordinal);
}

Device GetDefaultDevice() {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_default) return *g_default;
  }
  const cuda::Status& s = cuda::DriverStatus();
  Device d = s.ok ? Device::Cuda(0) : Device::Cpu();
  bool first = false;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_default) {
      g_default = d;
      first = true;
    }
    d = *g_default;
  }
  if (first && !s.ok) Notice(s.reason + "; using `cpu`");
  return d;
}

void SetDefaultDevice(const Device& device) {
  CheckDevice(device);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_default = device;
}

void Synchronize(std::optional<Device> device) {
  if (device) {
    CheckDevice(*device);
    if (device->is_cuda()) cuda::Synchronize(device->ordinal);
    return;
  }
  if (!IsCudaAvailable()) return;
  for (int i = 0; i < CudaDeviceCount(); ++i) cuda::Synchronize(i);
}

// --- raw memory -------------------------------------------------------------------------

constexpr size_t kHugePageBytes = size_t(2) << 20;
constexpr size_t kHugeArrayBytes = size_t(8) << 20;

Buffer::~Buffer() {
  if (!owned || !ptr) return;
  if (device.is_cpu())
    std::free(ptr);
  else
    cuda::Free(device.ordinal, ptr);
}

uint64_t DeviceMemoryBytes(const Device& device) {
  if (!device.is_cpu()) return 0;
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
}

// Linux's view of the cache topology first: in a virtual machine, the cache the guest's CPUs
// share (sysfs) can be a slice of what the processor reports to sysconf's cpuid query.
int64_t CpuLastLevelCacheBytes() {
  static const int64_t bytes = [] {
    int64_t best = 0;
    int best_level = 0;
    for (int i = 0; i < 16; ++i) {
      const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
      FILE* f = std::fopen((dir + "level").c_str(), "r");
      if (!f) break;
      int level = 0;
      bool ok = std::fscanf(f, "%d", &level) == 1;
      std::fclose(f);
      f = std::fopen((dir + "size").c_str(), "r");
      if (!f) continue;
      long long size = 0;
      char unit = 0;
      ok = ok && std::fscanf(f, "%lld%c", &size, &unit) >= 1;
      std::fclose(f);
      if (!ok || size <= 0) continue;
      if (unit == 'K') size <<= 10;
      else if (unit == 'M') size <<= 20;
      else if (unit == 'G') size <<= 30;
      if (level > best_level || (level == best_level && size > best)) best = size, best_level = level;
    }
    if (best > 0) return best;
#ifdef _SC_LEVEL3_CACHE_SIZE
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (l3 > 0) return int64_t(l3);
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (l2 > 0) return int64_t(l2);
#endif
    return int64_t(0);
  }();
  return bytes;
}

std::shared_ptr<Buffer> AllocBuffer(size_t bytes, const Device& device, bool zero) {
  CheckDevice(device);
  auto buf = std::make_shared<Buffer>();
  buf->bytes = bytes;
  buf->device = device;
  if (device.is_cpu()) {
    // 64-byte alignment suits vector loads and keeps every element naturally aligned. Large
    // arrays start on a huge-page boundary and ask for transparent huge pages: a kernel that
    // gathers or scatters rows at random touches a new 4 KiB page per row, and a TLB miss per
    // row costs about as much as the row's own memory access.
    const size_t align = bytes >= kHugeArrayBytes ? kHugePageBytes : 64;
    size_t rounded = (bytes + align - 1) / align * align;
    buf->ptr = std::aligned_alloc(align, rounded == 0 ? align : rounded);
    if (!buf->ptr) throw OutOfMemory("out of host memory allocating " + std::to_string(bytes) + " bytes");
#ifdef MADV_HUGEPAGE
    if (align == kHugePageBytes) madvise(buf->ptr, rounded, MADV_HUGEPAGE);  // advice only
#endif
    if (zero) std::memset(buf->ptr, 0, bytes);
  } else {
    buf->ptr = cuda::Alloc(device.ordinal, bytes);
    if (zero) cuda::MemsetZero(device.ordinal, buf->ptr, bytes);
  }
  return buf;
}

void CopyHostToDevice(const Device& device, void* dst, const void* src, size_t bytes) {
  if (device.is_cpu()) {
    if (bytes) std::memmove(dst, src, bytes);
  } else {
    cuda::CopyHtoD(device.ordinal, dst, src, bytes);
  }
}

void CopyDeviceToHost(const Device& device, void* dst, const void* src, size_t bytes) {
  if (device.is_cpu()) {
    if (bytes) std::memmove(dst, src, bytes);
  } else {
    cuda::CopyDtoH(device.ordinal, dst, src, bytes);
  }
}

void CopyDeviceToDevice(const Device& device, void* dst, const void* src, size_t bytes) {
  if (device.is_cpu()) {
    if (bytes) std::memmove(dst, src, bytes);
  } else {
    cuda::CopyDtoD(device.ordinal, dst, src, bytes);
  }
}

void ZeroDeviceMemory(const Device& device, void* dst, size_t bytes) {
  if (device.is_cpu()) {
    if (bytes) std::memset(dst, 0, bytes);
  } else {
    cuda::MemsetZero(device.ordinal, dst, bytes);
  }
}

}  // namespace tilec::rt
