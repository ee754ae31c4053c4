// Hand-written kernels with the tilec_cpu_kernel_fn ABI that stand in for compiled ones, and
// helpers to build signatures and modules from them, so runtime tests need no compiler.
#pragma once
#include <map>
#include <string>

#include "tilec/runtime.h"

namespace tilec::rt::test {

template <typename T>
inline T& At(const tilec_array* a, int64_t i) {
  return *reinterpret_cast<T*>(static_cast<char*>(a->data) + i * a->strides[0]);
}
template <typename T>
inline T& GradAt(const tilec_array* a, int64_t i) {
  return *reinterpret_cast<T*>(static_cast<char*>(a->grad) + i * a->strides[0]);
}

inline ParamInfo ArrayParam(std::string name, ScalarType t, int ndim = 1) {
  ParamInfo p;
  p.name = std::move(name);
  p.kind = ParamKind::Array;
  p.type.scalar = t;
  p.ndim = ndim;
  return p;
}
inline ParamInfo ScalarParam(std::string name, ScalarType t) {
  ParamInfo p;
  p.name = std::move(name);
  p.kind = ParamKind::Scalar;
  p.type.scalar = t;
  return p;
}

inline KernelSignature KernelSig(std::string name, std::vector<ParamInfo> params,
                                 bool tiled = false, bool has_adjoint = false) {
  KernelSignature k;
  k.name = name;
  k.params = std::move(params);
  k.tiled = tiled;
  k.has_adjoint = has_adjoint;
  k.entry_symbol = name + "_fwd";
  if (has_adjoint) k.adjoint_symbol = name + "_adj";
  return k;
}

// A module whose resolver looks symbols up in `symbols`.
inline Module MakeModule(ModuleSignature sig, std::map<std::string, void*> symbols) {
  return Module::FromResolver(std::move(sig), [symbols](const std::string& s) -> void* {
    auto it = symbols.find(s);
    return it == symbols.end() ? nullptr : it->second;
  });
}

}  // namespace tilec::rt::test
