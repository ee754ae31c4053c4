// What Warp programs and Warp's own test files ask of `wp` beyond the kernel API:
// wp.overload, wp.func_native, wp.get_module, the dtype conversions and the internals they
// query to pick a path. Each answers as tilec is: no CUDA C++ snippets, one kernel per
// compile, no MathDx.
#include "codegen/nvptx/nvptx.h"
#include "host/interp/args.h"
#include "host/interp/array_values.h"
#include "host/interp/errors.h"
#include "host/interp/exceptions.h"
#include "host/interp/interpreter.h"
#include "host/interp/py_std_modules.h"
#include "host/interp/wp_generic.h"
#include "host/interp/wp_values.h"

namespace tilec::host {
namespace {

// A module of Warp's internals that tilec answers in part; other names are placeholders.
// `public_name` names the `wp` member that answers for it (`types`: `warp._src.types` has
// what `wp.types` has).
struct WarpInternalsModule : ModuleObj {
  WarpInternalsModule(std::string name, std::string public_name = "")
      : ModuleObj(std::move(name)), public_name(std::move(public_name)) {}
  std::optional<Value> GetAttr(Interpreter& in, const std::string& attr) override {
    if (std::optional<Value> v = ModuleObj::GetAttr(in, attr)) return v;
    if (!public_name.empty())
      if (std::optional<Value> v = in.GetAttr(in.ImportModule("warp"), public_name).obj()->GetAttr(in, attr)) return v;
    if (attr.rfind("__", 0) == 0) return std::nullopt;
    // A name inside Warp's implementation (`warp._src.build._gemm_operand_alignments`).
    return MakeUnprovided(name + "." + attr, "Warp's implementation");
  }
  std::string public_name;
};

}  // namespace

void DefineWarpCompat(ModuleObj& module) {
  ModuleObj* m = &module;
  // A generic kernel's instance for the given types (wp_generic.cpp); a wp.func stays itself.
  m->Def("overload", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("overload", a, {"kernel", "arg_types"}, 1);
    return OverloadKernel(in, b.Get(0), b.Has(1) ? std::optional<Value>(b.Get(1)) : std::nullopt);
  });
  // Warp's code generation errors; a kernel that does not compile raises tilec.CompileError,
  // which derives from WarpCodegenError, WarpCodegenTypeError and WarpCodegenValueError.
  for (const char* n : {"WarpCodegenError", "WarpCodegenTypeError", "WarpCodegenValueError", "WarpCodegenAttributeError",
                        "WarpCodegenIndexError", "WarpCodegenKeyError"})
    m->attrs[n] = Value(std::const_pointer_cast<ExcTypeObj>(ExceptionType(std::string("warp.") + n)));
  // Warp's dtype conversions: wp.float32 <-> np.float32 (the NumPy scalar type).
  m->Def("dtype_to_numpy", [](Interpreter&, CallArgs& a) {
    ArgBinder b("dtype_to_numpy", a, {"warp_dtype"}, 1);
    return Value(std::make_shared<DTypeObj>(DTypeArg(b.Get(0), true, "dtype_to_numpy()"), DTypeObj::Flavor::NpType));
  });
  m->Def("dtype_from_numpy", [](Interpreter&, CallArgs& a) {
    ArgBinder b("dtype_from_numpy", a, {"numpy_dtype"}, 1);
    return Value(std::make_shared<DTypeObj>(DTypeArg(b.Get(0), false, "dtype_from_numpy()"), DTypeObj::Flavor::WpType));
  });
  // What Warp's own test files ask of its internals to pick a path: tilec has no MathDx
  // libraries and no CUDA toolkit, so those answers are False and 0. Every other name under
  // `warp._src` is a placeholder that raises when used (MakeUnprovided).
  {
    auto core = std::make_shared<WarpInternalsModule>("warp._src.context.runtime.core");
    core->Def("wp_is_mathdx_enabled", [](Interpreter&, CallArgs&) { return Value::Bool(false); });
    core->Def("wp_cuda_toolkit_version", [](Interpreter&, CallArgs&) { return Value::Int(0); });
    // Warp's switch for its native library's messages: tilec's errors are exceptions, so
    // there is nothing to silence; the setting is kept for the programs that restore it.
    auto error_output = std::make_shared<bool>(true);
    core->Def("wp_is_error_output_enabled", [error_output](Interpreter&, CallArgs&) {
      return Value::Bool(*error_output);
    });
    core->Def("wp_set_error_output_enabled", [error_output](Interpreter&, CallArgs& a) {
      ArgBinder b("wp_set_error_output_enabled", a, {"enable"}, 1);
      *error_output = Truth(b.Get(0));
      return Value();
    });
    auto runtime = std::make_shared<WarpInternalsModule>("warp._src.context.runtime");
    runtime->attrs["core"] = Value(core);
    auto context = std::make_shared<WarpInternalsModule>("warp._src.context");
    context->attrs["runtime"] = Value(runtime);
    auto src = std::make_shared<WarpInternalsModule>("warp._src");
    src->attrs["context"] = Value(context);
    // `warp._src.types` is `wp.types` where tilec has the name (wp_composite.cpp).
    auto types = std::make_shared<WarpInternalsModule>("warp._src.types", "types");
    src->attrs["types"] = Value(types);
    m->attrs["_src"] = Value(src);
  }
  // The GPU architectures tilec's PTX back end compiles for, as Warp lists NVRTC's.
  m->Def("get_cuda_supported_archs", [](Interpreter&, CallArgs& a) {
    ArgBinder b("get_cuda_supported_archs", a, {}, 0);
    std::vector<Value> archs;
    for (const std::string& s : codegen::SupportedPtxArchs()) archs.push_back(Value::Int(std::stoll(s.substr(3))));
    return MakeList(archs);
  });
  // wp.get_module(name): Warp's compilation unit. tilec compiles each kernel on its own, so
  // a module is its name and an options dict that kernels do not read.
  m->Def("get_module", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("get_module", a, {"name"}, 1);
    const std::string name = ToStr(b.Get(0), "get_module()");
    auto& modules = in.wp().modules;
    if (auto it = modules.find(name); it != modules.end()) return it->second;
    auto mod = std::make_shared<ModuleObj>(name);
    mod->attrs["name"] = MakeStr(name);
    // Warp's defaults for the options programs read back; kernels do not read them.
    auto options = std::make_shared<DictObj>();
    options->Put(MakeStr("enable_backward"), Value::Bool(WarpConfigFlag(in, "enable_backward")));
    options->Put(MakeStr("max_unroll"), Value::Int(WarpConfigInt(in, "max_unroll", 16)));
    options->Put(MakeStr("block_dim"), Value::Int(256));
    options->Put(MakeStr("fast_math"), Value::Bool(false));
    options->Put(MakeStr("lineinfo"), Value::Bool(false));
    mod->attrs["options"] = Value(options);
    return modules[name] = Value(mod);
  });
  // CUDA C++ snippets: tilec compiles the Tile language only. The decorated stub stays
  // defined; a kernel that calls it fails to compile at its launch.
  m->Def("func_native", [](Interpreter&, CallArgs& a) {
    ArgBinder b("func_native", a, {"snippet", "adj_snippet", "replay_snippet"}, 1);
    return Value(std::make_shared<BuiltinFn>("func_native", [](Interpreter&, CallArgs& c) -> Value {
      if (c.pos.size() != 1) TypeError("func_native(): expected the function to decorate");
      return Value(std::make_shared<BuiltinFn>("func_native", [](Interpreter&, CallArgs&) -> Value {
        RuntimeError("wp.func_native: tilec does not compile CUDA C++ snippets");
      }));
    }));
  });
}

}  // namespace tilec::host
