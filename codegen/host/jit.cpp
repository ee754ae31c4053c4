// In-process compilation with ORC LLJIT: lower, optimize for the host, add to a fresh JIT
// whose main dylib also resolves process symbols (libm, printf).
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/Support/Error.h>

#include "codegen/host/host.h"

namespace tilec::codegen {

namespace {

class OrcJitModule : public JitModule {
 public:
  explicit OrcJitModule(std::unique_ptr<llvm::orc::LLJIT> jit) : jit_(std::move(jit)) {}
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

}  // namespace

std::unique_ptr<JitModule> JitLoad(std::unique_ptr<llvm::Module> mod, std::unique_ptr<llvm::LLVMContext> ctx,
                                   std::string& error) {
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
  return std::make_unique<OrcJitModule>(std::move(*jit));
}

std::unique_ptr<JitModule> JitCompile(const ir::Module& m, std::string& error, const HostOptions& opts) {
  auto tm = CreateHostTargetMachine(error);
  if (!tm) return nullptr;
  auto ctx = std::make_unique<llvm::LLVMContext>();
  auto mod = BuildHostModule(m, *ctx, *tm, opts, error);
  if (!mod) return nullptr;
  return JitLoad(std::move(mod), std::move(ctx), error);
}

}  // namespace tilec::codegen
