// The uniformity proof's second half: where a lane-varying value comes from (for E0302's
// notes), exits that make lanes leave a loop or the kernel early, and block-strided loops
// (`range(lane, n * wp.block_dim(), wp.block_dim())`) whose trip count is the same on every lane.
#include <algorithm>

#include "frontend/sema/checker.h"

namespace tilec::sema {

using diag::Code;

// ---------------------------------------------------------------- the uniformity proof's notes

void Checker::NoteVaryingExit(const ast::Stmt& s) {
  if (!InVaryingRegion()) return;
  const ast::Expr* cond = varying_conds_.back();
  if (s.Is<ast::Return>()) {
    if (!varying_return_) {
      varying_return_ = &s;
      varying_return_cond_ = cond;
    }
    // Lanes that return leave every enclosing loop early too.
    for (LoopUniformity& l : loop_uniformity_)
      if (!l.exit) l.exit = &s, l.exit_cond = cond;
    return;
  }
  if (!loop_uniformity_.empty() && !loop_uniformity_.back().exit) {
    loop_uniformity_.back().exit = &s;
    loop_uniformity_.back().exit_cond = cond;
  }
}

void Checker::EndLoopUniformity() {
  LoopUniformity l = std::move(loop_uniformity_.back());
  loop_uniformity_.pop_back();
  if (l.exit) ReportLoopExit(l);
  // Reported here, so the enclosing loops do not report them again.
  if (l.exit)
    for (LoopUniformity& outer : loop_uniformity_)
      std::erase_if(outer.tile_ops, [&](const auto& op) {
        for (const auto& mine : l.tile_ops)
          if (mine.first == op.first) return true;
        return false;
      });
}

void Checker::ReportLoopExit(const LoopUniformity& l) {
  std::string word = l.exit->Is<ast::Break>() ? "break" : l.exit->Is<ast::Continue>() ? "continue" : "return";
  for (const auto& [node, what] : l.tile_ops) {
    auto b = Error(Code::NonUniformTileOp, node->range,
                   what + " must be reached by every thread of the block, but the `" + word + "` on line " +
                       std::to_string(Line(l.exit->range)) + " is under `" + Text(l.exit_cond) +
                       "`, which may differ between threads, so the lanes leave the loop at different trips");
    b.AddNote(file(), l.exit->range, "some threads may leave the loop here");
    NoteVarying(b, l.exit_cond);
  }
}

// The root of an expression's lane dependence: a local's recorded origin, or a call whose
// result is each lane's own.
std::optional<Provenance> Checker::VaryingOrigin(const ast::Expr* e) {
  if (!e) return std::nullopt;
  if (const auto* n = e->As<ast::Name>()) {
    auto it = out_.symbols.find(n);
    if (it != out_.symbols.end())
      if (auto w = varying_why_.find(it->second); w != varying_why_.end()) return w->second;
    return std::nullopt;
  }
  if (const auto* c = e->As<ast::Call>()) {
    auto ei = out_.expr_info.find(e);
    bool call_varies = ei != out_.expr_info.end() && !ei->second.uniform;
    for (const ast::ExprPtr& a : c->args)
      if (auto o = VaryingOrigin(a.get())) return o;
    for (const ast::Keyword& k : c->keywords)
      if (auto o = VaryingOrigin(k.value.get())) return o;
    if (call_varies)
      return Provenance{"`" + Text(e) + "` gives each thread of the block its own value", e->range, true};
    return std::nullopt;
  }
  std::vector<const ast::Expr*> kids;
  if (const auto* u = e->As<ast::Unary>()) kids = {u->operand.get()};
  else if (const auto* bi = e->As<ast::Binary>()) kids = {bi->lhs.get(), bi->rhs.get()};
  else if (const auto* bo = e->As<ast::BoolOp>()) for (const auto& v : bo->values) kids.push_back(v.get());
  else if (const auto* cmp = e->As<ast::Compare>()) {
    kids.push_back(cmp->left.get());
    for (const auto& v : cmp->comparators) kids.push_back(v.get());
  } else if (const auto* ie = e->As<ast::IfExp>()) kids = {ie->cond.get(), ie->then_value.get(), ie->else_value.get()};
  else if (const auto* at = e->As<ast::Attribute>()) kids = {at->value.get()};
  else if (const auto* su = e->As<ast::Subscript>()) kids = {su->value.get(), su->index.get()};
  else if (const auto* tu = e->As<ast::Tuple>()) for (const auto& v : tu->elts) kids.push_back(v.get());
  for (const ast::Expr* k : kids)
    if (auto o = VaryingOrigin(k)) return o;
  // A per-lane element read: `a[i]` with a varying index.
  if (e->Is<ast::Subscript>())
    if (auto ei = out_.expr_info.find(e); ei != out_.expr_info.end() && !ei->second.uniform)
      return Provenance{"`" + Text(e) + "` gives each thread of the block its own value", e->range, true};
  return std::nullopt;
}

void Checker::NoteVarying(diag::DiagnosticEngine::Builder& b, const ast::Expr* cond) {
  if (std::optional<Provenance> why = VaryingOrigin(cond)) b.AddNote(file(), why->range, why->message);
  // A block-strided loop that only misses the proof's stop: say what the proof needs.
  const auto* call = cond ? cond->As<ast::Call>() : nullptr;
  const ExprInfo* info = out_.Info(cond);
  if (call && info && info->type->kind == TypeKind::Range && call->args.size() == 3 &&
      FactOf(call->args[0].get()) == LaneFact::Lane && FactOf(call->args[2].get()) == LaneFact::BlockDim)
    b.AddNote(file(), call->args[1]->range,
              "a loop `range(lane, stop, wp.block_dim())` runs the same trips on every lane when `stop` is a "
              "multiple of the block's size, such as `((n + wp.block_dim() - 1) // wp.block_dim()) * wp.block_dim()`");
}

// ---------------------------------------------------------------- block-strided loops

// `for i in range(lane, stop, step)` where step is the block's size B and stop a multiple m*B:
// lane l in [0, B) runs ceil((m*B - l) / B) = max(m, 0) trips, the same on every lane, so tile
// operations in the body are reached by every lane together. (When the name taken for the lane
// is a block coordinate, because the launch has more dimensions, the loop is uniform anyway.)
// The facts are syntactic, on locals assigned once: the lane from `wp.tid()`, the block's size
// from `wp.block_dim()` or a constant equal to it, and products with it.
void Checker::NoteLaneFact(const LocalSymbol* sym, const ast::Name& n, const ast::Expr* value, const ExprInfo& info) {
  lane_facts_.erase(sym);
  if (!value || assignments_[n.id].size() != 1 || InVaryingRegion() || !info.type->IsInt()) return;
  if (!options_.hybrid_launch && IsTidCall(value) && !info.uniform) {
    lane_facts_[sym] = LaneFact::Lane;  // the last name of `block, lane = wp.tid()`
    return;
  }
  if (std::optional<LaneFact> f = info.uniform ? FactOf(value) : std::nullopt; f && *f != LaneFact::Lane)
    lane_facts_[sym] = *f;
}

std::optional<Checker::LaneFact> Checker::FactOf(const ast::Expr* e) {
  const ExprInfo* info = out_.Info(e);
  if (!info || !info->type->IsInt()) return std::nullopt;
  if (const auto* n = e->As<ast::Name>()) {
    if (auto s = out_.symbols.find(n); s != out_.symbols.end())
      if (auto f = lane_facts_.find(s->second); f != lane_facts_.end()) return f->second;
  }
  if (!info->uniform) return std::nullopt;
  if (info->value && info->value->kind == ConstValue::Kind::Int) {
    // Kernels with tile operations are compiled for one block size, so a constant can be it.
    const int64_t b = options_.block_dim, v = info->value->i;
    if (b <= 0) return std::nullopt;
    if (v == b) return LaneFact::BlockDim;
    if (v % b == 0) return LaneFact::BlockDimMultiple;
    return std::nullopt;
  }
  if (e->Is<ast::Call>()) {
    const CallInfo* ci = out_.Call(e);
    if (ci && ci->builtin && ci->builtin->lower.kind == LowerKind::BlockDim) return LaneFact::BlockDim;
    return std::nullopt;
  }
  if (const auto* bin = e->As<ast::Binary>()) {
    auto multiple = [&](const ast::Expr* x) {
      std::optional<LaneFact> f = FactOf(x);
      return f && (*f == LaneFact::BlockDim || *f == LaneFact::BlockDimMultiple);
    };
    const ExprInfo* l = out_.Info(bin->lhs.get());
    const ExprInfo* r = out_.Info(bin->rhs.get());
    if (!l || !r || !l->type->IsInt() || !r->type->IsInt() || !l->uniform || !r->uniform) return std::nullopt;
    if (bin->op == ast::BinaryOp::Mul && (multiple(bin->lhs.get()) || multiple(bin->rhs.get())))
      return LaneFact::BlockDimMultiple;
    if ((bin->op == ast::BinaryOp::Add || bin->op == ast::BinaryOp::Sub) && multiple(bin->lhs.get()) &&
        multiple(bin->rhs.get()))
      return LaneFact::BlockDimMultiple;
  }
  return std::nullopt;
}

bool Checker::IsBlockStrided(const ast::For& s) {
  const auto* call = s.iter->As<ast::Call>();
  if (!call || call->args.size() != 3 || !call->keywords.empty() || InVaryingRegion()) return false;
  auto is = [&](const ast::Expr* e, std::initializer_list<LaneFact> want) {
    std::optional<LaneFact> f = FactOf(e);
    return f && std::find(want.begin(), want.end(), *f) != want.end();
  };
  const ExprInfo* stop = out_.Info(call->args[1].get());
  return is(call->args[0].get(), {LaneFact::Lane}) && stop && stop->uniform &&
         is(call->args[1].get(), {LaneFact::BlockDim, LaneFact::BlockDimMultiple}) &&
         is(call->args[2].get(), {LaneFact::BlockDim});
}

}  // namespace tilec::sema
