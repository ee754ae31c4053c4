// The prelude: Warp's vector-math builtins that are algorithms rather than component-wise
// operations (quaternions, transforms, decompositions, geometry), written in the Tile language
// in prelude/vecmath.tile. It is instantiated once per float type by naming its placeholder
// types, parsed once per process, and its functions join every module as overloaded builtins,
// declared when a kernel first names them and checked when first called.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string_view>
#include <sstream>

#include "frontend/parse/parse.h"
#include "frontend/sema/checker.h"

namespace tilec::sema {

using diag::Code;

namespace {

#include "prelude_text.inc"

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

}  // namespace

// One top-level function of a prelude instance: its decorators, signature and body, up to the
// next function. Parsing all of the prelude cost a cold process 50 ms, more than the rest of a
// small compile, so each text is cut into functions once, and a function is substituted and
// parsed the first time a module declares it (once per process, shared by threads).
struct PreludeUnit {
  std::string name;
  std::string_view raw;            // in the compiled-in text
  int line_base = 0;               // lines before it there
  std::optional<ScalarType> type;  // vecmath.tile's placeholders become this type
  std::string instance;
  std::once_flag parsed;
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<ast::Module> module;
  const ast::FunctionDef* def = nullptr;

  // A broken prelude is a bug of tilec itself, never of the user's program.
  const ast::FunctionDef& Def() {
    std::call_once(parsed, [&] {
      std::string text(raw);
      file = std::make_unique<SourceFile>("<prelude:" + instance + ">", type ? Substitute(text, *type) : text, line_base);
      diag::DiagnosticEngine diags;
      module = parse::ParseFile(*file, diags);
      if (diags.error_count() == 0 && module->body.size() == 1) def = module->body[0]->As<ast::FunctionDef>();
      if (!def || def->name != name) {
        std::ostringstream os;
        diags.Render(os);
        std::fprintf(stderr, "internal error: the prelude function `%s` (%s) does not parse as one function:\n%s",
                     name.c_str(), file->path().c_str(), os.str().c_str());
        std::abort();
      }
    });
    return *def;
  }
};

namespace {

struct Span {
  std::string name;
  size_t begin, end;
  int line;
};

// A unit starts at a column-0 decorator or `def` that no decorator precedes; everything before
// the first one (the import, comments) is not a function. Continuation lines of a signature
// (`) -> wp.vec3:`) start at column 0 too, so only `@` and `def ` begin units.
std::vector<Span> Split(std::string_view t) {
  std::vector<Span> spans;
  bool in_decorators = false;
  int line = 0;
  for (size_t pos = 0; pos < t.size(); ++line) {
    size_t eol = t.find('\n', pos);
    if (eol == std::string_view::npos) eol = t.size();
    std::string_view l = t.substr(pos, eol - pos);
    if (!l.empty() && l[0] == '@') {
      if (!in_decorators) spans.push_back({"", pos, 0, line});
      in_decorators = true;
    } else if (l.rfind("def ", 0) == 0) {
      if (!in_decorators) spans.push_back({"", pos, 0, line});
      in_decorators = false;
      size_t e = 4;
      while (e < l.size() && (std::isalnum(static_cast<unsigned char>(l[e])) || l[e] == '_')) ++e;
      spans.back().name = std::string(l.substr(4, e - 4));
    }
    pos = eol + 1;
  }
  for (size_t i = 0; i < spans.size(); ++i) spans[i].end = i + 1 < spans.size() ? spans[i + 1].begin : t.size();
  return spans;
}

struct Instance {
  std::string name;
  std::string_view text;
  std::optional<ScalarType> type;
  std::vector<std::unique_ptr<PreludeUnit>> units;
};

const std::vector<Instance>& Instances() {
  static const std::vector<Instance> kInstances = [] {
    std::vector<Instance> v;
    auto add = [&](std::string name, std::string_view text, std::optional<ScalarType> type, const std::vector<Span>& spans) {
      Instance& in = v.emplace_back();
      in.name = std::move(name);
      in.text = text;
      in.type = type;
      for (const Span& sp : spans) {
        auto u = std::make_unique<PreludeUnit>();
        u->name = sp.name;
        u->raw = text.substr(sp.begin, sp.end - sp.begin);
        u->line_base = sp.line;
        u->type = type;
        u->instance = in.name;
        in.units.push_back(std::move(u));
      }
    };
    std::vector<Span> vecmath = Split(kPreludeText);
    for (ScalarType s : {ScalarType::Float32, ScalarType::Float64}) add(std::string(ScalarName(s)), kPreludeText, s, vecmath);
    if (kPreludeRandomText[0] != '\0') add("random", kPreludeRandomText, std::nullopt, Split(kPreludeRandomText));
    return v;
  }();
  return kInstances;
}

}  // namespace

std::string CheckPreludeSplit() {
  std::string out;
  for (const Instance& in : Instances()) {
    std::string text(in.text);
    SourceFile whole("<prelude:" + in.name + ">", in.type ? Substitute(text, *in.type) : text);
    diag::DiagnosticEngine diags;
    std::unique_ptr<ast::Module> m = parse::ParseFile(whole, diags);
    std::vector<std::string> want, got;
    for (const ast::StmtPtr& sp : m->body) {
      if (const auto* fd = sp->As<ast::FunctionDef>()) want.push_back(fd->name + "@" + std::to_string(whole.Locate(fd->name_range.begin).line));
      else if (!sp->As<ast::Import>()) out += in.name + ": a top-level statement that is neither a function nor an import\n";
    }
    for (const std::unique_ptr<PreludeUnit>& u : in.units) {
      const ast::FunctionDef& fd = u->Def();
      got.push_back(fd.name + "@" + std::to_string(u->file->Locate(fd.name_range.begin).line));
    }
    if (diags.error_count() > 0) out += in.name + ": the whole text does not parse\n";
    if (want != got) {
      out += in.name + ": " + std::to_string(want.size()) + " functions parsed whole, " + std::to_string(got.size()) + " cut";
      for (size_t i = 0; i < std::min(want.size(), got.size()); ++i)
        if (want[i] != got[i]) {
          out += "; first difference: " + want[i] + " vs " + got[i];
          break;
        }
      out += "\n";
    }
  }
  return out;
}

void Checker::AddPrelude() {
  std::map<std::string, ModuleEntry> scope;
  scope["wp"] = {ModuleEntry::Kind::Module, -1, {}, ModuleId::Warp, {}};
  snapshots_.push_back(std::move(scope));
  prelude_snapshot_ = int(snapshots_.size()) - 1;
  const std::vector<Instance>& instances = Instances();
  for (size_t i = 0; i < instances.size(); ++i) {
    for (const std::unique_ptr<PreludeUnit>& u : instances[i].units) {
      prelude_names_[u->name].push_back(int(out_.funcs.size()));
      prelude_units_[int(out_.funcs.size())] = u.get();
      out_.funcs.emplace_back();
      FunctionInfo& fn = out_.funcs.back();
      fn.name = u->name;
      fn.prelude_instance = int(i);
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
    if (out_.funcs[index].prelude_instance == fn_->prelude_instance) mine.push_back(index);
  if (mine.empty()) return -1;
  return PreludeOverloads(name + "@" + std::to_string(fn_->prelude_instance), mine, false);
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
    PreludeUnit& unit = *prelude_units_.at(index);
    fn.def = &unit.Def();
    fn.prelude_file = unit.file.get();
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
  // The prelude's builtins are `wp.` names; a module's own overloads are bare.
  const std::string name = (out_.funcs[cands[0]].is_prelude() ? "wp." : "") + out_.funcs[cands[0]].name;
  std::string found;
  for (size_t i = 0; i < args.size(); ++i)
    found += (i ? ", " : "") + (args[i].keyword.empty() ? "" : args[i].keyword + "=") + TypeName(args[i].info.type);
  std::string takes;
  for (int index : cands) {
    const FunctionInfo& f = out_.funcs[index];
    std::string sig;
    for (int k = 0; k < f.num_params; ++k) sig += (k ? ", " : "") + f.Param(k)->name + ": " + TypeName(f.Param(k)->type);
    takes += "\n  " + name + "(" + sig + ")";
  }
  Error(Code::CompositeArgs, callee_range, "no signature of `" + name + "` takes (" + found + "); it takes:" + takes);
  return Poison();
}

}  // namespace tilec::sema
