// The `wp` binding's values: warp arrays over rt::Array, devices, kernels, tapes, and the
// per-session state (definitions seen so far, for compiling kernels with their constants).
#pragma once
#include <map>
#include <set>
#include <tuple>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/interp/errors.h"
#include "host/interp/value.h"
#include "tilec/runtime.h"

namespace tilec::host {

struct WpArrayObj : Object {
  explicit WpArrayObj(rt::Array a) : a(std::move(a)) {}
  std::string TypeName() const override { return "warp.array"; }
  std::string Repr() const override;
  std::string Str() const override;
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  bool SetAttr(Interpreter& in, const std::string& name, const Value& v) override;
  Value GetItem(Interpreter& in, const Value& key) override;
  std::optional<int64_t> Len() const override { return a.ndim() ? a.shape()[0] : 0; }
  rt::Array a;
};

// A runtime array as a `warp.array` value, and the array a `warp.array` argument holds
// (TypeError naming `context` for anything else). wp_module.cpp.
Value Wrap(rt::Array a);
rt::Array& ArrayArg(const Value& v, const std::string& context);

struct DeviceObj : Object {
  explicit DeviceObj(rt::Device d) : d(d) {}
  std::string TypeName() const override { return "warp.context.Device"; }
  std::string Repr() const override { return "\"" + d.Name() + "\""; }
  std::string Str() const override { return d.Name(); }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  std::optional<Value> CmpOp(Interpreter& in, ast::CmpOp op, const Value& other, bool reflected) override;
  rt::Device d;
};

// A compiled `@wp.kernel`, or a generic one (`generic` set), which compiles nothing itself.
struct KernelObj : Object {
  std::string TypeName() const override { return "warp.Kernel"; }
  std::string Repr() const override { return "<warp.Kernel " + name + ">"; }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;  // wp_generic.cpp
  std::string name;
  std::string key;  // `wp.Kernel(key=...)`; empty: the name
  Value options;     // `wp.Kernel(options=...)`, as given (`kernel.options`)
  rt::Kernel kernel;
  std::string source;  // the module text it was compiled from
  std::shared_ptr<struct KernelCompileRequest> request;  // to recompile for `:emit`
  // CUDA variants compiled on first launch, by (PTX architecture, block_dim, hybrid launch).
  std::map<std::tuple<std::string, int, bool>, rt::Kernel> gpu_variants;
  std::map<std::pair<int, bool>, rt::Kernel> cpu_variants;  // by block_dim and hybrid, other than `kernel`
  // A kernel that failed to compile is still defined, as in Warp, which compiles at the first
  // launch: the error is raised where the kernel is first used.
  std::shared_ptr<PyError> compile_error;
  // A kernel with `Any` in its annotations: its instances are compiled per overload.
  std::shared_ptr<struct GenericKernel> generic;
};

// `wp.array2d[wp.float32]`, `wp.array(dtype=Any)` on the host: an array type as a value, for
// wp.overload's type lists (kernels read their annotations from their own text).
struct ArrayAnnotationObj : Object {
  ArrayAnnotationObj(std::string ctor, int ndim, Value dtype) : ctor(std::move(ctor)), ndim(ndim), dtype(std::move(dtype)) {}
  std::string TypeName() const override { return "warp.types.array"; }
  std::string Repr() const override;  // wp_generic.cpp
  std::string ctor;  // "array", "array2d", ...
  int ndim;
  Value dtype;
};

// A `@wp.func`: callable only from kernels.
struct WpFuncObj : Object {
  std::string TypeName() const override { return "warp.Function"; }
  std::string Repr() const override { return "<warp.Function " + name + ">"; }
  bool Callable() const override { return true; }
  Value Call(Interpreter& in, CallArgs& args) override;
  std::string name;
  Value fn;  // the Python function: called from host code, it runs as Python (Warp's rule)
};

// A `@wp.struct` class: a dtype for arrays, and called (`S()`) a host value of the struct.
struct WpStructObj : Object {
  std::string TypeName() const override { return "warp.codegen.Struct"; }
  std::string Repr() const override { return "<class '" + name + "'>"; }
  bool Callable() const override { return true; }
  Value Call(Interpreter& in, CallArgs& args) override;  // wp_struct_values.cpp
  std::string name;
  std::optional<rt::StructLayout> layout;  // nullopt when the checker rejects the struct
  std::string rejected;                    // then: the checker's diagnostics
  // Raises tilec.CompileError for a struct without a layout, with its diagnostics.
  [[noreturn]] void RaiseRejected(const std::string& context) const;  // wp_struct_values.cpp
};

// A host instance of a `@wp.struct` (Warp's StructInstance): its packed bytes, every field
// zero until set. A struct-typed field reads as a view of the same bytes, so `s.inner.x = 1`
// writes into `s`, as in Warp. wp_struct_values.cpp.
struct StructValueObj : Object {
  using ArrayFields = std::map<std::string, Value>;
  StructValueObj(std::shared_ptr<const rt::StructLayout> layout, std::shared_ptr<std::vector<uint8_t>> bytes,
                 size_t offset, std::shared_ptr<ArrayFields> arrays = nullptr, std::string prefix = "")
      : layout(std::move(layout)), bytes(std::move(bytes)), offset(offset),
        arrays(arrays ? std::move(arrays) : std::make_shared<ArrayFields>()), prefix(std::move(prefix)) {}
  // The array at `path` (`x`, `inner.y`) below this value; None where it was never set.
  Value ArrayField(const std::string& path) const;
  std::string TypeName() const override { return layout->name; }
  // Warp's form: one field a line, in declaration order, nested structs indented by a tab.
  std::string Repr() const override { return Text(0, true); }
  std::string Str() const override { return Text(0, false); }
  std::string Text(int depth, bool use_repr) const;
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  bool SetAttr(Interpreter& in, const std::string& name, const Value& v) override;
  std::vector<uint8_t> Bytes() const;  // this value's own layout->size bytes
  std::shared_ptr<const rt::StructLayout> layout;
  std::shared_ptr<std::vector<uint8_t>> bytes;
  size_t offset;
  // Array fields (not in the bytes), of the outermost value by path: a nested struct's view
  // shares them, with its own path as `prefix` (`inner.`).
  std::shared_ptr<ArrayFields> arrays;
  std::string prefix;
};

// wp.array(data, dtype=S) for a list of host struct values (one dimension, or `shape`).
rt::Array StructArrayFromValues(Interpreter& in, const Value& data, const rt::StructLayout& layout,
                                const std::optional<std::vector<int64_t>>& shape, std::optional<rt::Device> device,
                                bool requires_grad);

struct TapeObj : Object {
  TapeObj() : tape(std::make_unique<rt::Tape>()) {}
  std::string TypeName() const override { return "warp.Tape"; }
  std::string Repr() const override { return "<warp.Tape>"; }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  std::optional<Value> Enter(Interpreter& in) override;
  void Exit(Interpreter& in) override;
  std::unique_ptr<rt::Tape> tape;
};

struct HostCallEntry;  // wp_composite.cpp

struct WpState {
  // Source text of every `@wp.func`, `@wp.struct` and `@wp.kernel` definition, in order.
  struct Definition {
    std::string name;
    std::string kind;  // "kernel", "func", "struct"
    std::string text;
    std::string path;
    int line = 0;  // first line of the text in its file
    int col_base = 0;  // columns the text was dedented by in its file
    // A func's parameter annotations as written: a func of the same name and other
    // annotations is an overload (Warp's), kept beside it; the same ones replace it.
    std::string signature;
    // The values of its `wp.static(...)` expressions, as constants the text names (wp_static.cpp).
    std::vector<std::pair<std::string, Value>> statics;
  };
  std::vector<Definition> definitions;
  // Funcs given a custom adjoint by `@wp.func_grad(f)`: a kernel that calls one compiles only
  // without its backward pass (tilec derives every adjoint itself).
  std::set<std::string> custom_grad_funcs;
  int static_counter = 0;  // names the constants of wp.static values apart
  std::vector<std::shared_ptr<KernelObj>> kernels;
  std::map<std::string, Value> modules;  // wp.get_module(name), by name
  // `wp.config`, whose settings (enable_backward, verbose, ...) host code may change.
  std::shared_ptr<ModuleObj> config;
  // wp.set_module_options: the session is one module, so its options (enable_backward,
  // mode, max_unroll, ...) override wp.config for the kernels defined after the call.
  std::map<std::string, Value> module_options;
  // ScopedTimer's class-level nesting depth (-1 outside every timer), for its indentation.
  int timer_indent = -1;
  bool timers_enabled = true;  // wp.ScopedTimer.enabled
  // Host calls of kernel builtins (`wp.inverse(m)` in host code), compiled once per expression
  // and argument types.
  std::map<std::string, std::shared_ptr<HostCallEntry>> host_calls;
  // The graph being captured (wp.ScopedCapture), null outside a capture (wp_capture.cpp).
  std::shared_ptr<Object> capture;
};

// Graph capture (wp_capture.cpp). RecordInCapture adds `op` to the graph being captured and
// returns true (the caller does not run it now), false outside a capture; RefuseInCapture
// raises for an operation a graph cannot replay.
bool RecordInCapture(Interpreter& in, const std::function<void()>& op);
void RefuseInCapture(Interpreter& in, const std::string& what);
void DefineWarpCapture(ModuleObj& m);
// `wp.kernel`, `wp.Kernel`, `wp.func` and `wp.struct` (wp_kernels.cpp).
void DefineWarpDecorators(ModuleObj& m);

// wp.copy(dest, src, dest_offset=0, src_offset=0, count=0), gradients and tape included
// (wp_copy.cpp).
Value CopyArrays(Interpreter& in, CallArgs& a);

// Adds `wp.config` and `wp.ScopedTimer` to the warp module `m` (wp_config.cpp).
void DefineWarpConfigAndTimer(Interpreter& in, ModuleObj& m);
// wp.config.<name> as a truth value.
bool WarpConfigFlag(Interpreter& in, const std::string& name);
// An int setting of `wp.config`; `fallback` when unset or not an int.
int64_t WarpConfigInt(Interpreter& in, const std::string& name, int64_t fallback);
// `wp.config.mode == "debug"`: kernels defined now check every array access.
bool WarpDebugMode(Interpreter& in);
// What `wp.config.mode` starts as in new sessions (`tilec run --debug`: "debug").
void SetDefaultWarpMode(const std::string& mode);

// Device arguments: None (the default device), "cpu", "cuda", "cuda:N" or a Device.
std::optional<rt::Device> DeviceArg(const Value& v, const std::string& context);
// Compiles the session's definitions, ending with kernel `def`, against the current
// constants; raises a Python error carrying the diagnostics on failure (wp_kernels.cpp).
Value DefineKernel(Interpreter& in, const Value& fn, bool enable_backward);
Value DefineFunc(Interpreter& in, const Value& fn);
Value DefineStruct(Interpreter& in, const Value& cls);

}  // namespace tilec::host
