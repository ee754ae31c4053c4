// Kernels built by hand in Tile IR, compiled with the host JIT and run: checks the
// block-serial lowering independently of the frontend.
#include <gtest/gtest.h>

#include <cstdlib>

#include "codegen/codegen.h"
#include "codegen/nvptx/nvptx.h"
#include "codegen/simt/simt.h"
#include "ir/builder.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "tests/exec/built_jit.h"
#include "tests/exec/exec_util.h"
#include "tests/unit/ptx/ptxas.h"

namespace tilec {
namespace {

using ir::Type;
using testing::Launch;
using testing::View;
constexpr auto Jit = testing::JitBuilt;

// The spec's gather_even_rows, built directly.
TEST(HandBuilt, GatherEvenRows) {
  ir::Module m;
  ir::Builder b(m);
  ir::Function* f = m.AddFunction("gather_even_rows");
  f->tiled = true;
  ir::Value* x = f->AddParam("x", Type::Array(ir::ElemType::Of(ScalarType::Float32), 2));
  ir::Value* y = f->AddParam("y", Type::Array(ir::ElemType::Of(ScalarType::Float32), 2));
  b.SetInsertionPoint(f->body());
  ir::Value* rows = b.Binary(ir::OpCode::Mul, b.TileArange(ScalarType::Int32, 0, 1, 2), b.ConstInt(ScalarType::Int32, 2));
  ir::Value* zero = b.ConstInt(ScalarType::Int32, 0);
  ir::Value* t = b.TileLoadIndexed(x, rows, {2, 4}, {zero, zero}, 0);
  b.TileStore(y, t, {zero, zero});
  b.Return();
  auto jit = Jit(m);
  ASSERT_TRUE(jit);

  std::vector<float> xs(16), ys(8, -1.0f);
  for (int i = 0; i < 16; ++i) xs[i] = float(i + 1);
  tilec_array xa = View(xs.data(), {4, 4}), ya = View(ys.data(), {2, 4});
  Launch(jit->Lookup(codegen::EntrySymbol("gather_even_rows")), {&xa, &ya}, {1});
  std::vector<float> expect = {1, 2, 3, 4, 9, 10, 11, 12};
  EXPECT_EQ(ys, expect);
}

// A scalar loop with a carried value and an if: y[i] = sum_{k<i} k, or -1 for odd i.
TEST(HandBuilt, ScalarLoopAndBranch) {
  ir::Module m;
  ir::Builder b(m);
  ir::Function* f = m.AddFunction("tri");
  ir::Value* y = f->AddParam("y", Type::Array(ir::ElemType::Of(ScalarType::Int64), 1));
  b.SetInsertionPoint(f->body());
  ir::Value* i = b.Tid(1)[0];
  ir::Value* acc0 = b.ConstInt(ScalarType::Int64, 0);
  ir::Op* loop = b.For(b.ConstInt(ScalarType::Int32, 0), i, b.ConstInt(ScalarType::Int32, 1), {acc0});
  {
    ir::Builder::InsertionGuard g(b);
    b.SetInsertionPoint(loop->region(0));
    ir::Value* k = loop->region(0)->arg(0);
    b.Yield({b.Binary(ir::OpCode::Add, loop->region(0)->arg(1), b.Cast(k, ScalarType::Int64))});
  }
  ir::Value* odd = b.Cmp(ir::CmpPred::Eq, b.Binary(ir::OpCode::Mod, i, b.ConstInt(ScalarType::Int32, 2)),
                         b.ConstInt(ScalarType::Int32, 1));
  ir::Op* br = b.If(odd, {Type::Scalar(ScalarType::Int64)});
  {
    ir::Builder::InsertionGuard g(b);
    b.SetInsertionPoint(br->region(0));
    b.Yield({b.ConstInt(ScalarType::Int64, -1)});
    b.SetInsertionPoint(br->region(1));
    b.Yield({loop->result(0)});
  }
  b.ArrayStore(y, {i}, br->result(0));
  b.Return();
  auto jit = Jit(m);
  ASSERT_TRUE(jit);
  std::vector<int64_t> ys(10, 99);
  tilec_array ya = View(ys.data(), {10});
  Launch(jit->Lookup(codegen::EntrySymbol("tri")), {&ya}, {10});
  for (int k = 0; k < 10; ++k) EXPECT_EQ(ys[k], k % 2 ? -1 : int64_t(k) * (k - 1) / 2) << k;
}

}  // namespace
}  // namespace tilec
