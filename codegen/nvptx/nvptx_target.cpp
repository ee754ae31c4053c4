// The NVPTX implementation of the SIMT target interface: PTX_Kernel entries with by-value
// parameters (.param aggregates for arrays, structs and the launch record), lane and block
// ids from special registers, bar.sync, dynamic shared memory, and atomics: `red` inline
// PTX where the previous value is unused, `atomicrmw` (LLVM emits `atom`, or a CAS loop for
// bfloat16 below sm_90) where it is used.
#include <cstddef>

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include "codegen/codegen.h"
#include "codegen/simt/target.h"
#include "runtime/include/tilec/abi.h"

namespace tilec::codegen::simt {

namespace {

static_assert(offsetof(tilec_array, data) == 0 && offsetof(tilec_array, grad) == 8 &&
                  offsetof(tilec_array, shape) == 16 && offsetof(tilec_array, strides) == 16 + 8 * TILEC_MAX_DIMS &&
                  sizeof(tilec_array) == 16 + 16 * TILEC_MAX_DIMS,
              "the PTX array parameter type no longer matches tilec_array");
static_assert(offsetof(tilec_launch, dim) == 0 && offsetof(tilec_launch, ndim) == 8 * TILEC_MAX_DIMS &&
                  offsetof(tilec_launch, block_dim) == 8 * TILEC_MAX_DIMS + 4 &&
                  offsetof(tilec_launch, error) == 8 * TILEC_MAX_DIMS + 8 &&
                  offsetof(tilec_launch, order) == 8 * TILEC_MAX_DIMS + 16 &&
                  offsetof(tilec_launch, stream_bytes) == 8 * TILEC_MAX_DIMS + 24 &&
                  sizeof(tilec_launch) == 8 * TILEC_MAX_DIMS + 32,
              "the PTX launch parameter type no longer matches tilec_launch");

class NvptxTarget : public Target {
 public:
  explicit NvptxTarget(int sm) : sm_(sm) {}

  KernelFrame BeginKernel(const ir::Function& f, llvm::Module& mod, bs::Emitter& types, const Plan&,
                          int block_dim) override {
    llvm::LLVMContext& ctx = mod.getContext();
    llvm::IRBuilder<>& b = types.b();
    llvm::Type* i64 = b.getInt64Ty();
    llvm::Type* ptr = b.getPtrTy();
    // The .param aggregates mirror abi.h field by field (checked below, next to the types).
    auto* dims_ty = llvm::ArrayType::get(i64, TILEC_MAX_DIMS);
    auto* array_ty = llvm::StructType::get(ctx, {ptr, ptr, dims_ty, dims_ty});
    auto* launch_ty = llvm::StructType::get(ctx, {dims_ty, b.getInt32Ty(), b.getInt32Ty(), ptr, ptr, i64});
    std::vector<llvm::Type*> params;
    std::vector<llvm::Type*> byval;  // null: passed as a plain value
    std::vector<unsigned> aligns;
    for (int i = 0; i < f.body()->num_args(); ++i) {
      const ir::Type& t = f.body()->arg(i)->type();
      if (t.is_array()) {
        params.push_back(ptr);
        byval.push_back(array_ty);
        aligns.push_back(8);
      } else if (t.is_struct()) {
        params.push_back(ptr);
        byval.push_back(types.MemTy(t.elem));
        aligns.push_back(types.irm().structs()[size_t(t.elem.struct_index)].align);
      } else {
        params.push_back(types.MemTy(t.elem));
        byval.push_back(nullptr);
        aligns.push_back(0);
      }
    }
    // An adjoint entry takes one 64-bit adjoint-slot pointer per parameter (signature.h).
    if (!f.adjoint_of.empty())
      for (int i = 0; i < f.body()->num_args(); ++i) {
        params.push_back(i64);
        byval.push_back(nullptr);
        aligns.push_back(0);
      }
    params.push_back(ptr);
    byval.push_back(launch_ty);
    aligns.push_back(8);
    auto* fn = llvm::Function::Create(llvm::FunctionType::get(b.getVoidTy(), params, false),
                                      llvm::GlobalValue::ExternalLinkage, EntrySymbol(f.name()), mod);
    fn->setCallingConv(llvm::CallingConv::PTX_Kernel);
    fn->addFnAttr(llvm::Attribute::NoUnwind);
    for (size_t i = 0; i < params.size(); ++i)
      if (byval[i]) {
        fn->addParamAttr(unsigned(i), llvm::Attribute::getWithByValType(ctx, byval[i]));
        fn->addParamAttr(unsigned(i), llvm::Attribute::getWithAlignment(ctx, llvm::Align(std::max(1u, aligns[i]))));
      }
    b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", fn));

    KernelFrame frame;
    frame.fn = fn;
    for (int i = 0; i < f.body()->num_args(); ++i) {
      frame.params.push_back(fn->getArg(unsigned(i)));
      frame.by_value.push_back(byval[size_t(i)] == nullptr);
    }
    frame.launch = fn->getArg(unsigned(params.size() - 1));
    auto sreg = [&](llvm::Intrinsic::ID id) { return b.CreateZExt(b.CreateIntrinsic(id, {}, {}), i64); };
    llvm::Value* tid = sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x);
    if (f.tiled) {
      // A tiled launch runs exactly block_dim threads a block (the runtime checks it), so the
      // lane is below it: LLVM then folds each slot's lane + k * block_dim into known row and
      // column parts instead of keeping one address per slot live across the grid loop.
      auto* call = llvm::cast<llvm::CallInst>(llvm::cast<llvm::ZExtInst>(tid)->getOperand(0));
      call->addRangeRetAttr(llvm::ConstantRange(llvm::APInt(32, 0), llvm::APInt(32, uint64_t(block_dim))));
    }
    llvm::Value* ctaid = sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x);
    llvm::Value* nctaid = sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x);
    llvm::Value* total = b.getInt64(1);
    for (int d = 0; d < ir::kMaxDims; ++d)
      total = b.CreateMul(total, b.CreateLoad(i64, b.CreateConstGEP1_64(b.getInt8Ty(), frame.launch,
                                                                        offsetof(tilec_launch, dim) + sizeof(int64_t) * d)));
    frame.end = total;
    if (f.tiled) {
      // One block program per CTA at a time; CTAs stride over the programs.
      lane_ = tid;
      frame.first = ctaid;
      frame.step = nctaid;
    } else {
      // A plain launch: every thread is its own program (one lane).
      llvm::Value* ntid = sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x);
      lane_ = b.getInt64(0);
      frame.first = b.CreateAdd(b.CreateMul(ctaid, ntid), tid);
      frame.step = b.CreateMul(nctaid, ntid);
    }
    // Dynamic shared memory; the runtime passes KernelSignature::shared_bytes at launch.
    smem_ = mod.getNamedGlobal("tilec_smem");
    if (!smem_) {
      auto* ty = llvm::ArrayType::get(b.getInt8Ty(), 0);
      auto* g = new llvm::GlobalVariable(mod, ty, false, llvm::GlobalValue::ExternalLinkage, nullptr, "tilec_smem",
                                         nullptr, llvm::GlobalValue::NotThreadLocal, 3);
      g->setAlignment(llvm::Align(16));
      smem_ = g;
    }
    return frame;
  }

  void EndKernel(llvm::IRBuilder<>& b) override { b.CreateRetVoid(); }
  llvm::Value* LaneId() override { return lane_; }
  llvm::Value* SharedBase() override { return smem_; }
  void Barrier(llvm::IRBuilder<>& b) override { b.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {}); }
  void DeviceFence(llvm::IRBuilder<>& b) override { b.CreateIntrinsic(llvm::Intrinsic::nvvm_membar_gl, {}, {}); }
  llvm::Value* GlobalPtr(llvm::IRBuilder<>& b, llvm::Value* generic) override {
    return b.CreateAddrSpaceCast(generic, b.getPtrTy(1));
  }

  llvm::Value* AtomicAdd(bs::Emitter& e, llvm::Value* ptr, llvm::Value* v, ScalarType t, bool used) override {
    llvm::IRBuilder<>& b = e.b();
    if (!used) {
      // The previous value is not needed: a reduction, which does not return it.
      const char* suffix = nullptr;
      const char* reg = nullptr;
      switch (t) {
        case ScalarType::Int32: case ScalarType::UInt32: suffix = "u32"; reg = "r"; break;
        case ScalarType::Int64: case ScalarType::UInt64: suffix = "u64"; reg = "l"; break;
        case ScalarType::Float32: suffix = "f32"; reg = "f"; break;
        case ScalarType::Float64: suffix = "f64"; reg = "d"; break;
        case ScalarType::Float16: suffix = "noftz.f16"; reg = "h"; break;
        case ScalarType::BFloat16:
          if (sm_ >= 90) {
            suffix = "noftz.bf16";
            reg = "h";
          }
          break;
        // No reduction instruction: the atomic below.
        case ScalarType::Bool: case ScalarType::Int8: case ScalarType::Int16: case ScalarType::UInt8:
        case ScalarType::UInt16:
          break;
      }
      if (suffix) {
        auto* fty = llvm::FunctionType::get(b.getVoidTy(), {ptr->getType(), v->getType()}, false);
        std::string text = std::string("red.global.add.") + suffix + " [$0], $1;";
        std::string cons = std::string("l,") + reg + ",~{memory}";
        b.CreateCall(llvm::InlineAsm::get(fty, text, cons, true), {ptr, v});
        return nullptr;
      }
    }
    auto order = llvm::AtomicOrdering::Monotonic;
    if (t == ScalarType::Float16 || t == ScalarType::BFloat16) {
      llvm::Type* ft = t == ScalarType::Float16 ? b.getHalfTy() : b.getBFloatTy();
      llvm::Value* old = b.CreateAtomicRMW(llvm::AtomicRMWInst::FAdd, ptr, b.CreateBitCast(v, ft), llvm::MaybeAlign(2), order);
      return b.CreateBitCast(old, b.getInt16Ty());
    }
    if (t == ScalarType::Bool) {
      llvm::Value* r = b.CreateAtomicRMW(llvm::AtomicRMWInst::Or, ptr, e.ToMem(v, ir::ElemType::Of(t)), llvm::MaybeAlign(1), order);
      return e.FromMem(r, ir::ElemType::Of(t));
    }
    auto op = IsFloat(t) ? llvm::AtomicRMWInst::FAdd : llvm::AtomicRMWInst::Add;
    return b.CreateAtomicRMW(op, ptr, v, llvm::MaybeAlign(ScalarSize(t)), order);
  }

  MmaSupport Mma() const override { return NvptxMmaSupport(sm_); }

  std::vector<llvm::Value*> LdMatrix(llvm::IRBuilder<>& b, llvm::Value* row, int count, bool trans) override {
    llvm::Intrinsic::ID id = llvm::Intrinsic::not_intrinsic;
    switch (count) {
      case 1: id = trans ? llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x1_trans_b16
                         : llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x1_b16; break;
      case 2: id = trans ? llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x2_trans_b16
                         : llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x2_b16; break;
      case 4: id = trans ? llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x4_trans_b16
                         : llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x4_b16; break;
    }
    // Overloaded on the pointer: a shared-space address gives ldmatrix.shared.
    llvm::Value* r = b.CreateIntrinsic(id, {row->getType()}, {row});
    if (count == 1) return {r};
    std::vector<llvm::Value*> out;
    for (int i = 0; i < count; ++i) out.push_back(b.CreateExtractValue(r, {unsigned(i)}));
    return out;
  }

  std::vector<llvm::Value*> MmaSync(llvm::IRBuilder<>& b, ScalarType factors, const std::vector<llvm::Value*>& a,
                                    const std::vector<llvm::Value*>& bm, const std::vector<llvm::Value*>& c) override {
    llvm::Intrinsic::ID id = factors == ScalarType::BFloat16  ? llvm::Intrinsic::nvvm_mma_m16n8k16_row_col_bf16
                             : factors == ScalarType::Float32 ? llvm::Intrinsic::nvvm_mma_m16n8k8_row_col_tf32
                                                              : llvm::Intrinsic::nvvm_mma_m16n8k16_row_col_f32_f32;
    // (LLVM names f16 mma by the types of d and c: f32_f32 is float d and c.)
    llvm::Function* fn = llvm::Intrinsic::getDeclaration(b.GetInsertBlock()->getModule(), id);
    llvm::FunctionType* ft = fn->getFunctionType();
    std::vector<llvm::Value*> args;
    for (llvm::Value* v : a) args.push_back(v);
    for (llvm::Value* v : bm) args.push_back(v);
    for (llvm::Value* v : c) args.push_back(v);
    // The intrinsic types the 16-bit pairs as <2 x half> (float16) or i32 (bfloat16).
    for (size_t i = 0; i < args.size(); ++i) args[i] = b.CreateBitCast(args[i], ft->getParamType(unsigned(i)));
    llvm::Value* r = b.CreateCall(fn, args);
    std::vector<llvm::Value*> d;
    for (unsigned i = 0; i < 4; ++i) d.push_back(b.CreateExtractValue(r, {i}));
    return d;
  }

  llvm::Value* ToTf32(llvm::IRBuilder<>& b, llvm::Value* f) override {
    return b.CreateIntrinsic(llvm::Intrinsic::nvvm_f2tf32_rna, {}, {f});
  }

  // vprintf(format, packed arguments), each argument at its natural alignment.
  void Printf(llvm::IRBuilder<>& b, llvm::Module& mod, const std::string& fmt,
              const std::vector<llvm::Value*>& args) override {
    llvm::FunctionCallee vprintf = mod.getOrInsertFunction(
        "vprintf", llvm::FunctionType::get(b.getInt32Ty(), {b.getPtrTy(), b.getPtrTy()}, false));
    llvm::Value* buf = llvm::ConstantPointerNull::get(b.getPtrTy());
    if (!args.empty()) {
      std::vector<llvm::Type*> tys;
      for (llvm::Value* a : args) tys.push_back(a->getType());
      auto* st = llvm::StructType::get(mod.getContext(), tys);
      llvm::Function* fn = b.GetInsertBlock()->getParent();
      llvm::IRBuilder<> ab(&fn->getEntryBlock(), fn->getEntryBlock().begin());
      buf = ab.CreateAlloca(st);
      for (size_t i = 0; i < args.size(); ++i) b.CreateStore(args[i], b.CreateStructGEP(st, buf, unsigned(i)));
    }
    b.CreateCall(vprintf, {b.CreateGlobalStringPtr(fmt), buf});
  }

 private:
  int sm_;
  llvm::Value* lane_ = nullptr;
  llvm::Value* smem_ = nullptr;
};

}  // namespace

std::unique_ptr<Target> CreateNvptxTarget(int sm) { return std::make_unique<NvptxTarget>(sm); }

}  // namespace tilec::codegen::simt
