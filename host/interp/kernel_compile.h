// The interpreter's door to the compiler: a kernel's definitions plus a constants snapshot
// in, a runtime kernel (or rendered diagnostics) out; also the text stages for `:emit`.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "host/interp/value.h"
#include "support/composite.h"
#include "host/interp/wp_values.h"
#include "tilec/runtime.h"

namespace tilec::host {

struct KernelConstant {
  std::string name;
  Value value;  // int, float or bool, a Warp scalar type, or a vector-like type or value
};

struct KernelCompileRequest {
  std::string kernel_name;
  bool enable_backward = true;
  std::vector<KernelConstant> constants;
  std::vector<WpState::Definition> definitions;  // funcs, structs and the kernel, in order
  // Lanes per block of the variant (CompileOptions::block_dim): launch_tiled's default until a
  // launch asks for another.
  int block_dim = 256;
  bool hybrid_launch = false;  // the variant for wp.launch(..., block_dim=B) of a tiled kernel
  int max_unroll = 16;         // wp.config.max_unroll when the kernel was defined
  bool checked_access = false; // wp.config.mode == "debug" when the kernel was defined
  bool deterministic = false;  // wp.config.deterministic when the kernel was defined
};

struct KernelCompileResult {
  bool ok = false;
  std::string diagnostics;  // rendered, page lines
  rt::Kernel kernel;
  std::string source;  // the module text that was compiled
};

// The message of the exception a failed compile raises: `what`, then the first error's code and
// text, so that `str(e)` (and assertRaisesRegex) sees why as the printed diagnostics say it.
std::string CompileErrorMessage(const std::string& what, const std::string& diagnostics);

// The module text for a request, and the path / column base its diagnostics should carry.
struct ModuleText {
  std::string text;
  std::string path;
  int col_base = 0;
};
ModuleText BuildModuleText(const KernelCompileRequest& req);
// The line that defines `c` in a kernel's module ("" for a value a kernel cannot hold).
std::string ConstantLine(const KernelConstant& c);

KernelCompileResult CompileKernel(const KernelCompileRequest& req);
// The CUDA variant: PTX for `arch` with `block_dim` lanes per tiled block (0 for plain launches).
KernelCompileResult CompileKernelPtx(const KernelCompileRequest& req, const std::string& arch,
                                     int block_dim);
// Text of one compiler stage ("tile-ir", "grad-ir", "llvm", "ptx") for the kernel.
std::optional<std::string> EmitKernelStage(const KernelCompileRequest& req, const std::string& stage,
                                           std::string* diagnostics);
// The layout of a `@wp.struct` from its definition; nullopt when it cannot be computed, with the
// checker's diagnostics for it in `*why`.
std::optional<rt::StructLayout> StructLayoutOf(const std::vector<WpState::Definition>& defs,
                                               const std::string& name, std::string* why = nullptr);

// The checked type of a kernel local, as the host can represent it.
struct ProbedType {
  enum class Kind : uint8_t { Scalar, Composite, Tuple, Other };
  Kind kind = Kind::Other;
  ScalarType scalar = ScalarType::Float32;
  Composite composite;
  std::vector<ProbedType> elems;  // Tuple
  std::string name;               // the checker's name of the type
};
// Type-checks `text` (a module with one kernel) and gives the type of local `local` of kernel
// `kernel`; nullopt with the rendered diagnostics when the module does not check.
std::optional<ProbedType> ProbeLocalType(const std::string& text, const std::string& kernel,
                                         const std::string& local, std::string* diagnostics);

}  // namespace tilec::host
