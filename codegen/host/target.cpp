// Host target: TargetMachine creation, `--emit=llvm` text, and AOT shared objects (object
// file from LLVM, linked by the system `cc -shared`).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sys/wait.h>
#include <unistd.h>

#include <llvm/IR/LegacyPassManager.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/SubtargetFeature.h>

#include "codegen/block_serial/emitter.h"
#include "codegen/host/host.h"
#include "runtime/include/tilec/abi.h"

namespace tilec::codegen {

std::unique_ptr<llvm::TargetMachine> CreateHostTargetMachine(std::string& error) {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  std::string triple = llvm::sys::getProcessTriple();
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) return nullptr;
  llvm::SubtargetFeatures features;
  for (auto& f : llvm::sys::getHostCPUFeatures()) features.AddFeature(f.first(), f.second);
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, llvm::sys::getHostCPUName(), features.getString(), options, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!tm) error = "cannot create a target machine for " + triple;
  return tm;
}

std::unique_ptr<llvm::Module> BuildHostModule(const ir::Module& m, llvm::LLVMContext& ctx, llvm::TargetMachine& tm,
                                              const HostOptions& opts, std::string& error) {
  auto mod = std::make_unique<llvm::Module>("tilec", ctx);
  // The data layout must be known while lowering (tile copies are sized with it).
  mod->setDataLayout(tm.createDataLayout());
  mod->setTargetTriple(tm.getTargetTriple().str());
  auto lowered = LowerBlockSerial(m, ctx, error);
  if (!lowered) return nullptr;
  lowered->setDataLayout(tm.createDataLayout());
  lowered->setTargetTriple(tm.getTargetTriple().str());
  if (opts.optimize) OptimizeModule(*lowered, tm);
  return lowered;
}

bool EmitLlvmIr(const ir::Module& m, std::string& llvm_ir, std::string& error, const HostOptions& opts) {
  auto tm = CreateHostTargetMachine(error);
  if (!tm) return false;
  llvm::LLVMContext ctx;
  auto mod = BuildHostModule(m, ctx, *tm, opts, error);
  if (!mod) return false;
  llvm::raw_string_ostream os(llvm_ir);
  mod->print(os, nullptr);
  os.flush();
  return true;
}

namespace {

int RunCommand(const std::vector<std::string>& argv, std::string& output) {
  int pipefd[2];
  if (pipe(pipefd) != 0) return -1;
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    dup2(pipefd[1], 1);
    dup2(pipefd[1], 2);
    close(pipefd[0]);
    close(pipefd[1]);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(pipefd[1]);
  char buf[4096];
  ssize_t n;
  while ((n = read(pipefd[0], buf, sizeof buf)) > 0) output.append(buf, size_t(n));
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

bool EmitHostSharedObject(const ir::Module& m, const std::string& signature_text, const std::string& out_path,
                          std::string& error, const HostOptions& opts) {
  auto tm = CreateHostTargetMachine(error);
  if (!tm) return false;
  llvm::LLVMContext ctx;
  auto mod = BuildHostModule(m, ctx, *tm, opts, error);
  if (!mod) return false;
  // const char* tilec_module_signature = "<text>";
  llvm::Constant* text = llvm::ConstantDataArray::getString(ctx, signature_text, true);
  auto* text_var = new llvm::GlobalVariable(*mod, text->getType(), true, llvm::GlobalValue::PrivateLinkage, text,
                                            "tilec.signature.text");
  new llvm::GlobalVariable(*mod, llvm::PointerType::get(ctx, 0), true, llvm::GlobalValue::ExternalLinkage, text_var,
                           TILEC_MODULE_SIGNATURE_SYMBOL);

  std::string obj_path = out_path + ".o";
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(obj_path, ec, llvm::sys::fs::OF_None);
    if (ec) {
      error = "cannot write `" + obj_path + "`: " + ec.message();
      return false;
    }
    llvm::legacy::PassManager pm;
    if (tm->addPassesToEmitFile(pm, out, nullptr, llvm::CodeGenFileType::ObjectFile)) {
      error = "the host target cannot emit object files";
      return false;
    }
    pm.run(*mod);
  }
  const char* cc = std::getenv("CC");
  std::string output;
  int rc = RunCommand({cc && *cc ? cc : "cc", "-shared", "-o", out_path, obj_path, "-lm"}, output);
  std::remove(obj_path.c_str());
  if (rc != 0) {
    error = "linking `" + out_path + "` with the system C compiler failed" +
            (rc == 127 ? std::string(" (no `cc` found)") : ": " + output);
    return false;
  }
  return true;
}

}  // namespace tilec::codegen
