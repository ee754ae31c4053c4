// Modules of compiled kernels: from an AOT shared object (dlopen'ed, signature read from its
// `tilec_module_signature` symbol), from a GPU module file (`.tlm`: the signature text alone,
// GPU code only), or from a signature plus a symbol resolver that a JIT supplies. Also the
// versioned text form of ModuleSignature that AOT artifacts carry.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tilec/abi.h"
#include "tilec/signature.h"

namespace tilec::rt {

// Line-based text, first line "tilec-module-signature <TILEC_ABI_VERSION>"; PTX text is
// carried as a length-prefixed block. ParseSignature throws Error naming the line.
std::string SerializeSignature(const ModuleSignature& signature);
ModuleSignature ParseSignature(std::string_view text);

using SymbolResolver = std::function<void*(const std::string& symbol)>;

class Kernel;

class Module {
 public:
  Module() = default;

  // An ELF shared object (`tilec compile -o kernels.so`) is dlopen'ed and kept open while any
  // Module or Kernel handle lives; a GPU module file (`tilec compile --target=nvptx -o
  // kernels.tlm`, recognised by its first bytes) is read whole and runs only on CUDA devices.
  static Module Load(const std::string& path);
  // `resolve` maps entry symbols to addresses (it may be empty for PTX-only modules);
  // `keep_alive` is held as long as the module lives (a JIT session, a dlopen handle).
  static Module FromResolver(ModuleSignature signature, SymbolResolver resolve,
                             std::shared_ptr<void> keep_alive = nullptr);

  bool is_null() const { return impl_ == nullptr; }
  const ModuleSignature& signature() const;
  std::vector<std::string> KernelNames() const;
  bool HasKernel(const std::string& name) const;
  Kernel GetKernel(const std::string& name) const;  // throws Error listing the names
  // How messages name the module: "`kernels.tlm`" for a loaded file, else "module".
  const std::string& origin() const;
  // False for a GPU module file: its kernels have no host entries, so they cannot run on `cpu`.
  bool has_host_code() const;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
  friend class Kernel;
};

// A kernel of a module: a cheap handle that keeps its module alive.
class Kernel {
 public:
  Kernel() = default;
  bool is_null() const { return impl_ == nullptr; }
  const KernelSignature& signature() const;
  const std::string& name() const { return signature().name; }
  // The module's struct table, which ElemType::struct_index refers to.
  const std::vector<StructLayout>& structs() const;
  Module module() const;
  // Host entries, resolved on first use; throw Error when the module has none.
  tilec_cpu_kernel_fn CpuEntry() const;
  tilec_cpu_kernel_fn CpuAdjoint() const;

  // Internal: the per-device GPU function cache lives in the module.
  Module::Impl* impl() const { return impl_.get(); }
  int index() const { return index_; }
  bool operator==(const Kernel& o) const { return impl_ == o.impl_ && index_ == o.index_; }

 private:
  Kernel(std::shared_ptr<Module::Impl> impl, int index) : impl_(std::move(impl)), index_(index) {}
  std::shared_ptr<Module::Impl> impl_;
  int index_ = -1;
  friend class Module;
};

// "array(dtype=float32, ndim=2)", "float32", "struct Particle": how errors name types.
std::string ParamTypeName(const ParamInfo& param, const std::vector<StructLayout>& structs);

}  // namespace tilec::rt
