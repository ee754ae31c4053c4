// Warp's generic kernels on the host: which parameters a `def` leaves generic, the concrete types
// that wp.overload entries and launch arguments name, and the instance for each signature (the
// kernel's text with those types written into its annotations, compiled as any kernel is).
#include "host/interp/wp_generic.h"

#include <algorithm>

#include "host/interp/args.h"
#include "host/interp/array_values.h"
#include "host/interp/interpreter.h"
#include "host/interp/wp_composite.h"

namespace tilec::host {

bool IsTypingAny(const Value& v) {
  return v.IsObj() && v.obj()->TypeName() == "typing._SpecialForm" && v.obj()->Repr() == "typing.Any";
}

std::string WpTypeDesc::Repr() const {
  std::string elem;
  switch (kind) {
    case Kind::Any: elem = "Any"; break;
    case Kind::Scalar: elem = std::string(ScalarName(scalar)); break;
    case Kind::Composite: elem = CompositeName(composite); break;
    case Kind::Struct: elem = struct_name; break;
  }
  return is_array() ? "array(ndim=" + std::to_string(ndim) + ", dtype=" + elem + ")" : elem;
}

std::string WpTypeDesc::Annotation() const {
  std::string elem;
  switch (kind) {
    case Kind::Any: elem = "typing.Any"; break;
    case Kind::Scalar: elem = "wp." + std::string(ScalarName(scalar)); break;
    case Kind::Composite: elem = "wp." + CompositeName(composite); break;
    case Kind::Struct: elem = struct_name; break;
  }
  return is_array() ? "wp.array(dtype=" + elem + ", ndim=" + std::to_string(ndim) + ")" : elem;
}

std::string ArrayAnnotationObj::Repr() const {
  std::string elem = host::Repr(dtype);
  if (auto* d = dtype.As<DTypeObj>(); d && d->flavor == DTypeObj::Flavor::WpType) elem = "wp." + std::string(ScalarName(d->type));
  else if (auto c = CompositeOfDType(dtype)) elem = "wp." + CompositeName(*c);
  else if (auto* s = dtype.As<WpStructObj>()) elem = s->name;
  return "wp." + ctor + "[" + elem + "]";
}

namespace {

WpTypeDesc ScalarDesc(ScalarType s) {
  WpTypeDesc t;
  t.kind = WpTypeDesc::Kind::Scalar;
  t.scalar = s;
  return t;
}

WpTypeDesc CompositeDesc(const Composite& c) {
  WpTypeDesc t;
  t.kind = WpTypeDesc::Kind::Composite;
  t.composite = c;
  return t;
}

// An array's element type: vector-like types are structs to the runtime, by layout or by name.
WpTypeDesc ElemDesc(const rt::ArrayDType& d) {
  if (!d.is_struct()) return ScalarDesc(d.scalar);
  if (d.layout->composite.valid()) return CompositeDesc(d.layout->composite);
  if (auto c = CompositeFromName(d.layout->name)) return CompositeDesc(*c);
  WpTypeDesc t;
  t.kind = WpTypeDesc::Kind::Struct;
  t.struct_name = d.layout->name;
  return t;
}

// ---------------------------------------------------------------- templates from annotations

bool IsAnyExpr(const ast::Expr* e) {
  if (const auto* n = e->As<ast::Name>()) return n->id == "Any";
  if (const auto* a = e->As<ast::Attribute>()) return a->attr == "Any";
  return false;
}

bool MentionsAny(const ast::Expr* e) {
  if (!e) return false;
  if (IsAnyExpr(e)) return true;
  if (const auto* a = e->As<ast::Attribute>()) return MentionsAny(a->value.get());
  if (const auto* s = e->As<ast::Subscript>()) return MentionsAny(s->value.get()) || MentionsAny(s->index.get());
  if (const auto* c = e->As<ast::Call>()) {
    bool any = MentionsAny(c->func.get());
    for (const auto& x : c->args) any |= MentionsAny(x.get());
    for (const auto& kw : c->keywords) any |= MentionsAny(kw.value.get());
    return any;
  }
  if (const auto* t = e->As<ast::Tuple>())
    return std::any_of(t->elts.begin(), t->elts.end(), [](const auto& x) { return MentionsAny(x.get()); });
  if (const auto* l = e->As<ast::List>())
    return std::any_of(l->elts.begin(), l->elts.end(), [](const auto& x) { return MentionsAny(x.get()); });
  return false;
}

// `array` (-1: ndim from the arguments), `array1d`..`array4d` (1..4), as `wp.X` or a bare name;
// 0 for anything else.
int ArrayCtorNdim(const ast::Expr* callee) {
  std::string name;
  if (const auto* a = callee->As<ast::Attribute>()) name = a->attr;
  else if (const auto* n = callee->As<ast::Name>()) name = n->id;
  if (name == "array") return -1;
  if (name.size() == 7 && name.rfind("array", 0) == 0 && name[6] == 'd' && name[5] >= '1' && name[5] <= '4')
    return name[5] - '0';
  return 0;
}

// The template of an annotation that mentions Any: Any itself, or an array of Any with a known
// ndim; nullopt for other forms.
std::optional<WpTypeDesc> TemplateOf(const ast::Expr* e) {
  if (IsAnyExpr(e)) return WpTypeDesc{};
  WpTypeDesc t;
  if (const auto* s = e->As<ast::Subscript>()) {
    int nd = ArrayCtorNdim(s->value.get());
    if (nd == 0 || !IsAnyExpr(s->index.get())) return std::nullopt;
    t.ndim = nd < 0 ? 1 : nd;
    return t;
  }
  const auto* c = e->As<ast::Call>();
  int nd = c ? ArrayCtorNdim(c->func.get()) : 0;
  if (nd == 0) return std::nullopt;
  const ast::Expr* dtype = c->args.empty() ? nullptr : c->args[0].get();
  t.ndim = nd < 0 ? 1 : nd;
  for (const ast::Keyword& kw : c->keywords) {
    if (kw.name == "dtype") dtype = kw.value.get();
    else if (kw.name == "ndim" && nd < 0) {
      const auto* lit = kw.value->As<ast::IntLit>();
      if (!lit || lit->value < 1 || lit->value > 4) return std::nullopt;
      t.ndim = int(lit->value);
    } else {
      return std::nullopt;
    }
  }
  if (!dtype || !IsAnyExpr(dtype)) return std::nullopt;
  return t;
}

// ---------------------------------------------------------------- concrete types of values

// The type a wp.overload entry names: a Warp scalar, vector-like or struct type, Python's
// float / int / bool (float32, int32, bool as in Warp), an array type or an array, or Any.
std::optional<WpTypeDesc> TypeOfOverloadValue(const Value& v) {
  if (IsTypingAny(v)) return WpTypeDesc{};
  if (auto* d = v.As<DTypeObj>()) return ScalarDesc(d->type);
  if (auto* p = v.As<PyTypeObj>(); p && (p->name == "float" || p->name == "int" || p->name == "bool"))
    return ScalarDesc(DTypeArg(v, true, ""));
  if (auto c = CompositeOfDType(v)) return CompositeDesc(*c);
  if (auto* s = v.As<WpStructObj>()) {
    WpTypeDesc t;
    t.kind = WpTypeDesc::Kind::Struct;
    t.struct_name = s->name;
    return t;
  }
  if (auto* a = v.As<ArrayAnnotationObj>()) {
    std::optional<WpTypeDesc> t = TypeOfOverloadValue(a->dtype);
    if (!t || t->is_array()) return std::nullopt;
    t->ndim = a->ndim;
    return t;
  }
  if (auto* a = v.As<WpArrayObj>()) {
    WpTypeDesc t = ElemDesc(a->a.dtype());
    t.ndim = std::max(a->a.ndim(), 1);
    return t;
  }
  return std::nullopt;
}

// The type Warp infers for a launch argument: arrays by dtype and ndim, Python floats as
// float32, ints as int32, Warp scalars and vector-like values as their type.
std::optional<WpTypeDesc> TypeOfArg(const Value& v) {
  if (v.IsBool()) return ScalarDesc(ScalarType::Bool);
  if (v.IsInt()) return ScalarDesc(ScalarType::Int32);
  if (v.IsFloat()) return ScalarDesc(ScalarType::Float32);
  if (auto* a = v.As<WpArrayObj>()) {
    WpTypeDesc t = ElemDesc(a->a.dtype());
    t.ndim = std::max(a->a.ndim(), 1);
    return t;
  }
  if (auto* nd = v.As<NdArrayObj>(); nd && nd->scalar) return ScalarDesc(nd->a.dtype());
  if (auto* c = v.As<CompositeValueObj>()) return CompositeDesc(c->c);
  return std::nullopt;
}

// ---------------------------------------------------------------- instances

bool Matches(const WpTypeDesc& t, const WpTypeDesc& tmpl) {
  if (!tmpl.is_array()) return true;
  return t.is_array() && t.ndim == tmpl.ndim;
}

// The instance for `types` (one per parameter; only the generic ones are read), made and kept
// on first need.
std::shared_ptr<KernelObj> InstanceFor(Interpreter& in, KernelObj& k, const std::vector<WpTypeDesc>& types) {
  GenericKernel& g = *k.generic;
  std::string key;
  std::vector<std::pair<SourceRange, std::string>> edits;
  for (size_t i = 0; i < g.params.size(); ++i) {
    const GenericParam& p = g.params[i];
    if (!p.generic) continue;
    const std::string who = "Kernel " + k.name + " argument '" + p.name + "'";
    if (!p.tmpl)
      TypeError(who + ": tilec instantiates `Any`, arrays of `Any` and `wp.array(dtype=Any, ndim=N)`, not `" +
                p.annotation + "`");
    const WpTypeDesc& t = types[i];
    if (t.generic()) TypeError(who + " cannot be generic, got " + t.Repr());
    if (!Matches(t, *p.tmpl)) TypeError(who + " type mismatch: expected " + p.tmpl->Repr() + ", got " + t.Repr());
    std::string text = t.Annotation();
    key += p.name + ": " + text + "; ";
    // Lines the annotation spanned stay, so that every later line keeps its number.
    text += std::string(std::count(p.annotation.begin(), p.annotation.end(), '\n'), '\n');
    edits.emplace_back(p.range, std::move(text));
  }
  if (auto it = g.instances.find(key); it != g.instances.end()) return it->second;
  return g.instances[key] = InstantiateKernel(in, k, edits);
}

// The types of an overload given as a list (by position) or a dict (by name, the others
// keeping their annotations' templates).
std::vector<WpTypeDesc> OverloadTypes(const KernelObj& k, const Value& arg_types) {
  const GenericKernel& g = *k.generic;
  std::vector<WpTypeDesc> types(g.params.size());
  for (size_t i = 0; i < g.params.size(); ++i)
    if (g.params[i].tmpl) types[i] = *g.params[i].tmpl;
  auto convert = [&](size_t i, const Value& v) {
    std::optional<WpTypeDesc> t = TypeOfOverloadValue(v);
    if (!t)
      RuntimeError("Failed to determine type code for argument '" + g.params[i].name + "' of kernel " + k.name +
                   ": Unrecognized type '" + Str(v) + "'");
    types[i] = *t;
  };
  if (auto* l = arg_types.As<ListObj>()) {
    if (l->items.size() != g.params.size()) RuntimeError("Invalid number of arguments for kernel " + k.name);
    for (size_t i = 0; i < l->items.size(); ++i) convert(i, l->items[i]);
  } else if (auto* d = arg_types.As<DictObj>()) {
    for (const auto& [name, v] : d->items) {
      const std::string n = name.As<StrObj>() ? name.As<StrObj>()->s : Repr(name);
      auto at = std::find_if(g.params.begin(), g.params.end(), [&](const GenericParam& p) { return p.name == n; });
      if (at == g.params.end()) RuntimeError("Invalid argument name '" + n + "' in overload of kernel " + k.name);
      convert(size_t(at - g.params.begin()), v);
    }
  } else if (arg_types.IsNone()) {
    if (!g.params.empty()) RuntimeError("Invalid number of arguments for kernel " + k.name);
  } else {
    TypeError("Kernel overload types must be given in a list or dict");
  }
  return types;
}

// `@wp.overload` on a stub `def` with the kernel's name: its annotations are the types; Warp
// gives back the generic kernel.
Value OverloadFromStub(Interpreter& in, const FunctionObj& stub) {
  const std::string& name = stub.def->name;
  // The last kernel of that name, passing over the instances of a generic one (they share its
  // name).
  std::shared_ptr<KernelObj> k;
  auto instance_of_k = [&](const std::shared_ptr<KernelObj>& kk) {
    if (!k || !k->generic) return false;
    for (const auto& [key, inst] : k->generic->instances)
      if (inst == kk) return true;
    return false;
  };
  for (const auto& kk : in.wp().kernels)
    if (kk->name == name && !instance_of_k(kk)) k = kk;
  if (!k) RuntimeError("Failed to find a kernel named '" + name + "' in module __main__");
  if (!k->generic) RuntimeError("Only generic kernels can be overloaded.  Kernel " + name + " is not generic");
  std::vector<Value> types;
  for (const ast::Param& p : stub.def->params) {
    if (!p.annotation) RuntimeError("Incomplete argument annotations on kernel overload " + name);
    types.push_back(in.Eval(*p.annotation));
  }
  InstanceFor(in, *k, OverloadTypes(*k, MakeList(std::move(types))));
  return Value(k);
}

}  // namespace

std::shared_ptr<GenericKernel> GenericKernelOf(const Value& fnv) {
  const auto* fn = fnv.As<FunctionObj>();
  if (!fn) return nullptr;
  const std::string& text = fn->chunk->file.text();
  auto g = std::make_shared<GenericKernel>();
  bool any = false;
  for (const ast::Param& p : fn->def->params) {
    GenericParam gp;
    gp.name = p.name;
    if (p.annotation && MentionsAny(p.annotation.get())) {
      gp.generic = any = true;
      gp.range = p.annotation->range;
      gp.annotation = text.substr(gp.range.begin, gp.range.end - gp.range.begin);
      gp.tmpl = TemplateOf(p.annotation.get());
    }
    g->params.push_back(std::move(gp));
  }
  if (!any) return nullptr;
  g->fn = fnv;
  return g;
}

KernelObj& GenericInstanceForArgs(Interpreter& in, KernelObj& k, const std::vector<Value>& args) {
  const GenericKernel& g = *k.generic;
  if (args.size() != g.params.size())
    RuntimeError("Error launching kernel '" + k.name + "', passed " + std::to_string(args.size()) +
                 " arguments but kernel requires " + std::to_string(g.params.size()) + ".");
  std::vector<WpTypeDesc> types(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const GenericParam& p = g.params[i];
    if (!p.generic) continue;
    const Value& v = args[i];
    std::optional<WpTypeDesc> t = TypeOfArg(v);
    // None stands for an array of the parameter's own type, which for a generic one is generic.
    if (!t && v.IsNone() && p.tmpl && p.tmpl->is_array()) t = p.tmpl;
    if (!t)
      TypeError("Error launching kernel '" + k.name + "': Unable to infer the type of argument '" + p.name +
                "', got " + (v.IsNone() ? "None" : "<class '" + TypeName(v) + "'>"));
    types[i] = *t;
  }
  return *InstanceFor(in, k, types);
}

Value OverloadKernel(Interpreter& in, const Value& kernel, const std::optional<Value>& arg_types) {
  if (auto* stub = kernel.As<FunctionObj>(); stub && !arg_types) return OverloadFromStub(in, *stub);
  if (kernel.As<WpFuncObj>()) return kernel;
  auto* k = kernel.As<KernelObj>();
  if (!k) TypeError("overload(): expected a kernel or a wp.func, got " + TypeName(kernel));
  if (!k->generic) RuntimeError("Only generic kernels can be overloaded.  Kernel " + k->name + " is not generic");
  return Value(InstanceFor(in, *k, OverloadTypes(*k, arg_types.value_or(Value()))));
}

std::optional<Value> KernelObj::GetAttr(Interpreter& in, const std::string& attr) {
  if (attr == "key") return MakeStr(key.empty() ? name : key);
  if (attr == "__name__") return MakeStr(name);
  if (attr == "options") {
    if (!options.IsObj()) options = Value(std::make_shared<DictObj>());
    return options;
  }
  // The session is one module (wp.set_module_options); wp.load_module takes it.
  if (attr == "module") {
    CallArgs a;
    a.pos = {MakeStr("__main__")};
    return in.CallValue(in.GetAttr(in.ImportModule("warp"), "get_module"), a);
  }
  if (attr == "is_generic") return Value::Bool(generic != nullptr);
  if (attr == "overloads") {
    auto d = std::make_shared<DictObj>();
    if (generic)
      for (const auto& [key, inst] : generic->instances) d->Put(MakeStr(key), Value(inst));
    return Value(d);
  }
  if (attr == "add_overload" && generic) {
    auto self = std::static_pointer_cast<KernelObj>(shared_from_this());
    return Value(std::make_shared<BuiltinFn>("add_overload", [self](Interpreter& in, CallArgs& a) {
      ArgBinder b("add_overload", a, {"arg_types"}, 1);
      if (!b.Get(0).As<ListObj>()) TypeError("add_overload(): expected a list of types, got " + host::TypeName(b.Get(0)));
      return Value(InstanceFor(in, *self, OverloadTypes(*self, b.Get(0))));
    }));
  }
  return std::nullopt;
}

}  // namespace tilec::host
