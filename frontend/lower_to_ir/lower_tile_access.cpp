// Tile views, gathers and in-place writes. Tiles are SSA values in Tile IR, so Warp's aliasing
// lives here: a view variable reads its region of the base's current value, and a write to a
// view or element (`t[i, j] = v`, `wp.tile_assign(view, src)`) becomes a new value of the base.
#include "frontend/lower_to_ir/lowerer.h"

namespace tilec::lower {

using ir::OpCode;

namespace {

const ast::Expr* ArgOf(const sema::CallInfo& ci, sema::Param p) {
  int k = ci.overload ? ci.overload->Index(p) : -1;
  return k >= 0 && k < int(ci.args.size()) ? ci.args[size_t(k)] : nullptr;
}

bool IsTileViewCall(const sema::CallInfo* ci) {
  return ci && ci->builtin && ci->builtin->lower.kind == sema::LowerKind::TileView;
}

}  // namespace

bool Lowerer::RegionOf(const ast::Expr* e, Region& out) {
  if (const ast::Expr* r = cm_.Rewritten(e)) return RegionOf(r, out);
  const sema::Type* rt = cm_.TypeOf(e);
  if (!rt || !rt->IsTile()) return false;
  auto i32 = [&](ir::Value* v) { return Convert(v, ir::Type::Scalar(ScalarType::Int32)); };
  if (const auto* s = e->As<ast::Subscript>()) {
    const sema::TileAccess* acc = cm_.Access(e);
    if (!acc || acc->kind != sema::TileAccess::Kind::View) return false;
    const sema::Type* bt = cm_.TypeOf(s->value.get());
    out.base = s->value.get();
    out.offsets.clear();
    for (size_t d = 0; d < acc->start.size(); ++d) {
      ir::Value* o = b_.ConstInt(ScalarType::Int32, acc->start[d]);
      if (const ast::Expr* x = acc->index[d]) {
        // A runtime index counts from the end when negative, as NumPy's.
        ir::Value* v = i32(Expr(x));
        ir::Value* zero = b_.ConstInt(ScalarType::Int32, 0);
        ir::Value* wrapped = b_.Binary(OpCode::Add, v, b_.ConstInt(ScalarType::Int32, bt->shape[d]));
        o = b_.Select(b_.Cmp(ir::CmpPred::Lt, v, zero), wrapped, v);
      }
      out.offsets.push_back(o);
    }
    out.steps = acc->step;
    out.shape = rt->shape;
    return true;
  }
  const sema::CallInfo* ci = e->Is<ast::Call>() ? cm_.Call(e) : nullptr;
  if (!IsTileViewCall(ci)) return false;
  const ast::Expr* t = ArgOf(*ci, sema::Param::T);
  const sema::Type* tt = cm_.TypeOf(t);
  out.base = t;
  out.offsets.clear();
  for (ir::Value* v : Offsets(*ci, ci->overload->Index(sema::Param::Offset), 0)) out.offsets.push_back(i32(v));
  bool with_shape = ci->overload->Index(sema::Param::Shape) >= 0;
  size_t given = out.offsets.size();
  out.steps.assign(size_t(tt->ndim), 1);
  for (size_t d = 0; d < size_t(tt->ndim); ++d) {
    if (d >= given) out.offsets.push_back(b_.ConstInt(ScalarType::Int32, 0));
    else if (!with_shape) out.steps[d] = 0;
  }
  out.shape = rt->shape;
  return true;
}

std::vector<ir::Value*> Lowerer::ElementIndices(const ast::Expr* tile, const ast::Expr* index) {
  const sema::Type* tt = cm_.TypeOf(tile);
  std::vector<const ast::Expr*> exprs;
  if (const auto* tup = index->As<ast::Tuple>()) {
    for (const ast::ExprPtr& x : tup->elts) exprs.push_back(x.get());
  } else {
    exprs.push_back(index);
  }
  std::vector<ir::Value*> out;
  for (size_t d = 0; d < exprs.size(); ++d) {
    const int64_t extent = tt && d < tt->shape.size() ? tt->shape[d] : 0;
    const sema::ExprInfo* info = cm_.Info(exprs[d]);
    if (info && info->value && info->value->kind == sema::ConstValue::Kind::Int) {
      int64_t i = info->value->i;
      out.push_back(b_.ConstInt(ScalarType::Int32, i < 0 ? i + extent : i));
      continue;
    }
    ir::Value* v = Convert(Expr(exprs[d]), ir::Type::Scalar(ScalarType::Int32));
    ir::Value* wrapped = b_.Binary(OpCode::Add, v, b_.ConstInt(ScalarType::Int32, extent));
    out.push_back(b_.Select(b_.Cmp(ir::CmpPred::Lt, v, b_.ConstInt(ScalarType::Int32, 0)), wrapped, v));
  }
  return out;
}

ir::Value* Lowerer::TileAccessValue(const ast::Subscript& s, const sema::TileAccess& acc) {
  if (acc.kind == sema::TileAccess::Kind::Gather)
    return b_.TileGather(Expr(s.value.get()), Expr(acc.indices), acc.axis);
  Region r;
  RegionOf(&s, r);
  return b_.TileView(Expr(r.base), r.offsets, r.steps, r.shape);
}

ir::Value* Lowerer::ReadVar(const void* key, SourceRange use) {
  auto it = env_.find(key);
  const auto* sym = static_cast<const sema::LocalSymbol*>(key);
  if (it == env_.end()) return ZeroValue(IrType(sym->type));
  const Binding& b = it->second;
  if (b.stale) {
    diags_.Report(diag::Code::StaleTileView, file_, use,
                  "tile view `" + sym->name +
                      "` was taken inside a loop or one branch of an `if` and cannot be used after it; take the view "
                      "again after the loop or `if`");
    failed_ = true;
    return ZeroValue(IrType(sym->type));
  }
  if (b.view) {
    std::shared_ptr<const ViewAlias> v = b.view;
    return b_.TileView(ReadVar(v->base, use), v->offsets, v->steps, v->shape);
  }
  return b.value;
}

void Lowerer::WriteVar(const void* key, ir::Value* v) {
  auto it = env_.find(key);
  if (it != env_.end() && it->second.view) {
    std::shared_ptr<const ViewAlias> view = it->second.view;
    ir::Value* base = ReadVar(view->base, b_.loc().range);
    ir::Value* src = Convert(v, ir::Type::Tile(base->type().elem, v->type().Shape()));
    WriteVar(view->base, b_.TileAssign(base, src, view->offsets, view->steps));
    return;
  }
  if (it != env_.end() && it->second.stale) {
    ReadVar(key, b_.loc().range);  // reports the stale view
    return;
  }
  Binding& b = env_[key];
  b.value = v;
  b.tuple.clear();
}

void Lowerer::WriteTile(const ast::Expr* target, ir::Value* v) {
  if (const auto* n = target->As<ast::Name>()) {
    if (const sema::LocalSymbol* sym = cm_.Symbol(n)) WriteVar(sym, v);
    return;
  }
  Region r;
  if (!RegionOf(target, r)) return;  // a temporary: the write has no observer
  ir::Value* base = Expr(r.base);
  ir::Type src_t = ir::Type::Tile(base->type().elem, v->type().Shape());
  WriteTile(r.base, b_.TileAssign(base, Convert(v, src_t), r.offsets, r.steps));
}

bool Lowerer::BindView(const sema::LocalSymbol* sym, const ast::Expr* value) {
  Region r;
  if (!value || !RegionOf(value, r)) return false;
  const auto* n = r.base->As<ast::Name>();
  const sema::LocalSymbol* base = n ? cm_.Symbol(n) : nullptr;
  if (!base || base == sym) return false;  // a view of a temporary, or `t = t[...]`: a value
  // A view whose base chain comes back to `sym` would alias itself.
  for (const void* k = base; k;) {
    auto it = env_.find(k);
    if (it == env_.end() || !it->second.view) break;
    k = it->second.view->base;
    if (k == sym) return false;
  }
  auto alias = std::make_shared<ViewAlias>();
  alias->base = base;
  alias->offsets = r.offsets;
  alias->steps = r.steps;
  alias->shape = r.shape;
  Binding b;
  b.view = alias;
  env_[sym] = b;
  return true;
}

void Lowerer::InPlaceKeys(const ast::Expr* target, std::vector<const void*>& keys) {
  const ast::Expr* e = target;
  for (;;) {
    if (const ast::Expr* r = cm_.Rewritten(e)) {
      e = r;
      continue;
    }
    if (const auto* s = e->As<ast::Subscript>()) {
      e = s->value.get();
      continue;
    }
    const sema::CallInfo* ci = e->Is<ast::Call>() ? cm_.Call(e) : nullptr;
    if (IsTileViewCall(ci)) {
      e = ArgOf(*ci, sema::Param::T);
      continue;
    }
    break;
  }
  const auto* n = e->As<ast::Name>();
  const void* root = n ? cm_.Symbol(n) : nullptr;
  std::vector<const void*> todo;
  if (root) todo.push_back(root);
  while (!todo.empty()) {
    const void* k = todo.back();
    todo.pop_back();
    if (std::find(keys.begin(), keys.end(), k) != keys.end()) continue;
    keys.push_back(k);
    auto it = alias_bases_.find(k);
    if (it != alias_bases_.end()) todo.insert(todo.end(), it->second.begin(), it->second.end());
  }
}

void Lowerer::CollectAliases(const ast::Body& body) {
  for (const ast::StmtPtr& s : body) {
    if (const auto* a = s->As<ast::Assign>()) {
      for (const ast::ExprPtr& t : a->targets) {
        const auto* n = t->As<ast::Name>();
        const sema::LocalSymbol* sym = n ? cm_.Symbol(n) : nullptr;
        const ast::Expr* rewritten = cm_.Rewritten(a->value.get());
        const ast::Expr* value = rewritten ? rewritten : a->value.get();
        const sema::Type* vt = cm_.TypeOf(value);
        if (!sym || !vt || !vt->IsTile()) continue;
        bool view = (value->Is<ast::Subscript>() && cm_.Access(value) &&
                     cm_.Access(value)->kind == sema::TileAccess::Kind::View) ||
                    (value->Is<ast::Call>() && IsTileViewCall(cm_.Call(value)));
        if (!view) continue;
        std::vector<const void*> roots;
        InPlaceKeys(value, roots);
        for (const void* r : roots)
          if (r != sym) alias_bases_[sym].push_back(r);
      }
    } else if (const auto* i = s->As<ast::If>()) {
      CollectAliases(i->body);
      CollectAliases(i->orelse);
    } else if (const auto* f = s->As<ast::For>()) {
      if (const sema::UnrolledLoop* u = cm_.Unrolled(*f))
        for (const ast::Body& copy : u->bodies) CollectAliases(copy);
      else
        CollectAliases(f->body);
    } else if (const auto* w = s->As<ast::While>()) {
      CollectAliases(w->body);
    }
  }
}

ir::Value* Lowerer::RegionExitValue(const void* key) {
  auto it = env_.find(key);
  if (it == env_.end()) return nullptr;
  if (it->second.view) return ReadVar(key, b_.loc().range);
  return it->second.value;
}

void Lowerer::StaleViews(const std::vector<const void*>& keys, const Env& inside) {
  for (const void* k : keys) {
    auto in = inside.find(k);
    if (in == inside.end() || (!in->second.view && !in->second.stale)) continue;
    auto cur = env_.find(k);
    if (cur != env_.end() && cur->second.view && cur->second.view == in->second.view) continue;
    Binding b;
    b.stale = true;
    env_[k] = b;
  }
}

}  // namespace tilec::lower
