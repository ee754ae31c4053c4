// Verifier implementation: walks each kernel keeping the set of values visible at each point
// (block arguments and earlier results of enclosing blocks) and checks each op's rule.
#include "ir/verifier.h"

#include <algorithm>
#include <optional>
#include <unordered_set>

#include "ir/op_cases.h"

namespace tilec::ir {

namespace {

class Verifier {
 public:
  Verifier(const Module& m, const Function& f, std::vector<std::string>& errors)
      : m_(m), f_(f), errors_(errors) {}

  void Run() {
    Block* body = f_.body();
    for (auto& a : body->args()) {
      CheckType(nullptr, a->type(), "parameter `" + a->name() + "`");
      visible_.insert(a.get());
    }
    VerifyBlock(*body);
    Op* term = body->terminator();
    if (!term || term->code() != OpCode::Return)
      Error(nullptr, "the kernel body must end with `return`");
  }

 private:
  std::string T(const Type& t) { return "`" + TypeName(t, m_.structs()) + "`"; }

  void Error(const Op* op, const std::string& msg) {
    std::string s = "kernel `" + f_.name() + "`: ";
    if (op) {
      s += "`" + std::string(op->name()) + "`";
      if (op->loc().file) {
        LineCol lc = op->loc().file->Locate(op->loc().range.begin);
        s += " (" + std::to_string(lc.line) + ":" + std::to_string(lc.col) + ")";
      }
      s += ": ";
    }
    errors_.push_back(s + msg);
  }

  void CheckType(const Op* op, const Type& t, const std::string& what) {
    if (t.is_struct() && (t.elem.struct_index >= int(m_.structs().size())))
      Error(op, what + " names struct #" + std::to_string(t.elem.struct_index) + ", which does not exist");
    if (t.is_array() || t.is_tile()) {
      if (t.ndim < 1 || t.ndim > kMaxDims)
        Error(op, what + " has " + std::to_string(t.ndim) + " dimensions, expected 1 to 4");
      if (t.elem.is_struct() && t.elem.struct_index >= int(m_.structs().size()))
        Error(op, what + " has an element struct that does not exist");
    }
    if (t.is_tile())
      for (int d = 0; d < t.ndim && d < kMaxDims; ++d)
        if (t.shape[d] <= 0)
          Error(op, what + " has extent " + std::to_string(t.shape[d]) + " in dimension " + std::to_string(d) +
                        ", expected a positive extent");
  }

  void VerifyBlock(const Block& b) {
    std::vector<const Value*> added;
    for (size_t i = 0; i < b.ops().size(); ++i) {
      const Op& op = *b.ops()[i];
      if (op.parent_block() != &b) Error(&op, "op is not linked to the block that holds it");
      if (IsTerminator(op.code()) && i + 1 != b.ops().size())
        Error(&op, "a terminator must be the last op of its block");
      for (int k = 0; k < op.num_operands(); ++k) {
        const Value* v = op.operand(k);
        if (!v) Error(&op, "operand " + std::to_string(k) + " is null");
        else if (!visible_.count(v))
          Error(&op, "operand " + std::to_string(k) + " is not defined before this op in an enclosing block");
      }
      for (auto& r : op.results()) CheckType(&op, r->type(), "result " + std::to_string(r->index()));
      if (AllOperandsPresent(op)) {
        VerifyOp(op);
        if (varying_control_ && Cooperative(op))
          Error(&op, "a cooperative tile operation under lane-varying control flow: every lane of the block must reach it");
      }
      bool varying = AllOperandsPresent(op) && LaneVaryingControl(op);
      varying_control_ += varying;
      for (auto& region : op.regions()) {
        for (auto& a : region->args()) visible_.insert(a.get());
        VerifyBlock(*region);
        for (auto& a : region->args()) visible_.erase(a.get());
      }
      varying_control_ -= varying;
      for (auto& r : op.results()) {
        visible_.insert(r.get());
        added.push_back(r.get());
      }
    }
    for (const Value* v : added) visible_.erase(v);
  }

  // Whether some lanes may run the op's regions and others not (uniformity marks,
  // ir/passes/uniformity.h).
  static bool LaneVaryingControl(const Op& op) {
    switch (op.code()) {
      case OpCode::If: return op.operand(0)->lane_varying();
      case OpCode::For:
        return op.num_operands() >= 3 && (op.operand(0)->lane_varying() || op.operand(1)->lane_varying() ||
                                          op.operand(2)->lane_varying());
      case OpCode::While: {
        Op* cond = op.num_regions() ? op.region(0)->terminator() : nullptr;
        return cond && cond->num_operands() && cond->operand(0) && cond->operand(0)->lane_varying();
      }
      TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Elementwise) TILEC_CASES(Compare)
      TILEC_CASES(Logic) TILEC_CASES(Array) TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap)
      TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape) TILEC_CASES(TileElement)
      TILEC_CASES(TileMemory) TILEC_CASES(Print) TILEC_CASES(Terminator)
        return false;
    }
    return false;
  }

  // Ops the lanes of a block perform together: anything that makes, reads or writes a tile,
  // but tile_extract, which each lane performs on its own (its tile was made by all of them).
  static bool Cooperative(const Op& op) {
    if (op.code() == OpCode::TileExtract) return false;
    for (const Value* v : op.operands())
      if (v->type().is_tile()) return true;
    for (auto& r : op.results())
      if (r->type().is_tile()) return true;
    return FamilyOf(op.code()) == OpFamily::TileMemory;
  }

  bool AllOperandsPresent(const Op& op) {
    for (const Value* v : op.operands())
      if (!v) return false;
    return true;
  }

  bool Arity(const Op& op, int operands, int results) {
    bool ok = true;
    if (operands >= 0 && op.num_operands() != operands) {
      Error(&op, "expected " + std::to_string(operands) + " operands, found " + std::to_string(op.num_operands()));
      ok = false;
    }
    if (results >= 0 && op.num_results() != results) {
      Error(&op, "expected " + std::to_string(results) + " results, found " + std::to_string(op.num_results()));
      ok = false;
    }
    return ok;
  }

  bool ExpectInt(const Op& op, const Value* v, const std::string& what) {
    if (v->type().is_int()) return true;
    Error(&op, what + " must be an integer scalar, found " + T(v->type()));
    return false;
  }

  // Element scalar type of a scalar or tile operand, or nullopt (struct, array, none).
  static std::optional<ScalarType> ScalarOf(const Type& t) {
    if ((t.is_scalar()) || (t.is_tile() && !t.elem.is_struct())) return t.elem.scalar;
    return std::nullopt;
  }

  void VerifyElementwise(const Op& op) {
    OpCode c = op.code();
    int n = InfoOf(c).operands;
    if (!Arity(op, n, 1)) return;
    const Type& rt = op.result()->type();
    const Type* tile = nullptr;
    for (const Value* v : op.operands())
      if (v->type().is_tile()) { tile = &v->type(); break; }
    for (int i = 0; i < n; ++i) {
      const Type& t = op.operand(i)->type();
      if (!ScalarOf(t)) {
        Error(&op, "operand " + std::to_string(i) + " must be a scalar or a tile of scalars, found " + T(t));
        return;
      }
      if (tile && t.is_tile() && !t.SameTileShapeAndElem(*tile) && c != OpCode::Cast) {
        Error(&op, "tile operands differ in shape or element type: " + T(*tile) + " and " + T(t));
        return;
      }
    }
    if (c == OpCode::Cast) {
      const Type& in = op.operand(0)->type();
      if (in.is_tile() != rt.is_tile() || (in.is_tile() && in.Shape() != rt.Shape()) || !ScalarOf(rt))
        Error(&op, "cast from " + T(in) + " to " + T(rt) + " must keep the shape and give scalar elements");
      return;
    }
    ScalarType s = *ScalarOf(op.operand(0)->type());
    for (int i = 1; i < n; ++i)
      if (*ScalarOf(op.operand(i)->type()) != s) {
        Error(&op, "operands differ in element type: " + T(op.operand(0)->type()) + " and " + T(op.operand(i)->type()));
        return;
      }
    Type expect = tile ? tile->WithStorage(rt.storage) : Type::Scalar(s);
    if (rt != expect) {
      Error(&op, "result type " + T(rt) + " does not match the operands, expected " + T(expect));
      return;
    }
    bool is_bool = s == ScalarType::Bool, is_int = IsInteger(s), is_float = IsFloat(s);
    auto need = [&](bool ok, const char* what) {
      if (!ok) Error(&op, std::string("needs ") + what + " operands, found " + T(op.operand(0)->type()));
    };
    switch (c) {
      case OpCode::BitAnd: case OpCode::BitOr: case OpCode::BitXor:
        need(is_int || is_bool, "integer or bool"); break;
      case OpCode::Shl: case OpCode::Shr: case OpCode::BitNot: need(is_int, "integer"); break;
      case OpCode::Not: need(is_bool, "bool"); break;
      case OpCode::Pow: case OpCode::Sqrt: case OpCode::Exp: case OpCode::Log: case OpCode::Sin:
      case OpCode::Cos: case OpCode::Floor: case OpCode::Ceil: TILEC_CASES(FloatMath)
        need(is_float, "floating-point"); break;
      case OpCode::Add: case OpCode::Sub: case OpCode::Mul: case OpCode::Div:
      case OpCode::FloorDiv: case OpCode::Mod: case OpCode::Min: case OpCode::Max:
      case OpCode::Neg: case OpCode::Abs: case OpCode::Clamp:
        need(is_int || is_float, "numeric"); break;
      // Not elementwise: VerifyOp sends them elsewhere.
      case OpCode::Cast: TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select)
      TILEC_CASES(Compare) TILEC_CASES(Logic) TILEC_CASES(Array) TILEC_CASES(Struct)
      TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul)
      TILEC_CASES(TileShape) TILEC_CASES(TileElement) TILEC_CASES(TileMemory) TILEC_CASES(Print)
      TILEC_CASES(Control) TILEC_CASES(Terminator)
        break;
    }
  }

  void CheckOffsets(const Op& op, int first, int ndim) {
    if (op.num_operands() - first != ndim) {
      Error(&op, "expected " + std::to_string(ndim) + " offsets (one per array dimension), found " +
                     std::to_string(op.num_operands() - first));
      return;
    }
    for (int i = first; i < op.num_operands(); ++i) ExpectInt(op, op.operand(i), "offset " + std::to_string(i - first));
  }

  bool ExpectArray(const Op& op, const Value* v) {
    if (v->type().is_array()) return true;
    Error(&op, "operand 0 must be an array, found " + T(v->type()));
    return false;
  }

  void CheckIndexTile(const Op& op, const Value* idx, const Type& data_tile, int axis) {
    const Type& it = idx->type();
    if (!it.is_tile() || it.ndim != 1 || !(it.elem == ElemType::Of(ScalarType::Int32))) {
      Error(&op, "indices must be a 1-D tile of int32, found " + T(it));
      return;
    }
    if (axis < 0 || axis >= data_tile.ndim) {
      Error(&op, "axis " + std::to_string(axis) + " is out of range for a " + std::to_string(data_tile.ndim) + "-D tile");
      return;
    }
    if (it.shape[0] != data_tile.shape[axis])
      Error(&op, "indices hold " + std::to_string(it.shape[0]) + " values but the tile has extent " +
                     std::to_string(data_tile.shape[axis]) + " along axis " + std::to_string(axis));
  }

  void CheckAtomicElem(const Op& op, const ElemType& e) {
    if (!e.is_struct() && !SupportsAtomicAdd(e.scalar))
      Error(&op, "atomic add needs int32, uint32, int64, uint64, float16, bfloat16, float32 or float64 elements, found `" +
                     std::string(ScalarName(e.scalar)) + "`");
  }

  void VerifyMemory(const Op& op) {
    OpCode c = op.code();
    if (op.num_operands() < 1 || !ExpectArray(op, op.operand(0))) return;
    const Type& at = op.operand(0)->type();
    switch (c) {
      case OpCode::ArrayLoad: {
        if (!Arity(op, 1 + at.ndim, 1)) return;
        for (int i = 1; i <= at.ndim; ++i) ExpectInt(op, op.operand(i), "index " + std::to_string(i - 1));
        if (op.result()->type() != at.ElemValueType())
          Error(&op, "result " + T(op.result()->type()) + " differs from the array element " + T(at.ElemValueType()));
        return;
      }
      case OpCode::ArrayStore: case OpCode::AtomicAdd: {
        if (!Arity(op, 2 + at.ndim, c == OpCode::AtomicAdd ? 1 : 0)) return;
        for (int i = 1; i <= at.ndim; ++i) ExpectInt(op, op.operand(i), "index " + std::to_string(i - 1));
        const Type& vt = op.operand(1 + at.ndim)->type();
        if (vt != at.ElemValueType()) Error(&op, "value " + T(vt) + " differs from the array element " + T(at.ElemValueType()));
        if (c == OpCode::AtomicAdd) {
          // Vectors and matrices add component by component.
          bool composite = vt.is_struct() && m_.structs()[size_t(vt.elem.struct_index)].composite.valid() &&
                           SupportsAtomicAdd(m_.structs()[size_t(vt.elem.struct_index)].composite.scalar);
          if (!vt.is_int() && !vt.is_float() && !composite)
            Error(&op, "atomic add needs a numeric element, found " + T(vt));
          if (op.result()->type() != vt) Error(&op, "result " + T(op.result()->type()) + " differs from the value " + T(vt));
        }
        return;
      }
      case OpCode::AtomicRmw: {
        int values = op.rmw() == AtomicKind::Cas ? 2 : 1;
        if (!Arity(op, 1 + at.ndim + values, 1)) return;
        for (int i = 1; i <= at.ndim; ++i) ExpectInt(op, op.operand(i), "index " + std::to_string(i - 1));
        const Type& et = at.ElemValueType();
        for (int i = 1 + at.ndim; i < op.num_operands(); ++i)
          if (op.operand(i)->type() != et)
            Error(&op, "operand " + std::to_string(i) + " " + T(op.operand(i)->type()) + " differs from the array element " + T(et));
        bool ok = at.elem.is_struct()
                      ? AtomicKindSupportsComposite(op.rmw(), m_.structs()[size_t(at.elem.struct_index)].composite)
                      : AtomicKindSupports(op.rmw(), at.elem.scalar);
        if (!ok)
          Error(&op, "atomic " + std::string(AtomicKindName(op.rmw())) + " needs " + AtomicKindTypeList(op.rmw()) +
                         " elements (or " + AtomicKindCompositeList(op.rmw()) + " of them), found " + T(et));
        if (op.result()->type() != et) Error(&op, "result " + T(op.result()->type()) + " differs from the element " + T(et));
        return;
      }
      case OpCode::TileLoad: case OpCode::TileLoadIndexed: {
        if (!Arity(op, -1, 1)) return;
        const Type& rt = op.result()->type();
        if (!rt.is_tile() || rt.ndim != at.ndim || !(rt.elem == at.elem)) {
          Error(&op, "result " + T(rt) + " must be a tile with the rank and element of " + T(at));
          return;
        }
        int first = 1;
        if (c == OpCode::TileLoadIndexed) {
          if (op.num_operands() < 2) { Error(&op, "missing the indices operand"); return; }
          CheckIndexTile(op, op.operand(1), rt, int(op.axis()));
          first = 2;
        }
        CheckOffsets(op, first, at.ndim);
        return;
      }
      case OpCode::TileStore: case OpCode::TileAtomicAdd: case OpCode::TileStoreIndexed:
      case OpCode::TileAtomicAddIndexed:
        break;
      // Not memory ops: VerifyOp sends them elsewhere.
      case OpCode::ArrayDim: case OpCode::ArrayGrad: case OpCode::ArraySlice: case OpCode::ArrayView: TILEC_CASES(Constant) TILEC_CASES(Tid)
      TILEC_CASES(Elementwise) TILEC_CASES(Select) TILEC_CASES(Compare) TILEC_CASES(Logic)
      TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce)
      TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape) TILEC_CASES(TileElement) TILEC_CASES(Print)
      TILEC_CASES(Control) TILEC_CASES(Terminator)
        return;
    }
    // Stores and atomic adds of a whole tile: (a, [indices,] t, offsets...).
    bool indexed = c == OpCode::TileStoreIndexed || c == OpCode::TileAtomicAddIndexed;
    int tile_pos = indexed ? 2 : 1;
    if (!Arity(op, -1, c == OpCode::TileStore || c == OpCode::TileStoreIndexed ? 0 : 1)) return;
    if (op.num_operands() <= tile_pos) { Error(&op, "missing the tile operand"); return; }
    const Type& tt = op.operand(tile_pos)->type();
    if (!tt.is_tile() || tt.ndim != at.ndim || !(tt.elem == at.elem)) {
      Error(&op, "tile " + T(tt) + " must have the rank and element of the array " + T(at));
      return;
    }
    if (indexed) CheckIndexTile(op, op.operand(1), tt, int(op.axis()));
    CheckOffsets(op, tile_pos + 1, at.ndim);
    if (c == OpCode::TileAtomicAdd || c == OpCode::TileAtomicAddIndexed) {
      CheckAtomicElem(op, tt.elem);
      if (op.result()->type() != tt) Error(&op, "result " + T(op.result()->type()) + " must equal the tile type " + T(tt));
    }
  }

  // Storage is a placement hint: a region may yield a tile whose storage differs from the
  // slot it flows into.
  static bool Compatible(const Type& a, const Type& b) { return a == b || a.SameTileShapeAndElem(b); }

  void CheckYield(const Op& parent, const Block& region, OpCode term_code, const std::vector<Type>& types,
                  const char* which, int skip = 0) {
    Op* term = region.terminator();
    if (!term || term->code() != term_code) {
      Error(&parent, std::string("the ") + which + " region must end with `" + std::string(OpName(term_code)) + "`");
      return;
    }
    if (term->num_operands() - skip != int(types.size())) {
      Error(term, std::to_string(term->num_operands() - skip) + " values for the " + which + " region of `" +
                      std::string(parent.name()) + "`, expected " + std::to_string(types.size()));
      return;
    }
    for (size_t i = 0; i < types.size(); ++i) {
      const Value* v = term->operand(int(i) + skip);
      if (v && !Compatible(v->type(), types[i]))
        Error(term, "value " + std::to_string(i) + " has type " + T(v->type()) + ", expected " + T(types[i]));
    }
  }

  std::vector<Type> ResultTypes(const Op& op) {
    std::vector<Type> ts;
    for (auto& r : op.results()) ts.push_back(r->type());
    return ts;
  }

  void VerifyControl(const Op& op) {
    switch (op.code()) {
      case OpCode::If: {
        if (!Arity(op, 1, -1)) return;
        if (!op.operand(0)->type().is_bool()) Error(&op, "condition must be `bool`, found " + T(op.operand(0)->type()));
        if (op.num_regions() != 2) { Error(&op, "expected a then and an else region"); return; }
        for (int r = 0; r < 2; ++r) {
          if (op.region(r)->num_args()) Error(&op, "branches take no arguments");
          CheckYield(op, *op.region(r), OpCode::Yield, ResultTypes(op), r ? "else" : "then");
        }
        return;
      }
      case OpCode::For: {
        if (op.num_operands() < 3 || op.num_regions() != 1) { Error(&op, "expected bounds, a step and one body region"); return; }
        for (int i = 0; i < 3; ++i) ExpectInt(op, op.operand(i), i == 0 ? "lower bound" : i == 1 ? "upper bound" : "step");
        if (op.operand(0)->type() != op.operand(1)->type() || op.operand(0)->type() != op.operand(2)->type())
          Error(&op, "bounds and step must share one integer type");
        std::vector<Type> carried;
        for (int i = 3; i < op.num_operands(); ++i) carried.push_back(op.operand(i)->type());
        if (ResultTypes(op) != carried) Error(&op, "results must match the loop-carried initial values");
        const Block& body = *op.region(0);
        if (body.num_args() != int(carried.size()) + 1) {
          Error(&op, "body takes " + std::to_string(body.num_args()) + " arguments, expected the induction variable and " +
                         std::to_string(carried.size()) + " carried values");
          return;
        }
        if (body.arg(0)->type() != op.operand(0)->type()) Error(&op, "induction variable type differs from the bounds");
        for (size_t i = 0; i < carried.size(); ++i)
          if (body.arg(int(i) + 1)->type() != carried[i]) Error(&op, "carried argument " + std::to_string(i) + " has the wrong type");
        CheckYield(op, body, OpCode::Yield, carried, "body");
        return;
      }
      case OpCode::While: {
        if (op.num_regions() != 2) { Error(&op, "expected a before and an after region"); return; }
        std::vector<Type> inits;
        for (const Value* v : op.operands()) inits.push_back(v->type());
        const Block& before = *op.region(0);
        const Block& after = *op.region(1);
        std::vector<Type> bargs, aargs;
        for (auto& a : before.args()) bargs.push_back(a->type());
        for (auto& a : after.args()) aargs.push_back(a->type());
        if (bargs != inits) Error(&op, "before-region arguments must match the initial values");
        if (aargs != ResultTypes(op)) Error(&op, "after-region arguments must match the results");
        Op* cond = before.terminator();
        if (cond && cond->code() == OpCode::Condition && cond->num_operands() >= 1 && cond->operand(0) &&
            !cond->operand(0)->type().is_bool())
          Error(cond, "condition must be `bool`, found " + T(cond->operand(0)->type()));
        CheckYield(op, before, OpCode::Condition, ResultTypes(op), "before", 1);
        CheckYield(op, after, OpCode::Yield, inits, "after");
        return;
      }
      TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Elementwise) TILEC_CASES(Select)
      TILEC_CASES(Compare) TILEC_CASES(Logic) TILEC_CASES(Array) TILEC_CASES(Struct)
      TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul)
      TILEC_CASES(TileShape) TILEC_CASES(TileElement) TILEC_CASES(TileMemory) TILEC_CASES(Print)
      TILEC_CASES(Terminator)
        return;  // not control flow: VerifyOp sends them elsewhere
    }
  }

  void CheckTerminatorPlacement(const Op& op) {
    Op* parent = op.parent_block() ? op.parent_block()->parent_op() : nullptr;
    switch (op.code()) {
      case OpCode::Return:
        if (parent) Error(&op, "`return` may only end the kernel body, found it inside `" + std::string(parent->name()) + "`");
        break;
      case OpCode::Yield:
        if (!parent) Error(&op, "`yield` outside of a region");
        break;
      case OpCode::Condition:
        if (!parent || parent->code() != OpCode::While || parent->region(0) != op.parent_block())
          Error(&op, "`condition` may only end the before region of a `while`");
        break;
      TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Elementwise) TILEC_CASES(Select)
      TILEC_CASES(Compare) TILEC_CASES(Logic) TILEC_CASES(Array) TILEC_CASES(Struct)
      TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul)
      TILEC_CASES(TileShape) TILEC_CASES(TileElement) TILEC_CASES(TileMemory) TILEC_CASES(Print)
      TILEC_CASES(Control)
        break;  // not terminators
    }
  }

  void VerifyOp(const Op& op) {
    OpCode c = op.code();
    switch (c) {
      TILEC_CASES(Elementwise)
        return VerifyElementwise(op);
      case OpCode::ArrayLoad: case OpCode::ArrayStore: case OpCode::AtomicAdd: case OpCode::AtomicRmw:
      TILEC_CASES(TileMemory)
        return VerifyMemory(op);
      case OpCode::If: case OpCode::For: case OpCode::While:
        return VerifyControl(op);
      case OpCode::Yield: case OpCode::Condition: case OpCode::Return:
        return CheckTerminatorPlacement(op);
      case OpCode::TileReduce: case OpCode::TileScan:
        return VerifyReduceOrScan(op);
      case OpCode::TileBroadcast: case OpCode::TileReshape: case OpCode::TilePermute:
        return VerifyShape(op);
      case OpCode::TileView: case OpCode::TileAssign:
        return VerifyRegion(op);
      case OpCode::TileGather: case OpCode::TileScatterAdd: {
        bool gather = c == OpCode::TileGather;
        if (!Arity(op, gather ? 2 : 3, 1)) return;
        const Type& t = op.operand(0)->type();
        const Type& idx = op.operand(1)->type();
        if (!t.is_tile() || !idx.is_tile() || idx.ndim != 1 || !IsInteger(idx.elem.scalar) || idx.elem.is_struct()) {
          Error(&op, "expected a tile and a 1-D tile of integer indices, found " + T(t) + " and " + T(idx));
          return;
        }
        if (op.axis() < 0 || op.axis() >= t.ndim) {
          Error(&op, "axis " + std::to_string(op.axis()) + " is out of range for " + T(t));
          return;
        }
        Type sliced = t.WithStorage(Storage::Register);
        sliced.shape[size_t(op.axis())] = idx.shape[0];
        if (gather && op.result()->type() != sliced) Error(&op, "result must be " + T(sliced));
        if (!gather && (op.operand(2)->type().WithStorage(Storage::Register) != sliced ||
                        op.result()->type() != t.WithStorage(Storage::Register)))
          Error(&op, "source must be " + T(sliced) + " and the result " + T(t.WithStorage(Storage::Register)));
        return;
      }
      case OpCode::TileMatmul: {
        if (!Arity(op, 3, 1)) return;
        const Type& a = op.operand(0)->type();
        const Type& bt = op.operand(1)->type();
        const Type& ct = op.operand(2)->type();
        auto is_float_2d = [](const Type& t) { return t.is_tile() && t.ndim == 2 && !t.elem.is_struct() && IsFloat(t.elem.scalar); };
        if (!is_float_2d(a) || !is_float_2d(bt) || !is_float_2d(ct) || a.shape[1] != bt.shape[0] ||
            ct.shape[0] != a.shape[0] || ct.shape[1] != bt.shape[1]) {
          Error(&op, "expected float tiles (M, K), (K, N) and (M, N), found " + T(a) + ", " + T(bt) + " and " + T(ct));
          return;
        }
        if (op.result()->type() != ct.WithStorage(Storage::Register)) Error(&op, "result must have the accumulator's type");
        return;
      }
      case OpCode::TileDiagAdd: {
        if (!Arity(op, 2, 1)) return;
        const Type& a = op.operand(0)->type();
        const Type& d = op.operand(1)->type();
        if (!a.is_tile() || a.ndim != 2 || a.shape[0] != a.shape[1] || a.elem.is_struct() ||
            a.elem.scalar == ScalarType::Bool || !d.is_tile() || d.ndim != 1 || d.shape[0] != a.shape[0] ||
            d.elem != a.elem) {
          Error(&op, "expected a numeric tile (N, N) and a tile (N,) of its type, found " + T(a) + " and " + T(d));
          return;
        }
        if (op.result()->type() != a.WithStorage(Storage::Shared)) Error(&op, "result must be " + T(a.WithStorage(Storage::Shared)));
        return;
      }
      case OpCode::TileTril: {
        if (!Arity(op, 1, 1)) return;
        const Type& t = op.operand(0)->type();
        if (!t.is_tile() || t.ndim != 2 || t.elem.is_struct()) {
          Error(&op, "expected a 2-D tile of scalars, found " + T(t));
          return;
        }
        if (op.result()->type() != t.WithStorage(Storage::Register)) Error(&op, "result must be " + T(t.WithStorage(Storage::Register)));
        return;
      }
      case OpCode::TileCholesky: case OpCode::TileLowerSolve: case OpCode::TileUpperSolve: {
        const bool solve = op.code() != OpCode::TileCholesky;
        if (!Arity(op, solve ? 2 : 1, 1)) return;
        const Type& m = op.operand(0)->type();
        auto is_f32_64 = [](const Type& t) {
          return t.is_tile() && !t.elem.is_struct() && (t.elem.scalar == ScalarType::Float32 || t.elem.scalar == ScalarType::Float64);
        };
        if (!is_f32_64(m) || m.ndim != 2 || m.shape[0] != m.shape[1]) {
          Error(&op, "expected a square float32 or float64 tile, found " + T(m));
          return;
        }
        const Type& y = solve ? op.operand(1)->type() : m;
        if (solve && (!is_f32_64(y) || y.elem != m.elem || (y.ndim != 1 && y.ndim != 2) || y.shape[0] != m.shape[0])) {
          Error(&op, "expected a right-hand side (M,) or (M, R) of the matrix's type, found " + T(y) + " for " + T(m));
          return;
        }
        if (op.result()->type() != y.WithStorage(Storage::Shared)) Error(&op, "result must be " + T(y.WithStorage(Storage::Shared)));
        return;
      }
      case OpCode::TileFft: {
        if (!Arity(op, 2, 2)) return;
        const Type& re = op.operand(0)->type();
        const Type& im = op.operand(1)->type();
        if (!re.is_tile() || re.elem.is_struct() ||
            (re.elem.scalar != ScalarType::Float32 && re.elem.scalar != ScalarType::Float64) || !im.is_tile() ||
            im.elem != re.elem || im.Shape() != re.Shape()) {
          Error(&op, "expected real and imaginary float32 or float64 tiles of one shape, found " + T(re) + " and " + T(im));
          return;
        }
        if (op.result(0)->type() != re.WithStorage(Storage::Shared) || op.result(1)->type() != re.WithStorage(Storage::Shared))
          Error(&op, "results must be " + T(re.WithStorage(Storage::Shared)));
        return;
      }
      case OpCode::TileSort: {
        if (!Arity(op, 2, 2)) return;
        const Type& k = op.operand(0)->type();
        const Type& v = op.operand(1)->type();
        if (!k.is_tile() || k.elem.is_struct() || k.elem.scalar == ScalarType::Bool || !v.is_tile() ||
            k.Shape() != v.Shape()) {
          Error(&op, "expected a tile of numeric keys and a tile of values of its shape, found " + T(k) + " and " + T(v));
          return;
        }
        if (!op.result(0)->type().SameTileShapeAndElem(k) || !op.result(1)->type().SameTileShapeAndElem(v))
          Error(&op, "results must have the types of the keys and the values");
        return;
      }
      case OpCode::Const:
        if (Arity(op, 0, 1) && !op.result()->type().is_elem())
          Error(&op, "constants must be scalars or structs, found " + T(op.result()->type()));
        return;
      case OpCode::Tid:
        if (!Arity(op, 0, -1)) return;
        if (op.num_results() < 1 || op.num_results() > kMaxDims) Error(&op, "expected 1 to 4 results");
        for (auto& r : op.results())
          if (!r->type().Is(ScalarType::Int32)) Error(&op, "results must be `int32`");
        return;
      case OpCode::LaneId: case OpCode::BlockDim:
        if (Arity(op, 0, 1) && !op.result()->type().Is(ScalarType::Int32)) Error(&op, "result must be `int32`");
        return;
      case OpCode::Select:
        if (!Arity(op, 3, 1)) return;
        if (!op.operand(0)->type().is_bool()) Error(&op, "condition must be `bool`, found " + T(op.operand(0)->type()));
        if (op.operand(1)->type() != op.operand(2)->type() || op.result()->type() != op.operand(1)->type())
          Error(&op, "both choices and the result must have one type");
        return;
      case OpCode::Cmp:
        if (!Arity(op, 2, 1)) return;
        if (!op.operand(0)->type().is_scalar() || op.operand(0)->type() != op.operand(1)->type())
          Error(&op, "operands must be scalars of one type, found " + T(op.operand(0)->type()) + " and " + T(op.operand(1)->type()));
        if (!op.result()->type().is_bool()) Error(&op, "result must be `bool`");
        return;
      case OpCode::And: case OpCode::Or:
        if (!Arity(op, 2, 1)) return;
        for (int i = 0; i < 2; ++i)
          if (!op.operand(i)->type().is_bool()) Error(&op, "operands must be `bool`, found " + T(op.operand(i)->type()));
        if (!op.result()->type().is_bool()) Error(&op, "result must be `bool`");
        return;
      case OpCode::ArrayDim:
        if (!Arity(op, 1, 1) || !ExpectArray(op, op.operand(0))) return;
        if (op.dim() < 0 || op.dim() >= op.operand(0)->type().ndim) Error(&op, "dimension " + std::to_string(op.dim()) + " is out of range");
        return;
      case OpCode::FieldGet: case OpCode::FieldSet: {
        if (!Arity(op, c == OpCode::FieldGet ? 1 : 2, 1)) return;
        const Type& st = op.operand(0)->type();
        if (!st.is_struct() || st.elem.struct_index >= int(m_.structs().size())) {
          Error(&op, "operand 0 must be a struct, found " + T(st));
          return;
        }
        const StructDef& def = m_.structs()[st.elem.struct_index];
        if (op.field() < 0 || op.field() >= int(def.fields.size())) {
          Error(&op, "field " + std::to_string(op.field()) + " does not exist in `" + def.name + "`");
          return;
        }
        Type ft = Type::Elem(def.fields[size_t(op.field())].type);
        if (c == OpCode::FieldGet && op.result()->type() != ft)
          Error(&op, "result " + T(op.result()->type()) + " differs from field `" + def.fields[size_t(op.field())].name + "` " + T(ft));
        if (c == OpCode::FieldSet && (op.operand(1)->type() != ft || op.result()->type() != st))
          Error(&op, "value must have the field's type " + T(ft) + " and the result the struct's");
        return;
      }
      case OpCode::TileFull:
        if (!Arity(op, 1, 1)) return;
        if (!op.result()->type().is_tile() || op.result()->type().ElemValueType() != op.operand(0)->type())
          Error(&op, "result must be a tile of the value's type " + T(op.operand(0)->type()));
        return;
      case OpCode::TileArange: {
        if (!Arity(op, 0, 1)) return;
        const Type& rt = op.result()->type();
        if (!rt.is_tile() || rt.ndim != 1 || rt.elem.is_struct() || rt.elem.scalar == ScalarType::Bool)
          Error(&op, "result must be a 1-D tile of numbers, found " + T(rt));
        return;
      }
      case OpCode::TileSum: {
        if (!Arity(op, 1, 1)) return;
        const Type& in = op.operand(0)->type();
        if (!in.is_tile() || in.elem.is_struct() || in.elem.scalar == ScalarType::Bool) {
          Error(&op, "operand must be a tile of numbers, found " + T(in));
          return;
        }
        const Type& rt = op.result()->type();
        if (!rt.is_tile() || rt.ndim != 1 || rt.shape[0] != 1 || !(rt.elem == in.elem))
          Error(&op, "result must be a one-element tile of the operand's element type");
        return;
      }
      // Added for ir/autodiff: an array's gradient view, and the adjoint of an element read.
      case OpCode::ArrayGrad:
        if (!Arity(op, 1, 1) || !ExpectArray(op, op.operand(0))) return;
        if (op.result()->type() != op.operand(0)->type()) Error(&op, "result must have the array's type");
        return;
      case OpCode::ArraySlice: {
        if (op.num_operands() < 1 || !ExpectArray(op, op.operand(0))) return;
        const Type& at = op.operand(0)->type();
        int k = op.num_operands() - 1;
        if (k < 1 || k >= at.ndim) {
          Error(&op, "expected 1 to " + std::to_string(at.ndim - 1) + " indices into " + T(at) + ", found " + std::to_string(k));
          return;
        }
        for (int i = 1; i <= k; ++i) ExpectInt(op, op.operand(i), "index " + std::to_string(i - 1));
        if (op.result()->type() != Type::Array(at.elem, at.ndim - k))
          Error(&op, "result must be " + T(Type::Array(at.elem, at.ndim - k)));
        return;
      }
      case OpCode::ArrayView: {
        if (op.num_operands() < 1 || !ExpectArray(op, op.operand(0))) return;
        const Type& at = op.operand(0)->type();
        const std::vector<int64_t>& steps = op.steps();
        if (steps.empty() || int(steps.size()) > at.ndim) {
          Error(&op, "expected 1 to " + std::to_string(at.ndim) + " steps for " + T(at) + ", found " + std::to_string(steps.size()));
          return;
        }
        if (op.num_operands() != 1 + 2 * int(steps.size())) {
          Error(&op, "expected a start and a stop per step (" + std::to_string(2 * steps.size()) + " operands after the array), found " +
                         std::to_string(op.num_operands() - 1));
          return;
        }
        for (int i = 1; i < op.num_operands(); ++i) ExpectInt(op, op.operand(i), "bound " + std::to_string(i - 1));
        const int dropped = int(std::count(steps.begin(), steps.end(), int64_t(0)));
        if (dropped == at.ndim) Error(&op, "every dimension is indexed: the result would be an element, not a view");
        else if (op.result()->type() != Type::Array(at.elem, at.ndim - dropped))
          Error(&op, "result must be " + T(Type::Array(at.elem, at.ndim - dropped)));
        return;
      }
      case OpCode::TileInsert: {
        if (op.num_operands() < 1 || !op.operand(0)->type().is_tile()) {
          Error(&op, "operand 0 must be a tile");
          return;
        }
        const Type& tt = op.operand(0)->type();
        if (!Arity(op, 2 + tt.ndim, 1)) return;
        if (op.operand(1)->type() != tt.ElemValueType()) Error(&op, "value must have the tile's element type");
        for (int i = 2; i < 2 + tt.ndim; ++i) ExpectInt(op, op.operand(i), "index " + std::to_string(i - 2));
        if (op.result()->type() != tt.WithStorage(Storage::Register)) Error(&op, "result must be a register tile of the operand's type");
        return;
      }
      case OpCode::TileScatterLanes: {
        if (op.num_operands() < 1 || !op.operand(0)->type().is_tile()) {
          Error(&op, "operand 0 must be a tile");
          return;
        }
        const Type& tt = op.operand(0)->type();
        if (!Arity(op, 3 + tt.ndim, 1)) return;
        if (op.operand(1)->type() != tt.ElemValueType()) Error(&op, "value must have the tile's element type");
        if (!op.operand(2)->type().is_bool()) Error(&op, "has_value must be `bool`, found " + T(op.operand(2)->type()));
        for (int i = 3; i < 3 + tt.ndim; ++i) ExpectInt(op, op.operand(i), "index " + std::to_string(i - 3));
        if (op.result()->type() != tt.WithStorage(Storage::Shared)) Error(&op, "result must be a shared tile of the operand's type");
        return;
      }
      case OpCode::TileExtract: {
        if (op.num_operands() < 1 || !op.operand(0)->type().is_tile()) {
          Error(&op, "operand 0 must be a tile");
          return;
        }
        const Type& tt = op.operand(0)->type();
        if (!Arity(op, 1 + tt.ndim, 1)) return;
        for (int i = 1; i <= tt.ndim; ++i) ExpectInt(op, op.operand(i), "index " + std::to_string(i - 1));
        if (op.result()->type() != tt.ElemValueType()) Error(&op, "result must be the tile's element type");
        return;
      }
      case OpCode::TileMap: {
        if (!Arity(op, -1, 1) || op.num_operands() < 1) { Error(&op, "expected at least one tile"); return; }
        const Type& t0 = op.operand(0)->type();
        for (const Value* v : op.operands())
          if (!v->type().is_tile() || v->type().Shape() != t0.Shape()) {
            Error(&op, "inputs must be tiles of one shape, found " + T(t0) + " and " + T(v->type()));
            return;
          }
        const Type& rt = op.result()->type();
        if (!rt.is_tile() || rt.Shape() != t0.Shape()) Error(&op, "result must be a tile of the inputs' shape");
        if (op.num_regions() != 1) { Error(&op, "expected one region"); return; }
        const Block& body = *op.region(0);
        if (body.num_args() != op.num_operands()) { Error(&op, "region must take one element per input"); return; }
        for (int i = 0; i < body.num_args(); ++i)
          if (body.arg(i)->type() != op.operand(i)->type().ElemValueType())
            Error(&op, "region argument " + std::to_string(i) + " must be the element type of input " + std::to_string(i));
        Walk(const_cast<Block*>(&body), [&](Op* inner) {
          for (auto& r : inner->results())
            if (r->type().is_tile()) Error(inner, "a `tile_map` body may only compute scalars");
          if (HasSideEffects(inner->code()) && inner->code() != OpCode::Yield)
            Error(inner, "a `tile_map` body may not have side effects");
        });
        CheckYield(op, body, OpCode::Yield, {rt.ElemValueType()}, "map");
        return;
      }
      case OpCode::Assert:
        if (!Arity(op, 1, 0)) return;
        if (!op.operand(0)->type().is_bool()) Error(&op, "operand must be a bool, found " + T(op.operand(0)->type()));
        return;
      case OpCode::Print:
        if (!Arity(op, -1, 0)) return;
        if (int(op.texts().size()) != op.num_operands() + 1)
          Error(&op, "expected " + std::to_string(op.num_operands() + 1) + " text pieces, found " + std::to_string(op.texts().size()));
        return;
    }
  }

  // tile_reduce {kind, axis} and tile_scan {kind, inclusive} of a tile of scalars.
  void VerifyReduceOrScan(const Op& op) {
    if (!Arity(op, 1, 1)) return;
    const Type& in = op.operand(0)->type();
    const Type& rt = op.result()->type();
    if (!in.is_tile() || in.elem.is_struct() || in.elem.scalar == ScalarType::Bool) {
      Error(&op, "operand must be a tile of numbers, found " + T(in));
      return;
    }
    ReduceKind k = op.kind();
    bool bitwise = k == ReduceKind::BitAnd || k == ReduceKind::BitOr || k == ReduceKind::BitXor;
    if (bitwise && !IsInteger(in.elem.scalar))
      Error(&op, "`" + std::string(ReduceKindName(k)) + "` needs integer elements, found " + T(in));
    Type expect = in.WithStorage(Storage::Register);
    if (op.code() == OpCode::TileReduce) {
      int64_t axis = op.axis();
      if (axis < -1 || axis >= in.ndim) {
        Error(&op, "axis " + std::to_string(axis) + " is out of range for a " + std::to_string(in.ndim) + "-D tile");
        return;
      }
      std::vector<int64_t> shape{1};
      if (axis >= 0 && in.ndim > 1) {
        shape = in.Shape();
        shape.erase(shape.begin() + axis);
      }
      expect = Type::Tile(in.elem, shape, Storage::Register);
    }
    if (rt != expect) Error(&op, "result " + T(rt) + " must be " + T(expect));
  }

  // tile_view t, offsets... and tile_assign dst, src, offsets...: one offset and one step per
  // dimension of the larger tile, and the smaller tile's extents for the nonzero steps.
  void VerifyRegion(const Op& op) {
    bool view = op.code() == OpCode::TileView;
    int first = view ? 1 : 2;
    if (op.num_operands() < first || !op.operand(0)->type().is_tile()) {
      Error(&op, "operand 0 must be a tile");
      return;
    }
    const Type& big = op.operand(0)->type();
    if (!Arity(op, first + big.ndim, 1)) return;
    const Type& small = view ? op.result()->type() : op.operand(1)->type();
    if (!small.is_tile() || !(small.elem == big.elem)) {
      Error(&op, (view ? "result" : "source") + std::string(" must be a tile of ") + T(big) + "'s element type");
      return;
    }
    for (int i = first; i < op.num_operands(); ++i) ExpectInt(op, op.operand(i), "offset " + std::to_string(i - first));
    const std::vector<int64_t>& steps = op.steps();
    int kept = 0;
    bool ok = int(steps.size()) == big.ndim;
    for (size_t d = 0; ok && d < steps.size(); ++d)
      if (steps[d] != 0) ok = kept < small.ndim && small.shape[size_t(kept++)] > 0;
    if (!ok || kept != small.ndim) {
      Error(&op, "steps must give one step per dimension of " + T(big) + ", nonzero exactly for the " +
                     std::to_string(small.ndim) + " dimensions of " + T(small));
      return;
    }
    if (!view && op.result()->type() != big.WithStorage(Storage::Register))
      Error(&op, "result must be a register tile of the destination's type");
  }

  // tile_broadcast, tile_reshape, tile_permute: the result type holds the new shape.
  void VerifyShape(const Op& op) {
    if (!Arity(op, 1, 1)) return;
    const Type& in = op.operand(0)->type();
    const Type& rt = op.result()->type();
    if (!in.is_tile() || !rt.is_tile() || !(in.elem == rt.elem) || rt.storage != Storage::Register) {
      Error(&op, "expected a tile in and a register tile of the same element out, found " + T(in) + " and " + T(rt));
      return;
    }
    switch (op.code()) {
      case OpCode::TileReshape:
        if (in.NumElements() != rt.NumElements())
          Error(&op, "cannot reshape " + T(in) + " to " + T(rt) + ": element counts differ");
        return;
      case OpCode::TileBroadcast:
        if (rt.ndim < in.ndim) { Error(&op, "cannot broadcast " + T(in) + " to fewer dimensions " + T(rt)); return; }
        for (int d = 0; d < in.ndim; ++d) {
          int64_t e = in.shape[d], r = rt.shape[d + rt.ndim - in.ndim];
          if (e != 1 && e != r) {
            Error(&op, "cannot broadcast " + T(in) + " to " + T(rt) + ": extent " + std::to_string(e) + " is neither 1 nor " + std::to_string(r));
            return;
          }
        }
        return;
      case OpCode::TilePermute: {
        const std::vector<int64_t>& perm = op.perm();
        std::vector<bool> seen(size_t(in.ndim), false);
        bool ok = int(perm.size()) == in.ndim && rt.ndim == in.ndim;
        for (size_t d = 0; ok && d < perm.size(); ++d) {
          ok = perm[d] >= 0 && perm[d] < in.ndim && !seen[size_t(perm[d])];
          if (ok) seen[size_t(perm[d])] = true;
          if (ok) ok = rt.shape[d] == in.shape[size_t(perm[d])];
        }
        if (!ok) Error(&op, "perm must be a permutation of the " + std::to_string(in.ndim) + " dimensions of " + T(in) + " giving " + T(rt));
        return;
      }
      TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Elementwise) TILEC_CASES(Select)
      TILEC_CASES(Compare) TILEC_CASES(Logic) TILEC_CASES(Array) TILEC_CASES(Struct)
      TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul)
      TILEC_CASES(TileElement) TILEC_CASES(TileMemory) TILEC_CASES(Print) TILEC_CASES(Control)
      TILEC_CASES(Terminator)
        return;  // not shape ops
    }
  }

  const Module& m_;
  const Function& f_;
  std::vector<std::string>& errors_;
  std::unordered_set<const Value*> visible_;
  int varying_control_ = 0;  // enclosing regions whose entry differs per lane
};

}  // namespace

std::vector<std::string> VerifyFunction(const Module& m, const Function& f) {
  std::vector<std::string> errors;
  Verifier(m, f, errors).Run();
  return errors;
}

std::vector<std::string> Verify(const Module& m) {
  std::vector<std::string> errors;
  for (size_t i = 0; i < m.structs().size(); ++i)
    for (const StructField& fld : m.structs()[i].fields)
      if (fld.type.is_struct() && fld.type.struct_index >= int(i))
        errors.push_back("struct `" + m.structs()[i].name + "`: field `" + fld.name + "` names a struct defined after it");
  for (auto& f : m.functions()) {
    auto e = VerifyFunction(m, *f);
    errors.insert(errors.end(), e.begin(), e.end());
  }
  return errors;
}

}  // namespace tilec::ir
