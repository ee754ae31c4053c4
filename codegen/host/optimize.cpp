// The optimization pipelines of LLVM's new pass manager over lowered modules. Kept alone in
// this file because PassBuilder.h is one of the most expensive headers to compile.
#include <llvm/IR/Instructions.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>

#include "codegen/host/host.h"

namespace tilec::codegen {

namespace {

// The analysis managers a pipeline runs with, registered for `pb` and cross-linked.
struct Analyses {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  explicit Analyses(llvm::PassBuilder& pb) {
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
  }
};

// Whether a function loads or stores whole struct values (elements of vec3 or mat33 tiles and
// arrays). LLVM 19's SLP vectorizer miscompiles some such block-serial code for AVX-512 targets
// (a tile_map of quat_rotate over vec3 tiles comes out with the components of neighbouring
// elements rotated; tests/exec/tile_composite_test.cpp), so those modules keep the loop
// vectorizer only.
bool MovesStructValues(const llvm::Module& m) {
  for (const llvm::Function& f : m)
    for (const llvm::BasicBlock& bb : f)
      for (const llvm::Instruction& i : bb) {
        if (const auto* l = llvm::dyn_cast<llvm::LoadInst>(&i); l && l->getType()->isStructTy()) return true;
        if (const auto* st = llvm::dyn_cast<llvm::StoreInst>(&i); st && st->getValueOperand()->getType()->isStructTy())
          return true;
      }
  return false;
}

}  // namespace

void OptimizeModule(llvm::Module& m, llvm::TargetMachine& tm) {
  // LLVM tunes recent x86 cores to 256-bit vectors (clock drop on AVX-512 in mixed code); a
  // kernel is the whole hot loop, and full-width vectors double its throughput.
  if (tm.getTargetFeatureString().contains("+avx512f"))
    for (llvm::Function& f : m)
      if (!f.isDeclaration()) f.addFnAttr("prefer-vector-width", "512");
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = !MovesStructValues(m);
  llvm::PassBuilder pb(&tm, tuning);
  Analyses a(pb);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(m, a.mam);
}

// A GPU kernel module needs no call-graph inliner (the lowering inlines @wp.func bodies and
// marks library routines always-inline), no vectorizers and no module-level passes beyond
// dropping dead functions: the per-function simplification pipeline (SROA, early CSE,
// instcombine, CFG simplification, LICM, full unrolling) is what shapes its code, at less than
// half the O3 pipeline's compile time. ptxas optimizes the PTX again.
void OptimizeKernelModule(llvm::Module& m, llvm::TargetMachine& tm) {
  // Library bodies (libdevice's sinf, expf, ...) keep a local array in their range reductions;
  // inlined with lifetime markers, the copies of one kernel share one stack slot, which ptxas
  // then keeps in registers (without them: 28 bytes of local memory per inlined call).
  bool library = false;
  for (const llvm::Function& f : m) library |= !f.isDeclaration() && f.hasFnAttribute(llvm::Attribute::AlwaysInline);
  llvm::PassBuilder pb(&tm);
  Analyses a(pb);
  const llvm::OptimizationLevel level = llvm::OptimizationLevel::O1;
  llvm::ModulePassManager mpm;
  mpm.addPass(llvm::AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/library));
  pb.invokePipelineStartEPCallbacks(mpm, level);
  mpm.addPass(llvm::createModuleToFunctionPassAdaptor(
      pb.buildFunctionSimplificationPipeline(level, llvm::ThinOrFullLTOPhase::None)));
  mpm.addPass(llvm::GlobalDCEPass());
  mpm.run(m, a.mam);
}

}  // namespace tilec::codegen
