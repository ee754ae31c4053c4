// The rules of Warp's block-shared stack: wp.tile_stack and the tile_stack_* builtins
// (docs/lanes.rst). The stack is a type of its own, so that no tile builtin, operator or
// `print` takes it.
#include <string>

#include "frontend/sema/builtin_rules.h"
#include "frontend/sema/checker.h"

namespace tilec::sema {

using diag::Code;

namespace {

// Warp's tile_stack takes both arguments by keyword only.
bool StackKeywords(CallContext& c) {
  for (const CallArg& a : c.args) {
    if (!a.keyword.empty()) continue;
    c.Error(Code::TooManyArguments, a.range,
            c.bname + " takes its arguments by keyword: `wp.tile_stack(capacity=..., dtype=...)`");
    return false;
  }
  return true;
}

bool StackCapacity(CallContext& c) {
  const ConstValue* cap = c.Const(Param::Capacity);
  if (cap->AsInt() > 0) return true;
  c.Error(Code::InvalidConstant, c.Range(Param::Capacity),
          c.bname + ": `capacity` must be a positive integer, got `" + FormatConst(*cap) + "`");
  return false;
}

// The element count lives in the stack's last slot: a scalar stack stores its elements in a
// type that holds every count exactly (narrower ones widen: int8 in int32, float16 in float32),
// a struct stack in the first 32- or 64-bit integer or float field of the last element (found
// depth first, through vectors and nested structs), which its struct must have.
bool CountsExactly(ScalarType s) {
  switch (s) {
    case ScalarType::Int32: case ScalarType::UInt32: case ScalarType::Int64: case ScalarType::UInt64:
    case ScalarType::Float32: case ScalarType::Float64:
      return true;
    case ScalarType::Bool: case ScalarType::Int8: case ScalarType::UInt8: case ScalarType::Int16:
    case ScalarType::UInt16: case ScalarType::Float16: case ScalarType::BFloat16:
      return false;
  }
  return false;
}

bool HasCountField(CallContext& c, const Type* t) {
  if (t->IsScalar()) return CountsExactly(t->scalar);
  if (t->kind != TypeKind::Struct) return false;
  if (const Composite* k = c.checker.CompositeOf(t)) return CountsExactly(k->scalar);
  for (const FieldInfo& f : c.out().structs[size_t(t->struct_index)].fields)
    if (f.type && HasCountField(c, f.type)) return true;
  return false;
}

bool StackDType(CallContext& c) {
  const Type* t = c.Const(Param::DType)->type;
  if (t && (t->IsScalar() || (t->kind == TypeKind::Struct && HasCountField(c, t)))) return true;
  c.Error(Code::TileOperatorUnsupported, c.Range(Param::DType),
          c.bname + " holds scalars, vectors, matrices or structs with a 32- or 64-bit integer or float field (where "
                    "the stack keeps its count), but `dtype` is `" + TypeName(t) + "`");
  return false;
}

// push, pop and clear update the stack in place: `s` must name a variable, which the call
// rebinds.
bool StackVariable(CallContext& c) {
  const auto* n = c.Arg(Param::S).expr->As<ast::Name>();
  if (n && c.Local(n->id)) return true;
  c.Error(Code::InPlaceTargetNotVariable, c.Range(Param::S),
          "`s` of " + c.bname + " is updated in place, so it must be a tile stack variable; found " +
              c.Quoted(Param::S) + "; assign it to a variable first");
  return false;
}
void CommitStackVariable(CallContext& c) {
  LocalSymbol* sym = c.Local(c.Arg(Param::S).expr->As<ast::Name>()->id);
  ++sym->assignment_count;
  sym->constant.reset();
}

bool StackValue(CallContext& c) {
  const Type* et = c.types.FromElem(c.TypeOf(Param::S)->elem);
  CallArg& v = c.Arg(Param::Value);
  if (c.checker.Convert(v.expr, v.info, et)) return true;
  c.Error(Code::TileDTypeMismatch, v.range,
          "`value` of " + c.bname + " is `" + TypeName(v.info.type) + "`, which does not match the `" + TypeName(et) +
              "` that stack " + c.Quoted(Param::S) + " holds");
  return false;
}

bool FormTileStack(CallContext& c, ExprInfo& out) {
  out.type = c.types.TileStack(c.Const(Param::DType)->type->AsElem(), c.Const(Param::Capacity)->AsInt(),
                               c.checker.options().block_dim);
  out.uniform = true;  // one stack of the block
  return true;
}

bool FormStackSlot(CallContext& c, ExprInfo& out) {
  out.type = c.types.Int32();
  out.uniform = false;
  out.provenance = Provenance{"`" + c.checker.Text(c.node) + "` is each lane's own slot", c.node->range, true};
  return true;
}

bool FormStackPop(CallContext& c, ExprInfo& out) {
  out.type = c.types.Tuple({c.types.FromElem(c.TypeOf(Param::S)->elem), c.types.Int32()});
  out.uniform = false;
  out.provenance = Provenance{"`" + c.checker.Text(c.node) + "` is each lane's own element", c.node->range, true};
  return true;
}

// The count is the block's: uniform whenever the stack is.
bool FormStackCount(CallContext& c, ExprInfo& out) {
  out.type = c.types.Int32();
  return true;
}

}  // namespace

namespace rules {
using P = Param;
const RuleSpec StackKeywords{"StackKeywords", {Code::TooManyArguments}, {}, &sema::StackKeywords};
const RuleSpec StackCapacity{"StackCapacity", {Code::InvalidConstant}, {P::Capacity}, &sema::StackCapacity};
const RuleSpec StackDType{"StackDType", {Code::TileOperatorUnsupported}, {P::DType}, &sema::StackDType};
const RuleSpec StackVariable{"StackVariable", {Code::InPlaceTargetNotVariable}, {P::S}, &sema::StackVariable,
                             &sema::CommitStackVariable};
const RuleSpec StackValue{"StackValue", {Code::TileDTypeMismatch}, {P::S, P::Value}, &sema::StackValue};
}  // namespace rules

namespace results {
using P = Param;
const ResultSpec TileStack{"TileStack", {P::Capacity, P::DType}, &FormTileStack};
const ResultSpec StackSlot{"StackSlot", {P::S}, &FormStackSlot};
const ResultSpec StackPop{"StackPop", {P::S}, &FormStackPop};
const ResultSpec StackCount{"StackCount", {P::S}, &FormStackCount};
}  // namespace results

}  // namespace tilec::sema
