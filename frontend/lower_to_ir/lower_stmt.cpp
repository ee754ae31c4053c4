// Statements and structured control flow. Variables live in an environment of SSA values;
// an `if` yields every variable either branch changed, a loop carries every variable its body
// assigns. break/continue/return set flags; statements after one that may set a flag are
// guarded by an `if` on the flags, and loops with break or return test them in their condition.
#include <algorithm>
#include <functional>

#include "frontend/lower_to_ir/lowerer.h"

namespace tilec::lower {

using ir::OpCode;

namespace {

bool AnyStmt(const ast::Body& body, const std::function<bool(const ast::Stmt&, bool nested_loop)>& pred,
             bool in_loop = false) {
  for (const ast::StmtPtr& s : body) {
    if (pred(*s, in_loop)) return true;
    if (const auto* i = s->As<ast::If>()) {
      if (AnyStmt(i->body, pred, in_loop) || AnyStmt(i->orelse, pred, in_loop)) return true;
    } else if (const auto* f = s->As<ast::For>()) {
      if (AnyStmt(f->body, pred, true)) return true;
    } else if (const auto* w = s->As<ast::While>()) {
      if (AnyStmt(w->body, pred, true)) return true;
    }
  }
  return false;
}

}  // namespace

bool HasLoopExit(const ast::Body& body, bool want_break) {
  return AnyStmt(body, [&](const ast::Stmt& s, bool nested) {
    return !nested && (want_break ? s.Is<ast::Break>() : s.Is<ast::Continue>());
  });
}

bool HasReturn(const ast::Body& body) {
  return AnyStmt(body, [](const ast::Stmt& s, bool) { return s.Is<ast::Return>(); });
}

bool StmtMayExit(const ast::Stmt& s) {
  if (s.Is<ast::Break>() || s.Is<ast::Continue>() || s.Is<ast::Return>()) return true;
  ast::Body one;
  // Reuse AnyStmt on the statement's own sub-bodies.
  auto exits = [](const ast::Stmt& x, bool nested) {
    return x.Is<ast::Return>() || (!nested && (x.Is<ast::Break>() || x.Is<ast::Continue>()));
  };
  if (const auto* i = s.As<ast::If>()) return AnyStmt(i->body, exits) || AnyStmt(i->orelse, exits);
  if (const auto* f = s.As<ast::For>()) return HasReturn(f->body);
  if (const auto* w = s.As<ast::While>()) return HasReturn(w->body);
  return false;
}

ir::Value* Lowerer::ExitCondition() {
  ir::Value* any = nullptr;
  auto add = [&](const void* key) {
    auto it = env_.find(key);
    if (it == env_.end() || !it->second.value) return;
    any = any ? b_.Logic(OpCode::Or, any, it->second.value) : it->second.value;
  };
  if (!loops_.empty()) {
    if (loops_.back()->has_break) add(&loops_.back()->brk);
    if (loops_.back()->has_continue) add(&loops_.back()->cont);
  }
  if (!funcs_.empty() && funcs_.back()->has_return_flag) add(&funcs_.back()->ret);
  return any;
}

void Lowerer::LowerBody(const ast::Body& body, size_t from) {
  for (size_t i = from; i < body.size(); ++i) {
    LowerStmt(*body[i]);
    if (i + 1 < body.size() && StmtMayExit(*body[i])) {
      ir::Value* exit = ExitCondition();
      if (!exit) continue;
      b_.set_loc(LocOf(body[i + 1]->range));
      ir::Value* go_on = b_.Unary(OpCode::Not, exit);
      LowerIf(go_on, [&] { LowerBody(body, i + 1); }, [] {});
      return;
    }
  }
}

void Lowerer::LowerIf(ir::Value* cond, const std::function<void()>& then_fn, const std::function<void()>& else_fn) {
  HoistStackCounts();
  ir::Op* op = b_.If(cond, {});
  Env before = env_;
  Env branch_env[2];
  for (int r = 0; r < 2; ++r) {
    ir::Builder::InsertionGuard g(b_);
    b_.SetInsertionPoint(op->region(r));
    env_ = before;
    (r == 0 ? then_fn : else_fn)();
    branch_env[r] = env_;
  }
  // Variables either branch changed (or defined) become results.
  std::vector<const void*> keys;
  for (int r = 0; r < 2; ++r)
    for (auto& [k, v] : branch_env[r]) {
      auto it = before.find(k);
      if ((it == before.end() || !(it->second == v)) && std::find(keys.begin(), keys.end(), k) == keys.end())
        keys.push_back(k);
    }
  std::vector<ir::Value*> yields[2];
  std::vector<const void*> merged;
  for (const void* k : keys) {
    const Binding* bind[2] = {nullptr, nullptr};
    for (int r = 0; r < 2; ++r) {
      auto it = branch_env[r].find(k);
      if (it != branch_env[r].end()) bind[r] = &it->second;
    }
    const Binding* any = bind[0] ? bind[0] : bind[1];
    if (any->view || any->stale) {
      // A view bound in a branch: its offsets belong to the branch (Binding::stale).
      bool same = bind[0] && bind[1] && *bind[0] == *bind[1];
      auto it = before.find(k);
      if (!same || it == before.end() || !(it->second == *any)) {
        Binding stale;
        stale.stale = true;
        before[k] = stale;
      }
      continue;
    }
    if (!any->value) continue;  // tuples are not merged (they are never reassigned in practice)
    if (any->value->type().is_array()) {
      if (bind[0] && bind[1] && bind[0]->value == bind[1]->value) {
        before[k] = *any;
        continue;
      }
      // An array view bound in one branch only lives in that branch.
      if (!(bind[0] && bind[1]) && before.find(k) == before.end()) continue;
      Unsupported(b_.loc().range, "an array variable assigned differently in the branches of an `if`");
      continue;
    }
    for (int r = 0; r < 2; ++r) {
      ir::Builder::InsertionGuard g(b_);
      b_.SetInsertionPoint(op->region(r));
      yields[r].push_back(bind[r] && bind[r]->value ? bind[r]->value : ZeroValue(any->value->type()));
    }
    merged.push_back(k);
  }
  env_ = before;
  for (int r = 0; r < 2; ++r) {
    ir::Builder::InsertionGuard g(b_);
    b_.SetInsertionPoint(op->region(r));
    b_.Yield(yields[r]);
  }
  for (size_t i = 0; i < merged.size(); ++i) env_[merged[i]].value = op->AddResult(yields[0][i]->type());
}

void Lowerer::CollectAssigned(const ast::Body& body, std::vector<const void*>& keys) {
  auto add = [&](const void* k) {
    if (k && std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  };
  // A tile written in place (`t[i] = v`, `rows += 1` with `rows` a view, wp.tile_assign's
  // `dst`) rebinds its variable and the variables its views alias.
  auto in_place = [&](const ast::Expr* t) {
    std::vector<const void*> ks;
    InPlaceKeys(t, ks);
    for (const void* k : ks) add(k);
  };
  std::function<void(const ast::Expr*)> target = [&](const ast::Expr* t) {
    if (t->Is<ast::Name>()) in_place(t);
    else if (const auto* tup = t->As<ast::Tuple>()) for (auto& e : tup->elts) target(e.get());
    else if (const auto* a = t->As<ast::Attribute>()) target(a->value.get());  // p.x = v rebinds p
    else if (const auto* sub = t->As<ast::Subscript>()) {
      const sema::Type* bt = cm_.TypeOf(sub->value.get());
      if (bt && bt->IsTile()) in_place(t);
      else if (cm_.Call(t)) target(sub->value.get());  // v[i] = s rebinds v
    }
  };
  // A call that updates tiles in place (its row's `updates`) rebinds the variables they name.
  auto builtin_updates = [&](const sema::CallInfo* ci) {
    if (ci && ci->builtin && ci->overload)
      for (sema::Param p : ci->builtin->lower.updates) {
        int k = ci->overload->Index(p);
        if (k >= 0 && k < int(ci->args.size()) && ci->args[k]) in_place(ci->args[k]);
      }
  };
  // Calls anywhere in an expression that store into an argument (`x = wp.randf(state)`
  // rebinds `state`, `v, slot = wp.tile_stack_pop(s)` rebinds `s`). A statement that is a
  // builtin call is collected with the assignment targets below, in statement order.
  std::function<void(const ast::Expr*, bool)> updates = [&](const ast::Expr* e, bool stmt_call) {
    if (!e) return;
    if (const auto* c = e->As<ast::Call>()) {
      const sema::CallInfo* ci = cm_.Call(c);
      if (ci && ci->updates_arg >= 0 && ci->args[size_t(ci->updates_arg)] &&
          ci->args[size_t(ci->updates_arg)]->Is<ast::Name>())
        target(ci->args[size_t(ci->updates_arg)]);
      // A func may update the tiles and stacks it is given (they pass by reference).
      if (ci && ci->kind == sema::CallInfo::Kind::UserFunc)
        for (size_t k = 0; k < ci->args.size(); ++k)
          if (ci->args[k] && PassedByReference(cm_.funcs[size_t(ci->func_index)], int(k))) in_place(ci->args[k]);
      if (!stmt_call) builtin_updates(ci);
      for (auto& a : c->args) updates(a.get(), false);
      for (auto& k : c->keywords) updates(k.value.get(), false);
    } else if (const auto* b = e->As<ast::Binary>()) {
      updates(b->lhs.get(), false);
      updates(b->rhs.get(), false);
    } else if (const auto* u = e->As<ast::Unary>()) {
      updates(u->operand.get(), false);
    } else if (const auto* bo = e->As<ast::BoolOp>()) {
      for (auto& v : bo->values) updates(v.get(), false);
    } else if (const auto* cm = e->As<ast::Compare>()) {
      updates(cm->left.get(), false);
      for (auto& v : cm->comparators) updates(v.get(), false);
    } else if (const auto* ie = e->As<ast::IfExp>()) {
      updates(ie->cond.get(), false);
      updates(ie->then_value.get(), false);
      updates(ie->else_value.get(), false);
    } else if (const auto* sub = e->As<ast::Subscript>()) {
      updates(sub->value.get(), false);
      updates(sub->index.get(), false);
    } else if (const auto* at = e->As<ast::Attribute>()) {
      updates(at->value.get(), false);
    } else if (const auto* tu = e->As<ast::Tuple>()) {
      for (auto& v : tu->elts) updates(v.get(), false);
    }
  };
  for (const ast::StmtPtr& s : body) {
    if (const auto* a = s->As<ast::Assign>()) updates(a->value.get(), false);
    else if (const auto* a = s->As<ast::AugAssign>()) updates(a->value.get(), false);
    else if (const auto* a = s->As<ast::AnnAssign>()) updates(a->value.get(), false);
    else if (const auto* x = s->As<ast::ExprStmt>()) updates(x->value.get(), true);
    else if (const auto* r = s->As<ast::Return>()) updates(r->value.get(), false);
    else if (const auto* i = s->As<ast::If>()) updates(i->cond.get(), false);
    else if (const auto* w = s->As<ast::While>()) updates(w->cond.get(), false);
  }
  for (const ast::StmtPtr& s : body) {
    if (const auto* a = s->As<ast::Assign>()) for (auto& t : a->targets) target(t.get());
    else if (const auto* a = s->As<ast::AugAssign>()) target(a->target.get());
    else if (const auto* a = s->As<ast::AnnAssign>()) target(a->target.get());
    else if (const auto* x = s->As<ast::ExprStmt>()) builtin_updates(x->value ? cm_.Call(x->value.get()) : nullptr);
    else if (const auto* i = s->As<ast::If>()) { CollectAssigned(i->body, keys); CollectAssigned(i->orelse, keys); }
    else if (const auto* f = s->As<ast::For>()) {
      // break/continue inside belong to the inner loop: collect with a stand-in context.
      LoopCtx inner;
      loops_.push_back(&inner);
      target(f->target.get());
      if (const sema::UnrolledLoop* u = cm_.Unrolled(*f))
        for (const ast::Body& copy : u->bodies) CollectAssigned(copy, keys);
      else
        CollectAssigned(f->body, keys);
      loops_.pop_back();
      keys.erase(std::remove_if(keys.begin(), keys.end(),
                                [&](const void* k) { return k == &inner.brk || k == &inner.cont; }),
                 keys.end());
    } else if (const auto* w = s->As<ast::While>()) {
      LoopCtx inner;
      loops_.push_back(&inner);
      CollectAssigned(w->body, keys);
      loops_.pop_back();
      keys.erase(std::remove_if(keys.begin(), keys.end(),
                                [&](const void* k) { return k == &inner.brk || k == &inner.cont; }),
                 keys.end());
    }
    else if (s->Is<ast::Break>() && !loops_.empty()) add(&loops_.back()->brk);
    else if (s->Is<ast::Continue>() && !loops_.empty()) add(&loops_.back()->cont);
    else if (s->Is<ast::Return>() && !funcs_.empty()) {
      add(&funcs_.back()->ret);
      add(&funcs_.back()->retval);
      for (char& k : funcs_.back()->tuple_keys) add(&k);
    }
  }
}

namespace {

// The values a loop carries, in a fixed order, with their initial values.
struct Carried {
  std::vector<const void*> keys;
  std::vector<ir::Value*> inits;
};

}  // namespace

void Lowerer::LowerUnrolled(const ast::For& s, const sema::UnrolledLoop& u, size_t from) {
  const sema::LocalSymbol* iv_sym = cm_.Symbol(s.target.get());
  // A `continue` sets this trip's flag, which guards the rest of the trip (LowerBody); a
  // `return` sets the function's flag, which also guards the trips after it.
  LoopCtx ctx;
  ctx.has_continue = HasLoopExit(s.body, false);
  const void* ret = !funcs_.empty() && funcs_.back()->has_return_flag ? &funcs_.back()->ret : nullptr;
  for (size_t k = from; k < u.bodies.size(); ++k) {
    b_.set_loc(LocOf(s.range));
    env_[iv_sym].value = b_.ConstInt(ScalarType::Int32, u.values[k]);
    loops_.push_back(&ctx);
    if (ctx.has_continue) env_[&ctx.cont].value = b_.ConstBool(false);
    LowerBody(u.bodies[k]);
    loops_.pop_back();
    env_.erase(&ctx.cont);
    if (k + 1 < u.bodies.size() && ret && HasReturn(u.bodies[k]))
      if (auto it = env_.find(ret); it != env_.end() && it->second.value) {
        b_.set_loc(LocOf(s.range));
        LowerIf(b_.Unary(OpCode::Not, it->second.value), [&] { LowerUnrolled(s, u, k + 1); }, [] {});
        return;
      }
  }
}

void Lowerer::LowerFor(const ast::For& s) {
  if (const sema::UnrolledLoop* u = cm_.Unrolled(s)) return LowerUnrolled(s, *u, 0);
  const auto* call = s.iter->As<ast::Call>();
  const sema::CallInfo* ci = call ? cm_.Call(call) : nullptr;
  if (!ci) return Unsupported(s.iter->range, "this loop iterable");
  // range(stop) | range(start, stop) | range(start, stop, step)
  std::vector<ir::Value*> r;
  for (const ast::Expr* a : ci->args) r.push_back(a ? Convert(Expr(a), ir::Type::Scalar(ScalarType::Int32)) : nullptr);
  ir::Value* lo = r.size() >= 2 ? r[0] : b_.ConstInt(ScalarType::Int32, 0);
  ir::Value* hi = r.size() >= 2 ? r[1] : r[0];
  ir::Value* step = r.size() == 3 ? r[2] : b_.ConstInt(ScalarType::Int32, 1);
  const sema::LocalSymbol* iv_sym = cm_.Symbol(s.target.get());
  // A block-strided loop runs k over its trip count, which the checker proved the same on every
  // lane (lane 0's, read by all), and each lane's variable is start + k * step.
  std::function<ir::Value*(ir::Value*)> iv_of = [](ir::Value* k) { return k; };
  if (cm_.block_strided.count(&s)) {
    ir::Value* zero = b_.ConstInt(ScalarType::Int32, 0);
    ir::Value* one = b_.ConstInt(ScalarType::Int32, 1);
    ir::Value* span = b_.Binary(OpCode::Sub, hi, lo);
    ir::Value* trips = b_.Binary(OpCode::Add, b_.Binary(OpCode::FloorDiv, b_.Binary(OpCode::Sub, span, one), step), one);
    trips = b_.Select(b_.Cmp(ir::CmpPred::Gt, span, zero), trips, zero);
    ir::Value* slot = b_.TileFull(zero, {1});
    slot = b_.TileScatterLanes(slot, trips, b_.Cmp(ir::CmpPred::Eq, b_.LaneId(), zero), {zero}, false);
    iv_of = [this, start = lo, step](ir::Value* k) { return b_.Binary(OpCode::Add, start, b_.Binary(OpCode::Mul, k, step)); };
    lo = zero;
    hi = b_.TileExtract(slot, {zero});
    step = one;
  }

  LoopCtx ctx;
  ctx.has_break = HasLoopExit(s.body, true);
  ctx.has_continue = HasLoopExit(s.body, false);
  bool has_return = HasReturn(s.body) && !funcs_.empty() && funcs_.back()->has_return_flag;
  loops_.push_back(&ctx);
  std::vector<const void*> keys;
  CollectAssigned(s.body, keys);
  loops_.pop_back();
  Carried c;
  for (const void* k : keys) {
    if (k == iv_sym) continue;
    auto it = env_.find(k);
    if (it != env_.end() && !it->second.value) continue;
    if (it == env_.end()) {
      // First assigned inside the loop: start from zero so it can be carried.
      const auto* sym = static_cast<const sema::LocalSymbol*>(k);
      bool is_flag = k == &ctx.brk || k == &ctx.cont || (!funcs_.empty() && k == &funcs_.back()->ret);
      ir::Type t = is_flag ? ir::Type::Scalar(ScalarType::Bool) : (!funcs_.empty() && k == &funcs_.back()->retval)
                                                                     ? IrType(funcs_.back()->return_type)
                                                                     : IrType(sym->type);
      if (!(t.is_scalar() || t.is_struct() || t.is_tile())) continue;
      env_[k].value = ZeroValue(t);
    }
    if (env_[k].value->type().is_array()) continue;
    c.keys.push_back(k);
    c.inits.push_back(env_[k].value);
  }

  Env inside;
  HoistStackCounts();
  if (!ctx.has_break && !has_return) {
    ir::Op* op = b_.For(lo, hi, step, c.inits);
    ir::Block* body = op->region(0);
    {
      ir::Builder::InsertionGuard g(b_);
      b_.SetInsertionPoint(body);
      Env saved = env_;
      env_[iv_sym].value = iv_of(body->arg(0));
      for (size_t i = 0; i < c.keys.size(); ++i) env_[c.keys[i]].value = body->arg(int(i) + 1);
      loops_.push_back(&ctx);
      if (ctx.has_continue) env_[&ctx.cont].value = b_.ConstBool(false);
      LowerBody(s.body);
      loops_.pop_back();
      std::vector<ir::Value*> ys;
      for (const void* k : c.keys) ys.push_back(RegionExitValue(k));
      b_.Yield(ys);
      inside = env_;
      env_ = saved;
    }
    for (size_t i = 0; i < c.keys.size(); ++i) env_[c.keys[i]].value = op->result(int(i));
    StaleViews(keys, inside);
    return;
  }

  // A loop that can stop early becomes a while loop over (i, carried...).
  std::vector<ir::Value*> inits = {lo};
  inits.insert(inits.end(), c.inits.begin(), c.inits.end());
  std::vector<ir::Type> types;
  for (ir::Value* v : inits) types.push_back(v->type());
  ir::Op* op = b_.While(inits, types);
  ir::Block* before = op->region(0);
  ir::Block* after = op->region(1);
  Env saved = env_;
  {
    ir::Builder::InsertionGuard g(b_);
    b_.SetInsertionPoint(before);
    ir::Value* i = before->arg(0);
    ir::Value* zero = b_.ConstInt(ScalarType::Int32, 0);
    ir::Value* up = b_.Logic(OpCode::And, b_.Cmp(ir::CmpPred::Gt, step, zero), b_.Cmp(ir::CmpPred::Lt, i, hi));
    ir::Value* down = b_.Logic(OpCode::And, b_.Cmp(ir::CmpPred::Lt, step, zero), b_.Cmp(ir::CmpPred::Gt, i, hi));
    ir::Value* go = b_.Logic(OpCode::Or, up, down);
    for (size_t k = 0; k < c.keys.size(); ++k) {
      bool stop_flag = c.keys[k] == &ctx.brk || (!funcs_.empty() && c.keys[k] == &funcs_.back()->ret);
      if (stop_flag) go = b_.Logic(OpCode::And, go, b_.Unary(OpCode::Not, before->arg(int(k) + 1)));
    }
    std::vector<ir::Value*> fwd(before->args().size());
    for (size_t k = 0; k < fwd.size(); ++k) fwd[k] = before->arg(int(k));
    b_.Condition(go, fwd);
  }
  {
    ir::Builder::InsertionGuard g(b_);
    b_.SetInsertionPoint(after);
    env_[iv_sym].value = iv_of(after->arg(0));
    for (size_t k = 0; k < c.keys.size(); ++k) env_[c.keys[k]].value = after->arg(int(k) + 1);
    loops_.push_back(&ctx);
    if (ctx.has_continue) env_[&ctx.cont].value = b_.ConstBool(false);
    LowerBody(s.body);
    loops_.pop_back();
    std::vector<ir::Value*> ys = {b_.Binary(OpCode::Add, after->arg(0), step)};
    for (const void* k : c.keys) ys.push_back(RegionExitValue(k));
    b_.Yield(ys);
    inside = env_;
  }
  env_ = saved;
  for (size_t k = 0; k < c.keys.size(); ++k) env_[c.keys[k]].value = op->result(int(k) + 1);
  StaleViews(keys, inside);
  env_.erase(&ctx.brk);
  env_.erase(&ctx.cont);
}

void Lowerer::LowerWhile(const ast::While& s) {
  LoopCtx ctx;
  ctx.has_break = HasLoopExit(s.body, true);
  ctx.has_continue = HasLoopExit(s.body, false);
  loops_.push_back(&ctx);
  std::vector<const void*> keys;
  CollectAssigned(s.body, keys);
  loops_.pop_back();
  Carried c;
  for (const void* k : keys) {
    auto it = env_.find(k);
    if (it != env_.end() && !it->second.value) continue;
    if (it == env_.end()) {
      bool is_flag = k == &ctx.brk || k == &ctx.cont || (!funcs_.empty() && k == &funcs_.back()->ret);
      ir::Type t = is_flag ? ir::Type::Scalar(ScalarType::Bool)
                   : (!funcs_.empty() && k == &funcs_.back()->retval)
                       ? IrType(funcs_.back()->return_type)
                       : IrType(static_cast<const sema::LocalSymbol*>(k)->type);
      if (!(t.is_scalar() || t.is_struct() || t.is_tile())) continue;
      env_[k].value = ZeroValue(t);
    }
    if (env_[k].value->type().is_array()) continue;
    c.keys.push_back(k);
    c.inits.push_back(env_[k].value);
  }
  std::vector<ir::Type> types;
  for (ir::Value* v : c.inits) types.push_back(v->type());
  HoistStackCounts();
  ir::Op* op = b_.While(c.inits, types);
  ir::Block* before = op->region(0);
  ir::Block* after = op->region(1);
  Env saved = env_;
  Env inside;
  {
    ir::Builder::InsertionGuard g(b_);
    b_.SetInsertionPoint(before);
    for (size_t k = 0; k < c.keys.size(); ++k) env_[c.keys[k]].value = before->arg(int(k));
    ir::Value* stop = nullptr;
    for (size_t k = 0; k < c.keys.size(); ++k)
      if (c.keys[k] == &ctx.brk || (!funcs_.empty() && c.keys[k] == &funcs_.back()->ret))
        stop = stop ? b_.Logic(OpCode::Or, stop, before->arg(int(k))) : before->arg(int(k));
    ir::Value* go;
    if (stop) {
      // The condition is evaluated only while no flag has stopped the loop.
      ir::Op* guard = b_.If(stop, {ir::Type::Scalar(ScalarType::Bool)});
      {
        ir::Builder::InsertionGuard g2(b_);
        b_.SetInsertionPoint(guard->region(0));
        b_.Yield({b_.ConstBool(false)});
        b_.SetInsertionPoint(guard->region(1));
        b_.Yield({ToBool(Expr(s.cond.get()))});
      }
      go = guard->result(0);
    } else {
      go = ToBool(Expr(s.cond.get()));
    }
    std::vector<ir::Value*> fwd;
    for (auto& a : before->args()) fwd.push_back(a.get());
    b_.Condition(go, fwd);
  }
  {
    ir::Builder::InsertionGuard g(b_);
    b_.SetInsertionPoint(after);
    env_ = saved;
    for (size_t k = 0; k < c.keys.size(); ++k) env_[c.keys[k]].value = after->arg(int(k));
    loops_.push_back(&ctx);
    if (ctx.has_continue) env_[&ctx.cont].value = b_.ConstBool(false);
    LowerBody(s.body);
    loops_.pop_back();
    std::vector<ir::Value*> ys;
    for (const void* k : c.keys) ys.push_back(RegionExitValue(k));
    b_.Yield(ys);
    inside = env_;
  }
  env_ = saved;
  for (size_t k = 0; k < c.keys.size(); ++k) env_[c.keys[k]].value = op->result(int(k));
  StaleViews(keys, inside);
  env_.erase(&ctx.brk);
  env_.erase(&ctx.cont);
}

void Lowerer::LowerStmt(const ast::Stmt& s) {
  b_.set_loc(LocOf(s.range));
  switch (s.kind) {
    case ast::StmtKind::ExprStmt: {
      const ast::Expr* e = s.As<ast::ExprStmt>()->value.get();
      if (e->Is<ast::StrLit>() || sema::IsEllipsis(e)) return;  // a docstring, or a stub's `...`
      Expr(e);
      return;
    }
    case ast::StmtKind::Assign: {
      const auto& a = *s.As<ast::Assign>();
      Binding v;
      const sema::Type* vt = cm_.TypeOf(a.value.get());
      if (vt && vt->kind == sema::TypeKind::Tuple) v.tuple = Tuple(a.value.get());
      else v.value = Expr(a.value.get());
      for (const ast::ExprPtr& t : a.targets) LowerAssign(t.get(), a.value.get(), v);
      return;
    }
    case ast::StmtKind::AnnAssign: {
      const auto& a = *s.As<ast::AnnAssign>();
      if (!a.value) return;
      Binding v;
      v.value = Expr(a.value.get());
      LowerAssign(a.target.get(), a.value.get(), v);
      return;
    }
    case ast::StmtKind::AugAssign: {
      const auto& a = *s.As<ast::AugAssign>();
      // A view target (`t[0] += row`) is read as the view: its node also keys the operator's
      // call, which Expr would lower instead.
      const auto* sub = a.target->As<ast::Subscript>();
      const sema::TileAccess* acc = sub ? cm_.Access(a.target.get()) : nullptr;
      const sema::Type* base = sub ? cm_.TypeOf(sub->value.get()) : nullptr;
      using BO = ast::BinaryOp;
      const bool bitwise = a.op == BO::BitAnd || a.op == BO::BitOr || a.op == BO::BitXor;
      const bool per_lane = base && base->IsTile() && !acc && (a.op == BO::Add || a.op == BO::Sub || bitwise);
      if (auto it = cm_.aug_call.find(&a); it != cm_.aug_call.end() && !per_lane) {
        Binding nb;
        nb.value = CompositeValue(a.target.get(), it->second);
        LowerAssign(a.target.get(), nullptr, nb);
        return;
      }
      if (per_lane) {
        // t[i] op= v on one element is Warp's atomic per lane: every lane applies it. Sums
        // scatter-add every lane's value; the bitwise ops are applied lane by lane in order.
        ir::Value* t = Expr(sub->value.get());
        ir::Value* v = Convert(Expr(a.value.get()), t->type().ElemValueType());
        std::vector<ir::Value*> idx = ElementIndices(sub->value.get(), sub->index.get());
        if (!bitwise && v->type().is_struct() && !m_.structs()[size_t(v->type().elem.struct_index)].composite.valid()) {
          WriteTile(sub->value.get(), LaneSerialUpdate(a.op == BO::Sub ? OpCode::Sub : OpCode::Add, t, v, idx));
          return;
        }
        if (!bitwise) {
          if (a.op == BO::Sub) v = v->type().is_struct() ? CompositeOfValues(sema::CompositeOp::Neg, {v}, v->type())
                                                         : b_.Unary(OpCode::Neg, v);
          WriteTile(sub->value.get(), b_.TileScatterLanes(t, v, b_.ConstBool(true), idx, true));
          return;
        }
        WriteTile(sub->value.get(), LaneSerialUpdate(a.op == BO::BitAnd ? OpCode::BitAnd
                                                     : a.op == BO::BitOr ? OpCode::BitOr
                                                                         : OpCode::BitXor,
                                                     t, v, idx));
        return;
      }
      ir::Value* cur = acc ? TileAccessValue(*sub, *acc) : Expr(a.target.get());
      ir::Value* rhs = Expr(a.value.get());
      static const OpCode kOps[] = {OpCode::Add, OpCode::Sub, OpCode::Mul, OpCode::Div, OpCode::FloorDiv,
                                    OpCode::Mod, OpCode::Pow, OpCode::Mul, OpCode::BitAnd, OpCode::BitOr,
                                    OpCode::BitXor, OpCode::Shl, OpCode::Shr};
      ir::Value* r;
      if (cur->type().is_tile()) {
        r = TileBinaryOp(kOps[int(a.op)], cur, rhs);
      } else {
        rhs = Convert(rhs, cur->type());
        r = b_.Binary(kOps[int(a.op)], cur, rhs);
      }
      if (r->type().is_tile()) {
        WriteTile(a.target.get(), r);  // in place, as Warp's tile `+=`: views see it
        return;
      }
      Binding v;
      v.value = r;
      LowerAssign(a.target.get(), nullptr, v);
      return;
    }
    case ast::StmtKind::If: {
      const auto& i = *s.As<ast::If>();
      ir::Value* c = ToBool(Expr(i.cond.get()));
      LowerIf(c, [&] { LowerBody(i.body); }, [&] { LowerBody(i.orelse); });
      return;
    }
    case ast::StmtKind::For: LowerFor(*s.As<ast::For>()); return;
    case ast::StmtKind::While: LowerWhile(*s.As<ast::While>()); return;
    case ast::StmtKind::Break:
      if (!loops_.empty()) env_[&loops_.back()->brk].value = b_.ConstBool(true);
      return;
    case ast::StmtKind::Continue:
      if (!loops_.empty()) env_[&loops_.back()->cont].value = b_.ConstBool(true);
      return;
    case ast::StmtKind::Return: {
      if (funcs_.empty()) return;
      FuncCtx* f = funcs_.back();
      const ast::Expr* v = s.As<ast::Return>()->value.get();
      if (v && f->return_type && f->return_type->kind == sema::TypeKind::Tuple) {
        std::vector<ir::Value*> parts = Tuple(v);
        for (size_t k = 0; k < parts.size() && k < f->tuple_keys.size(); ++k)
          env_[&f->tuple_keys[k]].value = Convert(parts[k], IrType(f->return_type->elems[k]));
      } else if (v && f->return_type && f->return_type->kind != sema::TypeKind::Void) {
        env_[&f->retval].value = ExprAs(v, f->return_type);
      }
      if (f->has_return_flag) env_[&f->ret].value = b_.ConstBool(true);
      return;
    }
    case ast::StmtKind::Pass: return;
    case ast::StmtKind::Assert:
      // Kept for debug mode; the pipeline drops it from the other variants.
      b_.Assert(ToBool(Expr(s.As<ast::Assert>()->test.get())));
      return;
    // The checker rejects these in kernels (E0117); lowering never sees them in a checked body.
    case ast::StmtKind::FunctionDef: case ast::StmtKind::ClassDef: case ast::StmtKind::Import:
    case ast::StmtKind::ImportFrom: case ast::StmtKind::With:
    case ast::StmtKind::Try: case ast::StmtKind::Raise: case ast::StmtKind::Delete:
    case ast::StmtKind::Global:
      Unsupported(s.range, "this statement");
      return;
  }
}

void Lowerer::LowerAssign(const ast::Expr* target, const ast::Expr* value_expr, Binding v) {
  if (const auto* n = target->As<ast::Name>()) {
    const sema::LocalSymbol* sym = cm_.Symbol(n);
    if (!sym) return;
    if (v.value && sym->type && (sym->type->IsScalar() || sym->type->kind == sema::TypeKind::Struct))
      v.value = Convert(v.value, IrType(sym->type));
    // Rebinding a tile variable leaves the views of it aliasing the old tile, which no value
    // here holds any more: they become stale.
    for (auto& [k, b] : env_) {
      for (std::shared_ptr<const ViewAlias> w = b.view; w;) {
        if (w->base == sym) {
          b = Binding{};
          b.stale = true;
          break;
        }
        auto it = env_.find(w->base);
        w = it == env_.end() ? nullptr : it->second.view;
      }
    }
    if (sym->type && sym->type->IsTileStack()) stack_keys_.insert(sym);
    if (BindView(sym, value_expr)) return;
    env_[sym] = v;
    return;
  }
  if (const auto* tup = target->As<ast::Tuple>()) {
    for (size_t k = 0; k < tup->elts.size() && k < v.tuple.size(); ++k) {
      Binding e;
      e.value = v.tuple[k];
      LowerAssign(tup->elts[k].get(), nullptr, e);
    }
    return;
  }
  if (const auto* sub = target->As<ast::Subscript>()) {
    const sema::Type* bt = cm_.TypeOf(sub->value.get());
    if (bt && bt->IsTile()) {
      // t[i, j] = v: the element; t[view] = src: the region (a scalar fills it).
      ir::Value* t = Expr(sub->value.get());
      if (!cm_.Access(target)) {
        ir::Value* e = Convert(v.value, t->type().ElemValueType());
        std::vector<ir::Value*> idx = ElementIndices(sub->value.get(), sub->index.get());
        // As on Warp's GPU, every lane writes its own element: where the index or the value
        // differs between lanes (Warp's padding loops: `t[row, col] = value` per lane) that is
        // a scatter of the lanes' writes, the highest lane's staying where they meet.
        auto uniform = [&](const ast::Expr* e) {
          const sema::ExprInfo* info = e ? cm_.Info(e) : nullptr;
          return info && info->uniform;
        };
        bool varying = !uniform(value_expr);
        if (const auto* tup = sub->index->As<ast::Tuple>())
          for (const auto& el : tup->elts) varying = varying || !uniform(el.get());
        else
          varying = varying || !uniform(sub->index.get());
        WriteTile(sub->value.get(), varying ? b_.TileScatterLanes(t, e, b_.ConstBool(true), idx, false)
                                            : b_.TileInsert(t, e, idx));
        return;
      }
      ir::Value* src = v.value;
      const sema::Type* vt = cm_.TypeOf(target);
      if (!src->type().is_tile()) src = b_.TileFull(Convert(src, t->type().ElemValueType()), vt->shape);
      WriteTile(target, src);
      return;
    }
    if (const sema::CallInfo* ci = cm_.Call(target); ci && ci->kind == sema::CallInfo::Kind::Composite) {
      // v[i] = s, m[i, j] = s, m[i] = row: a new value, stored back where v came from.
      Binding nb;
      nb.value = CompositeWithPart(*ci, Expr(sub->value.get()), v.value);
      LowerAssign(sub->value.get(), nullptr, nb);
      return;
    }
    ir::Value* arr = ArrayOf(sub->value.get());
    if (!arr) return;
    std::vector<ir::Value*> idx = IndexList(sub->index.get());
    b_.ArrayStore(arr, idx, Convert(v.value, arr->type().ElemValueType()));
    return;
  }
  if (const auto* attr = target->As<ast::Attribute>()) {
    // p.x = v: a new struct value, stored back where p came from.
    if (const sema::CallInfo* ci = cm_.Call(target); ci && ci->kind == sema::CallInfo::Kind::Composite) {
      Binding nb;
      nb.value = CompositeWithPart(*ci, Expr(attr->value.get()), v.value);
      LowerAssign(attr->value.get(), nullptr, nb);
      return;
    }
    ir::Value* base = Expr(attr->value.get());
    if (!base || !base->type().is_struct()) return Unsupported(target->range, "this assignment target");
    const ir::StructDef& sd = m_.structs()[base->type().elem.struct_index];
    int field = -1;
    for (size_t k = 0; k < sd.fields.size(); ++k)
      if (sd.fields[k].name == attr->attr) field = int(k);
    if (field < 0) return;
    ir::Value* updated = b_.FieldSet(base, field, Convert(v.value, ir::Type::Elem(sd.fields[field].type)));
    Binding nb;
    nb.value = updated;
    LowerAssign(attr->value.get(), nullptr, nb);
    return;
  }
  Unsupported(target->range, "this assignment target");
}

// `t[idx] op= v` from every lane of the block, applied one lane after another (lane 0 first):
// each lane's value and index are gathered into tiles of the block's lanes, and a loop over
// the lanes updates the element each names. A lane that takes no part (past a hybrid launch's
// threads) leaves the operation's identity at element 0, which changes nothing.
ir::Value* Lowerer::LaneSerialUpdate(OpCode op, ir::Value* t, ir::Value* v, const std::vector<ir::Value*>& idx) {
  const int64_t lanes = cm_.block_dim;
  const ir::Type vt = v->type();
  ir::Value* lane = b_.LaneId();
  ir::Value* all = b_.ConstBool(true);
  // A struct's zero is the identity of its field-wise + and -; a vector's or matrix's, with
  // every bit set for &, of the bitwise ops.
  const bool composite = vt.is_struct() && m_.structs()[size_t(vt.elem.struct_index)].composite.valid();
  ir::Value* zero = vt.is_struct() ? b_.ZeroOf(vt) : b_.ConstInt(vt.elem.scalar, 0);
  ir::Value* identity = op != OpCode::BitAnd ? zero
                        : composite          ? CompositeOfValues(sema::CompositeOp::BitNot, {zero}, vt)
                                             : b_.Unary(OpCode::BitNot, zero);
  ir::Value* vals = b_.TileScatterLanes(b_.TileFull(identity, {lanes}), v, all, {lane}, false);
  std::vector<ir::Value*> where;
  for (ir::Value* i : idx)
    where.push_back(b_.TileScatterLanes(b_.TileFull(b_.ConstInt(ScalarType::Int32, 0), {lanes}),
                                        Convert(i, ir::Type::Scalar(ScalarType::Int32)), all, {lane}, false));
  ir::Op* loop = b_.For(b_.ConstInt(ScalarType::Int32, 0), b_.ConstInt(ScalarType::Int32, lanes),
                        b_.ConstInt(ScalarType::Int32, 1), {t});
  {
    ir::Builder::InsertionGuard g(b_);
    ir::Block* body = loop->region(0);
    b_.SetInsertionPoint(body);
    ir::Value* k = body->arg(0);
    ir::Value* cur = body->arg(1);
    std::vector<ir::Value*> at;
    for (ir::Value* w : where) at.push_back(b_.TileExtract(w, {k}));
    ir::Value* old_value = b_.TileExtract(cur, at);
    ir::Value* lane_value = b_.TileExtract(vals, {k});
    ir::Value* x = !vt.is_struct() ? b_.Binary(op, old_value, lane_value)
                   : composite     ? CompositeOfValues(ComponentwiseOp(op), {old_value, lane_value}, vt)
                                   : FieldwiseStruct(*this, op, old_value, lane_value);
    b_.Yield({b_.TileInsert(cur, x, at)});
  }
  return loop->result(0);
}

}  // namespace tilec::lower
