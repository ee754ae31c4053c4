// Builds and JIT-compiles the host-SIMT emulation of a module: SIMT lowering with the host
// target and the host O3 pipeline, then the block-serial JIT's loader (codegen/host/jit.cpp),
// whose process-symbol lookup supplies pthreads, malloc, printf and libm.
#include <llvm/Support/raw_ostream.h>

#include "codegen/host/host.h"
#include "codegen/simt/simt.h"
#include "codegen/simt/target.h"

namespace tilec::codegen {

namespace {

std::unique_ptr<llvm::Module> BuildEmulation(const ir::Module& m, const SimtOptions& opts, llvm::LLVMContext& ctx,
                                             llvm::TargetMachine& tm, std::vector<SimtKernelInfo>* info,
                                             std::string& error) {
  auto mod = std::make_unique<llvm::Module>("tilec_simt", ctx);
  mod->setDataLayout(tm.createDataLayout());
  mod->setTargetTriple(tm.getTargetTriple().str());
  auto target = simt::CreateHostSimtTarget();
  std::vector<simt::SimtKernelLayout> layouts;
  if (!simt::LowerSimt(m, *mod, *target, opts.block_dim, layouts, error)) return nullptr;
  if (info)
    for (auto& l : layouts) info->push_back({l.name, l.block_dim, l.shared_bytes, l.barrier_sites});
  if (opts.optimize) OptimizeModule(*mod, tm);
  return mod;
}

}  // namespace

std::unique_ptr<JitModule> JitCompileSimtEmulation(const ir::Module& m, const SimtOptions& opts, std::string& error,
                                                   std::vector<SimtKernelInfo>* info) {
  auto tm = CreateHostTargetMachine(error);
  if (!tm) return nullptr;
  auto ctx = std::make_unique<llvm::LLVMContext>();
  auto mod = BuildEmulation(m, opts, *ctx, *tm, info, error);
  if (!mod) return nullptr;
  return JitLoad(std::move(mod), std::move(ctx), error);
}

bool EmitSimtEmulationLlvmIr(const ir::Module& m, const SimtOptions& opts, std::string& llvm_ir, std::string& error) {
  auto tm = CreateHostTargetMachine(error);
  if (!tm) return false;
  llvm::LLVMContext ctx;
  auto mod = BuildEmulation(m, opts, ctx, *tm, nullptr, error);
  if (!mod) return false;
  llvm::raw_string_ostream os(llvm_ir);
  mod->print(os, nullptr);
  return true;
}

}  // namespace tilec::codegen
