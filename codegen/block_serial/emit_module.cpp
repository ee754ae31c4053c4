// Block-serial lowering: kernel entries (argument unpacking and the loop over the grid
// range) and loop nests; op dispatch and structured control flow are codegen/common's.
#include <cstddef>

#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "codegen/block_serial/emitter.h"
#include "codegen/common/split_function.h"
#include "codegen/codegen.h"
#include "runtime/include/tilec/abi.h"

namespace tilec::codegen {

std::string EntrySymbol(const std::string& kernel_name) { return "tilec_kernel_" + kernel_name; }

namespace bs {

Emitter::Emitter(const ir::Module& m, llvm::Module& mod)
    : irm_(m), mod_(mod), ctx_(mod.getContext()), b_(mod.getContext()) {}

// One buffer above this size, or any once the stack frame holds this much, goes to the heap:
// worker threads have 8 MiB stacks, and the frame must leave room for what the kernel calls.
constexpr uint64_t kMaxStackBuffer = 256 << 10;
constexpr uint64_t kStackBudget = 1 << 20;

// Instructions of an outlined chunk of a large block program before optimization (about 50
// tile operations): O3 and instruction selection then cost the same per op at any kernel size.
constexpr size_t kHostChunk = 1000;

llvm::Value* Emitter::EntryAlloca(llvm::Type* t, const char* name, unsigned align) {
  uint64_t bytes = mod_.getDataLayout().getTypeAllocSize(t);
  if (bytes <= kMaxStackBuffer && stack_bytes_ + bytes <= kStackBudget) {
    stack_bytes_ += bytes;
    llvm::IRBuilder<> ab(entry_, entry_->begin());
    llvm::AllocaInst* a = ab.CreateAlloca(t, nullptr, name);
    a->setAlignment(llvm::Align(align));
    return a;
  }
  if (!heap_block_) {
    // After the allocas, so that they stay in the entry block when FinishHeapBlock splits it.
    llvm::IRBuilder<> ab(entry_, entry_->getFirstNonPHIOrDbgOrAlloca());
    llvm::FunctionCallee alloc = mod_.getOrInsertFunction(
        "aligned_alloc", llvm::FunctionType::get(b_.getPtrTy(), {b_.getInt64Ty(), b_.getInt64Ty()}, false));
    heap_block_ = ab.CreateCall(alloc, {I64(64), I64(0)}, "tiles.heap");
  }
  uint64_t at = (heap_bytes_ + 63) / 64 * 64;
  heap_bytes_ = at + bytes;
  llvm::IRBuilder<> ab(heap_block_->getNextNode());
  return ab.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), heap_block_, at, name);
}

// The heap block's final size, a trap where the host cannot give it (rather than run on a
// null buffer), and its release at the kernel's exit.
void Emitter::FinishHeapBlock() {
  if (!heap_block_) return;
  heap_block_->setArgOperand(1, I64(int64_t((heap_bytes_ + 63) / 64 * 64)));
  llvm::BasicBlock* rest = entry_->splitBasicBlock(heap_block_->getNextNode(), "tiles.ready");
  llvm::BasicBlock* fail = llvm::BasicBlock::Create(ctx_, "tiles.oom", fn_);
  entry_->getTerminator()->eraseFromParent();
  llvm::IRBuilder<> eb(entry_);
  eb.CreateCondBr(eb.CreateIsNull(heap_block_), fail, rest);
  llvm::IRBuilder<> fb(fail);
  fb.CreateCall(llvm::Intrinsic::getDeclaration(&mod_, llvm::Intrinsic::trap));
  fb.CreateUnreachable();
  llvm::FunctionCallee free_fn =
      mod_.getOrInsertFunction("free", llvm::FunctionType::get(b_.getVoidTy(), {b_.getPtrTy()}, false));
  b_.CreateCall(free_fn, {heap_block_});
}

llvm::Value* Emitter::Get(const ir::Value* v) {
  auto it = vals_.find(v);
  if (it == vals_.end()) return nullptr;
  if (!lane_buffers_.count(v)) return it->second;
  const ir::ElemType& e = v->type().elem;
  return FromMem(b_.CreateLoad(MemTy(e), TileElemPtr(it->second, e, lane_ ? lane_ : I64(0))), e);
}

const ArrayVal& Emitter::GetArray(const ir::Value* v) {
  // A view made in a loop over the lanes (or, varying, outside one) is remade where it is used.
  if (auto it = array_loop_.find(v); it != array_loop_.end() && it->second != lane_loop_ &&
                                     (it->second != -1 || v->lane_varying()))
    EmitArrayOp(*v->def());
  return arrays_.at(v);
}

void Emitter::EmitKernel(const ir::Function& f) {
  vals_.clear();
  lazy_.clear();
  arrays_.clear();
  matmul_sources_.clear();
  deferred_matmuls_.clear();
  deferred_copies_.clear();
  lane_buffers_.clear();
  array_loop_.clear();
  block_level_.clear();
  needs_loop_.clear();
  kernel_ = &f;
  lanes_ = NeedsLanes(f) ? Lanes() : 0;
  lane_ = nullptr;
  lane_loop_ = -1;
  lane_loops_ = 0;
  llvm::Type* ptr = b_.getPtrTy();
  llvm::Type* i64 = b_.getInt64Ty();
  auto* fty = llvm::FunctionType::get(b_.getVoidTy(), {ptr, ptr, i64, i64}, false);
  fn_ = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, EntrySymbol(f.name()), mod_);
  llvm::Value* args = fn_->getArg(0);
  llvm::Value* launch = fn_->getArg(1);
  fn_->getArg(0)->setName("args");
  fn_->getArg(1)->setName("launch");
  fn_->getArg(2)->setName("first");
  fn_->getArg(3)->setName("last");
  fn_->addFnAttr(llvm::Attribute::NoUnwind);

  entry_ = llvm::BasicBlock::Create(ctx_, "entry", fn_);
  heap_block_ = nullptr;
  heap_bytes_ = stack_bytes_ = 0;
  b_.SetInsertPoint(entry_);
  streamed_ = EntryAlloca(b_.getInt1Ty(), "streamed", 1);
  b_.CreateStore(b_.getFalse(), streamed_);
  // Parameters: args[i] points at a tilec_array, a scalar or a struct in C layout.
  const ir::Block* body = f.body();
  for (int i = 0; i < body->num_args(); ++i) {
    const ir::Value* p = body->arg(i);
    llvm::Value* slot = b_.CreateLoad(ptr, b_.CreateConstGEP1_64(ptr, args, i), p->name() + ".ptr");
    const ir::Type& t = p->type();
    if (t.is_array()) {
      ArrayVal a;
      a.data = b_.CreateLoad(ptr, slot, p->name() + ".data");
      for (int d = 0; d < t.ndim; ++d) {
        a.shape[d] = b_.CreateLoad(i64, b_.CreateConstGEP1_64(b_.getInt8Ty(), slot, offsetof(tilec_array, shape) + sizeof(int64_t) * d));
        a.strides[d] = b_.CreateLoad(i64, b_.CreateConstGEP1_64(b_.getInt8Ty(), slot, offsetof(tilec_array, strides) + sizeof(int64_t) * d));
      }
      arrays_[p] = a;
    } else {
      llvm::Value* v = b_.CreateLoad(MemTy(t.elem), slot, p->name());
      Set(p, FromMem(v, t.elem));
    }
  }
  for (int d = 0; d < ir::kMaxDims; ++d)
    launch_dims_[d] = b_.CreateLoad(
        i64, b_.CreateConstGEP1_64(b_.getInt8Ty(), launch, offsetof(tilec_launch, dim) + sizeof(int64_t) * d), "dim" + std::to_string(d));
  llvm::Value* sb = b_.CreateLoad(i64, b_.CreateConstGEP1_64(b_.getInt8Ty(), launch, offsetof(tilec_launch, stream_bytes)));
  stream_bytes_ = b_.CreateSelect(b_.CreateICmpEQ(sb, I64(0)), I64(TILEC_DEFAULT_STREAM_BYTES), sb, "stream.bytes");

  // for (linear = first; linear < last; ++linear) { block program }
  llvm::BasicBlock* header = llvm::BasicBlock::Create(ctx_, "grid.header", fn_);
  llvm::BasicBlock* prog = llvm::BasicBlock::Create(ctx_, "grid.body", fn_);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx_, "grid.exit", fn_);
  b_.CreateBr(header);
  b_.SetInsertPoint(header);
  llvm::PHINode* lin = b_.CreatePHI(i64, 2, "linear");
  lin->addIncoming(fn_->getArg(2), entry_);
  b_.CreateCondBr(b_.CreateICmpSLT(lin, fn_->getArg(3)), prog, exit);
  b_.SetInsertPoint(prog);
  linear_ = lin;
  EmitBlock(*body);
  // The increment has a block of its own, so that the body's only exit is this latch (the
  // region OutlineLoopBody moves out).
  llvm::BasicBlock* latch = llvm::BasicBlock::Create(ctx_, "grid.latch", fn_);
  b_.CreateBr(latch);
  b_.SetInsertPoint(latch);
  llvm::Value* next = b_.CreateAdd(lin, I64(1));
  lin->addIncoming(next, latch);
  b_.CreateBr(header);
  b_.SetInsertPoint(exit);
  // Streaming stores are weakly ordered: one fence after this worker's block programs, before
  // the launch's join publishes their results, orders them all (a fence per tile store would
  // stall every block program until its stores drained).
  llvm::BasicBlock* fence_bb = llvm::BasicBlock::Create(ctx_, "stream.fence", fn_);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx_, "grid.done", fn_);
  b_.CreateCondBr(b_.CreateLoad(b_.getInt1Ty(), streamed_), fence_bb, done);
  b_.SetInsertPoint(fence_bb);
  b_.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  FinishHeapBlock();
  b_.CreateRetVoid();
  OutlineLoopBody(*fn_, prog, latch, kHostChunk);
}

void Emitter::EmitBlock(const ir::Block& b) {
  // Inside a loop over the lanes, in a tile_map body, or in a kernel without per-lane work,
  // ops run where they are.
  const ir::Op* parent = b.parent_op();
  if (!lanes_ || lane_ || (parent && parent->code() == ir::OpCode::TileMap)) {
    for (auto& op : b.ops())
      if (!ir::IsTerminator(op->code())) EmitOp(*op);
    return;
  }
  // Once per block: each run of per-lane ops between cooperative ones becomes one loop.
  std::vector<const ir::Op*> run;
  for (auto& op : b.ops()) {
    if (ir::IsTerminator(op->code())) continue;
    if (!BlockLevel(*op)) {
      run.push_back(op.get());
      continue;
    }
    EmitLaneRun(run);
    run.clear();
    EmitOp(*op);
  }
  EmitLaneRun(run);
}

// ---------------------------------------------------------------- loops

void Emitter::EmitCountedLoop(llvm::Value* n, const std::function<void(llvm::Value*)>& body) {
  // Element counts are non-negative, so the index never wraps.
  codegen::EmitCountedLoop(b_, I64(0), n, {"tl", "e", /*signed_compare=*/false, /*no_wrap=*/true}, body);
}

void Emitter::EmitLoopNest(const ir::Type& tile,
                           const std::function<void(const std::vector<llvm::Value*>&, llvm::Value*)>& body) {
  std::vector<llvm::Value*> coords(tile.ndim);
  std::function<void(int, llvm::Value*)> level = [&](int d, llvm::Value* base) {
    EmitCountedLoop(I64(tile.shape[d]), [&](llvm::Value* c) {
      coords[d] = c;
      llvm::Value* lin = b_.CreateAdd(b_.CreateMul(base, I64(tile.shape[d]), "", true, true), c, "", true, true);
      if (d + 1 == tile.ndim) body(coords, lin);
      else level(d + 1, lin);
    });
  };
  level(0, I64(0));
}

}  // namespace bs

std::unique_ptr<llvm::Module> LowerBlockSerial(const ir::Module& m, llvm::LLVMContext& ctx, std::string& error) {
  auto mod = std::make_unique<llvm::Module>("tilec", ctx);
  bs::Emitter e(m, *mod);
  for (auto& f : m.functions()) e.EmitKernel(*f);
  std::string msg;
  llvm::raw_string_ostream os(msg);
  if (llvm::verifyModule(*mod, &os)) {
    error = "generated LLVM IR is invalid: " + os.str();
    return nullptr;
  }
  return mod;
}

}  // namespace tilec::codegen
