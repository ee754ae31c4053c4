// The adjoint generator's forward half and bookkeeping: cloning forward ops into the adjoint
// kernel (replay: loads yes, stores and atomics no), and the map from forward values to
// their current adjoints with accumulation, zeros and gradient views.
#include "ir/autodiff/internal.h"
#include "ir/op_cases.h"

namespace tilec::autodiff::detail {

using ir::OpCode;

Generator::Generator(ir::Module& m, const ir::Function& fwd, ir::Function& adj, const Activity& act)
    : m_(m), fwd_(fwd), adj_fn_(adj), act_(act), b_(m) {}

ir::Value* Generator::P(const ir::Value* v) const {
  auto it = primal_.find(v);
  return it == primal_.end() ? nullptr : it->second;
}

ir::Op* Generator::CloneOp(const ir::Op& op) {
  std::vector<ir::Value*> operands;
  for (const ir::Value* v : op.operands()) operands.push_back(P(v));
  std::vector<ir::Type> types;
  for (auto& r : op.results()) types.push_back(r->type());
  b_.set_loc(op.loc());
  ir::Op* c = b_.Create(op.code(), operands, types);
  c->CopyAttrsFrom(op);
  for (int i = 0; i < op.num_results(); ++i) primal_[op.result(i)] = c->result(i);
  for (auto& region : op.regions()) {
    ir::Block* nb = c->AddRegion();
    for (auto& a : region->args()) primal_[a.get()] = nb->AddArg(a->type());
    ir::Builder::InsertionGuard g(b_);
    b_.SetInsertionPoint(nb);
    ReplayBlock(*region);
    if (ir::Op* t = region->terminator()) {
      std::vector<ir::Value*> vals;
      for (const ir::Value* v : t->operands()) vals.push_back(P(v));
      b_.set_loc(t->loc());
      b_.Create(t->code(), vals, {});
    }
  }
  return c;
}

void Generator::ReplayBlock(const ir::Block& src) {
  for (auto& up : src.ops()) {
    const ir::Op& op = *up;
    switch (op.code()) {
      case OpCode::ArrayStore: case OpCode::TileStore: case OpCode::TileStoreIndexed: case OpCode::Print:
      case OpCode::Assert:
      case OpCode::Yield: case OpCode::Condition: case OpCode::Return:
        continue;
      case OpCode::AtomicAdd: case OpCode::AtomicRmw: case OpCode::TileAtomicAdd: case OpCode::TileAtomicAddIndexed: {
        // Not repeated: the previous values it returned are gone. A zero stands in; if the
        // adjoint ends up needing it the kernel is rejected (E0501).
        b_.set_loc(op.loc());
        ir::Value* z = Zero(op.result()->type());
        substitutes_[z] = &op;
        primal_[op.result()] = z;
        continue;
      }
      case OpCode::ArrayLoad: case OpCode::ArrayDim: case OpCode::ArrayGrad: case OpCode::ArraySlice: case OpCode::ArrayView: case OpCode::TileLoad:
      case OpCode::TileLoadIndexed: TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Elementwise)
      TILEC_CASES(Select) TILEC_CASES(Compare) TILEC_CASES(Logic) TILEC_CASES(Struct)
      TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul)
      TILEC_CASES(TileShape) TILEC_CASES(TileElement) TILEC_CASES(Control)
        CloneOp(op);
    }
  }
}

ir::Value* Generator::Adj(const ir::Value* v) const {
  auto it = adj_.find(v);
  return it == adj_.end() ? nullptr : it->second;
}

ir::Value* Generator::AdjOrZero(const ir::Value* v) {
  if (ir::Value* a = Adj(v)) return a;
  return Zero(AdjType(v->type()));
}

ir::Value* Generator::Zero(const ir::Type& t) {
  if (t.is_tile()) return b_.TileFull(b_.ZeroOf(t.ElemValueType()), t.Shape(), ir::Storage::Register);
  return b_.ZeroOf(t);
}

ir::Value* Generator::ConstLike(const ir::Value* like, double v) {
  ScalarType s = like->type().elem.scalar;
  return IsFloat(s) ? b_.ConstFloat(s, v) : b_.ConstInt(s, int64_t(v));
}

ir::Value* Generator::SumAlong(ir::Value* t, int axis) {
  const ir::Type& tt = t->type();
  if (!tt.elem.is_struct()) return b_.TileReduce(ir::ReduceKind::Add, t, axis);
  // Tiles of structs (a vec3's adjoint): each differentiable field summed on its own, the sums
  // put back together in a zero struct.
  const ir::StructDef& def = m_.structs()[tt.elem.struct_index];
  std::vector<ir::Value*> sums;
  std::vector<int> fields;
  for (int i = 0; i < int(def.fields.size()); ++i) {
    if (!IsDiffElem(m_, def.fields[i].type)) continue;
    ir::Op* get = b_.TileMap({t}, def.fields[i].type);
    {
      ir::Builder::InsertionGuard g(b_);
      b_.SetInsertionPoint(get->region(0));
      b_.Yield({b_.FieldGet(get->region(0)->arg(0), i)});
    }
    sums.push_back(SumAlong(get->result(), axis));
    fields.push_back(i);
  }
  ir::Op* put = b_.TileMap(sums, tt.elem);
  ir::Builder::InsertionGuard g(b_);
  b_.SetInsertionPoint(put->region(0));
  ir::Value* acc = b_.ZeroOf(ir::Type::Struct(tt.elem.struct_index));
  for (size_t k = 0; k < fields.size(); ++k) acc = b_.FieldSet(acc, fields[k], put->region(0)->arg(int(k)));
  b_.Yield({acc});
  return put->result();
}

ir::Value* Generator::AddValues(ir::Value* a, ir::Value* c) {
  const ir::Type& t = a->type();
  if (!t.elem.is_struct()) return b_.Binary(OpCode::Add, a, c);
  if (t.is_tile()) {
    // Tiles of structs: field by field inside a map.
    ir::Op* map = b_.TileMap({a, c}, t.elem);
    ir::Builder::InsertionGuard g(b_);
    b_.SetInsertionPoint(map->region(0));
    b_.Yield({AddValues(map->region(0)->arg(0), map->region(0)->arg(1))});
    return map->result();
  }
  const ir::StructDef& def = m_.structs()[t.elem.struct_index];
  ir::Value* acc = a;
  for (int i = 0; i < int(def.fields.size()); ++i) {
    if (!IsDiffElem(m_, def.fields[i].type)) continue;
    ir::Value* sum = AddValues(b_.FieldGet(acc, i), b_.FieldGet(c, i));
    acc = b_.FieldSet(acc, i, sum);
  }
  return acc;
}

// A value of a tile_map body is one element's, not a lane's.
bool Generator::InsideMap(const ir::Value* v) {
  const ir::Block* b = v->is_block_arg() ? v->owner_block() : v->def()->parent_block();
  for (const ir::Op* p = b ? b->parent_op() : nullptr; p; p = p->parent_block() ? p->parent_block()->parent_op() : nullptr)
    if (p->code() == OpCode::TileMap) return true;
  return false;
}

void Generator::Accum(const ir::Value* v, ir::Value* contrib) {
  if (!contrib || !Active(v)) return;
  if (!v->type().is_tile() && contrib->type().is_tile()) {
    // A scalar used by every element of a tile op: its adjoint sums the elements'.
    ir::Value* zero = b_.ConstInt(ScalarType::Int32, 0);
    contrib = b_.TileExtract(b_.TileSum(contrib), {zero});
  }
  // Every lane runs the adjoint's scalar code, but a tile operation read lane 0's value of a
  // scalar operand (LANGUAGE.md §4), so only lane 0's copy receives the tile op's adjoint.
  if (fwd_.tiled && reversing_ && !v->type().is_tile() && !v->type().is_array() && !InsideMap(v) &&
      CooperativeReadsScalars(*reversing_)) {
    ir::Value* lane0 = b_.Cmp(ir::CmpPred::Eq, b_.LaneId(), b_.ConstInt(ScalarType::Int32, 0));
    contrib = b_.Select(lane0, contrib, Zero(contrib->type()));
  }
  if (ir::Value* cur = Adj(v)) adj_[v] = AddValues(cur, contrib);
  else adj_[v] = contrib;
}

ir::Value* Generator::Grad(const ir::Value* array) {
  // A view's gradient is the same view of its base's gradient, made where it is needed (its
  // indices need not exist at the top of the kernel).
  if (const ir::Op* def = array->def(); def && def->code() == OpCode::ArraySlice) {
    std::vector<ir::Value*> idx;
    for (int i = 1; i < def->num_operands(); ++i) idx.push_back(P(def->operand(i)));
    return b_.ArraySlice(Grad(def->operand(0)), idx);
  }
  if (const ir::Op* def = array->def(); def && def->code() == OpCode::ArrayView) {
    std::vector<ir::Value*> bounds;
    for (int i = 1; i < def->num_operands(); ++i) bounds.push_back(P(def->operand(i)));
    return b_.ArrayView(Grad(def->operand(0)), bounds, def->steps());
  }
  auto it = grads_.find(array);
  if (it != grads_.end()) return it->second;
  // Made once at the top of the kernel so that it dominates every use.
  ir::Builder::InsertionGuard g(b_);
  ir::Loc saved = b_.loc();
  auto op = std::make_unique<ir::Op>(OpCode::ArrayGrad, ir::Loc{});
  op->operands().push_back(P(array));
  ir::Value* r = op->AddResult(array->type());
  adj_fn_.body()->Insert(size_t(grads_.size()), std::move(op));
  b_.set_loc(saved);
  grads_[array] = r;
  return r;
}

ir::Value* Generator::HasGrad(ir::Value* grad) {
  return b_.Cmp(ir::CmpPred::Ne, b_.ArrayDim(grad, 0), b_.ConstInt(ScalarType::Int32, 0));
}

}  // namespace tilec::autodiff::detail
