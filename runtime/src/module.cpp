// Modules and kernels: loading an AOT kernels.so (its signature text and entry symbols) or a
// GPU module file (kernels.tlm, the signature text alone), or wrapping a compiler-provided
// resolver; host entries are resolved lazily and cached.
#include <dlfcn.h>

#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>

#include "tilec/error.h"
#include "tilec/module.h"

namespace tilec::rt {

struct Module::Impl {
  ModuleSignature signature;
  SymbolResolver resolve;
  std::shared_ptr<void> keep_alive;
  std::string origin;  // for messages: the .so path or "JIT module"
  bool host_code = true;  // false for a GPU module file
  std::mutex mutex;
  std::vector<tilec_cpu_kernel_fn> entries, adjoints;  // null until resolved
};

namespace {

struct DlHandle {
  void* handle = nullptr;
  ~DlHandle() {
    if (handle) dlclose(handle);
  }
};

void CheckSignature(const ModuleSignature& sig) {
  for (size_t i = 0; i < sig.kernels.size(); ++i) {
    const KernelSignature& k = sig.kernels[i];
    if (k.name.empty()) throw Error("module signature has a kernel without a name");
    for (size_t j = 0; j < i; ++j)
      if (sig.kernels[j].name == k.name)
        throw Error("module signature defines kernel `" + k.name + "` twice");
    for (const GpuVariant& v : k.gpu_variants)
      if (v.image < 0 || v.image >= static_cast<int>(sig.gpu_images.size()))
        throw Error("kernel `" + k.name + "` refers to GPU image " + std::to_string(v.image) +
                    ", which the module does not define");
    for (const ParamInfo& p : k.params) {
      if (p.type.is_struct() && p.type.struct_index >= static_cast<int>(sig.structs.size()))
        throw Error("parameter `" + p.name + "` of kernel `" + k.name +
                    "` refers to a struct the module does not define");
      if (p.kind == ParamKind::Array && (p.ndim < 1 || p.ndim > TILEC_MAX_DIMS))
        throw Error("array parameter `" + p.name + "` of kernel `" + k.name +
                    "` has ndim " + std::to_string(p.ndim) + ", expected 1 to 4");
    }
  }
}

}  // namespace

Module Module::FromResolver(ModuleSignature signature, SymbolResolver resolve,
                            std::shared_ptr<void> keep_alive) {
  CheckSignature(signature);
  Module m;
  m.impl_ = std::make_shared<Impl>();
  m.impl_->entries.assign(signature.kernels.size(), nullptr);
  m.impl_->adjoints.assign(signature.kernels.size(), nullptr);
  m.impl_->signature = std::move(signature);
  m.impl_->resolve = std::move(resolve);
  m.impl_->keep_alive = std::move(keep_alive);
  m.impl_->origin = "module";
  return m;
}

namespace {

// A GPU module file: the serialized signature with its gpu_image records and nothing else.
Module LoadGpuModule(const std::string& path, const std::string& bytes) {
  if (bytes.find('\0') != std::string::npos)
    throw Error("`" + path + "` is damaged: a tilec GPU module is text, but this file holds NUL bytes");
  ModuleSignature sig;
  try {
    sig = ParseSignature(bytes);
  } catch (const Error& e) {
    throw Error("`" + path + "` is not a valid tilec GPU module: " + e.what());
  }
  if (sig.gpu_images.empty())
    throw Error("`" + path + "` is a tilec module signature without GPU code; nothing in it can run");
  Module m = Module::FromResolver(std::move(sig), nullptr);
  return m;
}

}  // namespace

Module Module::Load(const std::string& path) {
  // The first bytes tell a GPU module file from a shared object; anything else goes to dlopen,
  // whose message then says what is wrong with it.
  {
    std::ifstream in(path, std::ios::binary);
    char head[sizeof(TILEC_GPU_MODULE_MAGIC) - 1] = {};
    if (in && in.read(head, sizeof head) &&
        std::memcmp(head, TILEC_GPU_MODULE_MAGIC, sizeof head) == 0) {
      std::ostringstream all;
      in.seekg(0);
      all << in.rdbuf();
      Module m = LoadGpuModule(path, all.str());
      m.impl_->origin = "`" + path + "`";
      m.impl_->host_code = false;
      return m;
    }
  }
  auto dl = std::make_shared<DlHandle>();
  // A path without a slash would search the library path; kernels.so means ./kernels.so.
  std::string open_path = path.find('/') == std::string::npos ? "./" + path : path;
  dl->handle = dlopen(open_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!dl->handle) {
    const char* why = dlerror();
    throw Error("cannot load kernel module `" + path + "`: " + (why ? why : "dlopen failed"));
  }
  void* sym = dlsym(dl->handle, TILEC_MODULE_SIGNATURE_SYMBOL);
  if (!sym)
    throw Error("`" + path + "` is not a tilec kernel module: it lacks the symbol `" +
                TILEC_MODULE_SIGNATURE_SYMBOL + "`");
  // The symbol is a `const char*` variable; a `const char[]` array is accepted as well.
  const char* text = static_cast<const char*>(sym);
  if (std::strncmp(text, "tilec-module-signature", 22) != 0)
    text = *static_cast<const char* const*>(sym);
  if (!text) throw Error("`" + path + "`: `tilec_module_signature` is null");
  ModuleSignature sig;
  try {
    sig = ParseSignature(text);
  } catch (const Error& e) {
    throw Error("`" + path + "`: " + e.what());
  }
  void* handle = dl->handle;
  Module m = FromResolver(
      std::move(sig), [handle](const std::string& s) { return dlsym(handle, s.c_str()); }, dl);
  m.impl_->origin = "`" + path + "`";
  return m;
}

const std::string& Module::origin() const {
  if (!impl_) throw Error("null module");
  return impl_->origin;
}

bool Module::has_host_code() const {
  if (!impl_) throw Error("null module");
  return impl_->host_code;
}

const ModuleSignature& Module::signature() const {
  if (!impl_) throw Error("null module");
  return impl_->signature;
}

std::vector<std::string> Module::KernelNames() const {
  std::vector<std::string> out;
  for (const KernelSignature& k : signature().kernels) out.push_back(k.name);
  return out;
}

bool Module::HasKernel(const std::string& name) const {
  for (const KernelSignature& k : signature().kernels)
    if (k.name == name) return true;
  return false;
}

Kernel Module::GetKernel(const std::string& name) const {
  const auto& ks = signature().kernels;
  for (size_t i = 0; i < ks.size(); ++i)
    if (ks[i].name == name) return Kernel(impl_, static_cast<int>(i));
  std::string names;
  for (const auto& k : ks) names += (names.empty() ? "`" : ", `") + k.name + "`";
  throw Error("module has no kernel `" + name + "`" +
              (names.empty() ? std::string(" (it has none)") : " (it has " + names + ")"));
}

const KernelSignature& Kernel::signature() const {
  if (!impl_) throw Error("null kernel");
  return impl_->signature.kernels[index_];
}

const std::vector<StructLayout>& Kernel::structs() const {
  if (!impl_) throw Error("null kernel");
  return impl_->signature.structs;
}

Module Kernel::module() const {
  Module m;
  m.impl_ = impl_;
  return m;
}

namespace {

tilec_cpu_kernel_fn Resolve(Module::Impl& m, int index, bool adjoint) {
  std::lock_guard<std::mutex> lock(m.mutex);
  auto& slot = adjoint ? m.adjoints[index] : m.entries[index];
  if (slot) return slot;
  const KernelSignature& k = m.signature.kernels[index];
  const std::string& symbol = adjoint ? k.adjoint_symbol : k.entry_symbol;
  if (adjoint && !k.has_adjoint)
    throw Error("kernel `" + k.name + "` has no adjoint (it was compiled with enable_backward=False)");
  if (symbol.empty())
    throw Error("kernel `" + k.name + "` has no CPU " + (adjoint ? "adjoint" : "entry") +
                " in this module");
  void* addr = m.resolve ? m.resolve(symbol) : nullptr;
  if (!addr)
    throw Error("kernel `" + k.name + "`: " + m.origin + " lacks the symbol `" + symbol + "`");
  slot = reinterpret_cast<tilec_cpu_kernel_fn>(addr);
  return slot;
}

}  // namespace

tilec_cpu_kernel_fn Kernel::CpuEntry() const {
  signature();
  return Resolve(*impl_, index_, false);
}

tilec_cpu_kernel_fn Kernel::CpuAdjoint() const {
  signature();
  return Resolve(*impl_, index_, true);
}

std::string ParamTypeName(const ParamInfo& p, const std::vector<StructLayout>& structs) {
  std::string elem;
  if (p.type.is_struct()) {
    int i = p.type.struct_index;
    elem = i >= 0 && i < static_cast<int>(structs.size()) ? structs[i].name : "struct";
  } else {
    elem = std::string(ScalarName(p.type.scalar));
  }
  if (p.kind == ParamKind::Array)
    return "array(dtype=" + elem + ", ndim=" + std::to_string(p.ndim) + ")";
  return elem;
}

}  // namespace tilec::rt
