// The prelude: Warp's vector-math builtins that are algorithms rather than component-wise
// operations (quaternions, transforms, decompositions, geometry), written in the Tile language
// in prelude/vecmath.tile. It is instantiated once per float type by naming its placeholder
// types, parsed once per process, and its functions join every module as overloaded builtins,
// declared when a kernel first names them and checked when first called.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "frontend/parse/parse.h"
#include "frontend/sema/checker.h"

namespace tilec::sema {

using diag::Code;

namespace {

#include "prelude_text.inc"

struct Instance {
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<ast::Module> module;
};

// The placeholder type names of vecmath.tile and what they become for one scalar type.
std::string Substitute(const std::string& text, ScalarType s) {
  auto name = [&](const char* placeholder) -> std::string {
    std::string p = placeholder;
    if (p == "Scalar") return "wp." + std::string(ScalarName(s));
    static const std::pair<const char*, Composite (*)(ScalarType)> kFixed[] = {
        {"Quat", Composite::Quat}, {"Transform", Composite::Transform},
        {"SpatialVector", Composite::SpatialVector}, {"SpatialMatrix", Composite::SpatialMatrix}};
    for (const auto& [n, make] : kFixed)
      if (p == n) return "wp." + CompositeName(make(s));
    if (p.size() == 4 && p.rfind("Vec", 0) == 0 && p[3] >= '2' && p[3] <= '4')
      return "wp." + CompositeName(Composite::Vector(p[3] - '0', s));
    if (p.size() == 5 && p.rfind("Mat", 0) == 0 && p[3] == p[4] && p[3] >= '2' && p[3] <= '4')
      return "wp." + CompositeName(Composite::Matrix(p[3] - '0', p[4] - '0', s));
    return "";
  };
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isalpha(c) || c == '_') {
      size_t j = i;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
      std::string word = text.substr(i, j - i);
      std::string repl = (i > 0 && text[i - 1] == '.') ? "" : name(word.c_str());
      out += repl.empty() ? word : repl;
      i = j;
    } else {
      out += text[i++];
    }
  }
  return out;
}

// A broken prelude is a bug of tilec itself, never of the user's program.
Instance Parse(const std::string& name, std::string text) {
  Instance in;
  in.file = std::make_unique<SourceFile>("<prelude:" + name + ">", std::move(text));
  diag::DiagnosticEngine diags;
  in.module = parse::ParseFile(*in.file, diags);
  if (diags.error_count() > 0) {
    std::ostringstream os;
    diags.Render(os);
    std::fprintf(stderr, "internal error: the prelude `%s` does not parse:\n%s", name.c_str(), os.str().c_str());
    std::abort();
  }
  return in;
}

const std::vector<Instance>& Instances() {
  static const std::vector<Instance> kInstances = [] {
    std::vector<Instance> v;
    for (ScalarType s : {ScalarType::Float32, ScalarType::Float64})
      v.push_back(Parse(std::string(ScalarName(s)), Substitute(kPreludeText, s)));
    if (kPreludeRandomText[0] != '\0') v.push_back(Parse("random", kPreludeRandomText));
    return v;
  }();
  return kInstances;
}

}  // namespace

void Checker::AddPrelude() {
  std::map<std::string, ModuleEntry> scope;
  scope["wp"] = {ModuleEntry::Kind::Module, -1, {}, ModuleId::Warp, {}};
  snapshots_.push_back(std::move(scope));
  prelude_snapshot_ = int(snapshots_.size()) - 1;
  for (const Instance& in : Instances()) {
    for (const ast::StmtPtr& sp : in.module->body) {
      const auto* fd = sp->As<ast::FunctionDef>();
      if (!fd) continue;
      prelude_names_[fd->name].push_back(int(out_.funcs.size()));
      out_.funcs.emplace_back();
      FunctionInfo& fn = out_.funcs.back();
      fn.name = fd->name;
      fn.def = fd;
      fn.prelude_file = in.file.get();
      fn.declared = false;
      func_snapshot_.push_back(prelude_snapshot_);
    }
  }
}

// Warp's builtins that update their first argument in place, and the prelude helpers that
// return the updated value instead.
const std::map<std::string, std::string>& InPlacePrelude() {
  static const std::map<std::string, std::string> kInPlace = {
      {"transform_set_translation", "_transform_set_translation"},
      {"transform_set_rotation", "_transform_set_rotation"},
  };
  return kInPlace;
}

int Checker::PreludeSet(const std::string& public_name) {
  std::string name = public_name;
  bool in_place = false;
  if (auto ip = InPlacePrelude().find(public_name); ip != InPlacePrelude().end()) {
    name = ip->second;
    in_place = true;
  } else if (name.empty() || name[0] == '_') {
    return -1;
  } else if (prelude_names_.count("_inplace_" + name)) {
    // Updates its first argument and returns a value (randf(state)): the helper returns both.
    name = "_inplace_" + name;
    in_place = true;
  }
  auto it = prelude_names_.find(name);
  if (it == prelude_names_.end()) return -1;
  return PreludeOverloads(name, it->second, in_place);
}

int Checker::PreludeHelper(const std::string& name) {
  auto it = prelude_names_.find(name);
  if (!fn_ || !fn_->prelude_file || it == prelude_names_.end()) return -1;
  // A helper's overloads within the instance calling it.
  std::vector<int> mine;
  for (int index : it->second)
    if (out_.funcs[index].prelude_file == fn_->prelude_file) mine.push_back(index);
  if (mine.empty()) return -1;
  return PreludeOverloads(name + "@" + fn_->prelude_file->path(), mine, false);
}

int Checker::PreludeOverloads(const std::string& key, const std::vector<int>& funcs, bool in_place) {
  if (auto it = prelude_sets_.find(key); it != prelude_sets_.end()) return it->second;
  int set = int(out_.overloads.size());
  if (in_place) in_place_sets_.insert(set);
  out_.overloads.push_back(funcs);
  prelude_sets_[key] = set;
  for (int index : funcs) {
    FunctionInfo& fn = out_.funcs[index];
    if (fn.declared) continue;
    const SourceFile* saved_decl = decl_file_;
    const auto* saved_snapshot = snapshot_;
    FunctionInfo* saved_fn = fn_;
    auto saved_locals = std::move(locals_);
    locals_.clear();
    fn_ = nullptr;
    decl_file_ = fn.prelude_file;
    snapshot_ = &snapshots_[prelude_snapshot_];
    DeclareFunction(fn, *fn.def, false);
    fn.declared = true;
    decl_file_ = saved_decl;
    snapshot_ = saved_snapshot;
    fn_ = saved_fn;
    locals_ = std::move(saved_locals);
  }
  return set;
}

ExprInfo Checker::CallPrelude(const std::string& name, const ast::Expr* node, SourceRange callee_range,
                              std::vector<CallArg>& args) {
  int set = PreludeSet(name);
  if (set < 0) {
    Error(Code::InvalidOperand, callee_range, "`" + Text(node) + "` is not defined");
    return Poison();
  }
  return CallOverloads(set, node, callee_range, args);
}

ExprInfo Checker::CallOverloads(int set, const ast::Expr* node, SourceRange callee_range, std::vector<CallArg>& args) {
  const std::vector<int>& cands = out_.overloads[set];
  // `dtype=` (wp.quat_identity(dtype=wp.float64)) picks the definition whose result has that
  // scalar type, where no definition takes a `dtype` of its own.
  std::optional<ScalarType> want;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].keyword != "dtype") continue;
    bool own = false;
    for (int index : cands)
      for (int k = 0; k < out_.funcs[index].num_params; ++k) own |= out_.funcs[index].Param(k)->name == "dtype";
    const ExprInfo& v = args[i].info;
    if (own || !v.value || v.value->kind != ConstValue::Kind::Type || !v.value->type->IsScalar()) break;
    want = v.value->type->scalar;
    args.erase(args.begin() + std::ptrdiff_t(i));
    break;
  }
  for (int index : cands) {
    const FunctionInfo& f = out_.funcs[index];
    if (want) {
      const Type* rt = f.return_type;
      const Composite* k = CompositeOf(rt);
      ScalarType s = k ? k->scalar : rt && rt->IsScalar() ? rt->scalar : ScalarType::Bool;
      if (s != *want) continue;
    }
    if (int(args.size()) > f.num_params) continue;
    bool ok = true;
    for (size_t i = 0; i < args.size() && ok; ++i) {
      int p = int(i);
      if (!args[i].keyword.empty()) {
        p = -1;
        for (int k = 0; k < f.num_params; ++k)
          if (f.Param(k)->name == args[i].keyword) p = k;
        if (p < 0) { ok = false; break; }
      }
      const Type* pt = f.Param(p)->type;
      const ExprInfo& ai = args[i].info;
      ok = ai.type == pt || (ai.weak && Convertible(ai, pt));
    }
    for (int k = int(args.size()); ok && k < f.num_params; ++k) {
      bool given = false;
      for (const CallArg& a : args) given |= a.keyword == f.Param(k)->name;
      ok = given || f.def->params[k].default_value != nullptr;
    }
    if (!ok) continue;
    ExprInfo r = CallUserFunc(index, node, callee_range, std::move(args));
    if (in_place_sets_.count(set) && !r.type->IsError()) {
      // The helper's result is stored back into the first argument, as Warp updates it.
      out_.call_info[node].updates_arg = 0;
      r.type = r.type->kind == TypeKind::Tuple && r.type->elems.size() == 2 ? r.type->elems[1] : types_.Void();
    }
    return r;
  }
  const std::string& name = out_.funcs[cands[0]].name;
  std::string found;
  for (size_t i = 0; i < args.size(); ++i)
    found += (i ? ", " : "") + (args[i].keyword.empty() ? "" : args[i].keyword + "=") + TypeName(args[i].info.type);
  std::string takes;
  for (int index : cands) {
    const FunctionInfo& f = out_.funcs[index];
    std::string sig;
    for (int k = 0; k < f.num_params; ++k) sig += (k ? ", " : "") + f.Param(k)->name + ": " + TypeName(f.Param(k)->type);
    takes += "\n  wp." + name + "(" + sig + ")";
  }
  Error(Code::CompositeArgs, callee_range, "no signature of `wp." + name + "` takes (" + found + "); it takes:" + takes);
  return Poison();
}

}  // namespace tilec::sema
