// Uniformity as a forward data-flow fixpoint over the structured IR: loops make values flow
// back to their region arguments, so the walk repeats until no mark changes (marks only go
// from uniform to varying, so it ends).
#include "ir/passes/uniformity.h"

#include "ir/op_cases.h"

namespace tilec::ir {

namespace {

class Uniformity {
 public:
  explicit Uniformity(const Function& f) : fn_(&f) {}
  bool Run(Block* b) {
    changed_ = false;
    WalkBlock(b);
    return changed_;
  }

 private:
  // A tile is one value of the block (an operation reads lane 0's value of a varying scalar
  // operand), so only scalars, structs and array views vary.
  void Mark(Value* v) {
    if (v && !v->lane_varying() && !v->type().is_tile()) {
      v->set_lane_varying(true);
      changed_ = true;
    }
  }
  static bool Varying(const Value* v) { return v && v->lane_varying(); }
  static bool ReadsGradient(const Value* array) {
    const Op* def = array->def();
    if (!def) return false;
    if (def->code() == OpCode::ArrayGrad) return true;
    return (def->code() == OpCode::ArraySlice || def->code() == OpCode::ArrayView) && ReadsGradient(def->operand(0));
  }
  void MarkResults(Op& op) {
    for (auto& r : op.results()) Mark(r.get());
  }

  void WalkBlock(Block* b) {
    for (auto& up : b->ops()) WalkOp(*up);
  }

  void WalkOp(Op& op) {
    for (auto& r : op.regions()) WalkBlock(r.get());
    bool any = HasTrait(op.code(), kLaneVarying);
    for (const Value* v : op.operands()) any |= Varying(v);
    switch (op.code()) {
      case OpCode::Tid:
        // The thread's coordinates in a hybrid launch; otherwise the block's, and one name
        // past the launch's rank (known only at launch) the lane.
        if (fn_->hybrid_launch && fn_->tiled) MarkResults(op);
        else if (fn_->tiled && op.num_results() > 1) Mark(op.result(op.num_results() - 1));
        return;
      case OpCode::ArrayLoad:
        // An adjoint reads a gradient and clears it, lane after lane, so that one lane gets it:
        // what each lane reads there differs.
        if (any || (fn_->tiled && ReadsGradient(op.operand(0)))) MarkResults(op);
        return;
      case OpCode::AtomicAdd: case OpCode::AtomicRmw:
        // Every lane performs its own atomic and receives its own previous value.
        if (fn_->tiled || any) MarkResults(op);
        return;
      case OpCode::If: {
        // The branch taken differs per lane: so does whatever the if yields.
        if (Varying(op.operand(0))) MarkResults(op);
        for (int r = 0; r < 2; ++r)
          if (Op* y = op.region(r)->terminator())
            for (int k = 0; k < y->num_operands() && k < op.num_results(); ++k)
              if (Varying(y->operand(k))) Mark(op.result(k));
        return;
      }
      case OpCode::For: {
        Block* body = op.region(0);
        bool bounds = Varying(op.operand(0)) || Varying(op.operand(1)) || Varying(op.operand(2));
        if (bounds) {
          for (auto& a : body->args()) Mark(a.get());
          MarkResults(op);
        }
        Op* y = body->terminator();
        for (int k = 0; k + 3 < op.num_operands(); ++k) {
          bool v = Varying(op.operand(k + 3)) || (y && k < y->num_operands() && Varying(y->operand(k)));
          if (v) {
            Mark(body->arg(k + 1));
            if (k < op.num_results()) Mark(op.result(k));
          }
        }
        return;
      }
      case OpCode::While: {
        Block* before = op.region(0);
        Block* after = op.region(1);
        Op* cond = before->terminator();
        Op* y = after->terminator();
        for (int k = 0; k < op.num_operands(); ++k)
          if (Varying(op.operand(k)) || (y && k < y->num_operands() && Varying(y->operand(k))))
            Mark(before->arg(k));
        // A lane-varying condition ends the loop at different trips per lane.
        bool exit_varies = cond && cond->num_operands() > 0 && Varying(cond->operand(0));
        for (int k = 0; k < op.num_results(); ++k) {
          bool v = exit_varies || (cond && k + 1 < cond->num_operands() && Varying(cond->operand(k + 1)));
          if (v) {
            Mark(op.result(k));
            if (k < after->num_args()) Mark(after->arg(k));
          }
        }
        return;
      }
      case OpCode::TileMap: {
        // Element-wise inside: an element's value varies if an input or a captured value does.
        Block* body = op.region(0);
        for (int k = 0; k < op.num_operands() && k < body->num_args(); ++k)
          if (Varying(op.operand(k))) Mark(body->arg(k));
        if (Op* y = body->terminator())
          if (y->num_operands() && Varying(y->operand(0))) any = true;
        if (any) MarkResults(op);
        return;
      }
      case OpCode::LaneId: case OpCode::BlockDim:
      TILEC_CASES(Constant) TILEC_CASES(Select) TILEC_CASES(Elementwise)
      TILEC_CASES(Compare) TILEC_CASES(Logic) case OpCode::ArrayStore: case OpCode::ArrayDim:
      case OpCode::ArrayGrad: case OpCode::ArraySlice: case OpCode::ArrayView: TILEC_CASES(Struct) TILEC_CASES(TileBuild)
      TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape) TILEC_CASES(TileElement)
      TILEC_CASES(TileMemory) TILEC_CASES(Print) TILEC_CASES(Terminator)
        if (any) MarkResults(op);
        return;
    }
  }

  const Function* fn_;
  bool changed_ = false;
};

void Reset(Block* b) {
  for (auto& a : b->args()) a->set_lane_varying(false);
  for (auto& op : b->ops()) {
    for (auto& r : op->results()) r->set_lane_varying(false);
    for (auto& r : op->regions()) Reset(r.get());
  }
}

}  // namespace

void AnalyzeUniformity(Function& f) {
  Reset(f.body());
  Uniformity u(f);
  while (u.Run(f.body())) {
  }
}

void AnalyzeUniformity(Module& m) {
  for (auto& f : m.functions()) AnalyzeUniformity(*f);
}

}  // namespace tilec::ir
