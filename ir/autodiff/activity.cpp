// Activity analysis: a graph of differentiable dependencies (operand -> result, and through
// region arguments, yields and loop back edges), then forward reachability from float loads
// (varied) and backward reachability from the values stored or added into arrays (useful).
#include <deque>

#include "ir/autodiff/internal.h"
#include "ir/op_cases.h"

namespace tilec::autodiff::detail {

using ir::OpCode;

bool IsDiffElem(const ir::Module& m, const ir::ElemType& e) {
  if (!e.is_struct()) return IsFloat(e.scalar);
  if (e.struct_index >= int(m.structs().size())) return false;
  for (const ir::StructField& f : m.structs()[e.struct_index].fields)
    if (IsDiffElem(m, f.type)) return true;
  return false;
}

bool IsDiffType(const ir::Module& m, const ir::Type& t) {
  if (t.is_scalar() || t.is_struct() || t.is_tile()) return IsDiffElem(m, t.elem);
  return false;
}

ir::Type AdjType(const ir::Type& t) { return t.is_tile() ? t.WithStorage(ir::Storage::Register) : t; }

namespace {

class Graph {
 public:
  explicit Graph(const ir::Module& m) : m_(m) {}

  void Edge(const ir::Value* from, const ir::Value* to) {
    if (!from || !to || !IsDiffType(m_, from->type()) || !IsDiffType(m_, to->type())) return;
    succ_[from].push_back(to);
    pred_[to].push_back(from);
  }

  void Build(const ir::Block& b) {
    for (auto& op : b.ops()) {
      AddOp(*op);
      for (auto& r : op->regions()) Build(*r);
    }
  }

  std::unordered_set<const ir::Value*> Reach(const std::vector<const ir::Value*>& seeds, bool forward) {
    auto& adj = forward ? succ_ : pred_;
    std::unordered_set<const ir::Value*> seen(seeds.begin(), seeds.end());
    std::deque<const ir::Value*> work(seeds.begin(), seeds.end());
    while (!work.empty()) {
      const ir::Value* v = work.front();
      work.pop_front();
      auto it = adj.find(v);
      if (it == adj.end()) continue;
      for (const ir::Value* w : it->second)
        if (seen.insert(w).second) work.push_back(w);
    }
    return seen;
  }

  std::vector<const ir::Value*> sources, sinks;

 private:
  void AddOp(const ir::Op& op) {
    OpCode c = op.code();
    auto all_to_result = [&](int first, int last) {
      for (int i = first; i < last; ++i) Edge(op.operand(i), op.result());
    };
    switch (c) {
      case OpCode::ArrayLoad: case OpCode::TileLoad: case OpCode::TileLoadIndexed:
        if (IsDiffType(m_, op.result()->type())) sources.push_back(op.result());
        return;
      case OpCode::ArrayStore: case OpCode::AtomicAdd: case OpCode::AtomicRmw: {
        const ir::Value* v = op.operand(op.num_operands() - 1);
        if (IsDiffType(m_, v->type())) sinks.push_back(v);
        return;
      }
      case OpCode::TileStore: case OpCode::TileAtomicAdd:
        if (IsDiffType(m_, op.operand(1)->type())) sinks.push_back(op.operand(1));
        return;
      case OpCode::TileStoreIndexed: case OpCode::TileAtomicAddIndexed:
        if (IsDiffType(m_, op.operand(2)->type())) sinks.push_back(op.operand(2));
        return;
      case OpCode::Select: all_to_result(1, 3); return;
      case OpCode::TileFull: TILEC_CASES(Struct) TILEC_CASES(TileReduce) TILEC_CASES(TileScan)
      TILEC_CASES(TileShape)
        all_to_result(0, c == OpCode::FieldSet ? 2 : 1);
        return;
      case OpCode::TileExtract: all_to_result(0, 1); return;
      case OpCode::TileInsert: case OpCode::TileAssign: all_to_result(0, 2); return;
      case OpCode::TileView: case OpCode::TileGather: all_to_result(0, 1); return;
      case OpCode::TileScatterAdd:
        Edge(op.operand(0), op.result());
        Edge(op.operand(2), op.result());
        return;
      case OpCode::TileScatterLanes: all_to_result(0, 2); return;
      case OpCode::TileMatmul: all_to_result(0, 3); return;
      case OpCode::TileDiagAdd: case OpCode::TileLowerSolve: case OpCode::TileUpperSolve: all_to_result(0, 2); return;
      case OpCode::TileCholesky: case OpCode::TileTril: all_to_result(0, 1); return;
      case OpCode::TileFft:
        // Each output bin mixes the real and imaginary parts of every input element.
        for (int i = 0; i < 2; ++i)
          for (int r = 0; r < 2; ++r) Edge(op.operand(i), op.result(r));
        return;
      case OpCode::TileSort:
        // The order comes from the keys and passes no gradient; each tile flows to its own result.
        Edge(op.operand(0), op.result(0));
        Edge(op.operand(1), op.result(1));
        return;
      case OpCode::TileMap: {
        const ir::Block& body = *op.region(0);
        for (int i = 0; i < op.num_operands(); ++i) Edge(op.operand(i), body.arg(i));
        if (ir::Op* y = body.terminator()) Edge(y->operand(0), op.result());
        return;
      }
      case OpCode::If:
        for (int r = 0; r < 2; ++r)
          if (ir::Op* y = op.region(r)->terminator())
            for (int k = 0; k < y->num_operands() && k < op.num_results(); ++k) Edge(y->operand(k), op.result(k));
        return;
      case OpCode::For: {
        const ir::Block& body = *op.region(0);
        ir::Op* y = body.terminator();
        for (int k = 0; k + 3 < op.num_operands(); ++k) {
          Edge(op.operand(k + 3), body.arg(k + 1));
          if (y && k < y->num_operands()) {
            Edge(y->operand(k), body.arg(k + 1));
            Edge(y->operand(k), op.result(k));
          }
        }
        return;
      }
      case OpCode::While: {
        const ir::Block& before = *op.region(0);
        const ir::Block& after = *op.region(1);
        ir::Op* cond = before.terminator();
        ir::Op* y = after.terminator();
        for (int k = 0; k < op.num_operands(); ++k) {
          Edge(op.operand(k), before.arg(k));
          if (y && k < y->num_operands()) Edge(y->operand(k), before.arg(k));
        }
        for (int k = 0; cond && k + 1 < cond->num_operands(); ++k) {
          Edge(cond->operand(k + 1), after.arg(k));
          if (k < op.num_results()) Edge(cond->operand(k + 1), op.result(k));
        }
        return;
      }
      TILEC_CASES(Elementwise)
        all_to_result(0, op.num_operands());
        return;
      // No differentiable data flows from operands to results.
      case OpCode::ArrayDim: case OpCode::ArrayGrad: case OpCode::ArraySlice: case OpCode::ArrayView: case OpCode::TileArange: TILEC_CASES(Constant)
      TILEC_CASES(Tid) TILEC_CASES(Compare) TILEC_CASES(Logic) TILEC_CASES(Print)
      TILEC_CASES(Terminator)
        return;
    }
  }

  const ir::Module& m_;
  std::unordered_map<const ir::Value*, std::vector<const ir::Value*>> succ_, pred_;
};

}  // namespace

Activity AnalyzeActivity(const ir::Module& m, const ir::Function& f) {
  Graph g(m);
  g.Build(*f.body());
  Activity a;
  a.varied = g.Reach(g.sources, true);
  a.useful = g.Reach(g.sinks, false);
  return a;
}

}  // namespace tilec::autodiff::detail
