// Ownership plumbing of the Tile IR (values, blocks, ops, kernels, modules) and the op table.
#include "ir/ir.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace tilec::ir {

namespace {

constexpr AttrInfo kAttrInfo[] = {
#define ATTR(name, accessor, kind) {#accessor, AttrKind::kind},
#include "ir/attrs.def"
#undef ATTR
};

const std::vector<OpInfo>& OpTable() {
  static const std::vector<OpInfo> table = [] {
    using enum OpFamily;
    using enum AttrId;
    return std::vector<OpInfo>{
#define OP(name, spelling, family, operands, results, traits, ...) \
  {spelling, family, operands, results, uint32_t(traits), {__VA_ARGS__}},
#include "ir/ops.def"
#undef OP
    };
  }();
  return table;
}

AttrValue DefaultAttr(AttrKind k) {
  switch (k) {
    case AttrKind::Scalar: return ConstVal{};
    case AttrKind::Int: return int64_t{0};
    case AttrKind::Pred: return CmpPred::Eq;
    case AttrKind::Reduce: return ReduceKind::Add;
    case AttrKind::Bool: return false;
    case AttrKind::IntList: return std::vector<int64_t>{};
    case AttrKind::Strings: return std::vector<std::string>{};
    case AttrKind::Atomic: return AtomicKind::Sub;
  }
  std::abort();
}

}  // namespace

const AttrInfo& InfoOf(AttrId id) { return kAttrInfo[int(id)]; }
const OpInfo& InfoOf(OpCode code) { return OpTable()[size_t(code)]; }
std::string_view OpName(OpCode code) { return InfoOf(code).name; }
OpFamily FamilyOf(OpCode code) { return InfoOf(code).family; }
bool IsTerminator(OpCode code) { return HasTrait(code, kTerminator); }

bool HasSideEffects(OpCode code) {
  return (InfoOf(code).traits & (kWritesMemory | kSideEffect)) != 0;
}

std::string_view ReduceKindName(ReduceKind k) {
  switch (k) {
    case ReduceKind::Add: return "add";
    case ReduceKind::Mul: return "mul";
    case ReduceKind::Min: return "min";
    case ReduceKind::Max: return "max";
    case ReduceKind::BitAnd: return "bit_and";
    case ReduceKind::BitOr: return "bit_or";
    case ReduceKind::BitXor: return "bit_xor";
  }
  return "?";
}

std::string_view AtomicKindName(AtomicKind k) {
  switch (k) {
    case AtomicKind::Sub: return "sub";
    case AtomicKind::Min: return "min";
    case AtomicKind::Max: return "max";
    case AtomicKind::Exch: return "exch";
    case AtomicKind::Cas: return "cas";
    case AtomicKind::BitAnd: return "bit_and";
    case AtomicKind::BitOr: return "bit_or";
    case AtomicKind::BitXor: return "bit_xor";
  }
  return "?";
}

bool AtomicKindSupports(AtomicKind k, ScalarType t) {
  bool word = t == ScalarType::Int32 || t == ScalarType::UInt32 || t == ScalarType::Int64 || t == ScalarType::UInt64;
  bool wide_float = t == ScalarType::Float32 || t == ScalarType::Float64;
  switch (k) {
    case AtomicKind::Sub: return SupportsAtomicAdd(t);
    case AtomicKind::Min: case AtomicKind::Max: return word || wide_float || t == ScalarType::BFloat16;
    case AtomicKind::Exch: case AtomicKind::Cas: return word || wide_float;
    case AtomicKind::BitAnd: case AtomicKind::BitOr: case AtomicKind::BitXor: return word;
  }
  return false;
}

bool AtomicKindSupportsComposite(AtomicKind k, const Composite& c) {
  if (!c.valid() || !AtomicKindSupports(k, c.scalar)) return false;
  bool vec_or_mat = c.kind == CompositeKind::Vector || c.kind == CompositeKind::Matrix ||
                    c.kind == CompositeKind::SpatialVector || c.kind == CompositeKind::SpatialMatrix;
  switch (k) {
    case AtomicKind::Sub: return true;
    case AtomicKind::Min: case AtomicKind::Max: case AtomicKind::BitAnd: case AtomicKind::BitOr: case AtomicKind::BitXor:
      return vec_or_mat;
    case AtomicKind::Exch: case AtomicKind::Cas: return false;
  }
  return false;
}

std::string AtomicKindCompositeList(AtomicKind k) {
  switch (k) {
    case AtomicKind::Sub: return "vectors, matrices, quaternions and transforms";
    case AtomicKind::Min: case AtomicKind::Max: case AtomicKind::BitAnd: case AtomicKind::BitOr: case AtomicKind::BitXor:
      return "vectors and matrices";
    case AtomicKind::Exch: case AtomicKind::Cas: return "no vector-like types";
  }
  return "";
}

std::string AtomicKindTypeList(AtomicKind k) {
  switch (k) {
    case AtomicKind::Sub: return "int32, uint32, int64, uint64, float16, bfloat16, float32 or float64";
    case AtomicKind::Min: case AtomicKind::Max: return "int32, uint32, int64, uint64, bfloat16, float32 or float64";
    case AtomicKind::Exch: case AtomicKind::Cas: return "int32, uint32, int64, uint64, float32 or float64";
    case AtomicKind::BitAnd: case AtomicKind::BitOr: case AtomicKind::BitXor: return "int32, uint32, int64 or uint64";
  }
  return "";
}

Op::Op(OpCode code, Loc loc) : code_(code), loc_(loc) {
  for (AttrId id : InfoOf(code).attrs) attrs_.push_back(DefaultAttr(InfoOf(id).kind));
}

bool Op::has_attr(AttrId id) const {
  for (AttrId a : InfoOf(code_).attrs)
    if (a == id) return true;
  return false;
}

const AttrValue& Op::attr(AttrId id) const {
  const std::vector<AttrId>& declared = InfoOf(code_).attrs;
  for (size_t i = 0; i < declared.size(); ++i)
    if (declared[i] == id) return attrs_[i];
  // A stage asked for an attribute ops.def does not give this op: a compiler bug, and going on
  // would read another attribute's value.
  std::fprintf(stderr, "internal compiler error: op `%s` has no attribute `%s`\n",
               std::string(OpName(code_)).c_str(), std::string(InfoOf(id).name).c_str());
  std::abort();
}

AttrValue& Op::attr(AttrId id) { return const_cast<AttrValue&>(std::as_const(*this).attr(id)); }

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
