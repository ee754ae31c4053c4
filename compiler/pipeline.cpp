// compiler::Run: the stage ladder from source (or Tile IR text) to the requested end. Each
// stage reads what the previous one left in the result and stops the ladder on errors.
#include "compiler/pipeline.h"

#include <sstream>

#include "codegen/codegen.h"
#include "codegen/simt/shared_budget.h"
#include "frontend/ast/ast_printer.h"
#include "frontend/lower_to_ir/lower_to_ir.h"
#include "frontend/parse/parse.h"
#include "ir/autodiff/autodiff.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "tilec/cache.h"

// The Tile IR parser is written alongside this file; until it lands, `--input=tile-ir` reports
// that it is missing instead of breaking the build.
#if __has_include("ir/parser.h")
#include "ir/parser.h"
#define TILEC_HAVE_IR_PARSER 1
#else
#define TILEC_HAVE_IR_PARSER 0
#endif

namespace tilec::compiler {

namespace {

struct StageEntry {
  Stage stage;
  const char* name;
};
constexpr StageEntry kStages[] = {
    {Stage::Tokens, "tokens"},     {Stage::Ast, "ast"},           {Stage::TypedAst, "typed-ast"},
    {Stage::TileIr, "tile-ir"},    {Stage::GradIr, "grad-ir"},    {Stage::Llvm, "llvm"},
    {Stage::Ptx, "ptx"},           {Stage::Jit, "jit"},           {Stage::SharedObject, "shared-object"},
    {Stage::Header, "header"},
};

bool Before(Stage a, Stage b) { return static_cast<int>(a) < static_cast<int>(b); }

// Removes every `assert` op of `b` and of the regions within.
void DropAsserts(ir::Block& b) {
  for (auto& op : b.ops())
    for (auto& r : op->regions()) DropAsserts(*r);
  std::erase_if(b.ops(), [](const std::unique_ptr<ir::Op>& op) { return op->code() == ir::OpCode::Assert; });
}

std::string Joined(const std::string& head, const std::vector<std::string>& lines) {
  std::string s = head;
  for (const std::string& l : lines) s += "\n  " + l;
  return s;
}

codegen::PtxOptions PtxOptionsOf(const PipelineOptions& o) {
  codegen::PtxOptions p;
  p.arch = o.arch;
  p.block_dim = o.compile.block_dim > 0 ? o.compile.block_dim : 256;
  p.optimize = o.compile.optimize;
  return p;
}

bool ParseIrInput(const SourceFile& source, PipelineResult& r) {
#if TILEC_HAVE_IR_PARSER
  r.ir = ir::ParseModule(source.text(), &source, r.diags);
  if (!r.ir || r.diags.has_errors()) {
    r.ir.reset();
    return false;
  }
  // The passes may assume valid IR; input that is not is the user's error, not the compiler's.
  if (std::vector<std::string> errors = ir::Verify(*r.ir); !errors.empty()) {
    r.input_error = Joined("the input Tile IR does not verify:", errors);
    r.ir.reset();
    return false;
  }
  return true;
#else
  (void)source;
  r.ice.message = "Tile IR input is not available in this build (no ir/parser.h)";
  return false;
#endif
}

// Source through the checker and lowering; false when a stage reported errors.
bool RunFrontEnd(const SourceFile& source, const PipelineOptions& o, Stage stop, PipelineResult& r) {
  if (stop == Stage::Tokens) {
    r.text = parse::DumpTokens(source, r.diags);
    return false;
  }
  r.ast = parse::ParseFile(source, r.diags);
  if (r.diags.has_errors()) return false;
  if (stop == Stage::Ast) {
    r.text = ast::PrintAst(*r.ast);
    return false;
  }
  sema::CheckOptions copts;
  copts.external_constants = o.compile.constants;
  copts.shadowable_constants = o.compile.shadowable_constants;
  copts.enable_test_builtins = o.enable_test_builtins;
  copts.block_dim = o.compile.block_dim > 0 ? o.compile.block_dim : 256;
  copts.hybrid_launch = o.compile.hybrid_launch;
  copts.max_unroll = o.compile.max_unroll;
  r.checked = sema::Check(*r.ast, r.diags, copts);
  if (r.diags.has_errors()) return false;
  if (stop == Stage::TypedAst) {
    r.text = sema::PrintTypedAst(*r.checked);
    return false;
  }
  r.ir = lower::LowerToIr(*r.checked, &source, r.diags);
  if (r.ir) {
    r.ir->checked_access = o.compile.checked_access;
    // `assert` runs in debug mode only (Warp compiles it out elsewhere): its condition goes
    // with it, as dead code.
    if (!o.compile.checked_access)
      for (auto& f : r.ir->functions()) DropAsserts(*f->body());
    if (o.compile.deterministic)
      for (auto& f : r.ir->functions())
        ir::Walk(f->body(), [&](ir::Op* op) {
          f->deterministic |= op->code() == ir::OpCode::TileAtomicAdd || op->code() == ir::OpCode::TileAtomicAddIndexed;
        });
  }
  if (!r.ir || r.diags.has_errors()) {
    r.ir.reset();
    return false;
  }
  for (auto& f : r.ir->functions()) {
    f->block_dim = f->tiled ? copts.block_dim : 1;
    f->hybrid_launch = f->tiled && o.compile.hybrid_launch;
  }
  // Lowering must produce valid IR; the pass list verifies everything after it.
  if (std::vector<std::string> errors = ir::Verify(*r.ir); !errors.empty()) {
    r.ice.message = Joined("invalid Tile IR:", errors);
    return false;
  }
  return true;
}

bool AddAdjointsFor(const PipelineOptions& o, PipelineResult& r) {
  switch (o.adjoints) {
    case AdjointMode::Deferred: return AddAdjointsDeferred(*r.ir, r.rejected, r.ice);
    case AdjointMode::Strict: return AddAdjoints(*r.ir, r.diags, r.ice);
    case AdjointMode::None: return true;
  }
  return true;
}

// Signature-bearing ends need the checker's parameter and struct information.
bool NeedChecked(Stage stop, PipelineResult& r) {
  if (r.checked) return true;
  r.ice.message = std::string("the ") + StageName(stop) + " stage needs Tile source input";
  return false;
}

// A plan over the architecture's shared memory is the user's error (E0401), not the back end's.
bool SharedBudgetFits(const PipelineOptions& o, PipelineResult& r) {
  codegen::PtxOptions po = PtxOptionsOf(o);
  for (const codegen::SharedBudgetExcess& e : codegen::CheckSharedBudget(*r.ir, po.arch, po.block_dim))
    r.diags.Report(diag::Code::SharedMemoryBudget, e.kernel->loc().file, e.kernel->loc().range, e.message);
  return !r.diags.has_errors();
}

void EmitLlvmText(const PipelineOptions& o, PipelineResult& r) {
  if (o.compile.target == Target::Host) {
    EmitLlvm(*r.ir, r.text, r.ice, o.compile);
    return;
  }
  if (!SharedBudgetFits(o, r)) return;
  std::string error;
  if (!codegen::EmitNvptxLlvmIr(*r.ir, PtxOptionsOf(o), r.text, error))
    r.ice.message = "NVPTX code generation failed: " + error;
}

void EmitPtxModule(const PipelineOptions& o, PipelineResult& r) {
  if (!SharedBudgetFits(o, r)) return;
  std::string error;
  if (!codegen::EmitPtx(*r.ir, PtxOptionsOf(o), r.ptx, error)) {
    r.ice.message = "PTX generation failed: " + error;
    return;
  }
  r.text = r.ptx.ptx;
  if (!r.checked) return;  // Tile IR input: PTX text only
  CompiledModule out;
  out.signature = SignatureOf(*r.checked, *r.ir, &r.rejected);
  for (rt::KernelSignature& k : out.signature.kernels) {
    k.ptx = r.ptx.ptx;
    k.block_dim = k.tiled ? PtxOptionsOf(o).block_dim : 0;
    k.hybrid = k.tiled && o.compile.hybrid_launch;
    k.checked_access = o.compile.checked_access;
    if (const ir::Function* f = r.ir ? r.ir->FindFunction(k.name) : nullptr) k.deterministic = f->deterministic;
    for (const codegen::SimtKernelInfo& info : r.ptx.kernels) {
      if (info.name == k.name) k.shared_bytes = info.shared_bytes;
      if (info.name == autodiff::AdjointName(k.name)) k.adjoint_shared_bytes = info.shared_bytes;
    }
  }
  out.resolve = [](const std::string&) -> void* { return nullptr; };
  r.compiled = std::move(out);
}

// The shared-object end: the host shared object (with GPU variants when o.gpu asks), or for
// Target::Nvptx the GPU module file.
void WriteArtifact(const SourceFile& source, const PipelineOptions& o, PipelineResult& r) {
  std::optional<rt::ModuleSignature> gpu;
  if (!o.gpu.archs.empty() || o.compile.target == Target::Nvptx) {
    if (o.gpu.archs.empty()) {
      r.ice.message = "a GPU module needs at least one architecture";
      return;
    }
    gpu = BuildGpuModule(source, o, o.gpu, r);
    if (!gpu) return;
  }
  if (o.compile.target == Target::Nvptx) {
    try {
      rt::AtomicWriteFile(o.output_path, rt::SerializeSignature(*gpu));
    } catch (const std::exception& e) {
      r.write_error = "cannot write `" + o.output_path + "`: " + e.what();
    }
    return;
  }
  if (!WriteSharedObject(*r.checked, *r.ir, o.output_path, r.write_error, o.compile, &r.rejected,
                         gpu ? &*gpu : nullptr) &&
      r.write_error.empty())
    r.write_error = "cannot write `" + o.output_path + "`";
}

}  // namespace

const char* StageName(Stage stage) {
  for (const StageEntry& e : kStages)
    if (e.stage == stage) return e.name;
  return "?";
}

std::optional<Stage> StageFromName(std::string_view name) {
  for (const StageEntry& e : kStages)
    if (name == e.name) return e.stage;
  return std::nullopt;
}

bool RunIrPasses(ir::Module& m, const ir::PassList& passes, const ir::PassOptions& opts, InternalError& ice) {
  std::vector<std::string> errors = ir::RunPassList(m, passes, opts);
  if (errors.empty()) return true;
  ice.message = Joined("invalid Tile IR:", errors);
  return false;
}

PipelineResult Run(const SourceFile& source, const PipelineOptions& o, Stage stop) {
  PipelineResult r;
  if (o.input == Input::TileIr) {
    if (Before(stop, Stage::TileIr)) {
      r.ice.message = std::string("the ") + StageName(stop) + " stage needs Tile source input";
      return r;
    }
    if (!ParseIrInput(source, r)) return r;
  } else if (!RunFrontEnd(source, o, stop, r)) {
    return r;
  }
  if (!RunIrPasses(*r.ir, o.passes, o.pass_options, r.ice)) return r;
  if (stop == Stage::TileIr) {
    r.text = ir::ModuleToString(*r.ir);
    return r;
  }
  if (stop == Stage::GradIr) {
    if (AddAdjoints(*r.ir, r.diags, r.ice)) r.text = AdjointsToString(*r.ir);
    return r;
  }
  if (!AddAdjointsFor(o, r) || r.diags.has_errors()) return r;
  switch (stop) {
    case Stage::Tokens:
    case Stage::Ast:
    case Stage::TypedAst:
    case Stage::TileIr:
    case Stage::GradIr:
      break;  // handled above
    case Stage::Llvm:
      EmitLlvmText(o, r);
      break;
    case Stage::Ptx:
      EmitPtxModule(o, r);
      break;
    case Stage::Jit:
      if (NeedChecked(stop, r)) r.compiled = JitModule(*r.checked, *r.ir, o.compile, r.ice, &r.rejected);
      break;
    case Stage::SharedObject:
      if (NeedChecked(stop, r)) WriteArtifact(source, o, r);
      break;
    case Stage::Header:
      // The signature that the shared object carries (has_adjoint included), without code.
      if (NeedChecked(stop, r)) {
        CompiledModule out;
        out.signature = SignatureOf(*r.checked, *r.ir, &r.rejected);
        out.resolve = [](const std::string&) -> void* { return nullptr; };
        r.compiled = std::move(out);
      }
      break;
  }
  return r;
}

std::string AdjointsToString(const ir::Module& m) {
  std::ostringstream os;
  bool first = true;
  for (const auto& f : m.functions()) {
    if (f->adjoint_of.empty()) continue;
    if (!first) os << "\n";
    first = false;
    ir::PrintFunction(os, m, *f);
  }
  return os.str();
}

void AppendDiagnostics(const diag::DiagnosticEngine& from, diag::DiagnosticEngine& to) {
  for (const diag::Diagnostic& d : from.diagnostics()) {
    diag::DiagnosticEngine::Builder b = to.Report(d.code, d.file, d.range, d.message);
    for (const diag::Note& n : d.notes) b.AddNote(n.file, n.range, n.message);
  }
}

}  // namespace tilec::compiler
