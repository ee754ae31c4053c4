// `f(*v)` in kernels (Warp's unpacking): a vector's or quaternion's components, a matrix's
// rows, or the elements of a constant slice of one of them or of an array, spread over the
// call's arguments. The call is checked (and lowered) as if written out: `f(v[0], v[1], v[2])`.
#include <algorithm>

#include "frontend/ast/clone.h"
#include "frontend/sema/checker.h"

namespace tilec::sema {

using diag::Code;

namespace {

bool IsStarred(const ast::Expr& e) { return dynamic_cast<const ast::Starred*>(&e) != nullptr; }

// Whether `e` reads only variables, fields, constants and indices: copying it once per
// element evaluates nothing twice that could differ or have an effect.
bool IsPlainPath(const ast::Expr& e) {
  switch (e.kind) {
    case ast::ExprKind::Name: case ast::ExprKind::IntLit: case ast::ExprKind::FloatLit:
    case ast::ExprKind::BoolLit:
      return true;
    case ast::ExprKind::Attribute: return IsPlainPath(*e.As<ast::Attribute>()->value);
    case ast::ExprKind::Subscript:
      return IsPlainPath(*e.As<ast::Subscript>()->value) && IsPlainPath(*e.As<ast::Subscript>()->index);
    case ast::ExprKind::Unary: return IsPlainPath(*e.As<ast::Unary>()->operand);
    case ast::ExprKind::Tuple:
      for (const ast::ExprPtr& x : e.As<ast::Tuple>()->elts)
        if (!IsPlainPath(*x)) return false;
      return true;
    case ast::ExprKind::Slice: {
      const auto* s = e.As<ast::Slice>();
      for (const ast::ExprPtr* p : {&s->lower, &s->upper, &s->step})
        if (*p && !IsPlainPath(**p)) return false;
      return true;
    }
    case ast::ExprKind::StrLit: case ast::ExprKind::NoneLit: case ast::ExprKind::Binary:
    case ast::ExprKind::BoolOp: case ast::ExprKind::Compare: case ast::ExprKind::IfExp:
    case ast::ExprKind::Call: case ast::ExprKind::List: case ast::ExprKind::Dict:
      return false;
  }
  return false;
}

ast::ExprPtr Index(const ast::Expr& base, int64_t k, SourceRange r) {
  return std::make_unique<ast::Subscript>(r, ast::Clone(base), std::make_unique<ast::IntLit>(r, uint64_t(k)));
}

}  // namespace

std::optional<ExprInfo> Checker::CheckStarredCall(const ast::Call& c) {
  bool any = false;
  for (const ast::ExprPtr& a : c.args) any = any || IsStarred(*a);
  if (!any || !fn_) return std::nullopt;
  auto call = std::make_unique<ast::Call>(c.range);
  call->func = ast::Clone(*c.func);
  bool ok = true;
  for (const ast::ExprPtr& a : c.args) {
    if (!IsStarred(*a)) call->args.push_back(ast::Clone(*a));
    else ok = SpreadStarred(*a->As<ast::Call>()->args[0], call->args) && ok;
  }
  for (const ast::Keyword& k : c.keywords)
    call->keywords.push_back({k.name, k.name_range, ast::Clone(*k.value), k.range});
  if (!ok) return Poison();
  ExprInfo info = CheckExpr(call.get());
  out_.rewritten[&c] = std::move(call);
  return info;
}

// Appends `value`'s elements to `out` as index expressions; false after an error.
bool Checker::SpreadStarred(const ast::Expr& value, std::vector<ast::ExprPtr>& out) {
  const SourceRange r = value.range;
  if (!IsPlainPath(value)) {
    Error(Code::BadStarredArgument, r,
          "a starred argument in a kernel must be a variable or a slice of one (`*v`, `*v[1:3]`, `*a[0:4]`), "
          "as it is read once per element");
    return false;
  }
  // `*x[lo:hi:step]`: the slice's bounds are constants and pick the elements directly.
  const auto* sub = value.As<ast::Subscript>();
  const auto* slice = sub ? sub->index->As<ast::Slice>() : nullptr;
  const ast::Expr& base = slice ? *sub->value : value;
  const ExprInfo b = CheckExpr(&base);
  if (b.type->IsError()) return false;
  std::optional<int64_t> length;  // unknown for arrays
  if (const Composite* k = CompositeOf(b.type)) length = k->is_matrix() ? k->rows : k->length();
  else if (!(slice && b.type->IsArray() && b.type->ndim == 1)) {
    Error(Code::BadStarredArgument, r,
          "a starred argument in a kernel takes a vector, quaternion or matrix, or a constant slice of one or of a "
          "1-D array, not `" + TypeName(b.type) + "`");
    return false;
  }
  if (!slice) {
    for (int64_t k = 0; k < *length; ++k) out.push_back(Index(base, k, r));
    return true;
  }
  auto bound = [&](const ast::ExprPtr& e, const char* what) -> std::optional<int64_t> {
    const ExprInfo x = CheckExpr(e.get());
    if (x.type->IsError()) return std::nullopt;
    if (!x.value || x.value->kind != ConstValue::Kind::Int) {
      Error(Code::NotConstant, e->range,
            std::string("the slice's ") + what + " must be an int known at compile time to unpack it");
      return std::nullopt;
    }
    return x.value->i;
  };
  int64_t step = 1;
  if (slice->step) {
    std::optional<int64_t> s = bound(slice->step, "step");
    if (!s) return false;
    if (*s <= 0) {
      Error(Code::BadStarredArgument, slice->step->range, "the slice's step must be positive to unpack it");
      return false;
    }
    step = *s;
  }
  auto normalized = [&](const ast::ExprPtr& e, const char* what, int64_t missing) -> std::optional<int64_t> {
    if (!e) return missing;
    std::optional<int64_t> v = bound(e, what);
    if (!v) return std::nullopt;
    if (*v < 0 && !length) {
      Error(Code::BadStarredArgument, e->range,
            std::string("the slice's ") + what + " cannot be negative for an array (its length is not known at compile time)");
      return std::nullopt;
    }
    if (!length) return *v;
    return std::clamp<int64_t>(*v < 0 ? *v + *length : *v, 0, *length);
  };
  if (!slice->upper && !length) {
    Error(Code::BadStarredArgument, slice->range,
          "unpacking a slice of an array needs its upper bound (the array's length is not known at compile time)");
    return false;
  }
  std::optional<int64_t> lo = normalized(slice->lower, "start", 0);
  std::optional<int64_t> hi = normalized(slice->upper, "stop", length.value_or(0));
  if (!lo || !hi) return false;
  for (int64_t k = *lo; k < *hi; k += step) out.push_back(Index(base, k, r));
  return true;
}

}  // namespace tilec::sema
