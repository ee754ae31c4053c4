// PTX to cubin through libnvJitLink (dlopen'ed once per process): create a linker for the
// architecture, add the PTX, complete, take the linked cubin. The few declarations needed are
// here, matching nvJitLink.h, so that building tilec needs no CUDA toolkit.
#include "compiler/cubin.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

namespace tilec::compiler {

namespace {

// From nvJitLink.h (CUDA 12 and 13): results are an enum whose 0 is success.
using Handle = struct nvJitLinkOpaque*;
using Result = int;
constexpr Result kSuccess = 0;
constexpr int kInputPtx = 2;  // NVJITLINK_INPUT_PTX

struct Api {
  std::string path;
  std::string why;  // when path is empty
  Result (*create)(Handle*, uint32_t, const char**) = nullptr;
  Result (*destroy)(Handle*) = nullptr;
  Result (*add_data)(Handle, int, const void*, size_t, const char*) = nullptr;
  Result (*complete)(Handle) = nullptr;
  Result (*cubin_size)(Handle, size_t*) = nullptr;
  Result (*cubin)(Handle, void*) = nullptr;
  Result (*error_log_size)(Handle, size_t*) = nullptr;
  Result (*error_log)(Handle, char*) = nullptr;
};

std::vector<std::string> Candidates() {
  std::vector<std::string> dirs;
  if (const char* home = std::getenv("CUDA_HOME"); home && *home) dirs.push_back(std::string(home) + "/lib64/");
  dirs.push_back("/usr/local/cuda/lib64/");
  dirs.push_back("");  // the default library path
  std::vector<std::string> out;
  for (const std::string& d : dirs)
    for (const char* name : {"libnvJitLink.so.13", "libnvJitLink.so.12", "libnvJitLink.so"})
      out.push_back(d + name);
  return out;
}

const Api& Load() {
  static const Api api = [] {
    Api a;
    void* handle = nullptr;
    for (const std::string& c : Candidates()) {
      handle = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle) {
        a.path = c;
        break;
      }
    }
    if (!handle) {
      a.why = "libnvJitLink was not found (looked in $CUDA_HOME/lib64, /usr/local/cuda/lib64 and "
              "the default library path)";
      return a;
    }
    auto sym = [&](const char* name, auto& fn) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle, name));
      if (!fn && a.why.empty()) a.why = a.path + " lacks `" + name + "`";
    };
    sym("nvJitLinkCreate", a.create);
    sym("nvJitLinkDestroy", a.destroy);
    sym("nvJitLinkAddData", a.add_data);
    sym("nvJitLinkComplete", a.complete);
    sym("nvJitLinkGetLinkedCubinSize", a.cubin_size);
    sym("nvJitLinkGetLinkedCubin", a.cubin);
    sym("nvJitLinkGetErrorLogSize", a.error_log_size);
    sym("nvJitLinkGetErrorLog", a.error_log);
    if (!a.why.empty()) a.path.clear();  // unusable: kept open, it costs nothing
    return a;
  }();
  return api;
}

std::string ErrorLog(const Api& a, Handle h) {
  size_t size = 0;
  if (a.error_log_size(h, &size) != kSuccess || size <= 1) return "";
  std::string log(size, '\0');
  if (a.error_log(h, log.data()) != kSuccess) return "";
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n' || log.back() == ' ')) log.pop_back();
  return log;
}

}  // namespace

std::string NvJitLinkLibrary(std::string* why) {
  const Api& a = Load();
  if (a.path.empty() && why) *why = a.why;
  return a.path;
}

bool CompilePtxToCubin(const std::string& ptx, const std::string& arch, std::string& cubin,
                       std::string& error) {
  const Api& a = Load();
  if (a.path.empty()) {
    error = a.why;
    return false;
  }
  // One linker per call: nvJitLink handles are independent, but keep the calls of this
  // process serialized, as the library's thread safety is not documented for all versions.
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  std::string arch_option = "-arch=" + arch;
  const char* options[] = {arch_option.c_str()};
  Handle h = nullptr;
  if (Result r = a.create(&h, 1, options); r != kSuccess) {
    error = "nvJitLink could not start a link for " + arch + " (result " + std::to_string(r) + ")";
    if (h) a.destroy(&h);
    return false;
  }
  auto fail = [&](const std::string& what, Result r) {
    std::string log = ErrorLog(a, h);
    error = "nvJitLink " + what + " for " + arch + " (result " + std::to_string(r) + ")" +
            (log.empty() ? "" : ":\n" + log);
    a.destroy(&h);
    return false;
  };
  // The PTX text is passed with its terminating NUL, as nvJitLink expects for PTX input.
  if (Result r = a.add_data(h, kInputPtx, ptx.c_str(), ptx.size() + 1, "tilec.ptx"); r != kSuccess)
    return fail("refused the PTX", r);
  if (Result r = a.complete(h); r != kSuccess) return fail("failed to assemble the PTX", r);
  size_t size = 0;
  if (Result r = a.cubin_size(h, &size); r != kSuccess) return fail("gave no cubin size", r);
  cubin.assign(size, '\0');
  if (Result r = a.cubin(h, cubin.data()); r != kSuccess) return fail("gave no cubin", r);
  a.destroy(&h);
  return true;
}

}  // namespace tilec::compiler
