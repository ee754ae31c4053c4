// Kernels of hundreds of tile operations, which the lowerings outline into chained chunk
// functions (codegen/common/split_function.h): values, tiles and sums that cross the cuts must
// arrive intact, with tiles on the stack or in the heap block. The reference replays the same
// integer arithmetic (wrapping int32) in the test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>

#include "codegen/codegen.h"
#include "codegen/common/split_function.h"
#include "compiler/compiler.h"
#include "compiler/pipeline.h"
#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

constexpr int kTile = 64;
// Tiles of 4 KiB: the kernel's tiles outgrow the host's 1 MiB stack budget, and the rest are
// offsets into one heap block.
constexpr int kHeapTile = 1024;
constexpr int kSteps = 160;  // 5 tile operations each: 800 in all

// One step k of the kernel and of the reference: a load at a shifted offset, a gather through
// the index tile, arithmetic on the running tile, and every 8th step a sum stored to `z`.
std::string KernelSource(int tile = kTile) {
  std::string body;
  for (int k = 0; k < kSteps; ++k) {
    body += "    a = wp.tile_load(x, shape=T, offset=i * T + " + std::to_string(k % 13) + ")\n";
    body += "    g = wp.tile_load_indexed(x, indices=idx, shape=(T,), axis=0)\n";
    body += "    t = t * " + std::to_string(3 + k % 5) + " + a - g\n";
    if (k % 8 == 7) body += "    wp.tile_store(z, wp.tile_sum(t), offset=i * NS + " + std::to_string(k / 8) + ")\n";
  }
  return "T = " + std::to_string(tile) + "\nNS = " + std::to_string(kSteps / 8) + R"(


@wp.kernel(enable_backward=False)
def big(x: wp.array[wp.int32], ids: wp.array[wp.int32], y: wp.array[wp.int32], z: wp.array[wp.int32]):
    i = wp.tid()
    idx = wp.tile_load(ids, shape=T, offset=i * T)
    t = wp.tile_load(x, shape=T, offset=i * T)
)" + body + "    wp.tile_store(y, t, offset=i * T)\n";
}

// CompileText without its GPU checks (ptxas, emulation, recording): the heap block is the host
// lowering's, and ptxas alone takes minutes over 800 ops of 1,024-element tiles.
testing::Compiled CompileForHost(const std::string& text) {
  testing::Compiled c;
  c.file = std::make_unique<SourceFile>("test.tile", "import warp as wp\n" + text);
  diag::DiagnosticEngine diags;
  compiler::InternalError ice;
  c.module = compiler::CompileSource(*c.file, diags, {}, ice);
  EXPECT_TRUE(c.module.has_value()) << ice.message;
  return c;
}

// Runs the kernel with tiles of `tile` elements against the replay, at several block sizes.
void CheckAgainstReplay(int tile) {
  auto c = tile == kTile ? CompileText(KernelSource(tile)) : CompileForHost(KernelSource(tile));
  ASSERT_TRUE(c.module);
  const int blocks = 3, n = blocks * tile + 16;
  std::vector<int32_t> x(static_cast<size_t>(n)), ids(static_cast<size_t>(blocks * tile));
  for (int e = 0; e < n; ++e) x[size_t(e)] = int32_t((e * 37) % 101) - 50;
  for (int e = 0; e < blocks * tile; ++e) ids[size_t(e)] = int32_t((e * 11 + 5) % n);
  // Wrapping int32 arithmetic, as the kernel's.
  auto wrap = [](int64_t v) { return int32_t(uint32_t(uint64_t(v))); };
  std::vector<int32_t> ry(static_cast<size_t>(blocks * tile)), rz(static_cast<size_t>(blocks * (kSteps / 8)));
  for (int b = 0; b < blocks; ++b) {
    std::vector<int32_t> t(tile);
    for (int e = 0; e < tile; ++e) t[size_t(e)] = x[size_t(b * tile + e)];
    for (int k = 0; k < kSteps; ++k) {
      for (int e = 0; e < tile; ++e) {
        const int64_t a = x[size_t(b * tile + k % 13 + e)], g = x[size_t(ids[size_t(b * tile + e)])];
        t[size_t(e)] = wrap(int64_t(wrap(int64_t(wrap(int64_t(t[size_t(e)]) * (3 + k % 5))) + a)) - g);
      }
      if (k % 8 == 7) {
        int64_t s = 0;
        for (int32_t v : t) s = wrap(s + v);
        rz[size_t(b * (kSteps / 8) + k / 8)] = int32_t(s);
      }
    }
    for (int e = 0; e < tile; ++e) ry[size_t(b * tile + e)] = t[size_t(e)];
  }
  for (int bd : {1, 32, 64}) {
    std::vector<int32_t> y(ry.size(), -1), z(rz.size(), -1);
    tilec_array xa = View(x.data(), {n}), ia = View(ids.data(), {blocks * tile}), ya = View(y.data(), {int64_t(y.size())}),
                za = View(z.data(), {int64_t(z.size())});
    Launch(c.Entry("big"), {&xa, &ia, &ya, &za}, {blocks}, bd);
    EXPECT_EQ(y, ry) << "block_dim " << bd;
    EXPECT_EQ(z, rz) << "block_dim " << bd;
  }
}

TEST(LargeKernel, ValuesCrossTheOutlinedChunks) { CheckAgainstReplay(kTile); }

TEST(LargeKernel, HeapTilesCrossTheOutlinedChunks) { CheckAgainstReplay(kHeapTile); }

// Unoptimized host code of the kernel with tiles of `tile` elements.
std::string HostIr(int tile) {
  SourceFile file("big.tile", KernelSource(tile));
  auto r = compiler::Run(file, compiler::PipelineOptions{}, compiler::Stage::TileIr);
  EXPECT_TRUE(r.ok() && r.ir);
  if (!r.ok() || !r.ir) return "";
  std::string text, error;
  codegen::HostOptions opts;
  opts.optimize = false;
  EXPECT_TRUE(codegen::EmitLlvmIr(*r.ir, text, error, opts)) << error;
  return text;
}

// The split happens (else the test above would not reach the outlined code): the host code of
// this kernel holds chunk functions.
TEST(LargeKernel, HostCodeIsOutlinedInChunks) {
  std::string text = HostIr(kTile);
  EXPECT_NE(text.find("define internal void @tilec_kernel_big.program("), std::string::npos);
  EXPECT_NE(text.find("@tilec_kernel_big.program.chunk"), std::string::npos);
}

// Heap tiles reach the block program and its chunks as offsets from the heap block's base, not
// one argument each: passed one by one, every chunk also carried the tiles of the chunks after
// it, and compile time grew with the square of the kernel's size.
TEST(LargeKernel, HeapTilesDoNotBecomeChunkArguments) {
  std::string text = HostIr(kHeapTile);
  ASSERT_NE(text.find("%tiles.heap = call ptr @aligned_alloc"), std::string::npos);
  size_t functions = 0;
  for (size_t at = text.find("define internal void @tilec_kernel_big.program"); at != std::string::npos;
       at = text.find("define internal void @tilec_kernel_big.program", at + 1)) {
    const std::string head = text.substr(at, text.find('\n', at) - at);
    EXPECT_LE(std::count(head.begin(), head.end(), ','), 48) << head.substr(0, 200);
    ++functions;
  }
  EXPECT_GT(functions, 2u);
}


// A stack slot whose address leaves the chunk that fills it (a select of it and an array, as a
// matmul factor read in place or copied, read in the next chunk) stays in the caller's frame:
// a chunk's frame ends with its call, so the reader would read freed stack.
TEST(LargeKernel, SlotWhoseAddressLeavesItsChunkStaysInTheCaller) {
  llvm::LLVMContext ctx;
  llvm::Module m("split", ctx);
  llvm::Type* f32 = llvm::Type::getFloatTy(ctx);
  llvm::Type* ptr = llvm::PointerType::get(ctx, 0);
  llvm::Type* i1 = llvm::Type::getInt1Ty(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  auto* f = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr, ptr, i1, i64}, false),
                                   llvm::Function::ExternalLinkage, "k", m);
  llvm::Value* array = f->getArg(0);
  llvm::Value* out = f->getArg(1);
  llvm::Value* in_place = f->getArg(2);
  llvm::Value* base = f->getArg(3);  // indices unknown to SROA, which would split the slot
  auto* entry = llvm::BasicBlock::Create(ctx, "entry", f);
  auto* fill = llvm::BasicBlock::Create(ctx, "fill", f);
  auto* use = llvm::BasicBlock::Create(ctx, "use", f);
  llvm::IRBuilder<> b(entry);
  constexpr int kElems = 256;
  llvm::AllocaInst* slot = b.CreateAlloca(llvm::ArrayType::get(f32, kElems), nullptr, "copy");
  b.CreateBr(fill);
  b.SetInsertPoint(fill);  // the copy
  auto index = [&](int i) { return b.CreateAdd(base, b.getInt64(i)); };
  for (int i = 0; i < kElems; ++i) {
    llvm::Value* src = b.CreateLoad(f32, b.CreateGEP(f32, array, index(i)));
    b.CreateStore(src, b.CreateGEP(slot->getAllocatedType(), slot, {b.getInt64(0), index(i)}));
  }
  llvm::Value* factor = b.CreateSelect(in_place, array, slot, "factor");
  b.CreateBr(use);
  b.SetInsertPoint(use);  // the reader, in the next chunk
  llvm::Value* sum = llvm::ConstantFP::get(f32, 0.0);
  for (int i = 0; i < kElems; ++i)
    sum = b.CreateFAdd(sum, b.CreateLoad(f32, b.CreateGEP(f32, factor, index(i))));
  b.CreateStore(sum, out);
  b.CreateRetVoid();

  const auto chunks = codegen::SplitLargeFunction(*f, 400);
  ASSERT_EQ(chunks.size(), 1u) << "expected the copy outlined, its reader left in the caller";
  ASSERT_FALSE(llvm::verifyModule(m, &llvm::errs()));
  const llvm::Function* home = nullptr;
  for (const llvm::Function& g : m)
    for (const llvm::BasicBlock& bb : g)
      for (const llvm::Instruction& i : bb)
        if (auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i); a && a->getAllocatedType()->isArrayTy()) home = &g;
  ASSERT_NE(home, nullptr);
  EXPECT_EQ(home, f) << "the slot moved into " << home->getName().str();
}

}  // namespace
}  // namespace tilec
