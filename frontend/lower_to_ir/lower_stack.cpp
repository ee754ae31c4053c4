// The block-shared stack's slots: the element type it keeps them in (narrow scalars widened),
// and where its count lives (the last slot, or a field of it), read and written back.
#include <functional>

#include "frontend/lower_to_ir/lowerer.h"

namespace tilec::lower {

namespace {

ir::Value* Int32ConstOf(ir::Builder& b, int64_t v) { return b.ConstInt(ScalarType::Int32, v); }

bool Encloses(const ir::Block* outer, const ir::Block* b) {
  while (b && b != outer) b = b->parent_op() ? b->parent_op()->parent_block() : nullptr;
  return b == outer;
}

}  // namespace

ir::ElemType Lowerer::StackSlotElem(ir::ElemType e) {
  if (e.is_struct()) return e;
  switch (e.scalar) {
    case ScalarType::Bool: case ScalarType::Int8: case ScalarType::Int16: return ir::ElemType::Of(ScalarType::Int32);
    case ScalarType::UInt8: case ScalarType::UInt16: return ir::ElemType::Of(ScalarType::UInt32);
    case ScalarType::Float16: case ScalarType::BFloat16: return ir::ElemType::Of(ScalarType::Float32);
    case ScalarType::Int32: case ScalarType::UInt32: case ScalarType::Int64: case ScalarType::UInt64:
    case ScalarType::Float32: case ScalarType::Float64:
      return e;
  }
  return e;
}

std::vector<int> Lowerer::StackCountPath(ir::ElemType e) {
  std::function<bool(ir::ElemType, std::vector<int>&)> find = [&](ir::ElemType t, std::vector<int>& path) {
    if (!t.is_struct()) return StackSlotElem(t) == t && t.scalar != ScalarType::Bool;
    const auto& fields = m_.structs()[size_t(t.struct_index)].fields;
    for (size_t k = 0; k < fields.size(); ++k) {
      path.push_back(int(k));
      if (find(fields[k].type, path)) return true;
      path.pop_back();
    }
    return false;
  };
  std::vector<int> path;
  find(e, path);  // the checker made sure there is one
  return path;
}

ir::Value* Lowerer::StackCount(ir::Value* stack) {
  auto it = stack_counts_.find(stack);
  if (it != stack_counts_.end() && Encloses(it->second.block, b_.insertion_block())) return it->second.count;
  const int64_t capacity = stack->type().shape[0] - 1;
  ir::Value* slot = b_.TileExtract(stack, {Int32ConstOf(b_, capacity)});
  for (int k : StackCountPath(stack->type().elem)) slot = b_.FieldGet(slot, k);
  ir::Value* n = Convert(slot, ir::Type::Scalar(ScalarType::Int32));
  stack_counts_[stack] = {n, b_.insertion_block()};
  return n;
}

ir::Value* Lowerer::WithStackCount(ir::Value* stack, ir::Value* count) {
  ir::Value* cap = Int32ConstOf(b_, stack->type().shape[0] - 1);
  const std::vector<int> path = StackCountPath(stack->type().elem);
  if (path.empty()) return b_.TileInsert(stack, Convert(count, stack->type().ElemValueType()), {cap});
  // Set the field at the end of the path, and each struct on the way back up.
  std::vector<ir::Value*> chain = {b_.TileExtract(stack, {cap})};
  for (size_t k = 0; k + 1 < path.size(); ++k) chain.push_back(b_.FieldGet(chain.back(), path[k]));
  ir::Value* leaf = b_.FieldGet(chain.back(), path.back());
  ir::Value* v = b_.FieldSet(chain.back(), path.back(), Convert(count, leaf->type()));
  for (size_t k = path.size() - 1; k-- > 0;) v = b_.FieldSet(chain[k], path[k], v);
  return b_.TileInsert(stack, v, {cap});
}

// A stack cannot change under a lane-varying condition (push, pop and clear are cooperative),
// so inside one every stack variable still holds the value it had here.
void Lowerer::HoistStackCounts() {
  for (auto& [key, binding] : env_)
    if (binding.value && stack_keys_.count(key)) StackCount(binding.value);
}

}  // namespace tilec::lower
