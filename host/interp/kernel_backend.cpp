// Compiles a kernel's module text through the compiler pipeline (compiler::Run) and loads it
// into the runtime; the text stages for the REPL's `:emit`; struct layouts from the checker.
#include <functional>
#include <iostream>
#include <sstream>

#include "compiler/compiler.h"
#include "compiler/pipeline.h"
#include "host/interp/kernel_compile.h"
#include "frontend/sema/sema.h"
#include "ir/printer.h"

namespace tilec::host {

namespace {

compiler::CompileOptions OptionsFor(const KernelCompileRequest& req) {
  compiler::CompileOptions opts;
  opts.block_dim = req.block_dim;
  opts.hybrid_launch = req.hybrid_launch;
  opts.max_unroll = req.max_unroll;
  opts.checked_access = req.checked_access;
  opts.deterministic = req.deterministic;
  for (const auto& c : req.constants) {
    opts.shadowable_constants.insert(c.name);
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

// The request's module text through `compile` (a pipeline run, or the cached PTX facade) to a
// loaded kernel, or to rendered diagnostics.
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
    compiler::PipelineOptions po;
    po.compile = opts;
    compiler::PipelineResult pr = compiler::Run(file, po, compiler::Stage::Jit);
    diags = std::move(pr.diags);
    ice = pr.ice;
    return pr.ok() ? std::move(pr.compiled) : std::nullopt;
  });
}

// Through the facade, which keeps PTX variants in the on-disk kernel cache around Run.
KernelCompileResult CompileKernelPtx(const KernelCompileRequest& req, const std::string& arch,
                                     int block_dim) {
  return CompileWith(req, [&](const SourceFile& file, diag::DiagnosticEngine& diags,
                              const compiler::CompileOptions& opts, compiler::InternalError& ice) {
    return compiler::CompileSourcePtx(file, diags, opts, arch, block_dim, ice);
  });
}

std::optional<std::string> EmitKernelStage(const KernelCompileRequest& req, const std::string& stage,
                                           std::string* diagnostics) {
  std::optional<compiler::Stage> stop = compiler::StageFromName(stage);
  bool known = stop && (*stop == compiler::Stage::TileIr || *stop == compiler::Stage::GradIr ||
                        *stop == compiler::Stage::Llvm || *stop == compiler::Stage::Ptx);
  ModuleText mt = BuildModuleText(req);
  SourceFile file(mt.path, mt.text, 0, mt.col_base);
  compiler::PipelineOptions po;
  po.compile = OptionsFor(req);
  // `:emit` shows the forward kernels as compiled for the CPU (and PTX with the defaults); an
  // unknown stage still reports the kernel's own errors first.
  po.adjoints = compiler::AdjointMode::None;
  compiler::PipelineResult r;
  try {
    r = compiler::Run(file, po, known ? *stop : compiler::Stage::TileIr);
  } catch (const std::exception& e) {
    r.ice.message = e.what();
  }
  auto fail = [&](const std::string& extra) -> std::optional<std::string> {
    if (diagnostics) *diagnostics = Render(r.diags, r.ice) + extra;
    return std::nullopt;
  };
  if (!r.ok()) return fail("");
  if (!known) return fail("error: unknown stage `" + stage + "` (expected tile-ir, grad-ir, llvm or ptx)\n");
  if (*stop == compiler::Stage::GradIr) {
    // The adjoint kernels of this kernel only.
    std::ostringstream os;
    for (const auto& f : r.ir->functions())
      if (f->adjoint_of == req.kernel_name) ir::PrintFunction(os, *r.ir, *f);
    return os.str();
  }
  return r.text;
}

namespace {

// The struct table of the struct definitions `defs`; nullopt when the checker rejects any, with
// its diagnostics (at the definitions' places in their files) in `*diagnostics`.
std::optional<std::vector<rt::StructLayout>> StructTable(const std::vector<WpState::Definition>& defs,
                                                         std::string* diagnostics = nullptr) {
  KernelCompileRequest req;
  req.definitions = defs;
  const ModuleText mt = BuildModuleText(req);
  SourceFile file(mt.path.empty() ? "<structs>" : mt.path, mt.text, 0, mt.col_base);
  compiler::PipelineResult r;
  try {
    const compiler::PipelineOptions defaults;
    r = compiler::Run(file, defaults, compiler::Stage::TypedAst);
    if (r.ok() && r.checked) return r.checked->Signature().structs;
  } catch (const std::exception& e) {
    r.ice.message = e.what();
  }
  if (diagnostics) *diagnostics = Render(r.diags, r.ice);
  return std::nullopt;
}

}  // namespace

std::optional<rt::StructLayout> StructLayoutOf(const std::vector<WpState::Definition>& defs, const std::string& name,
                                               std::string* why) {
  // The structs so far, checked together once; only when the checker rejects one of them (a
  // field type kernels do not take) are they added one at a time, leaving out those it rejects,
  // so that one such struct leaves the others their layouts.
  std::vector<WpState::Definition> structs;
  for (const auto& d : defs)
    if (d.kind == "struct") structs.push_back(d);
  std::optional<std::vector<rt::StructLayout>> accepted = StructTable(structs);
  if (!accepted) {
    std::vector<WpState::Definition> kept;
    for (const auto& d : structs) {
      kept.push_back(d);
      std::string diagnostics;
      if (auto t = StructTable(kept, &diagnostics)) {
        accepted = std::move(t);
      } else {
        kept.pop_back();
        if (why && d.name == name) *why = diagnostics;
      }
    }
  }
  if (!accepted) return std::nullopt;
  const std::vector<rt::StructLayout> table = *accepted;
  // Struct-typed fields get their layouts, recursively, so that the struct's arrays have a
  // NumPy form without the module's struct table.
  std::function<rt::StructLayout(const rt::StructLayout&)> resolve = [&](const rt::StructLayout& s) {
    rt::StructLayout out = s;
    for (rt::StructField& f : out.fields)
      if (f.type.is_struct() && size_t(f.type.struct_index) < table.size())
        f.layout = std::make_shared<const rt::StructLayout>(resolve(table[f.type.struct_index]));
    return out;
  };
  for (const auto& s : table)
    if (s.name == name) return resolve(s);
  return std::nullopt;
}

namespace {

ProbedType Probe(const sema::CheckedModule& m, const sema::Type* t) {
  ProbedType p;
  if (!t) return p;
  p.name = sema::TypeName(t);
  if (t->kind == sema::TypeKind::Scalar) {
    p.kind = ProbedType::Kind::Scalar;
    p.scalar = t->scalar;
  } else if (t->kind == sema::TypeKind::Struct) {
    Composite c;
    if (t->struct_index >= 0 && size_t(t->struct_index) < m.structs.size()) c = m.structs[t->struct_index].composite;
    if (!c.valid())
      if (auto n = CompositeFromName(t->struct_name)) c = *n;
    if (c.valid()) {
      p.kind = ProbedType::Kind::Composite;
      p.composite = c;
    }
  } else if (t->kind == sema::TypeKind::Tuple) {
    p.kind = ProbedType::Kind::Tuple;
    for (const sema::Type* e : t->elems) p.elems.push_back(Probe(m, e));
  }
  return p;
}

}  // namespace

std::optional<ProbedType> ProbeLocalType(const std::string& text, const std::string& kernel,
                                         const std::string& local, std::string* diagnostics) {
  SourceFile file("<host call>", text);
  compiler::PipelineResult r;
  try {
    const compiler::PipelineOptions defaults;
    r = compiler::Run(file, defaults, compiler::Stage::TypedAst);
  } catch (const std::exception& e) {
    r.ice.message = e.what();
  }
  if (!r.ok() || !r.checked) {
    if (diagnostics) *diagnostics = Render(r.diags, r.ice);
    return std::nullopt;
  }
  const sema::FunctionInfo* k = r.checked->FindKernel(kernel);
  if (k)
    for (const auto& l : k->locals)
      if (l->name == local) return Probe(*r.checked, l->type);
  if (diagnostics) *diagnostics = "internal error: local `" + local + "` not found in the probe kernel\n";
  return std::nullopt;
}

}  // namespace tilec::host
