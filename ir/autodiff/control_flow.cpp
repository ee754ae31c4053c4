// The reverse sweep and its control flow. Every reversed region first replays its forward
// body (so the values its rules need are at hand), then sweeps it backwards. Adjoints of
// values from outside a region travel through the reversed region as results (if) or
// carried values (loops). A loop runs backwards over its trip count; where an iteration needs
// the loop-carried state it had going forward, the state is recomputed by replaying the
// loop from its start up to that iteration (DCE drops the replay where nothing needs it).
#include <algorithm>

#include "ir/autodiff/internal.h"
#include "ir/op_cases.h"

namespace tilec::autodiff::detail {

using ir::OpCode;

void Generator::ReverseBlock(const ir::Block& b) {
  for (size_t i = b.ops().size(); i-- > 0;) ReverseOp(*b.ops()[i]);
}

bool Generator::CooperativeReadsScalars(const ir::Op& op) {
  if (op.code() == OpCode::TileScatterLanes || op.code() == OpCode::TileExtract) return false;
  for (const ir::Value* v : op.operands())
    if (v->type().is_tile()) return true;
  for (auto& r : op.results())
    if (r->type().is_tile()) return true;
  return false;
}

void Generator::ReverseOp(const ir::Op& op) {
  OpCode c = op.code();
  b_.set_loc(op.loc());
  // Control flow reverses its regions' ops first, then accumulates for its own operands.
  struct Restore {
    const ir::Op*& slot;
    const ir::Op* saved;
    ~Restore() { slot = saved; }
  } restore{reversing_, reversing_};
  reversing_ = &op;
  switch (RuleOf(c)) {
    case RuleFamily::If: IfRule(op); return;
    case RuleFamily::For: ForRule(op); return;
    case RuleFamily::While: WhileRule(op); return;
    case RuleFamily::Map: MapRule(op); return;
    case RuleFamily::Elementwise: ElementwiseRule(op); return;
    case RuleFamily::Memory: MemoryRule(op); return;
    case RuleFamily::Other: OtherRule(op); return;
    case RuleFamily::TileShape: TileShapeRule(op); return;
    case RuleFamily::None: return;
  }
}

RuleFamily RuleOf(OpCode c) {
  switch (c) {
    case OpCode::If: return RuleFamily::If;
    case OpCode::For: return RuleFamily::For;
    case OpCode::While: return RuleFamily::While;
    case OpCode::TileMap: return RuleFamily::Map;
    TILEC_CASES(Elementwise)
      return RuleFamily::Elementwise;
    case OpCode::ArrayLoad: case OpCode::ArrayStore: case OpCode::AtomicAdd: case OpCode::AtomicRmw:
    TILEC_CASES(TileMemory)
      return RuleFamily::Memory;
    case OpCode::Select: case OpCode::FieldGet: case OpCode::FieldSet: case OpCode::TileFull:
    case OpCode::TileSum: case OpCode::TileExtract: case OpCode::TileInsert: case OpCode::TileView:
    case OpCode::TileAssign: case OpCode::TileGather: case OpCode::TileScatterAdd: case OpCode::TileScatterLanes:
    case OpCode::TileSort: case OpCode::TileMatmul: case OpCode::TileDiagAdd: case OpCode::TileCholesky: case OpCode::TileLowerSolve:
    case OpCode::TileUpperSolve: case OpCode::TileTril: case OpCode::TileFft:
      return RuleFamily::Other;
    case OpCode::TileReduce: case OpCode::TileScan: case OpCode::TileBroadcast:
    case OpCode::TileReshape: case OpCode::TilePermute:
      return RuleFamily::TileShape;
    // Piecewise constant, or no differentiable operand: nothing flows back.
    case OpCode::ArrayDim: case OpCode::ArrayGrad: case OpCode::ArraySlice: case OpCode::ArrayView: case OpCode::TileArange: TILEC_CASES(Constant)
    TILEC_CASES(Tid) TILEC_CASES(Compare) TILEC_CASES(Logic) TILEC_CASES(Print)
    TILEC_CASES(Terminator)
      return RuleFamily::None;
  }
  return RuleFamily::None;
}

std::vector<const ir::Value*> Generator::OuterActiveUses(const ir::Op& op) const {
  std::unordered_set<const ir::Value*> inner;
  std::vector<const ir::Value*> out;
  std::unordered_set<const ir::Value*> seen;
  for (auto& r : op.regions()) {
    for (auto& a : r->args()) inner.insert(a.get());
    ir::Walk(r.get(), [&](ir::Op* o) {
      for (auto& res : o->results()) inner.insert(res.get());
      for (auto& rr : o->regions())
        for (auto& a : rr->args()) inner.insert(a.get());
    });
  }
  for (auto& r : op.regions())
    ir::Walk(r.get(), [&](ir::Op* o) {
      for (const ir::Value* v : o->operands())
        if (!inner.count(v) && Active(v) && seen.insert(v).second) out.push_back(v);
    });
  return out;
}

void Generator::IfRule(const ir::Op& op) {
  std::vector<const ir::Value*> outer = OuterActiveUses(op);
  // Under a lane-varying condition only some lanes run the reversed region, so no tile adjoint
  // may travel through it. The only tile operation such a region holds is tile_extract: each
  // lane carries out what it read (its adjoint, indices and whether it read at all) as
  // scalars, and the scatter into the tile's adjoint follows the region.
  const bool varying = op.operand(0)->lane_varying();
  std::vector<const ir::Op*> reads;
  if (varying) {
    std::erase_if(outer, [](const ir::Value* v) { return v->type().is_tile(); });
    for (auto& region : op.regions())
      ir::Walk(region.get(), [&](ir::Op* o) {
        if (o->code() != OpCode::TileExtract || !Active(o->operand(0))) return;
        if (o->parent_block()->parent_op() == &op) reads.push_back(o);
        else
          Unsupported(*o, "the gradient of a tile element read inside a loop or a nested `if` under a "
                          "lane-varying condition is not supported; read it directly in the branch, or use "
                          "enable_backward=False");
      });
  }
  std::vector<ir::Type> types;
  for (const ir::Value* v : outer) {
    if (!Adj(v)) adj_map()[v] = Zero(AdjType(v->type()));
    types.push_back(AdjType(v->type()));
  }
  for (const ir::Op* read : reads) {
    types.push_back(AdjType(read->result()->type()));
    for (int i = 1; i < read->num_operands(); ++i) types.push_back(read->operand(i)->type());
    types.push_back(ir::Type::Scalar(ScalarType::Bool));
  }
  std::vector<ir::Value*> result_adj;
  for (auto& r : op.results()) result_adj.push_back(Adj(r.get()));
  ir::Op* rev = b_.If(P(op.operand(0)), types);
  auto* const saved_reads = deferred_reads_;
  for (int r = 0; r < 2; ++r) {
    auto saved = adj_map();
    ir::Builder::InsertionGuard g(b_);
    b_.SetInsertionPoint(rev->region(r));
    const ir::Block& region = *op.region(r);
    std::unordered_map<const ir::Op*, DeferredRead> deferred;
    deferred_reads_ = varying ? &deferred : nullptr;
    ReplayBlock(region);
    if (ir::Op* y = region.terminator())
      for (int k = 0; k < y->num_operands(); ++k)
        if (result_adj[k]) Accum(y->operand(k), result_adj[k]);
    ReverseBlock(region);
    deferred_reads_ = saved_reads;
    std::vector<ir::Value*> vals;
    for (const ir::Value* v : outer) vals.push_back(Adj(v));
    for (const ir::Op* read : reads) {
      auto it = deferred.find(read);
      const bool here = it != deferred.end() && it->second.d;
      vals.push_back(here ? it->second.d : Zero(AdjType(read->result()->type())));
      for (int i = 1; i < read->num_operands(); ++i)
        vals.push_back(here ? it->second.idx[size_t(i - 1)] : Zero(read->operand(i)->type()));
      vals.push_back(b_.ConstBool(here));
    }
    b_.set_loc(op.loc());
    b_.Yield(vals);
    adj_map() = std::move(saved);
  }
  for (size_t k = 0; k < outer.size(); ++k) adj_map()[outer[k]] = rev->result(int(k));
  int at = int(outer.size());
  for (const ir::Op* read : reads) {
    const ir::Value* t = read->operand(0);
    ir::Value* d = rev->result(at++);
    std::vector<ir::Value*> idx;
    for (int i = 1; i < read->num_operands(); ++i) idx.push_back(rev->result(at++));
    ir::Value* has = rev->result(at++);
    b_.set_loc(read->loc());
    adj_map()[t] = b_.TileScatterLanes(AdjOrZero(t), d, has, idx, true);
  }
}

void Generator::ForRule(const ir::Op& op) {
  const ir::Block& body = *op.region(0);
  ir::Op* fy = body.terminator();
  int ncarry = op.num_operands() - 3;
  std::vector<const ir::Value*> outer = OuterActiveUses(op);
  std::vector<int> carried;  // carried slots whose adjoint travels backwards
  for (int k = 0; k < ncarry; ++k)
    if (Active(op.result(k)) || Active(body.arg(k + 1))) carried.push_back(k);
  ir::Value* lo = P(op.operand(0));
  ir::Value* hi = P(op.operand(1));
  ir::Value* step = P(op.operand(2));
  ScalarType it = op.operand(0)->type().elem.scalar;

  // Trip count, by the forward loop's own semantics.
  ir::Op* count = b_.For(lo, hi, step, {b_.ConstInt(it, 0)});
  {
    ir::Builder::InsertionGuard g(b_);
    b_.SetInsertionPoint(count->region(0));
    b_.Yield({b_.Binary(OpCode::Add, count->region(0)->arg(1), b_.ConstInt(it, 1))});
  }
  ir::Value* n = count->result(0);

  std::vector<ir::Value*> inits;
  for (int k : carried) inits.push_back(AdjOrZero(op.result(k)));
  for (const ir::Value* v : outer) inits.push_back(AdjOrZero(v));
  ir::Op* rev = b_.For(b_.ConstInt(it, 0), n, b_.ConstInt(it, 1), inits);
  ir::Block* rb = rev->region(0);
  {
    auto saved = adj_map();
    ir::Builder::InsertionGuard g(b_);
    b_.SetInsertionPoint(rb);
    // Forward iteration j = n-1-kk, at iv = lo + j*step.
    ir::Value* j = b_.Binary(OpCode::Sub, b_.Binary(OpCode::Sub, n, b_.ConstInt(it, 1)), rb->arg(0));
    ir::Value* iv = b_.Binary(OpCode::Add, lo, b_.Binary(OpCode::Mul, j, step));
    std::vector<ir::Value*> state;
    if (ncarry) {
      std::vector<ir::Value*> init_state;
      for (int k = 0; k < ncarry; ++k) init_state.push_back(P(op.operand(k + 3)));
      ir::Op* rec = b_.For(lo, iv, step, init_state);
      {
        ir::Builder::InsertionGuard g2(b_);
        b_.SetInsertionPoint(rec->region(0));
        for (int i = 0; i < body.num_args(); ++i) primal_map()[body.arg(i)] = rec->region(0)->arg(i);
        ReplayBlock(body);
        std::vector<ir::Value*> next;
        for (const ir::Value* v : fy->operands()) next.push_back(P(v));
        b_.Yield(next);
      }
      for (int k = 0; k < ncarry; ++k) state.push_back(rec->result(k));
    }
    primal_map()[body.arg(0)] = iv;
    for (int k = 0; k < ncarry; ++k) primal_map()[body.arg(k + 1)] = state[k];
    int slot = 1;
    std::vector<ir::Value*> carried_adj;
    for (size_t i = 0; i < carried.size(); ++i) carried_adj.push_back(rb->arg(slot++));
    for (const ir::Value* v : outer) adj_map()[v] = rb->arg(slot++);
    ReplayBlock(body);
    for (size_t i = 0; i < carried.size(); ++i) Accum(fy->operand(carried[i]), carried_adj[i]);
    ReverseBlock(body);
    std::vector<ir::Value*> next;
    for (int k : carried) next.push_back(AdjOrZero(body.arg(k + 1)));
    for (const ir::Value* v : outer) next.push_back(Adj(v));
    b_.set_loc(op.loc());
    b_.Yield(next);
    adj_map() = std::move(saved);
  }
  int slot = 0;
  for (int k : carried) Accum(op.operand(k + 3), rev->result(slot++));
  for (const ir::Value* v : outer) adj_map()[v] = rev->result(slot++);
}

// while (s = init) { before(s) -> cond, f } do (a = f) { after(a) -> s' }: count the
// iterations n; the last `before` (on s_n, whose f are the results) is reversed first, then
// iterations j = n-1 .. 0 each reverse `after` and then `before`, with s_j recomputed from
// the start.
void Generator::WhileRule(const ir::Op& op) {
  const ir::Block& before = *op.region(0);
  const ir::Block& after = *op.region(1);
  ir::Op* cond = before.terminator();
  ir::Op* ay = after.terminator();
  int ns = op.num_operands();
  std::vector<const ir::Value*> outer = OuterActiveUses(op);
  ScalarType it = ScalarType::Int32;

  // Replays one whole iteration (before, then after) on `state` at the insertion point.
  auto replay_iteration = [&](const std::vector<ir::Value*>& state) {
    for (int k = 0; k < ns; ++k) primal_map()[before.arg(k)] = state[k];
    ReplayBlock(before);
    for (int k = 0; k < after.num_args(); ++k) primal_map()[after.arg(k)] = P(cond->operand(k + 1));
    ReplayBlock(after);
    std::vector<ir::Value*> next;
    for (const ir::Value* v : ay->operands()) next.push_back(P(v));
    return next;
  };
  std::vector<ir::Value*> init;
  for (int k = 0; k < ns; ++k) init.push_back(P(op.operand(k)));
  // The state after `j` iterations.
  auto recompute = [&](ir::Value* j) {
    if (!ns) return std::vector<ir::Value*>{};
    ir::Op* rec = b_.For(b_.ConstInt(it, 0), j, b_.ConstInt(it, 1), init);
    ir::Builder::InsertionGuard g(b_);
    b_.SetInsertionPoint(rec->region(0));
    std::vector<ir::Value*> st;
    for (int k = 0; k < ns; ++k) st.push_back(rec->region(0)->arg(k + 1));
    b_.Yield(replay_iteration(st));
    std::vector<ir::Value*> out;
    for (int k = 0; k < ns; ++k) out.push_back(rec->result(k));
    return out;
  };

  // Trip count: the forward loop again, with a counter.
  std::vector<ir::Value*> cinit = init;
  cinit.push_back(b_.ConstInt(it, 0));
  std::vector<ir::Type> ftypes;
  for (auto& r : op.results()) ftypes.push_back(r->type());
  ftypes.push_back(ir::Type::Scalar(it));
  ir::Op* count = b_.While(cinit, ftypes);
  {
    ir::Builder::InsertionGuard g(b_);
    ir::Block* cb = count->region(0);
    b_.SetInsertionPoint(cb);
    for (int k = 0; k < ns; ++k) primal_map()[before.arg(k)] = cb->arg(k);
    ReplayBlock(before);
    std::vector<ir::Value*> fw;
    for (int k = 1; k < cond->num_operands(); ++k) fw.push_back(P(cond->operand(k)));
    fw.push_back(cb->arg(ns));
    b_.Condition(P(cond->operand(0)), fw);
    ir::Block* ca = count->region(1);
    b_.SetInsertionPoint(ca);
    for (int k = 0; k < after.num_args(); ++k) primal_map()[after.arg(k)] = ca->arg(k);
    ReplayBlock(after);
    std::vector<ir::Value*> next;
    for (const ir::Value* v : ay->operands()) next.push_back(P(v));
    next.push_back(b_.Binary(OpCode::Add, ca->arg(after.num_args()), b_.ConstInt(it, 1)));
    b_.Yield(next);
  }
  ir::Value* n = count->result(op.num_results());

  // The final `before`, on s_n.
  auto pre = adj_map();
  std::vector<ir::Value*> res_adj;
  for (auto& r : op.results()) res_adj.push_back(Adj(r.get()));
  std::vector<ir::Value*> sn = recompute(n);
  for (int k = 0; k < ns; ++k) primal_map()[before.arg(k)] = sn[k];
  ReplayBlock(before);
  for (int k = 0; k + 1 < cond->num_operands(); ++k)
    if (res_adj[k]) Accum(cond->operand(k + 1), res_adj[k]);
  ReverseBlock(before);
  std::vector<ir::Value*> inits;
  for (int k = 0; k < ns; ++k) inits.push_back(AdjOrZero(before.arg(k)));
  for (const ir::Value* v : outer) inits.push_back(AdjOrZero(v));
  adj_map() = pre;

  ir::Op* rev = b_.For(b_.ConstInt(it, 0), n, b_.ConstInt(it, 1), inits);
  ir::Block* rb = rev->region(0);
  {
    auto saved = adj_map();
    ir::Builder::InsertionGuard g(b_);
    b_.SetInsertionPoint(rb);
    ir::Value* j = b_.Binary(OpCode::Sub, b_.Binary(OpCode::Sub, n, b_.ConstInt(it, 1)), rb->arg(0));
    std::vector<ir::Value*> sj = recompute(j);
    for (int k = 0; k < ns; ++k) primal_map()[before.arg(k)] = sj[k];
    ReplayBlock(before);
    for (int k = 0; k < after.num_args(); ++k) primal_map()[after.arg(k)] = P(cond->operand(k + 1));
    ReplayBlock(after);
    for (size_t i = 0; i < outer.size(); ++i) adj_map()[outer[i]] = rb->arg(int(ns + i) + 1);
    for (int k = 0; k < ns; ++k) Accum(ay->operand(k), rb->arg(k + 1));
    ReverseBlock(after);
    for (int k = 0; k < after.num_args(); ++k)
      if (ir::Value* a = Adj(after.arg(k))) Accum(cond->operand(k + 1), a);
    ReverseBlock(before);
    std::vector<ir::Value*> next;
    for (int k = 0; k < ns; ++k) next.push_back(AdjOrZero(before.arg(k)));
    for (const ir::Value* v : outer) next.push_back(Adj(v));
    b_.set_loc(op.loc());
    b_.Yield(next);
    adj_map() = std::move(saved);
  }
  for (int k = 0; k < ns; ++k) Accum(op.operand(k), rev->result(k));
  for (size_t i = 0; i < outer.size(); ++i) adj_map()[outer[i]] = rev->result(int(ns + i));
}

}  // namespace tilec::autodiff::detail
