// The CUDA Driver API reached through dlopen("libcuda.so.1"): never linked, so binaries start
// on machines without a driver. Every failing driver call becomes an Error naming the call.
#include <dlfcn.h>

#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "runtime/src/internal.h"
#include "tilec/error.h"

#ifdef TILEC_HAVE_CUDA_H
#include <cuda.h>
#endif

namespace tilec::rt::cuda {

#ifdef TILEC_HAVE_CUDA_H
namespace {

// cuda.h #defines many names to their _v2 symbols; expanding before stringizing makes dlsym
// ask for the same symbol a linked binary would.
#define TILEC_STR(x) #x
#define TILEC_XSTR(x) TILEC_STR(x)
#define TILEC_CU_FUNCS(X)                                                                   \
  X(cuInit) X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetName) X(cuDeviceGetAttribute)   \
  X(cuDevicePrimaryCtxRetain) X(cuCtxSetCurrent) X(cuModuleLoadDataEx)                      \
  X(cuModuleGetFunction) X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpyDtoH)         \
  X(cuMemcpyDtoD) X(cuMemsetD8) X(cuLaunchKernel) X(cuCtxSynchronize) X(cuFuncSetAttribute) \
  X(cuGetErrorName) X(cuGetErrorString) X(cuStreamSynchronize)

struct Api {
#define X(fn) decltype(&fn) fn##_ = nullptr;
  TILEC_CU_FUNCS(X)
#undef X
};

struct Driver {
  Status status;
  Api api;
  std::mutex mutex;
  std::vector<CUcontext> contexts;  // primary context per ordinal, retained on first use
  std::map<std::tuple<int, std::string, std::string>, CUfunction> functions;
  std::map<std::pair<int, std::string>, CUmodule> modules;
};

std::string ErrorText(const Api& api, CUresult r) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (api.cuGetErrorName_) api.cuGetErrorName_(r, &name);
  if (api.cuGetErrorString_) api.cuGetErrorString_(r, &text);
  std::string out = name ? name : "CUDA error " + std::to_string(static_cast<int>(r));
  if (text) out += std::string(" (") + text + ")";
  return out;
}

Driver& Load() {
  static Driver* driver = [] {
    auto* d = new Driver();  // lives for the process: buffers may be freed during exit
    void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* why = dlerror();
      d->status.reason = std::string("no CUDA driver found (") + (why ? why : "libcuda.so.1") + ")";
      return d;
    }
#define X(fn)                                                                          \
  d->api.fn##_ = reinterpret_cast<decltype(&fn)>(dlsym(handle, TILEC_XSTR(fn)));       \
  if (!d->api.fn##_) {                                                                 \
    d->status.reason = "the CUDA driver libcuda.so.1 lacks `" TILEC_XSTR(fn) "`";      \
    return d;                                                                          \
  }
    TILEC_CU_FUNCS(X)
#undef X
    CUresult r = d->api.cuInit_(0);
    if (r != CUDA_SUCCESS) {
      d->status.reason = "CUDA driver found but cuInit failed: " + ErrorText(d->api, r);
      return d;
    }
    int count = 0;
    r = d->api.cuDeviceGetCount_(&count);
    if (r != CUDA_SUCCESS) {
      d->status.reason = "cuDeviceGetCount failed: " + ErrorText(d->api, r);
      return d;
    }
    if (count == 0) {
      d->status.reason = "CUDA driver found but no CUDA device";
      return d;
    }
    d->status.ok = true;
    d->status.device_count = count;
    d->contexts.assign(count, nullptr);
    return d;
  }();
  return *driver;
}

void Check(const Driver& d, CUresult r, const char* call) {
  if (r != CUDA_SUCCESS) throw Error(std::string(call) + " failed: " + ErrorText(d.api, r));
}

// Makes the device's primary context current on this thread, retaining it on first use.
Driver& Use(int ordinal) {
  Driver& d = Load();
  if (!d.status.ok) throw Error(d.status.reason);
  if (ordinal < 0 || ordinal >= d.status.device_count)
    throw Error("device `cuda:" + std::to_string(ordinal) + "` does not exist (" +
                std::to_string(d.status.device_count) + " CUDA device(s) found)");
  CUcontext ctx;
  {
    std::lock_guard<std::mutex> lock(d.mutex);
    if (!d.contexts[ordinal]) {
      CUdevice dev;
      Check(d, d.api.cuDeviceGet_(&dev, ordinal), "cuDeviceGet");
      Check(d, d.api.cuDevicePrimaryCtxRetain_(&d.contexts[ordinal], dev),
            "cuDevicePrimaryCtxRetain");
    }
    ctx = d.contexts[ordinal];
  }
  Check(d, d.api.cuCtxSetCurrent_(ctx), "cuCtxSetCurrent");
  return d;
}

CUdeviceptr Ptr(const void* p) { return reinterpret_cast<CUdeviceptr>(p); }

}  // namespace

const Status& DriverStatus() { return Load().status; }

void* Alloc(int ordinal, size_t bytes) {
  Driver& d = Use(ordinal);
  CUdeviceptr p = 0;
  Check(d, d.api.cuMemAlloc_(&p, bytes == 0 ? 1 : bytes), "cuMemAlloc");
  return reinterpret_cast<void*>(p);
}

void Free(int ordinal, void* ptr) noexcept {
  try {
    Driver& d = Use(ordinal);
    d.api.cuMemFree_(Ptr(ptr));  // errors at free time cannot be reported usefully
  } catch (...) {
  }
}

void CopyHtoD(int ordinal, void* dst, const void* src, size_t bytes) {
  if (bytes == 0) return;
  Driver& d = Use(ordinal);
  Check(d, d.api.cuMemcpyHtoD_(Ptr(dst), src, bytes), "cuMemcpyHtoD");
}

void CopyDtoH(int ordinal, void* dst, const void* src, size_t bytes) {
  if (bytes == 0) return;
  Driver& d = Use(ordinal);
  Check(d, d.api.cuMemcpyDtoH_(dst, Ptr(src), bytes), "cuMemcpyDtoH");
}

void CopyDtoD(int ordinal, void* dst, const void* src, size_t bytes) {
  if (bytes == 0) return;
  Driver& d = Use(ordinal);
  Check(d, d.api.cuMemcpyDtoD_(Ptr(dst), Ptr(src), bytes), "cuMemcpyDtoD");
}

void MemsetZero(int ordinal, void* dst, size_t bytes) {
  if (bytes == 0) return;
  Driver& d = Use(ordinal);
  Check(d, d.api.cuMemsetD8_(Ptr(dst), 0, bytes), "cuMemsetD8");
}

void Synchronize(int ordinal) {
  Driver& d = Use(ordinal);
  Check(d, d.api.cuCtxSynchronize_(), "cuCtxSynchronize");
}

int ComputeCapability(int ordinal) {
  Driver& d = Use(ordinal);
  CUdevice dev;
  Check(d, d.api.cuDeviceGet_(&dev, ordinal), "cuDeviceGet");
  int major = 0, minor = 0;
  Check(d, d.api.cuDeviceGetAttribute_(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev),
        "cuDeviceGetAttribute");
  Check(d, d.api.cuDeviceGetAttribute_(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev),
        "cuDeviceGetAttribute");
  return major * 10 + minor;
}

std::string DeviceName(int ordinal) {
  Driver& d = Use(ordinal);
  CUdevice dev;
  Check(d, d.api.cuDeviceGet_(&dev, ordinal), "cuDeviceGet");
  char name[256] = {};
  Check(d, d.api.cuDeviceGetName_(name, sizeof(name) - 1, dev), "cuDeviceGetName");
  return name;
}

void* GetFunction(int ordinal, const std::string& ptx, const std::string& entry,
                  uint32_t shared_bytes, const std::string& kernel_name) {
  // `ptx` may as well be a cubin: cuModuleLoadDataEx tells them apart by the ELF header.
  Driver& d = Use(ordinal);
  std::lock_guard<std::mutex> lock(d.mutex);
  auto key = std::make_tuple(ordinal, ptx, entry);
  if (auto it = d.functions.find(key); it != d.functions.end()) return it->second;

  CUmodule module = nullptr;
  auto mkey = std::make_pair(ordinal, ptx);
  if (auto it = d.modules.find(mkey); it != d.modules.end()) {
    module = it->second;
  } else {
    std::vector<char> log(16384, 0);
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void* values[] = {log.data(), reinterpret_cast<void*>(static_cast<uintptr_t>(log.size() - 1))};
    CUresult r = d.api.cuModuleLoadDataEx_(&module, ptx.c_str(), 2, options, values);
    if (r != CUDA_SUCCESS) {
      std::string text(log.data());
      while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
      throw Error("cuModuleLoadDataEx failed for kernel `" + kernel_name + "`: " +
                  ErrorText(d.api, r) + (text.empty() ? "" : "\ndriver JIT log:\n" + text));
    }
    d.modules[mkey] = module;  // modules live as long as the process
  }
  CUfunction fn = nullptr;
  CUresult r = d.api.cuModuleGetFunction_(&fn, module, entry.c_str());
  if (r != CUDA_SUCCESS)
    throw Error("cuModuleGetFunction failed for entry `" + entry + "` of kernel `" +
                kernel_name + "`: " + ErrorText(d.api, r));
  // Above 48 KiB a kernel must opt in to dynamic shared memory.
  if (shared_bytes > 48 * 1024)
    Check(d,
          d.api.cuFuncSetAttribute_(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                    static_cast<int>(shared_bytes)),
          "cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)");
  d.functions[key] = fn;
  return fn;
}

void LaunchKernel(int ordinal, void* function, uint32_t grid, uint32_t block,
                  uint32_t shared_bytes, void** params, const std::string& kernel_name,
                  void* stream) {
  Driver& d = Use(ordinal);
  CUresult r = d.api.cuLaunchKernel_(static_cast<CUfunction>(function), grid, 1, 1, block, 1, 1,
                                     shared_bytes, static_cast<CUstream>(stream), params, nullptr);
  if (r != CUDA_SUCCESS)
    throw Error("cuLaunchKernel failed for kernel `" + kernel_name + "`" +
                (stream ? " on the given stream" : "") + ": " + ErrorText(d.api, r));
}

void StreamSynchronize(int ordinal, void* stream) {
  Driver& d = Use(ordinal);
  Check(d, d.api.cuStreamSynchronize_(static_cast<CUstream>(stream)), "cuStreamSynchronize");
}

#else  // no cuda.h at build time: the runtime is CPU-only

const Status& DriverStatus() {
  static Status s{false, "no CUDA driver found (this runtime was built without CUDA headers)", 0};
  return s;
}
static void* Unavailable() { throw Error(DriverStatus().reason); }
void* Alloc(int, size_t) { return Unavailable(); }
void Free(int, void*) noexcept {}
void CopyHtoD(int, void*, const void*, size_t) { Unavailable(); }
void CopyDtoH(int, void*, const void*, size_t) { Unavailable(); }
void CopyDtoD(int, void*, const void*, size_t) { Unavailable(); }
void MemsetZero(int, void*, size_t) { Unavailable(); }
void Synchronize(int) { Unavailable(); }
int ComputeCapability(int) { Unavailable(); return 0; }
std::string DeviceName(int) { Unavailable(); return {}; }
void* GetFunction(int, const std::string&, const std::string&, uint32_t, const std::string&) {
  return Unavailable();
}
void LaunchKernel(int, void*, uint32_t, uint32_t, uint32_t, void**, const std::string&, void*) {
  Unavailable();
}
void StreamSynchronize(int, void*) { Unavailable(); }

#endif

}  // namespace tilec::rt::cuda
