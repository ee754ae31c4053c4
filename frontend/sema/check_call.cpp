// Calls: overload resolution against the builtin table, compile-time argument checks with
// provenance, the table's rules (each with its own code, caret under the argument), result
// types, index-tile promotion, calls of @wp.func, casts and struct constructors.
#include <algorithm>
#include <cmath>
#include <set>

#include "frontend/ast/clone.h"
#include "frontend/sema/checker.h"

namespace tilec::sema {

using diag::Code;

bool PatternMatches(ArgPattern p, const Type* t) {
  if (t->IsError()) return true;
  switch (p) {
    case ArgPattern::Any:
      return t->IsScalar() || t->kind == TypeKind::Struct || t->IsArray() || t->IsTile() ||
             t->kind == TypeKind::Tuple || t->kind == TypeKind::String;
    case ArgPattern::Scalar: return t->IsScalar();
    case ArgPattern::Numeric: return t->IsNumeric();
    case ArgPattern::Int: return t->IsInt();
    case ArgPattern::Float: return t->IsFloatScalar();
    case ArgPattern::Bool: return t->IsScalar() && t->scalar == ScalarType::Bool;
    case ArgPattern::IntTuple:
      if (t->kind != TypeKind::Tuple) return false;
      for (const Type* e : t->elems)
        if (!e->IsInt() && !e->IsError()) return false;
      return true;
    case ArgPattern::Array: return t->IsArray();
    case ArgPattern::Tile: return t->IsTile();
    case ArgPattern::DType:
      return t->kind == TypeKind::TypeRef &&
             (t->referent->IsScalar() || t->referent->kind == TypeKind::Struct);
    case ArgPattern::String: return t->kind == TypeKind::String;
    case ArgPattern::Callable:
      return t->kind == TypeKind::Function && t->callee.kind != CalleeKind::Kernel;
    case ArgPattern::TileStack: return t->IsTileStack();
  }
  return false;
}

namespace {

const char* PatternText(ArgPattern p) {
  switch (p) {
    case ArgPattern::Any: return "a value";
    case ArgPattern::Scalar: return "a scalar";
    case ArgPattern::Numeric: return "a number";
    case ArgPattern::Int: return "an int";
    case ArgPattern::Float: return "a float";
    case ArgPattern::Bool: return "a bool";
    case ArgPattern::IntTuple: return "a tuple of ints";
    case ArgPattern::Array: return "an array";
    case ArgPattern::Tile: return "a tile";
    case ArgPattern::DType: return "a scalar or struct type";
    case ArgPattern::String: return "a string";
    case ArgPattern::Callable: return "a function";
    case ArgPattern::TileStack: return "a tile stack (`wp.tile_stack`)";
  }
  return "a value";
}

struct Binding {
  std::vector<int> param_arg;  // per param: index into args, -1 = default
  std::vector<int> extra;      // variadic extras
  enum class Fail { None, TooMany, Duplicate, Missing, Pattern } fail = Fail::None;
  int fail_arg = -1, fail_param = -1, mismatches = 0;
};

Binding Bind(const Overload& ov, const std::vector<CallArg>& args) {
  Binding b;
  b.param_arg.assign(ov.params.size(), -1);
  size_t pos = 0;
  const size_t positional = ov.positional >= 0 ? size_t(ov.positional) : ov.params.size();
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].keyword.empty()) continue;
    if (pos < positional) {
      b.param_arg[pos++] = int(i);
    } else if (ov.variadic) {
      b.extra.push_back(int(i));
    } else if (b.fail == Binding::Fail::None) {
      b.fail = Binding::Fail::TooMany;
      b.fail_arg = int(i);
    }
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].keyword.empty()) continue;
    int p = -1;
    for (size_t k = 0; k < ov.params.size(); ++k)
      if (args[i].keyword == ov.params[k].name) p = int(k);
    if (p < 0) {
      if (b.fail == Binding::Fail::None) { b.fail = Binding::Fail::Pattern; b.fail_arg = int(i); }
      b.mismatches += 100;
      continue;
    }
    if (b.param_arg[p] >= 0) {
      if (b.fail == Binding::Fail::None || b.fail == Binding::Fail::Pattern) {
        b.fail = Binding::Fail::Duplicate;
        b.fail_arg = int(i);
        b.fail_param = p;
      }
      continue;
    }
    b.param_arg[p] = int(i);
  }
  if (b.fail == Binding::Fail::TooMany || b.fail == Binding::Fail::Duplicate) return b;
  for (size_t k = 0; k < ov.params.size(); ++k) {
    if (b.param_arg[k] < 0 && ov.params[k].def == DefaultKind::Required) {
      b.fail = Binding::Fail::Missing;
      b.fail_param = int(k);
      return b;
    }
  }
  auto check = [&](int p, int a) {
    const ParamSpec& ps = ov.params[p];
    const ExprInfo& info = args[a].info;
    bool ok = PatternMatches(ps.pattern, info.type);
    // A runtime value where a constant or type is required still selects the overload, so
    // that the error can say why the value is not constant.
    if (!ok && ps.kind == ArgKind::Type && !info.value) ok = true;
    if (!ok) {
      if (b.mismatches == 0 && b.fail == Binding::Fail::None) {
        b.fail = Binding::Fail::Pattern;
        b.fail_arg = a;
        b.fail_param = p;
      }
      ++b.mismatches;
    }
  };
  for (size_t k = 0; k < ov.params.size(); ++k)
    if (b.param_arg[k] >= 0) check(int(k), b.param_arg[k]);
  if (!ov.extras_any)
    for (int a : b.extra) check(int(ov.params.size()) - 1, a);
  return b;
}

}  // namespace

// ---------------------------------------------------------------- Call nodes

std::optional<ExprInfo> Checker::CheckSliceView(const ast::Call& c) {
  const auto* fa = c.func->As<ast::Attribute>();
  const auto* base = fa ? fa->value->As<ast::Name>() : nullptr;
  if (!base || fa->attr != "tile_view") return std::nullopt;
  auto wp = scope_.find(base->id);
  if (wp == scope_.end() || wp->second.kind != ModuleEntry::Kind::Module || wp->second.module != ModuleId::Warp)
    return std::nullopt;
  const ast::Expr* tile = c.args.empty() ? nullptr : c.args[0].get();
  const ast::Expr* offset = c.args.size() > 1 ? c.args[1].get() : nullptr;
  const ast::Expr* shape = c.args.size() > 2 ? c.args[2].get() : nullptr;
  for (const ast::Keyword& kw : c.keywords) {
    if (kw.name == "t") tile = kw.value.get();
    if (kw.name == "offset") offset = kw.value.get();
    if (kw.name == "shape") shape = kw.value.get();
  }
  // `slice` is Python's builtin unless the program names something else so.
  auto is_slice = [&](const ast::Expr* e) {
    const auto* call = e ? e->As<ast::Call>() : nullptr;
    const auto* n = call ? call->func->As<ast::Name>() : nullptr;
    return n && n->id == "slice" && !locals_.count("slice") && !LookupModule("slice");
  };
  const auto* tup = offset ? offset->As<ast::Tuple>() : nullptr;
  std::vector<const ast::Expr*> entries;
  if (tup)
    for (const ast::ExprPtr& e : tup->elts) entries.push_back(e.get());
  else if (offset)
    entries.push_back(offset);
  if (!tile || std::none_of(entries.begin(), entries.end(), is_slice)) return std::nullopt;
  if (shape) {
    Error(Code::BadTileRegion, shape->range,
          "`wp.tile_view`: `shape` cannot be given together with a slice in `offset`: the slice gives the extent");
    return Poison();
  }
  auto index = std::make_unique<ast::Tuple>(offset->range);
  for (const ast::Expr* e : entries) {
    if (!is_slice(e)) {
      index->elts.push_back(ast::Clone(*e));
      continue;
    }
    const auto* call = e->As<ast::Call>();
    if (call->args.empty() || call->args.size() > 3 || !call->keywords.empty()) {
      Error(Code::BadTileSlice, e->range, "`slice` takes 1 to 3 positional arguments: `slice(stop)` or `slice(start, stop[, step])`");
      return Poison();
    }
    auto sl = std::make_unique<ast::Slice>(e->range);
    auto part = [&](size_t k) -> ast::ExprPtr {
      const ast::Expr* a = call->args[k].get();
      return a->Is<ast::NoneLit>() ? nullptr : ast::Clone(*a);
    };
    if (call->args.size() == 1) {
      sl->upper = part(0);
    } else {
      sl->lower = part(0);
      sl->upper = part(1);
      if (call->args.size() == 3) sl->step = part(2);
    }
    index->elts.push_back(std::move(sl));
  }
  index->parenthesized = true;
  auto sub = std::make_unique<ast::Subscript>(c.range, ast::Clone(*tile), std::move(index));
  ExprInfo info = CheckExpr(sub.get());
  out_.rewritten[&c] = std::move(sub);
  return info;
}

ExprInfo Checker::CheckCall(const ast::Call& c) {
  if (const auto* fa = c.func->As<ast::Attribute>(); fa && (fa->attr == "vector" || fa->attr == "matrix"))
    if (const auto* ta = fa->value->As<ast::Attribute>(); ta && ta->attr == "types") {
      ExprInfo base = CheckExpr(ta->value.get());
      // In kernel code Warp resolves the name to its `vector`/`matrix` builtin, so there the
      // call builds a value (zeros from the keywords alone), as `wp.vector(...)` does.
      if (base.type->kind == TypeKind::Module && base.type->module == ModuleId::Warp)
        return fn_ ? GenericCompositeValue(c, fa->attr) : GenericCompositeType(c, fa->attr == "matrix");
    }
  if (const auto* fa = c.func->As<ast::Attribute>();
      fa && (fa->attr == "vector" || fa->attr == "matrix" || fa->attr == "quaternion"))
    if (const auto* base = fa->value->As<ast::Name>()) {
      auto it = scope_.find(base->id);
      if (it != scope_.end() && it->second.kind == ModuleEntry::Kind::Module && it->second.module == ModuleId::Warp)
        return GenericCompositeValue(c, fa->attr);
    }
  if (std::optional<ExprInfo> view = CheckSliceView(c)) return *view;
  if (std::optional<ExprInfo> spread = CheckStarredCall(c)) return *spread;
  if (std::optional<ExprInfo> m = CheckMatrixFromVectors(c)) return *m;
  ExprInfo callee = CheckExpr(c.func.get());
  std::vector<CallArg> args;
  bool poisoned = callee.type->IsError();
  // wp.tile_map's function may be a lambda (its first argument, or `op=`).
  const ast::Expr* saved_lambda = mapped_lambda_;
  if (callee.type->kind == TypeKind::Function && callee.type->callee.kind == CalleeKind::Builtin &&
      std::string(BuiltinTable()[callee.type->callee.index].name) == "tile_map") {
    if (!c.args.empty() && dynamic_cast<const ast::Lambda*>(c.args[0].get())) mapped_lambda_ = c.args[0].get();
    for (const ast::Keyword& kw : c.keywords)
      if (kw.name == "op" && dynamic_cast<const ast::Lambda*>(kw.value.get())) mapped_lambda_ = kw.value.get();
  }
  // wp.static's expression is the host's Python: it folds by Python's rules.
  const bool saved_python = python_fold_;
  if (callee.type->kind == TypeKind::Function && callee.type->callee.kind == CalleeKind::Builtin &&
      std::string_view(BuiltinTable()[callee.type->callee.index].name) == "static")
    python_fold_ = true;
  for (const ast::ExprPtr& a : c.args) {
    CallArg arg{a.get(), CheckExpr(a.get()), "", a->range, {}};
    args.push_back(arg);
  }
  for (const ast::Keyword& kw : c.keywords) {
    CallArg arg{kw.value.get(), CheckExpr(kw.value.get()), kw.name, kw.range, kw.name_range};
    args.push_back(arg);
  }
  python_fold_ = saved_python;
  mapped_lambda_ = saved_lambda;
  if (poisoned) return Poison();
  const Type* t = callee.type;
  if (t->kind == TypeKind::Function) {
    switch (t->callee.kind) {
      case CalleeKind::Builtin:
        // wp.min, wp.max, wp.abs of vectors and matrices are the component-wise builtins.
        if (!args.empty() && CompositeOf(args[0].info.type) && CompositeFnIndex(BuiltinTable()[t->callee.index].name) >= 0)
          return CompositeCall(CompositeOp(CompositeFnIndex(BuiltinTable()[t->callee.index].name)), &c,
                               BuiltinTable()[t->callee.index].name, args);
        return CallBuiltin(BuiltinTable()[t->callee.index], &c, c.func->range, std::move(args));
      case CalleeKind::UserFunc: return CallUserFunc(t->callee.index, &c, c.func->range, std::move(args));
      case CalleeKind::Composite: {
        const auto* attr = c.func->As<ast::Attribute>();
        return CompositeCall(CompositeOp(t->callee.index), &c, attr ? attr->attr : Text(c.func.get()), args);
      }
      case CalleeKind::Overloads: return CallOverloads(t->callee.index, &c, c.func->range, args);
      case CalleeKind::Lambda: return Poison();  // CheckLambda reported it
      case CalleeKind::Kernel:
        Error(Code::KernelCalledFromKernel, c.func->range,
              "kernel `" + out_.kernels[t->callee.index].name +
                  "` cannot be called from kernel code; launch it from the host");
        return Poison();
    }
  }
  if (t->kind == TypeKind::TypeRef && t->referent->IsScalar()) {
    if (args.size() != 1 || !args[0].keyword.empty()) {
      Error(Code::InvalidCast, c.range, "a cast to `" + TypeName(t->referent) + "` takes exactly one value");
      return Poison();
    }
    if (!args[0].info.type->IsError() && !args[0].info.type->IsScalar()) {
      Error(Code::InvalidCast, args[0].range,
            "cannot cast `" + TypeName(args[0].info.type) + "` to `" + TypeName(t->referent) + "`; casts take a scalar");
      return Poison();
    }
    ExprInfo r = CallBuiltin(OperatorBuiltin("cast"), &c, c.func->range, std::move(args));
    auto it = out_.call_info.find(&c);
    if (it != out_.call_info.end()) it->second.cast_target = t->referent;
    if (r.type->IsError()) return r;
    const ExprInfo& src = out_.expr_info[c.args[0].get()];
    r.type = t->referent;
    r.weak = false;
    if (src.value && src.value->IsNumber()) {
      ScalarType s = t->referent->scalar;
      if (s == ScalarType::Bool) r.value = ConstValue::MakeBool(src.value->Truthy());
      else if (IsFloat(s)) r.value = InScalarType(*src.value, s);
      else r.value = ConstValue::MakeInt(src.value->AsInt());
    }
    return r;
  }
  if (t->kind == TypeKind::TypeRef && CompositeOf(t->referent)) return CompositeCtor(c, t->referent, args);
  if (t->kind == TypeKind::TypeRef && t->referent->kind == TypeKind::Struct) {
    // `S()` is zeroed; `S(a, b)` and `S(x=a)` set fields in order or by name, as Warp's
    // struct constructors do, the others zeroed.
    if (RejectArrayStruct(t->referent, c.range, "constructed in kernel code")) return Poison();
    const StructInfo& si = out_.structs[size_t(t->referent->struct_index)];
    CallInfo ci;
    ci.kind = CallInfo::Kind::StructCtor;
    ci.struct_index = t->referent->struct_index;
    ci.args.assign(si.fields.size(), nullptr);
    size_t pos = 0;
    bool ok = true;
    for (CallArg& a : args) {
      size_t k = si.fields.size();
      if (a.keyword.empty()) {
        k = pos++;
      } else {
        for (size_t f = 0; f < si.fields.size(); ++f)
          if (si.fields[f].name == a.keyword) k = f;
        if (k == si.fields.size()) {
          Error(Code::UnknownKeyword, a.name_range, "struct `" + si.name + "` has no field `" + a.keyword + "`");
          ok = false;
          continue;
        }
      }
      if (k >= si.fields.size()) {
        Error(Code::TooManyArguments, a.range,
              "struct `" + si.name + "` has " + std::to_string(si.fields.size()) + " field" +
                  (si.fields.size() == 1 ? "" : "s") + ", got " + std::to_string(args.size()) + " arguments");
        return Poison();
      }
      if (ci.args[k]) {
        Error(Code::DuplicateArgument, a.range, "field `" + si.fields[k].name + "` of `" + si.name + "` is given twice");
        ok = false;
        continue;
      }
      ci.args[k] = a.expr;
      if (a.info.type->IsError()) { ok = false; continue; }
      if (!Convert(a.expr, a.info, si.fields[k].type)) {
        Error(Code::ArgumentTypeMismatch, a.range,
              "field `" + si.fields[k].name + "` of `" + si.name + "` is `" + TypeName(si.fields[k].type) + "`, found `" +
                  TypeName(a.info.type) + "`");
        ok = false;
      }
    }
    if (!ok) return Poison();
    out_.call_info[&c] = ci;
    ExprInfo r;
    r.type = t->referent;
    for (const CallArg& a : args) r.uniform &= a.info.uniform;
    r.provenance = Provenance{"`" + Text(&c) + "` is a struct value", c.range, true};
    return r;
  }
  Error(Code::NotCallable, c.func->range, "`" + Text(c.func.get()) + "` of type `" + TypeName(t) + "` is not callable");
  return Poison();
}

ExprInfo Checker::CallUserFunc(int index, const ast::Expr* node, SourceRange callee_range, std::vector<CallArg> args) {
  if (func_state_[index] == 1) {
    Error(Code::RecursiveCall, callee_range,
          "`" + out_.funcs[index].name + "` calls itself; recursion is not supported in kernels");
    return Poison();
  }
  if (!out_.funcs[size_t(index)].is_generic()) EnsureFuncChecked(index);
  const FunctionInfo* fp = &out_.funcs[size_t(index)];
  const FunctionInfo& f = *fp;
  const ast::FunctionDef& def = *f.def;
  std::vector<int> bound(f.num_params, -1);
  size_t pos = 0;
  bool ok = true;
  for (size_t i = 0; i < args.size(); ++i) {
    int p = -1;
    if (args[i].keyword.empty()) {
      if (pos >= size_t(f.num_params)) {
        Error(Code::TooManyArguments, args[i].range,
              "`" + f.name + "` takes " + std::to_string(f.num_params) + " argument" +
                  (f.num_params == 1 ? "" : "s") + ", got " + std::to_string(args.size()));
        return Poison();
      }
      p = int(pos++);
    } else {
      for (int k = 0; k < f.num_params; ++k)
        if (f.Param(k)->name == args[i].keyword) p = k;
      if (p < 0) {
        Error(Code::UnknownKeyword, args[i].name_range, "`" + f.name + "` has no parameter `" + args[i].keyword + "`");
        ok = false;
        continue;
      }
      if (bound[p] >= 0) {
        Error(Code::DuplicateArgument, args[i].name_range, "argument `" + args[i].keyword + "` of `" + f.name + "` is given twice");
        ok = false;
        continue;
      }
    }
    bound[p] = int(i);
  }
  for (int k = 0; ok && k < f.num_params; ++k) {
    if (bound[k] >= 0 || def.params[k].default_value) continue;
    Error(Code::MissingArgument, callee_range, "call of `" + f.name + "` is missing argument `" + f.Param(k)->name + "`");
    ok = false;
  }
  if (ok && f.is_generic()) {
    // Warp's generic func: the instance for the arguments' types, which then type them as
    // any func's parameters do.
    std::vector<const Type*> types(size_t(f.num_params), nullptr);
    std::vector<SourceRange> ranges(size_t(f.num_params));
    for (int k = 0; k < f.num_params; ++k)
      if (bound[size_t(k)] >= 0) {
        types[size_t(k)] = args[size_t(bound[size_t(k)])].info.type;
        ranges[size_t(k)] = args[size_t(bound[size_t(k)])].range;
      }
    index = FuncInstance(index, types, callee_range, &ranges);
    if (index < 0) return Poison();
    if (func_state_[size_t(index)] == 1) {
      Error(Code::RecursiveCall, callee_range, "`" + f.name + "` calls itself; recursion is not supported in kernels");
      return Poison();
    }
    fp = &out_.funcs[size_t(index)];
    if (fp->has_errors) return Poison();  // reported in the instance's body
  }
  return CallUserFuncBound(index, *fp, node, args, bound, ok);
}

ExprInfo Checker::CallUserFuncBound(int index, const FunctionInfo& f, const ast::Expr* node, std::vector<CallArg>& args,
                                    const std::vector<int>& bound, bool ok) {
  CallInfo ci;
  ci.kind = CallInfo::Kind::UserFunc;
  ci.func_index = index;
  ExprInfo out;
  out.provenance = Provenance{"`" + Text(node) + "` is computed at run time", node->range, true};
  for (int k = 0; k < f.num_params; ++k) {
    if (bound[k] < 0) {
      ci.args.push_back(nullptr);
      continue;
    }
    CallArg& a = args[bound[k]];
    ci.args.push_back(a.expr);
    const Type* pt = f.Param(k)->type;
    out.uniform &= a.info.uniform;
    if (a.info.type->IsError() || pt->IsError()) { ok = false; continue; }
    if (!Convert(a.expr, a.info, pt)) {
      Error(Code::ArgumentTypeMismatch, a.range,
            "argument `" + f.Param(k)->name + "` of `" + f.name + "` must be `" + TypeName(pt) + "`, found `" +
                TypeName(a.info.type) + "`");
      ok = false;
    }
  }
  if (fn_) {
    fn_->called_funcs.push_back(index);
    if (f.tiled) MarkTileOp(node, "the call of `" + f.name + "`, which uses tile operations,", args);
  }
  out_.call_info[node] = ci;
  if (!ok || !f.return_type || f.return_type->IsError()) return Poison();
  out.type = f.return_type;
  return out;
}

void Checker::MarkTileOp(const ast::Expr* node, const std::string& what, const std::vector<CallArg>& args,
                         bool per_lane) {
  if (!fn_) return;
  fn_->tiled = true;
  // Reading one element is each lane's own business (the tile itself was made where every
  // lane was): Warp's examples extract under a lane's condition, and so may we.
  if (per_lane) return;
  if (InVaryingRegion()) {
    const ast::Expr* cond = varying_conds_.back();
    auto b = Error(Code::NonUniformTileOp, node->range,
                   what + " must be reached by every thread of the block, but it is under `" +
                       Text(cond) + "`, which may differ between threads");
    b.AddNote(file(), cond->range, "this condition may differ between the threads of a block");
    NoteVarying(b, cond);
    return;
  }
  if (varying_return_) {
    auto b = Error(Code::NonUniformTileOp, node->range,
                   what + " must be reached by every thread of the block, but the `return` on line " +
                       std::to_string(Line(varying_return_->range)) + " is under `" + Text(varying_return_cond_) +
                       "`, which may differ between threads");
    b.AddNote(file(), varying_return_->range, "some threads may return here");
    NoteVarying(b, varying_return_cond_);
    return;
  }
  // A tile operation in a loop is checked again when the loop ends: a varying `break` or
  // `continue` anywhere in it makes the loop's trip count differ between lanes.
  if (!loop_uniformity_.empty() && loop_uniformity_.back().exit) {
    const LoopUniformity& l = loop_uniformity_.back();
    auto b = Error(Code::NonUniformTileOp, node->range,
                   what + " must be reached by every thread of the block, but the `" + std::string(l.exit->Is<ast::Break>() ? "break" : "continue") +
                       "` on line " + std::to_string(Line(l.exit->range)) + " is under `" + Text(l.exit_cond) +
                       "`, which may differ between threads, so the lanes leave the loop at different trips");
    b.AddNote(file(), l.exit->range, "some threads may leave the loop here");
    NoteVarying(b, l.exit_cond);
    return;
  }
  for (LoopUniformity& l : loop_uniformity_) l.tile_ops.push_back({node, what});
  // A lane-varying argument is allowed: the operation reads lane 0's value (LANGUAGE.md §4).
  (void)args;
}

// ---------------------------------------------------------------- builtins

ExprInfo Checker::CallBuiltin(const Builtin& b, const ast::Expr* node, SourceRange callee_range,
                              std::vector<CallArg> args) {
  std::string bname = "`" + b.Spelling() + "`";
  if (b.op_spelling) bname = b.op_spelling;
  // Keywords no overload knows.
  std::set<std::string> known;
  for (const Overload& ov : b.overloads)
    for (const ParamSpec& p : ov.params) known.insert(p.name);
  bool bad_keyword = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].keyword.empty() || known.count(args[i].keyword)) continue;
    std::string list;
    for (const ParamSpec& p : b.overloads[0].params) list += std::string(list.empty() ? "" : ", ") + "`" + p.name + "`";
    if (b.overloads.size() > 1)
      for (const Overload& ov : b.overloads)
        for (const ParamSpec& p : ov.params)
          if (list.find(std::string("`") + p.name + "`") == std::string::npos) list += std::string(", `") + p.name + "`";
    Error(Code::UnknownKeyword, args[i].name_range,
          "unknown keyword `" + args[i].keyword + "` of " + bname + (list.empty() ? "" : " (expected " + list + ")"));
    bad_keyword = true;
  }
  if (bad_keyword) return Poison();

  // Overload resolution: the first row whose patterns all match.
  const Overload* ov = nullptr;
  Binding bind;
  std::vector<Binding> binds;
  for (const Overload& o : b.overloads) {
    binds.push_back(Bind(o, args));
    if (binds.back().fail == Binding::Fail::None) {
      ov = &o;
      bind = binds.back();
      break;
    }
  }
  if (!ov) {
    // Report against the closest row: a pattern mismatch beats a missing argument beats
    // too many arguments.
    const Binding* best = nullptr;
    const Overload* best_ov = nullptr;
    auto rank = [](const Binding& x) {
      switch (x.fail) {
        // A keyword this row lacks (tile_randf's `min` without `max`): the row that has it,
        // and says what else it needs, explains the call better.
        case Binding::Fail::Pattern: return x.fail_param < 0 ? 3 : 0;
        case Binding::Fail::Duplicate: return 1;
        case Binding::Fail::Missing: return 2;
        case Binding::Fail::TooMany:
        case Binding::Fail::None: return 3;
      }
      return 3;
    };
    for (size_t i = 0; i < binds.size(); ++i)
      if (!best || rank(binds[i]) < rank(*best) ||
          (rank(binds[i]) == rank(*best) && binds[i].mismatches < best->mismatches) ||
          // Too many positional arguments: the row taking the most points at the first extra one.
          (rank(binds[i]) == rank(*best) && binds[i].fail == Binding::Fail::TooMany &&
           best->fail == Binding::Fail::TooMany && binds[i].fail_arg > best->fail_arg)) {
        best = &binds[i];
        best_ov = &b.overloads[i];
      }
    switch (best->fail) {
      case Binding::Fail::Pattern: {
        const CallArg& a = args[best->fail_arg];
        if (a.info.type->IsError()) return Poison();
        std::string pname = best->fail_param >= 0 ? best_ov->params[best->fail_param].name : a.keyword;
        std::string expected;
        std::set<ArgPattern> seen;
        for (const Overload& o : b.overloads)
          for (const ParamSpec& p : o.params)
            if (p.name == pname && seen.insert(p.pattern).second)
              expected += std::string(expected.empty() ? "" : " or ") + PatternText(p.pattern);
        std::string found = a.info.value && a.info.value->kind != ConstValue::Kind::None
                                ? "`" + FormatConst(*a.info.value) + "`"
                                : "`" + TypeName(a.info.type) + "`";
        Error(Code::ArgumentTypeMismatch, a.range,
              "argument `" + pname + "` of " + bname + " must be " + expected + ", found " + found);
        return Poison();
      }
      case Binding::Fail::Duplicate:
        Error(Code::DuplicateArgument, args[best->fail_arg].name_range,
              "argument `" + std::string(best_ov->params[best->fail_param].name) + "` of " + bname +
                  " is given twice");
        return Poison();
      case Binding::Fail::Missing:
        Error(Code::MissingArgument, callee_range,
              bname + " is missing required argument `" + best_ov->params[best->fail_param].name + "`");
        return Poison();
      case Binding::Fail::None:  // not reached: a row that bound is chosen above
      case Binding::Fail::TooMany: {
        size_t most = 0;
        for (const Overload& o : b.overloads)
          most = std::max(most, o.positional >= 0 ? size_t(o.positional) : o.params.size());
        size_t npos = 0;
        for (const CallArg& a : args) npos += a.keyword.empty();
        Error(Code::TooManyArguments, args[best->fail_arg].range,
              bname + " takes at most " + std::to_string(most) + " positional argument" + (most == 1 ? "" : "s") +
                  ", got " + std::to_string(npos));
        return Poison();
      }
    }
  }

  // Compile-time and type parameters; defaults.
  CallInfo ci;
  ci.kind = CallInfo::Kind::Builtin;
  ci.builtin = &b;
  ci.overload = ov;
  bool failed = false;
  int array_param = ov->Index(Param::A);
  for (size_t k = 0; k < ov->params.size(); ++k) {
    const ParamSpec& ps = ov->params[k];
    int ai = bind.param_arg[k];
    ci.args.push_back(ai >= 0 ? args[ai].expr : nullptr);
    std::optional<ConstValue> cv;
    if (ai >= 0) {
      CallArg& a = args[ai];
      if (a.info.type->IsError()) {
        failed = true;
      } else if (ps.kind != ArgKind::Runtime && !a.info.value) {
        auto d = Error(Code::NotConstant, a.range,
                       "`" + std::string(ps.name) + "` of " + bname + " must be a compile-time constant" +
                           (ps.kind == ArgKind::Type ? " type" : ""));
        NoteProvenance(d, a.info);
        failed = true;
      } else if (ps.kind == ArgKind::Type && a.info.value->kind != ConstValue::Kind::Type) {
        Error(Code::ArgumentTypeMismatch, a.range,
              "argument `" + std::string(ps.name) + "` of " + bname + " must be a scalar or struct type, found `" +
                  FormatConst(*a.info.value) + "`");
        failed = true;
      }
      cv = a.info.value;
    } else {
      switch (ps.def) {
        case DefaultKind::Int: cv = ConstValue::MakeInt(ps.def_int); break;
        case DefaultKind::String: cv = ConstValue::MakeString(ps.def_str); break;
        case DefaultKind::DType: cv = ConstValue::MakeType(types_.Scalar(ps.def_dtype)); break;
        case DefaultKind::ZeroOffset: {
          // The table guarantees the row has an array `a` (Validate in builtins.cpp).
          int aa = bind.param_arg[array_param];
          const Type* at = aa >= 0 ? args[aa].info.type : nullptr;
          std::vector<ConstValue> zeros(at && at->IsArray() ? at->ndim : 0, ConstValue::MakeInt(0));
          cv = ConstValue::MakeTuple(zeros);
          break;
        }
        case DefaultKind::Required: break;
      }
    }
    ci.const_args.push_back(cv);
  }
  for (int ai : bind.extra) {
    ci.args.push_back(args[ai].expr);
    ci.const_args.push_back(args[ai].info.value);
    failed |= args[ai].info.type->IsError();
  }
  if (failed) return Poison();

  CallContext ctx(*this, b, *ov, args, bind.param_arg, bind.extra, ci, node, callee_range, bname);
  for (const RuleSpec* rule : ov->rules) {
    ctx.BeginRule(rule);
    if (!rule->check(ctx)) return Poison();
  }
  ctx.BeginRule(nullptr);

  // Result.
  ExprInfo out;
  out.uniform = true;
  for (const CallArg& a : args) {
    out.uniform &= a.info.uniform;
    if (!out.provenance && !a.info.value && a.info.provenance) out.provenance = a.info.provenance;
  }
  if (!out.provenance) out.provenance = Provenance{"`" + Text(node) + "` is computed at run time", node->range, true};
  if (!ov->result->form(ctx, out)) return Poison();
  if (RejectArrayStruct(out.type, node->range, "the element of a tile")) return Poison();
  if (out.value) out.provenance.reset();
  // Every lane performs its own atomic, so each receives its own previous value.
  if (b.lower.kind == LowerKind::AtomicAdd || b.lower.kind == LowerKind::AtomicRmw) out.uniform = false;

  for (const RuleSpec* rule : ov->rules)
    if (rule->commit) rule->commit(ctx);
  if (b.tile_op) MarkTileOp(node, "tile operation " + bname, args, b.lower.kind == LowerKind::TileExtract);
  out_.call_info[node] = ci;
  return out;
}

}  // namespace tilec::sema
