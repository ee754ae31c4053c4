// Canonicalization: constant folding with the exact semantics the code generators give each
// op (integer wrap-around, truncating `/` and `%`, flooring `//`), constant merging and
// folding of constant `if`s. 16-bit floats are left to the code generators.
#include "ir/passes/canonicalize.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <tuple>

#include "ir/builder.h"
#include "ir/op_cases.h"

namespace tilec::ir {

namespace {

int64_t Wrap(int64_t v, ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return v != 0;
    case ScalarType::Int8: return int8_t(v);
    case ScalarType::Int16: return int16_t(v);
    case ScalarType::Int32: return int32_t(v);
    case ScalarType::UInt8: return uint8_t(v);
    case ScalarType::UInt16: return uint16_t(v);
    case ScalarType::UInt32: return uint32_t(v);
    case ScalarType::Int64: case ScalarType::UInt64: case ScalarType::Float16: case ScalarType::BFloat16:
    case ScalarType::Float32: case ScalarType::Float64:
      return v;
  }
  return v;
}

bool Foldable(const Type& t) {
  return t.is_scalar() && t.elem.scalar != ScalarType::Float16 && t.elem.scalar != ScalarType::BFloat16;
}

ConstVal Int(int64_t i, ScalarType t) {
  ConstVal c;
  c.i = Wrap(i, t);
  c.f = double(c.i);
  return c;
}

ConstVal Flt(double f, ScalarType t) {
  ConstVal c;
  c.f = t == ScalarType::Float32 ? double(float(f)) : f;
  return c;
}

std::optional<ConstVal> FoldInt(OpCode code, int64_t a, int64_t b, ScalarType t) {
  bool is_unsigned = !IsSigned(t);
  uint64_t ua = uint64_t(a), ub = uint64_t(b);
  switch (code) {
    case OpCode::Add: return Int(int64_t(ua + ub), t);
    case OpCode::Sub: return Int(int64_t(ua - ub), t);
    case OpCode::Mul: return Int(int64_t(ua * ub), t);
    case OpCode::Div:
      if (b == 0 || (!is_unsigned && a == INT64_MIN && b == -1)) return std::nullopt;
      return Int(is_unsigned ? int64_t(ua / ub) : a / b, t);
    case OpCode::Mod:
      if (b == 0 || (!is_unsigned && a == INT64_MIN && b == -1)) return std::nullopt;
      return Int(is_unsigned ? int64_t(ua % ub) : a % b, t);
    case OpCode::FloorDiv: {
      if (b == 0 || (!is_unsigned && a == INT64_MIN && b == -1)) return std::nullopt;
      if (is_unsigned) return Int(int64_t(ua / ub), t);
      int64_t q = a / b;
      if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
      return Int(q, t);
    }
    case OpCode::Min: return Int(is_unsigned ? int64_t(std::min(ua, ub)) : std::min(a, b), t);
    case OpCode::Max: return Int(is_unsigned ? int64_t(std::max(ua, ub)) : std::max(a, b), t);
    case OpCode::BitAnd: return Int(a & b, t);
    case OpCode::BitOr: return Int(a | b, t);
    case OpCode::BitXor: return Int(a ^ b, t);
    case OpCode::Cast: case OpCode::Pow: case OpCode::Shl: case OpCode::Shr: case OpCode::Neg:
    case OpCode::BitNot: case OpCode::Not: case OpCode::Abs: case OpCode::Sqrt: case OpCode::Exp:
    case OpCode::Log: case OpCode::Sin: case OpCode::Cos: case OpCode::Floor: case OpCode::Ceil:
    case OpCode::Clamp: TILEC_CASES(FloatMath) TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select)
    TILEC_CASES(Compare) TILEC_CASES(Logic) TILEC_CASES(Array) TILEC_CASES(Struct)
    TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul)
    TILEC_CASES(TileShape) TILEC_CASES(TileElement) TILEC_CASES(TileMemory) TILEC_CASES(Print)
    TILEC_CASES(Control) TILEC_CASES(Terminator)
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<ConstVal> FoldFloat(OpCode code, double a, double b, ScalarType t) {
  bool f32 = t == ScalarType::Float32;
  auto r = [&](double x) { return Flt(x, t); };
  switch (code) {
    case OpCode::Add: return f32 ? r(float(a) + float(b)) : r(a + b);
    case OpCode::Sub: return f32 ? r(float(a) - float(b)) : r(a - b);
    case OpCode::Mul: return f32 ? r(float(a) * float(b)) : r(a * b);
    case OpCode::Div: return f32 ? r(float(a) / float(b)) : r(a / b);
    case OpCode::Min: return r(std::fmin(a, b));
    case OpCode::Max: return r(std::fmax(a, b));
    case OpCode::Cast: case OpCode::FloorDiv: case OpCode::Mod: case OpCode::Pow:
    case OpCode::BitAnd: case OpCode::BitOr: case OpCode::BitXor: case OpCode::Shl:
    case OpCode::Shr: case OpCode::Neg: case OpCode::BitNot: case OpCode::Not: case OpCode::Abs:
    case OpCode::Sqrt: case OpCode::Exp: case OpCode::Log: case OpCode::Sin: case OpCode::Cos:
    case OpCode::Floor: case OpCode::Ceil: case OpCode::Clamp: TILEC_CASES(FloatMath) TILEC_CASES(Constant)
    TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Compare) TILEC_CASES(Logic) TILEC_CASES(Array)
    TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce)
    TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape) TILEC_CASES(TileElement) TILEC_CASES(TileMemory)
    TILEC_CASES(Print) TILEC_CASES(Control) TILEC_CASES(Terminator)
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<bool> FoldCmp(CmpPred p, const ConstVal& a, const ConstVal& b, ScalarType t) {
  auto cmp = [&](auto x, auto y) -> bool {
    switch (p) {
      case CmpPred::Eq: return x == y;
      case CmpPred::Ne: return x != y;
      case CmpPred::Lt: return x < y;
      case CmpPred::Le: return x <= y;
      case CmpPred::Gt: return x > y;
      case CmpPred::Ge: return x >= y;
    }
    return false;
  };
  if (IsFloat(t)) return cmp(a.f, b.f);
  if (!IsSigned(t)) return cmp(uint64_t(a.i), uint64_t(b.i));
  return cmp(a.i, b.i);
}

std::optional<ConstVal> FoldCast(const ConstVal& v, ScalarType from, ScalarType to) {
  if (IsFloat(from)) {
    if (to == ScalarType::Bool) return Int(v.f != 0, to);
    if (IsFloat(to)) return Flt(v.f, to);
    double tr = std::trunc(v.f);
    if (!(tr >= -9.2e18 && tr <= 9.2e18)) return std::nullopt;
    if (!IsSigned(to) && tr < 0) return std::nullopt;
    return Int(int64_t(tr), to);
  }
  if (IsFloat(to)) return Flt(IsSigned(from) ? double(v.i) : double(uint64_t(v.i)), to);
  if (to == ScalarType::Bool) return Int(v.i != 0, to);
  return Int(v.i, to);
}

const Op* AsConst(const Value* v) {
  return v->def() && v->def()->code() == OpCode::Const && Foldable(v->type()) ? v->def() : nullptr;
}

std::optional<ConstVal> Fold(const Op& op) {
  if (op.num_results() != 1 || !Foldable(op.result()->type()) || op.num_operands() == 0) return std::nullopt;
  std::vector<const Op*> cs;
  for (const Value* v : op.operands()) {
    const Op* c = AsConst(v);
    if (!c) return std::nullopt;
    cs.push_back(c);
  }
  ScalarType t = op.operand(0)->type().elem.scalar;
  ScalarType rt = op.result()->type().elem.scalar;
  switch (op.code()) {
    case OpCode::Cast: return FoldCast(cs[0]->value(), t, rt);
    case OpCode::Neg:
      return IsFloat(t) ? Flt(-cs[0]->value().f, t) : Int(int64_t(0 - uint64_t(cs[0]->value().i)), t);
    case OpCode::Not: return Int(!cs[0]->value().i, t);
    case OpCode::BitNot: return Int(~cs[0]->value().i, t);
    case OpCode::Cmp: {
      auto b = FoldCmp(op.pred(), cs[0]->value(), cs[1]->value(), t);
      if (!b) return std::nullopt;
      return Int(*b, ScalarType::Bool);
    }
    case OpCode::And: return Int(cs[0]->value().i && cs[1]->value().i, ScalarType::Bool);
    case OpCode::Or: return Int(cs[0]->value().i || cs[1]->value().i, ScalarType::Bool);
    case OpCode::Select: return cs[0]->value().i ? cs[1]->value() : cs[2]->value();
    case OpCode::Add: case OpCode::Sub: case OpCode::Mul: case OpCode::Div: case OpCode::FloorDiv:
    case OpCode::Mod: case OpCode::Pow: case OpCode::Min: case OpCode::Max: case OpCode::BitAnd:
    case OpCode::BitOr: case OpCode::BitXor: case OpCode::Shl: case OpCode::Shr:
      break;  // folded below
    case OpCode::Abs: case OpCode::Sqrt: case OpCode::Exp: case OpCode::Log: case OpCode::Sin:
    case OpCode::Cos: case OpCode::Floor: case OpCode::Ceil: case OpCode::Clamp: TILEC_CASES(FloatMath)
    TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Array) TILEC_CASES(Struct)
    TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul)
    TILEC_CASES(TileShape) TILEC_CASES(TileElement) TILEC_CASES(TileMemory) TILEC_CASES(Print)
    TILEC_CASES(Control) TILEC_CASES(Terminator)
      return std::nullopt;
  }
  if (op.num_operands() != 2 || op.result()->type() != op.operand(0)->type()) return std::nullopt;
  if (IsFloat(t)) return FoldFloat(op.code(), cs[0]->value().f, cs[1]->value().f, t);
  if (t == ScalarType::Bool) return std::nullopt;
  return FoldInt(op.code(), cs[0]->value().i, cs[1]->value().i, t);
}

class Canonicalizer {
 public:
  explicit Canonicalizer(Function& f) : f_(f) {}

  int Run() {
    ProcessBlock(f_.body(), {});
    return changes_;
  }

 private:
  using ConstKey = std::tuple<int, int, int64_t, uint64_t>;  // kind, scalar, bits, float bits

  static ConstKey KeyOf(const Op& op) {
    const Type& t = op.result()->type();
    uint64_t fbits = 0;
    std::memcpy(&fbits, &op.value().f, sizeof fbits);
    bool is_float = t.is_scalar() && IsFloat(t.elem.scalar);
    return {int(t.kind), t.is_struct() ? 1000 + t.elem.struct_index : int(t.elem.scalar),
            is_float ? 0 : op.value().i, is_float ? fbits : 0};
  }

  void ProcessBlock(Block* b, std::map<ConstKey, Value*> consts) {
    auto& ops = b->ops();
    for (size_t i = 0; i < ops.size(); ++i) {
      Op* op = ops[i].get();
      if (auto folded = Fold(*op)) {
        // Turn the op into a constant in place: same result value, no operands.
        auto c = std::make_unique<Op>(OpCode::Const, op->loc());
        Value* r = c->AddResult(op->result()->type());
        c->value() = *folded;
        Value* old = op->result();
        ops[i] = std::move(c);
        ops[i]->set_parent_block(b);
        ReplaceAllUses(f_.body(), old, r);
        op = ops[i].get();
        ++changes_;
      }
      if (op->code() == OpCode::Const) {
        ConstKey k = KeyOf(*op);
        auto it = consts.find(k);
        if (it != consts.end()) {
          ReplaceAllUses(f_.body(), op->result(), it->second);
          ops.erase(ops.begin() + i);
          --i;
          ++changes_;
          continue;
        }
        consts[k] = op->result();
        continue;
      }
      if (op->code() == OpCode::If && op->operand(0)->def() && op->operand(0)->def()->code() == OpCode::Const) {
        InlineIf(b, i, op->operand(0)->def()->value().i != 0);
        --i;  // revisit the first inlined op
        ++changes_;
        continue;
      }
      for (auto& r : op->regions()) ProcessBlock(r.get(), consts);
    }
  }

  void InlineIf(Block* b, size_t pos, bool take_then) {
    std::unique_ptr<Op> if_op = std::move(b->ops()[pos]);
    b->ops().erase(b->ops().begin() + pos);
    Block* region = if_op->region(take_then ? 0 : 1);
    Op* yield = region->terminator();
    std::vector<Value*> yielded = yield ? yield->operands() : std::vector<Value*>{};
    size_t insert_at = pos;
    for (auto& inner : region->ops()) {
      if (inner.get() == yield) break;
      b->Insert(insert_at++, std::move(inner));
    }
    for (int r = 0; r < if_op->num_results() && r < int(yielded.size()); ++r)
      ReplaceAllUses(f_.body(), if_op->result(r), yielded[r]);
  }

  Function& f_;
  int changes_ = 0;
};

}  // namespace

int RunCanonicalize(Module& m, Function& f) { return Canonicalizer(f).Run(); }

}  // namespace tilec::ir
