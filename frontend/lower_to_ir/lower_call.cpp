// Calls: builtins by name from the checker's resolved CallInfo (tile construction, memory,
// maps, reductions, tile operators, scalar math, atomics, print, casts), struct constructors,
// and @wp.func calls, which are inlined with their own variable scope.
#include <cstring>

#include "frontend/lower_to_ir/lowerer.h"

namespace tilec::lower {

using ir::OpCode;

namespace {

int ParamIndex(const sema::CallInfo& ci, const char* name) {
  if (!ci.overload) return -1;
  for (size_t k = 0; k < ci.overload->params.size(); ++k)
    if (std::strcmp(ci.overload->params[k].name, name) == 0) return int(k);
  return -1;
}

std::optional<OpCode> MathOp(const std::string& n) {
  static const std::pair<const char*, OpCode> kMap[] = {
      {"sqrt", OpCode::Sqrt}, {"exp", OpCode::Exp}, {"log", OpCode::Log}, {"sin", OpCode::Sin},
      {"cos", OpCode::Cos},   {"floor", OpCode::Floor}, {"ceil", OpCode::Ceil}, {"abs", OpCode::Abs},
      {"min", OpCode::Min},   {"max", OpCode::Max},  {"pow", OpCode::Pow},   {"clamp", OpCode::Clamp},
  };
  for (auto& [name, op] : kMap)
    if (n == name) return op;
  return std::nullopt;
}

// Applies a math builtin to scalars of one type.
ir::Value* ApplyMath(ir::Builder& b, OpCode op, const std::vector<ir::Value*>& args) {
  if (op == OpCode::Clamp) return b.Clamp(args[0], args[1], args[2]);
  if (args.size() == 2) return b.Binary(op, args[0], args[1]);
  return b.Unary(op, args[0]);
}

}  // namespace

std::vector<ir::Value*> Lowerer::Offsets(const sema::CallInfo& ci, int param, int ndim) {
  std::vector<ir::Value*> out;
  const ast::Expr* arg = param >= 0 && param < int(ci.args.size()) ? ci.args[param] : nullptr;
  if (arg) {
    const sema::Type* t = cm_.TypeOf(arg);
    if (t && t->kind == sema::TypeKind::Tuple) out = Tuple(arg);
    else out.push_back(Expr(arg));
  } else if (param >= 0 && param < int(ci.const_args.size()) && ci.const_args[param]) {
    const sema::ConstValue& c = *ci.const_args[param];
    if (c.kind == sema::ConstValue::Kind::Tuple)
      for (const sema::ConstValue& e : c.elems) out.push_back(b_.ConstInt(ScalarType::Int32, e.AsInt()));
    else
      out.push_back(b_.ConstInt(ScalarType::Int32, c.AsInt()));
  }
  while (int(out.size()) < ndim) out.push_back(b_.ConstInt(ScalarType::Int32, 0));
  return out;
}

ir::Value* Lowerer::TileBinaryOp(const std::string& name, ir::Value* a, ir::Value* b) {
  OpCode op = name == "tile_add" ? OpCode::Add : name == "tile_sub" ? OpCode::Sub
            : name == "tile_mul" ? OpCode::Mul : OpCode::Div;
  // A scalar operand takes the tile's element type.
  if (a->type().is_tile() && !b->type().is_tile()) b = Convert(b, a->type().ElemValueType());
  if (b->type().is_tile() && !a->type().is_tile()) a = Convert(a, b->type().ElemValueType());
  return b_.Binary(op, a, b);
}

ir::Value* Lowerer::InlineFunc(int func_index, const std::vector<ir::Value*>& args) {
  const sema::FunctionInfo& fi = cm_.funcs[func_index];
  FuncCtx ctx;
  ctx.info = &fi;
  ctx.return_type = fi.return_type;
  // A flag is needed only when a return can be followed by more code.
  const ast::Body& body = fi.def->body;
  ctx.has_return_flag = HasReturn(body) && !(body.size() && body.back()->Is<ast::Return>() &&
                                              [&] {
                                                ast::Body head;
                                                for (size_t k = 0; k + 1 < body.size(); ++k)
                                                  if (StmtMayExit(*body[k])) return false;
                                                return true;
                                              }());
  Env saved_env = std::move(env_);
  std::vector<LoopCtx*> saved_loops = std::move(loops_);
  env_.clear();
  loops_.clear();
  for (int i = 0; i < fi.num_params && i < int(args.size()); ++i) {
    const sema::LocalSymbol* p = fi.Param(i);
    ir::Value* v = args[i];
    if (p->type && (p->type->IsScalar() || p->type->kind == sema::TypeKind::Struct)) v = Convert(v, IrType(p->type));
    env_[p].value = v;
  }
  ir::Type rt = IrType(fi.return_type);
  if (ctx.has_return_flag) env_[&ctx.ret].value = b_.ConstBool(false);
  if (!rt.is_none()) env_[&ctx.retval].value = ZeroValue(rt);
  funcs_.push_back(&ctx);
  LowerBody(body);
  funcs_.pop_back();
  ir::Value* result = rt.is_none() ? nullptr : env_[&ctx.retval].value;
  env_ = std::move(saved_env);
  loops_ = std::move(saved_loops);
  return result;
}

ir::Value* Lowerer::Call(const ast::Expr* e, const sema::CallInfo& ci) {
  const sema::Type* result_type = cm_.TypeOf(e);
  ir::Type rt = IrType(result_type);
  auto arg = [&](const char* name) -> const ast::Expr* {
    int k = ParamIndex(ci, name);
    return k >= 0 && k < int(ci.args.size()) ? ci.args[k] : nullptr;
  };
  auto const_arg = [&](const char* name) -> std::optional<sema::ConstValue> {
    int k = ParamIndex(ci, name);
    if (k < 0 || k >= int(ci.const_args.size())) return std::nullopt;
    return ci.const_args[k];
  };

  if (ci.kind == sema::CallInfo::Kind::StructCtor) {
    ir::Value* v = b_.ZeroOf(ir::Type::Struct(ci.struct_index));
    const ir::StructDef& sd = m_.structs()[ci.struct_index];
    for (size_t k = 0; k < ci.args.size() && k < sd.fields.size(); ++k)
      if (ci.args[k]) v = b_.FieldSet(v, int(k), Convert(Expr(ci.args[k]), ir::Type::Elem(sd.fields[k].type)));
    return v;
  }
  if (ci.kind == sema::CallInfo::Kind::UserFunc) {
    std::vector<ir::Value*> args;
    for (const ast::Expr* a : ci.args) args.push_back(a ? Expr(a) : nullptr);
    ir::Value* r = InlineFunc(ci.func_index, args);
    return r ? r : b_.ConstInt(ScalarType::Int32, 0);
  }
  std::string name = ci.builtin ? ci.builtin->name : "";
  if (name == "tid") return b_.Tid(1)[0];
  if (name == "lane_id") return b_.ConstInt(ScalarType::Int32, 0);
  if (name == "cast") {
    ir::Value* v = Expr(ci.args[0]);
    return Convert(v, IrType(ci.cast_target ? ci.cast_target : result_type));
  }
  if (name == "tile_zeros" || name == "tile_ones" || name == "tile_full") {
    ir::Type et = rt.ElemValueType();
    ir::Value* v = name == "tile_zeros" ? ZeroValue(et)
                 : name == "tile_ones"  ? ConstOf(sema::ConstValue::MakeInt(1), et)
                                        : Convert(Expr(arg("value")), et);
    return b_.TileFull(v, rt.Shape(), rt.storage);
  }
  if (name == "tile_arange") {
    auto start = const_arg("start");
    auto step = const_arg("step");
    double s0 = start ? start->AsDouble() : 0.0, st = step ? step->AsDouble() : 1.0;
    return b_.TileArange(rt.elem.scalar, s0, st, rt.shape[0], rt.storage);
  }
  if (name == "tile_load" || name == "tile_load_indexed") {
    ir::Value* a = ArrayOf(arg("a"));
    if (!a) return ZeroValue(rt);
    auto offs = Offsets(ci, ParamIndex(ci, "offset"), a->type().ndim);
    if (name == "tile_load") return b_.TileLoad(a, rt.Shape(), offs, rt.storage);
    ir::Value* idx = Expr(arg("indices"));
    auto axis = const_arg("axis");
    return b_.TileLoadIndexed(a, idx, rt.Shape(), offs, axis ? int(axis->AsInt()) : 0, rt.storage);
  }
  if (name == "tile_store" || name == "tile_atomic_add" || name == "tile_store_indexed" ||
      name == "tile_atomic_add_indexed") {
    ir::Value* a = ArrayOf(arg("a"));
    ir::Value* t = Expr(arg("t"));
    if (!a) return nullptr;
    auto offs = Offsets(ci, ParamIndex(ci, "offset"), a->type().ndim);
    if (name == "tile_store") { b_.TileStore(a, t, offs); return nullptr; }
    if (name == "tile_atomic_add") return b_.TileAtomicAdd(a, t, offs);
    ir::Value* idx = Expr(arg("indices"));
    auto axis_c = const_arg("axis");
    int axis = axis_c ? int(axis_c->AsInt()) : 0;
    if (name == "tile_store_indexed") { b_.TileStoreIndexed(a, idx, t, offs, axis); return nullptr; }
    return b_.TileAtomicAddIndexed(a, idx, t, offs, axis);
  }
  if (name == "tile_sum") return b_.TileSum(Expr(arg("t")));
  if (name == "tile_add" || name == "tile_sub" || name == "tile_mul" || name == "tile_div") {
    // Operators are keyed by their AST node: Binary, or an AugAssign target.
    const ast::Expr* lhs = arg("lhs");
    const ast::Expr* rhs = arg("rhs");
    return TileBinaryOp(name, Expr(lhs), Expr(rhs));
  }
  if (name == "tile_neg") return b_.Unary(OpCode::Neg, Expr(arg("t")));
  if (name == "tile_extract") {
    ir::Value* t = Expr(arg("t"));
    return b_.TileExtract(t, IndexList(arg("index")));
  }
  if (name == "tile_map") {
    const ast::Expr* f = ci.args[0];
    std::vector<ir::Value*> tiles;
    for (size_t k = 1; k < ci.args.size(); ++k) tiles.push_back(Expr(ci.args[k]));
    const sema::Type* ft = cm_.TypeOf(f);
    ir::Op* op = b_.TileMap(tiles, rt.elem);
    ir::Builder::InsertionGuard g(b_);
    ir::Block* body = op->region(0);
    b_.SetInsertionPoint(body);
    std::vector<ir::Value*> elems;
    for (auto& a : body->args()) elems.push_back(a.get());
    ir::Value* r = nullptr;
    if (ft && ft->kind == sema::TypeKind::Function && ft->callee.kind == sema::CalleeKind::UserFunc) {
      r = InlineFunc(ft->callee.index, elems);
    } else if (ft && ft->kind == sema::TypeKind::Function && ft->callee.kind == sema::CalleeKind::Builtin) {
      const sema::Builtin& bi = sema::BuiltinTable()[ft->callee.index];
      if (auto mop = MathOp(bi.name)) {
        for (ir::Value*& x : elems) x = Convert(x, rt.ElemValueType());
        r = ApplyMath(b_, *mop, elems);
      }
    }
    if (!r) {
      Unsupported(f->range, "this `tile_map` function");
      r = ZeroValue(rt.ElemValueType());
    }
    b_.Yield({Convert(r, rt.ElemValueType())});
    return op->result();
  }
  if (name == "atomic_add") {
    ir::Value* a = ArrayOf(ci.args[0]);
    if (!a) return ZeroValue(rt);
    std::vector<ir::Value*> idx;
    for (int d = 0; d < a->type().ndim; ++d) idx.push_back(Expr(ci.args[1 + d]));
    ir::Value* v = Convert(Expr(ci.args[1 + a->type().ndim]), a->type().ElemValueType());
    return b_.AtomicAdd(a, idx, v);
  }
  if (auto mop = MathOp(name)) {
    std::vector<ir::Value*> args;
    for (const ast::Expr* a : ci.args)
      if (a) args.push_back(Convert(Expr(a), rt));
    return ApplyMath(b_, *mop, args);
  }
  if (name == "print") {
    // Python's print: arguments separated by spaces, then a newline.
    std::vector<std::string> strs{""};
    std::vector<ir::Value*> vals;
    for (size_t k = 0; k < ci.args.size(); ++k) {
      if (k) strs.back() += " ";
      const ast::Expr* a = ci.args[k];
      if (!a) continue;
      const sema::ExprInfo* ai = cm_.Info(a);
      if (ai && ai->value && ai->value->kind == sema::ConstValue::Kind::String) {
        strs.back() += ai->value->s;
        continue;
      }
      vals.push_back(Expr(a));
      strs.push_back("");
    }
    strs.back() += "\n";
    b_.Print(strs, vals);
    return nullptr;
  }
  Unsupported(e->range, "`" + name + "`");
  return rt.is_none() ? nullptr : ZeroValue(rt);
}

}  // namespace tilec::lower
