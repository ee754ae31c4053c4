// Compiles a kernel's module text with the compiler library (libtilec) and loads it into the
// runtime; the text stages for the REPL's `:emit`; struct layouts from the checker.
#include <iostream>
#include <sstream>

#include "codegen/nvptx/nvptx.h"
#include "compiler/compiler.h"
#include "frontend/parse/parse.h"
#include "host/interp/kernel_compile.h"
#include "ir/printer.h"

namespace tilec::host {

namespace {

compiler::CompileOptions OptionsFor(const KernelCompileRequest& req) {
  compiler::CompileOptions opts;
  for (const auto& c : req.constants) {
    if (c.value.IsBool()) opts.constants[c.name] = sema::ConstValue::MakeBool(c.value.b());
    else if (c.value.IsInt()) opts.constants[c.name] = sema::ConstValue::MakeInt(c.value.i());
    else if (c.value.IsFloat()) opts.constants[c.name] = sema::ConstValue::MakeFloat(c.value.f());
  }
  return opts;
}

std::string Render(const diag::DiagnosticEngine& diags, const compiler::InternalError& ice) {
  std::ostringstream os;
  diags.Render(os);
  if (ice.is_set()) os << "internal compiler error: " << ice.message << "\n";
  return os.str();
}

// Warnings of a successful compile go to stderr, as a Python warning would.
void ReportWarnings(const diag::DiagnosticEngine& diags) {
  if (diags.warning_count() == 0) return;
  std::cout.flush();
  diags.Render(std::cerr);
}

}  // namespace

namespace {

// Compiles the request's module text with `compile` (host JIT or PTX) and loads the kernel.
template <class CompileFn>
KernelCompileResult CompileWith(const KernelCompileRequest& req, CompileFn compile) {
  KernelCompileResult r;
  ModuleText mt = BuildModuleText(req);
  r.source = mt.text;
  auto file = std::make_shared<SourceFile>(mt.path, mt.text, 0, mt.col_base);
  diag::DiagnosticEngine diags;
  compiler::InternalError ice;
  std::optional<compiler::CompiledModule> cm;
  try {
    cm = compile(*file, diags, OptionsFor(req), ice);
  } catch (const std::exception& e) {
    ice.message = e.what();
  }
  if (!cm || diags.has_errors() || ice.is_set()) {
    r.diagnostics = Render(diags, ice);
    return r;
  }
  ReportWarnings(diags);
  rt::Module mod = cm->ToRuntimeModule();
  if (!mod.HasKernel(req.kernel_name)) {
    r.diagnostics = "internal compiler error: kernel `" + req.kernel_name + "` missing from its module\n";
    return r;
  }
  r.kernel = mod.GetKernel(req.kernel_name);
  r.ok = true;
  return r;
}

}  // namespace

KernelCompileResult CompileKernel(const KernelCompileRequest& req) {
  return CompileWith(req, [](const SourceFile& file, diag::DiagnosticEngine& diags,
                             const compiler::CompileOptions& opts, compiler::InternalError& ice) {
    return compiler::CompileSource(file, diags, opts, ice);
  });
}

KernelCompileResult CompileKernelPtx(const KernelCompileRequest& req, const std::string& arch,
                                     int block_dim) {
  return CompileWith(req, [&](const SourceFile& file, diag::DiagnosticEngine& diags,
                              const compiler::CompileOptions& opts, compiler::InternalError& ice) {
    return compiler::CompileSourcePtx(file, diags, opts, arch, block_dim, ice);
  });
}

std::optional<std::string> EmitKernelStage(const KernelCompileRequest& req, const std::string& stage,
                                           std::string* diagnostics) {
  ModuleText mt = BuildModuleText(req);
  SourceFile file(mt.path, mt.text, 0, mt.col_base);
  diag::DiagnosticEngine diags;
  compiler::InternalError ice;
  compiler::CompileOptions opts = OptionsFor(req);
  auto fail = [&](const std::string& extra) -> std::optional<std::string> {
    if (diagnostics) *diagnostics = Render(diags, ice) + extra;
    return std::nullopt;
  };
  try {
    std::unique_ptr<ast::Module> parsed = parse::ParseFile(file, diags);
    if (diags.has_errors()) return fail("");
    sema::CheckOptions copts;
    copts.external_constants = opts.constants;
    std::unique_ptr<sema::CheckedModule> checked = sema::Check(*parsed, diags, copts);
    if (diags.has_errors()) return fail("");
    std::unique_ptr<ir::Module> m = compiler::LowerChecked(*checked, &file, diags, ice);
    if (!m) return fail("");
    if (stage == "tile-ir") return ir::ModuleToString(*m);
    if (stage == "grad-ir") {
      // The adjoint kernels only, as `tilec compile --emit=grad-ir` prints them.
      if (!compiler::AddAdjoints(*m, diags, ice)) return fail("");
      std::ostringstream os;
      for (const auto& f : m->functions())
        if (f->adjoint_of == req.kernel_name) ir::PrintFunction(os, *m, *f);
      return os.str();
    }
    if (stage == "llvm") {
      std::string text;
      if (!compiler::EmitLlvm(*m, text, ice, opts)) return fail("");
      return text;
    }
    if (stage == "ptx") {
      codegen::PtxOptions popts;
      codegen::PtxModule ptx;
      std::string error;
      if (!codegen::EmitPtx(*m, popts, ptx, error)) return fail("error: " + error + "\n");
      return ptx.ptx;
    }
  } catch (const std::exception& e) {
    ice.message = e.what();
    return fail("");
  }
  return fail("error: unknown stage `" + stage + "` (expected tile-ir, grad-ir, llvm or ptx)\n");
}

std::optional<rt::StructLayout> StructLayoutOf(const std::vector<WpState::Definition>& defs, const std::string& name) {
  std::string text;
  for (const auto& d : defs)
    if (d.kind == "struct") text += d.text + "\n";
  SourceFile file("<structs>", text);
  diag::DiagnosticEngine diags;
  try {
    std::unique_ptr<ast::Module> parsed = parse::ParseFile(file, diags);
    if (diags.has_errors()) return std::nullopt;
    std::unique_ptr<sema::CheckedModule> checked = sema::Check(*parsed, diags, {});
    if (diags.has_errors()) return std::nullopt;
    for (const auto& s : checked->Signature().structs)
      if (s.name == name) return s;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace tilec::host
