// The optimization pipelines of LLVM's new pass manager over lowered modules. Kept alone in
// this file because PassBuilder.h is one of the most expensive headers to compile.
#include <llvm/Analysis/InlineCost.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/ADCE.h>
#include <llvm/Transforms/Scalar/BDCE.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/IndVarSimplify.h>
#include <llvm/Transforms/Scalar/InstSimplifyPass.h>
#include <llvm/Transforms/Scalar/LICM.h>
#include <llvm/Transforms/Scalar/LoopDeletion.h>
#include <llvm/Transforms/Scalar/LoopIdiomRecognize.h>
#include <llvm/Transforms/Scalar/LoopInstSimplify.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopRotation.h>
#include <llvm/Transforms/Scalar/LoopSimplifyCFG.h>
#include <llvm/Transforms/Scalar/LoopUnrollPass.h>
#include <llvm/Transforms/Scalar/MemCpyOptimizer.h>
#include <llvm/Transforms/Scalar/Reassociate.h>
#include <llvm/Transforms/Scalar/SCCP.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimpleLoopUnswitch.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/Cloning.h>

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

namespace {

// A GPU kernel module needs no call-graph inliner (the lowering inlines @wp.func bodies and
// marks library routines always-inline), no vectorizers and no module-level passes beyond
// dropping dead functions. Its pipeline is LLVM's O1 function simplification less what
// measured nothing on the bench kernels' PTX (ptxas registers and instructions): two of its four
// instcombines (a third is cut to an instsimplify, below), the LICM before loop rotation, and the
// library-call and coroutine passes. On gather_scatter_3d that is 9% of the compile; ptxas
// optimizes the PTX again.
llvm::FunctionPassManager KernelSimplification() {
  auto cfg = [] { return llvm::SimplifyCFGPass(llvm::SimplifyCFGOptions().convertSwitchRangeToICmp(true)); };
  llvm::FunctionPassManager fpm;
  fpm.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  fpm.addPass(llvm::EarlyCSEPass(/*UseMemorySSA=*/true));
  fpm.addPass(cfg());
  // Folds only: a full instcombine before the loop passes made the address arithmetic it
  // canonicalizes live longer (scatter_add_rows: 40 -> 32 registers without it, matmul_tc 56 ->
  // 48; gather_scatter_3d 3% less compile), and the one after them still runs.
  fpm.addPass(llvm::InstSimplifyPass());
  fpm.addPass(cfg());
  fpm.addPass(llvm::ReassociatePass());
  // Rotated loops with their invariants hoisted: the grid loop's per-block address bases.
  llvm::LoopPassManager rotate;
  rotate.addPass(llvm::LoopInstSimplifyPass());
  rotate.addPass(llvm::LoopSimplifyCFGPass());
  rotate.addPass(llvm::LoopRotatePass(/*EnableHeaderDuplication=*/true, /*PrepareForLTO=*/false));
  // No scalar promotion (a cap of 0 memory accesses): its alias-set tracking was a fifth of
  // matmul_tc's compile and changed no bench kernel's PTX.
  rotate.addPass(llvm::LICMPass(llvm::LICMOptions(/*MssaOptCap=*/100, /*MssaNoAccForPromotionCap=*/0, /*AllowSpeculation=*/true)));
  rotate.addPass(llvm::SimpleLoopUnswitchPass(/*NonTrivial=*/false, /*Trivial=*/true));
  fpm.addPass(llvm::createFunctionToLoopPassAdaptor(std::move(rotate), /*UseMemorySSA=*/true));
  fpm.addPass(cfg());
  fpm.addPass(llvm::InstCombinePass());
  // Counted loops over a tile's slots and a matmul's k steps unroll fully.
  llvm::LoopPassManager unroll;
  unroll.addPass(llvm::LoopIdiomRecognizePass());
  unroll.addPass(llvm::IndVarSimplifyPass());
  unroll.addPass(llvm::LoopDeletionPass());
  unroll.addPass(llvm::LoopFullUnrollPass(/*OptLevel=*/1, /*OnlyWhenForced=*/false, /*ForgetSCEV=*/false));
  fpm.addPass(llvm::createFunctionToLoopPassAdaptor(std::move(unroll), /*UseMemorySSA=*/false));
  fpm.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  fpm.addPass(llvm::MemCpyOptPass());
  fpm.addPass(llvm::SCCPPass());
  fpm.addPass(llvm::BDCEPass());
  fpm.addPass(llvm::ADCEPass());
  fpm.addPass(cfg());
  return fpm;
}

// Inlines every call to a function marked alwaysinline (libdevice's), the calls its body brings
// along too, then deletes those functions where nothing calls them any more. LLVM's
// AlwaysInlinerPass does the same but first computes the block frequencies of caller and
// callee, for profile updates there is no profile for: a tenth of the cost of a small kernel
// that calls sinf. Library bodies (sinf, expf, ...) keep a local array in their range
// reductions; inlined with lifetime markers, the copies of one kernel share one stack slot,
// which ptxas then keeps in registers (without them: 28 bytes of local memory per inlined call).
void InlineLibraryCalls(llvm::Module& m) {
  auto always = [](const llvm::Function* f) {
    return f && !f->isDeclaration() && f->hasFnAttribute(llvm::Attribute::AlwaysInline);
  };
  std::vector<llvm::Function*> library;
  std::vector<llvm::CallBase*> work;
  for (llvm::Function& f : m) {
    if (!always(&f)) continue;
    library.push_back(&f);
    for (llvm::User* u : f.users())
      if (auto* cb = llvm::dyn_cast<llvm::CallBase>(u); cb && cb->getCalledFunction() == &f) work.push_back(cb);
  }
  const bool insert_lifetime = !library.empty();
  while (!work.empty()) {
    llvm::CallBase* cb = work.back();
    work.pop_back();
    llvm::Function* callee = cb->getCalledFunction();
    if (!always(callee) || callee == cb->getFunction() || !llvm::isInlineViable(*callee).isSuccess()) continue;
    llvm::InlineFunctionInfo ifi;
    if (!llvm::InlineFunction(*cb, ifi, /*MergeAttributes=*/true, /*CalleeAAR=*/nullptr, insert_lifetime).isSuccess())
      continue;
    for (llvm::CallBase* inner : ifi.InlinedCallSites)
      if (always(inner->getCalledFunction())) work.push_back(inner);
  }
  for (llvm::Function* f : library) {
    f->removeDeadConstantUsers();
    if (f->hasLocalLinkage() && f->use_empty()) f->eraseFromParent();
  }
}

}  // namespace

void OptimizeKernelModule(llvm::Module& m, llvm::TargetMachine& tm) {
  InlineLibraryCalls(m);
  llvm::PassBuilder pb(&tm);
  Analyses a(pb);
  llvm::ModulePassManager mpm;
  pb.invokePipelineStartEPCallbacks(mpm, llvm::OptimizationLevel::O1);  // the target's (NVVM reflect)
  mpm.addPass(llvm::createModuleToFunctionPassAdaptor(KernelSimplification()));
  mpm.addPass(llvm::GlobalDCEPass());
  mpm.run(m, a.mam);
}

}  // namespace tilec::codegen
