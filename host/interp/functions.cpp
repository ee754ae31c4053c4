// Calls of host functions and lambdas: arguments bound to parameters (defaults, `*args`,
// `**kwargs`), the frames they run in, generator functions handed to generators.cpp, and the
// scopes of comprehensions, which are functions of their own in Python.
#include <cstdio>

#include "host/interp/args.h"
#include "host/interp/errors.h"
#include "host/interp/interpreter.h"
#include "host/interp/set_value.h"

namespace tilec::host {

namespace {
constexpr int kMaxDepth = 200;
}  // namespace

std::optional<Value> FunctionObj::GetAttr(Interpreter& in, const std::string& name) {
  if (auto it = attrs.find(name); it != attrs.end()) return it->second;
  if (name == "__name__" || name == "__qualname__") return MakeStr(def->name);
  if (name == "__module__") return MakeStr("__main__");
  if (name == "__doc__") return Value();
  return Object::GetAttr(in, name);
}

// A function from an imported file runs in its module's interpreter, with that module's globals.
Value FunctionObj::Call(Interpreter& in, CallArgs& args) { return (home ? *home : in).CallUser(*this, args); }

Value Interpreter::CallUser(FunctionObj& fn, CallArgs& args) {
  const ast::FunctionDef& def = *fn.def;
  // A file may define coroutines for other tools; running one needs an event loop.
  if (def.is_async) Raise("NotImplementedError", "`" + def.name + "` is an `async` function: coroutines are not supported");
  auto locals = std::make_shared<std::map<std::string, Value>>();
  if (std::all_of(def.params.begin(), def.params.end(),
                  [](const ast::Param& p) { return p.kind == ast::ParamKind::Positional; })) {
    std::vector<std::string> names;
    size_t required = 0;
    for (size_t k = 0; k < def.params.size(); ++k) {
      names.push_back(def.params[k].name);
      if (!fn.has_default[k]) required = k + 1;
    }
    ArgBinder binder(def.name, args, names, required);
    for (size_t k = 0; k < names.size(); ++k)
      (*locals)[names[k]] = binder.Has(k) ? binder.Get(k) : fn.defaults[k];
  } else {
    BindStarredParams(fn, args, *locals);
  }
  if (depth_ >= kMaxDepth) Raise("RecursionError", "maximum recursion depth exceeded");
  if (!fn.generator) fn.generator = HasYield(def.body);
  if (*fn.generator) return MakeGenerator(fn, locals);
  Frame frame;
  frame.chunk = fn.chunk.get();
  frame.locals = locals.get();
  frame.locals_ref = locals;
  frame.enclosing = &fn.enclosing;
  frame.function = def.name;
  InFrame(frame, [&] { ExecBody(def.body); });
  return frame.return_value;
}

std::string LambdaObj::Repr() const {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", static_cast<const void*>(this));
  return std::string("<function <lambda> at ") + buf + ">";
}

Value LambdaObj::Call(Interpreter& in, CallArgs& args) { return in.CallLambda(*this, args); }

std::string GeneratorObj::Repr() const {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", static_cast<const void*>(this));
  if (type_name != "generator") return "<" + type_name + " object at " + buf + ">";
  return std::string("<generator object <genexpr> at ") + buf + ">";
}

std::optional<std::vector<Value>> GeneratorObj::Iterate(Interpreter&) {
  if (consumed) return std::vector<Value>{};
  consumed = true;
  return std::move(items);
}

Value Interpreter::MakeLambda(const ast::Lambda& l) {
  auto fn = std::make_shared<LambdaObj>();
  fn->def = &l;
  fn->chunk = chunk_of(frame_->chunk);
  fn->stmt = frame_->stmt;
  for (const auto& p : l.params) fn->defaults.push_back(p.default_value ? Eval(*p.default_value) : Value());
  if (frame_->locals) fn->captured = std::make_shared<std::map<std::string, Value>>(*frame_->locals);
  if (frame_->enclosing) fn->enclosing = *frame_->enclosing;
  return Value(fn);
}

Value Interpreter::CallLambda(LambdaObj& fn, CallArgs& args) {
  const ast::Lambda& def = *fn.def;
  // Named parameters bind as a def's do; `*args` takes the positional arguments past the
  // named ones before it, `**kwargs` the unknown keywords.
  std::vector<std::string> names;
  std::vector<size_t> index;  // the parameter of each name
  size_t required = 0, positional = 0;
  std::optional<size_t> var_args, var_kw;
  for (size_t k = 0; k < def.params.size(); ++k) {
    const ast::Param& p = def.params[k];
    if (p.kind == ast::ParamKind::VarArgs) {
      var_args = k;
      continue;
    }
    if (p.kind == ast::ParamKind::VarKeywords) {
      var_kw = k;
      continue;
    }
    names.push_back(p.name);
    index.push_back(k);
    if (!var_args) positional = names.size();
    if (!p.default_value && !var_args) required = names.size();
  }
  CallArgs named = args;
  std::vector<Value> extra;
  if (var_args && named.pos.size() > positional) {
    extra.assign(named.pos.begin() + positional, named.pos.end());
    named.pos.resize(positional);
  }
  ArgBinder binder("<lambda>", named, names, required, var_kw.has_value());
  std::map<std::string, Value> locals;
  if (fn.captured) locals = *fn.captured;
  for (size_t k = 0; k < names.size(); ++k) {
    if (!binder.Has(k) && !def.params[index[k]].default_value)
      TypeError("<lambda>() missing 1 required keyword-only argument: '" + names[k] + "'");
    locals[names[k]] = binder.Has(k) ? binder.Get(k) : fn.defaults[index[k]];
  }
  if (var_args) locals[def.params[*var_args].name] = MakeTuple(extra);
  if (var_kw) {
    auto d = std::make_shared<DictObj>();
    for (const auto& [key, v] : binder.extra()) d->Put(MakeStr(key), v);
    locals[def.params[*var_kw].name] = Value(d);
  }
  if (depth_ >= kMaxDepth) Raise("RecursionError", "maximum recursion depth exceeded");
  Frame frame;
  frame.chunk = fn.chunk.get();
  frame.locals = &locals;
  frame.enclosing = &fn.enclosing;
  frame.function = "<lambda>";
  // Tracebacks show the lambda's own line: the statement that made it.
  frame.stmt = fn.stmt;
  return InFrame(frame, [&] { return Eval(*def.body); });
}

// Comprehensions run in a scope of their own (their targets do not leak), which starts as a
// copy of the enclosing function's locals; the first iterable is evaluated outside it.
Value Interpreter::EvalComprehension(const ast::Comprehension& c) {
  Value first = Eval(*c.clauses[0].iter);
  std::map<std::string, Value> locals;
  if (frame_->locals) locals = *frame_->locals;
  Frame frame;
  frame.chunk = frame_->chunk;
  frame.locals = &locals;
  frame.enclosing = frame_->enclosing;  // a comprehension in a nested def sees what the def sees
  frame.function = c.form == ast::Comprehension::Form::List  ? "<listcomp>"
                   : c.form == ast::Comprehension::Form::Dict ? "<dictcomp>"
                   : c.form == ast::Comprehension::Form::Set  ? "<setcomp>"
                                                              : "<genexpr>";
  frame.stmt = frame_->stmt;
  std::vector<Value> items;
  auto dict = std::make_shared<DictObj>();
  std::function<void(size_t, const Value&)> loop = [&](size_t k, const Value& iterable) {
    for (const Value& item : IterateValue(*this, iterable)) {
      CheckInterrupt();
      Assign(*c.clauses[k].target, item);
      bool keep = true;
      for (const auto& cond : c.clauses[k].ifs)
        if (!Truth(Eval(*cond))) {
          keep = false;
          break;
        }
      if (!keep) continue;
      if (k + 1 < c.clauses.size()) {
        loop(k + 1, Eval(*c.clauses[k + 1].iter));
      } else if (c.form == ast::Comprehension::Form::Dict) {
        Value key = Eval(*c.elt);
        if (key.As<ListObj>() || key.As<DictObj>()) TypeError("unhashable type: '" + TypeName(key) + "'");
        dict->Put(key, Eval(*c.value));
      } else {
        items.push_back(Eval(*c.elt));
      }
    }
  };
  Frame* saved = frame_;
  frame_ = &frame;
  try {
    loop(0, first);
  } catch (PyError& e) {
    e.trace.push_back(Here());
    frame_ = saved;
    throw;
  }
  frame_ = saved;
  if (c.form == ast::Comprehension::Form::Dict) return Value(dict);
  if (c.form == ast::Comprehension::Form::List) return MakeList(std::move(items));
  if (c.form == ast::Comprehension::Form::Set) return Value(MakeSet(*this, items));
  auto gen = std::make_shared<GeneratorObj>();
  gen->items = std::move(items);
  return Value(gen);
}

}  // namespace tilec::host
