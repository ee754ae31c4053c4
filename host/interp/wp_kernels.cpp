// `@wp.kernel`, `@wp.func` and `@wp.struct` in host code: each definition's source text is
// kept in the session, and a kernel is compiled when its `def` runs, together with every
// func and struct seen so far and the module constants' values at that moment (a generic one
// per overload instead, wp_generic.cpp).
#include <algorithm>
#include <cctype>
#include <sstream>

#include "host/interp/args.h"
#include "host/interp/interpreter.h"
#include "host/interp/kernel_compile.h"
#include "host/interp/py_enum.h"
#include "host/interp/array_values.h"
#include "host/interp/wp_composite.h"
#include "host/interp/wp_generic.h"
#include "host/interp/wp_static.h"
#include "host/interp/wp_values.h"

namespace tilec::host {

namespace {

using TextEdits = std::vector<std::pair<SourceRange, std::string>>;

// The definition's full text (decorators included), dedented, and its first line; `edits`
// replace byte ranges of the file within it (a generic kernel's annotations).
WpState::Definition DefinitionText(const Chunk& chunk, const ast::Stmt& stmt,
                                   const std::vector<ast::ExprPtr>& decorators, const std::string& name,
                                   const std::string& kind, TextEdits edits = {}) {
  const SourceFile& file = chunk.file;
  uint32_t begin = stmt.range.begin;
  for (const auto& d : decorators) begin = std::min(begin, d->range.begin);
  begin = file.LineStart(begin);
  uint32_t end = std::min<uint32_t>(stmt.range.end, uint32_t(file.text().size()));
  std::string text = file.text().substr(begin, end - begin);
  // From the last edit back, so that the earlier ranges still hold.
  std::sort(edits.begin(), edits.end(), [](const auto& a, const auto& b) { return a.first.begin > b.first.begin; });
  for (const auto& [range, with] : edits)
    if (range.begin >= begin && range.end <= end && range.begin <= range.end)
      text.replace(range.begin - begin, range.end - range.begin, with);
  // Dedent by the first line's indentation (a definition nested in an `if`).
  size_t indent = 0;
  while (indent < text.size() && text[indent] == ' ') ++indent;
  std::string out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    size_t k = 0;
    while (k < indent && k < line.size() && line[k] == ' ') ++k;
    out += line.substr(k) + "\n";
  }
  WpState::Definition d;
  d.name = name;
  d.kind = kind;
  d.text = out;
  d.path = file.path();
  d.line = file.Locate(begin).line;
  d.col_base = file.col_base() + int(indent);
  return d;
}

// `wp.kernel(f)` and `wp.func(f)` called on a plain `def` (Warp's make_isolated_kernel, kernel
// factories): the text is compiled as if decorated, the decorator on a line of its own just
// above the `def` so that every position in the body stays where it is.
void AddDecorator(WpState::Definition& d, const ast::FunctionDef& def, const std::string& attr) {
  for (const auto& deco : def.decorators) {
    const ast::Expr* callee = deco.get();
    if (const auto* call = callee->As<ast::Call>()) callee = call->func.get();
    if (const auto* a = callee->As<ast::Attribute>(); a && a->attr == attr) return;
  }
  d.text = "@wp." + attr + "\n" + d.text;
  d.line -= 1;
}

// Kernels are compiled from their source text, so a default taken from wp.config rather than
// from the decorator is written into the decorator: `@wp.kernel` becomes
// `@wp.kernel(enable_backward=False)` (same line, so body positions are unchanged).
void ForceNoBackward(std::string& text) {
  size_t line = 0;
  while (line < text.size()) {
    size_t end = text.find('\n', line);
    if (end == std::string::npos) end = text.size();
    std::string_view l(text.data() + line, end - line);
    size_t at = l.find_first_not_of(" \t");
    if (at != std::string_view::npos && l[at] == '@') {
      size_t last = l.find_last_not_of(" \t\r");
      std::string_view deco = l.substr(at, last - at + 1);
      if (deco.ends_with("kernel")) {
        text.insert(line + last + 1, "(enable_backward=False)");
        return;
      }
      if (deco.ends_with("kernel()")) {
        text.insert(line + last, "enable_backward=False");
        return;
      }
    }
    line = end + 1;
  }
}

void Remember(WpState& st, WpState::Definition d) {
  // A redefinition replaces the earlier text, as rebinding the name does in Python, except
  // that funcs of other parameter types are overloads.
  for (auto& old : st.definitions)
    if (old.name == d.name && !(old.kind == "func" && d.kind == "func" && old.signature != d.signature)) {
      old = std::move(d);
      return;
    }
  st.definitions.push_back(std::move(d));
}

// What a kernel may read of the host at its definition: numbers, Warp scalar types
// (`wp_type = wp.float64`), vector and matrix types and values, from the module's globals
// and, for a kernel made inside a function (a kernel factory), that function's locals and
// those of the functions around it.
// The names a kernel made from `fn` can read as constants: its module's globals and the
// variables of the functions it was defined in, innermost last (a kernel made per dtype in a
// factory function reads the factory's `dtype`, wherever `wp.Kernel(func=...)` is called).
std::vector<KernelConstant> ConstantsSnapshot(Interpreter& in, const FunctionObj& fn) {
  auto usable = [](const Value& v) {
    if (v.IsNumber() || v.As<CompositeTypeObj>() || v.As<CompositeValueObj>()) return true;
    const auto* d = v.As<DTypeObj>();
    return d && d->flavor == DTypeObj::Flavor::WpType;
  };
  std::map<std::string, Value> seen;
  auto scope = [&](const std::map<std::string, Value>& vars) {
    for (auto& [name, v] : vars) {
      if (usable(v)) seen[name] = v;
      else if (std::optional<int64_t> i = EnumIntValue(v)) seen[name] = Value::Int(*i);  // `A = Kind.A`
      else seen.erase(name);  // an inner variable hides the outer one of its name
    }
  };
  scope((fn.home ? *fn.home : in).globals());
  for (const auto& vars : fn.enclosing)
    if (vars) scope(*vars);
  std::vector<KernelConstant> out;
  for (auto& [name, v] : seen) out.push_back({name, v});
  return out;
}

// The text of the kernel the request compiles ("" when it has none).
std::string KernelText(const KernelCompileRequest& req) {
  for (const auto& d : req.definitions)
    if (d.kind == "kernel" && d.name == req.kernel_name) return d.text;
  return "";
}

// Whether `name` occurs in `text` as a whole identifier.
bool MentionsName(const std::string& text, const std::string& name) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    const bool before = at > 0 && ident(text[at - 1]);
    const bool after = at + name.size() < text.size() && ident(text[at + name.size()]);
    if (!before && !after) return true;
  }
  return false;
}

// The funcs and structs a kernel reaches by name, directly or through each other, in
// definition order: as in Warp, a definition the kernel does not use (a struct tilec cannot
// compile, a func with an error) does not stop it.
std::vector<WpState::Definition> ReachableDefinitions(const std::vector<WpState::Definition>& all,
                                                      const std::string& kernel) {
  std::vector<bool> used(all.size(), false);
  std::vector<size_t> work;
  for (size_t k = 0; k < all.size(); ++k)
    if (all[k].kind == "kernel" && all[k].name == kernel) used[k] = true, work.push_back(k);
  while (!work.empty()) {
    const std::string& text = all[work.back()].text;
    work.pop_back();
    for (size_t k = 0; k < all.size(); ++k)
      if (!used[k] && all[k].kind != "kernel" && MentionsName(text, all[k].name)) used[k] = true, work.push_back(k);
  }
  std::vector<WpState::Definition> out;
  for (size_t k = 0; k < all.size(); ++k)
    if (used[k]) out.push_back(all[k]);
  return out;
}

// Whether the kernel's tile shapes may follow the block's lane count.
bool LaneShaped(const std::string& text) {
  for (const char* s : {"wp.tile(", "wp.untile(", "block_dim()", "tile_from_thread("})
    if (text.find(s) != std::string::npos) return true;
  return false;
}

// Compiles a kernel request into a kernel object; a compile error is kept on it (raised at once
// only when `raise_now`).
std::shared_ptr<KernelObj> CompileKernelObj(Interpreter& in, KernelCompileRequest req, bool raise_now) {
  auto k = std::make_shared<KernelObj>();
  k->name = req.kernel_name;
  // A custom adjoint would be silently replaced by the derived one: refuse the backward pass.
  if (req.enable_backward)
    for (const auto& d : req.definitions)
      if (d.kind == "func" && in.wp().custom_grad_funcs.count(d.name)) {
        k->compile_error = std::make_shared<PyError>(
            "NotImplementedError", "kernel `" + req.kernel_name + "` calls `" + d.name +
                                       "`, whose adjoint is custom (@wp.func_grad); tilec derives every adjoint "
                                       "itself and does not run custom ones: define the kernel with "
                                       "enable_backward=False to run it forward");
        if (raise_now) throw *k->compile_error;
        return k;
      }
  KernelCompileResult res = CompileKernel(req);
  // Tile shapes made from lanes (wp.tile(x) is block_dim long) are known only at a launch, as
  // Warp compiles a kernel per block_dim: a kernel that fails at launch_tiled's default of 256
  // is defined with the first lane count that compiles, and each launch compiles its own.
  if (!res.ok && LaneShaped(KernelText(req)))
    for (int lanes : {32, 64, 128, 16, 8, 512, 1024, 4, 2, 1}) {
      KernelCompileRequest other = req;
      other.block_dim = lanes;
      if (KernelCompileResult r = CompileKernel(other); r.ok) {
        res = r;
        break;
      }
    }
  if (!res.ok) {
    k->compile_error = std::make_shared<PyError>(
        "tilec.CompileError", CompileErrorMessage("kernel `" + req.kernel_name + "` failed to compile", res.diagnostics));
    k->compile_error->diagnostics = res.diagnostics;
    if (raise_now) throw *k->compile_error;
    return k;
  }
  k->kernel = res.kernel;
  k->source = res.source;
  k->request = std::make_shared<KernelCompileRequest>(std::move(req));
  in.wp().kernels.push_back(k);
  return k;
}

}  // namespace

Value DefineKernel(Interpreter& in, const Value& fnv, bool enable_backward) {
  auto* fn = fnv.As<FunctionObj>();
  if (!fn) TypeError("kernel(): expected a function definition, got " + TypeName(fnv));
  WpState& st = in.wp();
  StaticResolution statics = ResolveStatics(in, *fn);
  WpState::Definition def =
      DefinitionText(*fn->chunk, *fn->def, fn->def->decorators, fn->def->name, "kernel", statics.edits);
  for (auto& c : statics.constants) def.statics.push_back({c.name, c.value});
  AddDecorator(def, *fn->def, "kernel");
  if (!enable_backward) ForceNoBackward(def.text);
  Remember(st, std::move(def));
  KernelCompileRequest req;
  req.kernel_name = fn->def->name;
  req.enable_backward = enable_backward;
  req.max_unroll = WarpConfigInt(in, "max_unroll", 16);
  req.checked_access = WarpDebugMode(in);
  req.deterministic = WarpConfigFlag(in, "deterministic");
  req.constants = ConstantsSnapshot(in, *fn);
  // A generic kernel compiles per overload, as Warp does, at wp.overload or the first launch.
  if (std::shared_ptr<GenericKernel> g = GenericKernelOf(fnv)) {
    auto k = std::make_shared<KernelObj>();
    k->name = req.kernel_name;
    g->base = std::move(req);
    k->generic = std::move(g);
    st.kernels.push_back(k);
    return Value(k);
  }
  req.definitions = ReachableDefinitions(st.definitions, req.kernel_name);
  // At the prompt the error is worth more at once than at a later launch.
  return Value(CompileKernelObj(in, std::move(req), in.interactive()));
}

std::shared_ptr<KernelObj> InstantiateKernel(Interpreter& in, const KernelObj& k, const TextEdits& edits) {
  const GenericKernel& g = *k.generic;
  const auto* fn = g.fn.As<FunctionObj>();
  StaticResolution statics = ResolveStatics(in, *fn);
  TextEdits all_edits = edits;
  all_edits.insert(all_edits.end(), statics.edits.begin(), statics.edits.end());
  WpState::Definition def =
      DefinitionText(*fn->chunk, *fn->def, fn->def->decorators, fn->def->name, "kernel", all_edits);
  for (auto& c : statics.constants) def.statics.push_back({c.name, c.value});
  AddDecorator(def, *fn->def, "kernel");
  if (!g.base.enable_backward) ForceNoBackward(def.text);
  // The definitions of the kernel's own module now (it may be launched from another), with
  // this instance in the generic kernel's place.
  Interpreter& home = fn->home ? *fn->home : in;
  std::vector<WpState::Definition> all = home.wp().definitions;
  bool placed = false;
  for (auto& d : all)
    if (d.kind == "kernel" && d.name == def.name) d = def, placed = true;
  if (!placed) all.push_back(def);
  KernelCompileRequest req = g.base;
  req.definitions = ReachableDefinitions(all, req.kernel_name);
  return CompileKernelObj(home, std::move(req), false);
}

Value DefineFunc(Interpreter& in, const Value& fnv) {
  auto* fn = fnv.As<FunctionObj>();
  if (!fn) TypeError("func(): expected a function definition, got " + TypeName(fnv));
  StaticResolution statics = ResolveStatics(in, *fn);
  WpState::Definition def =
      DefinitionText(*fn->chunk, *fn->def, fn->def->decorators, fn->def->name, "func", statics.edits);
  for (auto& c : statics.constants) def.statics.push_back({c.name, c.value});
  AddDecorator(def, *fn->def, "func");
  for (const auto& p : fn->def->params) {
    const std::string& text = fn->chunk->file.text();
    def.signature += p.name + ":";
    if (p.annotation && p.annotation->range.end <= text.size())
      def.signature += text.substr(p.annotation->range.begin, p.annotation->range.end - p.annotation->range.begin);
    def.signature += ";";
  }
  Remember(in.wp(), std::move(def));
  auto f = std::make_shared<WpFuncObj>();
  f->name = fn->def->name;
  f->fn = fnv;
  return Value(f);
}

Value DefineStruct(Interpreter& in, const Value& clsv) {
  auto* cls = clsv.As<ClassDefObj>();
  if (!cls) TypeError("struct(): expected a class definition, got " + TypeName(clsv));
  Remember(in.wp(), DefinitionText(*cls->chunk, *cls->def, cls->def->decorators, cls->def->name, "struct"));
  auto s = std::make_shared<WpStructObj>();
  s->name = cls->def->name;
  s->layout = StructLayoutOf(in.wp().definitions, cls->def->name, &s->rejected);
  return Value(s);
}


// The decorators and constructors that make kernels, funcs and structs: `@wp.kernel` (bare or
// with options), `wp.Kernel(func, key=...)`, `@wp.func`, `@wp.struct`.
void DefineWarpDecorators(ModuleObj& m) {
  // In host code wp.static is its argument; in kernels the host evaluates it (wp_static.cpp).
  m.Def("static", [](Interpreter&, CallArgs& a) -> Value {
    ArgBinder b("static", a, {"expr"}, 1);
    return b.Get(0);
  });
  m.Def("kernel", [](Interpreter& in, CallArgs& a) -> Value {
    // `@wp.kernel` gets the function; `@wp.kernel(enable_backward=False)` returns a decorator.
    // Without the option, wp.config.enable_backward at definition time decides.
    bool config_backward = WarpConfigFlag(in, "enable_backward");
    if (a.pos.size() == 1 && a.kw.empty()) return DefineKernel(in, a.pos[0], config_backward);
    // The options after `module` tune Warp's CUDA code; results do not depend on them.
    ArgBinder b("kernel", a,
                {"f", "enable_backward", "module", "module_options", "name", "launch_bounds", "cuda_max_registers",
                 "enable_cuda_smem_spilling", "cluster_dim", "entry_point_abi", "grid_stride"},
                0);
    bool backward = b.Has(1) ? Truth(b.Get(1)) : config_backward;
    if (!b.Has(1) && b.Has(3))
      if (auto* opts = b.Get(3).As<DictObj>())
        if (const Value* v = opts->Find(MakeStr("enable_backward"))) backward = Truth(*v);
    if (b.Has(0)) return DefineKernel(in, b.Get(0), backward);
    return Value(std::make_shared<BuiltinFn>("kernel", [backward](Interpreter& i, CallArgs& c) {
      ArgBinder d("kernel", c, {"f"}, 1);
      return DefineKernel(i, d.Get(0), backward);
    }));
  });
  // `wp.Kernel(func, key=...)`: what the decorator does, for a function made at run time
  // (a closure per dtype); `key` names it where Warp would.
  m.Def("Kernel", [](Interpreter& in, CallArgs& a) -> Value {
    ArgBinder b("Kernel", a, {"func", "key", "module", "options", "code_transformers"}, 1);
    bool backward = WarpConfigFlag(in, "enable_backward");
    if (b.Has(3) && !b.Get(3).IsNone()) {
      auto* opts = b.Get(3).As<DictObj>();
      if (!opts) TypeError("Kernel(): options must be a dict, got " + TypeName(b.Get(3)));
      if (const Value* v = opts->Find(MakeStr("enable_backward"))) backward = Truth(*v);
    }
    if (b.Has(4) && !b.Get(4).IsNone() && Truth(b.Get(4)))
      TypeError("Kernel(): code_transformers rewrite Warp's Python AST, which tilec does not use");
    Value k = DefineKernel(in, b.Get(0), backward);
    if (auto* ko = k.As<KernelObj>()) {
      if (b.Has(1) && !b.Get(1).IsNone()) ko->key = ToStr(b.Get(1), "Kernel() key");
      if (b.Has(3) && !b.Get(3).IsNone()) ko->options = b.Get(3);
    }
    return k;
  });
  m.Def("func", [](Interpreter& in, CallArgs& a) -> Value {
    // `name`, `module` and `inline` place and name Warp's generated C++; results do not depend
    // on them, so they are checked and otherwise accepted.
    ArgBinder b("func", a, {"f", "name", "module", "inline"}, 0);
    if (b.Has(3) && !b.Get(3).IsNone() && !b.Get(3).IsBool())
      TypeError("inline must be a bool or None, got " + TypeName(b.Get(3)));
    if (b.Has(0)) return DefineFunc(in, b.Get(0));
    return Value(std::make_shared<BuiltinFn>("func", [](Interpreter& i, CallArgs& c) {
      ArgBinder d("func", c, {"f"}, 1);
      return DefineFunc(i, d.Get(0));
    }));
  });
  // `@wp.func_grad(f)`: the decorated function is f's custom adjoint. Recorded, so that a kernel
  // needing f's gradient refuses to compile its backward pass rather than differentiate f.
  m.Def("func_grad", [](Interpreter& in, CallArgs& a) -> Value {
    ArgBinder b("func_grad", a, {"forward_fn"}, 1);
    const auto* f = b.Get(0).As<WpFuncObj>();
    if (!f) TypeError("func_grad(): expected a @wp.func, got " + TypeName(b.Get(0)));
    in.wp().custom_grad_funcs.insert(f->name);
    return Value(std::make_shared<BuiltinFn>("func_grad", [](Interpreter&, CallArgs& c) {
      ArgBinder d("func_grad", c, {"grad_fn"}, 1);
      return d.Get(0);
    }));
  });
  m.Def("struct", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("struct", a, {"c"}, 1);
    return DefineStruct(in, b.Get(0));
  });
}

}  // namespace tilec::host
