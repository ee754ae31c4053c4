// Warp's generic kernels (`Any` in parameter annotations): the types that overloads and launch
// arguments name, and the instances, each the kernel's own text with concrete annotations in
// place of the generic ones, compiled as any kernel is and kept per signature.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "host/interp/kernel_compile.h"
#include "host/interp/value.h"
#include "host/interp/wp_values.h"
#include "support/composite.h"
#include "support/source.h"

namespace tilec::host {

// A Warp type as an overload or a launch argument names it, or a generic parameter's template:
// a scalar, a vector-like type, a struct or Any, or an array (ndim > 0) of one of those.
struct WpTypeDesc {
  enum class Kind : uint8_t { Any, Scalar, Composite, Struct };
  Kind kind = Kind::Any;
  ScalarType scalar = ScalarType::Float32;
  Composite composite;
  std::string struct_name;
  int ndim = 0;

  bool is_array() const { return ndim > 0; }
  bool generic() const { return kind == Kind::Any; }
  std::string Repr() const;        // as Warp's messages write it: array(ndim=2, dtype=float32)
  std::string Annotation() const;  // as a kernel parameter's annotation
};

// One parameter of a generic kernel.
struct GenericParam {
  std::string name;
  // The template of a parameter whose annotation mentions Any; null for the others, which keep
  // their annotation.
  std::optional<WpTypeDesc> tmpl;
  bool generic = false;     // the annotation mentions Any
  std::string annotation;   // its text, for messages
  SourceRange range;        // the annotation's bytes in the defining file
};

struct GenericKernel {
  Value fn;  // the FunctionObj: its chunk holds the text each instance is cut from
  std::vector<GenericParam> params;
  // Options and constants as the `def` left them; the definitions are taken at each
  // instantiation, as Warp builds a module at its first launch.
  KernelCompileRequest base;
  std::map<std::string, std::shared_ptr<KernelObj>> instances;  // by signature
};

// `typing.Any` (or `Any` imported from it) as a host value.
bool IsTypingAny(const Value& v);

// The generic parameters of a `def`, or null when no annotation mentions Any.
std::shared_ptr<GenericKernel> GenericKernelOf(const Value& fn);

// The instance of generic kernel `k` for its launch arguments (inputs then outputs), made on
// first need as Warp's launch does; a Python error when an argument's type cannot be resolved.
KernelObj& GenericInstanceForArgs(Interpreter& in, KernelObj& k, const std::vector<Value>& args);

// wp.overload(kernel, [types...] | {name: type}) and the decorator form on a stub `def`.
Value OverloadKernel(Interpreter& in, const Value& kernel, const std::optional<Value>& arg_types);

// Compiles an instance of generic kernel `k`: its definition with each (range, text) edit applied
// (wp_kernels.cpp). A compile error is kept on the instance, raised at its launch.
std::shared_ptr<KernelObj> InstantiateKernel(Interpreter& in, const KernelObj& k,
                                             const std::vector<std::pair<SourceRange, std::string>>& edits);

}  // namespace tilec::host
