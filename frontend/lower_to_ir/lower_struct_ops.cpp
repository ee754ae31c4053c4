// Warp's generated operators on @wp.struct values, which tiles of structs use element by
// element: + and - (and negation) field by field, over the fields whose types accumulate.
#include "frontend/lower_to_ir/lowerer.h"

namespace tilec::lower {

using ir::OpCode;

bool IsVectorLike(Lowerer& L, const ir::ElemType& e) {
  return e.is_struct() && L.m_.structs()[size_t(e.struct_index)].composite.valid();
}

bool Accumulates(const ir::ElemType& e) {
  if (e.is_struct()) return true;
  switch (e.scalar) {
    case ScalarType::Int32: case ScalarType::Int64: case ScalarType::UInt32: case ScalarType::UInt64:
    case ScalarType::Float16: case ScalarType::BFloat16: case ScalarType::Float32: case ScalarType::Float64:
      return true;
    case ScalarType::Bool: case ScalarType::Int8: case ScalarType::Int16: case ScalarType::UInt8:
    case ScalarType::UInt16:
      return false;
  }
  return false;
}

ir::Value* FieldwiseStruct(Lowerer& L, OpCode op, ir::Value* x, ir::Value* y) {
  const ir::ElemType elem = x->type().elem;
  const ir::Type et = ir::Type::Struct(elem.struct_index);
  if (IsVectorLike(L, elem)) {
    using sema::CompositeOp;
    if (!y) return L.CompositeOfValues(CompositeOp::Neg, {x}, et);
    return L.CompositeOfValues(op == OpCode::Sub ? CompositeOp::Sub : CompositeOp::Add, {x, y}, et);
  }
  ir::Value* v = x;
  const auto& fields = L.m_.structs()[size_t(elem.struct_index)].fields;
  for (size_t k = 0; k < fields.size(); ++k) {
    if (!Accumulates(fields[k].type)) continue;
    ir::Value* fx = L.b_.FieldGet(x, int(k));
    ir::Value* r;
    if (fields[k].type.is_struct()) r = FieldwiseStruct(L, op, fx, y ? L.b_.FieldGet(y, int(k)) : nullptr);
    else if (!y) r = L.b_.Unary(OpCode::Neg, fx);
    else r = L.b_.Binary(op, fx, L.b_.FieldGet(y, int(k)));
    v = L.b_.FieldSet(v, int(k), r);
  }
  return v;
}

}  // namespace tilec::lower
