// Host-SIMT emulation target: the kernel entry has the tilec_cpu_kernel_fn ABI and runs the
// B lanes of a block as B OS threads (pthreads, created per call) that share one malloc'ed
// shared buffer and meet at a pthread barrier; every lane walks the block programs of
// [first, last) in order. Atomics and printf are the CPU device's, so results match it.
#include "codegen/codegen.h"
#include "codegen/simt/target.h"

namespace tilec::codegen::simt {

namespace {

class HostSimtTarget : public Target {
 public:
  KernelFrame BeginKernel(const ir::Function& f, llvm::Module& mod, bs::Emitter& types, const Plan& plan,
                          int block_dim) override {
    llvm::LLVMContext& ctx = mod.getContext();
    llvm::IRBuilder<>& b = types.b();
    llvm::Type* ptr = b.getPtrTy();
    llvm::Type* i64 = b.getInt64Ty();
    llvm::Type* i32 = b.getInt32Ty();
    // Per-lane context: args, launch, first, last, lane, shared, barrier.
    auto* ctx_ty = llvm::StructType::get(ctx, {ptr, ptr, i64, i64, i64, ptr, ptr});
    auto* lane_fn = llvm::Function::Create(llvm::FunctionType::get(ptr, {ptr}, false),
                                           llvm::GlobalValue::InternalLinkage, "tilec_lane_" + f.name(), mod);
    lane_fn->addFnAttr(llvm::Attribute::NoUnwind);
    auto* entry = llvm::Function::Create(llvm::FunctionType::get(b.getVoidTy(), {ptr, ptr, i64, i64}, false),
                                         llvm::GlobalValue::ExternalLinkage, EntrySymbol(f.name()), mod);
    entry->addFnAttr(llvm::Attribute::NoUnwind);
    barrier_wait_ = mod.getOrInsertFunction("pthread_barrier_wait", llvm::FunctionType::get(i32, {ptr}, false));
    block_dim_ = block_dim;

    // ---- entry: shared buffer, barrier, B-1 threads plus the caller as lane 0 ----
    b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", entry));
    auto fn = [&](const char* name, llvm::Type* ret, std::vector<llvm::Type*> params) {
      return mod.getOrInsertFunction(name, llvm::FunctionType::get(ret, params, false));
    };
    llvm::Value* shared =
        b.CreateCall(fn("malloc", ptr, {i64}), {b.getInt64(std::max<uint64_t>(plan.shared_bytes(), 16))});
    llvm::Value* bar = b.CreateAlloca(llvm::ArrayType::get(b.getInt8Ty(), 128));
    llvm::cast<llvm::AllocaInst>(bar)->setAlignment(llvm::Align(16));
    if (block_dim > 1)
      b.CreateCall(fn("pthread_barrier_init", i32, {ptr, ptr, i32}),
                   {bar, llvm::ConstantPointerNull::get(b.getPtrTy()), b.getInt32(uint32_t(block_dim))});
    llvm::Value* ctxs = b.CreateAlloca(ctx_ty, b.getInt32(uint32_t(block_dim)));
    llvm::Value* threads = b.CreateAlloca(i64, b.getInt32(uint32_t(block_dim)));
    auto fill = [&](llvm::Value* lane) {
      llvm::Value* c = b.CreateGEP(ctx_ty, ctxs, {lane});
      llvm::Value* vals[] = {entry->getArg(0), entry->getArg(1), entry->getArg(2), entry->getArg(3), lane, shared, bar};
      for (unsigned k = 0; k < 7; ++k) b.CreateStore(vals[k], b.CreateStructGEP(ctx_ty, c, k));
      return c;
    };
    auto loop = [&](const std::function<void(llvm::Value*)>& body) {
      if (block_dim <= 1) return;
      llvm::BasicBlock* pre = b.GetInsertBlock();
      llvm::BasicBlock* head = llvm::BasicBlock::Create(ctx, "lanes", entry);
      llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx, "lanes.end", entry);
      b.CreateBr(head);
      b.SetInsertPoint(head);
      llvm::PHINode* l = b.CreatePHI(i64, 2);
      l->addIncoming(b.getInt64(1), pre);
      body(l);
      llvm::Value* next = b.CreateAdd(l, b.getInt64(1));
      l->addIncoming(next, b.GetInsertBlock());
      b.CreateCondBr(b.CreateICmpSLT(next, b.getInt64(uint64_t(block_dim))), head, done);
      b.SetInsertPoint(done);
    };
    llvm::FunctionCallee create = fn("pthread_create", i32, {ptr, ptr, ptr, ptr});
    llvm::FunctionCallee join = fn("pthread_join", i32, {i64, ptr});
    llvm::Value* null = llvm::ConstantPointerNull::get(b.getPtrTy());
    loop([&](llvm::Value* l) {
      llvm::Value* c = fill(l);
      b.CreateCall(create, {b.CreateGEP(i64, threads, {l}), null, lane_fn, c});
    });
    b.CreateCall(lane_fn, {fill(b.getInt64(0))});
    loop([&](llvm::Value* l) { b.CreateCall(join, {b.CreateLoad(i64, b.CreateGEP(i64, threads, {l})), null}); });
    if (block_dim > 1) b.CreateCall(fn("pthread_barrier_destroy", i32, {ptr}), {bar});
    b.CreateCall(fn("free", b.getVoidTy(), {ptr}), {shared});
    b.CreateRetVoid();

    // ---- the lane program ----
    b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", lane_fn));
    llvm::Value* c = lane_fn->getArg(0);
    auto field = [&](unsigned k, llvm::Type* t) { return b.CreateLoad(t, b.CreateStructGEP(ctx_ty, c, k)); };
    llvm::Value* args = field(0, ptr);
    KernelFrame frame;
    frame.fn = lane_fn;
    frame.launch = field(1, ptr);
    frame.first = field(2, i64);
    frame.end = field(3, i64);
    frame.step = b.getInt64(1);
    lane_ = field(4, i64);
    smem_ = field(5, ptr);
    barrier_ = field(6, ptr);
    for (int i = 0; i < f.body()->num_args(); ++i) {
      frame.params.push_back(b.CreateLoad(ptr, b.CreateConstGEP1_64(ptr, args, uint64_t(i))));
      frame.by_value.push_back(false);
    }
    return frame;
  }

  void EndKernel(llvm::IRBuilder<>& b) override { b.CreateRet(llvm::ConstantPointerNull::get(b.getPtrTy())); }
  llvm::Value* LaneId() override { return lane_; }
  llvm::Value* SharedBase() override { return smem_; }
  void Barrier(llvm::IRBuilder<>& b) override {
    if (block_dim_ > 1) b.CreateCall(barrier_wait_, {barrier_});
  }
  void DeviceFence(llvm::IRBuilder<>& b) override { b.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent); }
  llvm::Value* GlobalPtr(llvm::IRBuilder<>&, llvm::Value* generic) override { return generic; }
  llvm::Value* AtomicAdd(bs::Emitter& e, llvm::Value* ptr, llvm::Value* v, ScalarType t, bool) override {
    return e.EmitAtomicAdd(ptr, v, t);
  }
  // The emitter trades tensor-core fragments through shared memory as the hardware would
  // through its lanes, so emulation checks the fragment layouts the GPU code relies on.
  MmaSupport Mma() const override { return MmaSupport::Emulated; }

  void Printf(llvm::IRBuilder<>& b, llvm::Module& mod, const std::string& fmt,
              const std::vector<llvm::Value*>& args) override {
    llvm::FunctionCallee printf_fn =
        mod.getOrInsertFunction("printf", llvm::FunctionType::get(b.getInt32Ty(), {b.getPtrTy()}, true));
    std::vector<llvm::Value*> call{b.CreateGlobalStringPtr(fmt)};
    call.insert(call.end(), args.begin(), args.end());
    b.CreateCall(printf_fn, call);
  }

 private:
  llvm::Value* lane_ = nullptr;
  llvm::Value* smem_ = nullptr;
  llvm::Value* barrier_ = nullptr;
  llvm::FunctionCallee barrier_wait_;
  int block_dim_ = 1;
};

}  // namespace

std::unique_ptr<Target> CreateHostSimtTarget() { return std::make_unique<HostSimtTarget>(); }

}  // namespace tilec::codegen::simt
