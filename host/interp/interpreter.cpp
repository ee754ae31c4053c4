// Statement execution and expression evaluation over the AST, with Python's scoping
// (locals, module globals, builtins), exceptions (try/except/else/finally, raise, chaining)
// and tracebacks that name the page line. Calls of host functions are in functions.cpp.
#include "host/interp/interpreter.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <exception>
#include <functional>
#include <ostream>
#include <sstream>

#include "frontend/parse/parse.h"
#include "host/interp/args.h"
#include "host/interp/array_values.h"
#include "host/interp/exceptions.h"
#include "host/interp/set_value.h"
#include "host/ndarray/ndarray.h"
#include "tilec/error.h"
#include "tilec/interrupt.h"
#include "support/diagnostics.h"

namespace tilec::host {

namespace {

std::string Strip(std::string_view s) {
  size_t l = s.find_first_not_of(" \t"), r = s.find_last_not_of(" \t\r\n");
  return l == std::string_view::npos ? "" : std::string(s.substr(l, r - l + 1));
}

// Restores the frame's current statement on normal exit only, so that an exception leaves
// the innermost statement in place for the traceback.
struct StmtScope {
  const ast::Stmt*& slot;
  const ast::Stmt* saved;
  int exceptions;
  StmtScope(const ast::Stmt*& s, const ast::Stmt* now)
      : slot(s), saved(s), exceptions(std::uncaught_exceptions()) { slot = now; }
  ~StmtScope() {
    if (std::uncaught_exceptions() == exceptions) slot = saved;
  }
};
}  // namespace

Interpreter::Interpreter(std::ostream& out, bool prelude) : out_(&out), wp_(MakeWpState()) {
  InstallBuiltins(builtins_);
  InstallExceptions(builtins_);
  InstallIntrospection(builtins_);
  globals_["__name__"] = MakeStr("__main__");
  if (prelude) {
    // Doc pages and examples use `wp` and `np` without importing them, as Warp's own
    // documentation does (its doctest setup imports both).
    globals_["wp"] = MakeWarpModule(*this);
    globals_["np"] = MakeNumpyModule();
  }
}

Interpreter::~Interpreter() = default;

ChunkRef Interpreter::Parse(const std::string& path, std::string text, int line_base, int col_base,
                            std::string* diagnostics) {
  auto chunk = std::make_shared<Chunk>(path, std::move(text), line_base, col_base);
  diag::DiagnosticEngine diags;
  chunk->module = parse::ParseFile(chunk->file, diags);
  if (diags.has_errors() || !chunk->module) {
    if (diagnostics) {
      std::ostringstream os;
      diags.Render(os);
      *diagnostics = os.str();
    }
    return nullptr;
  }
  return chunk;
}

bool Interpreter::RunSource(const std::string& path, std::string text, int line_base, int col_base,
                            std::ostream& err) {
  std::string diagnostics;
  ChunkRef chunk = Parse(path, std::move(text), line_base, col_base, &diagnostics);
  if (!chunk) {
    out_->flush();
    err << diagnostics;
    return false;
  }
  try {
    RunChunk(chunk);
  } catch (const PyError& e) {
    out_->flush();
    err << e.diagnostics << FormatTraceback(e);
    return false;
  }
  return true;
}

void Interpreter::RunChunk(const ChunkRef& chunk) {
  chunks_.push_back(chunk);
  Frame frame;
  frame.chunk = chunk.get();
  Frame* saved = frame_;
  frame_ = &frame;
  try {
    for (const auto& s : chunk->module->body) {
      Flow f = Exec(*s);
      if (f == Flow::Break || f == Flow::Continue)
        Raise("SyntaxError", std::string("'") + (f == Flow::Break ? "break" : "continue") + "' outside loop");
      if (f == Flow::Return) Raise("SyntaxError", "'return' outside function");
      if (echo_ && s->Is<ast::ExprStmt>() && !last_value_.IsNone()) {
        *out_ << Repr(last_value_) << "\n";
      }
      last_value_ = Value();
    }
  } catch (PyError& e) {
    e.trace.push_back(Here());
    frame_ = saved;
    last_value_ = Value();
    throw;
  }
  frame_ = saved;
}

std::string Interpreter::FormatTraceback(const PyError& e) {
  std::string out;
  if (e.context && !e.suppress_context)
    out = FormatTraceback(*e.context) +
          (e.explicit_cause ? "\nThe above exception was the direct cause of the following exception:\n\n"
                            : "\nDuring handling of the above exception, another exception occurred:\n\n");
  // A `from` operand that was never raised has no traceback, only its line.
  if (!e.trace.empty()) out += "Traceback (most recent call last):\n";
  for (auto it = e.trace.rbegin(); it != e.trace.rend(); ++it) {
    out += "  File \"" + it->file + "\", line " + std::to_string(it->line) + ", in " + it->function + "\n";
    if (!it->source.empty()) out += "    " + it->source + "\n";
  }
  return out + e.Line() + "\n";
}

TraceEntry Interpreter::Here() const { return CallerLocation(1); }

TraceEntry Interpreter::CallerLocation(int level) const {
  const Frame* f = frame_;
  for (int k = 1; k < level && f; ++k) f = f->caller;
  TraceEntry t;
  if (!f || !f->chunk) return t;
  t.file = f->chunk->file.path();
  t.function = f->function;
  if (f->stmt) {
    t.line = f->chunk->file.Locate(f->stmt->range.begin).line;
    t.source = Strip(f->chunk->file.LineText(f->stmt->range.begin));
  }
  return t;
}

int Interpreter::current_line() const {
  if (!frame_ || !frame_->stmt) return 0;
  return frame_->chunk->file.Locate(frame_->stmt->range.begin).line;
}

// ---------------------------------------------------------------- names

Value Interpreter::EvalInDefinitionScope(const ast::Expr& e, const FunctionObj& fn) {
  Frame frame;
  frame.chunk = fn.chunk.get();
  frame.locals_ref = std::make_shared<std::map<std::string, Value>>();
  frame.locals = frame.locals_ref.get();
  frame.enclosing = &fn.enclosing;
  frame.function = fn.def->name;
  frame.stmt = fn.def;
  return InFrame(frame, [&] { return Eval(e); });
}

Value Interpreter::LookupName(const std::string& id) {
  if (frame_ && frame_->locals && !frame_->global_names.empty() && frame_->global_names.count(id)) {
    if (auto it = globals_.find(id); it != globals_.end()) return it->second;
    if (auto it = builtins_.find(id); it != builtins_.end()) return it->second;
    Raise("NameError", "name '" + id + "' is not defined");
  }
  if (frame_ && frame_->locals) {
    auto it = frame_->locals->find(id);
    if (it != frame_->locals->end()) return it->second;
  }
  if (frame_ && frame_->enclosing) {
    for (auto scope = frame_->enclosing->rbegin(); scope != frame_->enclosing->rend(); ++scope)
      if (auto it = (*scope)->find(id); it != (*scope)->end()) return it->second;
  }
  if (auto it = globals_.find(id); it != globals_.end()) return it->second;
  if (auto it = builtins_.find(id); it != builtins_.end()) return it->second;
  // Locals first, then globals, then builtins, as CPython searches for a suggestion.
  auto keys = [](const std::map<std::string, Value>& m) {
    std::vector<std::string> k;
    for (auto& kv : m) k.push_back(kv.first);
    return k;
  };
  std::string hint;
  if (frame_ && frame_->locals) hint = Suggestion(id, keys(*frame_->locals));
  if (hint.empty()) hint = Suggestion(id, keys(globals_));
  if (hint.empty()) {
    std::vector<std::string> b = keys(builtins_);
    for (const char* k : {"None", "True", "False"}) b.push_back(k);
    hint = Suggestion(id, b);
  }
  Raise("NameError", "name '" + id + "' is not defined" + (hint.empty() ? "" : ". Did you mean: '" + hint + "'?"));
}

void Interpreter::StoreName(const std::string& id, const Value& v) {
  if (!frame_ || !frame_->locals) {
    globals_[id] = v;
    return;
  }
  if (!frame_->global_names.empty() && frame_->global_names.count(id)) {
    globals_[id] = v;
    return;
  }
  if (!frame_->nonlocal_names.empty() && frame_->nonlocal_names.count(id) && frame_->enclosing) {
    for (auto scope = frame_->enclosing->rbegin(); scope != frame_->enclosing->rend(); ++scope)
      if (auto it = (*scope)->find(id); it != (*scope)->end()) {
        it->second = v;
        return;
      }
  }
  (*frame_->locals)[id] = v;
}

void Interpreter::ExecGlobal(const ast::Global& s) {
  if (!frame_ || !frame_->locals) {
    if (s.nonlocal) Raise("SyntaxError", "nonlocal declaration not allowed at module level");
    return;  // `global` at module level changes nothing
  }
  for (const std::string& id : s.names) {
    if (!s.nonlocal) {
      frame_->global_names.insert(id);
      continue;
    }
    bool found = false;
    if (frame_->enclosing)
      for (const auto& scope : *frame_->enclosing) found = found || scope->count(id);
    if (!found) Raise("SyntaxError", "no binding for nonlocal '" + id + "' found");
    frame_->nonlocal_names.insert(id);
  }
}

// ---------------------------------------------------------------- statements

void CheckInterrupt() {
  // Polled at every statement and comprehension step: a relaxed atomic load, cheap enough.
  if (!rt::InterruptPending()) return;
  rt::ClearInterrupt();
  throw PyError("KeyboardInterrupt", "");
}

Interpreter::Flow Interpreter::ExecBody(const ast::Body& body) {
  for (const auto& s : body) {
    Flow f = Exec(*s);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

Interpreter::Flow Interpreter::Exec(const ast::Stmt& s) {
  // Errors of the ndarray and the runtime become Python exceptions at the statement that
  // raised them; anything else unexpected too, so that the session survives it.
  CheckInterrupt();
  try {
    return ExecInner(s);
  } catch (const PyError&) {
    throw;
  } catch (const rt::Interrupted&) {
    rt::ClearInterrupt();
    throw PyError("KeyboardInterrupt", "");
  } catch (const NdError& e) {
    throw PyError(e.type(), e.message());
  } catch (const rt::OutOfMemory& e) {
    throw PyError("MemoryError", e.what());
  } catch (const rt::AccessError& e) {
    throw PyError("IndexError", e.what());
  } catch (const rt::AssertError& e) {
    throw PyError("AssertionError", e.what());
  } catch (const rt::Error& e) {
    throw PyError("RuntimeError", e.what());
  } catch (const std::bad_alloc&) {
    throw PyError("MemoryError", "");
  } catch (const std::exception& e) {
    throw PyError("SystemError", std::string("internal error: ") + e.what());
  }
}

Interpreter::Flow Interpreter::ExecInner(const ast::Stmt& s) {
  StmtScope scope(frame_->stmt, &s);
  switch (s.kind) {
    case ast::StmtKind::ExprStmt: {
      Value v = Eval(*s.As<ast::ExprStmt>()->value);
      if (!frame_->locals) last_value_ = v;
      return Flow::Normal;
    }
    case ast::StmtKind::Assign: {
      auto* a = s.As<ast::Assign>();
      Value v = Eval(*a->value);
      for (const auto& t : a->targets) Assign(*t, v);
      return Flow::Normal;
    }
    case ast::StmtKind::AnnAssign: {
      auto* a = s.As<ast::AnnAssign>();
      if (a->value) Assign(*a->target, Eval(*a->value));
      return Flow::Normal;
    }
    case ast::StmtKind::AugAssign: {
      auto* a = s.As<ast::AugAssign>();
      const ast::Expr& t = *a->target;
      if (auto* n = t.As<ast::Name>()) {
        Value cur = LookupName(n->id);
        Value rhs = Eval(*a->value);
        if (cur.IsObj() && cur.obj()->InplaceOp(*this, a->op, rhs)) return Flow::Normal;
        StoreName(n->id, BinaryOpValues(*this, a->op, cur, rhs));
      } else if (auto* at = t.As<ast::Attribute>()) {
        Value obj = Eval(*at->value);
        Value cur = GetAttr(obj, at->attr);
        Value rhs = Eval(*a->value);
        if (cur.IsObj() && cur.obj()->InplaceOp(*this, a->op, rhs)) return Flow::Normal;
        Value nv = BinaryOpValues(*this, a->op, cur, rhs);
        if (!obj.IsObj() || !obj.obj()->SetAttr(*this, at->attr, nv))
          AttributeError("'" + TypeName(obj) + "' object attribute '" + at->attr + "' is read-only");
      } else if (auto* sub = t.As<ast::Subscript>()) {
        Value obj = Eval(*sub->value);
        Value key = EvalSubscriptIndex(*sub->index);
        if (!obj.IsObj()) TypeError("'" + TypeName(obj) + "' object is not subscriptable");
        Value cur = obj.obj()->GetItem(*this, key);
        Value rhs = Eval(*a->value);
        if (cur.IsObj() && cur.obj()->InplaceOp(*this, a->op, rhs)) {
          // An advanced-indexed x[key] is a copy, so the result is stored back as Python does.
          if (obj.As<NdArrayObj>()) obj.obj()->SetItem(*this, key, cur);
          return Flow::Normal;
        }
        obj.obj()->SetItem(*this, key, BinaryOpValues(*this, a->op, cur, rhs));
      } else {
        Raise("SyntaxError", "illegal expression for augmented assignment");
      }
      return Flow::Normal;
    }
    case ast::StmtKind::If: {
      auto* i = s.As<ast::If>();
      if (Truth(Eval(*i->cond))) return ExecBody(i->body);
      return ExecBody(i->orelse);
    }
    case ast::StmtKind::For:
      return ExecFor(*s.As<ast::For>());
    case ast::StmtKind::While: {
      auto* w = s.As<ast::While>();
      while (Truth(Eval(*w->cond))) {
        Flow f = ExecBody(w->body);
        if (f == Flow::Break) break;
        if (f == Flow::Return) return f;
        frame_->stmt = &s;
      }
      return Flow::Normal;
    }
    case ast::StmtKind::Break: return Flow::Break;
    case ast::StmtKind::Continue: return Flow::Continue;
    case ast::StmtKind::Pass: return Flow::Normal;
    case ast::StmtKind::Return: {
      auto* r = s.As<ast::Return>();
      if (!frame_->locals) Raise("SyntaxError", "'return' outside function");
      frame_->return_value = r->value ? Eval(*r->value) : Value();
      return Flow::Return;
    }
    case ast::StmtKind::FunctionDef:
      ExecFunctionDef(*s.As<ast::FunctionDef>());
      return Flow::Normal;
    case ast::StmtKind::ClassDef:
      ExecClassDef(*s.As<ast::ClassDef>());
      return Flow::Normal;
    case ast::StmtKind::Import:
      ExecImport(*s.As<ast::Import>());
      return Flow::Normal;
    case ast::StmtKind::ImportFrom:
      ExecImportFrom(*s.As<ast::ImportFrom>());
      return Flow::Normal;
    case ast::StmtKind::With:
      return ExecWith(*s.As<ast::With>());
    case ast::StmtKind::Try:
      return ExecTry(*s.As<ast::Try>());
    case ast::StmtKind::Raise:
      ExecRaise(*s.As<ast::Raise>());
      return Flow::Normal;
    case ast::StmtKind::Delete:
      for (const auto& t : s.As<ast::Delete>()->targets) Delete(*t);
      return Flow::Normal;
    case ast::StmtKind::Global:
      ExecGlobal(*s.As<ast::Global>());
      return Flow::Normal;
    case ast::StmtKind::Assert: {
      auto* a = s.As<ast::Assert>();
      if (!Truth(Eval(*a->test))) Raise("AssertionError", a->msg ? Str(Eval(*a->msg)) : "");
      return Flow::Normal;
    }
  }
  return Flow::Normal;
}

Interpreter::Flow Interpreter::ExecFor(const ast::For& s) {
  Value iter = Eval(*s.iter);
  auto body = [&](const Value& item) -> std::optional<Flow> {
    Assign(*s.target, item);
    Flow f = ExecBody(s.body);
    frame_->stmt = &s;
    if (f == Flow::Break) return Flow::Normal;
    if (f == Flow::Return) return f;
    return std::nullopt;
  };
  // Ranges are walked without building the list of their elements.
  if (auto* r = iter.As<RangeObj>()) {
    int64_t n = *r->Len();
    for (int64_t k = 0; k < n; ++k)
      if (auto f = body(Value::Int(r->start + k * r->step))) return *f;
    return Flow::Normal;
  }
  // Iterators (generators above all) are stepped one value at a time, so that the loop body
  // runs between their steps.
  if (iter.IsObj() && iter.obj()->IsIterator()) {
    while (std::optional<Value> item = iter.obj()->Next(*this))
      if (auto f = body(*item)) return *f;
    return Flow::Normal;
  }
  for (const Value& item : IterateValue(*this, iter))
    if (auto f = body(item)) return *f;
  return Flow::Normal;
}



Interpreter::Flow Interpreter::ExecWith(const ast::With& s) {
  std::vector<Value> entered;
  Flow f = Flow::Normal;
  try {
    for (const auto& item : s.items) {
      Value ctx = Eval(*item.context);
      std::optional<Value> as = ctx.IsObj() ? ctx.obj()->Enter(*this) : std::nullopt;
      if (!as)
        TypeError("'" + TypeName(ctx) + "' object does not support the context manager protocol");
      entered.push_back(ctx);
      if (item.target) Assign(*item.target, *as);
    }
    f = ExecBody(s.body);
  } catch (PyError& e) {
    // Managers are told of the exception innermost first; once one swallows it, the
    // outer ones see a normal exit.
    bool swallowed = false;
    frame_->stmt = &s;  // what a manager raises comes from the `with` line, as in CPython
    for (auto it = entered.rbegin(); it != entered.rend(); ++it) {
      if (swallowed) it->obj()->Exit(*this);
      else swallowed = it->obj()->ExitOnError(*this, e);
    }
    if (!swallowed) throw;
    return Flow::Normal;
  } catch (...) {
    for (auto it = entered.rbegin(); it != entered.rend(); ++it) it->obj()->Exit(*this);
    throw;
  }
  for (auto it = entered.rbegin(); it != entered.rend(); ++it) it->obj()->Exit(*this);
  return f;
}

namespace {
// What CPython's constant folding turns into one constant: literals, and unary, binary and
// tuple expressions of them.
bool IsConstantExpr(const ast::Expr& e) {
  switch (e.kind) {
    case ast::ExprKind::IntLit: case ast::ExprKind::FloatLit: case ast::ExprKind::StrLit:
    case ast::ExprKind::BoolLit: case ast::ExprKind::NoneLit:
      return true;
    case ast::ExprKind::Unary:
      return e.As<ast::Unary>()->op != ast::UnaryOp::Not && IsConstantExpr(*e.As<ast::Unary>()->operand);
    case ast::ExprKind::Binary:
      return IsConstantExpr(*e.As<ast::Binary>()->lhs) && IsConstantExpr(*e.As<ast::Binary>()->rhs);
    case ast::ExprKind::Tuple:
      for (const auto& x : e.As<ast::Tuple>()->elts)
        if (!IsConstantExpr(*x)) return false;
      return true;
    default:
      return false;
  }
}

}  // namespace

Interpreter::Flow Interpreter::ExecTry(const ast::Try& s) {
  Flow f = Flow::Normal;
  try {
    bool raised = false;
    try {
      f = ExecBody(s.body);
    } catch (PyError& e) {
      raised = true;
      // The raising statement is still current in this frame (StmtScope leaves it).
      Handled handled{e, e.trace, frame_, frame_->stmt};
      handled.error.trace.push_back(Here());
      frame_->stmt = &s;
      std::shared_ptr<ExcObj> value = ExceptionValue(e);
      const ast::ExceptHandler* handler = nullptr;
      for (const ast::ExceptHandler& h : s.handlers) {
        if (!h.type || ExceptionMatches(Eval(*h.type), *value->type)) {
          handler = &h;
          break;
        }
      }
      if (!handler) {
        frame_->stmt = handled.stmt;
        throw;
      }
      handled.error.instance = value;
      handling_.push_back(handled);
      struct Pop {
        std::vector<Handled>& v;
        ~Pop() { v.pop_back(); }
      } pop{handling_};
      if (!handler->name.empty()) StoreName(handler->name, Value(value));
      try {
        f = ExecBody(handler->body);
      } catch (PyError& inner) {
        if (!inner.chained) {
          inner.context = std::make_shared<PyError>(handling_.back().error);
          inner.chained = true;
        }
        throw;
      }
      // Python unbinds the name at the end of the handler.
      if (!handler->name.empty()) {
        if (frame_->locals) frame_->locals->erase(handler->name);
        else globals_.erase(handler->name);
      }
    }
    if (!raised && f == Flow::Normal) f = ExecBody(s.orelse);
  } catch (PyError&) {
    if (s.finalbody.empty()) throw;
    // A `return`, `break` or `continue` in `finally` discards the exception; otherwise the
    // traceback still names the statement that raised.
    const ast::Stmt* raised_at = frame_->stmt;
    Flow ff = ExecBody(s.finalbody);
    if (ff != Flow::Normal) return ff;
    frame_->stmt = raised_at;
    throw;
  }
  Flow ff = ExecBody(s.finalbody);
  if (ff != Flow::Normal) return ff;
  return f;
}

void Interpreter::ExecRaise(const ast::Raise& s) {
  if (!s.exc) {
    if (handling_.empty()) RuntimeError("No active exception to reraise");
    // The same exception with its own traceback: in the frame that caught it, the line shown
    // stays the one that raised.
    const Handled& h = handling_.back();
    PyError again = h.error;
    again.trace = h.inner;
    again.chained = true;
    if (h.frame == frame_) frame_->stmt = h.stmt;
    throw again;
  }
  Value exc = Eval(*s.exc);
  PyError err = MakeRaise(*this, exc);
  if (s.cause) {
    Value cause = Eval(*s.cause);
    err.chained = true;
    if (cause.IsNone()) {
      err.suppress_context = true;
    } else {
      if (!cause.As<ExcObj>() && !cause.As<ExcTypeObj>()) TypeError("exception causes must derive from BaseException");
      std::shared_ptr<PyError> c;
      for (auto it = handling_.rbegin(); it != handling_.rend() && !c; ++it)
        if (it->error.instance && it->error.instance.get() == cause.obj()) c = std::make_shared<PyError>(it->error);
      if (!c) {
        c = std::make_shared<PyError>(MakeRaise(*this, cause));
        c->trace.clear();
      }
      err.context = c;
      err.explicit_cause = true;
    }
  }
  throw err;
}

// Decorators apply bottom-up, each to what the one below made.
Value Interpreter::ApplyDecorators(const std::vector<ast::ExprPtr>& decorators, Value v) {
  for (auto it = decorators.rbegin(); it != decorators.rend(); ++it) {
    Value deco = Eval(**it);
    CallArgs args;
    args.pos.push_back(v);
    v = CallValue(deco, args);
  }
  return v;
}

void Interpreter::ExecFunctionDef(const ast::FunctionDef& s) {
  auto fn = std::make_shared<FunctionObj>();
  fn->def = &s;
  fn->chunk = chunk_of(frame_->chunk);
  fn->home = this;
  // Kernels and wp.funcs take type annotations, not defaults evaluated on the host.
  bool host_function = true;
  for (const auto& d : s.decorators) {
    const ast::Expr* callee = d.get();
    if (const auto* call = callee->As<ast::Call>()) callee = call->func.get();
    if (const auto* attr = callee->As<ast::Attribute>())
      host_function &= !(attr->value->Is<ast::Name>() && (attr->attr == "kernel" || attr->attr == "func"));
  }
  for (const auto& p : s.params) {
    fn->has_default.push_back(p.default_value != nullptr);
    fn->defaults.push_back(p.default_value && host_function ? Eval(*p.default_value) : Value());
  }
  // Kernels keep them too: the checker reads the enclosing functions' constants and types.
  if (frame_->locals) {
    if (frame_->enclosing) fn->enclosing = *frame_->enclosing;
    if (frame_->locals_ref) fn->enclosing.push_back(frame_->locals_ref);
  }
  Value v(fn);
  v = ApplyDecorators(s.decorators, v);
  StoreName(s.name, v);
}

void Interpreter::ExecClassDef(const ast::ClassDef& s) {
  // `@wp.struct` classes are kernel types; other decorators (`@unittest.skipIf(...)`) apply
  // to a plain class.
  bool kernel_type = false;
  for (const auto& d : s.decorators) {
    const ast::Expr* callee = d.get();
    if (const auto* call = callee->As<ast::Call>()) callee = call->func.get();
    if (const auto* attr = callee->As<ast::Attribute>()) kernel_type |= attr->attr == "struct";
    if (const auto* name = callee->As<ast::Name>()) kernel_type |= name->id == "struct";
  }
  if (!kernel_type) {
    ExecPlainClass(s);
    Value v = LookupName(s.name);
    v = ApplyDecorators(s.decorators, v);
    StoreName(s.name, v);
    return;
  }
  auto cls = std::make_shared<ClassDefObj>();
  cls->def = &s;
  cls->chunk = chunk_of(frame_->chunk);
  Value v(cls);
  v = ApplyDecorators(s.decorators, v);
  StoreName(s.name, v);
}

ChunkRef Interpreter::chunk_of(const Chunk* c) const {
  for (const auto& ch : chunks_)
    if (ch.get() == c) return ch;
  return nullptr;
}

// ---------------------------------------------------------------- calls

Value Interpreter::CallValue(const Value& f, CallArgs& args) {
  if (!f.IsObj() || !f.obj()->Callable()) TypeError("'" + TypeName(f) + "' object is not callable");
  return f.obj()->Call(*this, args);
}

namespace {
// How CPython names a callee in argument errors: `print()`, `f()`.
std::string CalleeName(const Value& f) {
  if (auto* b = f.As<BuiltinFn>()) return b->name + "()";
  if (auto* u = f.As<FunctionObj>()) return u->def->name + "()";
  return TypeName(f) + " object";
}
}  // namespace

// Elements of a display or a call's positional arguments (`callee` set), `*xs` expanded in place.
std::vector<Value> Interpreter::EvalItems(const std::vector<ast::ExprPtr>& elts, const Value* callee) {
  std::vector<Value> items;
  for (const auto& x : elts) {
    if (dynamic_cast<const ast::Starred*>(x.get())) {
      Value seq = Eval(*static_cast<const ast::Call&>(*x).args[0]);
      // Iterate once: a generator gives its elements only the first time.
      std::optional<std::vector<Value>> elems = seq.IsObj() ? seq.obj()->Iterate(*this) : std::nullopt;
      if (!elems) {
        if (callee) TypeError(CalleeName(*callee) + " argument after * must be an iterable, not " + TypeName(seq));
        TypeError("Value after * must be an iterable, not " + TypeName(seq));
      }
      for (Value& v : *elems) items.push_back(std::move(v));
    } else {
      items.push_back(Eval(*x));
    }
  }
  return items;
}

Value Interpreter::EvalCall(const ast::Call& c) {
  if (dynamic_cast<const ast::Starred*>(&c)) Raise("SyntaxError", "can't use starred expression here");
  Value f = Eval(*c.func);
  CallArgs args;
  args.pos = EvalItems(c.args, &f);
  for (const auto& k : c.keywords) {
    if (!k.name.empty()) {
      args.kw.emplace_back(k.name, Eval(*k.value));
      continue;
    }
    Value d = Eval(*k.value);
    auto* dict = d.As<DictObj>();
    if (!dict) TypeError(CalleeName(f) + " argument after ** must be a mapping, not " + TypeName(d));
    for (const auto& [key, v] : dict->items) {
      if (!key.As<StrObj>()) TypeError("keywords must be strings");
      args.kw.emplace_back(Str(key), v);
    }
  }
  return CallValue(f, args);
}

namespace {

// The attributes of Python's int and float that host programs use.
std::optional<Value> NumberAttr(const Value& v, const std::string& name) {
  auto method = [&](Value result) {
    return Value(std::make_shared<BuiltinFn>(name, [name, result](Interpreter&, CallArgs& a) {
      ArgBinder b(name, a, {}, 0);
      return result;
    }));
  };
  if (name == "real") return v.IsBool() ? Value::Int(v.i()) : v;
  if (name == "imag") return v.IsFloat() ? Value::Float(0.0) : Value::Int(0);
  if (name == "conjugate") return method(v.IsBool() ? Value::Int(v.i()) : v);
  if (v.IsIntLike()) {
    // Python counts the bits of the magnitude.
    const uint64_t mag = v.i() < 0 ? uint64_t(0) - uint64_t(v.i()) : uint64_t(v.i());
    if (name == "bit_count") return method(Value::Int(std::popcount(mag)));
    if (name == "bit_length") return method(Value::Int(64 - std::countl_zero(mag)));
    if (name == "numerator") return Value::Int(v.i());
    if (name == "denominator") return Value::Int(1);
  }
  if (v.IsFloat() && name == "is_integer")
    return method(Value::Bool(std::isfinite(v.f()) && v.f() == std::trunc(v.f())));
  return std::nullopt;
}

}  // namespace

Value Interpreter::GetAttr(const Value& obj, const std::string& name) {
  if (obj.IsNumber())
    if (std::optional<Value> v = NumberAttr(obj, name)) return *v;
  if (obj.IsObj()) {
    if (auto v = obj.obj()->GetAttr(*this, name)) return *v;
    if (auto* m = obj.As<ModuleObj>()) {
      std::vector<std::string> attrs;
      for (auto& kv : m->attrs) attrs.push_back(kv.first);
      std::string hint = Suggestion(name, attrs);
      AttributeError("module '" + m->name + "' has no attribute '" + name + "'" +
                     (hint.empty() ? "" : ". Did you mean: '" + hint + "'?"));
    }
  }
  AttributeError("'" + TypeName(obj) + "' object has no attribute '" + name + "'");
}

// ---------------------------------------------------------------- expressions

Value Interpreter::EvalSubscriptIndex(const ast::Expr& index) {
  if (auto* t = index.As<ast::Tuple>()) {
    std::vector<Value> items;
    for (const auto& e : t->elts) items.push_back(EvalSubscriptIndex(*e));
    return MakeTuple(std::move(items));
  }
  return Eval(index);
}

Value Interpreter::EvalCompare(const ast::Compare& c) {
  Value left = Eval(*c.left);
  Value result;
  for (size_t k = 0; k < c.ops.size(); ++k) {
    Value right = Eval(*c.comparators[k]);
    result = CompareValues(*this, c.ops[k], left, right);
    if (k + 1 < c.ops.size() && !Truth(result)) return result;
    left = right;
  }
  return result;
}

Value Interpreter::Eval(const ast::Expr& e) {
  switch (e.kind) {
    case ast::ExprKind::Name: return LookupName(e.As<ast::Name>()->id);
    case ast::ExprKind::IntLit: {
      uint64_t v = e.As<ast::IntLit>()->value;
      if (v > uint64_t(INT64_MAX) || e.As<ast::IntLit>()->too_large)
        Raise("OverflowError", "integer literal too large (host ints are 64-bit)");
      return Value::Int(int64_t(v));
    }
    case ast::ExprKind::FloatLit:
      if (e.As<ast::FloatLit>()->imaginary) return ComplexScalar(0.0, e.As<ast::FloatLit>()->value);
      return Value::Float(e.As<ast::FloatLit>()->value);
    case ast::ExprKind::StrLit:
      if (e.As<ast::StrLit>()->is_bytes) return MakeBytes(e.As<ast::StrLit>()->value);
      return MakeStr(e.As<ast::StrLit>()->value);
    case ast::ExprKind::BoolLit: return Value::Bool(e.As<ast::BoolLit>()->value);
    case ast::ExprKind::NoneLit: return Value();
    case ast::ExprKind::Unary: {
      auto* u = e.As<ast::Unary>();
      Value v = Eval(*u->operand);
      if (u->op == ast::UnaryOp::Not) return Value::Bool(!Truth(v));
      return UnaryOpValue(*this, u->op, v);
    }
    case ast::ExprKind::Binary: {
      auto* b = e.As<ast::Binary>();
      Value l = Eval(*b->lhs);
      Value r = Eval(*b->rhs);
      return BinaryOpValues(*this, b->op, l, r);
    }
    case ast::ExprKind::BoolOp: {
      auto* b = e.As<ast::BoolOp>();
      Value v;
      for (size_t k = 0; k < b->values.size(); ++k) {
        v = Eval(*b->values[k]);
        bool t = Truth(v);
        if (b->op == ast::BoolOpKind::And ? !t : t) return v;
      }
      return v;
    }
    case ast::ExprKind::Compare: return EvalCompare(*e.As<ast::Compare>());
    case ast::ExprKind::IfExp: {
      auto* i = e.As<ast::IfExp>();
      return Truth(Eval(*i->cond)) ? Eval(*i->then_value) : Eval(*i->else_value);
    }
    case ast::ExprKind::Call: {
      const auto* c = e.As<ast::Call>();
      if (auto* comp = dynamic_cast<const ast::Comprehension*>(c)) return EvalComprehension(*comp);
      if (auto* y = dynamic_cast<const ast::Yield*>(c)) return EvalYield(*y);
      if (auto* lam = dynamic_cast<const ast::Lambda*>(c)) return MakeLambda(*lam);
      if (auto* w = dynamic_cast<const ast::NamedExpr*>(c)) {
        Value v = Eval(*c->args[0]);
        StoreName(w->target, v);
        return v;
      }
      if (dynamic_cast<const ast::SetDisplay*>(c)) {
        std::vector<Value> items;
        bool constant = c->args.size() > 2;
        for (const auto& x : c->args) {
          items.push_back(Eval(*x));
          constant = constant && IsConstantExpr(*x);
        }
        // CPython compiles a display of three or more constants to an empty set updated
        // from a frozenset constant; the compiler's constant merging rebuilds that frozenset
        // from its own iteration order. Both steps show in the order of the elements.
        if (constant) {
          auto frozen = MakeSet(*this, MakeSet(*this, items)->Items());
          auto result = std::make_shared<SetObj>();
          result->Merge(*frozen);
          return Value(result);
        }
        return Value(MakeSet(*this, items));
      }
      return EvalCall(*c);
    }
    case ast::ExprKind::Attribute: {
      auto* a = e.As<ast::Attribute>();
      return GetAttr(Eval(*a->value), a->attr);
    }
    case ast::ExprKind::Subscript: {
      auto* s = e.As<ast::Subscript>();
      Value obj = Eval(*s->value);
      Value key = EvalSubscriptIndex(*s->index);
      if (!obj.IsObj()) TypeError("'" + TypeName(obj) + "' object is not subscriptable");
      return obj.obj()->GetItem(*this, key);
    }
    case ast::ExprKind::Slice: {
      auto* s = e.As<ast::Slice>();
      auto sl = std::make_shared<SliceObj>();
      if (s->lower) sl->lower = Eval(*s->lower);
      if (s->upper) sl->upper = Eval(*s->upper);
      if (s->step) sl->step = Eval(*s->step);
      return Value(sl);
    }
    case ast::ExprKind::Tuple: return MakeTuple(EvalItems(e.As<ast::Tuple>()->elts));
    case ast::ExprKind::List: return MakeList(EvalItems(e.As<ast::List>()->elts));
    case ast::ExprKind::Dict: {
      auto* d = e.As<ast::Dict>();
      auto obj = std::make_shared<DictObj>();
      for (size_t k = 0; k < d->keys.size(); ++k) {
        Value key = Eval(*d->keys[k]);
        if (key.As<ListObj>() || key.As<DictObj>()) TypeError("unhashable type: '" + TypeName(key) + "'");
        obj->Put(key, Eval(*d->values[k]));
      }
      return Value(obj);
    }
  }
  return Value();
}

}  // namespace tilec::host
