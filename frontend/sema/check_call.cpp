// Calls: overload resolution against the builtin table, compile-time argument checks with
// provenance, the table's rules (each with its own code, caret under the argument), result
// types, index-tile promotion, calls of @wp.func, casts and struct constructors.
#include <cmath>
#include <set>

#include "frontend/sema/checker.h"

namespace tilec::sema {

using diag::Code;

namespace {

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
  }
  return false;
}

const char* PatternText(ArgPattern p) {
  switch (p) {
    case ArgPattern::Any: return "a value";
    case ArgPattern::Scalar: return "a scalar";
    case ArgPattern::Numeric: return "a number";
    case ArgPattern::Int: return "an int";
    case ArgPattern::Float: return "a float";
    case ArgPattern::IntTuple: return "a tuple of ints";
    case ArgPattern::Array: return "an array";
    case ArgPattern::Tile: return "a tile";
    case ArgPattern::DType: return "a scalar or struct type";
    case ArgPattern::String: return "a string";
    case ArgPattern::Callable: return "a function";
  }
  return "a value";
}

std::string DimsText(const std::vector<int64_t>& d) {
  std::string s = "(";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  if (d.size() == 1) s += ",";
  return s + ")";
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
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].keyword.empty()) continue;
    if (pos < ov.params.size()) {
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
  for (int a : b.extra) check(int(ov.params.size()) - 1, a);
  return b;
}

}  // namespace

// ---------------------------------------------------------------- Call nodes

ExprInfo Checker::CheckCall(const ast::Call& c) {
  ExprInfo callee = CheckExpr(c.func.get());
  std::vector<CallArg> args;
  bool poisoned = callee.type->IsError();
  for (const ast::ExprPtr& a : c.args) {
    CallArg arg{a.get(), CheckExpr(a.get()), "", a->range, {}};
    args.push_back(arg);
  }
  for (const ast::Keyword& kw : c.keywords) {
    CallArg arg{kw.value.get(), CheckExpr(kw.value.get()), kw.name, kw.range, kw.name_range};
    args.push_back(arg);
  }
  if (poisoned) return Poison();
  const Type* t = callee.type;
  if (t->kind == TypeKind::Function) {
    switch (t->callee.kind) {
      case CalleeKind::Builtin:
        return CallBuiltin(BuiltinTable()[t->callee.index], &c, c.func->range, std::move(args));
      case CalleeKind::UserFunc: return CallUserFunc(t->callee.index, c, std::move(args));
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
      else if (IsFloat(s)) r.value = ConstValue::MakeFloat(src.value->AsDouble());
      else r.value = ConstValue::MakeInt(src.value->AsInt());
    }
    return r;
  }
  if (t->kind == TypeKind::TypeRef && t->referent->kind == TypeKind::Struct) {
    if (!args.empty()) {
      Error(Code::TooManyArguments, args[0].range,
            "struct `" + t->referent->struct_name + "` is constructed without arguments; assign its fields");
      return Poison();
    }
    CallInfo ci;
    ci.kind = CallInfo::Kind::StructCtor;
    ci.struct_index = t->referent->struct_index;
    out_.call_info[&c] = ci;
    ExprInfo r;
    r.type = t->referent;
    r.provenance = Provenance{"`" + Text(&c) + "` is a struct value", c.range, true};
    return r;
  }
  Error(Code::NotCallable, c.func->range, "`" + Text(c.func.get()) + "` of type `" + TypeName(t) + "` is not callable");
  return Poison();
}

ExprInfo Checker::CallUserFunc(int index, const ast::Call& c, std::vector<CallArg> args) {
  if (func_state_[index] == 1) {
    Error(Code::RecursiveCall, c.func->range,
          "`" + out_.funcs[index].name + "` calls itself; recursion is not supported in kernels");
    return Poison();
  }
  EnsureFuncChecked(index);
  const FunctionInfo& f = out_.funcs[index];
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
    Error(Code::MissingArgument, c.func->range, "call of `" + f.name + "` is missing argument `" + f.Param(k)->name + "`");
    ok = false;
  }
  CallInfo ci;
  ci.kind = CallInfo::Kind::UserFunc;
  ci.func_index = index;
  ExprInfo out;
  out.provenance = Provenance{"`" + Text(&c) + "` is computed at run time", c.range, true};
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
    if (f.tiled) MarkTileOp(&c, "the call of `" + f.name + "`, which uses tile operations,", args);
  }
  out_.call_info[&c] = ci;
  if (!ok || !f.return_type || f.return_type->IsError()) return Poison();
  out.type = f.return_type;
  return out;
}

void Checker::MarkTileOp(const ast::Expr* node, const std::string& what, const std::vector<CallArg>& args) {
  if (!fn_) return;
  if (!fn_->tiled) {
    fn_->tiled = true;
    fn_->first_tile_op = node->range;
  }
  if (InVaryingRegion()) {
    const ast::Expr* cond = varying_conds_.back();
    auto b = Error(Code::NonUniformTileOp, node->range,
                   what + " must be reached by every thread of the block, but it is under `" +
                       Text(cond) + "`, which may differ between threads");
    b.AddNote(file(), cond->range, "this condition may differ between the threads of a block");
    return;
  }
  for (const CallArg& a : args) {
    if (a.info.uniform || a.info.type->IsError() || a.info.type->IsTile()) continue;
    Error(Code::NonUniformTileArgument, a.range,
          "argument `" + Text(a.expr) + "` of " + what + " may differ between the threads of a block; tile operations need block-uniform arguments");
    return;
  }
}

// ---------------------------------------------------------------- builtins

ExprInfo Checker::CallBuiltin(const Builtin& b, const ast::Expr* node, SourceRange callee_range,
                              std::vector<CallArg> args) {
  std::string bname = "`" + b.Spelling() + "`";
  if (std::string(b.ns) == "op") bname = b.Spelling();
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
        case Binding::Fail::Pattern: return 0;
        case Binding::Fail::Duplicate: return 1;
        case Binding::Fail::Missing: return 2;
        default: return 3;
      }
    };
    for (size_t i = 0; i < binds.size(); ++i)
      if (!best || rank(binds[i]) < rank(*best) ||
          (rank(binds[i]) == rank(*best) && binds[i].mismatches < best->mismatches)) {
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
      default: {
        size_t most = 0;
        for (const Overload& o : b.overloads) most = std::max(most, o.params.size());
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
  auto pidx = [&](const char* name) {
    for (size_t k = 0; k < ov->params.size(); ++k)
      if (std::string(ov->params[k].name) == name) return int(k);
    return -1;
  };
  auto arg_of = [&](const char* name) -> CallArg* {
    int p = pidx(name);
    return p >= 0 && bind.param_arg[p] >= 0 ? &args[bind.param_arg[p]] : nullptr;
  };
  auto type_of = [&](const char* name) -> const Type* {
    CallArg* a = arg_of(name);
    return a ? a->info.type : nullptr;
  };
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
          const Type* at = type_of("a");
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
  auto cval = [&](const char* name) -> const ConstValue* {
    int p = pidx(name);
    return p >= 0 && ci.const_args[p] ? &*ci.const_args[p] : nullptr;
  };
  auto range_of = [&](const char* name) { CallArg* a = arg_of(name); return a ? a->range : callee_range; };
  auto shape_dims = [&](const char* name, std::vector<int64_t>& dims) {
    const ConstValue* v = cval(name);
    dims.clear();
    if (!v) return false;
    if (v->kind == ConstValue::Kind::Int) { dims.push_back(v->i); return true; }
    if (v->kind != ConstValue::Kind::Tuple) return false;
    for (const ConstValue& e : v->elems) {
      if (e.kind != ConstValue::Kind::Int) return false;
      dims.push_back(e.i);
    }
    return true;
  };
  auto rank_of = [&](const char* name) -> int {
    const Type* t = type_of(name);
    if (!t) {
      const ConstValue* v = cval(name);
      if (v && v->kind == ConstValue::Kind::Tuple) return int(v->elems.size());
      return v ? 1 : -1;
    }
    if (t->kind == TypeKind::Tuple) return int(t->elems.size());
    if (t->IsTile()) return t->ndim;
    return 1;
  };
  if (failed) return Poison();

  const Type* array = type_of("a");
  std::vector<int64_t> dims;
  const Type* map_elem = nullptr;
  const Type* common = nullptr;
  int64_t arange_len = 0;
  std::string aname = arg_of("a") ? "`" + Text(arg_of("a")->expr) + "`" : "";
  for (Rule rule : ov->rules) {
    if (failed) break;
    switch (rule) {
      case Rule::ShapeValid: {
        bool ints = shape_dims("shape", dims);
        bool ok = ints && !dims.empty() && dims.size() <= 4;
        for (int64_t d : dims) ok &= d > 0;
        if (!ok) {
          Error(Code::InvalidTileShape, range_of("shape"),
                "a tile shape is 1 to 4 positive ints, found `" + FormatConst(*cval("shape")) + "`");
          failed = true;
        }
        break;
      }
      case Rule::StorageValid: {
        const ConstValue* s = cval("storage");
        if (s && s->kind == ConstValue::Kind::String && s->s != "register" && s->s != "shared") {
          Error(Code::InvalidStorage, range_of("storage"),
                "invalid storage `" + FormatConst(*s) + "` (expected `'register'` or `'shared'`)");
          failed = true;
        }
        break;
      }
      case Rule::ShapeRankEqArray:
        if (int(dims.size()) != array->ndim) {
          Error(Code::ShapeRankMismatch, range_of("shape"),
                "`shape` has " + std::to_string(dims.size()) + " dimension" + (dims.size() == 1 ? "" : "s") +
                    " but array " + aname + " has " + std::to_string(array->ndim));
          failed = true;
        }
        break;
      case Rule::OffsetRankEqArray: {
        int r = rank_of("offset");
        if (arg_of("offset") && r != array->ndim) {
          Error(Code::OffsetRankMismatch, range_of("offset"),
                "`offset` has " + std::to_string(r) + " entr" + (r == 1 ? "y" : "ies") + " but array " + aname +
                    " has " + std::to_string(array->ndim) + " dimension" + (array->ndim == 1 ? "" : "s"));
          failed = true;
        }
        break;
      }
      case Rule::TileRankEqArray:
        if (type_of("t")->ndim != array->ndim) {
          Error(Code::TileRankMismatch, range_of("t"),
                "tile `" + Text(arg_of("t")->expr) + "` has " + std::to_string(type_of("t")->ndim) +
                    " dimension" + (type_of("t")->ndim == 1 ? "" : "s") + " but array " + aname + " has " +
                    std::to_string(array->ndim));
          failed = true;
        }
        break;
      case Rule::DTypeEq:
        if (type_of("t")->elem != array->elem) {
          Error(Code::DTypeMismatch, range_of("t"),
                "dtype mismatch: array " + aname + " holds `" + ElemName(array->elem, array->elem_struct_name) +
                    "` but tile `" + Text(arg_of("t")->expr) + "` holds `" +
                    ElemName(type_of("t")->elem, type_of("t")->elem_struct_name) + "`");
          failed = true;
        }
        break;
      case Rule::AtomicDType: {
        ElemType e = type_of("t")->elem;
        if (!e.is_struct() && !SupportsAtomicAdd(e.scalar)) {
          Error(Code::AtomicAddUnsupportedDType, range_of("t"),
                bname + " does not support `" + std::string(ScalarName(e.scalar)) +
                    "`; atomic add supports int32, uint32, int64, uint64, float16, bfloat16, float32 and float64");
          failed = true;
        }
        break;
      }
      case Rule::AxisInRange: {
        int64_t axis = cval("axis") ? cval("axis")->AsInt() : 0;
        if (axis < 0 || axis >= array->ndim) {
          Error(Code::AxisOutOfRange, range_of("axis"),
                "`axis` is " + std::to_string(axis) + " but array " + aname + " has " + std::to_string(array->ndim) +
                    " dimension" + (array->ndim == 1 ? "" : "s") + " (expected 0" +
                    (array->ndim > 1 ? " to " + std::to_string(array->ndim - 1) : "") + ")");
          failed = true;
        }
        break;
      }
      case Rule::IndexTile: {
        const Type* it = type_of("indices");
        int64_t axis = cval("axis") ? cval("axis")->AsInt() : 0;
        std::string iname = "`" + Text(arg_of("indices")->expr) + "`";
        if (it->ndim != 1) {
          Error(Code::IndexTileNot1D, range_of("indices"),
                "index tile " + iname + " must be 1-D, found `" + TypeName(it) + "`");
          failed = true;
        } else if (it->elem.is_struct() || it->elem.scalar != ScalarType::Int32) {
          Error(Code::IndexTileNotInt32, range_of("indices"),
                "index tile " + iname + " must hold `int32`, found `" + ElemName(it->elem, it->elem_struct_name) + "`");
          failed = true;
        } else {
          bool from_shape = pidx("shape") >= 0;
          int64_t want = from_shape ? (axis < int64_t(dims.size()) ? dims[axis] : -1)
                                    : (axis < type_of("t")->ndim ? type_of("t")->shape[axis] : -1);
          if (want >= 0 && it->shape[0] != want) {
            Error(Code::IndexTileLengthMismatch, range_of("indices"),
                  "index tile " + iname + " holds " + std::to_string(it->shape[0]) + " values but " +
                      (from_shape ? "`shape[" : "`t.shape[") + std::to_string(axis) + "]` is " + std::to_string(want));
            failed = true;
          }
        }
        break;
      }
      case Rule::ArangeLength: {
        const ConstValue* s0 = cval("start");
        const ConstValue* s1 = cval("stop");
        const ConstValue* st = cval("step");
        bool is_float = (s0 && s0->kind == ConstValue::Kind::Float) || s1->kind == ConstValue::Kind::Float ||
                        (st && st->kind == ConstValue::Kind::Float);
        double start = s0 ? s0->AsDouble() : 0, stop = s1->AsDouble(), step = st ? st->AsDouble() : 1;
        if (step == 0) {
          Error(Code::EmptyArange, range_of("step"), "`step` of " + bname + " must not be zero");
          failed = true;
          break;
        }
        if (is_float) {
          arange_len = int64_t(std::ceil((stop - start) / step));
        } else {
          int64_t a0 = s0 ? s0->AsInt() : 0, a1 = s1->AsInt(), sp = st ? st->AsInt() : 1;
          arange_len = sp > 0 ? (a1 > a0 ? (a1 - a0 + sp - 1) / sp : 0) : (a0 > a1 ? (a0 - a1 - sp - 1) / -sp : 0);
        }
        if (arange_len <= 0) {
          std::string range = "range(" + (s0 ? FormatConst(*s0) + ", " : "") + FormatConst(*s1) +
                              (st ? ", " + FormatConst(*st) : "") + ")";
          Error(Code::EmptyArange, range_of("stop"),
                bname + " of `" + range + "` is empty (length " + std::to_string(std::max<int64_t>(arange_len, 0)) +
                    "); a tile needs at least one element");
          failed = true;
        }
        break;
      }
      case Rule::ScalarDTypeOnly: {
        const ConstValue* d = cval("dtype");
        if (d && d->type && d->type->kind == TypeKind::Struct) {
          Error(Code::StructTileUnsupported, range_of("dtype"),
                bname + " does not support struct dtype `" + d->type->struct_name + "`" +
                    (std::string(b.name) == "tile_ones" ? "; use `wp.tile_full` with a value" : ""));
          failed = true;
        }
        break;
      }
      case Rule::FullValue: {
        const Type* dt = cval("dtype")->type;
        CallArg* v = arg_of("value");
        if (!Convert(v->expr, v->info, dt)) {
          Error(Code::ArgumentTypeMismatch, v->range,
                "`value` of " + bname + " must be `" + TypeName(dt) + "` (the tile's dtype), found `" +
                    TypeName(v->info.type) + "`");
          failed = true;
        }
        break;
      }
      case Rule::NumericTile:
        for (CallArg& a : args) {
          if (!a.info.type->IsTile()) continue;
          if (a.info.type->elem.is_struct()) {
            Error(Code::StructTileUnsupported, a.range,
                  bname + " is not defined for tiles of struct `" + a.info.type->elem_struct_name + "`");
            failed = true;
          } else if (a.info.type->elem.scalar == ScalarType::Bool) {
            Error(Code::TileOperatorUnsupported, a.range, bname + " is not defined for `bool` tiles");
            failed = true;
          }
          break;
        }
        break;
      case Rule::TilesSameShape:
        if (args[0].info.type->shape != args[1].info.type->shape) {
          Error(Code::TileShapeMismatch, args[1].range,
                "shape mismatch in " + bname + ": `" + DimsText(args[0].info.type->shape) + "` and `" +
                    DimsText(args[1].info.type->shape) + "`");
          failed = true;
        }
        break;
      case Rule::TilesSameDType:
        if (args[0].info.type->elem != args[1].info.type->elem) {
          Error(Code::TileDTypeMismatch, args[1].range,
                "dtype mismatch in " + bname + ": `" + ElemName(args[0].info.type->elem, "") + "` and `" +
                    ElemName(args[1].info.type->elem, "") + "`");
          failed = true;
        }
        break;
      case Rule::ScalarMatchesTile: {
        CallArg& tile = args[0].info.type->IsTile() ? args[0] : args[1];
        CallArg& scalar = args[0].info.type->IsTile() ? args[1] : args[0];
        const Type* et = types_.FromElem(tile.info.type->elem);
        if (!Convert(scalar.expr, scalar.info, et)) {
          Error(Code::TileDTypeMismatch, scalar.range,
                "scalar `" + Text(scalar.expr) + "` of type `" + TypeName(scalar.info.type) +
                    "` does not match the tile's dtype `" + TypeName(et) + "`");
          failed = true;
        }
        break;
      }
      case Rule::TileIndexCount: {
        const Type* tt = args[0].info.type;
        CallArg& ia = args[1];
        std::vector<const ast::Expr*> idx;
        if (const auto* tup = ia.expr->As<ast::Tuple>()) {
          for (const ast::ExprPtr& e : tup->elts) idx.push_back(e.get());
        } else {
          idx.push_back(ia.expr);
        }
        if (int(idx.size()) != tt->ndim) {
          Error(Code::TileIndexCount, ia.range,
                "tile `" + Text(args[0].expr) + "` has " + std::to_string(tt->ndim) + " dimension" +
                    (tt->ndim == 1 ? "" : "s") + " but is indexed with " + std::to_string(idx.size()) + " index" +
                    (idx.size() == 1 ? "" : "es"));
          failed = true;
          break;
        }
        for (const ast::Expr* e : idx) {
          ExprInfo ei = out_.expr_info[e];
          if (ei.type->IsError()) { failed = true; break; }
          if (!ei.type->IsInt() && !Convert(e, ei, types_.Int32())) {
            Error(Code::TileIndexCount, e->range, "a tile index must be an integer, found `" + TypeName(ei.type) + "`");
            failed = true;
            break;
          }
        }
        break;
      }
      case Rule::TileMapArgs: {
        const Type* ft = type_of("f");
        std::vector<CallArg*> tiles;
        tiles.push_back(arg_of("a"));
        for (int ai : bind.extra) tiles.push_back(&args[ai]);
        for (CallArg* t : tiles) {
          if (!t->info.type->IsTile()) {
            Error(Code::BadTileMap, t->range, "`wp.tile_map` maps over tiles, found `" + TypeName(t->info.type) + "`");
            failed = true;
          } else if (t->info.type->shape != tiles[0]->info.type->shape) {
            Error(Code::TileShapeMismatch, t->range,
                  "shape mismatch in `wp.tile_map`: `" + DimsText(tiles[0]->info.type->shape) + "` and `" +
                      DimsText(t->info.type->shape) + "`");
            failed = true;
          }
        }
        if (failed) break;
        std::vector<const Type*> elems;
        for (CallArg* t : tiles) elems.push_back(types_.FromElem(t->info.type->elem));
        CallArg* fa = arg_of("f");
        if (ft->callee.kind == CalleeKind::UserFunc) {
          EnsureFuncChecked(ft->callee.index);
          const FunctionInfo& f = out_.funcs[ft->callee.index];
          bool ok = f.num_params == int(elems.size());
          for (int k = 0; ok && k < f.num_params; ++k) ok = f.Param(k)->type == elems[k];
          if (!ok || !f.return_type || !(f.return_type->IsScalar() || f.return_type->kind == TypeKind::Struct)) {
            std::string want = "(";
            for (size_t k = 0; k < elems.size(); ++k) want += (k ? ", " : "") + TypeName(elems[k]);
            Error(Code::BadTileMap, fa->range,
                  "`" + f.name + "` cannot be mapped over tiles of " + want +
                      "): it must take one parameter of each tile's element type and return a scalar or struct");
            failed = true;
            break;
          }
          map_elem = f.return_type;
          if (fn_) fn_->called_funcs.push_back(ft->callee.index);
        } else {
          const Builtin& mb = BuiltinTable()[ft->callee.index];
          const Overload* mo = nullptr;
          for (const Overload& o : mb.overloads) {
            if (o.params.size() != elems.size() ||
                (o.result != ResultRule::SameAsFirst && o.result != ResultRule::CommonNumeric))
              continue;
            bool ok = true;
            for (size_t k = 0; k < elems.size(); ++k)
              ok &= PatternMatches(o.params[k].pattern, elems[k]) && elems[k] == elems[0];
            if (ok) mo = &o;
          }
          if (!mo) {
            Error(Code::BadTileMap, fa->range,
                  "`" + mb.Spelling() + "` cannot be mapped over " + std::to_string(elems.size()) + " tile" +
                      (elems.size() == 1 ? "" : "s") + " of `" + TypeName(elems[0]) + "`");
            failed = true;
            break;
          }
          map_elem = elems[0];
        }
        break;
      }
      case Rule::AtomicIndexRank: {
        int nidx = int(ov->params.size()) - 2;
        CallArg* v = arg_of("value");
        if (array->ndim != nidx) {
          Error(Code::BadIndex, range_of("a"),
                "array " + aname + " has " + std::to_string(array->ndim) + " dimension" +
                    (array->ndim == 1 ? "" : "s") + " but `wp.atomic_add` got " + std::to_string(nidx) + " index" +
                    (nidx == 1 ? "" : "es"));
          failed = true;
        } else if (!array->elem.is_struct() && !SupportsAtomicAdd(array->elem.scalar)) {
          Error(Code::AtomicAddUnsupportedDType, range_of("a"),
                "`wp.atomic_add` does not support `" + std::string(ScalarName(array->elem.scalar)) +
                    "`; atomic add supports int32, uint32, int64, uint64, float16, bfloat16, float32 and float64");
          failed = true;
        } else if (!Convert(v->expr, v->info, types_.FromElem(array->elem))) {
          Error(Code::ArgumentTypeMismatch, v->range,
                "`value` of `wp.atomic_add` must be `" + ElemName(array->elem, array->elem_struct_name) +
                    "` (the array's dtype), found `" + TypeName(v->info.type) + "`");
          failed = true;
        }
        break;
      }
      case Rule::CommonNumericArgs: {
        for (CallArg& a : args)
          if (!a.info.weak) { common = a.info.type; break; }
        if (!common) {
          common = types_.Int32();
          for (CallArg& a : args)
            if (a.info.type->IsFloatScalar()) common = types_.Float32();
        }
        for (CallArg& a : args) {
          if (!Convert(a.expr, a.info, common)) {
            Error(Code::OperandTypeMismatch, a.range,
                  "arguments of " + bname + " must have one type: `" + TypeName(common) + "` and `" +
                      TypeName(a.info.type) + "`");
            failed = true;
            break;
          }
        }
        break;
      }
    }
  }
  if (failed) return Poison();

  // Result.
  ExprInfo out;
  out.uniform = true;
  for (const CallArg& a : args) {
    out.uniform &= a.info.uniform;
    if (!out.provenance && !a.info.value && a.info.provenance) out.provenance = a.info.provenance;
  }
  if (!out.provenance) out.provenance = Provenance{"`" + Text(node) + "` is computed at run time", node->range, true};
  auto storage_of = [&]() {
    const ConstValue* s = cval("storage");
    return s && s->kind == ConstValue::Kind::String && s->s == "shared" ? Storage::Shared : Storage::Register;
  };
  switch (ov->result) {
    case ResultRule::Void: out.type = types_.Void(); break;
    case ResultRule::TileFromShapeDtype:
      out.type = types_.Tile(cval("dtype")->type->AsElem(), dims, storage_of());
      break;
    case ResultRule::TileArange:
      out.type = types_.Tile(cval("dtype")->type->AsElem(), {arange_len}, storage_of());
      break;
    case ResultRule::TileFromArrayShape: out.type = types_.Tile(array->elem, dims, storage_of()); break;
    case ResultRule::TileLikeT: out.type = type_of("t"); break;
    case ResultRule::TileSum: out.type = types_.Tile(type_of("t")->elem, {1}, Storage::Register); break;
    case ResultRule::TileMap:
      out.type = types_.Tile(map_elem->AsElem(), type_of("a")->shape, Storage::Register);
      break;
    case ResultRule::TileElement: out.type = types_.FromElem(args[0].info.type->elem); break;
    case ResultRule::TileArith: {
      const Type* tile = args[0].info.type->IsTile() ? args[0].info.type : args[1].info.type;
      out.type = types_.Tile(tile->elem, tile->shape, Storage::Register);
      break;
    }
    case ResultRule::Tid: {
      out.provenance = Provenance{"`" + Text(node) + "` is the launch index, known only at run time", node->range, true};
      if (!fn_ || !fn_->is_kernel) {
        if (fn_) Error(Code::TidOutsideKernel, node->range, "`wp.tid()` can only be called in a kernel, not in a `@wp.func`");
        return Poison();
      }
      int n = node == tid_call_ ? tid_unpack_ : 1;
      out.type = n > 1 ? types_.Tuple(std::vector<const Type*>(n, types_.Int32())) : types_.Int32();
      fn_->tid_ndim = std::max(fn_->tid_ndim, n);
      break;
    }
    case ResultRule::ArrayElement: out.type = types_.FromElem(array->elem); break;
    case ResultRule::SameAsFirst:
      out.type = args[0].info.type;
      if (args[0].info.value && (std::string(b.name) == "abs")) {
        out.value = args[0].info.value;
        if (out.value->AsDouble() < 0) {
          std::string err;
          out.value = FoldUnary(ast::UnaryOp::Neg, *out.value, err);
        }
        out.weak = args[0].info.weak;
      }
      break;
    case ResultRule::CommonNumeric: {
      out.type = common;
      bool all_const = true;
      for (const CallArg& a : args) all_const &= a.info.value.has_value() && a.info.value->IsNumber();
      std::string n = b.name;
      if (all_const && (n == "min" || n == "max")) {
        ConstValue best = *args[0].info.value;
        for (const CallArg& a : args) {
          double x = a.info.value->AsDouble();
          if ((n == "min" && x < best.AsDouble()) || (n == "max" && x > best.AsDouble())) best = *a.info.value;
        }
        out.value = best;
        out.weak = true;
        for (const CallArg& a : args) out.weak &= a.info.weak;
      }
      break;
    }
    case ResultRule::CastTarget: out.type = types_.Float32(); break;  // replaced by the caller
    case ResultRule::Range: out.type = types_.RangeType(); break;
    case ResultRule::LaneId:
      out.type = types_.Int32();
      out.uniform = false;
      out.provenance = Provenance{"`" + Text(node) + "` differs between the threads of a block", node->range, true};
      break;
  }
  if (out.value) out.provenance.reset();

  // Index tiles live in shared memory: the argument (and the variable holding it) is promoted.
  for (Rule rule : ov->rules) {
    if (rule != Rule::IndexTile) continue;
    CallArg* ia = arg_of("indices");
    ExprInfo promoted = ia->info;
    promoted.type = types_.WithStorage(ia->info.type, Storage::Shared);
    Record(ia->expr, promoted);
    auto sym = out_.symbols.find(ia->expr);
    if (sym != out_.symbols.end()) {
      LocalSymbol* s = const_cast<LocalSymbol*>(sym->second);
      s->promoted_to_shared = true;
      s->type = types_.WithStorage(s->type, Storage::Shared);
    }
  }
  if (b.tile_op) MarkTileOp(node, "tile operation " + bname, args);
  out_.call_info[node] = ci;
  return out;
}

}  // namespace tilec::sema
