// Builds and JIT-compiles the host-SIMT emulation of a module: SIMT lowering with the host
// target, the host O3 pipeline, and an ORC LLJIT whose process-symbol lookup supplies
// pthreads, malloc, printf and libm.
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/Support/Error.h>

#include "codegen/host/host.h"
#include "codegen/simt/simt.h"
#include "codegen/simt/target.h"

namespace tilec::codegen {

namespace {

class SimtJitModule : public JitModule {
 public:
  explicit SimtJitModule(std::unique_ptr<llvm::orc::LLJIT> jit) : jit_(std::move(jit)) {}
  void* Lookup(const std::string& symbol) override {
    auto addr = jit_->lookup(symbol);
    if (!addr) {
      llvm::consumeError(addr.takeError());
      return nullptr;
    }
    return addr->toPtr<void*>();
  }

 private:
  std::unique_ptr<llvm::orc::LLJIT> jit_;
};

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
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) {
    error = llvm::toString(jtmb.takeError());
    return nullptr;
  }
  jtmb->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
  if (!jit) {
    error = llvm::toString(jit.takeError());
    return nullptr;
  }
  mod->setDataLayout((*jit)->getDataLayout());
  if (auto err = (*jit)->addIRModule(llvm::orc::ThreadSafeModule(std::move(mod), std::move(ctx)))) {
    error = llvm::toString(std::move(err));
    return nullptr;
  }
  return std::make_unique<SimtJitModule>(std::move(*jit));
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
