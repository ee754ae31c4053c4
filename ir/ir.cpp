// Ownership plumbing of the Tile IR (values, blocks, ops, kernels, modules) and the op table.
#include "ir/ir.h"

#include <algorithm>

namespace tilec::ir {

namespace {
struct OpRow {
  std::string_view name;
  OpKind kind;
};
constexpr OpRow kOpRows[] = {
#define OP(name, spelling, kind) {spelling, OpKind::kind},
#include "ir/ops.def"
#undef OP
};
}  // namespace

std::string_view OpName(OpCode code) { return kOpRows[int(code)].name; }
OpKind KindOf(OpCode code) { return kOpRows[int(code)].kind; }
bool IsTerminator(OpCode code) { return KindOf(code) == OpKind::Terminator; }

bool HasSideEffects(OpCode code) {
  switch (code) {
    case OpCode::ArrayStore: case OpCode::AtomicAdd: case OpCode::TileStore:
    case OpCode::TileAtomicAdd: case OpCode::TileStoreIndexed: case OpCode::TileAtomicAddIndexed:
    case OpCode::Print: case OpCode::Yield: case OpCode::Condition: case OpCode::Return:
      return true;
    default:
      return false;
  }
}

std::string_view CmpPredName(CmpPred p) {
  switch (p) {
    case CmpPred::Eq: return "eq";
    case CmpPred::Ne: return "ne";
    case CmpPred::Lt: return "lt";
    case CmpPred::Le: return "le";
    case CmpPred::Gt: return "gt";
    case CmpPred::Ge: return "ge";
  }
  return "?";
}

Value* Block::AddArg(const Type& t) {
  args_.push_back(std::make_unique<Value>(t, nullptr, this, int(args_.size())));
  return args_.back().get();
}

Op* Block::terminator() const {
  if (ops_.empty() || !IsTerminator(ops_.back()->code())) return nullptr;
  return ops_.back().get();
}

Op* Block::Append(std::unique_ptr<Op> op) {
  op->set_parent_block(this);
  ops_.push_back(std::move(op));
  return ops_.back().get();
}

Op* Block::Insert(size_t pos, std::unique_ptr<Op> op) {
  op->set_parent_block(this);
  auto it = ops_.insert(ops_.begin() + std::min(pos, ops_.size()), std::move(op));
  return it->get();
}

Value* Op::AddResult(const Type& t) {
  results_.push_back(std::make_unique<Value>(t, this, nullptr, int(results_.size())));
  return results_.back().get();
}

Block* Op::AddRegion() {
  regions_.push_back(std::make_unique<Block>(this));
  return regions_.back().get();
}

Value* Function::AddParam(const std::string& name, const Type& type, Loc loc) {
  Value* v = body_->AddArg(type);
  v->set_name(name);
  params_.push_back(Param{name, loc});
  return v;
}

int Module::AddStruct(StructDef def) {
  structs_.push_back(std::move(def));
  ComputeStructLayout(structs_, int(structs_.size()) - 1);
  return int(structs_.size()) - 1;
}

Function* Module::AddFunction(std::string name, Loc loc) {
  functions_.push_back(std::make_unique<Function>(std::move(name), loc));
  return functions_.back().get();
}

Function* Module::FindFunction(std::string_view name) const {
  for (auto& f : functions_)
    if (f->name() == name) return f.get();
  return nullptr;
}

void ReplaceAllUses(Block* scope, Value* from, Value* to) {
  Walk(scope, [&](Op* op) {
    for (Value*& v : op->operands())
      if (v == from) v = to;
  });
}

}  // namespace tilec::ir
