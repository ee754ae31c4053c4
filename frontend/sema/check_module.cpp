// Module level: imports and the `wp`/`np` prelude, module constants in source order, struct
// layouts, func and kernel signatures, type annotations, and the static check of host
// `wp.launch` calls. Host statements are otherwise left to the host interpreter.
#include <algorithm>
#include <set>

#include "frontend/ast/clone.h"
#include "frontend/sema/checker.h"

namespace tilec::sema {

using diag::Code;

namespace {

// `@wp.kernel`, `@wp.kernel(...)`, `@wp.func`, `@wp.struct` -> "kernel"/"func"/"struct".
std::string DecoratorName(const ast::Expr* d, const ast::Call** call_out) {
  *call_out = nullptr;
  if (const auto* c = d->As<ast::Call>()) {
    *call_out = c;
    d = c->func.get();
  }
  const auto* a = d->As<ast::Attribute>();
  if (!a || !a->value->Is<ast::Name>()) return "";
  return a->attr;
}

uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// Whether a type annotation names `Any` (`Any`, `typing.Any`, `wp.array2d[Any]`,
// `wp.array(dtype=Any)`): the parameter is generic, as in Warp.
bool MentionsAny(const ast::Expr* e) {
  if (!e) return false;
  // `tuple[int, ...]`: a tuple of any length, instantiated per call as `Any` is.
  if (const auto* n = e->As<ast::Name>()) return n->id == "Any" || n->id == "Ellipsis";
  if (const auto* a = e->As<ast::Attribute>()) return a->attr == "Any" || MentionsAny(a->value.get());
  if (const auto* s = e->As<ast::Subscript>()) return MentionsAny(s->value.get()) || MentionsAny(s->index.get());
  if (const auto* t = e->As<ast::Tuple>()) {
    for (const ast::ExprPtr& x : t->elts)
      if (MentionsAny(x.get())) return true;
    return false;
  }
  if (const auto* c = e->As<ast::Call>()) {
    for (const ast::ExprPtr& x : c->args)
      if (MentionsAny(x.get())) return true;
    for (const ast::Keyword& kw : c->keywords)
      if (MentionsAny(kw.value.get())) return true;
  }
  return false;
}

// For a generic array annotation, the dimensions it fixes (0: any); -1 for other annotations.
int ArrayPatternNdim(const ast::Expr* e) {
  const ast::Expr* base = e;
  const ast::Call* call = e->As<ast::Call>();
  if (call) base = call->func.get();
  if (const auto* s = e->As<ast::Subscript>()) base = s->value.get();
  std::string name;
  if (const auto* a = base->As<ast::Attribute>()) name = a->attr;
  else if (const auto* n = base->As<ast::Name>()) name = n->id;
  if (name == "array") {
    if (call)
      for (const ast::Keyword& kw : call->keywords)
        if (const auto* lit = kw.value->As<ast::IntLit>(); kw.name == "ndim" && lit) return int(lit->value);
    return 1;  // Warp's default
  }
  if (name.size() == 7 && name.starts_with("array") && name[6] == 'd' && name[5] >= '1' && name[5] <= '4')
    return name[5] - '0';
  return -1;
}

}  // namespace

int Checker::Line(SourceRange r) const { return file() ? file()->Locate(r.begin).line : 0; }

std::string Checker::Text(const ast::Expr* e) const {
  if (!file() || !e) return "";
  const std::string& t = file()->text();
  uint32_t b = std::min<uint32_t>(e->range.begin, t.size()), en = std::min<uint32_t>(e->range.end, t.size());
  std::string s = t.substr(b, en > b ? en - b : 0);
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

void Checker::Run() {
  scope_["wp"] = {ModuleEntry::Kind::Module, -1, {}, ModuleId::Warp, {}};
  scope_["np"] = {ModuleEntry::Kind::Module, -1, {}, ModuleId::Numpy, {}};
  for (const auto& [name, value] : options_.external_constants) {
    ModuleEntry e;
    e.kind = ModuleEntry::Kind::Constant;
    e.value = value;
    scope_[name] = e;
  }
  RegisterDefinitions();
  AddPrelude();
  func_state_.assign(out_.funcs.size(), 0);
  // Bodies in source order: funcs first when a kernel calls them (EnsureFuncChecked); the
  // prelude's only when called.
  for (size_t i = 0; i < out_.funcs.size(); ++i)
    if (!out_.funcs[i].is_prelude() && !out_.funcs[i].is_generic()) EnsureFuncChecked(int(i));
  for (FunctionInfo& k : out_.kernels) CheckFunction(k);
  for (const auto& [name, e] : scope_)
    if (e.kind == ModuleEntry::Kind::Constant && e.value.kind != ConstValue::Kind::Type)
      out_.constants.push_back({name, e.value, e.range});
}

// One walk in source order: imports, constants (so each definition sees the values they had
// when it was defined), structs, func and kernel signatures.
void Checker::RegisterDefinitions() {
  auto is_warp = [&](const ast::Expr* d) {
    const ast::Call* c;
    std::string n = DecoratorName(d, &c);
    const ast::Expr* base = c ? c->func.get() : d;
    const auto* a = base->As<ast::Attribute>();
    if (!a) return std::string();
    auto it = scope_.find(a->value->As<ast::Name>() ? a->value->As<ast::Name>()->id : "");
    if (it == scope_.end() || it->second.kind != ModuleEntry::Kind::Module ||
        it->second.module != ModuleId::Warp)
      return std::string();
    return n;
  };
  // Vector-like field types come first in the struct table: every stage lays out a struct
  // after the structs its fields name.
  for (const ast::StmtPtr& sp : ast_.body)
    if (const auto* cls = sp->As<ast::ClassDef>())
      for (const ast::StmtPtr& f : cls->body)
        if (const auto* ann = f->As<ast::AnnAssign>())
          if (const auto* a = ann->annotation->As<ast::Attribute>())
            if (std::optional<Composite> c = CompositeFromName(a->attr)) CompositeStruct(*c);
  for (const ast::StmtPtr& sp : ast_.body) {
    const ast::Stmt& s = *sp;
    if (const auto* imp = s.As<ast::Import>()) {
      for (const ast::ImportAlias& a : imp->names) {
        std::string bound = a.asname.empty() ? a.name : a.asname;
        if (a.name == "warp") scope_[bound] = {ModuleEntry::Kind::Module, -1, {}, ModuleId::Warp, a.range};
        else if (a.name == "numpy") scope_[bound] = {ModuleEntry::Kind::Module, -1, {}, ModuleId::Numpy, a.range};
        else scope_[bound] = {ModuleEntry::Kind::Host, -1, {}, ModuleId::Warp, a.range};
      }
    } else if (const auto* cls = s.As<ast::ClassDef>()) {
      bool is_struct = false;
      for (const ast::ExprPtr& d : cls->decorators) is_struct |= is_warp(d.get()) == "struct";
      if (!is_struct) {
        scope_[cls->name] = {ModuleEntry::Kind::Host, -1, {}, ModuleId::Warp, cls->name_range};
        continue;
      }
      int index = int(out_.structs.size());
      out_.structs.push_back({});
      out_.structs.back().name = cls->name;
      out_.structs.back().def = cls;
      types_.SetStructName(index, cls->name);
      DefineStruct(index);
      scope_[cls->name] = {ModuleEntry::Kind::Struct, index, {}, ModuleId::Warp, cls->name_range};
    } else if (const auto* fd = s.As<ast::FunctionDef>()) {
      std::string kind;
      const ast::Call* deco_call = nullptr;
      for (const ast::ExprPtr& d : fd->decorators) {
        std::string k = is_warp(d.get());
        if (k == "kernel" || k == "func") {
          kind = k;
          DecoratorName(d.get(), &deco_call);
        } else if (!k.empty()) {
          Error(Code::BadDecorator, d->range, "unsupported decorator `@wp." + k +
                                                  "` (expected `@wp.kernel`, `@wp.func` or `@wp.struct`)");
        }
      }
      if (kind.empty()) {
        scope_[fd->name] = {ModuleEntry::Kind::Host, -1, {}, ModuleId::Warp, fd->name_range};
        continue;
      }
      auto it = scope_.find(fd->name);
      bool is_kernel = kind == "kernel";
      // A func of a func's name overloads it (or replaces the one of the same parameter types).
      const bool overloads = !is_kernel && it != scope_.end() &&
                             (it->second.kind == ModuleEntry::Kind::Func || it->second.kind == ModuleEntry::Kind::FuncSet);
      if (it != scope_.end() && !overloads &&
          (it->second.kind == ModuleEntry::Kind::Func || it->second.kind == ModuleEntry::Kind::FuncSet ||
           it->second.kind == ModuleEntry::Kind::Kernel || it->second.kind == ModuleEntry::Kind::Struct))
        Error(Code::DuplicateDefinition, fd->name_range,
              "`" + fd->name + "` is already defined at line " + std::to_string(Line(it->second.range)));
      int index = int(is_kernel ? out_.kernels.size() : out_.funcs.size());
      FunctionInfo& fn = is_kernel ? out_.kernels.emplace_back() : out_.funcs.emplace_back();
      if (deco_call) {
        bool explicit_backward = false;
        for (const ast::Keyword& kw : deco_call->keywords) explicit_backward |= kw.name == "enable_backward";
        for (const ast::Keyword& kw : deco_call->keywords) {
          // Warp's options for its CUDA build and module grouping; results do not depend on them.
          static const std::set<std::string> kWarpKernelOptions = {
              "module", "module_options", "name", "launch_bounds", "cuda_max_registers",
              "enable_cuda_smem_spilling", "cluster_dim", "entry_point_abi", "grid_stride"};
          static const std::set<std::string> kWarpFuncOptions = {"module", "name", "inline"};
          // module_options={"enable_backward": False} is the kernel's own option, as in Warp.
          if (is_kernel && kw.name == "module_options" && !explicit_backward)
            if (const auto* d = kw.value->As<ast::Dict>())
              for (size_t k = 0; k < d->keys.size(); ++k)
                if (const auto* key = d->keys[k] ? d->keys[k]->As<ast::StrLit>() : nullptr;
                    key && key->value == "enable_backward")
                  if (const auto* b = d->values[k]->As<ast::BoolLit>()) fn.enable_backward = b->value;
          if ((is_kernel ? kWarpKernelOptions : kWarpFuncOptions).count(kw.name)) continue;
          ExprInfo v = CheckExpr(kw.value.get());
          if (kw.name == "enable_backward" && is_kernel && v.value && v.value->kind == ConstValue::Kind::Bool) {
            fn.enable_backward = v.value->b;
          } else if (kw.name == "enable_backward" && is_kernel) {
            Error(Code::BadDecorator, kw.value->range, "`enable_backward` must be `True` or `False`");
          } else {
            Error(Code::BadDecorator, kw.name_range,
                  "unknown option `" + kw.name + "` of `@wp." + kind + "` (expected `enable_backward`)");
          }
        }
        if (!deco_call->args.empty())
          Error(Code::BadDecorator, deco_call->args[0]->range,
                "`@wp." + kind + "` takes only keyword options");
      }
      DeclareFunction(fn, *fd, is_kernel);
      if (is_kernel) kernel_defs_.push_back(fd); else func_defs_.push_back(fd);
      if (overloads && !fn.is_generic()) {
        std::vector<int> members;
        if (it->second.kind == ModuleEntry::Kind::FuncSet) members = out_.overloads[size_t(it->second.index)];
        else members.push_back(it->second.index);
        auto same_params = [&](int other) {
          const FunctionInfo& o = out_.funcs[size_t(other)];
          if (o.is_generic() || o.num_params != fn.num_params) return false;
          for (int k = 0; k < fn.num_params; ++k)
            if (o.Param(k)->type != fn.Param(k)->type) return false;
          return true;
        };
        bool generic_member = false;
        for (int m : members) generic_member |= out_.funcs[size_t(m)].is_generic();
        std::erase_if(members, same_params);
        if (!generic_member && !members.empty()) {
          members.push_back(index);
          out_.overloads.push_back(members);
          scope_[fd->name] = {ModuleEntry::Kind::FuncSet, int(out_.overloads.size()) - 1, {}, ModuleId::Warp,
                              fd->name_range};
        } else {
          scope_[fd->name] = {ModuleEntry::Kind::Func, index, {}, ModuleId::Warp, fd->name_range};
        }
      } else {
        scope_[fd->name] = {is_kernel ? ModuleEntry::Kind::Kernel : ModuleEntry::Kind::Func, index, {},
                            ModuleId::Warp, fd->name_range};
      }
      snapshots_.push_back(scope_);
      (is_kernel ? kernel_snapshot_ : func_snapshot_).push_back(int(snapshots_.size()) - 1);
    } else if (s.Is<ast::Assign>() || s.Is<ast::AnnAssign>() || s.Is<ast::AugAssign>()) {
      ModuleAssign(s);
    }
  }
  func_state_.assign(out_.funcs.size(), 0);
}

void Checker::DefineStruct(int index) {
  // Resolving a field's type may register a vector or matrix type as a struct, which grows
  // out_.structs: the struct is looked up again after each one.
  std::set<std::string> seen;
  uint32_t offset = 0, align = 1;
  for (const ast::StmtPtr& sp : out_.structs[index].def->body) {
    const auto* ann = sp->As<ast::AnnAssign>();
    if (sp->Is<ast::Pass>() || (sp->Is<ast::ExprStmt>() && sp->As<ast::ExprStmt>()->value->Is<ast::StrLit>()))
      continue;  // `pass` and docstrings
    if (!ann || !ann->target->Is<ast::Name>() || ann->value) {
      Error(Code::InvalidStructField, sp->range,
            "a `@wp.struct` body holds only `name: type` fields");
      continue;
    }
    const std::string& name = ann->target->As<ast::Name>()->id;
    if (!seen.insert(name).second) {
      Error(Code::DuplicateDefinition, ann->target->range, "field `" + name + "` is defined twice");
      continue;
    }
    const Type* t = ResolveAnnotation(ann->annotation.get(), true);
    StructInfo& si = out_.structs[index];
    if (t->IsError()) continue;
    if (t->IsArray()) {
      FieldInfo f;
      f.name = name;
      f.type = t;
      f.range = ann->range;
      f.value_fields_before = uint32_t(si.fields.size());
      si.array_fields.push_back(f);
      si.holds_arrays = true;
      continue;
    }
    if (t->kind != TypeKind::Scalar && t->kind != TypeKind::Struct) {
      Error(Code::InvalidStructField, ann->annotation->range,
            "field `" + name + "` has type `" + TypeName(t) +
                "`; struct fields must be scalars, structs or arrays");
      continue;
    }
    if (t->kind == TypeKind::Struct && out_.structs[t->struct_index].holds_arrays) si.holds_arrays = true;
    FieldInfo f;
    f.name = name;
    f.type = t;
    f.range = ann->range;
    if (t->IsScalar()) {
      f.size = f.align = uint32_t(ScalarSize(t->scalar));
    } else {
      f.size = out_.structs[t->struct_index].size;
      f.align = out_.structs[t->struct_index].align;
    }
    offset = AlignUp(offset, f.align);
    f.offset = offset;
    offset += f.size;
    align = std::max(align, f.align);
    si.fields.push_back(f);
  }
  StructInfo& si = out_.structs[index];
  si.align = align;
  si.size = AlignUp(std::max<uint32_t>(offset, 1), align);
}

void Checker::DeclareFunction(FunctionInfo& fn, const ast::FunctionDef& def, bool is_kernel,
                              const std::vector<const Type*>* bound) {
  fn.name = def.name;
  fn.def = &def;
  fn.is_kernel = is_kernel;
  std::set<std::string> seen;
  for (const ast::Param& p : def.params) {
    const Type* t = types_.Error();
    size_t k = fn.generic_params.size();
    fn.generic_params.push_back(!is_kernel && p.annotation && MentionsAny(p.annotation.get()));
    if (!seen.insert(p.name).second) {
      Error(Code::DuplicateDefinition, p.name_range, "parameter `" + p.name + "` is declared twice");
    } else if (!p.annotation) {
      Error(Code::MissingAnnotation, p.name_range,
            "parameter `" + p.name + "` of " + (is_kernel ? "kernel `" : "function `") + def.name +
                "` needs a type annotation");
    } else if (fn.generic_params[k]) {
      // The template's parameter has no type; an instance's is its argument's.
      if (bound && k < bound->size() && (*bound)[k]) t = (*bound)[k];
    } else if (const Type* tt = is_kernel ? nullptr : TupleAnnotation(p.annotation.get())) {
      t = tt;  // `values: tuple[int, wp.vec3]`: a func takes a tuple of those types
    } else {
      t = ResolveAnnotation(p.annotation.get(), true);
      if (is_kernel && t->IsTile()) {
        Error(Code::InvalidType, p.annotation->range,
              "kernel parameters cannot be tiles; pass an array and load it with `wp.tile_load`");
        t = types_.Error();
      }
    }
    LocalSymbol* sym = nullptr;
    fn.locals.push_back(std::make_unique<LocalSymbol>());
    sym = fn.locals.back().get();
    sym->name = p.name;
    sym->kind = SymbolKind::Param;
    sym->type = t;
    sym->decl_range = p.name_range;
    sym->index = int(fn.locals.size()) - 1;
    if (p.default_value && !t->IsError() && !fn.generic_params[k]) {
      // A default is a compile-time constant of the parameter's type, as Warp's are.
      ExprInfo dv = CheckExpr(p.default_value.get());
      if (!dv.type->IsError() && (!dv.value || !t->IsScalar() || !Convertible(dv, t)))
        Error(Code::InvalidType, p.default_value->range,
              "the default of `" + p.name + "` must be a constant `" + TypeName(t) + "`");
      else if (dv.value)
        sym->default_value = dv.value;
    }
  }
  fn.num_params = int(fn.locals.size());
  fn.return_type = types_.Void();
  if (def.returns) {
    if (is_kernel) {
      if (!def.returns->Is<ast::NoneLit>())
        Error(Code::BadReturn, def.returns->range, "kernels return nothing; write results to arrays");
    } else if (MentionsAny(def.returns.get())) {
      fn.return_type = nullptr;  // a generic func returns what its body returns
    } else {
      fn.return_type = ResolveReturnAnnotation(def.returns.get());
    }
  }
}

void Checker::ModuleAssign(const ast::Stmt& s) {
  auto define = [&](const ast::Expr* target, const ast::Expr* value_expr, std::optional<ConstValue> v,
                    bool host) {
    const auto* n = target->As<ast::Name>();
    if (!n) return;
    ModuleEntry e;
    e.range = s.range;
    // Numbers, tuples and types (`vec5 = wp.types.vector(length=5, dtype=float)`) are constants.
    if (v && !host && v->kind != ConstValue::Kind::String && v->kind != ConstValue::Kind::None) {
      e.kind = ModuleEntry::Kind::Constant;
      e.value = *v;
    } else {
      // Computed by host code: a kernel may use it only if the host defines it as a constant.
      if (options_.external_constants.count(n->id)) return;
      e.kind = ModuleEntry::Kind::Host;
    }
    scope_[n->id] = e;
  };
  auto eval = [&](const ast::Expr* value, bool& host) -> std::optional<ConstValue> {
    host = false;
    // NAME = wp.constant(expr)
    if (const auto* c = value->As<ast::Call>()) {
      const auto* a = c->func->As<ast::Attribute>();
      const auto* base = a ? a->value->As<ast::Name>() : nullptr;
      auto it = base ? scope_.find(base->id) : scope_.end();
      if (a && a->attr == "constant" && it != scope_.end() &&
          it->second.kind == ModuleEntry::Kind::Module && it->second.module == ModuleId::Warp) {
        if (c->args.size() != 1 || !c->keywords.empty()) {
          Error(Code::InvalidConstant, c->range, "`wp.constant` takes exactly one value");
          host = true;
          return std::nullopt;
        }
        std::optional<ConstValue> v = EvalModuleExpr(c->args[0].get(), host);
        if (v && !v->IsNumber() && v->kind != ConstValue::Kind::Composite) {
          Error(Code::InvalidConstant, c->args[0]->range,
                "`wp.constant` needs an int, float, bool, vector, matrix, quaternion or transform, found `" +
                    FormatConst(*v) + "`");
          host = true;
          return std::nullopt;
        }
        if (!v) host = true;
        return v;
      }
    }
    std::optional<ConstValue> v = EvalModuleExpr(value, host);
    if (!v) host = true;
    return v;
  };
  if (const auto* as = s.As<ast::Assign>()) {
    for (const ast::ExprPtr& t : as->targets) {
      if (const auto* tup = t->As<ast::Tuple>()) {
        const auto* vt = as->value->As<ast::Tuple>();
        for (size_t i = 0; i < tup->elts.size(); ++i) {
          bool host = true;
          std::optional<ConstValue> v;
          if (vt && vt->elts.size() == tup->elts.size()) v = eval(vt->elts[i].get(), host);
          define(tup->elts[i].get(), nullptr, v, host);
        }
      } else {
        bool host;
        std::optional<ConstValue> v = eval(as->value.get(), host);
        define(t.get(), as->value.get(), v, host);
      }
    }
  } else if (const auto* an = s.As<ast::AnnAssign>()) {
    if (!an->value) return;
    bool host;
    std::optional<ConstValue> v = eval(an->value.get(), host);
    define(an->target.get(), an->value.get(), v, host);
  } else if (const auto* aug = s.As<ast::AugAssign>()) {
    const auto* n = aug->target->As<ast::Name>();
    if (!n) return;
    auto it = scope_.find(n->id);
    bool host;
    std::optional<ConstValue> rhs = EvalModuleExpr(aug->value.get(), host);
    std::optional<ConstValue> v;
    if (it != scope_.end() && it->second.kind == ModuleEntry::Kind::Constant && rhs) {
      std::string err;
      v = FoldBinary(aug->op, it->second.value, *rhs, err);
    }
    define(aug->target.get(), nullptr, v, !v);
  }
}

std::optional<ConstValue> Checker::EvalModuleExpr(const ast::Expr* e, bool& host_dependent) {
  // Module-level expressions are host code unless they fold: check them silently, except
  // for errors in constant folding itself (E0301), which the host would hit too.
  bool saved = silent_;
  silent_ = true;
  ExprInfo info = CheckExpr(e);
  silent_ = saved;
  host_dependent = !info.value.has_value();
  return info.value;
}

int Checker::FuncInstance(int index, const std::vector<const Type*>& types, SourceRange where,
                          const std::vector<SourceRange>* arg_ranges) {
  const FunctionInfo& tmpl = out_.funcs[size_t(index)];
  if (!tmpl.is_generic()) return index;
  std::vector<const Type*> bound(size_t(tmpl.num_params), nullptr);
  for (int k = 0; k < tmpl.num_params; ++k) {
    if (!tmpl.generic_params[size_t(k)]) continue;
    const ast::Param& p = tmpl.def->params[size_t(k)];
    const Type* t = size_t(k) < types.size() ? types[size_t(k)] : nullptr;
    if (!t && p.default_value) t = CheckExpr(p.default_value.get()).type;
    if (!t || t->IsError()) return -1;
    if (arg_ranges && size_t(k) < arg_ranges->size() && (*arg_ranges)[size_t(k)].end > (*arg_ranges)[size_t(k)].begin)
      where = (*arg_ranges)[size_t(k)];
    if (t->kind == TypeKind::TypeRef || t->kind == TypeKind::Function || t->kind == TypeKind::Void) {
      Error(Code::ArgumentTypeMismatch, where,
            "argument `" + p.name + "` of `" + tmpl.name + "` is `" + TypeName(t) + "`, which is not a value");
      return -1;
    }
    // `wp.array2d[Any]` and the like take arrays (of that many dimensions); `Any` takes anything.
    int ndim = ArrayPatternNdim(p.annotation.get());
    if (ndim >= 0 && (!t->IsArray() || (ndim > 0 && t->ndim != ndim))) {
      Error(Code::ArgumentTypeMismatch, where,
            "argument `" + p.name + "` of `" + tmpl.name + "` must be " +
                (ndim > 0 ? "a " + std::to_string(ndim) + "-d array" : std::string("an array")) + ", found `" +
                TypeName(t) + "`");
      return -1;
    }
    bound[size_t(k)] = t;
  }
  auto key = std::make_pair(index, bound);
  if (auto it = func_instances_.find(key); it != func_instances_.end()) return it->second;
  out_.instance_defs.push_back(ast::Clone(*tmpl.def));
  const auto* def = out_.instance_defs.back()->As<ast::FunctionDef>();
  int inst = int(out_.funcs.size());
  func_instances_[key] = inst;
  FunctionInfo& fn = out_.funcs.emplace_back();
  DeclareFunction(fn, *def, false, &bound);
  for (int k = 0; k < fn.num_params; ++k)
    if (fn.generic_params[size_t(k)] && def->params[size_t(k)].default_value)
      fn.locals[size_t(k)]->default_value = CheckExpr(def->params[size_t(k)].default_value.get()).value;
  fn.generic_params.assign(fn.generic_params.size(), false);
  func_snapshot_.push_back(func_snapshot_[size_t(index)]);
  func_state_.push_back(0);
  EnsureFuncChecked(inst);
  return inst;
}

void Checker::EnsureFuncChecked(int index) {
  if (func_state_[index] != 0) return;
  CheckFunction(out_.funcs[index]);
}

bool Checker::RejectArrayStruct(const Type* t, SourceRange range, const std::string& what) {
  if (t && (t->IsArray() || t->IsTile() || t->IsTileStack())) t = types_.FromElem(t->elem);
  if (!HoldsArrays(t)) return false;
  Error(Code::ArrayStructMisuse, range,
        "struct `" + TypeName(t) + "` has array fields, so it cannot be " + what +
            "; pass it as a kernel or func parameter and read its fields there");
  return true;
}

// Annotations: `float`, `wp.float16`, a struct, `wp.array(dtype=T, ndim=N)`, `wp.array2d[T]`,
// `wp.array2d(dtype=T)`, `wp.array[T]`, `wp.Tile[T, (d0, ...)]`.
// A func's return annotation may also be `tuple[T, ...]` (or typing's `Tuple[T, ...]`): the
// func returns that many values, as `return a, b` does.
// `tuple[T0, T1, ...]` (or typing's `Tuple[...]`) with its element types; null for any other
// annotation.
const Type* Checker::TupleAnnotation(const ast::Expr* e) {
  const auto* sub = e->As<ast::Subscript>();
  const auto* name = sub ? sub->value->As<ast::Name>() : nullptr;
  const auto* attr = sub ? sub->value->As<ast::Attribute>() : nullptr;
  const bool tuple = (name && (name->id == "tuple" || name->id == "Tuple") && !locals_.count(name->id)) ||
                     (attr && attr->attr == "Tuple");
  if (!tuple) return nullptr;
  std::vector<const Type*> elems;
  if (const auto* tup = sub->index->As<ast::Tuple>()) {
    for (const ast::ExprPtr& el : tup->elts) elems.push_back(ResolveAnnotation(el.get(), false));
  } else {
    elems.push_back(ResolveAnnotation(sub->index.get(), false));
  }
  for (const Type* t : elems)
    if (t->IsError()) return t;
  return types_.Tuple(elems);
}

const Type* Checker::ResolveReturnAnnotation(const ast::Expr* e) {
  const Type* tt = TupleAnnotation(e);
  if (!tt) return ResolveAnnotation(e, false);
  if (tt->IsError()) return tt;
  const auto* sub = e->As<ast::Subscript>();
  if (tt->elems.size() < 2) {
    Error(Code::InvalidType, e->range, "a func returns a tuple of two or more values; write `-> " +
                                           Text(sub->index.get()) + "` for one");
    return types_.Error();
  }
  return tt;
}

const Type* Checker::ResolveAnnotation(const ast::Expr* e, bool allow_array) {
  auto bad = [&](const ast::Expr* at, const std::string& msg) {
    Error(Code::InvalidType, at->range, msg);
    return types_.Error();
  };
  auto elem_of = [&](const ast::Expr* at) -> std::optional<ElemType> {
    const Type* t = ResolveAnnotation(at, false);
    if (t->IsError()) return std::nullopt;
    if (t->kind != TypeKind::Scalar && t->kind != TypeKind::Struct) {
      bad(at, "`" + Text(at) + "` is not a scalar or struct type");
      return std::nullopt;
    }
    if (RejectArrayStruct(t, at->range, "the element of an array or tile")) return std::nullopt;
    return t->AsElem();
  };
  // The wp.arrayNd family.
  auto array_ndim = [&](const ast::Expr* callee) -> int {
    const auto* a = callee->As<ast::Attribute>();
    const auto* base = a ? a->value->As<ast::Name>() : nullptr;
    if (!base) return 0;
    auto it = scope_.find(base->id);
    if (it == scope_.end() || it->second.kind != ModuleEntry::Kind::Module || it->second.module != ModuleId::Warp)
      return 0;
    if (a->attr == "array") return -1;  // ndim from the arguments
    if (a->attr.size() == 7 && a->attr.rfind("array", 0) == 0 && a->attr[6] == 'd' && a->attr[5] >= '1' &&
        a->attr[5] <= '4')
      return a->attr[5] - '0';
    return 0;
  };
  if (const auto* sub = e->As<ast::Subscript>()) {
    int nd = array_ndim(sub->value.get());
    if (nd != 0) {
      if (!allow_array) return bad(e, "arrays cannot be used here");
      // `wp.array[dtype, ndim]`: ndim an int or, as Warp's annotations spell it, `Literal[n]`.
      const auto* tup = sub->index->As<ast::Tuple>();
      if (tup && nd < 0 && tup->elts.size() == 2) {
        std::optional<ElemType> el = elem_of(tup->elts[0].get());
        if (!el) return types_.Error();
        const ast::Expr* n = tup->elts[1].get();
        if (const auto* lit = n->As<ast::Subscript>()) {
          const auto* ln = lit->value->As<ast::Name>();
          const auto* la = lit->value->As<ast::Attribute>();
          if ((ln && ln->id == "Literal") || (la && la->attr == "Literal")) n = lit->index.get();
        }
        ExprInfo v = CheckExpr(n);
        if (!v.value || v.value->kind != ConstValue::Kind::Int || v.value->i < 1 || v.value->i > 4)
          return bad(tup->elts[1].get(), "the number of dimensions of `" + Text(e) + "` must be a constant 1, 2, 3 or 4");
        return types_.Array(*el, int(v.value->i));
      }
      std::optional<ElemType> el = elem_of(sub->index.get());
      if (!el) return types_.Error();
      return types_.Array(*el, nd < 0 ? 1 : nd);
    }
    const auto* a = sub->value->As<ast::Attribute>();
    // `wp.Tile[dtype, (d0, ...)]`, and Warp's spelling `wp.tile[dtype, d0, ...]`.
    if (a && (a->attr == "Tile" || a->attr == "tile")) {
      const auto* tup = sub->index->As<ast::Tuple>();
      if (!tup || tup->elts.size() < 2)
        return bad(e, "write a tile type as `wp.tile[dtype, d0, ...]` or `wp.Tile[dtype, (d0, ...)]`");
      std::optional<ElemType> el = elem_of(tup->elts[0].get());
      if (!el) return types_.Error();
      std::vector<int64_t> dims;
      for (size_t k = 1; k < tup->elts.size(); ++k) {
        ExprInfo shape = CheckExpr(tup->elts[k].get());
        if (shape.value && shape.value->kind == ConstValue::Kind::Int) dims.push_back(shape.value->i);
        else if (shape.value && shape.value->kind == ConstValue::Kind::Tuple && tup->elts.size() == 2)
          for (const ConstValue& d : shape.value->elems) dims.push_back(d.kind == ConstValue::Kind::Int ? d.i : 0);
        else dims.push_back(0);
      }
      bool ok = !dims.empty() && dims.size() <= 4;
      for (int64_t d : dims) ok &= d > 0;
      if (!ok) return bad(tup->elts[1].get(), "a tile shape is 1 to 4 positive compile-time ints");
      return types_.Tile(*el, dims, Storage::Register);
    }
    return bad(e, "`" + Text(e) + "` is not a type");
  }
  if (const auto* call = e->As<ast::Call>()) {
    int nd = array_ndim(call->func.get());
    if (nd == 0) {
      // wp.types.vector(...) and wp.types.matrix(...) name types; anything else is not one.
      ExprInfo info = CheckExpr(e);
      if (info.value && info.value->kind == ConstValue::Kind::Type) return info.value->type;
      // Warp types a stack parameter by a stack like the one it takes: `s: wp.tile_stack(...)`.
      if (info.type->IsTileStack()) return info.type;
      if (info.type->IsError()) return types_.Error();
      return bad(e, "`" + Text(e) + "` is not a type");
    }
    if (!allow_array) return bad(e, "arrays cannot be used here");
    std::optional<ElemType> el;
    int ndim = nd < 0 ? 1 : nd;
    bool have_dtype = false;
    for (const ast::Keyword& kw : call->keywords) {
      if (kw.name == "dtype") {
        el = elem_of(kw.value.get());
        have_dtype = true;
        if (!el) return types_.Error();
      } else if (kw.name == "ndim" && nd < 0) {
        ExprInfo v = CheckExpr(kw.value.get());
        if (!v.value || v.value->kind != ConstValue::Kind::Int || v.value->i < 1 || v.value->i > 4)
          return bad(kw.value.get(), "`ndim` must be a constant 1, 2, 3 or 4");
        ndim = int(v.value->i);
      } else {
        Error(Code::UnknownKeyword, kw.name_range,
              "unknown keyword `" + kw.name + "` of `" + Text(call->func.get()) + "`");
        return types_.Error();
      }
    }
    if (!call->args.empty()) {
      el = elem_of(call->args[0].get());
      have_dtype = true;
      if (!el) return types_.Error();
    }
    if (!have_dtype) return bad(e, "`" + Text(e) + "` needs `dtype=`");
    return types_.Array(*el, ndim);
  }
  if (array_ndim(e) != 0) return bad(e, "`" + Text(e) + "` needs an element type, as in `" + Text(e) + "[float]`");
  bool saved = silent_;
  silent_ = true;
  ExprInfo info = CheckExpr(e);
  silent_ = saved;
  if (info.value && info.value->kind == ConstValue::Kind::Type) return info.value->type;
  if (info.type && info.type->kind == TypeKind::None) return types_.Void();
  return bad(e, "`" + Text(e) + "` is not a type");
}

}  // namespace tilec::sema
