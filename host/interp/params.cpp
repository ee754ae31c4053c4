// Binding a call's arguments to a host function whose definition has `*args`, keyword-only
// parameters or `**kwargs`, in CPython's order and with its messages. Plain positional
// definitions bind through ArgBinder (args.h).
#include "host/interp/errors.h"
#include "host/interp/interpreter.h"

namespace tilec::host {

// Binding with `*args`, keyword-only parameters and `**kwargs`, in CPython's order and words.
void Interpreter::BindStarredParams(const FunctionObj& fn, CallArgs& args, std::map<std::string, Value>& locals) {
  const ast::FunctionDef& def = *fn.def;
  const std::string f = def.name + "()";
  std::vector<size_t> positional;
  const ast::Param *varargs = nullptr, *varkw = nullptr;
  for (size_t k = 0; k < def.params.size(); ++k) {
    const ast::Param& p = def.params[k];
    if (p.kind == ast::ParamKind::Positional) positional.push_back(k);
    if (p.kind == ast::ParamKind::VarArgs) varargs = &p;
    if (p.kind == ast::ParamKind::VarKeywords) varkw = &p;
  }
  std::vector<const Value*> bound(def.params.size(), nullptr);
  std::vector<Value> extra;
  for (size_t i = 0; i < args.pos.size(); ++i) {
    if (i < positional.size()) bound[positional[i]] = &args.pos[i];
    else extra.push_back(args.pos[i]);
  }
  if (!extra.empty() && !varargs)
    TypeError(f + " takes " + std::to_string(positional.size()) + " positional argument" +
              (positional.size() == 1 ? "" : "s") + " but " + std::to_string(args.pos.size()) +
              (args.pos.size() == 1 ? " was" : " were") + " given");
  auto kwargs = std::make_shared<DictObj>();
  for (auto& [name, value] : args.kw) {
    size_t k = 0;
    while (k < def.params.size() &&
           !(def.params[k].name == name && (def.params[k].kind == ast::ParamKind::Positional ||
                                             def.params[k].kind == ast::ParamKind::KeywordOnly)))
      ++k;
    if (k == def.params.size()) {
      if (!varkw) TypeError(f + " got an unexpected keyword argument '" + name + "'");
      kwargs->Put(MakeStr(name), value);
      continue;
    }
    if (bound[k]) TypeError(f + " got multiple values for argument '" + name + "'");
    bound[k] = &value;
  }
  for (ast::ParamKind kind : {ast::ParamKind::Positional, ast::ParamKind::KeywordOnly}) {
    std::vector<std::string> missing;
    for (size_t k = 0; k < def.params.size(); ++k)
      if (def.params[k].kind == kind && !bound[k] && !fn.has_default[k]) missing.push_back("'" + def.params[k].name + "'");
    if (missing.empty()) continue;
    std::string list;
    for (size_t k = 0; k < missing.size(); ++k) {
      if (k) list += k + 1 == missing.size() ? (missing.size() > 2 ? ", and " : " and ") : ", ";
      list += missing[k];
    }
    TypeError(f + " missing " + std::to_string(missing.size()) + " required " +
              (kind == ast::ParamKind::Positional ? "positional" : "keyword-only") + " argument" +
              (missing.size() == 1 ? "" : "s") + ": " + list);
  }
  for (size_t k = 0; k < def.params.size(); ++k) {
    const ast::Param& p = def.params[k];
    if (&p == varargs) locals[p.name] = MakeTuple(std::move(extra));
    else if (&p == varkw) locals[p.name] = Value(kwargs);
    else locals[p.name] = bound[k] ? *bound[k] : fn.defaults[k];
  }
}

}  // namespace tilec::host
