// The Tile IR verifier on hand-made fragments: one well-formed kernel it accepts, and
// malformed ones it rejects, each with the message that names the problem.
#include <gtest/gtest.h>

#include "ir/builder.h"
#include "ir/passes/uniformity.h"
#include "ir/printer.h"
#include "ir/verifier.h"

namespace tilec::ir {
namespace {

ElemType F32() { return ElemType::Of(ScalarType::Float32); }

struct Fixture {
  Module m;
  Builder b{m};
  Function* f = nullptr;
  Value* x = nullptr;  // array2d<float32>
  Fixture() {
    f = m.AddFunction("k");
    x = f->AddParam("x", Type::Array(F32(), 2));
    b.SetInsertionPoint(f->body());
  }
  std::string Errors() {
    std::string all;
    for (const std::string& e : Verify(m)) all += e + "\n";
    return all;
  }
};

void ExpectError(Fixture& fx, const std::string& needle) {
  std::string errors = fx.Errors();
  EXPECT_NE(errors.find(needle), std::string::npos) << "expected `" << needle << "` in:\n" << errors
                                                    << ModuleToString(fx.m);
}

TEST(Verifier, AcceptsWellFormedKernel) {
  Fixture fx;
  Value* zero = fx.b.ConstInt(ScalarType::Int32, 0);
  Value* idx = fx.b.TileArange(ScalarType::Int32, 0, 2, 2);
  Value* t = fx.b.TileLoadIndexed(fx.x, idx, {2, 4}, {zero, zero}, 0);
  fx.b.TileStore(fx.x, fx.b.Binary(OpCode::Mul, t, fx.b.ConstFloat(ScalarType::Float32, 2.0)), {zero, zero});
  fx.b.Return();
  EXPECT_EQ(fx.Errors(), "");
}

TEST(Verifier, RejectsMissingReturn) {
  Fixture fx;
  fx.b.ConstInt(ScalarType::Int32, 0);
  ExpectError(fx, "the kernel body must end with `return`");
}

TEST(Verifier, RejectsOperandTypeMismatch) {
  Fixture fx;
  fx.b.Binary(OpCode::Add, fx.b.ConstInt(ScalarType::Int32, 1), fx.b.ConstFloat(ScalarType::Float32, 1.0));
  fx.b.Return();
  ExpectError(fx, "`add`: operands differ in element type: `int32` and `float32`");
}

TEST(Verifier, RejectsUseBeforeDefinition) {
  Fixture fx;
  Op* if_op = fx.b.If(fx.b.ConstBool(true), {});
  Value* inner;
  {
    Builder::InsertionGuard g(fx.b);
    fx.b.SetInsertionPoint(if_op->region(0));
    inner = fx.b.ConstInt(ScalarType::Int32, 3);
    fx.b.Yield({});
    fx.b.SetInsertionPoint(if_op->region(1));
    fx.b.Yield({});
  }
  fx.b.Binary(OpCode::Add, inner, inner);  // a value of the then-region used outside it
  fx.b.Return();
  ExpectError(fx, "operand 0 is not defined before this op in an enclosing block");
}

TEST(Verifier, RejectsIndexTileOfWrongLength) {
  Fixture fx;
  Value* zero = fx.b.ConstInt(ScalarType::Int32, 0);
  Value* idx = fx.b.TileArange(ScalarType::Int32, 0, 1, 3);
  fx.b.TileLoadIndexed(fx.x, idx, {2, 4}, {zero, zero}, 0);
  fx.b.Return();
  ExpectError(fx, "indices hold 3 values but the tile has extent 2 along axis 0");
}

TEST(Verifier, RejectsIndexTileOfWrongType) {
  Fixture fx;
  Value* zero = fx.b.ConstInt(ScalarType::Int32, 0);
  Value* idx = fx.b.TileArange(ScalarType::Float32, 0, 1, 2);
  fx.b.TileLoadIndexed(fx.x, idx, {2, 4}, {zero, zero}, 0);
  fx.b.Return();
  ExpectError(fx, "indices must be a 1-D tile of int32, found `tile<float32, 2>`");
}

TEST(Verifier, RejectsAxisOutOfRange) {
  Fixture fx;
  Value* zero = fx.b.ConstInt(ScalarType::Int32, 0);
  Value* idx = fx.b.TileArange(ScalarType::Int32, 0, 1, 2);
  fx.b.TileLoadIndexed(fx.x, idx, {2, 4}, {zero, zero}, 2);
  fx.b.Return();
  ExpectError(fx, "axis 2 is out of range for a 2-D tile");
}

TEST(Verifier, RejectsWrongOffsetCount) {
  Fixture fx;
  fx.b.TileLoad(fx.x, {2, 2}, {fx.b.ConstInt(ScalarType::Int32, 0)});
  fx.b.Return();
  ExpectError(fx, "expected 2 offsets (one per array dimension), found 1");
}

TEST(Verifier, RejectsNonAtomicElement) {
  Module m;
  Builder b(m);
  Function* f = m.AddFunction("k");
  Value* a = f->AddParam("a", Type::Array(ElemType::Of(ScalarType::Int8), 1));
  b.SetInsertionPoint(f->body());
  Value* zero = b.ConstInt(ScalarType::Int32, 0);
  Value* t = b.TileLoad(a, {4}, {zero});
  b.TileAtomicAdd(a, t, {zero});
  b.Return();
  std::string all;
  for (auto& e : Verify(m)) all += e;
  EXPECT_NE(all.find("atomic add needs int32, uint32, int64, uint64, float16, bfloat16, float32 or float64 elements, "
                     "found `int8`"),
            std::string::npos)
      << all;
}

TEST(Verifier, RejectsYieldCountMismatch) {
  Fixture fx;
  Op* if_op = fx.b.If(fx.b.ConstBool(true), {Type::Scalar(ScalarType::Int32)});
  {
    Builder::InsertionGuard g(fx.b);
    fx.b.SetInsertionPoint(if_op->region(0));
    fx.b.Yield({});
    fx.b.SetInsertionPoint(if_op->region(1));
    fx.b.Yield({fx.b.ConstInt(ScalarType::Int32, 1)});
  }
  fx.b.Return();
  ExpectError(fx, "0 values for the then region of `if`, expected 1");
}

TEST(Verifier, RejectsNonBoolCondition) {
  Fixture fx;
  Op* if_op = fx.b.If(fx.b.ConstInt(ScalarType::Int32, 1), {});
  {
    Builder::InsertionGuard g(fx.b);
    fx.b.SetInsertionPoint(if_op->region(0));
    fx.b.Yield({});
    fx.b.SetInsertionPoint(if_op->region(1));
    fx.b.Yield({});
  }
  fx.b.Return();
  ExpectError(fx, "`if`: condition must be `bool`, found `int32`");
}

TEST(Verifier, RejectsReturnInsideRegion) {
  Fixture fx;
  Op* loop = fx.b.For(fx.b.ConstInt(ScalarType::Int32, 0), fx.b.ConstInt(ScalarType::Int32, 4),
                      fx.b.ConstInt(ScalarType::Int32, 1), {});
  {
    Builder::InsertionGuard g(fx.b);
    fx.b.SetInsertionPoint(loop->region(0));
    fx.b.Return();
  }
  fx.b.Return();
  ExpectError(fx, "`return` may only end the kernel body, found it inside `for`");
}

TEST(Verifier, RejectsTerminatorInTheMiddle) {
  Fixture fx;
  fx.b.Return();
  fx.b.ConstInt(ScalarType::Int32, 0);
  fx.b.Return();
  ExpectError(fx, "a terminator must be the last op of its block");
}

TEST(Verifier, RejectsNonPositiveExtent) {
  Fixture fx;
  fx.b.TileFull(fx.b.ConstFloat(ScalarType::Float32, 0.0), {2, 0});
  fx.b.Return();
  ExpectError(fx, "has extent 0 in dimension 1, expected a positive extent");
}

TEST(Verifier, RejectsMathOnIntegers) {
  Fixture fx;
  fx.b.Unary(OpCode::Sqrt, fx.b.ConstInt(ScalarType::Int32, 4));
  fx.b.Return();
  ExpectError(fx, "`sqrt`: needs floating-point operands, found `int32`");
}

TEST(Verifier, RejectsSideEffectInTileMap) {
  Fixture fx;
  Value* t = fx.b.TileFull(fx.b.ConstFloat(ScalarType::Float32, 1.0), {4});
  Op* map = fx.b.TileMap({t}, F32());
  {
    Builder::InsertionGuard g(fx.b);
    fx.b.SetInsertionPoint(map->region(0));
    fx.b.Print({"", "\n"}, {map->region(0)->arg(0)});
    fx.b.Yield({map->region(0)->arg(0)});
  }
  fx.b.Return();
  ExpectError(fx, "a `tile_map` body may not have side effects");
}

TEST(Printer, PrintsKernel) {
  Fixture fx;
  Value* zero = fx.b.ConstInt(ScalarType::Int32, 0);
  Value* t = fx.b.TileLoad(fx.x, {2, 4}, {zero, zero}, Storage::Shared);
  fx.b.TileStore(fx.x, t, {zero, zero});
  fx.b.Return();
  EXPECT_EQ(ModuleToString(fx.m),
            "kernel @k(%x: array2d<float32>) {\n"
            "  %0 = const 0 : int32\n"
            "  %1 = tile_load %x, %0, %0 : tile<float32, 2x4, shared>\n"
            "  tile_store %x, %1, %0, %0\n"
            "  return\n"
            "}\n");
}

}  // namespace
}  // namespace tilec::ir

namespace tilec::ir {
namespace {

// A tile load and store in the then-branch of `if X < 1`, X the lane (some lanes would skip a
// cooperative op) or the block index (all lanes of a block take the same branch).
void BuildLoadUnderCondition(Fixture& fx, bool on_lane, bool analyze) {
  Value* zero = fx.b.ConstInt(ScalarType::Int32, 0);
  Value* x = on_lane ? fx.b.LaneId() : fx.b.Tid(1)[0];
  Value* cond = fx.b.Cmp(CmpPred::Lt, x, fx.b.ConstInt(ScalarType::Int32, 1));
  Op* branch = fx.b.If(cond, {});
  {
    Builder::InsertionGuard g(fx.b);
    fx.b.SetInsertionPoint(branch->region(0));
    fx.b.TileStore(fx.x, fx.b.TileLoad(fx.x, {2, 4}, {zero, zero}), {zero, zero});
    fx.b.Yield({});
    fx.b.SetInsertionPoint(branch->region(1));
    fx.b.Yield({});
  }
  fx.b.Return();
  if (analyze) AnalyzeUniformity(*fx.f);
}

TEST(VerifierUniformity, RejectsCooperativeOpUnderLaneVaryingControl) {
  Fixture fx;
  BuildLoadUnderCondition(fx, true, true);
  ExpectError(fx, "`tile_load`: a cooperative tile operation under lane-varying control flow");
  ExpectError(fx, "`tile_store`: a cooperative tile operation under lane-varying control flow");
}

TEST(VerifierUniformity, AcceptsTheSameUnderUniformControl) {
  Fixture fx;
  BuildLoadUnderCondition(fx, false, true);
  EXPECT_EQ(fx.Errors(), "");
}

TEST(VerifierUniformity, MarksComeFromTheAnalysis) {
  Fixture fx;
  BuildLoadUnderCondition(fx, true, false);
  EXPECT_EQ(fx.Errors(), "") << "before the analysis every value is uniform";
  AnalyzeUniformity(*fx.f);
  EXPECT_NE(fx.Errors(), "");
}

}  // namespace
}  // namespace tilec::ir
