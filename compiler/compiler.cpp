// The compiler facade: the building blocks the pipeline (compiler/pipeline.cpp) runs, the
// runtime signature from the checker's parameter information and the IR kernels, and the
// source-to-module entry points (thin wrappers over compiler::Run, plus the PTX cache).
#include "compiler/compiler.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "codegen/codegen.h"
#include "codegen/nvptx/nvptx.h"
#include "codegen/simt/simt.h"
#include "compiler/pipeline.h"
#include "frontend/lower_to_ir/lower_to_ir.h"
#include "ir/autodiff/autodiff.h"
#include "ir/verifier.h"
#include "tilec/abi.h"
#include "tilec/cache.h"
#include "tilec/error.h"

namespace tilec::compiler {

rt::Module CompiledModule::ToRuntimeModule() const {
  return rt::Module::FromResolver(signature, resolve, keep_alive);
}

std::unique_ptr<ir::Module> LowerChecked(const sema::CheckedModule& checked, const SourceFile* file,
                                         diag::DiagnosticEngine& diags, InternalError& ice) {
  std::unique_ptr<ir::Module> m = lower::LowerToIr(checked, file, diags);
  if (!m || diags.has_errors()) return nullptr;
  if (std::vector<std::string> errors = ir::Verify(*m); !errors.empty()) {
    ice.message = "invalid Tile IR:";
    for (const std::string& e : errors) ice.message += "\n  " + e;
    return nullptr;
  }
  if (!RunIrPasses(*m, ir::DefaultPassList(), {}, ice)) return nullptr;
  return m;
}

namespace {
// The module after adjoints were added must still verify; if not, that is a compiler bug.
bool VerifyAdjoints(const ir::Module& m, InternalError& ice) {
  std::vector<std::string> errors = ir::Verify(m);
  if (!errors.empty()) {
    ice.message = "invalid adjoint Tile IR:";
    for (const std::string& e : errors) ice.message += "\n  " + e;
    return false;
  }
  return true;
}
}  // namespace

bool AddAdjoints(ir::Module& m, diag::DiagnosticEngine& diags, InternalError& ice) {
  if (!autodiff::BuildAdjoints(m, diags)) return false;
  return VerifyAdjoints(m, ice);
}

bool AddAdjointsDeferred(ir::Module& m, AdjointRejections& rejected, InternalError& ice) {
  std::vector<const ir::Function*> kernels;
  for (const auto& f : m.functions())
    if (f->enable_backward && f->adjoint_of.empty()) kernels.push_back(f.get());
  for (const ir::Function* f : kernels) {
    diag::DiagnosticEngine diags;
    if (!autodiff::BuildAdjoint(m, *f, diags) && diags.has_errors()) {
      std::ostringstream os;
      diags.Render(os);
      rejected[f->name()] = os.str();
    }
  }
  return VerifyAdjoints(m, ice);
}

rt::ModuleSignature SignatureOf(const sema::CheckedModule& checked, const ir::Module& ir,
                                const AdjointRejections* rejected) {
  rt::ModuleSignature sig = checked.Signature();
  for (rt::KernelSignature& k : sig.kernels) {
    if (rejected)
      if (auto it = rejected->find(k.name); it != rejected->end()) k.adjoint_error = it->second;
    k.entry_symbol = codegen::EntrySymbol(k.name);
    const ir::Function* f = ir.FindFunction(k.name);
    if (f) k.tiled = f->tiled;
    // The adjoint entry, where AddAdjoints made one (sema only knows enable_backward).
    k.has_adjoint = false;
    if (ir.FindFunction(autodiff::AdjointName(k.name))) {
      k.has_adjoint = true;
      k.adjoint_symbol = codegen::EntrySymbol(autodiff::AdjointName(k.name));
    }
  }
  return sig;
}

// The variant a host module is: its block_dim (0: any, unless a kernel runs per-lane code,
// which is compiled for the lanes the pipeline gave it) and launch kind.
void SetHostVariant(rt::ModuleSignature& sig, const ir::Module& ir, const CompileOptions& opts) {
  for (rt::KernelSignature& k : sig.kernels) {
    k.block_dim = k.tiled ? opts.block_dim : 0;
    k.hybrid = k.tiled && opts.hybrid_launch;
    k.checked_access = opts.checked_access;
    if (const ir::Function* f = ir.FindFunction(k.name)) k.deterministic = f->deterministic;
    if (!k.tiled || k.block_dim != 0) continue;
    for (const auto& f : ir.functions())
      if (f->name() == k.name && codegen::RunsPerLaneLoops(*f)) k.block_dim = f->block_dim;
  }
}

std::optional<CompiledModule> JitModule(const sema::CheckedModule& checked, const ir::Module& ir,
                                        const CompileOptions& opts, InternalError& ice,
                                        const AdjointRejections* rejected) {
  codegen::HostOptions host;
  host.optimize = opts.optimize;
  std::string error;
  std::shared_ptr<codegen::JitModule> jit;
  // TILEC_SIMT_EMULATION=B runs every JIT-compiled module under emulation with B lanes, so
  // that existing execution tests and doc pages exercise the GPU lowering unchanged.
  bool emulate = opts.simt_emulation;
  int block_dim = opts.block_dim > 0 ? opts.block_dim : 256;
  if (const char* env = std::getenv("TILEC_SIMT_EMULATION"); env && std::atoi(env) >= 1 && std::atoi(env) <= 1024) {
    emulate = true;
    block_dim = std::atoi(env);
  } else if (env && std::string(env) == "block_dim") {
    emulate = true;  // with the lanes each launch asks for, so pages give their own answers
  }
  if (emulate) {
    codegen::SimtOptions simt;
    simt.block_dim = block_dim;
    simt.optimize = opts.optimize;
    jit = codegen::JitCompileSimtEmulation(ir, simt, error);
  } else {
    jit = codegen::JitCompile(ir, error, host);
  }
  if (!jit) {
    ice.message = "host code generation failed: " + error;
    return std::nullopt;
  }
  CompiledModule out;
  out.signature = SignatureOf(checked, ir, rejected);
  SetHostVariant(out.signature, ir, opts);
  out.resolve = [jit](const std::string& symbol) { return jit->Lookup(symbol); };
  out.keep_alive = jit;
  return out;
}

namespace {
// What the facade's engine-taking entry points share: the pipeline's diagnostics and internal
// error handed to the caller's, and the compiled module only when nothing failed.
std::optional<CompiledModule> Finish(PipelineResult& r, diag::DiagnosticEngine& diags, InternalError& ice) {
  AppendDiagnostics(r.diags, diags);
  if (r.ice.is_set()) ice = r.ice;
  if (!r.ok()) return std::nullopt;
  return std::move(r.compiled);
}
}  // namespace

std::optional<CompiledModule> CompileSource(const SourceFile& file, diag::DiagnosticEngine& diags,
                                            const CompileOptions& opts, InternalError& ice) {
  PipelineOptions po;
  po.compile = opts;
  PipelineResult r = Run(file, po, Stage::Jit);
  return Finish(r, diags, ice);
}

namespace {

// What identifies this compiler build: the version and the running executable's size and
// modification time, so that a rebuilt compiler never reads its predecessor's entries.
std::string CompilerIdentity() {
  static const std::string id = [] {
    std::string s = "tilec " TILEC_COMPILER_VERSION " abi " + std::to_string(TILEC_ABI_VERSION);
    std::error_code ec;
    std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
      auto size = std::filesystem::file_size(exe, ec);
      auto time = std::filesystem::last_write_time(exe, ec);
      if (!ec) s += " " + std::to_string(size) + " " + std::to_string(time.time_since_epoch().count());
    }
    return s;
  }();
  return id;
}

// The cache key of a PTX variant: everything its output depends on, diagnostics' file name
// and line base included (a rejected adjoint's message travels in the signature).
std::string PtxCacheKey(const SourceFile& file, const CompileOptions& opts, const std::string& arch,
                        int block_dim) {
  std::ostringstream k;
  k << CompilerIdentity() << "\n" << arch << " " << block_dim << " " << opts.optimize << " " << opts.hybrid_launch << " " << opts.max_unroll << " " << opts.checked_access << " " << opts.deterministic << "\n"
    << file.path() << " " << file.line_base() << " " << file.col_base() << "\n";
  for (const auto& [name, v] : opts.constants) {
    k << name << " " << int(v.kind) << " ";
    if (v.kind == sema::ConstValue::Kind::Float) k << std::hexfloat << v.f << std::defaultfloat;
    else k << v.AsInt();
    k << "\n";
  }
  k << file.text();
  return rt::HashHex(k.str());
}

bool CacheEnabled() {
  const char* env = std::getenv("TILEC_CACHE");
  return !(env && std::string(env) == "0");
}

}  // namespace

std::optional<CompiledModule> CompileSourcePtx(const SourceFile& file, diag::DiagnosticEngine& diags,
                                               const CompileOptions& opts, const std::string& arch,
                                               int block_dim, InternalError& ice) {
  // The on-disk cache (rt::KernelCacheDir): a hit skips the whole pipeline. Entries are
  // serialized signatures, written atomically; an unreadable entry counts as a miss.
  std::filesystem::path entry;
  if (CacheEnabled()) {
    try {
      entry = rt::KernelCacheDir() / (PtxCacheKey(file, opts, arch, block_dim) + ".ptxsig");
      if (std::optional<std::string> text = rt::ReadFileIfExists(entry)) {
        CompiledModule hit;
        hit.signature = rt::ParseSignature(*text);
        hit.resolve = [](const std::string&) -> void* { return nullptr; };
        return hit;
      }
    } catch (const rt::Error&) {
      // No usable cache directory or a damaged entry: compile as if there were no cache.
    }
  }
  PipelineOptions po;
  po.compile = opts;
  po.arch = arch;
  po.compile.block_dim = block_dim;
  PipelineResult r = Run(file, po, Stage::Ptx);
  std::optional<CompiledModule> out = Finish(r, diags, ice);
  if (!out) return std::nullopt;
  if (!entry.empty()) {
    try {
      rt::AtomicWriteFile(entry, rt::SerializeSignature(out->signature));
    } catch (const rt::Error&) {
      // A read-only or full cache only costs the next process a compile.
    }
  }
  return out;
}

std::string PtxArchFor(int cc) {
  std::string best;
  for (const std::string& arch : codegen::SupportedPtxArchs())
    if (std::stoi(arch.substr(3)) <= cc) best = arch;  // the list is in ascending order
  return best;
}

bool EmitLlvm(const ir::Module& ir, std::string& text, InternalError& ice, const CompileOptions& opts) {
  codegen::HostOptions host;
  host.optimize = opts.optimize;
  std::string error;
  if (!codegen::EmitLlvmIr(ir, text, error, host)) {
    ice.message = "host code generation failed: " + error;
    return false;
  }
  return true;
}

bool WriteSharedObject(const sema::CheckedModule& checked, const ir::Module& ir, const std::string& path,
                       std::string& error, const CompileOptions& opts,
                       const AdjointRejections* rejected, const rt::ModuleSignature* gpu) {
  codegen::HostOptions host;
  host.optimize = opts.optimize;
  rt::ModuleSignature sig = SignatureOf(checked, ir, rejected);
  SetHostVariant(sig, ir, opts);
  if (gpu) MergeGpuVariants(sig, *gpu);
  return codegen::EmitHostSharedObject(ir, rt::SerializeSignature(sig), path, error, host);
}

}  // namespace tilec::compiler
