// Expressions: names through the scopes, attributes of modules/structs/arrays/tiles,
// subscripts, operators with Warp's typing and constant folding, and the weak-literal rule.
//
// Implicit conversions (Warp's rules, LANGUAGE.md §2): typed values never convert; a Python
// literal or module constant (a "weak" constant: int -> int32, float -> float32 by default)
// converts to the numeric type it meets, an int to any numeric type and a float to any float
// type. So `x * 2` works for a float16 `x`, `i + 0.5` with an int32 `i` is an error (write
// `float(i) + 0.5`). Integer `/` on typed ints truncates as in Warp; between two literals it
// is Python's true division, as the host would compute it.
#include <cmath>
#include <map>

#include "frontend/sema/checker.h"

namespace tilec::sema {

using diag::Code;

namespace {

bool IsValueType(const Type* t) {
  switch (t->kind) {
    case TypeKind::Scalar: case TypeKind::Struct: case TypeKind::Array: case TypeKind::Tile:
    case TypeKind::Tuple:
      return true;
    default:
      return false;
  }
}

}  // namespace

diag::DiagnosticEngine::Builder Checker::Error(Code code, SourceRange r, std::string msg) {
  if (silent_) {
    sink_ = {};
    return diag::DiagnosticEngine::Builder(sink_);
  }
  if (fn_) fn_->has_errors = true;
  // The copies of an unrolled body share their source ranges: one report per place and text.
  if (!unroll_scopes_.empty() &&
      !unroll_reported_.insert({int(code), file(), r.begin, r.end, msg}).second) {
    sink_ = {};
    return diag::DiagnosticEngine::Builder(sink_);
  }
  return diags_.Report(code, file(), r, std::move(msg));
}

void Checker::NoteProvenance(diag::DiagnosticEngine::Builder& b, const ExprInfo& info) {
  if (!info.provenance) {
    b.AddNote("the value is computed at run time");
    return;
  }
  if (info.provenance->has_range) b.AddNote(file(), info.provenance->range, info.provenance->message);
  else b.AddNote(info.provenance->message);
}

ExprInfo& Checker::Record(const ast::Expr* e, ExprInfo info) {
  ExprInfo& slot = out_.expr_info[e];
  slot = std::move(info);
  return slot;
}

ExprInfo Checker::ConstInfo(ConstValue v, const Type* t, bool weak) {
  ExprInfo i;
  i.type = t;
  i.value = std::move(v);
  i.weak = weak;
  return i;
}

const Checker::ModuleEntry* Checker::LookupModule(const std::string& name) const {
  const std::map<std::string, ModuleEntry>& view = snapshot_ ? *snapshot_ : scope_;
  auto it = view.find(name);
  if (it != view.end() && it->second.kind != ModuleEntry::Kind::Host) return &it->second;
  if ((fn_ && fn_->is_prelude()) || decl_file_) return nullptr;  // the prelude sees only `wp`
  // Definitions later in the file are visible from bodies (Python resolves them at call
  // time); constants are not (a kernel sees the values they had when it was defined).
  auto late = scope_.find(name);
  if (late != scope_.end() && (late->second.kind == ModuleEntry::Kind::Struct ||
                               late->second.kind == ModuleEntry::Kind::Func ||
                               late->second.kind == ModuleEntry::Kind::FuncSet ||
                               late->second.kind == ModuleEntry::Kind::Kernel))
    return &late->second;
  return it != view.end() ? &it->second : nullptr;
}

bool Checker::Convertible(const ExprInfo& info, const Type* to) const {
  if (!info.type || !to) return false;
  if (info.type == to || info.type->IsError() || to->IsError()) return true;
  if (info.type->IsTile() && to->IsTile())
    return info.type->elem == to->elem && info.type->shape == to->shape;
  if (!info.weak || !info.value || !to->IsScalar() || !info.type->IsScalar()) return false;
  switch (info.value->kind) {
    case ConstValue::Kind::Int: return to->scalar != ScalarType::Bool;
    case ConstValue::Kind::Bool: return true;
    case ConstValue::Kind::Float: return IsFloat(to->scalar);
    default: return false;
  }
}

bool Checker::Convert(const ast::Expr* e, ExprInfo& info, const Type* to) {
  if (!Convertible(info, to)) return false;
  if (info.type != to && info.type->IsScalar() && !info.type->IsError() && !to->IsError()) {
    info.type = to;
    info.weak = false;
    if (e) Record(e, info);
  }
  return true;
}

static const Type* ConstType(TypeContext& types, const ConstValue& v) {
  switch (v.kind) {
    case ConstValue::Kind::Bool: return types.Bool();
    case ConstValue::Kind::Int: return types.Int32();
    case ConstValue::Kind::Float: return types.Float32();
    case ConstValue::Kind::String: return types.String();
    case ConstValue::Kind::None: return types.NoneType();
    case ConstValue::Kind::Type: return types.TypeRef(v.type);
    case ConstValue::Kind::Composite: return v.type;
    case ConstValue::Kind::Tuple: {
      std::vector<const Type*> elems;
      for (const ConstValue& e : v.elems) elems.push_back(ConstType(types, e));
      return types.Tuple(elems);
    }
  }
  return types.Error();
}

ExprInfo Checker::CheckExpr(const ast::Expr* e) {
  ExprInfo info;
  switch (e->kind) {
    case ast::ExprKind::Name: info = CheckName(*e->As<ast::Name>()); break;
    case ast::ExprKind::IntLit: {
      uint64_t v = e->As<ast::IntLit>()->value;
      if (e->As<ast::IntLit>()->too_large) {
        Error(Code::InvalidNumber, e->range,
              "integer literal `" + Text(e) + "` is too large (the limit is 2**64 - 1)");
        info = Poison();
        break;
      }
      info = ConstInfo(ConstValue::MakeInt(int64_t(v)), v > INT32_MAX ? types_.Scalar(ScalarType::Int64) : types_.Int32(), true);
      break;
    }
    case ast::ExprKind::FloatLit:
      // An imaginary literal is host code's (the parser reports it in kernels): no constant.
      if (e->As<ast::FloatLit>()->imaginary) {
        info = Poison();
        break;
      }
      info = ConstInfo(ConstValue::MakeFloat(e->As<ast::FloatLit>()->value), types_.Float32(), true);
      break;
    case ast::ExprKind::BoolLit:
      info = ConstInfo(ConstValue::MakeBool(e->As<ast::BoolLit>()->value), types_.Bool(), true);
      break;
    case ast::ExprKind::StrLit:
      info = ConstInfo(ConstValue::MakeString(e->As<ast::StrLit>()->value), types_.String(), false);
      break;
    case ast::ExprKind::NoneLit: info = ConstInfo(ConstValue{}, types_.NoneType(), false); break;
    case ast::ExprKind::Unary: info = CheckUnary(*e->As<ast::Unary>()); break;
    case ast::ExprKind::Binary: info = CheckBinary(*e->As<ast::Binary>()); break;
    case ast::ExprKind::BoolOp: info = CheckBoolOp(*e->As<ast::BoolOp>()); break;
    case ast::ExprKind::Compare: info = CheckCompare(*e->As<ast::Compare>()); break;
    case ast::ExprKind::IfExp: info = CheckIfExp(*e->As<ast::IfExp>()); break;
    case ast::ExprKind::Call:
      if (const auto* l = dynamic_cast<const ast::Lambda*>(e); l && fn_) info = CheckLambda(*l);
      else info = CheckCall(*e->As<ast::Call>());
      break;
    case ast::ExprKind::Attribute: info = CheckAttribute(*e->As<ast::Attribute>()); break;
    case ast::ExprKind::Subscript: info = CheckSubscript(*e->As<ast::Subscript>()); break;
    case ast::ExprKind::Tuple: info = CheckTuple(*e->As<ast::Tuple>()); break;
    case ast::ExprKind::Slice:
      Error(Code::UnsupportedExpression, e->range, "slices are not supported in kernels");
      info = Poison();
      break;
    case ast::ExprKind::List:
    case ast::ExprKind::Dict:
      Error(Code::UnsupportedExpression, e->range,
            std::string(e->Is<ast::List>() ? "lists" : "dicts") +
                " are not supported in kernels (use a tuple or a tile)");
      info = Poison();
      break;
  }
  if (!info.type) info = Poison();
  return Record(e, std::move(info));
}

// Kernel code has no function values: a lambda is typed where wp.tile_map maps it, once its
// parameters' types (the elements) are known.
ExprInfo Checker::CheckLambda(const ast::Lambda& l) {
  if (&l != mapped_lambda_) {
    Error(Code::UnsupportedSyntax, l.func->range,
          "`lambda` expressions are supported in kernel code only as the function of `wp.tile_map`");
    return Poison();
  }
  for (const ast::Param& p : l.params)
    if (p.default_value) {
      Error(Code::UnsupportedSyntax, p.range, "a mapped `lambda` cannot have default parameter values");
      return Poison();
    }
  CheckedModule::LambdaInfo info;
  info.def = &l;
  out_.lambdas.push_back(info);
  return ConstInfo(ConstValue{}, types_.Function({CalleeKind::Lambda, int(out_.lambdas.size()) - 1}), false);
}

ExprInfo Checker::CheckLambdaBody(int index, const std::vector<const Type*>& elems) {
  CheckedModule::LambdaInfo& l = out_.lambdas[size_t(index)];
  std::vector<std::pair<std::string, LocalSymbol*>> shadowed;
  l.params.clear();
  for (size_t k = 0; k < l.def->params.size(); ++k) {
    const ast::Param& p = l.def->params[k];
    auto it = locals_.find(p.name);
    shadowed.emplace_back(p.name, it == locals_.end() ? nullptr : it->second);
    l.params.push_back(NewLocal(p.name, SymbolKind::Param, elems[k], p.name_range));
  }
  ExprInfo r = CheckExpr(l.def->body.get());
  for (auto& [name, sym] : shadowed) {
    if (sym) locals_[name] = sym;
    else locals_.erase(name);
  }
  l.checked = true;
  return r;
}

ExprInfo Checker::CheckName(const ast::Name& n) {
  if (fn_ && IsEllipsis(&n) && !locals_.count(n.id)) {
    Error(Code::UnsupportedExpression, n.range,
          "`...` is not a value in kernels (it may be a stub's body or stand in a `tuple[T, ...]` annotation)");
    return Poison();
  }
  if (fn_) {
    auto it = locals_.find(n.id);
    if (it != locals_.end()) {
      LocalSymbol* sym = it->second;
      out_.symbols[&n] = sym;
      ExprInfo info;
      info.type = sym->type;
      info.uniform = sym->uniform;
      if (sym->constant) {
        info.value = sym->constant;
        info.weak = local_weak_[sym];
      } else {
        auto p = local_prov_.find(sym);
        if (p != local_prov_.end()) info.provenance = p->second;
      }
      return info;
    }
  }
  const ModuleEntry* e = LookupModule(n.id);
  if (e) {
    switch (e->kind) {
      // A vector or matrix constant has its own type; only a number takes the width it meets.
      case ModuleEntry::Kind::Constant:
        return ConstInfo(e->value, ConstType(types_, e->value), e->value.kind != ConstValue::Kind::Composite);
      case ModuleEntry::Kind::Struct: {
        const Type* t = types_.Struct(e->index, out_.structs[e->index].name);
        return ConstInfo(ConstValue::MakeType(t), types_.TypeRef(t), false);
      }
      case ModuleEntry::Kind::Func:
        return ConstInfo(ConstValue{}, types_.Function({CalleeKind::UserFunc, e->index}), false);
      case ModuleEntry::Kind::FuncSet:
        return ConstInfo(ConstValue{}, types_.Function({CalleeKind::Overloads, e->index}), false);
      case ModuleEntry::Kind::Kernel:
        return ConstInfo(ConstValue{}, types_.Function({CalleeKind::Kernel, e->index}), false);
      case ModuleEntry::Kind::Module: return ConstInfo(ConstValue{}, types_.Module(e->module), false);
      case ModuleEntry::Kind::Host:
        if (fn_)
          Error(Code::HostValueInKernel, n.range,
                "`" + n.id + "` is defined by host code (line " + std::to_string(Line(e->range)) +
                    "); kernels can read only module constants, parameters and locals");
        return Poison();
    }
  }
  if (fn_ && fn_->is_prelude()) {
    // Prelude bodies call each other by bare name, through the overloads.
    if (int set = PreludeSet(n.id); set >= 0)
      return ConstInfo(ConstValue{}, types_.Function({CalleeKind::Overloads, set}), false);
    if (int set = PreludeHelper(n.id); set >= 0)
      return ConstInfo(ConstValue{}, types_.Function({CalleeKind::Overloads, set}), false);
  }
  if (n.id == "int" || n.id == "float" || n.id == "bool") {
    const Type* t = types_.Scalar(*ScalarFromName(n.id));
    return ConstInfo(ConstValue::MakeType(t), types_.TypeRef(t), false);
  }
  if (const Builtin* b = FindBuiltin("", n.id))
    return ConstInfo(ConstValue{}, types_.Function({CalleeKind::Builtin, BuiltinIndex(b)}), false);
  // As in Warp, a kernel may name a `wp` function or type without `wp.` (`vec3(...)`).
  if (fn_ && !assignments_.count(n.id))
    if (std::optional<ExprInfo> member = WarpMember(n.id)) return *member;
  if (fn_ && assignments_.count(n.id))
    Error(Code::UnknownName, n.range, "`" + n.id + "` is used before it is assigned");
  else
    Error(Code::UnknownName, n.range, "unknown name `" + n.id + "`");
  return Poison();
}

ExprInfo Checker::CheckAttribute(const ast::Attribute& a) {
  ExprInfo base = CheckExpr(a.value.get());
  const Type* bt = base.type;
  if (bt->IsError()) return Poison();
  if (bt->kind == TypeKind::Module) {
    if (bt->module == ModuleId::Numpy) {
      Error(Code::UnknownAttribute, a.range,
            "`" + Text(&a) + "` is host code: NumPy is not available in kernels");
      return Poison();
    }
    if (std::optional<ExprInfo> member = WarpMember(a.attr)) return *member;
    // Warp's math constants (warp/constants.py): floats that take the width they meet.
    static const std::map<std::string, double> kConstants = {
        {"pi", 3.14159265358979323846}, {"e", 2.71828182845904523536}, {"tau", 6.28318530717958647692},
        {"half_pi", 1.57079632679489661923}, {"phi", 1.61803398874989484820}, {"ln2", 0.69314718055994530942},
        {"ln10", 2.30258509299404568402}, {"log2e", 1.44269504088896340736}, {"log10e", 0.43429448190325182765},
        {"inf", HUGE_VAL}, {"nan", NAN}};
    if (auto it = kConstants.find(a.attr); it != kConstants.end())
      return ConstInfo(ConstValue::MakeFloat(it->second), types_.Float32(), true);
    static const std::set<std::string> kHostApi = {
        "launch", "launch_tiled", "array", "zeros", "ones", "full", "empty", "zeros_like", "ones_like",
        "clone", "Tape", "synchronize", "get_device", "set_device", "is_cuda_available", "constant",
        "array1d", "array2d", "array3d", "array4d", "kernel", "func", "struct"};
    if (kHostApi.count(a.attr))
      Error(Code::UnknownAttribute, a.attr_range, "`wp." + a.attr + "` cannot be used in kernel code");
    else
      Error(Code::UnknownAttribute, a.attr_range, "`wp` has no kernel builtin `" + a.attr + "`");
    return Poison();
  }
  if (CompositeOf(bt)) return CompositeAttribute(a, base);
  if (bt->kind == TypeKind::Struct) {
    auto field = [&](const FieldInfo& f) {
      ExprInfo info;
      info.type = f.type;
      info.uniform = base.uniform;
      info.provenance = base.provenance;
      return info;
    };
    for (const FieldInfo& f : out_.structs[bt->struct_index].fields)
      if (f.name == a.attr) return field(f);
    for (const FieldInfo& f : out_.structs[bt->struct_index].array_fields) {
      if (f.name != a.attr) continue;
      // The kernel receives the field as an array parameter of its own, so the struct must be
      // one it was given: a parameter, or a struct field of one.
      const ast::Expr* root = a.value.get();
      while (const auto* inner = root->As<ast::Attribute>()) root = inner->value.get();
      auto sym = root->Is<ast::Name>() ? out_.symbols.find(root) : out_.symbols.end();
      if (sym == out_.symbols.end() || sym->second->kind != SymbolKind::Param) {
        Error(Code::ArrayStructMisuse, a.range,
              "array field `" + a.attr + "` of struct `" + bt->struct_name +
                  "` is read from a kernel or func parameter (`s." + a.attr + "`), not from `" + Text(a.value.get()) +
                  "`");
        return Poison();
      }
      return field(f);
    }
    Error(Code::UnknownAttribute, a.attr_range, "struct `" + bt->struct_name + "` has no field `" + a.attr + "`");
    return Poison();
  }
  if (bt->IsArray() && a.attr == "shape") {
    ExprInfo info;
    info.type = types_.Tuple(std::vector<const Type*>(bt->ndim, types_.Int32()));
    info.uniform = base.uniform;
    info.provenance = Provenance{"`" + Text(&a) + "` is the shape of an array, known only at launch",
                                 a.range, true};
    return info;
  }
  // `a.dtype` names the element type, as in Warp's generic code (`wp.tile_zeros(..., dtype=A.dtype)`,
  // `a.dtype(1)`): a compile-time type, also where the array itself is known only at launch.
  if ((bt->IsArray() || bt->IsTile()) && a.attr == "dtype") {
    const Type* t = types_.FromElem(bt->elem);
    return ConstInfo(ConstValue::MakeType(t), types_.TypeRef(t), false);
  }
  if (bt->IsTile() && a.attr == "shape") {
    std::vector<ConstValue> dims;
    for (int64_t d : bt->shape) dims.push_back(ConstValue::MakeInt(d));
    ConstValue v = ConstValue::MakeTuple(dims);
    return ConstInfo(v, ConstType(types_, v), true);
  }
  Error(Code::UnknownAttribute, a.attr_range,
        "`" + TypeName(bt) + "` has no attribute `" + a.attr + "`" +
            (bt->IsArray() || bt->IsTile() ? " (expected `shape` or `dtype`)" : ""));
  return Poison();
}

namespace {

// Python's slice.indices(length): the start and the element count of `lower:upper:step`.
void SliceIndices(std::optional<int64_t> lo, std::optional<int64_t> hi, int64_t step, int64_t len, int64_t& start,
                  int64_t& count) {
  auto clamp = [&](std::optional<int64_t> v, int64_t dflt) {
    if (!v) return dflt;
    int64_t x = *v < 0 ? *v + len : *v;
    if (x < 0) return step < 0 ? int64_t(-1) : int64_t(0);
    if (x >= len) return step < 0 ? len - 1 : len;
    return x;
  };
  start = clamp(lo, step < 0 ? len - 1 : 0);
  int64_t stop = clamp(hi, step < 0 ? -1 : len);
  if (step < 0) count = stop < start ? (start - stop - 1) / -step + 1 : 0;
  else count = start < stop ? (stop - start - 1) / step + 1 : 0;
}

}  // namespace

ExprInfo Checker::CheckTileAccess(const ast::Subscript& s, const ExprInfo& base, const std::vector<const ast::Expr*>& idx) {
  const Type* bt = base.type;
  std::string tname = "`" + Text(s.value.get()) + "`";
  if (int(idx.size()) > bt->ndim) {
    Error(Code::TileIndexCount, s.index->range,
          "tile " + tname + " has " + std::to_string(bt->ndim) + " dimension" + (bt->ndim == 1 ? "" : "s") +
              " but is indexed with " + std::to_string(idx.size()) + " entries");
    return Poison();
  }
  // Each entry: a slice (constant parts), an int, or an index tile.
  std::vector<ExprInfo> infos(idx.size());
  bool poisoned = false;
  int tile_entry = -1;
  for (size_t k = 0; k < idx.size(); ++k) {
    if (const auto* sl = idx[k]->As<ast::Slice>()) {
      for (const ast::Expr* part : {sl->lower.get(), sl->upper.get(), sl->step.get()}) {
        if (!part) continue;
        ExprInfo pi = CheckExpr(part);
        if (pi.type->IsError()) { poisoned = true; continue; }
        if (!pi.value || pi.value->kind != ConstValue::Kind::Int) {
          auto b = Error(Code::BadTileSlice, part->range,
                         "a tile slice bound must be a compile-time constant int, found `" + Text(part) + "`");
          NoteProvenance(b, pi);
          poisoned = true;
        }
      }
      infos[k].type = types_.Void();
      continue;
    }
    infos[k] = CheckExpr(idx[k]);
    if (infos[k].type->IsError()) { poisoned = true; continue; }
    if (infos[k].type->IsTile()) {
      if (tile_entry >= 0) {
        Error(Code::BadTileGather, idx[k]->range, "a tile can be indexed with one index tile, found a second one");
        poisoned = true;
      }
      tile_entry = int(k);
      continue;
    }
    if (!infos[k].type->IsInt() && !Convert(idx[k], infos[k], types_.Int32())) {
      Error(Code::TileIndexCount, idx[k]->range, "tile indices must be integers or slices, found `" + TypeName(infos[k].type) + "`");
      poisoned = true;
    }
  }
  if (poisoned || bt->IsError()) return Poison();

  TileAccess acc;
  ExprInfo info;
  info.uniform = base.uniform;
  std::vector<CallArg> uniform_args;
  if (tile_entry >= 0) {
    // t[idx, :, ...]: every other entry a full slice.
    const Type* it = infos[size_t(tile_entry)].type;
    if (it->ndim != 1 || it->elem.is_struct() || !IsInteger(it->elem.scalar)) {
      Error(Code::BadTileGather, idx[size_t(tile_entry)]->range,
            "a gather takes a 1-D integer index tile, found `" + TypeName(it) + "`");
      return Poison();
    }
    for (size_t k = 0; k < idx.size(); ++k) {
      if (int(k) == tile_entry) continue;
      const auto* sl = idx[k]->As<ast::Slice>();
      if (!sl || sl->lower || sl->upper || sl->step) {
        Error(Code::BadTileGather, idx[k]->range,
              "an index tile requires ':' on all other axes, found `" + Text(idx[k]) + "`");
        return Poison();
      }
    }
    acc.kind = TileAccess::Kind::Gather;
    acc.axis = tile_entry;
    acc.indices = idx[size_t(tile_entry)];
    std::vector<int64_t> shape = bt->shape;
    shape[size_t(tile_entry)] = it->shape[0];
    info.type = types_.Tile(bt->elem, shape, Storage::Register);
  } else {
    std::vector<int64_t> shape;
    for (int d = 0; d < bt->ndim; ++d) {
      const int64_t len = bt->shape[size_t(d)];
      const ast::Expr* e = d < int(idx.size()) ? idx[size_t(d)] : nullptr;
      const auto* sl = e ? e->As<ast::Slice>() : nullptr;
      if (e && !sl) {
        // An int selects and drops the dimension; a constant one is checked here.
        const ExprInfo& ei = infos[size_t(d)];
        int64_t start = 0;
        const ast::Expr* runtime = e;
        if (ei.value && ei.value->kind == ConstValue::Kind::Int) {
          start = ei.value->i < 0 ? ei.value->i + len : ei.value->i;
          if (start < 0 || start >= len) {
            Error(Code::BadTileRegion, e->range,
                  "index " + std::to_string(ei.value->i) + " is out of bounds for dimension " + std::to_string(d) +
                      " of " + tname + ", of extent " + std::to_string(len));
            return Poison();
          }
          runtime = nullptr;
        } else {
          info.uniform &= ei.uniform;
          uniform_args.push_back(CallArg{e, ei, "", e->range, {}});
        }
        acc.index.push_back(runtime);
        acc.start.push_back(start);
        acc.step.push_back(0);
        continue;
      }
      auto part = [&](const ast::ExprPtr& p) -> std::optional<int64_t> {
        if (!p) return std::nullopt;
        return out_.Info(p.get())->value->i;
      };
      int64_t step = sl ? part(sl->step).value_or(1) : 1;
      if (step == 0) {
        Error(Code::BadTileSlice, sl->step->range, "a slice step cannot be zero");
        return Poison();
      }
      int64_t start, count;
      SliceIndices(sl ? part(sl->lower) : std::nullopt, sl ? part(sl->upper) : std::nullopt, step, len, start, count);
      if (count <= 0) {
        Error(Code::BadTileSlice, e->range,
              "slice `" + Text(e) + "` of dimension " + std::to_string(d) + " of " + tname + " (extent " +
                  std::to_string(len) + ") selects no elements: an empty tile, but a tile has at least one element per dimension");
        return Poison();
      }
      acc.index.push_back(nullptr);
      acc.start.push_back(start);
      acc.step.push_back(step);
      shape.push_back(count);
    }
    info.type = types_.Tile(bt->elem, shape, Storage::Register);
  }
  MarkTileOp(&s, acc.kind == TileAccess::Kind::View ? "a tile view" : "a tile gather", uniform_args);
  out_.tile_access[&s] = std::move(acc);
  return info;
}

ExprInfo Checker::CheckSubscript(const ast::Subscript& s) {
  ExprInfo base = CheckExpr(s.value.get());
  const Type* bt = base.type;
  std::vector<const ast::Expr*> idx;
  if (const auto* t = s.index->As<ast::Tuple>()) {
    for (const ast::ExprPtr& e : t->elts) idx.push_back(e.get());
  } else {
    idx.push_back(s.index.get());
  }
  if (bt->IsTile()) {
    bool plain = int(idx.size()) == bt->ndim;
    for (const ast::Expr* e : idx) plain &= !e->Is<ast::Slice>();
    if (!plain) return CheckTileAccess(s, base, idx);
    ExprInfo ii = CheckExpr(s.index.get());
    for (const ast::Expr* e : idx) {
      const ExprInfo* ei = out_.Info(e);
      if (ei && ei->type->IsTile()) return CheckTileAccess(s, base, idx);
    }
    CallArg t{s.value.get(), base, "", s.value->range, {}};
    CallArg i{s.index.get(), ii, "", s.index->range, {}};
    return CallBuiltin(OperatorBuiltin("tile_extract"), &s, s.range, {t, i});
  }
  std::vector<ExprInfo> infos;
  bool poisoned = bt->IsError();
  bool sliced = false;
  if (const Composite* k = CompositeOf(bt); k && k->kind == CompositeKind::Vector && idx.size() == 1)
    if (const auto* sl = idx[0]->As<ast::Slice>()) return VectorSlice(s, base, *sl);
  for (const ast::Expr* e : idx) {
    if (const auto* sl = e->As<ast::Slice>()) {
      if (!bt->IsArray()) {
        if (!bt->IsError()) Error(Code::UnsupportedExpression, e->range, "slices are not supported in kernels");
        poisoned = true;
        infos.push_back(Poison());
        continue;
      }
      // An array slice `a[lo:hi:step]` (Warp's array view): runtime int bounds, a constant step.
      sliced = true;
      ExprInfo si;
      si.type = types_.Void();
      si.uniform = true;
      for (const ast::Expr* part : {sl->lower.get(), sl->upper.get(), sl->step.get()}) {
        if (!part) continue;
        ExprInfo pi = CheckExpr(part);
        if (pi.type->IsError()) {
          poisoned = true;
          continue;
        }
        if (!pi.type->IsInt() && !Convert(part, pi, types_.Int32())) {
          Error(Code::BadIndex, part->range, "an array slice bound must be an integer, found `" + TypeName(pi.type) + "`");
          poisoned = true;
        } else if (part == sl->step.get() && (!pi.value || pi.value->kind != ConstValue::Kind::Int || pi.value->i == 0)) {
          if (pi.value) {
            Error(Code::BadIndex, part->range, "an array slice step cannot be zero");
          } else {
            auto b = Error(Code::BadIndex, part->range,
                           "an array slice step must be a compile-time constant int, found `" + Text(part) + "`");
            NoteProvenance(b, pi);
          }
          poisoned = true;
        }
        si.uniform &= pi.uniform;
      }
      infos.push_back(si);
      continue;
    }
    infos.push_back(CheckExpr(e));
    poisoned |= infos.back().type->IsError();
  }
  if (s.index->Is<ast::Tuple>()) {
    std::vector<const Type*> ts;
    for (const ExprInfo& i : infos) ts.push_back(i.type);
    ExprInfo ti;
    ti.type = types_.Tuple(ts);
    Record(s.index.get(), ti);
  }
  if (bt->IsError()) return Poison();
  if (CompositeOf(bt)) return poisoned ? Poison() : CompositeSubscript(s, base, idx, infos);
  if (bt->IsArray() && sliced) {
    // a[lo:hi:step, i, ...]: a view of the array; an int entry drops its dimension.
    if (poisoned) return Poison();
    if (int(idx.size()) > bt->ndim) {
      Error(Code::BadIndex, s.index->range,
            "array `" + Text(s.value.get()) + "` has " + std::to_string(bt->ndim) + " dimension" +
                (bt->ndim == 1 ? "" : "s") + " but is indexed with " + std::to_string(idx.size()) + " entries");
      return Poison();
    }
    ExprInfo info;
    int kept = bt->ndim;
    info.uniform = base.uniform;
    for (size_t k = 0; k < idx.size(); ++k) {
      info.uniform &= infos[k].uniform;
      if (idx[k]->Is<ast::Slice>()) continue;
      --kept;
      if (!infos[k].type->IsInt() && !Convert(idx[k], infos[k], types_.Int32())) {
        Error(Code::BadIndex, idx[k]->range, "array index must be an integer, found `" + TypeName(infos[k].type) + "`");
        return Poison();
      }
    }
    info.type = types_.Array(bt->elem, kept);
    return info;
  }
  if (bt->IsArray()) {
    if (int(idx.size()) < bt->ndim && !poisoned) {
      // a[i] of an n-D array: the (n-k)-D view at those leading indices (Warp's array view).
      ExprInfo info;
      info.type = types_.Array(bt->elem, bt->ndim - int(idx.size()));
      info.uniform = base.uniform;
      for (size_t k = 0; k < idx.size(); ++k) {
        if (!infos[k].type->IsInt() && !Convert(idx[k], infos[k], types_.Int32())) {
          Error(Code::BadIndex, idx[k]->range, "array index must be an integer, found `" + TypeName(infos[k].type) + "`");
          return Poison();
        }
        info.uniform &= infos[k].uniform;
      }
      return info;
    }
    if (int(idx.size()) != bt->ndim) {
      Error(Code::BadIndex, s.index->range,
            "array `" + Text(s.value.get()) + "` has " + std::to_string(bt->ndim) + " dimension" +
                (bt->ndim == 1 ? "" : "s") + " but is indexed with " + std::to_string(idx.size()) +
                " index" + (idx.size() == 1 ? "" : "es"));
      return Poison();
    }
    ExprInfo info;
    info.type = types_.FromElem(bt->elem);
    info.uniform = base.uniform;
    for (size_t k = 0; k < idx.size(); ++k) {
      if (infos[k].type->IsError()) continue;
      if (!infos[k].type->IsInt() && !Convert(idx[k], infos[k], types_.Int32())) {
        Error(Code::BadIndex, idx[k]->range, "array index must be an integer, found `" + TypeName(infos[k].type) + "`");
        poisoned = true;
      }
      info.uniform &= infos[k].uniform;
    }
    if (poisoned) return Poison();
    info.provenance = Provenance{"`" + Text(&s) + "` is read from array memory at run time", s.range, true};
    return info;
  }
  if (bt->kind == TypeKind::Tuple) {
    if (idx.size() != 1 || poisoned) {
      if (!poisoned) Error(Code::BadIndex, s.index->range, "a tuple takes one constant index");
      return Poison();
    }
    if (!infos[0].value || infos[0].value->kind != ConstValue::Kind::Int) {
      Error(Code::BadIndex, s.index->range, "a tuple index must be a constant int");
      return Poison();
    }
    int64_t k = infos[0].value->i, n = int64_t(bt->elems.size());
    if (k < -n || k >= n) {
      Error(Code::BadIndex, s.index->range,
            "index " + std::to_string(k) + " is out of range for a tuple of " + std::to_string(n));
      return Poison();
    }
    if (k < 0) k += n;
    ExprInfo info;
    info.type = bt->elems[k];
    info.uniform = base.uniform;
    if (base.value && base.value->kind == ConstValue::Kind::Tuple) {
      info.value = base.value->elems[k];
      info.weak = base.weak;
    } else if (const auto* attr = s.value->As<ast::Attribute>(); attr && attr->attr == "shape") {
      info.provenance = Provenance{"`" + Text(&s) + "` is an array extent, known only at launch", s.range, true};
    } else {
      info.provenance = base.provenance;
    }
    return info;
  }
  Error(Code::BadIndex, s.value->range, "`" + Text(s.value.get()) + "` of type `" + TypeName(bt) + "` cannot be indexed");
  return Poison();
}

ExprInfo Checker::CheckUnary(const ast::Unary& u) {
  ExprInfo v = CheckExpr(u.operand.get());
  if (v.type->IsError()) return Poison();
  if (v.type->IsTile() && u.op == ast::UnaryOp::Neg) {
    CallArg t{u.operand.get(), v, "", u.operand->range, {}};
    return CallBuiltin(OperatorBuiltin("tile_neg"), &u, u.range, {t});
  }
  if (CompositeOf(v.type)) return CompositeUnary(u, v);
  if (u.op == ast::UnaryOp::Not && v.type->IsArray()) {  // Warp: an empty (or None) array is falsy
    ExprInfo r = v;
    r.type = types_.Bool();
    r.value.reset();
    return r;
  }
  if (!v.type->IsScalar()) {
    Error(Code::InvalidOperand, u.range,
          std::string("unary `") + ast::Spelling(u.op) + "` is not defined for `" + TypeName(v.type) + "`");
    return Poison();
  }
  ExprInfo r = v;
  if (u.op == ast::UnaryOp::Not) {
    r.type = types_.Bool();
    r.weak = false;
  } else if (u.op == ast::UnaryOp::Invert && !v.type->IsInt()) {
    Error(Code::InvalidOperand, u.range, "`~` needs an integer, found `" + TypeName(v.type) + "`");
    return Poison();
  } else if (v.type->scalar == ScalarType::Bool && u.op != ast::UnaryOp::Not) {
    if (!v.weak) {
      Error(Code::InvalidOperand, u.range,
            std::string("unary `") + ast::Spelling(u.op) + "` is not defined for `bool`");
      return Poison();
    }
    r.type = types_.Int32();
  } else if ((u.op == ast::UnaryOp::Neg) && v.type->IsInt() && !IsSigned(v.type->scalar) && !v.weak) {
    // Warp allows negating unsigned values (wrap-around), so do we.
  }
  if (v.value) {
    std::string err;
    r.value = FoldUnary(u.op, *v.value, err);
    if (!r.value) r.provenance = Provenance{"`" + Text(&u) + "` is computed at run time", u.range, true};
  }
  return r;
}

ExprInfo Checker::CheckBinary(const ast::Binary& b) {
  ExprInfo l = CheckExpr(b.lhs.get());
  ExprInfo r = CheckExpr(b.rhs.get());
  if (l.type->IsError() || r.type->IsError()) return Poison();
  if (l.type->IsTile() || r.type->IsTile())
    return TileBinary(&b, b.op, b.op_range, b.lhs.get(), l, b.rhs.get(), r);
  if (CompositeOf(l.type) || CompositeOf(r.type))
    return CompositeBinary(&b, b.op, b.op_range, b.lhs.get(), l, b.rhs.get(), r);
  return ScalarBinary(&b, b.op, b.op_range, b.lhs.get(), l, b.rhs.get(), r);
}

ExprInfo Checker::TileBinary(const ast::Expr* node, ast::BinaryOp op, SourceRange op_range,
                             const ast::Expr* l, ExprInfo li, const ast::Expr* r, ExprInfo ri) {
  const char* name = op == ast::BinaryOp::Add   ? "tile_add"
                     : op == ast::BinaryOp::Sub ? "tile_sub"
                     : op == ast::BinaryOp::Mul ? "tile_mul"
                     : op == ast::BinaryOp::Div ? "tile_div"
                     : op == ast::BinaryOp::BitAnd ? "tile_bit_and"
                     : op == ast::BinaryOp::BitOr  ? "tile_bit_or"
                     : op == ast::BinaryOp::BitXor ? "tile_bit_xor"
                                                : nullptr;
  if (!name) {
    Error(Code::TileOperatorUnsupported, op_range,
          std::string("`") + ast::Spelling(op) +
              "` is not supported on tiles (expected `+`, `-`, `*`, `/`, `&`, `|` or `^`)");
    return Poison();
  }
  bool lt = li.type->IsTile(), rt = ri.type->IsTile();
  if (lt != rt && op != ast::BinaryOp::Mul && op != ast::BinaryOp::Div) {
    const ast::Expr* other = lt ? r : l;
    Error(Code::TileOperatorUnsupported, other->range,
          std::string("`") + ast::Spelling(op) + "` needs two tiles, found `" + TypeName((lt ? ri : li).type) +
              "`; only `*` and `/` take a scalar");
    return Poison();
  }
  CallArg a{l, li, "", l->range, {}};
  CallArg c{r, ri, "", r->range, {}};
  return CallBuiltin(OperatorBuiltin(name), node, op_range, {a, c});
}

ExprInfo Checker::ScalarBinary(const ast::Expr* node, ast::BinaryOp op, SourceRange op_range,
                               const ast::Expr* l, ExprInfo li, const ast::Expr* r, ExprInfo ri) {
  std::string sp = ast::Spelling(op);
  if (!li.type->IsScalar() || !ri.type->IsScalar()) {
    bool both_const = li.value && ri.value;
    if (!(both_const && li.value->kind == ConstValue::Kind::Tuple)) {
      Error(Code::InvalidOperand, op_range,
            "`" + sp + "` is not defined for `" + TypeName(li.type) + "` and `" + TypeName(ri.type) + "`");
      return Poison();
    }
  }
  const Type* t = nullptr;
  if (li.type == ri.type) {
    t = li.type;
  } else if (li.weak && ri.weak) {
    t = (li.type->IsFloatScalar() || ri.type->IsFloatScalar()) ? types_.Float32() : types_.Int32();
  } else if (li.weak && Convert(l, li, ri.type)) {
    t = ri.type;
  } else if (ri.weak && Convert(r, ri, li.type)) {
    t = li.type;
  } else {
    Error(Code::OperandTypeMismatch, op_range,
          "mismatched types in `" + sp + "`: `" + TypeName(li.type) + "` and `" + TypeName(ri.type) +
              "`; convert one side explicitly, e.g. `wp." + std::string(ScalarName(li.type->scalar)) + "(...)`");
    return Poison();
  }
  bool int_only = op == ast::BinaryOp::BitAnd || op == ast::BinaryOp::BitOr || op == ast::BinaryOp::BitXor ||
                  op == ast::BinaryOp::LShift || op == ast::BinaryOp::RShift;
  if (op == ast::BinaryOp::MatMul || (int_only && !t->IsInt() && t->scalar != ScalarType::Bool) ||
      (t->scalar == ScalarType::Bool && !int_only && !(li.weak && ri.weak))) {
    Error(Code::InvalidOperand, op_range, "`" + sp + "` is not defined for `" + TypeName(t) + "`");
    return Poison();
  }
  ExprInfo out;
  out.type = t;
  out.weak = li.weak && ri.weak;
  out.uniform = li.uniform && ri.uniform;
  if (li.value && ri.value) {
    std::string err;
    std::optional<ConstValue> v;
    // Kernel code folds as it would compute; module-level expressions as the host's Python.
    const FoldRules rules = fn_ && !python_fold_ ? FoldRules::Kernel : FoldRules::Python;
    if (op == ast::BinaryOp::Div && t->IsInt() && !out.weak) {
      // Warp's `/` on typed integers truncates toward zero (C semantics).
      if (ri.value->AsInt() == 0) err = "division by zero";
      else v = ConstValue::MakeInt(li.value->AsInt() / ri.value->AsInt());
    } else if (out.weak) {
      v = FoldBinary(op, *li.value, *ri.value, err, rules);
    } else {
      // Typed operands fold as the machine computes them: each at the type's width, the
      // result rounded once (a double holds any float32 or float16 result exactly first).
      v = FoldBinary(op, InScalarType(*li.value, t->scalar), InScalarType(*ri.value, t->scalar), err, rules);
      if (v) v = InScalarType(*v, t->scalar);
    }
    if (!v) {
      Error(Code::ConstantEvalError, node->range, "constant expression `" + Text(node) + "` fails: " + err);
      return Poison();
    }
    if (out.weak && v->kind == ConstValue::Kind::Float) out.type = types_.Float32();
    out.value = v;
  } else {
    out.provenance = !li.value ? li.provenance : ri.provenance;
  }
  return out;
}

ExprInfo Checker::CheckCompare(const ast::Compare& c) {
  ExprInfo l = CheckExpr(c.left.get());
  const ast::Expr* le = c.left.get();
  ExprInfo out = ConstInfo(ConstValue::MakeBool(true), types_.Bool(), false);
  bool poisoned = l.type->IsError();
  for (size_t k = 0; k < c.ops.size(); ++k) {
    ExprInfo r = CheckExpr(c.comparators[k].get());
    const ast::Expr* re = c.comparators[k].get();
    if (poisoned || r.type->IsError()) {
      poisoned = true;
      continue;
    }
    ast::CmpOp op = c.ops[k];
    if (CompositeOf(l.type) || CompositeOf(r.type)) return CompositeCompare(c, l, r);
    if (op == ast::CmpOp::In || op == ast::CmpOp::NotIn || op == ast::CmpOp::Is || op == ast::CmpOp::IsNot ||
        !l.type->IsScalar() || !r.type->IsScalar()) {
      Error(Code::InvalidOperand, re->range,
            std::string("`") + ast::Spelling(op) + "` is not defined for `" + TypeName(l.type) + "` and `" +
                TypeName(r.type) + "` in kernels");
      poisoned = true;
      continue;
    }
    if (l.type != r.type && !(l.weak && r.weak) && !(l.weak && Convert(le, l, r.type)) &&
        !(r.weak && Convert(re, r, l.type))) {
      Error(Code::OperandTypeMismatch, re->range,
            "mismatched types in comparison: `" + TypeName(l.type) + "` and `" + TypeName(r.type) + "`");
      poisoned = true;
      continue;
    }
    out.uniform &= l.uniform && r.uniform;
    if (out.value && l.value && r.value) {
      // A weak literal compares at the width of the typed side, as after its conversion.
      ConstValue lv = *l.value, rv = *r.value;
      if (!(l.weak && r.weak)) {
        ScalarType common = (!l.weak ? l.type : r.type)->scalar;
        lv = InScalarType(lv, common);
        rv = InScalarType(rv, common);
      }
      std::optional<ConstValue> v = FoldCompare(op, lv, rv);
      if (v && !v->b) out.value = v;
      if (!v) out.value.reset();
    } else if (out.value) {
      out.provenance = !l.value ? l.provenance : r.provenance;
      out.value.reset();
    }
    l = r;
    le = re;
  }
  if (poisoned) return Poison();
  return out;
}

ExprInfo Checker::CheckBoolOp(const ast::BoolOp& b) {
  ExprInfo out = ConstInfo(ConstValue::MakeBool(b.op == ast::BoolOpKind::And), types_.Bool(), false);
  bool poisoned = false;
  for (const ast::ExprPtr& v : b.values) {
    ExprInfo i = CheckExpr(v.get());
    if (i.type->IsError()) { poisoned = true; continue; }
    if (!IsCondition(i.type)) {
      Error(Code::InvalidCondition, v->range,
            std::string("`") + ast::Spelling(b.op) + "` needs scalar or array operands, found `" + TypeName(i.type) + "`");
      poisoned = true;
      continue;
    }
    out.uniform &= i.uniform;
    if (out.value && i.value) {
      bool t = i.value->Truthy();
      out.value = ConstValue::MakeBool(b.op == ast::BoolOpKind::And ? (out.value->b && t) : (out.value->b || t));
    } else if (out.value) {
      out.value.reset();
      out.provenance = i.provenance;
    }
  }
  return poisoned ? Poison() : out;
}

ExprInfo Checker::CheckIfExp(const ast::IfExp& e) {
  ExprInfo c = CheckExpr(e.cond.get());
  ExprInfo a = CheckExpr(e.then_value.get());
  ExprInfo b = CheckExpr(e.else_value.get());
  if (c.type->IsError() || a.type->IsError() || b.type->IsError()) return Poison();
  if (!IsCondition(c.type)) {
    Error(Code::InvalidCondition, e.cond->range, "a condition must be a scalar or an array, found `" + TypeName(c.type) + "`");
    return Poison();
  }
  if (a.type != b.type && !(a.weak && Convert(e.then_value.get(), a, b.type)) &&
      !(b.weak && Convert(e.else_value.get(), b, a.type))) {
    Error(Code::OperandTypeMismatch, e.else_value->range,
          "the branches of a conditional expression have different types: `" + TypeName(a.type) + "` and `" +
              TypeName(b.type) + "`");
    return Poison();
  }
  ExprInfo out;
  out.type = a.type;
  out.uniform = c.uniform && a.uniform && b.uniform;
  if (c.value) {
    ExprInfo& pick = c.value->Truthy() ? a : b;
    out.value = pick.value;
    out.weak = pick.weak;
    out.provenance = pick.provenance;
  } else {
    out.provenance = c.provenance;
  }
  return out;
}

ExprInfo Checker::CheckTuple(const ast::Tuple& t) {
  std::vector<const Type*> elems;
  std::vector<ConstValue> values;
  ExprInfo out;
  bool all_const = true, poisoned = false, weak = true;
  for (const ast::ExprPtr& e : t.elts) {
    ExprInfo i = CheckExpr(e.get());
    poisoned |= i.type->IsError();
    if (!poisoned && !IsValueType(i.type) && i.type->kind != TypeKind::String) {
      Error(Code::UnsupportedExpression, e->range, "a tuple in a kernel holds values, found `" + TypeName(i.type) + "`");
      poisoned = true;
    }
    elems.push_back(i.type);
    out.uniform &= i.uniform;
    weak &= i.weak;
    if (i.value) {
      values.push_back(*i.value);
    } else {
      if (all_const) out.provenance = i.provenance;
      all_const = false;
    }
  }
  if (poisoned) return Poison();
  out.type = types_.Tuple(elems);
  if (all_const) {
    out.value = ConstValue::MakeTuple(values);
    out.weak = weak;
    out.provenance.reset();
  }
  return out;
}

}  // namespace tilec::sema
