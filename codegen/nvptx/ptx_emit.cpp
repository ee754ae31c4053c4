// PTX emission: an nvptx64 TargetMachine per architecture, the SIMT lowering with the NVPTX
// target, math intrinsics (exp, log, pow, sin, cos) redirected to CUDA's libdevice (linked
// only when used), the kernel pipeline, and LLVM's PTX printer; a module's kernels compile on
// parallel threads.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/OptBisect.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>

#include "codegen/host/host.h"
#include "codegen/nvptx/nvptx.h"
#include "codegen/simt/target.h"

namespace tilec::codegen {

const std::vector<std::string>& SupportedPtxArchs() {
  static const std::vector<std::string> archs = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"};
  return archs;
}

bool IsSupportedPtxArch(const std::string& arch) {
  for (const std::string& a : SupportedPtxArchs())
    if (a == arch) return true;
  return false;
}

namespace {

const char* kTriple = "nvptx64-nvidia-cuda";

std::unique_ptr<llvm::TargetMachine> CreateNvptxTargetMachine(const std::string& arch, std::string& error) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(kTriple, error);
  if (!target) return nullptr;
  // ptxas is the optimizing back end: LLVM's machine-level O1 gives it the same PTX as O3 on
  // our kernels at a fifth less compile time (O0 leaves stack frames behind).
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      kTriple, arch, "", llvm::TargetOptions(), std::nullopt, std::nullopt, llvm::CodeGenOptLevel::Less));
  if (!tm) error = "cannot create an NVPTX target machine for " + arch;
  return tm;
}

std::string LibdevicePath() {
  std::vector<std::string> candidates;
  if (const char* p = std::getenv("TILEC_LIBDEVICE")) candidates.push_back(p);
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* p = std::getenv(var)) candidates.push_back(std::string(p) + "/nvvm/libdevice/libdevice.10.bc");
  candidates.push_back("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
  for (const std::string& c : candidates)
    if (llvm::MemoryBuffer::getFile(c)) return c;
  return "";
}

// Replaces calls to math intrinsics NVPTX cannot lower with libdevice functions; links
// libdevice if any was needed. Returns false (with `error`) if libdevice is missing.
bool LinkMath(llvm::Module& mod, std::string& error) {
  struct Entry {
    llvm::Intrinsic::ID id;
    const char* f32;
    const char* f64;
  };
  static const Entry table[] = {{llvm::Intrinsic::exp, "__nv_expf", "__nv_exp"},
                                {llvm::Intrinsic::log, "__nv_logf", "__nv_log"},
                                {llvm::Intrinsic::pow, "__nv_powf", "__nv_pow"},
                                {llvm::Intrinsic::sin, "__nv_sinf", "__nv_sin"},
                                {llvm::Intrinsic::cos, "__nv_cosf", "__nv_cos"},
                                {llvm::Intrinsic::tan, "__nv_tanf", "__nv_tan"},
                                {llvm::Intrinsic::asin, "__nv_asinf", "__nv_asin"},
                                {llvm::Intrinsic::acos, "__nv_acosf", "__nv_acos"},
                                {llvm::Intrinsic::atan, "__nv_atanf", "__nv_atan"},
                                {llvm::Intrinsic::sinh, "__nv_sinhf", "__nv_sinh"},
                                {llvm::Intrinsic::cosh, "__nv_coshf", "__nv_cosh"},
                                {llvm::Intrinsic::tanh, "__nv_tanhf", "__nv_tanh"},
                                {llvm::Intrinsic::log2, "__nv_log2f", "__nv_log2"},
                                {llvm::Intrinsic::log10, "__nv_log10f", "__nv_log10"},
                                {llvm::Intrinsic::exp2, "__nv_exp2f", "__nv_exp2"}};
  // The C library functions the scalar emitter calls where LLVM has no intrinsic.
  struct Named {
    const char* c;
    const char* nv;
  };
  static const Named named[] = {{"cbrtf", "__nv_cbrtf"}, {"cbrt", "__nv_cbrt"},   {"erff", "__nv_erff"},
                                {"erf", "__nv_erf"},     {"atan2f", "__nv_atan2f"}, {"atan2", "__nv_atan2"},
                                {"erfcf", "__nv_erfcf"}, {"erfc", "__nv_erfc"}};
  std::vector<llvm::Function*> replaced;
  for (llvm::Function& f : mod) {
    if (f.isDeclaration() && !f.isIntrinsic()) {
      for (const Named& n : named)
        if (f.getName() == n.c) {
          llvm::FunctionCallee nv = mod.getOrInsertFunction(n.nv, f.getFunctionType());
          f.replaceAllUsesWith(nv.getCallee());
          replaced.push_back(&f);
        }
      continue;
    }
    if (!f.isIntrinsic()) continue;
    for (const Entry& e : table) {
      if (f.getIntrinsicID() != e.id) continue;
      llvm::Type* rt = f.getReturnType();
      if (!rt->isFloatTy() && !rt->isDoubleTy()) continue;
      llvm::FunctionCallee nv = mod.getOrInsertFunction(rt->isFloatTy() ? e.f32 : e.f64, f.getFunctionType());
      f.replaceAllUsesWith(nv.getCallee());
      replaced.push_back(&f);
    }
  }
  if (replaced.empty()) return true;
  for (llvm::Function* f : replaced) f->eraseFromParent();
  std::string path = LibdevicePath();
  if (path.empty()) {
    error = "CUDA's libdevice.10.bc was not found (set TILEC_LIBDEVICE); it provides exp, log, pow, sin, cos and the other math functions on GPUs";
    return false;
  }
  // libdevice holds ~500 functions and a kernel needs a handful: read it lazily, so that the
  // linker materializes only the bodies it pulls in (parsing it whole costs ~40 ms a module).
  // Even lazily, reading its symbol table is most of a small kernel's link, so the functions
  // a set of names pulls in are kept, per process, as the bitcode of a module of their own (a
  // slice): later modules that need the same names read that instead. The file stays mapped
  // for the life of the process.
  std::vector<std::string> names;
  for (const llvm::Function& f : mod)
    if (f.isDeclaration() && f.getName().starts_with("__nv_")) names.push_back(f.getName().str());
  std::sort(names.begin(), names.end());
  std::string key = path;
  for (const std::string& n : names) key += "|" + n;
  static std::mutex cache_mutex;
  static std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> buffers;
  static std::map<std::string, std::string> slices;
  std::unique_ptr<llvm::Module> slice;
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    if (auto it = slices.find(key); it != slices.end()) {
      auto parsed = llvm::parseBitcodeFile(llvm::MemoryBufferRef(it->second, "libdevice-slice"), mod.getContext());
      if (!parsed) {
        error = "cannot read a libdevice slice: " + llvm::toString(parsed.takeError());
        return false;
      }
      slice = std::move(*parsed);
    }
  }
  if (!slice) {
    llvm::MemoryBufferRef ref;
    {
      std::lock_guard<std::mutex> lock(cache_mutex);
      auto& buf = buffers[path];
      if (!buf) {
        auto file = llvm::MemoryBuffer::getFile(path);
        if (!file) {
          buffers.erase(path);
          error = "cannot read `" + path + "`: " + file.getError().message();
          return false;
        }
        buf = std::move(*file);
      }
      ref = buf->getMemBufferRef();
    }
    auto lib = llvm::getLazyBitcodeModule(ref, mod.getContext());
    if (!lib) {
      error = "cannot read `" + path + "`: " + llvm::toString(lib.takeError());
      return false;
    }
    (*lib)->setDataLayout(mod.getDataLayout());
    (*lib)->setTargetTriple(mod.getTargetTriple());
    // The slice: declarations of the names, then what libdevice defines for them.
    slice = std::make_unique<llvm::Module>("libdevice-slice", mod.getContext());
    slice->setDataLayout(mod.getDataLayout());
    slice->setTargetTriple(mod.getTargetTriple());
    for (const std::string& n : names)
      slice->getOrInsertFunction(n, mod.getFunction(n)->getFunctionType());
    if (llvm::Linker::linkModules(*slice, std::move(*lib), llvm::Linker::LinkOnlyNeeded)) {
      error = "linking libdevice failed";
      return false;
    }
    std::string bitcode;
    llvm::raw_string_ostream os(bitcode);
    llvm::WriteBitcodeToFile(*slice, os);
    os.flush();
    std::lock_guard<std::mutex> lock(cache_mutex);
    slices.emplace(key, std::move(bitcode));
  }
  if (llvm::Linker::linkModules(mod, std::move(slice), llvm::Linker::LinkOnlyNeeded)) {
    error = "linking libdevice failed";
    return false;
  }
  // Only kernels stay visible, so that unused library code is dropped.
  for (llvm::Function& f : mod)
    if (!f.isDeclaration() && f.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  mod.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(0));
  return true;
}

std::unique_ptr<llvm::Module> BuildNvptx(const ir::Module& m, const PtxOptions& opts, llvm::LLVMContext& ctx,
                                         llvm::TargetMachine& tm, std::vector<SimtKernelInfo>& info,
                                         std::string& error, const ir::Function* only = nullptr) {
  auto mod = std::make_unique<llvm::Module>("tilec_nvptx", ctx);
  mod->setDataLayout(tm.createDataLayout());
  mod->setTargetTriple(kTriple);
  auto target = simt::CreateNvptxTarget(std::atoi(opts.arch.c_str() + 3));
  std::vector<simt::SimtKernelLayout> layouts;
  if (!simt::LowerSimt(m, *mod, *target, opts.block_dim, layouts, error, only)) return nullptr;
  for (auto& l : layouts) info.push_back({l.name, l.block_dim, l.shared_bytes, l.barrier_sites});
  if (!LinkMath(*mod, error)) return nullptr;
  if (opts.optimize) OptimizeKernelModule(*mod, tm);
  return mod;
}

bool CheckOptions(const PtxOptions& opts, std::string& error) {
  if (!IsSupportedPtxArch(opts.arch)) {
    error = "unsupported GPU architecture `" + opts.arch + "` (expected sm_75, sm_80, sm_86, sm_89 or sm_90)";
    return false;
  }
  if (opts.block_dim < 1 || opts.block_dim > 1024) {
    error = "block_dim must be 1 to 1024, got " + std::to_string(opts.block_dim);
    return false;
  }
  return true;
}

// LLVM's loop strength reduction rewrites address arithmetic for a CPU's addressing modes. On
// NVPTX it was a fifth of matmul_tc's compile and raised its registers from 56 to 64 (ptxas
// strength-reduces again; no bench kernel's PTX is worse without it). The codegen pipeline has
// no switch for it but a process-wide command-line option, which the host back end in the same
// process must not see, so the PTX contexts carry a pass gate that declines it.
class NvptxPassGate final : public llvm::OptPassGate {
 public:
  bool isEnabled() const override { return true; }
  bool shouldRunPass(llvm::StringRef pass, llvm::StringRef) override {
    if (pass != "Loop Strength Reduction") return true;
    declined_.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  size_t declined() const { return declined_.load(std::memory_order_relaxed); }

 private:
  std::atomic<size_t> declined_{0};
};

NvptxPassGate& PassGate() {
  static NvptxPassGate gate;
  return gate;
}

// PTX for the kernels of `m` (all, or only `only`) as one text, in a context of its own.
bool EmitPtxText(const ir::Module& m, const PtxOptions& opts, const ir::Function* only, std::string& ptx,
                 std::vector<SimtKernelInfo>& info, std::string& error) {
  auto tm = CreateNvptxTargetMachine(opts.arch, error);
  if (!tm) return false;
  llvm::LLVMContext ctx;
  ctx.setOptPassGate(PassGate());
  auto mod = BuildNvptx(m, opts, ctx, *tm, info, error, only);
  if (!mod) return false;
  llvm::SmallString<0> text;
  llvm::raw_svector_ostream os(text);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile)) {
    error = "the NVPTX target cannot emit assembly";
    return false;
  }
  pm.run(*mod);
  ptx = std::string(text.str());
  return true;
}

// The symbol a module-scope PTX declaration names: the identifier before its `[`, `=` or `;`.
std::string DeclaredName(const std::string& decl) {
  size_t end = decl.find_first_of("[=;");
  while (end > 0 && decl[end - 1] == ' ') --end;
  size_t begin = decl.find_last_of(' ', end == 0 ? 0 : end - 1);
  return decl.substr(begin == std::string::npos ? 0 : begin + 1, end - (begin == std::string::npos ? 0 : begin + 1));
}

// Splits one kernel's PTX into its header (through `.address_size`), its module-scope
// declarations (shared memory, one-line globals and constants) and the rest. Returns false when
// the text holds anything else at the top level (a device function): such pieces cannot be
// joined by text.
bool SplitPiece(const std::string& ptx, std::string& header, std::vector<std::string>& decls, std::string& body) {
  size_t pos = 0;
  bool in_header = true;
  while (pos < ptx.size()) {
    size_t end = ptx.find('\n', pos);
    if (end == std::string::npos) end = ptx.size();
    const std::string line = ptx.substr(pos, end - pos);
    pos = end + 1;
    if (in_header) {
      header += line + "\n";
      if (line.rfind(".address_size", 0) == 0) in_header = false;
      continue;
    }
    if (line.rfind(".extern .shared ", 0) == 0 && line.back() == ';') {
      decls.push_back(line);
      continue;
    }
    // Module-scope data a kernel pulled in (libdevice's `.global ... __cudart_i2opi_f[24] = {...};`
    // for sin and cos): joined once, where every kernel that has it has the same line.
    if ((line.rfind(".global ", 0) == 0 || line.rfind(".const ", 0) == 0) && line.back() == ';') {
      decls.push_back(line);
      continue;
    }
    if (!line.empty() && line[0] == '.' && line.rfind(".visible .entry ", 0) != 0) return false;
    body += line + "\n";
  }
  return !in_header;
}

// Kernels are independent, so a module of several compiles as one LLVM module per kernel on
// worker threads (each with its own LLVMContext), and the texts are joined: the header and the
// shared declarations once, then every kernel in module order. On failure `joined` says which:
// false when the pieces cannot be joined (the caller compiles the module as one), true when a
// kernel failed to compile (`error` says why).
bool EmitPtxParallel(const ir::Module& m, const PtxOptions& opts, size_t workers, PtxModule& out,
                     std::string& error, bool& joined) {
  joined = false;
  std::vector<const ir::Function*> kernels;
  for (auto& f : m.functions()) kernels.push_back(f.get());
  struct Piece {
    std::string ptx, error;
    std::vector<SimtKernelInfo> info;
    bool ok = false;
  };
  std::vector<Piece> pieces(kernels.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t k; (k = next.fetch_add(1)) < kernels.size();) {
      Piece& p = pieces[k];
      p.ok = EmitPtxText(m, opts, kernels[k], p.ptx, p.info, p.error);
    }
  };
  std::vector<std::thread> threads;
  for (size_t w = 1; w < workers; ++w) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();

  std::string header, body;
  std::vector<std::string> decls;
  out.kernels.clear();
  for (Piece& p : pieces) {
    if (!p.ok) {
      error = p.error;
      joined = true;  // a real failure, not a joining problem
      return false;
    }
    std::string h, b;
    std::vector<std::string> d;
    if (!SplitPiece(p.ptx, h, d, b) || (!header.empty() && h != header)) return false;
    header = h;
    for (const std::string& x : d) {
      if (std::find(decls.begin(), decls.end(), x) != decls.end()) continue;
      // Another kernel's declaration of the same name with other contents (LLVM's private
      // `$str` constants, say) cannot share the module: compile it as one instead.
      const std::string name = DeclaredName(x);
      for (const std::string& y : decls)
        if (DeclaredName(y) == name) return false;
      decls.push_back(x);
    }
    body += b;
    out.kernels.insert(out.kernels.end(), p.info.begin(), p.info.end());
  }
  out.ptx = header + "\n";
  for (const std::string& d : decls) out.ptx += d + "\n";
  out.ptx += body;
  out.compiled_apart = true;
  joined = true;
  return true;
}

}  // namespace

size_t PtxPassesDeclined() { return PassGate().declined(); }

bool EmitNvptxLlvmIr(const ir::Module& m, const PtxOptions& opts, std::string& llvm_ir, std::string& error) {
  if (!CheckOptions(opts, error)) return false;
  auto tm = CreateNvptxTargetMachine(opts.arch, error);
  if (!tm) return false;
  llvm::LLVMContext ctx;
  std::vector<SimtKernelInfo> info;
  auto mod = BuildNvptx(m, opts, ctx, *tm, info, error);
  if (!mod) return false;
  llvm::raw_string_ostream os(llvm_ir);
  mod->print(os, nullptr);
  return true;
}

bool EmitPtx(const ir::Module& m, const PtxOptions& opts, PtxModule& out, std::string& error) {
  if (!CheckOptions(opts, error)) return false;
  out.arch = opts.arch;
  const size_t threads = opts.threads > 0 ? size_t(opts.threads) : std::max(1u, std::thread::hardware_concurrency());
  const size_t workers = std::min<size_t>(m.functions().size(), threads);
  if (workers > 1) {
    bool joined = false;
    if (EmitPtxParallel(m, opts, workers, out, error, joined)) return true;
    if (joined) return false;
  }
  out.kernels.clear();
  return EmitPtxText(m, opts, nullptr, out.ptx, out.kernels, error);
}

}  // namespace tilec::codegen
