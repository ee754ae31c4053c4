// Function bodies: locals with Python re-binding (a variable keeps one type), constant locals
// (assigned once from a constant), control flow, returns of @wp.func, and the uniformity
// analysis: a condition that may differ between threads makes its region "varying", and a
// tile operation inside a varying region is rejected. Loops are walked once, in order, so a
// variable that becomes varying later in a loop body is seen as varying only from there on.
#include "frontend/ast/clone.h"
#include "frontend/sema/checker.h"

namespace tilec::sema {

using diag::Code;

void Checker::CountTarget(const ast::Expr* target) {
  if (const auto* n = target->As<ast::Name>()) assignments_[n->id].push_back(n->range);
  if (const auto* t = target->As<ast::Tuple>())
    for (const ast::ExprPtr& e : t->elts) CountTarget(e.get());
}

void Checker::CountAssignments(const ast::Body& body) {
  for (const ast::StmtPtr& sp : body) {
    const ast::Stmt& s = *sp;
    if (const auto* a = s.As<ast::Assign>()) {
      for (const ast::ExprPtr& t : a->targets) CountTarget(t.get());
    } else if (const auto* a = s.As<ast::AugAssign>()) {
      CountTarget(a->target.get());
    } else if (const auto* a = s.As<ast::AnnAssign>()) {
      if (a->value) CountTarget(a->target.get());
    } else if (const auto* f = s.As<ast::For>()) {
      CountTarget(f->target.get());
      CountTarget(f->target.get());  // a loop variable takes many values: never a constant
      CountAssignments(f->body);
    } else if (const auto* w = s.As<ast::While>()) {
      CountAssignments(w->body);
    } else if (const auto* i = s.As<ast::If>()) {
      CountAssignments(i->body);
      CountAssignments(i->orelse);
    }
  }
}

LocalSymbol* Checker::NewLocal(const std::string& name, SymbolKind kind, const Type* type, SourceRange range) {
  fn_->locals.push_back(std::make_unique<LocalSymbol>());
  LocalSymbol* s = fn_->locals.back().get();
  s->name = name;
  s->kind = kind;
  s->type = type;
  s->decl_range = range;
  s->index = int(fn_->locals.size()) - 1;
  s->decl_body = body_id_;
  locals_[name] = s;
  return s;
}

void Checker::CheckFunction(FunctionInfo& fn) {
  // Save the caller's state: a kernel body can trigger the check of a func it calls.
  FunctionInfo* saved_fn = fn_;
  auto saved_locals = std::move(locals_);
  auto saved_assign = std::move(assignments_);
  auto saved_conds = std::move(varying_conds_);
  auto saved_returns = std::move(returns_);
  auto saved_loops = std::move(loop_uniformity_);
  const ast::Stmt* saved_vret = varying_return_;
  const ast::Expr* saved_vret_cond = varying_return_cond_;
  loop_uniformity_.clear();
  varying_return_ = nullptr;
  varying_return_cond_ = nullptr;
  const auto* saved_snapshot = snapshot_;
  int saved_depth = loop_depth_, saved_body_depth = body_depth_;
  auto saved_unroll = std::move(unroll_scopes_);
  unroll_scopes_.clear();
  body_depth_ = 0;
  locals_.clear();
  assignments_.clear();
  varying_conds_.clear();
  returns_.clear();
  loop_depth_ = 0;

  fn_ = &fn;
  int func_index = -1;
  if (fn.is_kernel) {
    snapshot_ = &snapshots_[kernel_snapshot_[&fn - out_.kernels.data()]];
  } else {
    for (size_t k = 0; k < out_.funcs.size() && func_index < 0; ++k)
      if (&out_.funcs[k] == &fn) func_index = int(k);
    func_state_[func_index] = 1;
    snapshot_ = &snapshots_[func_snapshot_[func_index]];
  }
  for (int k = 0; k < fn.num_params; ++k) {
    LocalSymbol* p = fn.locals[k].get();
    locals_[p->name] = p;
    local_prov_[p] = Provenance{"`" + p->name + "` is " + (fn.is_kernel ? "a kernel" : "a function") +
                                    " parameter declared at line " + std::to_string(Line(p->decl_range)),
                                p->decl_range, true};
  }
  CountAssignments(fn.def->body);
  CheckBody(fn.def->body);

  if (!fn.is_kernel) {
    const Type* declared = fn.def->returns ? fn.return_type : nullptr;
    const Type* inferred = nullptr;
    bool bare = false;
    for (auto& [t, r] : returns_) {
      if (!t) { bare = true; continue; }
      if (t->IsError()) continue;
      if (declared) {
        continue;  // checked at the return statement
      } else if (!inferred) {
        inferred = t;
      } else if (inferred != t) {
        Error(Code::BadReturn, r, "`" + fn.name + "` returns `" + TypeName(inferred) + "` elsewhere but `" +
                                      TypeName(t) + "` here");
      }
    }
    if (inferred && bare)
      Error(Code::BadReturn, fn.def->name_range, "`" + fn.name + "` returns a value on some paths and nothing on others");
    if (!declared) fn.return_type = inferred ? inferred : types_.Void();
    func_state_[func_index] = 2;
  }
  // Index-tile promotion changes a variable's storage: every use of it sees shared storage.
  for (auto& [expr, sym] : out_.symbols) {
    if (!sym->promoted_to_shared) continue;
    auto it = out_.expr_info.find(expr);
    if (it != out_.expr_info.end() && it->second.type) it->second.type = types_.WithStorage(it->second.type, Storage::Shared);
  }

  fn_ = saved_fn;
  locals_ = std::move(saved_locals);
  assignments_ = std::move(saved_assign);
  varying_conds_ = std::move(saved_conds);
  loop_uniformity_ = std::move(saved_loops);
  varying_return_ = saved_vret;
  varying_return_cond_ = saved_vret_cond;
  returns_ = std::move(saved_returns);
  snapshot_ = saved_snapshot;
  loop_depth_ = saved_depth;
  body_depth_ = saved_body_depth;
  unroll_scopes_ = std::move(saved_unroll);
}

void Checker::CheckBody(const ast::Body& body) {
  ++body_depth_;
  const int saved_body = body_id_;
  body_id_ = ++next_body_id_;
  for (const ast::StmtPtr& s : body) CheckStmt(*s);
  body_id_ = saved_body;
  --body_depth_;
}

void Checker::CheckStmt(const ast::Stmt& s) {
  switch (s.kind) {
    case ast::StmtKind::ExprStmt: {
      const ast::Expr* v = s.As<ast::ExprStmt>()->value.get();
      if (v->Is<ast::StrLit>() || IsEllipsis(v)) break;  // a docstring, or a stub's `...`
      CheckExpr(v);
      break;
    }
    case ast::StmtKind::Assign: CheckAssign(*s.As<ast::Assign>()); break;
    case ast::StmtKind::AugAssign: CheckAugAssign(*s.As<ast::AugAssign>()); break;
    case ast::StmtKind::AnnAssign: {
      const auto& a = *s.As<ast::AnnAssign>();
      const Type* t = ResolveAnnotation(a.annotation.get(), false);
      if (!a.value) {
        Error(Code::UnsupportedStatement, s.range, "a variable declaration in a kernel needs a value");
        break;
      }
      ExprInfo v = CheckExpr(a.value.get());
      if (!t->IsError() && !v.type->IsError() && !Convert(a.value.get(), v, t)) {
        Error(Code::VariableTypeChanged, a.value->range,
              "`" + Text(a.target.get()) + "` is declared `" + TypeName(t) + "` but assigned a `" + TypeName(v.type) + "`");
        v = Poison();
      }
      AssignTarget(a.target.get(), a.value.get(), v);
      break;
    }
    case ast::StmtKind::If: {
      const auto& i = *s.As<ast::If>();
      ExprInfo c = CheckExpr(i.cond.get());
      if (!c.type->IsError() && !IsCondition(c.type))
        Error(Code::InvalidCondition, i.cond->range, "an `if` condition must be a scalar or an array, found `" + TypeName(c.type) + "`");
      bool varying = !c.uniform;
      if (varying) varying_conds_.push_back(i.cond.get());
      CheckBody(i.body);
      CheckBody(i.orelse);
      if (varying) varying_conds_.pop_back();
      break;
    }
    case ast::StmtKind::While: {
      const auto& w = *s.As<ast::While>();
      ExprInfo c = CheckExpr(w.cond.get());
      if (!c.type->IsError() && !IsCondition(c.type))
        Error(Code::InvalidCondition, w.cond->range, "a `while` condition must be a scalar or an array, found `" + TypeName(c.type) + "`");
      bool varying = !c.uniform;
      if (varying) varying_conds_.push_back(w.cond.get());
      ++loop_depth_;
      BeginLoopUniformity();
      CheckBody(w.body);
      EndLoopUniformity();
      --loop_depth_;
      if (varying) varying_conds_.pop_back();
      break;
    }
    case ast::StmtKind::For: CheckFor(*s.As<ast::For>()); break;
    case ast::StmtKind::Break:
    case ast::StmtKind::Continue:
      if (loop_depth_ == 0)
        Error(Code::UnsupportedStatement, s.range,
              std::string("`") + (s.Is<ast::Break>() ? "break" : "continue") + "` outside a loop");
      NoteVaryingExit(s);
      break;
    case ast::StmtKind::Pass: break;
    case ast::StmtKind::Return: {
      const auto& r = *s.As<ast::Return>();
      NoteVaryingExit(s);
      if (fn_->is_kernel) {
        if (r.value) Error(Code::BadReturn, r.value->range, "kernels cannot return a value; write results to an array");
        break;
      }
      if (!r.value) {
        returns_.push_back({nullptr, s.range});
        break;
      }
      ExprInfo v = CheckExpr(r.value.get());
      if (fn_->def->returns && !v.type->IsError() && !fn_->return_type->IsError() &&
          !Convert(r.value.get(), v, fn_->return_type)) {
        Error(Code::BadReturn, r.value->range,
              "`" + fn_->name + "` is declared to return `" + TypeName(fn_->return_type) + "` but returns `" +
                  TypeName(v.type) + "`");
      }
      if (!v.type->IsError() && v.type->kind != TypeKind::Scalar && v.type->kind != TypeKind::Struct &&
          !v.type->IsTile() && v.type->kind != TypeKind::Tuple) {
        Error(Code::BadReturn, r.value->range, "a `@wp.func` cannot return a `" + TypeName(v.type) + "`");
        v = Poison();
      } else if (RejectArrayStruct(v.type, r.value->range, "returned from a func")) {
        v = Poison();
      }
      if (v.type->IsScalar() && v.weak && !fn_->def->returns) {
        // A returned literal takes its default width.
        v.weak = false;
      }
      returns_.push_back({v.type, r.value->range});
      break;
    }
    case ast::StmtKind::Assert: {
      // Checked here everywhere; it runs only in debug mode, as Warp compiles it out otherwise.
      const auto& a = *s.As<ast::Assert>();
      ExprInfo t = CheckExpr(a.test.get());
      if (!t.type->IsError() && !t.type->IsScalar())
        Error(Code::OperandTypeMismatch, a.test->range,
              "an `assert` condition must be a scalar, found `" + TypeName(t.type) + "`");
      if (a.msg) {
        ExprInfo m = CheckExpr(a.msg.get());
        if (!m.type->IsError() && m.type->kind != TypeKind::String)
          Error(Code::OperandTypeMismatch, a.msg->range,
                "an `assert` message must be a string, found `" + TypeName(m.type) + "`");
      }
      break;
    }
    default: {
      const char* what = "this statement";
      switch (s.kind) {
        case ast::StmtKind::FunctionDef: what = "nested function definitions"; break;
        case ast::StmtKind::ClassDef: what = "class definitions"; break;
        case ast::StmtKind::Import: case ast::StmtKind::ImportFrom: what = "imports"; break;
        case ast::StmtKind::With: what = "`with` statements"; break;
        default: break;
      }
      Error(Code::UnsupportedStatement, s.range,
            std::string(what) + " are not supported in " + (fn_->is_kernel ? "kernels" : "`@wp.func` functions"));
      break;
    }
  }
}

void Checker::CheckAssign(const ast::Assign& s) {
  // `i, j = wp.tid()`: tid's result shape follows the unpacking.
  tid_call_ = nullptr;
  tid_unpack_ = 0;
  if (const auto* c = s.value->As<ast::Call>()) {
    for (const ast::ExprPtr& t : s.targets)
      if (const auto* tup = t->As<ast::Tuple>()) {
        tid_call_ = c;
        tid_unpack_ = int(tup->elts.size());
      }
  }
  ExprInfo v = CheckExpr(s.value.get());
  tid_call_ = nullptr;
  for (const ast::ExprPtr& t : s.targets) AssignTarget(t.get(), s.value.get(), v);
}

void Checker::AssignTarget(const ast::Expr* target, const ast::Expr* value, ExprInfo info) {
  if (const auto* n = target->As<ast::Name>()) {
    BindName(*n, value, info);
    return;
  }
  if (const auto* tup = target->As<ast::Tuple>()) {
    if (info.type->IsError()) {
      for (const ast::ExprPtr& e : tup->elts) AssignTarget(e.get(), nullptr, info);
      return;
    }
    if (info.type->kind != TypeKind::Tuple || info.type->elems.size() != tup->elts.size()) {
      Error(Code::UnpackMismatch, value ? value->range : target->range,
            "cannot unpack `" + TypeName(info.type) + "` into " + std::to_string(tup->elts.size()) + " targets");
      for (const ast::ExprPtr& e : tup->elts) AssignTarget(e.get(), nullptr, Poison());
      return;
    }
    const auto* vt = value ? value->As<ast::Tuple>() : nullptr;
    // `block, lane = wp.tid()` in a kernel with tile operations: one name more than the launch
    // has dimensions is the lane, and the launch's rank is known only when it runs, so the
    // last of several names may differ between the lanes of a block.
    bool tid_lane = value && IsTidCall(value) && tup->elts.size() > 1;
    for (size_t k = 0; k < tup->elts.size(); ++k) {
      ExprInfo ei;
      const ast::Expr* ve = vt ? vt->elts[k].get() : nullptr;
      if (ve) {
        ei = out_.expr_info[ve];
      } else {
        ei.type = info.type->elems[k];
        ei.uniform = info.uniform && !(tid_lane && k + 1 == tup->elts.size());
        ei.provenance = info.provenance;
        if (info.value) ei.value = info.value->elems[k], ei.weak = info.weak;
      }
      AssignTarget(tup->elts[k].get(), ve ? ve : value, ei);
    }
    ExprInfo ti;
    ti.type = info.type;
    Record(target, ti);
    return;
  }
  if (target->Is<ast::Subscript>() || target->Is<ast::Attribute>()) {
    const ast::Expr* base = target->Is<ast::Subscript>() ? target->As<ast::Subscript>()->value.get()
                                                          : target->As<ast::Attribute>()->value.get();
    ExprInfo bi = CheckExpr(base);
    if (bi.type->IsError()) return;
    if (bi.type->IsTile() && target->Is<ast::Subscript>()) {
      // t[i, j] = v writes an element, t[view] = src a region (src a tile of its shape, or a
      // scalar for every element); either updates the tile variable in place.
      if (!InPlaceRoot(base)) {
        Error(Code::InPlaceTargetNotVariable, base->range,
              "`" + Text(target) + "` updates its tile in place, so `" + Text(base) +
                  "` must be a tile variable or a view of one");
        return;
      }
      ExprInfo slot = CheckExpr(target);
      if (slot.type->IsError() || info.type->IsError()) return;
      const TileAccess* acc = out_.Access(target);
      if (acc && acc->kind == TileAccess::Kind::Gather) {
        Error(Code::InvalidAssignTarget, target->range,
              "cannot assign through an index tile (`" + Text(target) + "`): the gather is a copy; assign through a view such as `t[a:b]` instead");
        return;
      }
      if (slot.type->IsTile()) {
        bool fits = info.type->IsTile() ? info.type->shape == slot.type->shape && !info.type->elem.is_struct() &&
                                              !slot.type->elem.is_struct()
                                        : Convert(value, info, types_.FromElem(slot.type->elem));
        if (!fits)
          Error(Code::OperandTypeMismatch, value ? value->range : target->range,
                "shape mismatch: cannot assign a `" + TypeName(info.type) + "` to `" + Text(target) + "` of type `" +
                    TypeName(slot.type) + "` (a tile of its shape or a scalar)");
        return;
      }
      if (!Convert(value, info, slot.type))
        Error(Code::OperandTypeMismatch, value ? value->range : target->range,
              "cannot store a `" + TypeName(info.type) + "` into `" + Text(target) + "` of type `" +
                  TypeName(slot.type) + "`");
      return;
    }
    bool ok = target->Is<ast::Subscript>() ? bi.type->IsArray() || CompositeOf(bi.type)
                                           : bi.type->kind == TypeKind::Struct;
    if (ok && CompositeOf(bi.type) && !base->Is<ast::Name>() && !base->Is<ast::Attribute>() &&
        !base->Is<ast::Subscript>())
      ok = false;
    if (!ok) {
      Error(Code::InvalidAssignTarget, target->range, "cannot assign to `" + Text(target) + "`");
      return;
    }
    ExprInfo slot = CheckExpr(target);
    if (slot.type->IsError() || info.type->IsError()) return;
    if (target->Is<ast::Attribute>() && slot.type->IsArray()) {
      Error(Code::ArrayStructMisuse, target->range,
            "cannot assign to array field `" + Text(target) + "`: a struct's arrays are set on the host");
      return;
    }
    if (!Convert(value, info, slot.type)) {
      Error(Code::OperandTypeMismatch, value ? value->range : target->range,
            "cannot store a `" + TypeName(info.type) + "` into `" + Text(target) + "` of type `" +
                TypeName(slot.type) + "`");
    }
    // A field or component written with a lane-varying value makes the whole local vary.
    const ast::Expr* root = base;
    while (const auto* a = root->As<ast::Attribute>()) root = a->value.get();
    while (const auto* sb = root->As<ast::Subscript>()) root = sb->value.get();
    if (const auto* rn = root->As<ast::Name>(); rn && (!info.uniform || InVaryingRegion()))
      if (auto it = locals_.find(rn->id); it != locals_.end() && it->second->uniform && it->second->type &&
                                          !it->second->type->IsArray()) {
        it->second->uniform = false;
        if (auto why = VaryingOrigin(value)) varying_why_[it->second] = *why;
        else if (InVaryingRegion())
          varying_why_[it->second] = Provenance{"`" + rn->id + "` is written under `" + Text(varying_conds_.back()) +
                                                    "`, which may differ between threads",
                                                target->range, true};
      }
    return;
  }
  Error(Code::InvalidAssignTarget, target->range, "cannot assign to `" + Text(target) + "`");
}

LocalSymbol* Checker::InPlaceRoot(const ast::Expr* e) {
  while (const auto* sub = e->As<ast::Subscript>()) {
    const TileAccess* acc = out_.Access(sub);
    if (!acc || acc->kind != TileAccess::Kind::View) return nullptr;
    e = sub->value.get();
  }
  const auto* n = e->As<ast::Name>();
  auto it = n ? locals_.find(n->id) : locals_.end();
  if (it == locals_.end() || !it->second->type || !it->second->type->IsTile()) return nullptr;
  ++it->second->assignment_count;
  it->second->constant.reset();
  return it->second;
}

void Checker::BindName(const ast::Name& n, const ast::Expr* value, ExprInfo info) {
  auto existing = locals_.find(n.id);
  if (existing == locals_.end()) {
    const ModuleEntry* e = LookupModule(n.id);
    if (e && e->kind == ModuleEntry::Kind::Constant && options_.shadowable_constants.count(n.id)) {
      // A global the host captured: as in Warp, the assignment makes a local that hides it.
    } else if (e && e->kind == ModuleEntry::Kind::Constant) {
      auto b = Error(Code::AssignToModuleConstant, n.range,
                     "cannot assign to module constant `" + n.id + "` inside a " +
                         (fn_->is_kernel ? "kernel" : "function") + "; module constants are read-only here");
      if (e->range.end > e->range.begin) b.AddNote(file(), e->range, "`" + n.id + "` is defined here");
      return;
    } else if (e && e->kind != ModuleEntry::Kind::Host) {
      Error(Code::InvalidAssignTarget, n.range, "cannot assign to `" + n.id + "`: it names a module-level definition");
      return;
    }
  }
  const Type* t = info.type;
  if (!t->IsError()) {
    bool storable = t->IsScalar() || t->kind == TypeKind::Struct || t->IsArray() || t->IsTile() ||
                    t->IsTileStack() || t->kind == TypeKind::Tuple ||
                    ((t->kind == TypeKind::String || t->kind == TypeKind::TypeRef) && info.value);
    if (!storable) {
      Error(Code::InvalidAssignTarget, value ? value->range : n.range,
            t->kind == TypeKind::Void ? "`" + Text(value) + "` returns no value"
                                      : "a variable cannot hold a `" + TypeName(t) + "`");
      info = Poison();
      t = info.type;
    } else if (RejectArrayStruct(t, value ? value->range : n.range, "held in a variable")) {
      info = Poison();
      t = info.type;
    }
  }
  LocalSymbol* sym;
  if (existing == locals_.end()) {
    sym = NewLocal(n.id, SymbolKind::Local, t, n.range);
  } else if (!t->IsError() && !existing->second->type->IsError() && t != existing->second->type &&
             (MayRedeclare(*existing->second) || MayRebindTile(*existing->second, t)) &&
             !Convert(value, info, existing->second->type)) {
    sym = NewLocal(n.id, SymbolKind::Local, t, n.range);
  } else {
    sym = existing->second;
    if (sym->type->IsError()) {
      sym->type = t;
    } else if (!t->IsError()) {
      if (sym->type->IsTile() && t->IsTile() && sym->type->elem == t->elem && sym->type->shape == t->shape) {
        if (t->storage == Storage::Shared) sym->type = t;  // shared wins
      } else if (!Convert(value, info, sym->type)) {
        const bool tiles = sym->type->IsTile() && t->IsTile() && sym->type->elem == t->elem;
        auto b = Error(Code::VariableTypeChanged, value ? value->range : n.range,
                       "`" + n.id + "` has type `" + TypeName(sym->type) + "` and cannot be assigned a `" +
                           TypeName(t) + "`" +
                           (tiles ? " here: a tile variable takes another shape only in the body that first "
                                    "assigns it, not across a loop or branch (use a new name)"
                                  : "; a variable's type cannot change in a kernel"));
        b.AddNote(file(), sym->decl_range, "`" + n.id + "` is first assigned here");
      }
    }
  }
  ++sym->assignment_count;
  bool was_uniform = sym->uniform;
  sym->uniform = sym->uniform && info.uniform && !InVaryingRegion();
  if (was_uniform && !sym->uniform) {
    std::string line = std::to_string(Line(n.range));
    if (!info.uniform && value && IsTidCall(value))
      varying_why_[sym] = Provenance{options_.hybrid_launch
                                         ? "`" + n.id + "` comes from `wp.tid()` (line " + line +
                                               "): in a launch with `block_dim` it is each thread's own index"
                                         : "`" + n.id + "` comes from `wp.tid()` (line " + line +
                                               "): the name after the block's coordinates is the lane",
                                     n.range, true};
    else if (!info.uniform && VaryingOrigin(value))
      varying_why_[sym] = *VaryingOrigin(value);
    else if (InVaryingRegion())
      varying_why_[sym] = Provenance{"`" + n.id + "` is assigned under `" + Text(varying_conds_.back()) + "` (line " +
                                         std::to_string(Line(varying_conds_.back()->range)) +
                                         "), which may differ between threads",
                                     n.range, true};
  }
  NoteLaneFact(sym, n, value, info);
  const std::vector<SourceRange>& all = assignments_[n.id];
  // A vector or matrix local stays a runtime value: its components may be assigned later.
  if (sym->kind == SymbolKind::Local && all.size() == 1 && info.value &&
      info.value->kind != ConstValue::Kind::Composite) {
    sym->constant = info.value;
    local_weak_[sym] = info.weak;
  } else {
    sym->constant.reset();
    if (all.size() > 1 || sym->kind != SymbolKind::Local) {
      std::string lines;
      for (size_t k = 0; k < all.size() && k < 4; ++k) lines += (k ? ", " : "") + std::to_string(Line(all[k]));
      if (sym->kind == SymbolKind::Param)
        ;  // keep "is a kernel parameter"
      else
        local_prov_[sym] = Provenance{"`" + n.id + "` is assigned more than once (lines " + lines +
                                          "), so it is not a compile-time constant",
                                      sym->decl_range, true};
    } else {
      std::string tail = "known only at run time";
      if (info.provenance) {
        const std::string& m = info.provenance->message;
        size_t is = m.find("` is ");
        if (m.find("known only at launch") != std::string::npos) tail = "known only at launch";
        else if (is != std::string::npos && m.rfind("`", 0) == 0) tail = "and " + m;
      }
      local_prov_[sym] = Provenance{"`" + n.id + "` comes from `" + Text(value) + "`, " + tail, n.range, true};
    }
  }
  out_.symbols[&n] = sym;
  ExprInfo ti;
  ti.type = sym->type;
  ti.uniform = sym->uniform;
  ti.value = sym->constant;
  Record(&n, ti);
}

void Checker::CheckAugAssign(const ast::AugAssign& s) {
  ExprInfo value = CheckExpr(s.value.get());
  if (const auto* n = s.target->As<ast::Name>()) {
    if (!locals_.count(n->id)) {
      const ModuleEntry* e = LookupModule(n->id);
      if (e && e->kind == ModuleEntry::Kind::Constant) {
        BindName(*n, s.value.get(), value);  // reports E0109
        return;
      }
    }
  }
  ExprInfo target = CheckExpr(s.target.get());
  if (target.type->IsError() || value.type->IsError()) return;
  ExprInfo result;
  // `t[i] += s` on an element of a tile of a @wp.struct: every lane adds its value field by
  // field (Warp's per-lane struct atomic).
  const auto* elem_sub = s.target->As<ast::Subscript>();
  const ExprInfo* elem_base = elem_sub ? out_.Info(elem_sub->value.get()) : nullptr;
  const bool struct_element = target.type->kind == TypeKind::Struct && !CompositeOf(target.type) && elem_base &&
                              elem_base->type->IsTile() && !out_.Access(s.target.get());
  if (struct_element) {
    if ((s.op != ast::BinaryOp::Add && s.op != ast::BinaryOp::Sub) || value.type != target.type) {
      Error(Code::InvalidOperand, s.op_range,
            "`" + std::string(ast::Spelling(s.op)) + "=` is not defined for `" + TypeName(target.type) + "` and `" +
                TypeName(value.type) + "` (a struct tile element takes `+=` and `-=` of its own struct)");
      return;
    }
    result = target;
  } else if (CompositeOf(target.type) || (CompositeOf(value.type) && !target.type->IsTile())) {
    // v += w, m *= s: the operator's rules; the result must keep the variable's type.
    aug_ = &s;
    result = CompositeBinary(s.target.get(), s.op, s.op_range, s.target.get(), target, s.value.get(), value);
    aug_ = nullptr;
    if (!result.type->IsError() && !out_.aug_call.count(&s)) {
      Error(Code::InvalidAssignTarget, s.op_range, "`" + Text(s.target.get()) + "` cannot be updated in place this way");
      return;
    }
  } else if (target.type->IsTile() || value.type->IsTile()) {
    using B = ast::BinaryOp;
    if (s.op != B::Add && s.op != B::Sub && s.op != B::Mul && s.op != B::Div && s.op != B::BitAnd &&
        s.op != B::BitOr && s.op != B::BitXor) {
      Error(Code::TileOperatorUnsupported, s.op_range,
            std::string("`") + ast::Spelling(s.op) +
                "=` is not supported on tiles (expected `+=`, `-=`, `*=`, `/=`, `&=`, `|=` or `^=`)");
      return;
    }
    // Keyed by the target in CheckedModule::call_info.
    result = TileBinary(s.target.get(), s.op, s.op_range, s.target.get(), target, s.value.get(), value);
  } else {
    result = ScalarBinary(s.target.get(), s.op, s.op_range, s.target.get(), target, s.value.get(), value);
  }
  if (result.type->IsError()) return;
  if (result.type != target.type && !(result.type->IsTile() && target.type->IsTile() &&
                                      result.type->shape == target.type->shape)) {
    Error(Code::VariableTypeChanged, s.value->range,
          "`" + Text(s.target.get()) + "` has type `" + TypeName(target.type) + "` and cannot hold the `" +
              TypeName(result.type) + "` result");
    return;
  }
  if (const auto* n = s.target->As<ast::Name>()) {
    LocalSymbol* sym = locals_[n->id];
    ++sym->assignment_count;
    sym->constant.reset();
    sym->uniform = sym->uniform && result.uniform && !InVaryingRegion();
    std::string lines;
    const auto& all = assignments_[n->id];
    for (size_t k = 0; k < all.size() && k < 4; ++k) lines += (k ? ", " : "") + std::to_string(Line(all[k]));
    if (sym->kind == SymbolKind::Local)
      local_prov_[sym] = Provenance{"`" + n->id + "` is assigned more than once (lines " + lines +
                                        "), so it is not a compile-time constant",
                                    sym->decl_range, true};
  } else if (!target.type->IsScalar() && !target.type->IsTile() && !CompositeOf(target.type) && !struct_element) {
    Error(Code::InvalidAssignTarget, s.target->range, "cannot update `" + Text(s.target.get()) + "`");
  } else if (const auto* sub = s.target->As<ast::Subscript>()) {
    const ExprInfo* bi = out_.Info(sub->value.get());
    const TileAccess* acc = out_.Access(sub);
    if (bi && bi->type->IsTile() && ((acc && acc->kind == TileAccess::Kind::Gather) || !InPlaceRoot(sub->value.get())))
      Error(Code::InPlaceTargetNotVariable, s.target->range,
            "`" + Text(s.target.get()) + "` updates its tile in place, so it must be an element or view of a tile variable");
  }
}

void Checker::CheckFor(const ast::For& s) {
  ExprInfo it = CheckExpr(s.iter.get());
  UnrollPlan plan = it.type->kind == TypeKind::Range ? PlanUnroll(s) : UnrollPlan{{}, "?"};
  if (plan.why_not.empty()) return CheckUnrolled(s, std::move(plan.values));
  const auto* n = s.target->As<ast::Name>();
  if (!n) {
    Error(Code::BadForLoop, s.target->range, "a `for` loop in a kernel binds one name");
  } else if (!it.type->IsError() && it.type->kind != TypeKind::Range) {
    Error(Code::BadForLoop, s.iter->range,
          "`for` loops in kernels iterate over `range(...)`, found `" + TypeName(it.type) + "`");
  }
  // A block-strided loop is uniform if its body has tile operations (decided after it).
  const bool strided = !it.uniform && n && IsBlockStrided(s);
  bool varying = !it.uniform && !strided;
  if (n) {
    LocalSymbol* sym;
    auto e = locals_.find(n->id);
    if (e == locals_.end()) {
      const ModuleEntry* me = LookupModule(n->id);
      if (me && me->kind == ModuleEntry::Kind::Constant && !options_.shadowable_constants.count(n->id))
        BindName(*n, nullptr, Poison());  // E0109
      sym = NewLocal(n->id, SymbolKind::LoopVar, types_.Int32(), n->range);
    } else {
      sym = e->second;
      if (!sym->type->IsError() && sym->type != types_.Int32())
        Error(Code::VariableTypeChanged, n->range,
              "`" + n->id + "` has type `" + TypeName(sym->type) + "` and cannot be a loop variable (`int32`)");
    }
    sym->uniform &= it.uniform && !InVaryingRegion();
    ++sym->assignment_count;
    sym->constant.reset();
    std::string why = plan.why_not == "?" ? "" : " of a loop that is not unrolled: " + plan.why_not;
    local_prov_[sym] = Provenance{"`" + n->id + "` is a loop variable (line " + std::to_string(Line(n->range)) + ")" + why,
                                  n->range, true};
    if (strided)
      varying_why_[sym] = Provenance{"`" + n->id + "` is the lane plus a multiple of the block's size (line " +
                                         std::to_string(Line(n->range)) + ")",
                                     n->range, true};
    out_.symbols[n] = sym;
    ExprInfo ti;
    ti.type = sym->type;
    ti.uniform = sym->uniform;
    Record(n, ti);
  }
  if (varying) varying_conds_.push_back(s.iter.get());
  ++loop_depth_;
  BeginLoopUniformity();
  CheckBody(s.body);
  if (strided && !loop_uniformity_.back().tile_ops.empty()) out_.block_strided.insert(&s);
  EndLoopUniformity();
  --loop_depth_;
  if (varying) varying_conds_.pop_back();
}

// ---------------------------------------------------------------- unrolled loops

namespace {

// Warp's `contains_loop_control(body, Break)`: a `break` of this loop, in its body or its `if`s.
bool HasBreak(const ast::Body& body) {
  for (const ast::StmtPtr& s : body) {
    if (s->Is<ast::Break>()) return true;
    if (const auto* i = s->As<ast::If>(); i && (HasBreak(i->body) || HasBreak(i->orelse))) return true;
  }
  return false;
}

// Unrolling beyond this many trips is refused even where `wp.static` asks for it (Warp has no
// bound): the loop stays a loop, and a constant needed in its body says so.
constexpr int64_t kMaxForcedUnroll = 1024;

}  // namespace

// A call of `wp.static` anywhere in the loop, its `range` included: Warp unrolls such a loop
// whatever its trip count.
bool Checker::MentionsStatic(const ast::Expr* e) {
  if (!e) return false;
  switch (e->kind) {
    case ast::ExprKind::Name:
    case ast::ExprKind::IntLit:
    case ast::ExprKind::FloatLit:
    case ast::ExprKind::StrLit:
    case ast::ExprKind::BoolLit:
    case ast::ExprKind::NoneLit: return false;
    case ast::ExprKind::Unary: return MentionsStatic(e->As<ast::Unary>()->operand.get());
    case ast::ExprKind::Binary:
      return MentionsStatic(e->As<ast::Binary>()->lhs.get()) || MentionsStatic(e->As<ast::Binary>()->rhs.get());
    case ast::ExprKind::BoolOp:
      for (const ast::ExprPtr& v : e->As<ast::BoolOp>()->values)
        if (MentionsStatic(v.get())) return true;
      return false;
    case ast::ExprKind::Compare: {
      const auto* c = e->As<ast::Compare>();
      if (MentionsStatic(c->left.get())) return true;
      for (const ast::ExprPtr& v : c->comparators)
        if (MentionsStatic(v.get())) return true;
      return false;
    }
    case ast::ExprKind::IfExp: {
      const auto* i = e->As<ast::IfExp>();
      return MentionsStatic(i->cond.get()) || MentionsStatic(i->then_value.get()) || MentionsStatic(i->else_value.get());
    }
    case ast::ExprKind::Call: {
      const auto* c = e->As<ast::Call>();
      if (const auto* a = c->func->As<ast::Attribute>(); a && a->attr == "static")
        if (const auto* base = a->value->As<ast::Name>(); base && !locals_.count(base->id))
          if (const ModuleEntry* m = LookupModule(base->id); m && m->kind == ModuleEntry::Kind::Module && m->module == ModuleId::Warp)
            return true;
      if (MentionsStatic(c->func.get())) return true;
      for (const ast::ExprPtr& v : c->args)
        if (MentionsStatic(v.get())) return true;
      for (const ast::Keyword& k : c->keywords)
        if (MentionsStatic(k.value.get())) return true;
      if (const auto* l = dynamic_cast<const ast::Lambda*>(c)) return MentionsStatic(l->body.get());
      return false;
    }
    case ast::ExprKind::Attribute: return MentionsStatic(e->As<ast::Attribute>()->value.get());
    case ast::ExprKind::Subscript:
      return MentionsStatic(e->As<ast::Subscript>()->value.get()) || MentionsStatic(e->As<ast::Subscript>()->index.get());
    case ast::ExprKind::Slice: {
      const auto* sl = e->As<ast::Slice>();
      return MentionsStatic(sl->lower.get()) || MentionsStatic(sl->upper.get()) || MentionsStatic(sl->step.get());
    }
    case ast::ExprKind::Tuple:
      for (const ast::ExprPtr& v : e->As<ast::Tuple>()->elts)
        if (MentionsStatic(v.get())) return true;
      return false;
    case ast::ExprKind::List:
      for (const ast::ExprPtr& v : e->As<ast::List>()->elts)
        if (MentionsStatic(v.get())) return true;
      return false;
    case ast::ExprKind::Dict:
      for (const ast::ExprPtr& v : e->As<ast::Dict>()->keys)
        if (MentionsStatic(v.get())) return true;
      for (const ast::ExprPtr& v : e->As<ast::Dict>()->values)
        if (MentionsStatic(v.get())) return true;
      return false;
  }
  return false;
}

bool Checker::MentionsStatic(const ast::Body& body) {
  for (const ast::StmtPtr& sp : body) {
    const ast::Stmt& s = *sp;
    bool found = false;
    if (const auto* a = s.As<ast::Assign>()) {
      for (const ast::ExprPtr& t : a->targets) found |= MentionsStatic(t.get());
      found |= MentionsStatic(a->value.get());
    } else if (const auto* a = s.As<ast::AugAssign>()) {
      found = MentionsStatic(a->target.get()) || MentionsStatic(a->value.get());
    } else if (const auto* a = s.As<ast::AnnAssign>()) {
      found = MentionsStatic(a->target.get()) || MentionsStatic(a->value.get());
    } else if (const auto* x = s.As<ast::ExprStmt>()) {
      found = MentionsStatic(x->value.get());
    } else if (const auto* r = s.As<ast::Return>()) {
      found = MentionsStatic(r->value.get());
    } else if (const auto* i = s.As<ast::If>()) {
      found = MentionsStatic(i->cond.get()) || MentionsStatic(i->body) || MentionsStatic(i->orelse);
    } else if (const auto* f = s.As<ast::For>()) {
      found = MentionsStatic(f->iter.get()) || MentionsStatic(f->body);
    } else if (const auto* w = s.As<ast::While>()) {
      found = MentionsStatic(w->cond.get()) || MentionsStatic(w->body);
    }
    if (found) return true;
  }
  return false;
}

// As Warp 1.19's codegen decides: every argument of `range` is a number known at compile time
// (a literal, a negated literal, a named constant, `len` of a tuple, vector or matrix,
// `wp.static(...)`); then the
// loop is unrolled when it mentions `wp.static` anywhere, or else when it has at most
// max_unroll trips and no `break`. tilec never unrolls a loop with a `break` (Warp's unrolled
// `break` has no loop to leave).
Checker::UnrollPlan Checker::PlanUnroll(const ast::For& s) {
  const auto* call = s.iter->As<ast::Call>();
  if (!call || call->args.empty() || call->args.size() > 3 || !call->keywords.empty() || !s.target->Is<ast::Name>())
    return {{}, "its `range` is not of the form `range(stop)`, `range(start, stop)` or `range(start, stop, step)`"};
  int64_t a[3] = {0, 0, 1};
  for (size_t k = 0; k < call->args.size(); ++k) {
    const ast::Expr* e = call->args[k].get();
    const ExprInfo* info = out_.Info(e);
    const auto* neg = e->As<ast::Unary>();
    const CallInfo* ci = e->Is<ast::Call>() ? out_.Call(e) : nullptr;
    bool plain = e->Is<ast::IntLit>() || e->Is<ast::Name>() || e->Is<ast::Attribute>() ||
                 (neg && neg->op == ast::UnaryOp::Neg && neg->operand->Is<ast::IntLit>()) ||
                 (ci && ci->builtin &&
                  (std::string_view(ci->builtin->name) == "static" || std::string_view(ci->builtin->name) == "len"));
    if (!info || !info->value || info->value->kind != ConstValue::Kind::Int || !plain)
      return {{}, "`" + Text(e) + "` is not a literal, a named constant, `len(...)` of a tuple, vector or matrix, or "
                  "`wp.static(...)`, as Warp requires"};
    a[call->args.size() == 1 ? 1 : k] = info->value->i;
  }
  int64_t start = a[0], stop = a[1], step = a[2];
  if (step == 0) return {{}, "its step is zero"};
  // Python's len(range(start, stop, step)).
  int64_t trips = step > 0 ? (stop > start ? (stop - start + step - 1) / step : 0)
                           : (start > stop ? (start - stop - step - 1) / -step : 0);
  if (HasBreak(s.body)) return {{}, "it has a `break`"};
  bool forced = MentionsStatic(s.iter.get()) || MentionsStatic(s.body);
  if (!forced && trips > options_.max_unroll)
    return {{}, "it has " + std::to_string(trips) + " trips, more than `wp.config.max_unroll` (" +
                    std::to_string(options_.max_unroll) + "), and no `wp.static`"};
  if (trips > kMaxForcedUnroll)
    return {{}, "it has " + std::to_string(trips) + " trips, more than tilec unrolls (" +
                    std::to_string(kMaxForcedUnroll) + ")"};
  UnrollPlan plan;
  for (int64_t v = start; step > 0 ? v < stop : v > stop; v += step) plan.values.push_back(v);
  return plan;
}

void Checker::CheckUnrolled(const ast::For& s, std::vector<int64_t> values) {
  const auto& n = *s.target->As<ast::Name>();
  LocalSymbol* sym;
  auto e = locals_.find(n.id);
  if (e == locals_.end()) {
    const ModuleEntry* me = LookupModule(n.id);
    if (me && me->kind == ModuleEntry::Kind::Constant && !options_.shadowable_constants.count(n.id))
      BindName(n, nullptr, Poison());  // E0109
    sym = NewLocal(n.id, SymbolKind::LoopVar, types_.Int32(), n.range);
  } else {
    sym = e->second;
    if (!sym->type->IsError() && sym->type != types_.Int32())
      Error(Code::VariableTypeChanged, n.range,
            "`" + n.id + "` has type `" + TypeName(sym->type) + "` and cannot be a loop variable (`int32`)");
  }
  ++sym->assignment_count;
  out_.symbols[&n] = sym;
  ExprInfo ti;
  ti.type = sym->type;
  ti.uniform = sym->uniform;
  Record(&n, ti);

  UnrolledLoop& u = out_.unrolled[&s];
  for (size_t k = 0; k < values.size(); ++k) u.bodies.push_back(ast::Clone(s.body));
  unroll_scopes_.push_back({fn_->locals.size(), body_depth_ + 1});
  // A `continue` skips the rest of its trip: a loop for the uniformity proof.
  ++loop_depth_;
  BeginLoopUniformity();
  // Each copy sees the variable as that trip's constant; after the loop it keeps the last
  // value, as in Python.
  for (size_t k = 0; k < values.size(); ++k) {
    sym->constant = ConstValue::MakeInt(values[k]);
    local_weak_[sym] = false;
    CheckBody(u.bodies[k]);
  }
  EndLoopUniformity();
  --loop_depth_;
  unroll_scopes_.pop_back();
  u.values = std::move(values);
  if (u.values.empty()) {
    sym->constant.reset();
    local_prov_[sym] = Provenance{"`" + n.id + "` is the variable of a loop with no trips (line " +
                                      std::to_string(Line(n.range)) + ")",
                                  n.range, true};
  }
}

// Warp's rule for tiles: a tile variable may be rebound to a tile of another shape (same
// dtype), `t = wp.tile_transpose(t)`; one of the same shape merges storage as before.
// Straight-line code only: in the body that declared it, so no loop carries it and no branch
// merges the two types.
bool Checker::MayRebindTile(const LocalSymbol& sym, const Type* t) const {
  return sym.kind == SymbolKind::Local && sym.decl_body == body_id_ && sym.type->IsTile() && t->IsTile() &&
         sym.type->elem == t->elem && sym.type->shape != t->shape;
}

bool Checker::MayRedeclare(const LocalSymbol& sym) const {
  return !unroll_scopes_.empty() && size_t(sym.index) >= unroll_scopes_.front().first_local &&
         body_depth_ == unroll_scopes_.back().body_depth && sym.kind == SymbolKind::Local;
}

}  // namespace tilec::sema
