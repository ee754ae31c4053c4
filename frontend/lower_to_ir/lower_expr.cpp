// Expressions: constants from the checker's values, variables from the environment, scalar
// operators (computed in the checker's result type), short-circuit `and`/`or`, conditional
// expressions, struct fields, array elements, shapes and tuples.
#include "frontend/lower_to_ir/lowerer.h"

namespace tilec::lower {

using ir::OpCode;

void Lowerer::Unsupported(SourceRange r, const std::string& what) {
  diags_.Report(diag::Code::LoweringUnsupported, file_, r, what + " cannot be compiled in version 1");
  failed_ = true;
}

ir::Type Lowerer::IrType(const sema::Type* t) {
  if (!t) return ir::Type::None();
  switch (t->kind) {
    case sema::TypeKind::Scalar: return ir::Type::Scalar(t->scalar);
    case sema::TypeKind::Struct: return ir::Type::Struct(t->struct_index);
    case sema::TypeKind::Array: return ir::Type::Array(IrElem(t->elem), t->ndim);
    case sema::TypeKind::Tile:
      return ir::Type::Tile(IrElem(t->elem), t->shape,
                            t->storage == sema::Storage::Shared ? ir::Storage::Shared : ir::Storage::Register);
    // Warp keeps its stacks in shared memory (docs/lanes.rst): the elements, then the count.
    case sema::TypeKind::TileStack:
      return ir::Type::Tile(StackSlotElem(IrElem(t->elem)), {t->capacity + 1}, ir::Storage::Shared);
    // No IR value: tuples are lowered element by element, the rest are compile-time only.
    case sema::TypeKind::Error: case sema::TypeKind::Void: case sema::TypeKind::None:
    case sema::TypeKind::Tuple: case sema::TypeKind::String: case sema::TypeKind::TypeRef:
    case sema::TypeKind::Module: case sema::TypeKind::Function: case sema::TypeKind::Range:
      return ir::Type::None();
  }
  return ir::Type::None();
}

ir::Value* Lowerer::ConstOf(const sema::ConstValue& c, const ir::Type& t) {
  if (c.kind == sema::ConstValue::Kind::Composite && t.is_struct()) {
    const ir::Type st = ir::Type::Scalar(m_.structs()[t.elem.struct_index].composite.scalar);
    std::vector<ir::Value*> comps;
    for (const sema::ConstValue& e : c.elems) comps.push_back(ConstOf(e, st));
    return BuildComposite(t, comps);
  }
  if (t.is_bool()) return b_.ConstBool(c.Truthy());
  if (t.is_float()) return b_.ConstFloat(t.elem.scalar, c.AsDouble());
  if (t.is_int()) return b_.ConstInt(t.elem.scalar, c.AsInt());
  return ZeroValue(t);
}

ir::Value* Lowerer::ZeroValue(const ir::Type& t) {
  if (t.is_tile()) return b_.TileFull(ZeroValue(t.ElemValueType()), t.Shape(), t.storage);
  if (t.is_float()) return b_.ConstFloat(t.elem.scalar, 0.0);
  if (t.is_scalar()) return b_.ConstInt(t.elem.scalar, 0);
  return b_.ZeroOf(t);
}

ir::Value* Lowerer::Convert(ir::Value* v, const ir::Type& to) {
  if (!v || v->type() == to) return v;
  const ir::Type& from = v->type();
  if (from.is_scalar() && to.is_scalar()) return b_.Cast(v, to.elem.scalar);
  if (from.is_tile() && to.is_tile() && !(from.elem == to.elem) && !to.elem.is_struct() && !from.elem.is_struct())
    return b_.Cast(v, to.elem.scalar);
  return v;  // tiles differing only in storage flow as they are
}

ir::Value* Lowerer::ToBool(ir::Value* v) {
  if (v->type().is_bool()) return v;
  if (v->type().is_scalar()) return b_.Cast(v, ScalarType::Bool);
  // An array is true unless it is empty: a None argument arrives with every extent zero.
  ir::Value* any = nullptr;
  for (int d = 0; d < v->type().ndim; ++d) {
    ir::Value* nz = b_.Cmp(ir::CmpPred::Ne, b_.ArrayDim(v, d), b_.ConstInt(ScalarType::Int32, 0));
    any = any ? b_.Logic(OpCode::And, any, nz) : nz;
  }
  return any;
}

ir::Value* Lowerer::ExprAs(const ast::Expr* e, const sema::Type* to) { return Convert(Expr(e), IrType(to)); }

ir::Value* Lowerer::ArrayOf(const ast::Expr* e) {
  ir::Value* v = Expr(e);
  return v && v->type().is_array() ? v : nullptr;
}

std::map<std::string, ir::Value*> Lowerer::StructArrays(const ast::Expr* e) {
  // The checker lets only a parameter, or a chain of struct fields from one, hold arrays.
  std::string prefix;
  const ast::Expr* root = e;
  while (const auto* a = root->As<ast::Attribute>()) {
    prefix = a->attr + "." + prefix;
    root = a->value.get();
  }
  std::map<std::string, ir::Value*> out;
  const sema::LocalSymbol* sym = root->Is<ast::Name>() ? cm_.Symbol(root) : nullptr;
  auto it = sym ? struct_arrays_.find(sym) : struct_arrays_.end();
  if (it == struct_arrays_.end()) return out;
  for (auto& [path, v] : it->second)
    if (path.compare(0, prefix.size(), prefix) == 0) out[path.substr(prefix.size())] = v;
  return out;
}

// `a[lo:hi:step, i]`: array_view with Python's defaults for absent bounds written out (from
// the array's extent), so that the view's rule reads only ints; null when no entry is a slice.
ir::Value* Lowerer::ArrayViewOf(ir::Value* arr, const ast::Expr* index) {
  std::vector<const ast::Expr*> entries;
  if (const auto* t = index->As<ast::Tuple>())
    for (auto& e : t->elts) entries.push_back(e.get());
  else
    entries.push_back(index);
  if (std::none_of(entries.begin(), entries.end(), [](const ast::Expr* e) { return e->Is<ast::Slice>(); }))
    return nullptr;
  const ir::Type i32 = ir::Type::Scalar(ScalarType::Int32);
  std::vector<ir::Value*> bounds;
  std::vector<int64_t> steps;
  for (size_t d = 0; d < entries.size(); ++d) {
    const auto* sl = entries[d]->As<ast::Slice>();
    if (!sl) {
      ir::Value* i = Convert(Expr(entries[d]), i32);
      bounds.insert(bounds.end(), {i, i});
      steps.push_back(0);
      continue;
    }
    const int64_t step = sl->step ? cm_.Info(sl->step.get())->value->AsInt() : 1;
    ir::Value* len = b_.ArrayDim(arr, int(d));
    // Absent bounds: the whole dimension in the step's direction; an absent stop going down is
    // "before element 0", which -len - 1 becomes once counted from the end.
    ir::Value* start = sl->lower ? Convert(Expr(sl->lower.get()), i32)
                       : step > 0 ? b_.ConstInt(ScalarType::Int32, 0)
                                  : b_.Binary(ir::OpCode::Sub, len, b_.ConstInt(ScalarType::Int32, 1));
    ir::Value* stop = sl->upper ? Convert(Expr(sl->upper.get()), i32)
                      : step > 0 ? len
                                 : b_.Binary(ir::OpCode::Sub, b_.ConstInt(ScalarType::Int32, -1), len);
    bounds.insert(bounds.end(), {start, stop});
    steps.push_back(step);
  }
  return b_.ArrayView(arr, bounds, steps);
}

std::vector<ir::Value*> Lowerer::IndexList(const ast::Expr* index) {
  if (const auto* t = index->As<ast::Tuple>()) {
    std::vector<ir::Value*> out;
    for (auto& e : t->elts) out.push_back(Expr(e.get()));
    return out;
  }
  const sema::Type* it = cm_.TypeOf(index);
  if (it && it->kind == sema::TypeKind::Tuple) return Tuple(index);
  return {Expr(index)};
}

std::vector<ir::Value*> Lowerer::Tuple(const ast::Expr* e) {
  const sema::ExprInfo* info = cm_.Info(e);
  std::vector<ir::Value*> out;
  if (info && info->value && info->value->kind == sema::ConstValue::Kind::Tuple) {
    for (size_t k = 0; k < info->value->elems.size(); ++k) {
      const sema::Type* et = info->type && k < info->type->elems.size() ? info->type->elems[k] : nullptr;
      ir::Type t = IrType(et);
      out.push_back(ConstOf(info->value->elems[k], t.is_scalar() ? t : ir::Type::Scalar(ScalarType::Int32)));
    }
    return out;
  }
  if (const auto* t = e->As<ast::Tuple>()) {
    for (auto& x : t->elts) out.push_back(Expr(x.get()));
    return out;
  }
  if (const auto* n = e->As<ast::Name>()) {
    auto it = env_.find(cm_.Symbol(n));
    if (it != env_.end()) return it->second.tuple;
    return out;
  }
  if (const auto* c = e->As<ast::Call>()) {
    const sema::CallInfo* ci = cm_.Call(c);
    if (ci && ci->builtin && ci->builtin->lower.kind == sema::LowerKind::Tid && info && info->type)
      return b_.Tid(int(info->type->elems.size()));
    if (ci && (ci->kind == sema::CallInfo::Kind::UserFunc ||
               (ci->builtin && ci->builtin->lower.kind == sema::LowerKind::TileStackPop))) {
      last_tuple_.clear();
      Call(c, *ci);
      return last_tuple_;
    }
  }
  Unsupported(e->range, "this tuple expression");
  return out;
}

ir::Value* Lowerer::Expr(const ast::Expr* e) {
  const sema::ExprInfo* info = cm_.Info(e);
  if (!info || !info->type) {
    Unsupported(e->range, "this expression");
    return b_.ConstInt(ScalarType::Int32, 0);
  }
  ir::Type rt = IrType(info->type);
  if (info->value && rt.is_scalar()) return ConstOf(*info->value, rt);
  if (info->value && info->value->kind == sema::ConstValue::Kind::Composite && rt.is_struct())
    return ConstOf(*info->value, rt);
  switch (e->kind) {
    case ast::ExprKind::Name: {
      const sema::LocalSymbol* sym = cm_.Symbol(e);
      auto it = sym ? env_.find(sym) : env_.end();
      if (it != env_.end() && (it->second.view || it->second.stale)) return ReadVar(sym, e->range);
      if (it != env_.end() && it->second.value) return it->second.value;
      if (rt.is_scalar() || rt.is_struct() || rt.is_tile()) return ZeroValue(rt);
      Unsupported(e->range, "this name");
      return b_.ConstInt(ScalarType::Int32, 0);
    }
    case ast::ExprKind::Unary: {
      const auto* u = e->As<ast::Unary>();
      if (const sema::CallInfo* ci = cm_.Call(e)) return Call(e, *ci);
      switch (u->op) {
        case ast::UnaryOp::Not: return b_.Unary(OpCode::Not, ToBool(Expr(u->operand.get())));
        case ast::UnaryOp::Neg: return b_.Unary(OpCode::Neg, Convert(Expr(u->operand.get()), rt));
        case ast::UnaryOp::Invert: return b_.Unary(OpCode::BitNot, Convert(Expr(u->operand.get()), rt));
        case ast::UnaryOp::Pos: return Convert(Expr(u->operand.get()), rt);
      }
      break;
    }
    case ast::ExprKind::Binary: {
      if (const sema::CallInfo* ci = cm_.Call(e)) return Call(e, *ci);
      const auto* bin = e->As<ast::Binary>();
      static const OpCode kOps[] = {OpCode::Add, OpCode::Sub, OpCode::Mul, OpCode::Div, OpCode::FloorDiv,
                                    OpCode::Mod, OpCode::Pow, OpCode::Mul, OpCode::BitAnd, OpCode::BitOr,
                                    OpCode::BitXor, OpCode::Shl, OpCode::Shr};
      if (bin->op == ast::BinaryOp::MatMul) break;
      ir::Value* a = Convert(Expr(bin->lhs.get()), rt);
      ir::Value* b = Convert(Expr(bin->rhs.get()), rt);
      return b_.Binary(kOps[int(bin->op)], a, b);
    }
    case ast::ExprKind::BoolOp: {
      // Short-circuit: `a and b` evaluates b only when a holds (it may guard an index).
      const auto* bo = e->As<ast::BoolOp>();
      ir::Value* acc = ToBool(Expr(bo->values[0].get()));
      for (size_t k = 1; k < bo->values.size(); ++k) {
        ir::Op* op = b_.If(acc, {ir::Type::Scalar(ScalarType::Bool)});
        ir::Builder::InsertionGuard g(b_);
        bool is_and = bo->op == ast::BoolOpKind::And;
        b_.SetInsertionPoint(op->region(is_and ? 0 : 1));
        b_.Yield({ToBool(Expr(bo->values[k].get()))});
        b_.SetInsertionPoint(op->region(is_and ? 1 : 0));
        b_.Yield({b_.ConstBool(!is_and)});
        acc = op->result(0);
      }
      return acc;
    }
    case ast::ExprKind::Compare: {
      if (const sema::CallInfo* ci = cm_.Call(e)) return Call(e, *ci);
      const auto* c = e->As<ast::Compare>();
      ir::Value* acc = nullptr;
      ir::Value* lhs = Expr(c->left.get());
      for (size_t k = 0; k < c->ops.size(); ++k) {
        ir::Value* rhs = Expr(c->comparators[k].get());
        ir::Value* a = lhs;
        ir::Value* b = rhs;
        if (a->type() != b->type() && a->type().is_scalar() && b->type().is_scalar()) {
          if (b->type().is_float() && !a->type().is_float()) a = Convert(a, b->type());
          else b = Convert(b, a->type());
        }
        ir::CmpPred p;
        switch (c->ops[k]) {
          case ast::CmpOp::Eq: case ast::CmpOp::Is: p = ir::CmpPred::Eq; break;
          case ast::CmpOp::NotEq: case ast::CmpOp::IsNot: p = ir::CmpPred::Ne; break;
          case ast::CmpOp::Lt: p = ir::CmpPred::Lt; break;
          case ast::CmpOp::LtE: p = ir::CmpPred::Le; break;
          case ast::CmpOp::Gt: p = ir::CmpPred::Gt; break;
          case ast::CmpOp::GtE: p = ir::CmpPred::Ge; break;
          case ast::CmpOp::In: case ast::CmpOp::NotIn:
            Unsupported(e->range, "this comparison");
            return b_.ConstBool(false);
        }
        ir::Value* r = b_.Cmp(p, a, b);
        acc = acc ? b_.Logic(OpCode::And, acc, r) : r;
        lhs = rhs;
      }
      return acc;
    }
    case ast::ExprKind::IfExp: {
      const auto* ie = e->As<ast::IfExp>();
      ir::Value* c = ToBool(Expr(ie->cond.get()));
      ir::Op* op = b_.If(c, {rt});
      ir::Builder::InsertionGuard g(b_);
      b_.SetInsertionPoint(op->region(0));
      b_.Yield({Convert(Expr(ie->then_value.get()), rt)});
      b_.SetInsertionPoint(op->region(1));
      b_.Yield({Convert(Expr(ie->else_value.get()), rt)});
      return op->result(0);
    }
    case ast::ExprKind::Call: {
      if (const ast::Expr* r = cm_.Rewritten(e)) return Expr(r);
      const sema::CallInfo* ci = cm_.Call(e);
      if (ci) return Call(e, *ci);
      break;
    }
    case ast::ExprKind::Attribute: {
      if (const sema::CallInfo* ci = cm_.Call(e)) return Call(e, *ci);
      const auto* a = e->As<ast::Attribute>();
      ir::Value* base = Expr(a->value.get());
      if (base->type().is_struct()) {
        const ir::StructDef& sd = m_.structs()[base->type().elem.struct_index];
        for (size_t k = 0; k < sd.fields.size(); ++k)
          if (sd.fields[k].name == a->attr) return b_.FieldGet(base, int(k));
        std::map<std::string, ir::Value*> arrays = StructArrays(a->value.get());
        if (auto it = arrays.find(a->attr); it != arrays.end()) return it->second;
      }
      break;
    }
    case ast::ExprKind::Subscript: {
      if (const sema::CallInfo* ci = cm_.Call(e)) return Call(e, *ci);
      const auto* s = e->As<ast::Subscript>();
      if (const sema::TileAccess* acc = cm_.Access(e)) return TileAccessValue(*s, *acc);
      // `a.shape[d]`
      if (const auto* attr = s->value->As<ast::Attribute>(); attr && attr->attr == "shape") {
        const sema::ExprInfo* ii = cm_.Info(s->index.get());
        ir::Value* arr = ArrayOf(attr->value.get());
        if (arr && ii && ii->value) return Convert(b_.ArrayDim(arr, int(ii->value->AsInt())), rt);
      }
      const sema::Type* bt = cm_.TypeOf(s->value.get());
      if (bt && bt->kind == sema::TypeKind::Tuple) {
        const sema::ExprInfo* ii = cm_.Info(s->index.get());
        std::vector<ir::Value*> elems = Tuple(s->value.get());
        if (ii && ii->value) {
          int64_t k = ii->value->AsInt();
          if (k < 0) k += int64_t(elems.size());
          if (k >= 0 && k < int64_t(elems.size())) return elems[k];
        }
        break;
      }
      ir::Value* arr = ArrayOf(s->value.get());
      if (!arr) break;
      if (ir::Value* view = ArrayViewOf(arr, s->index.get())) return view;
      std::vector<ir::Value*> idx = IndexList(s->index.get());
      if (int(idx.size()) < arr->type().ndim) {
        for (ir::Value*& i : idx) i = Convert(i, ir::Type::Scalar(ScalarType::Int32));
        return b_.ArraySlice(arr, idx);
      }
      return b_.ArrayLoad(arr, idx);
    }
    // Literals reach here only as the checker's constants (above); the rest are not kernel code.
    case ast::ExprKind::IntLit: case ast::ExprKind::FloatLit: case ast::ExprKind::StrLit:
    case ast::ExprKind::BoolLit: case ast::ExprKind::NoneLit: case ast::ExprKind::Slice:
    case ast::ExprKind::Tuple: case ast::ExprKind::List: case ast::ExprKind::Dict:
      break;
  }
  Unsupported(e->range, "this expression");
  return ZeroValue(rt.is_none() ? ir::Type::Scalar(ScalarType::Int32) : rt);
}

}  // namespace tilec::lower
