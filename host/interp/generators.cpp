// Generator functions and `contextlib.contextmanager`. A generator's body runs on a thread of
// its own that hands control back and forth with the code stepping it: exactly one of the two
// runs at any moment, each with its own frames, so the interpreter needs no locking. The
// interpreter's per-execution state (the frame chain, the call depth, the exceptions being
// handled) is swapped at every hand-over.
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "host/interp/args.h"
#include "host/interp/errors.h"
#include "host/interp/exceptions.h"
#include "host/interp/interpreter.h"

namespace tilec::host {

bool HasYield(const ast::Body& body) {
  for (const ast::StmtPtr& s : body) {
    switch (s->kind) {
      case ast::StmtKind::ExprStmt:
        if (dynamic_cast<const ast::Yield*>(s->As<ast::ExprStmt>()->value.get())) return true;
        break;
      case ast::StmtKind::If:
        if (HasYield(s->As<ast::If>()->body) || HasYield(s->As<ast::If>()->orelse)) return true;
        break;
      case ast::StmtKind::For:
        if (HasYield(s->As<ast::For>()->body)) return true;
        break;
      case ast::StmtKind::While:
        if (HasYield(s->As<ast::While>()->body)) return true;
        break;
      case ast::StmtKind::With:
        if (HasYield(s->As<ast::With>()->body)) return true;
        break;
      case ast::StmtKind::Try: {
        const auto* t = s->As<ast::Try>();
        if (HasYield(t->body) || HasYield(t->orelse) || HasYield(t->finalbody)) return true;
        for (const ast::ExceptHandler& h : t->handlers)
          if (HasYield(h.body)) return true;
        break;
      }
      // A nested def or class is a scope of its own; the others hold no statements.
      case ast::StmtKind::FunctionDef: case ast::StmtKind::ClassDef: case ast::StmtKind::Assign:
      case ast::StmtKind::AugAssign: case ast::StmtKind::AnnAssign: case ast::StmtKind::Return:
      case ast::StmtKind::Break: case ast::StmtKind::Continue: case ast::StmtKind::Pass:
      case ast::StmtKind::Import: case ast::StmtKind::ImportFrom: case ast::StmtKind::Assert:
      case ast::StmtKind::Raise: case ast::StmtKind::Delete: case ast::StmtKind::Global:
        break;
    }
  }
  return false;
}

// The hand-over between a generator's thread and the code stepping it. Shared with the thread,
// so that a thread left waiting (an abandoned generator) never waits on freed memory.
struct Channel {
  std::mutex mu;
  std::condition_variable cv;
  bool generator_turn = false;

  // Gives the turn to the other side and waits until it comes back.
  void PassTo(bool to_generator) {
    std::unique_lock<std::mutex> lock(mu);
    generator_turn = to_generator;
    cv.notify_all();
    cv.wait(lock, [&] { return generator_turn != to_generator; });
  }
};

struct CoroutineObj : Object {
  CoroutineObj(Interpreter& home, Value fn, std::shared_ptr<std::map<std::string, Value>> locals)
      : home(home), fn(std::move(fn)), locals(std::move(locals)), channel(std::make_shared<Channel>()) {}
  ~CoroutineObj() override {
    if (!thread.joinable()) return;
    if (state == State::Done) {
      thread.join();
      return;
    }
    // Suspended at a `yield`: CPython would run its `finally` blocks now, but the interpreter
    // may be half torn down, and waking the thread would race with the code running now. The
    // thread is left waiting on the channel, which it holds, and never touches this object.
    thread.detach();
  }
  std::string TypeName() const override { return "generator"; }
  std::string Repr() const override {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", static_cast<const void*>(this));
    return "<generator object " + fn.As<FunctionObj>()->def->name + " at " + buf + ">";
  }
  bool IsIterator() const override { return true; }
  std::optional<Value> Next(Interpreter&) override { return Resume(std::nullopt); }
  std::optional<std::vector<Value>> Iterate(Interpreter&) override {
    std::vector<Value> out;
    while (std::optional<Value> v = Resume(std::nullopt)) out.push_back(*v);
    return out;
  }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;

  // Runs the body up to its next `yield` (raising `inject` there first, when given): the
  // yielded value, or nullopt when the body returned. An exception the body raises propagates.
  std::optional<Value> Resume(std::optional<PyError> inject);
  // `gen.close()`: GeneratorExit at the `yield`; a body that yields again is an error.
  void Close();
  // Called on the generator's thread at a `yield` of its body.
  void Yield(const Value& v);

  enum class State { Created, Suspended, Running, Done };
  State state = State::Created;
  Interpreter& home;
  Value fn;
  std::shared_ptr<std::map<std::string, Value>> locals;
  std::shared_ptr<Channel> channel;
  std::thread thread;
  Value yielded;
  std::optional<PyError> raised;      // what the body raised, for the resumer
  std::exception_ptr failure;         // any other C++ exception out of the body
  std::optional<PyError> to_throw;    // for the body, at its `yield`
  bool finished = false;
};

std::optional<Value> CoroutineObj::Resume(std::optional<PyError> inject) {
  if (state == State::Running) ValueError("generator already executing");
  if (state == State::Done) return std::nullopt;
  if (state == State::Created && inject) {
    // Never started: the exception is raised at its first line, before any code runs.
    state = State::Done;
    throw *inject;
  }
  to_throw = std::move(inject);
  Interpreter::ExecState mine = home.SwapExecState({});
  state = State::Running;
  if (!thread.joinable()) {
    std::shared_ptr<Channel> ch = channel;
    thread = std::thread([this, ch] {
      {
        std::unique_lock<std::mutex> lock(ch->mu);
        ch->cv.wait(lock, [&] { return ch->generator_turn; });
      }
      try {
        home.SwapExecState({nullptr, 0, {}, this});
        home.RunGeneratorBody(*fn.As<FunctionObj>(), locals);
      } catch (const PyError& e) {
        raised = e;
      } catch (...) {
        failure = std::current_exception();
      }
      finished = true;
      std::lock_guard<std::mutex> lock(ch->mu);
      ch->generator_turn = false;
      ch->cv.notify_all();
    });
  }
  channel->PassTo(true);
  home.SwapExecState(std::move(mine));
  if (finished) {
    state = State::Done;
    thread.join();
    if (failure) std::rethrow_exception(failure);
    if (raised) {
      PyError e = std::move(*raised);
      raised.reset();
      // A StopIteration out of a generator's body is an error, as PEP 479 makes it.
      if (e.type() == "StopIteration") Raise("RuntimeError", "generator raised StopIteration");
      throw e;
    }
    return std::nullopt;
  }
  state = State::Suspended;
  return yielded;
}

void CoroutineObj::Yield(const Value& v) {
  yielded = v;
  std::shared_ptr<Channel> ch = channel;
  Interpreter::ExecState mine = home.SwapExecState({});
  ch->PassTo(false);
  home.SwapExecState(std::move(mine));
  if (to_throw) {
    PyError e = std::move(*to_throw);
    to_throw.reset();
    throw e;
  }
}

void CoroutineObj::Close() {
  if (state != State::Suspended) {
    state = State::Done;
    return;
  }
  try {
    if (Resume(PyError("GeneratorExit", ""))) Raise("RuntimeError", "generator ignored GeneratorExit");
  } catch (const PyError& e) {
    if (e.type() != "GeneratorExit") throw;
  }
}

std::optional<Value> CoroutineObj::GetAttr(Interpreter&, const std::string& name) {
  auto self = std::static_pointer_cast<CoroutineObj>(shared_from_this());
  if (name == "close")
    return Value(std::make_shared<BuiltinFn>("close", [self](Interpreter&, CallArgs& a) {
      ArgBinder b("close", a, {}, 0);
      self->Close();
      return Value();
    }));
  if (name == "send")
    return Value(std::make_shared<BuiltinFn>("send", [self](Interpreter&, CallArgs& a) {
      ArgBinder b("send", a, {"value"}, 1);
      if (self->state == State::Created && !b.Get(0).IsNone())
        TypeError("can't send non-None value to a just-started generator");
      if (std::optional<Value> v = self->Resume(std::nullopt)) return *v;
      Raise("StopIteration", "");
    }));
  if (name == "throw")
    return Value(std::make_shared<BuiltinFn>("throw", [self](Interpreter& in, CallArgs& a) {
      ArgBinder b("throw", a, {"value"}, 1);
      if (std::optional<Value> v = self->Resume(MakeRaise(in, b.Get(0)))) return *v;
      Raise("StopIteration", "");
    }));
  if (name == "__next__")
    return Value(std::make_shared<BuiltinFn>("__next__", [self](Interpreter& in, CallArgs& a) {
      ArgBinder b("__next__", a, {}, 0);
      return IteratorNext(in, Value(self), nullptr);
    }));
  if (name == "__name__") return MakeStr(fn.As<FunctionObj>()->def->name);
  return std::nullopt;
}

Interpreter::ExecState Interpreter::SwapExecState(ExecState next) {
  ExecState old{frame_, depth_, std::move(handling_), generator_};
  frame_ = next.frame;
  depth_ = next.depth;
  handling_ = std::move(next.handling);
  generator_ = next.generator;
  return old;
}

Value Interpreter::MakeGenerator(FunctionObj& fn, std::shared_ptr<std::map<std::string, Value>> locals) {
  return Value(std::make_shared<CoroutineObj>(*this, Value(fn.shared_from_this()), std::move(locals)));
}

void Interpreter::RunGeneratorBody(FunctionObj& fn, const std::shared_ptr<std::map<std::string, Value>>& locals) {
  Frame frame;
  frame.chunk = fn.chunk.get();
  frame.locals = locals.get();
  frame.locals_ref = locals;
  frame.enclosing = &fn.enclosing;
  frame.function = fn.def->name;
  InFrame(frame, [&] { ExecBody(fn.def->body); });
}

Value Interpreter::EvalYield(const ast::Yield& y) {
  if (!generator_) Raise("SyntaxError", "'yield' outside function");
  CoroutineObj* gen = generator_;
  Value v = y.args.empty() ? Value() : Eval(*y.args[0]);
  if (!y.from) {
    gen->Yield(v);
    return Value();
  }
  // `yield from`: every value of the iterable in turn.
  if (v.IsObj() && v.obj()->IsIterator()) {
    while (std::optional<Value> item = v.obj()->Next(*this)) gen->Yield(*item);
    return Value();
  }
  for (const Value& item : IterateValue(*this, v)) gen->Yield(item);
  return Value();
}

namespace {

// What `@contextlib.contextmanager` makes of a call: the generator runs to its `yield` on
// entry (the `as` value) and on to its end on exit; an exception in the block is raised at the
// `yield`, and swallowed when the generator does not let it out.
struct GeneratorContextObj : Object {
  explicit GeneratorContextObj(Value gen) : gen(std::move(gen)) {}
  std::string TypeName() const override { return "contextlib._GeneratorContextManager"; }
  CoroutineObj& Gen() const {
    auto* c = gen.As<CoroutineObj>();
    if (!c) TypeError("contextmanager: the decorated function must be a generator function");
    return *c;
  }
  std::optional<Value> Enter(Interpreter&) override {
    std::optional<Value> v = Gen().Resume(std::nullopt);
    if (!v) Raise("RuntimeError", "generator didn't yield");
    return v;
  }
  void Exit(Interpreter&) override {
    if (Gen().Resume(std::nullopt)) Raise("RuntimeError", "generator didn't stop");
  }
  // `cm.__enter__()` and `cm.__exit__(type, value, traceback)` called by hand.
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    auto self = std::static_pointer_cast<GeneratorContextObj>(shared_from_this());
    if (name == "__enter__")
      return Value(std::make_shared<BuiltinFn>(name, [self](Interpreter& in, CallArgs& a) {
        ArgBinder b("__enter__", a, {}, 0);
        return *self->Enter(in);
      }));
    if (name == "__exit__")
      return Value(std::make_shared<BuiltinFn>(name, [self](Interpreter& in, CallArgs& a) {
        ArgBinder b("__exit__", a, {"typ", "value", "traceback"}, 3);
        if (b.Get(1).IsNone() && b.Get(0).IsNone()) {
          self->Exit(in);
          return Value::Bool(false);
        }
        return Value::Bool(self->ExitOnError(in, MakeRaise(in, b.Get(1).IsNone() ? b.Get(0) : b.Get(1))));
      }));
    return std::nullopt;
  }
  bool ExitOnError(Interpreter&, const PyError& e) override {
    try {
      if (Gen().Resume(e)) Raise("RuntimeError", "generator didn't stop after throw()");
    } catch (const PyError& out) {
      if (out.type() == e.type() && out.message() == e.message()) return false;  // let the original go on
      throw;
    }
    return true;  // the generator handled it
  }
  Value gen;
};

}  // namespace

Value MakeContextManager(const Value& fn) {
  return Value(std::make_shared<BuiltinFn>("contextmanager", [fn](Interpreter& in, CallArgs& a) {
    return Value(std::make_shared<GeneratorContextObj>(in.CallValue(fn, a)));
  }));
}

}  // namespace tilec::host
