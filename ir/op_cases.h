// The ops of each family as case labels, for every stage's switches over OpCode. A stage
// names the ops it handles one by one and the families it does not handle through these
// lists, with no `default:`, so that -Werror=switch turns a new op into a compile error in
// every stage that splits its family. The lists are checked against ops.def below: a new op that is
// missing from its family's list fails here first, once for all emitters.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "ir/ir.h"

#define TILEC_OPS_Constant(X) X(Const)
#define TILEC_OPS_Tid(X) X(Tid) X(LaneId) X(BlockDim)
#define TILEC_OPS_Select(X) X(Select)
#define TILEC_OPS_Elementwise(X)                                                                   \
  X(Cast) X(Add) X(Sub) X(Mul) X(Div) X(FloorDiv) X(Mod) X(Pow) X(Min) X(Max) X(BitAnd) X(BitOr) \
  X(BitXor) X(Shl) X(Shr) X(Neg) X(BitNot) X(Not) X(Abs) X(Sqrt) X(Exp) X(Log) X(Sin) X(Cos)     \
  X(Floor) X(Ceil) X(Clamp) TILEC_OPS_FloatMath(X)
// The Elementwise ops of Warp's wider float math (ops.def), which most stages treat alike.
#define TILEC_OPS_FloatMath(X) \
  X(Tan) X(Asin) X(Acos) X(Atan) X(Sinh) X(Cosh) X(Tanh) X(Log2) X(Log10) X(Exp2) X(Cbrt) X(Erf) X(Erfc) X(Round) X(Rint) \
  X(Trunc) X(Atan2) X(Copysign) X(Fma)
#define TILEC_OPS_Compare(X) X(Cmp)
#define TILEC_OPS_Logic(X) X(And) X(Or)
#define TILEC_OPS_Array(X) X(ArrayLoad) X(ArrayStore) X(AtomicAdd) X(AtomicRmw) X(ArrayDim) X(ArrayGrad) X(ArraySlice) X(ArrayView)
#define TILEC_OPS_Struct(X) X(FieldGet) X(FieldSet)
#define TILEC_OPS_TileBuild(X) X(TileFull) X(TileArange)
#define TILEC_OPS_TileMap(X) X(TileMap)
#define TILEC_OPS_TileReduce(X) X(TileSum) X(TileReduce)
#define TILEC_OPS_TileScan(X) X(TileScan)
#define TILEC_OPS_TileSort(X) X(TileSort)
#define TILEC_OPS_TileMatmul(X) X(TileMatmul) X(TileDiagAdd) X(TileCholesky) X(TileLowerSolve) X(TileUpperSolve) X(TileTril) X(TileFft)
#define TILEC_OPS_TileShape(X) X(TileBroadcast) X(TileReshape) X(TilePermute)
#define TILEC_OPS_TileElement(X) \
  X(TileExtract) X(TileInsert) X(TileView) X(TileAssign) X(TileGather) X(TileScatterAdd) X(TileScatterLanes)
#define TILEC_OPS_TileMemory(X) \
  X(TileLoad) X(TileStore) X(TileAtomicAdd) X(TileLoadIndexed) X(TileStoreIndexed) X(TileAtomicAddIndexed)
#define TILEC_OPS_Print(X) X(Print) X(Assert)
#define TILEC_OPS_Control(X) X(If) X(For) X(While)
#define TILEC_OPS_Terminator(X) X(Yield) X(Condition) X(Return)

#define TILEC_OP_CASE(name) case ::tilec::ir::OpCode::name:
// `TILEC_CASES(Array)`: a case label for every op of the family.
#define TILEC_CASES(family) TILEC_OPS_##family(TILEC_OP_CASE)

namespace tilec::ir::op_cases {

inline constexpr ir::OpFamily kFamilyOf[] = {
#define OP(name, spelling, family, ...) ir::OpFamily::family,
#include "ir/ops.def"
#undef OP
};

constexpr bool ListIsFamily(ir::OpFamily f, std::initializer_list<ir::OpCode> ops) {
  int declared = 0;
  for (ir::OpFamily g : kFamilyOf) declared += g == f;
  int listed = 0;
  for (ir::OpCode c : ops) {
    if (kFamilyOf[int(c)] != f) return false;
    ++listed;
  }
  return listed == declared;
}

#define TILEC_OP_ITEM(name) ::tilec::ir::OpCode::name,
#define TILEC_CHECK_FAMILY(family)                                                      \
  static_assert(ListIsFamily(ir::OpFamily::family, {TILEC_OPS_##family(TILEC_OP_ITEM)}), \
                "TILEC_OPS_" #family " in ir/op_cases.h must list exactly the " #family " ops of ops.def")
TILEC_CHECK_FAMILY(Constant);
TILEC_CHECK_FAMILY(Tid);
TILEC_CHECK_FAMILY(Select);
TILEC_CHECK_FAMILY(Elementwise);
TILEC_CHECK_FAMILY(Compare);
TILEC_CHECK_FAMILY(Logic);
TILEC_CHECK_FAMILY(Array);
TILEC_CHECK_FAMILY(Struct);
TILEC_CHECK_FAMILY(TileBuild);
TILEC_CHECK_FAMILY(TileMap);
TILEC_CHECK_FAMILY(TileReduce);
TILEC_CHECK_FAMILY(TileScan);
TILEC_CHECK_FAMILY(TileSort);
TILEC_CHECK_FAMILY(TileMatmul);
TILEC_CHECK_FAMILY(TileShape);
TILEC_CHECK_FAMILY(TileElement);
TILEC_CHECK_FAMILY(TileMemory);
TILEC_CHECK_FAMILY(Print);
TILEC_CHECK_FAMILY(Control);
TILEC_CHECK_FAMILY(Terminator);
#define TILEC_OP_ONE(name) +1
// Every family has a list: together they hold every op.
static_assert(0 TILEC_OPS_Constant(TILEC_OP_ONE) TILEC_OPS_Tid(TILEC_OP_ONE) TILEC_OPS_Select(TILEC_OP_ONE)
              TILEC_OPS_Elementwise(TILEC_OP_ONE) TILEC_OPS_Compare(TILEC_OP_ONE) TILEC_OPS_Logic(TILEC_OP_ONE)
              TILEC_OPS_Array(TILEC_OP_ONE) TILEC_OPS_Struct(TILEC_OP_ONE) TILEC_OPS_TileBuild(TILEC_OP_ONE)
              TILEC_OPS_TileMap(TILEC_OP_ONE) TILEC_OPS_TileReduce(TILEC_OP_ONE) TILEC_OPS_TileScan(TILEC_OP_ONE)
              TILEC_OPS_TileSort(TILEC_OP_ONE) TILEC_OPS_TileMatmul(TILEC_OP_ONE)
              TILEC_OPS_TileShape(TILEC_OP_ONE) TILEC_OPS_TileElement(TILEC_OP_ONE) TILEC_OPS_TileMemory(TILEC_OP_ONE)
              TILEC_OPS_Print(TILEC_OP_ONE) TILEC_OPS_Control(TILEC_OP_ONE) TILEC_OPS_Terminator(TILEC_OP_ONE)
                  == ir::kNumOpCodes,
              "an OpFamily without a TILEC_OPS_ list in ir/op_cases.h");
#undef TILEC_OP_ONE
#undef TILEC_CHECK_FAMILY
#undef TILEC_OP_ITEM

// An op reached an emitter that its family's dispatch never sends it to: a compiler bug, and
// emitting nothing would silently drop the op.
[[noreturn]] inline void NotHandledHere(ir::OpCode code, const char* emitter) {
  std::fprintf(stderr, "internal compiler error: `%s` reached the %s\n", std::string(ir::OpName(code)).c_str(), emitter);
  std::abort();
}
[[noreturn]] inline void NotHandledHere(const ir::Op& op, const char* emitter) { NotHandledHere(op.code(), emitter); }

}  // namespace tilec::ir::op_cases
