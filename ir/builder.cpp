// Builder: op creation with result-type inference. The verifier, not the builder, decides
// whether operands make sense, so malformed IR can still be built (tests rely on that).
#include "ir/builder.h"

#include <algorithm>

namespace tilec::ir {

Op* Builder::Create(OpCode code, std::vector<Value*> operands, std::vector<Type> result_types) {
  auto op = std::make_unique<Op>(code, loc_);
  op->operands() = std::move(operands);
  for (const Type& t : result_types) op->AddResult(t);
  return block_->Append(std::move(op));
}

Value* Builder::Const(const Type& type, ConstVal v) {
  Op* op = Create(OpCode::Const, {}, {type});
  op->value() = v;
  return op->result();
}

Value* Builder::ConstInt(ScalarType t, int64_t v) {
  ConstVal c;
  c.i = v;
  c.f = double(v);
  return Const(Type::Scalar(t), c);
}

Value* Builder::ConstFloat(ScalarType t, double v) {
  ConstVal c;
  c.f = v;
  c.i = int64_t(v);
  return Const(Type::Scalar(t), c);
}

Value* Builder::ConstBool(bool v) { return ConstInt(ScalarType::Bool, v ? 1 : 0); }

Value* Builder::ZeroOf(const Type& t) { return Const(t, ConstVal{}); }

namespace {
Type ElementwiseResult(const Type& a, const Type& b) {
  if (a.is_tile()) return a.WithStorage(Storage::Register);
  if (b.is_tile()) return b.WithStorage(Storage::Register);
  return a;
}
}  // namespace

Value* Builder::Binary(OpCode code, Value* a, Value* b) {
  return Create(code, {a, b}, {ElementwiseResult(a->type(), b->type())})->result();
}

Value* Builder::Unary(OpCode code, Value* a) {
  return Create(code, {a}, {ElementwiseResult(a->type(), a->type())})->result();
}

Value* Builder::Fma(Value* a, Value* b, Value* c) {
  return Create(OpCode::Fma, {a, b, c}, {ElementwiseResult(a->type(), a->type())})->result();
}

Value* Builder::Clamp(Value* x, Value* lo, Value* hi) {
  return Create(OpCode::Clamp, {x, lo, hi}, {ElementwiseResult(x->type(), x->type())})->result();
}

Value* Builder::Cmp(CmpPred pred, Value* a, Value* b) {
  Op* op = Create(OpCode::Cmp, {a, b}, {Type::Scalar(ScalarType::Bool)});
  op->pred() = pred;
  return op->result();
}

Value* Builder::Logic(OpCode code, Value* a, Value* b) {
  return Create(code, {a, b}, {Type::Scalar(ScalarType::Bool)})->result();
}

Value* Builder::Select(Value* cond, Value* a, Value* b) {
  return Create(OpCode::Select, {cond, a, b}, {a->type()})->result();
}

Value* Builder::Cast(Value* v, ScalarType to) {
  Type t = v->type();
  if (t.is_tile()) {
    t.elem = ElemType::Of(to);
    t.storage = Storage::Register;
  } else {
    t = Type::Scalar(to);
  }
  return Create(OpCode::Cast, {v}, {t})->result();
}

std::vector<Value*> Builder::Tid(int count) {
  std::vector<Type> types(count, Type::Scalar(ScalarType::Int32));
  Op* op = Create(OpCode::Tid, {}, types);
  std::vector<Value*> out;
  for (auto& r : op->results()) out.push_back(r.get());
  return out;
}

Value* Builder::ArrayLoad(Value* array, const std::vector<Value*>& indices) {
  std::vector<Value*> ops{array};
  ops.insert(ops.end(), indices.begin(), indices.end());
  return Create(OpCode::ArrayLoad, ops, {array->type().ElemValueType()})->result();
}

void Builder::ArrayStore(Value* array, const std::vector<Value*>& indices, Value* v) {
  std::vector<Value*> ops{array};
  ops.insert(ops.end(), indices.begin(), indices.end());
  ops.push_back(v);
  Create(OpCode::ArrayStore, ops, {});
}

Value* Builder::AtomicAdd(Value* array, const std::vector<Value*>& indices, Value* v) {
  std::vector<Value*> ops{array};
  ops.insert(ops.end(), indices.begin(), indices.end());
  ops.push_back(v);
  return Create(OpCode::AtomicAdd, ops, {array->type().ElemValueType()})->result();
}

Value* Builder::AtomicRmw(AtomicKind k, Value* array, const std::vector<Value*>& indices, Value* cmp, Value* v) {
  std::vector<Value*> ops{array};
  ops.insert(ops.end(), indices.begin(), indices.end());
  if (cmp) ops.push_back(cmp);
  ops.push_back(v);
  Op* op = Create(OpCode::AtomicRmw, ops, {array->type().ElemValueType()});
  op->rmw() = k;
  return op->result();
}

Value* Builder::BlockDim() {
  return Create(OpCode::BlockDim, {}, {Type::Scalar(ScalarType::Int32)})->result();
}

Value* Builder::LaneId() {
  return Create(OpCode::LaneId, {}, {Type::Scalar(ScalarType::Int32)})->result();
}

Value* Builder::ArrayDim(Value* array, int dim) {
  Op* op = Create(OpCode::ArrayDim, {array}, {Type::Scalar(ScalarType::Int32)});
  op->dim() = dim;
  return op->result();
}

Value* Builder::FieldGet(Value* s, int field) {
  Type t = Type::None();
  const Type& st = s->type();
  if (st.is_struct() && st.elem.struct_index < int(module_.structs().size())) {
    const StructDef& def = module_.structs()[st.elem.struct_index];
    if (field >= 0 && field < int(def.fields.size())) t = Type::Elem(def.fields[field].type);
  }
  Op* op = Create(OpCode::FieldGet, {s}, {t});
  op->field() = field;
  return op->result();
}

Value* Builder::FieldSet(Value* s, int field, Value* v) {
  Op* op = Create(OpCode::FieldSet, {s, v}, {s->type()});
  op->field() = field;
  return op->result();
}

Value* Builder::TileFull(Value* v, const std::vector<int64_t>& shape, Storage storage) {
  return Create(OpCode::TileFull, {v}, {Type::Tile(v->type().elem, shape, storage)})->result();
}

Value* Builder::TileArange(ScalarType dtype, double start, double step, int64_t count,
                           Storage storage) {
  Op* op = Create(OpCode::TileArange, {}, {Type::Tile(ElemType::Of(dtype), {count}, storage)});
  op->start() = ConstVal{int64_t(start), start};
  op->step() = ConstVal{int64_t(step), step};
  return op->result();
}

Value* Builder::TileLoad(Value* array, const std::vector<int64_t>& shape,
                         const std::vector<Value*>& offsets, Storage storage) {
  std::vector<Value*> ops{array};
  ops.insert(ops.end(), offsets.begin(), offsets.end());
  return Create(OpCode::TileLoad, ops, {Type::Tile(array->type().elem, shape, storage)})->result();
}

void Builder::TileStore(Value* array, Value* tile, const std::vector<Value*>& offsets) {
  std::vector<Value*> ops{array, tile};
  ops.insert(ops.end(), offsets.begin(), offsets.end());
  Create(OpCode::TileStore, ops, {});
}

Value* Builder::TileAtomicAdd(Value* array, Value* tile, const std::vector<Value*>& offsets) {
  std::vector<Value*> ops{array, tile};
  ops.insert(ops.end(), offsets.begin(), offsets.end());
  return Create(OpCode::TileAtomicAdd, ops, {tile->type()})->result();
}

Value* Builder::TileLoadIndexed(Value* array, Value* indices, const std::vector<int64_t>& shape,
                                const std::vector<Value*>& offsets, int axis, Storage storage) {
  std::vector<Value*> ops{array, indices};
  ops.insert(ops.end(), offsets.begin(), offsets.end());
  Op* op = Create(OpCode::TileLoadIndexed, ops, {Type::Tile(array->type().elem, shape, storage)});
  op->axis() = axis;
  return op->result();
}

void Builder::TileStoreIndexed(Value* array, Value* indices, Value* tile,
                               const std::vector<Value*>& offsets, int axis) {
  std::vector<Value*> ops{array, indices, tile};
  ops.insert(ops.end(), offsets.begin(), offsets.end());
  Create(OpCode::TileStoreIndexed, ops, {})->axis() = axis;
}

Value* Builder::TileAtomicAddIndexed(Value* array, Value* indices, Value* tile,
                                     const std::vector<Value*>& offsets, int axis) {
  std::vector<Value*> ops{array, indices, tile};
  ops.insert(ops.end(), offsets.begin(), offsets.end());
  Op* op = Create(OpCode::TileAtomicAddIndexed, ops, {tile->type()});
  op->axis() = axis;
  return op->result();
}

Value* Builder::TileSum(Value* tile) {
  Type t = Type::Tile(tile->type().elem, {1}, Storage::Register);
  return Create(OpCode::TileSum, {tile}, {t})->result();
}

Value* Builder::TileReduce(ReduceKind kind, Value* tile, int axis) {
  const Type& in = tile->type();
  std::vector<int64_t> shape{1};
  if (axis >= 0 && in.ndim > 1) {
    shape = in.Shape();
    shape.erase(shape.begin() + std::min(axis, in.ndim - 1));
  }
  Op* op = Create(OpCode::TileReduce, {tile}, {Type::Tile(in.elem, shape, Storage::Register)});
  op->kind() = kind;
  op->axis() = axis;
  return op->result();
}

Value* Builder::TileScan(ReduceKind kind, Value* tile, bool inclusive) {
  Op* op = Create(OpCode::TileScan, {tile}, {tile->type().WithStorage(Storage::Register)});
  op->kind() = kind;
  op->inclusive() = inclusive;
  return op->result();
}

Value* Builder::TileBroadcast(Value* tile, const std::vector<int64_t>& shape) {
  return Create(OpCode::TileBroadcast, {tile}, {Type::Tile(tile->type().elem, shape, Storage::Register)})->result();
}

Value* Builder::TileReshape(Value* tile, const std::vector<int64_t>& shape) {
  return Create(OpCode::TileReshape, {tile}, {Type::Tile(tile->type().elem, shape, Storage::Register)})->result();
}

Value* Builder::TilePermute(Value* tile, const std::vector<int64_t>& perm) {
  const Type& in = tile->type();
  std::vector<int64_t> shape;
  for (int64_t d : perm) shape.push_back(d >= 0 && d < in.ndim ? in.shape[size_t(d)] : 0);
  Op* op = Create(OpCode::TilePermute, {tile}, {Type::Tile(in.elem, shape, Storage::Register)});
  op->perm() = perm;
  return op->result();
}

Value* Builder::FirstIndexOf(Value* tile, Value* target, Value* lin) {
  const Type& tt = tile->type();
  std::vector<int64_t> shape = tt.Shape();
  int64_t n = tt.NumElements();
  if (!lin) {
    lin = TileArange(ScalarType::Int32, 0, 1, n);
    if (tt.ndim > 1) lin = TileReshape(lin, shape);
  }
  // Per element: its index where it equals the target, else n; the least of those is the first.
  Value* cand = SelectWhereEqual(tile, TileBroadcast(target, shape), lin, ConstInt(ScalarType::Int32, n));
  return TileReduce(ReduceKind::Min, cand, -1);
}

// A stable sort by index groups equal entries in order of position; the last of each group is
// kept, and the inverse permutation (a second sort) carries that back to the positions.
Value* Builder::LastOccurrences(Value* indices) {
  const Type& it = indices->type();
  int64_t n = it.NumElements();
  Value* pos = TileArange(ScalarType::Int32, 0, 1, n);
  Op* by_index = TileSort(indices, pos);
  Value* keys = by_index->result(0);
  Value* next = TileView(keys, {ConstInt(ScalarType::Int32, 1)}, {1}, {n});  // past the end reads 0
  Op* ends = TileMap({keys, next, pos}, ElemType::Of(ScalarType::Int32));
  {
    InsertionGuard g(*this);
    SetInsertionPoint(ends->region(0));
    Block* body = ends->region(0);
    Value* differs = Cmp(CmpPred::Ne, body->arg(0), body->arg(1));
    Value* at_end = Cmp(CmpPred::Eq, body->arg(2), ConstInt(ScalarType::Int32, n - 1));
    Yield({Select(Logic(OpCode::Or, differs, at_end), ConstInt(ScalarType::Int32, 1), ConstInt(ScalarType::Int32, 0))});
  }
  Value* inverse = TileSort(by_index->result(1), pos)->result(1);
  Value* keep = TileGather(ends->result(), inverse, 0);
  return SelectWhereEqual(keep, TileFull(ConstInt(ScalarType::Int32, 1), {n}), indices,
                          ConstInt(it.elem.scalar, -1));
}

Value* Builder::SelectWhereEqual(Value* a, Value* b, Value* then, Value* otherwise) {
  Op* map = TileMap({a, b, then}, then->type().elem);
  InsertionGuard g(*this);
  Block* body = map->region(0);
  SetInsertionPoint(body);
  Value* hit = Cmp(CmpPred::Eq, body->arg(0), body->arg(1));
  Yield({Select(hit, body->arg(2), otherwise)});
  return map->result();
}

Value* Builder::TileExtract(Value* tile, const std::vector<Value*>& indices) {
  std::vector<Value*> ops{tile};
  ops.insert(ops.end(), indices.begin(), indices.end());
  return Create(OpCode::TileExtract, ops, {tile->type().ElemValueType()})->result();
}

Value* Builder::TileScatterLanes(Value* dst, Value* value, Value* has_value, const std::vector<Value*>& indices,
                                 bool accumulate) {
  std::vector<Value*> ops{dst, value, has_value};
  ops.insert(ops.end(), indices.begin(), indices.end());
  Op* op = Create(OpCode::TileScatterLanes, ops, {dst->type().WithStorage(Storage::Shared)});
  op->accumulate() = accumulate;
  return op->result();
}

Value* Builder::ArraySlice(Value* array, const std::vector<Value*>& indices) {
  std::vector<Value*> ops{array};
  ops.insert(ops.end(), indices.begin(), indices.end());
  const Type& at = array->type();
  return Create(OpCode::ArraySlice, ops, {Type::Array(at.elem, at.ndim - int(indices.size()))})->result();
}

Value* Builder::ArrayView(Value* array, const std::vector<Value*>& bounds, const std::vector<int64_t>& steps) {
  std::vector<Value*> ops{array};
  ops.insert(ops.end(), bounds.begin(), bounds.end());
  const Type& at = array->type();
  const int dropped = int(std::count(steps.begin(), steps.end(), int64_t(0)));
  Op* op = Create(OpCode::ArrayView, ops, {Type::Array(at.elem, at.ndim - dropped)});
  op->steps() = steps;
  return op->result();
}

Value* Builder::TileInsert(Value* tile, Value* v, const std::vector<Value*>& indices) {
  std::vector<Value*> ops{tile, v};
  ops.insert(ops.end(), indices.begin(), indices.end());
  return Create(OpCode::TileInsert, ops, {tile->type().WithStorage(Storage::Register)})->result();
}

Value* Builder::TileView(Value* tile, const std::vector<Value*>& offsets, const std::vector<int64_t>& steps,
                         const std::vector<int64_t>& shape) {
  std::vector<Value*> ops{tile};
  ops.insert(ops.end(), offsets.begin(), offsets.end());
  Op* op = Create(OpCode::TileView, ops, {Type::Tile(tile->type().elem, shape, Storage::Register)});
  op->steps() = steps;
  return op->result();
}

Value* Builder::TileAssign(Value* dst, Value* src, const std::vector<Value*>& offsets,
                           const std::vector<int64_t>& steps) {
  std::vector<Value*> ops{dst, src};
  ops.insert(ops.end(), offsets.begin(), offsets.end());
  Op* op = Create(OpCode::TileAssign, ops, {dst->type().WithStorage(Storage::Register)});
  op->steps() = steps;
  return op->result();
}

Value* Builder::TileGather(Value* tile, Value* indices, int axis) {
  std::vector<int64_t> shape = tile->type().Shape();
  shape[size_t(axis)] = indices->type().shape[0];
  Op* op = Create(OpCode::TileGather, {tile, indices}, {Type::Tile(tile->type().elem, shape, Storage::Register)});
  op->axis() = axis;
  return op->result();
}

Value* Builder::TileScatterAdd(Value* dst, Value* indices, Value* src, int axis) {
  Op* op = Create(OpCode::TileScatterAdd, {dst, indices, src}, {dst->type().WithStorage(Storage::Register)});
  op->axis() = axis;
  return op->result();
}

Op* Builder::TileSort(Value* keys, Value* values) {
  // Lanes write the results at ranks they do not own: shared storage on the GPU.
  return Create(OpCode::TileSort, {keys, values},
                {keys->type().WithStorage(Storage::Shared), values->type().WithStorage(Storage::Shared)});
}

Value* Builder::TileMatmul(Value* a, Value* b, Value* c, bool tf32) {
  Op* op = Create(OpCode::TileMatmul, {a, b, c}, {c->type().WithStorage(Storage::Register)});
  op->tf32() = tf32;
  return op->result();
}

// Lane 0 writes every element of these results on the GPU, hence shared storage.
Value* Builder::TileDiagAdd(Value* a, Value* d) {
  return Create(OpCode::TileDiagAdd, {a, d}, {a->type().WithStorage(Storage::Shared)})->result();
}

Value* Builder::TileCholesky(Value* a) {
  return Create(OpCode::TileCholesky, {a}, {a->type().WithStorage(Storage::Shared)})->result();
}

// Lanes write butterflies at elements other lanes own: shared storage on the GPU.
Op* Builder::TileFft(Value* re, Value* im, bool inverse) {
  Op* op = Create(OpCode::TileFft, {re, im},
                  {re->type().WithStorage(Storage::Shared), im->type().WithStorage(Storage::Shared)});
  op->inverse() = inverse;
  return op;
}

Value* Builder::TileTriSolve(OpCode code, Value* m, Value* y) {
  return Create(code, {m, y}, {y->type().WithStorage(Storage::Shared)})->result();
}

Value* Builder::TileTril(Value* t, bool inclusive) {
  Op* op = Create(OpCode::TileTril, {t}, {t->type().WithStorage(Storage::Register)});
  op->inclusive() = inclusive;
  return op->result();
}

Op* Builder::TileMap(const std::vector<Value*>& tiles, ElemType result_elem) {
  Type rt = tiles.empty() ? Type::None() : tiles[0]->type();
  rt.elem = result_elem;
  rt.storage = Storage::Register;
  Op* op = Create(OpCode::TileMap, tiles, {rt});
  Block* body = op->AddRegion();
  for (Value* t : tiles) body->AddArg(t->type().ElemValueType());
  return op;
}

void Builder::Print(std::vector<std::string> strs, const std::vector<Value*>& values) {
  Create(OpCode::Print, values, {})->texts() = std::move(strs);
}

void Builder::Assert(Value* cond) { Create(OpCode::Assert, {cond}, {}); }

Op* Builder::If(Value* cond, const std::vector<Type>& result_types) {
  Op* op = Create(OpCode::If, {cond}, result_types);
  op->AddRegion();
  op->AddRegion();
  return op;
}

Op* Builder::For(Value* lo, Value* hi, Value* step, const std::vector<Value*>& inits) {
  std::vector<Value*> ops{lo, hi, step};
  ops.insert(ops.end(), inits.begin(), inits.end());
  std::vector<Type> types;
  for (Value* v : inits) types.push_back(v->type());
  Op* op = Create(OpCode::For, ops, types);
  Block* body = op->AddRegion();
  body->AddArg(lo->type());
  for (Value* v : inits) body->AddArg(v->type());
  return op;
}

Op* Builder::While(const std::vector<Value*>& inits, const std::vector<Type>& forwarded_types) {
  Op* op = Create(OpCode::While, inits, forwarded_types);
  Block* before = op->AddRegion();
  for (Value* v : inits) before->AddArg(v->type());
  Block* after = op->AddRegion();
  for (const Type& t : forwarded_types) after->AddArg(t);
  return op;
}

void Builder::Yield(const std::vector<Value*>& values) { Create(OpCode::Yield, values, {}); }

void Builder::Condition(Value* cond, const std::vector<Value*>& values) {
  std::vector<Value*> ops{cond};
  ops.insert(ops.end(), values.begin(), values.end());
  Create(OpCode::Condition, ops, {});
}

void Builder::Return() { Create(OpCode::Return, {}, {}); }

}  // namespace tilec::ir
