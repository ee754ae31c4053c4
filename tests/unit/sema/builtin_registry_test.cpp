// The builtin table against the rest of the tree: each row's documentation page exists, and a
// row that claims to be differentiable lowers only to IR ops that have an adjoint rule, so the
// claim cannot drift from what ir/autodiff can actually differentiate.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "frontend/sema/builtins.h"
#include "ir/ir.h"

namespace tilec::sema {
namespace {

// The IR ops a row's call can produce, apart from the constants and conversions any call may
// emit around them. The switch has no default so that a new LowerKind fails to compile here
// (-Werror=switch) until someone says which ops it stands for.
std::vector<ir::OpCode> OpsOf(const Lowering& l) {
  using O = ir::OpCode;
  switch (l.kind) {
    case LowerKind::None: return {};
    case LowerKind::Constant: return {O::Const};
    case LowerKind::Tid: return {O::Tid};
    case LowerKind::LaneId: return {O::LaneId};
    case LowerKind::Cast: return {O::Cast};
    case LowerKind::TileFillZero:
    case LowerKind::TileFillOne:
    case LowerKind::TileFillValue: return {O::TileFull};
    case LowerKind::TileArange: return {O::TileArange};
    case LowerKind::TileLoad: return {O::TileLoad};
    case LowerKind::TileLoadIndexed: return {O::TileLoadIndexed};
    case LowerKind::TileStore: return {O::TileStore};
    case LowerKind::TileAtomicAdd: return {O::TileAtomicAdd};
    case LowerKind::TileStoreIndexed: return {O::TileStoreIndexed};
    case LowerKind::TileAtomicAddIndexed: return {O::TileAtomicAddIndexed};
    case LowerKind::TileSum: return {O::TileSum, O::TileReduce};  // the axis form: tile_reduce {add}
    case LowerKind::TileReduce: return {O::TileReduce};
    case LowerKind::TileScan: return {O::TileScan};
    case LowerKind::TileShape: return {l.op};
    case LowerKind::TilePermute: return {O::TilePermute};
    case LowerKind::TileBinary:
    case LowerKind::TileUnary:
    case LowerKind::Math: return {l.op};
    case LowerKind::TileExtract: return {O::TileExtract};
    case LowerKind::TileDot: return {O::Mul, O::TileReduce};
    case LowerKind::TileAxpy: return {O::Mul, O::Add};
    case LowerKind::TileArgReduce: return {O::TileReduce, O::TileBroadcast, O::TileArange, O::TileMap};
    // The mapped function's own ops are checked through its own row (math) or its body.
    case LowerKind::TileMap: return {O::TileMap};
    case LowerKind::TileView: return {O::TileView};
    case LowerKind::TileAssign: return {O::TileAssign};
    case LowerKind::TileSort: return {O::TileSort};
    case LowerKind::TileMatmul: return {O::TileMatmul, O::Mul, O::Add};
    case LowerKind::TileDiagAdd: return {O::TileDiagAdd};
    case LowerKind::TileCholesky: return {O::TileCholesky, O::TilePermute};
    case LowerKind::TileCholeskySolve: return {O::TileLowerSolve, O::TileUpperSolve, O::TilePermute};
    case LowerKind::TileTriSolve: return {l.op};
    case LowerKind::TileFft: return {O::TileMap, O::FieldGet, O::FieldSet, O::TileFft};
    case LowerKind::Where: return {O::Select};
    case LowerKind::AtomicAdd: return {O::AtomicAdd};
    case LowerKind::AtomicRmw: return {O::AtomicRmw};
    // The differentiable compositions' ops (comparisons, selects and trunc pass no gradient).
    case LowerKind::MathForm:
      switch (l.form) {
        case MathForm::Lerp: return {O::Sub, O::Mul, O::Add};
        case MathForm::Smoothstep: return {O::Sub, O::Div, O::Clamp, O::Mul};
        case MathForm::Frac: return {O::Sub};
        case MathForm::Sign: case MathForm::Step: case MathForm::Nonzero: case MathForm::IsNan:
        case MathForm::IsInf: case MathForm::IsFinite:
          return {O::Select, O::Cmp};
        case MathForm::BitCount: return {O::Cast, O::Shr, O::BitAnd, O::Sub, O::Add, O::Mul};
      }
      return {};
    case LowerKind::Print: return {O::Print};
    case LowerKind::ExpectEq: return {O::Cmp, O::If, O::Print};
    case LowerKind::ExpectNear: return {O::Sub, O::Abs, O::Max, O::Cmp, O::If, O::Print};
    case LowerKind::BlockDim: return {O::BlockDim};
    // The lane_id op that indexes them is, like a constant index, no operand a gradient reaches.
    case LowerKind::TileOfLanes: return {O::TileFull, O::TileScatterLanes};
    case LowerKind::Untile: return {O::TileExtract};
    case LowerKind::TileFromThread: return {O::TileFull, O::LaneId, O::Cmp, O::TileScatterLanes, O::TileExtract};
    case LowerKind::TileScatterLanes: return {O::TileScatterLanes};
    case LowerKind::TileRandom: return {O::BlockDim, O::TileArange, O::TileMap, O::For, O::TileReshape};
    // Not differentiable, as in Warp: no row claims an adjoint through these.
    case LowerKind::TileStack: return {O::TileFull};
    case LowerKind::TileStackPush:
      return {O::LaneId, O::TileFull, O::TileScatterLanes, O::TileScan, O::TileReduce, O::TileExtract, O::TileInsert};
    case LowerKind::TileStackPop: return {O::LaneId, O::TileExtract, O::TileInsert, O::Select};
    case LowerKind::TileStackCount: return {O::TileExtract, O::Cast};
    case LowerKind::TileStackClear: return {O::TileInsert};
  }
  return {};
}

std::string RowName(const Builtin& b) { return std::string(b.ns) + ":" + b.name; }

TEST(BuiltinRegistry, EveryDocPathNamesAnExistingPage) {
  const std::filesystem::path root(TILEC_SOURCE_DIR);
  for (const Builtin& b : BuiltinTable()) {
    std::string doc = b.doc;
    if (doc.empty()) {
      // Only the hidden test builtins may go undocumented: users never see them.
      EXPECT_TRUE(b.test_only) << RowName(b) << " has no documentation page";
      continue;
    }
    std::filesystem::path page = root / doc;
    // The normative pages live beside the checkout in ../shared/spec; a checkout without it
    // holds their copies in tests/spec_pages (as the doctest registration does).
    const std::string spec = "../shared/spec/";
    if (!std::filesystem::exists(root / "../shared/spec") && doc.rfind(spec, 0) == 0)
      page = root / "tests/spec_pages" / doc.substr(spec.size());
    EXPECT_TRUE(std::filesystem::is_regular_file(page)) << RowName(b) << ": " << page.string();
    EXPECT_EQ(doc.substr(doc.size() - 4), ".rst") << RowName(b) << ": " << doc;
  }
}

TEST(BuiltinRegistry, DifferentiableRowsLowerToDifferentiableOps) {
  int checked = 0;
  for (const Builtin& b : BuiltinTable()) {
    if (b.diff != Differentiable::Yes) continue;
    std::vector<ir::OpCode> ops = OpsOf(b.lower);
    EXPECT_FALSE(ops.empty()) << RowName(b) << " is differentiable but lowers to no op";
    for (ir::OpCode op : ops) {
      EXPECT_TRUE(ir::HasTrait(op, ir::kDiff))
          << RowName(b) << " is marked differentiable but lowers to `" << ir::OpName(op)
          << "`, which has no adjoint rule";
      ++checked;
    }
  }
  EXPECT_GT(checked, 20);  // guards against the table or the filter silently going empty
}

// The converse for the math rows, where the table states it: a function marked not
// differentiable should lower to an op that really passes no gradient, not to one we forgot.
TEST(BuiltinRegistry, NonDifferentiableMathRowsArePiecewiseConstant) {
  for (const Builtin& b : BuiltinTable()) {
    if (b.diff != Differentiable::No || b.lower.kind != LowerKind::Math) continue;
    EXPECT_TRUE(ir::HasTrait(b.lower.op, ir::kPiecewiseConst)) << RowName(b);
  }
}

}  // namespace
}  // namespace tilec::sema
