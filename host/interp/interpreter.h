// The host interpreter: runs the host statements of LANGUAGE.md §7 over the AST, one session
// of globals across many chunks (a file, a REPL entry, the testcode blocks of a page).
// Python exceptions print as a traceback with the line and leave the session usable.
#pragma once
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "frontend/ast/ast.h"
#include "host/interp/errors.h"
#include "host/interp/value.h"
#include "support/source.h"

namespace tilec::host {

// One parsed piece of source. Functions defined in it keep it alive.
struct Chunk {
  Chunk(std::string path, std::string text, int line_base, int col_base)
      : file(std::move(path), std::move(text), line_base, col_base) {}
  SourceFile file;
  std::unique_ptr<ast::Module> module;
};
using ChunkRef = std::shared_ptr<const Chunk>;

// A `def` at host level; decorators such as `@wp.kernel` receive it and read its AST.
struct FunctionObj : Object {
  std::string TypeName() const override { return "function"; }
  std::string Repr() const override { return "<function " + def->name + ">"; }
  bool Callable() const override { return true; }
  Value Call(Interpreter& in, CallArgs& args) override;
  // `f.__name__`, and attributes programs set on functions (`f.cache = {}`).
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  bool SetAttr(Interpreter&, const std::string& name, const Value& v) override {
    attrs[name] = v;
    return true;
  }
  std::map<std::string, Value> attrs;
  const ast::FunctionDef* def = nullptr;
  ChunkRef chunk;
  Interpreter* home = nullptr;  // the interpreter of the module that defined it
  std::vector<Value> defaults;  // one per parameter; None-kind Value with has_default false
  std::vector<bool> has_default;
  // The locals of the functions it was defined in, outermost first, shared with them: a nested
  // `def` reads its enclosing function's variables as they are when it runs (Python's closures).
  std::vector<std::shared_ptr<std::map<std::string, Value>>> enclosing;
  std::optional<bool> generator;  // whether the body has `yield`, once asked
};

// A `lambda`: its parameters' defaults are evaluated where it is written, and it sees the
// locals of the function it was made in as they were then (a snapshot closure).
struct LambdaObj : Object {
  std::string TypeName() const override { return "function"; }
  std::string Repr() const override;
  bool Callable() const override { return true; }
  Value Call(Interpreter& in, CallArgs& args) override;
  const ast::Lambda* def = nullptr;
  ChunkRef chunk;
  const ast::Stmt* stmt = nullptr;  // the statement that made it (traceback line)
  std::vector<Value> defaults;
  std::shared_ptr<std::map<std::string, Value>> captured;  // null at module level
  std::vector<std::shared_ptr<std::map<std::string, Value>>> enclosing;  // as FunctionObj's
};

// Whether a function body has a `yield` of its own (not one of a nested def): calling it makes
// a generator (generators.cpp).
bool HasYield(const ast::Body& body);
// `@contextlib.contextmanager`: a generator function made a context manager factory.
Value MakeContextManager(const Value& fn);

// A generator expression (or a map/filter object), evaluated when it is made; like Python's
// it can be iterated once.
struct GeneratorObj : Object {
  std::string TypeName() const override { return type_name; }
  std::string Repr() const override;
  std::optional<std::vector<Value>> Iterate(Interpreter& in) override;
  std::vector<Value> items;
  bool consumed = false;
  std::string type_name = "generator";
};

// A `class` statement, handed to its decorator (`@wp.struct`).
struct ClassDefObj : Object {
  std::string TypeName() const override { return "type"; }
  std::string Repr() const override { return "<class '" + def->name + "'>"; }
  const ast::ClassDef* def = nullptr;
  ChunkRef chunk;
};

// Per-session state of the `wp` binding (devices, kernels, active tapes); defined there.
struct WpState;

class Interpreter {
 public:
  // `out` receives print(); modules `wp` and `np` are bound as globals when `prelude`.
  explicit Interpreter(std::ostream& out, bool prelude = true);
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Parses and runs one chunk. A syntax error prints the diagnostics; an exception prints
  // the traceback. Both go to `err`; returns false for either.
  bool RunSource(const std::string& path, std::string text, int line_base, int col_base,
                 std::ostream& err);
  // Parses one chunk without running it (the REPL uses it to tell incomplete input).
  static ChunkRef Parse(const std::string& path, std::string text, int line_base, int col_base,
                        std::string* diagnostics);
  // Runs a parsed chunk; throws PyError with the module-level trace entry filled in.
  void RunChunk(const ChunkRef& chunk);
  static std::string FormatTraceback(const PyError& e);

  std::ostream& out() { return *out_; }
  // Interactive mode: a top-level expression statement prints its repr, as Python's REPL does.
  void set_echo(bool on) { echo_ = on; }
  bool interactive() const { return echo_; }
  void set_out(std::ostream& out) { out_ = &out; }
  std::map<std::string, Value>& globals() { return globals_; }
  // The locals of the function running now; null at module level.
  const std::map<std::string, Value>* current_locals() const { return frame_ ? frame_->locals : nullptr; }
  // The variables of the functions enclosing the running one, outermost first (its closure).
  const std::vector<std::shared_ptr<std::map<std::string, Value>>>* current_enclosing() const {
    return frame_ ? frame_->enclosing : nullptr;
  }
  const std::map<std::string, Value>& builtins() const { return builtins_; }
  WpState& wp() { return *wp_; }
  // The program's command line as `sys.argv` and argparse see it: the script, then its arguments.
  const std::vector<std::string>& argv() const { return argv_; }
  void set_argv(std::vector<std::string> argv) { argv_ = std::move(argv); }

  Value Eval(const ast::Expr& e);
  // Evaluates `e` as written at the top of `fn`'s body before any of its variables are set:
  // the module's globals and the enclosing functions' variables (wp.static's expressions).
  // Call it on `fn`'s home interpreter.
  Value EvalInDefinitionScope(const ast::Expr& e, const FunctionObj& fn);
  // `import name`: the module object, made once per session; ModuleNotFoundError otherwise.
  Value ImportModule(const std::string& name);
  Value CallValue(const Value& f, CallArgs& args);
  Value GetAttr(const Value& obj, const std::string& name);
  // The chunk and line currently executing, for messages and compile snapshots.
  const Chunk* current_chunk() const { return frame_ ? frame_->chunk : nullptr; }
  int current_line() const;
  // Where the frame `level` calls up from the running one stands (1: the running one); an
  // entry without a file past the outermost.
  TraceEntry CallerLocation(int level) const;

  // Called by FunctionObj::Call and LambdaObj::Call.
  Value CallUser(FunctionObj& fn, CallArgs& args);
  Value CallLambda(LambdaObj& fn, CallArgs& args);

 private:
  enum class Flow { Normal, Break, Continue, Return };
  struct Frame {
    const Chunk* chunk = nullptr;
    std::map<std::string, Value>* locals = nullptr;  // null at module level
    std::shared_ptr<std::map<std::string, Value>> locals_ref;  // `locals` of a function call
    const std::vector<std::shared_ptr<std::map<std::string, Value>>>* enclosing = nullptr;
    std::string function = "<module>";
    const ast::Stmt* stmt = nullptr;
    Value return_value;
    const Frame* caller = nullptr;  // warnings' stacklevel walks these
    // Names the function declared `global` or `nonlocal`: they bind outside its locals.
    std::set<std::string> global_names, nonlocal_names;
  };

  Flow ExecBody(const ast::Body& body);
  Flow Exec(const ast::Stmt& s);
  Flow ExecInner(const ast::Stmt& s);
  Flow ExecFor(const ast::For& s);
  void ExecFunctionDef(const ast::FunctionDef& s);
  Value ApplyDecorators(const std::vector<ast::ExprPtr>& decorators, Value v);
  void ExecClassDef(const ast::ClassDef& s);
  void ExecPlainClass(const ast::ClassDef& s);  // classes.cpp
  void ExecImport(const ast::Import& s);  // imports.cpp
  void ExecImportFrom(const ast::ImportFrom& s);
  Flow ExecWith(const ast::With& s);
  Flow ExecTry(const ast::Try& s);
  void ExecRaise(const ast::Raise& s);
  Value EvalComprehension(const ast::Comprehension& c);
  Value MakeLambda(const ast::Lambda& l);
  void Assign(const ast::Expr& target, const Value& v);
  void Delete(const ast::Expr& target);  // `del target`
  void ExecGlobal(const ast::Global& s);
  Value LookupName(const std::string& id);
  void StoreName(const std::string& id, const Value& v);
  Value EvalCall(const ast::Call& c);
  std::vector<Value> EvalItems(const std::vector<ast::ExprPtr>& elts, const Value* callee = nullptr);
  Value EvalSubscriptIndex(const ast::Expr& index);
  Value EvalCompare(const ast::Compare& c);
  TraceEntry Here() const;
  // Runs `body` in a call's `frame`, restoring the caller's frame however it ends; an error
  // gets the frame's line in its traceback on the way out.
  template <class F>
  auto InFrame(Frame& frame, F&& body) {
    struct Restore {
      Interpreter* in;
      Frame* saved;
      ~Restore() {
        in->frame_ = saved;
        --in->depth_;
      }
    } restore{this, frame_};
    frame.caller = frame_;
    frame_ = &frame;
    ++depth_;
    try {
      return body();
    } catch (PyError& e) {
      e.trace.push_back(Here());
      throw;
    }
  }

  ChunkRef chunk_of(const Chunk* c) const;
  // Runs `text` as the module `name` in an interpreter of its own; returns the module.
  Value RunModuleSource(const std::string& name, const std::string& path, const std::string& text);
  std::optional<Value> ImportModuleFile(const std::string& name);  // imports.cpp

  std::ostream* out_;
  std::vector<ChunkRef> chunks_;  // every chunk run, so that functions can outlive their run
  bool echo_ = false;
  Value last_value_;
  Value wp_module_;
  std::vector<std::string> argv_;
  std::map<std::string, Value> std_modules_;  // sys, argparse, ...: one object per session
  // The interpreters that ran imported Python files; their functions run in them.
  std::vector<std::unique_ptr<Interpreter>> module_interpreters_;
  std::map<std::string, Value> globals_;
  std::map<std::string, Value> builtins_;
  std::shared_ptr<WpState> wp_;
  Frame* frame_ = nullptr;
  int depth_ = 0;
  // The exceptions being handled by enclosing `except` blocks, innermost last: each with its
  // traceback down from the catching frame (to print as context), and what a bare `raise`
  // needs to rethrow it unchanged (the inner traceback, the frame and statement it came from).
  struct Handled {
    PyError error;
    std::vector<TraceEntry> inner;
    const Frame* frame = nullptr;
    const ast::Stmt* stmt = nullptr;
  };
  std::vector<Handled> handling_;

  // Generators (generators.cpp). What one line of execution owns of the interpreter, swapped
  // when control passes between a generator's body and the code that resumes it.
  struct ExecState {
    Frame* frame = nullptr;
    int depth = 0;
    std::vector<Handled> handling;
    struct CoroutineObj* generator = nullptr;
  };
  ExecState SwapExecState(ExecState next);  // installs `next`, returns the state it replaced
  // Calling a generator function makes its generator, with the arguments bound in `locals`.
  Value MakeGenerator(FunctionObj& fn, std::shared_ptr<std::map<std::string, Value>> locals);
  void RunGeneratorBody(FunctionObj& fn, const std::shared_ptr<std::map<std::string, Value>>& locals);
  Value EvalYield(const ast::Yield& y);
  struct CoroutineObj* generator_ = nullptr;  // the generator whose body runs now
  friend struct CoroutineObj;

  void BindStarredParams(const FunctionObj& fn, CallArgs& args, std::map<std::string, Value>& locals);
  friend struct FunctionObj;
};

// `@staticmethod`: the function, marked to be called without `self` (classes.cpp).
Value MakeStaticMethod(const Value& fn);
// `@classmethod`: the function, bound to the class when read from it or an instance.
Value MakeClassMethod(const Value& fn);
// Classes the host makes for its modules (`unittest.TestCase`) behave as classes written in
// host code: programs derive from them, and their native methods bind `self` (classes.cpp).
Value MakeHostClass(std::string module, std::string name, std::map<std::string, Value> attrs);
Value MakeNativeMethod(std::string name, NativeFn fn);
bool IsHostClass(const Value& v);
// Whether host class `cls` is `base` or derives from it.
bool ClassDerivesFrom(const Value& cls, const Value& base);
// The class of an instance of a host class; nullopt for other values.
std::optional<Value> HostClassOf(const Value& instance);
// The attribute names of a host class and its bases, sorted.
std::vector<std::string> HostClassAttrNames(const Value& cls);
// Records (classes.cpp): `typing.NamedTuple` as a base class, `@dataclasses.dataclass`, and
// `dataclasses.field(default=, default_factory=)` in a dataclass body.
Value MakeRecordBase();
Value MakeDataclass(const Value& cls);
Value MakeFieldSpec(std::optional<Value> default_value, std::optional<Value> factory);

// The standard-library modules of the host subset (py_modules.cpp): sys, argparse, functools,
// os; nullopt for any other name.
std::optional<Value> MakeStdModule(Interpreter& in, const std::string& name);
// `unittest` and Warp's `warp.tests.unittest_utils`, so that Warp's own test files run as
// programs (py_unittest.cpp).
Value MakeUnittestModule(Interpreter& in);
Value MakeWarpTestUtilsModule(Interpreter& in);
// `raise SystemExit(code)`, and the exit status it asks for (a message other than an int is
// printed to `err`, status 1), as CPython ends on it.
[[noreturn]] void RaiseSystemExit(const Value& code);
int SystemExitCode(const PyError& e, std::ostream& err);

// The closest candidate to `name` as CPython 3.11 would suggest it, or "" (suggest.cpp).
std::string Suggestion(const std::string& name, std::vector<std::string> candidates);

// Python operators on values (ops.cpp).
Value BinaryOpValues(Interpreter& in, ast::BinaryOp op, const Value& a, const Value& b);
Value UnaryOpValue(Interpreter& in, ast::UnaryOp op, const Value& a);
Value CompareValues(Interpreter& in, ast::CmpOp op, const Value& a, const Value& b);
// Python's sorted(items, key=key, reverse=reverse): stable, each key computed once (builtins.cpp).
std::vector<Value> SortValues(Interpreter& in, std::vector<Value> items, const Value* key, bool reverse);

// The built-in functions (print, range, len, ...), module tables, and the `wp`/`np` modules.
void InstallBuiltins(std::map<std::string, Value>& table);
Value MakeNumpyModule();
Value MakeNumpyRandomModule();  // np.random (np_random.cpp)
Value MakeMathModule();
Value MakeWarpModule(Interpreter& in);
// wp.overload, func_native, get_module, dtype_to/from_numpy, _src (wp_compat.cpp).
void DefineWarpCompat(ModuleObj& m);
// wp.utils: array_scan, radix_sort_pairs, runlength_encode, array_sum, ... (wp_utils.cpp).
void DefineWarpUtils(ModuleObj& m);
std::shared_ptr<WpState> MakeWpState();

// dir(), help() and Tab completion (introspect.cpp).
void InstallIntrospection(std::map<std::string, Value>& table);
void AddKernelBuiltins(ModuleObj& wp);  // the kernel builtins as `wp` members
std::vector<std::string> AttributeNames(Interpreter& in, const Value& v);
// Names, keywords or `a.b.c` attributes that start with `text`, sorted.
std::vector<std::string> CompletionCandidates(Interpreter& in, const std::string& text);
// Raises KeyboardInterrupt when an interrupt was requested (Ctrl-C), clearing the request.
void CheckInterrupt();

}  // namespace tilec::host
