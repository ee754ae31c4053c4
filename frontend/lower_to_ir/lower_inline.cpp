// @wp.func calls inlined: the func's body lowered with its own variable scope, its parameters
// bound to the arguments (a tuple argument to its elements), its returns collected through
// flags; what a tile or stack parameter becomes is handed back to the caller.
#include "frontend/lower_to_ir/lowerer.h"

namespace tilec::lower {

// A tile or stack parameter that the func never rebinds (`t = ...`): its updates are the
// caller's. One it rebinds names a new value from there on, so the caller's keeps its own.
bool Lowerer::PassedByReference(const sema::FunctionInfo& fi, int param) {
  const sema::LocalSymbol* p = fi.Param(param);
  if (!p->type || !(p->type->IsTile() || p->type->IsTileStack())) return false;
  std::function<bool(const ast::Expr*)> names = [&](const ast::Expr* t) {
    if (const auto* n = t->As<ast::Name>()) return n->id == p->name;
    if (const auto* tup = t->As<ast::Tuple>())
      return std::any_of(tup->elts.begin(), tup->elts.end(), [&](const ast::ExprPtr& e) { return names(e.get()); });
    return false;
  };
  std::function<bool(const ast::Body&)> rebinds = [&](const ast::Body& body) {
    for (const ast::StmtPtr& s : body) {
      if (const auto* a = s->As<ast::Assign>()) {
        for (const ast::ExprPtr& t : a->targets)
          if (names(t.get())) return true;
      } else if (const auto* an = s->As<ast::AnnAssign>()) {
        if (names(an->target.get())) return true;
      } else if (const auto* i = s->As<ast::If>()) {
        if (rebinds(i->body) || rebinds(i->orelse)) return true;
      } else if (const auto* f = s->As<ast::For>()) {
        if (names(f->target.get()) || rebinds(f->body)) return true;
      } else if (const auto* w = s->As<ast::While>()) {
        if (rebinds(w->body)) return true;
      } else if (const auto* wi = s->As<ast::With>()) {
        if (rebinds(wi->body)) return true;
      }
    }
    return false;
  };
  return !rebinds(fi.def->body);
}

ir::Value* Lowerer::InlineFunc(int func_index, const std::vector<ir::Value*>& args,
                               const std::vector<std::vector<ir::Value*>>& tuples) {
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
  CollectAliases(body);
  for (int i = 0; i < fi.num_params && i < int(args.size()); ++i) {
    const sema::LocalSymbol* p = fi.Param(i);
    if (i < int(tuples.size()) && p->type && p->type->kind == sema::TypeKind::Tuple) {
      env_[p].tuple = tuples[size_t(i)];
      continue;
    }
    ir::Value* v = args[i];
    if (!v && p->default_value && p->type) v = ConstOf(*p->default_value, IrType(p->type));
    if (p->type && (p->type->IsScalar() || p->type->kind == sema::TypeKind::Struct)) v = Convert(v, IrType(p->type));
    env_[p].value = v;
  }
  ir::Type rt = IrType(fi.return_type);
  if (fi.return_type && fi.return_type->kind == sema::TypeKind::Tuple) {
    // Each element is a variable of its own, so returns under control flow carry it.
    ctx.tuple_keys.resize(fi.return_type->elems.size());
    for (size_t k = 0; k < ctx.tuple_keys.size(); ++k)
      env_[&ctx.tuple_keys[k]].value = ZeroValue(IrType(fi.return_type->elems[k]));
  }
  if (ctx.has_return_flag) env_[&ctx.ret].value = b_.ConstBool(false);
  if (!rt.is_none()) env_[&ctx.retval].value = ZeroValue(rt);
  funcs_.push_back(&ctx);
  LowerBody(body);
  funcs_.pop_back();
  ir::Value* result = rt.is_none() ? nullptr : env_[&ctx.retval].value;
  last_params_.clear();
  for (int i = 0; i < fi.num_params; ++i) last_params_.push_back(RegionExitValue(fi.Param(i)));
  last_tuple_.clear();
  for (char& k : ctx.tuple_keys) last_tuple_.push_back(env_[&k].value);
  env_ = std::move(saved_env);
  loops_ = std::move(saved_loops);
  return result;
}

}  // namespace tilec::lower
