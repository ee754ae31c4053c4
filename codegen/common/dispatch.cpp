// The op dispatcher shared by the block-serial and SIMT lowerings, and the ops that read the
// grid position (tid), which both derive from the block program's linear index.
#include "codegen/common/dispatch.h"

#include "codegen/block_serial/emitter.h"
#include "ir/op_cases.h"

namespace tilec::codegen {

void OpDispatcher::EmitOp(const ir::Op& op) {
  BeforeOp(op);
  switch (ir::FamilyOf(op.code())) {
    case ir::OpFamily::Constant: Define(op.result(), Scalar().EmitConst(op)); break;
    case ir::OpFamily::Tid: EmitTid(op); break;
    case ir::OpFamily::Select:
      Define(op.result(), Builder().CreateSelect(ValueOf(op.operand(0)), ValueOf(op.operand(1)), ValueOf(op.operand(2))));
      break;
    case ir::OpFamily::Elementwise: EmitElementwise(op); break;
    case ir::OpFamily::Compare:
      Define(op.result(), Scalar().EmitCmp(op.pred(), op.operand(0)->type().elem.scalar, ValueOf(op.operand(0)),
                                           ValueOf(op.operand(1))));
      break;
    case ir::OpFamily::Logic:
      Define(op.result(), Scalar().EmitLogic(op.code(), ValueOf(op.operand(0)), ValueOf(op.operand(1))));
      break;
    case ir::OpFamily::Array: EmitArrayOp(op); break;
    case ir::OpFamily::Struct:
      Define(op.result(), Scalar().EmitStructOp(op, ValueOf(op.operand(0)),
                                                op.num_operands() > 1 ? ValueOf(op.operand(1)) : nullptr));
      break;
    case ir::OpFamily::TileBuild: case ir::OpFamily::TileMap: case ir::OpFamily::TileReduce:
    case ir::OpFamily::TileScan: case ir::OpFamily::TileSort: case ir::OpFamily::TileMatmul: case ir::OpFamily::TileShape: case ir::OpFamily::TileElement:
      EmitTileOp(op);
      break;
    case ir::OpFamily::TileMemory: EmitTileMemoryOp(op); break;
    case ir::OpFamily::Print: EmitPrint(op); break;
    case ir::OpFamily::Control: EmitControl(op); break;
    case ir::OpFamily::Terminator: ir::op_cases::NotHandledHere(op, "op dispatch (terminators end regions)");
  }
  AfterOp(op);
}

void OpDispatcher::EmitTid(const ir::Op& op) {
  llvm::IRBuilder<>& b = Builder();
  if (op.code() == ir::OpCode::LaneId) {
    Define(op.result(), b.CreateTrunc(LaneIndex(), b.getInt32Ty(), "lane"));
    return;
  }
  if (op.num_results() == 1) {
    Define(op.result(), b.CreateTrunc(ProgramIndex(), b.getInt32Ty(), "tid"));
    return;
  }
  // Row-major coordinates over the four launch extents (unused trailing ones are 1).
  llvm::Value* rest = ProgramIndex();
  std::vector<llvm::Value*> coords(ir::kMaxDims);
  for (int d = ir::kMaxDims - 1; d >= 0; --d) {
    coords[size_t(d)] = b.CreateURem(rest, LaunchDim(d));
    rest = b.CreateUDiv(rest, LaunchDim(d));
  }
  for (int k = 0; k < op.num_results(); ++k)
    Define(op.result(k), b.CreateTrunc(coords[size_t(k)], b.getInt32Ty(), "tid" + std::to_string(k)));
}

}  // namespace tilec::codegen
