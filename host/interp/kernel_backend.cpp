// Compiles a kernel's module text with the compiler library and loads it into the runtime.
#include "host/interp/kernel_compile.h"

namespace tilec::host {

KernelCompileResult CompileKernel(const KernelCompileRequest& req) {
  KernelCompileResult r;
  r.source = BuildModuleText(req).text;
  r.diagnostics = "error: kernel compilation is not available in this build\n";
  return r;
}

std::optional<std::string> EmitKernelStage(const KernelCompileRequest&, const std::string&, std::string* diagnostics) {
  if (diagnostics) *diagnostics = "error: kernel compilation is not available in this build\n";
  return std::nullopt;
}

std::optional<rt::StructLayout> StructLayoutOf(const std::vector<WpState::Definition>&, const std::string&) {
  return std::nullopt;
}

}  // namespace tilec::host
