// The Tile AST: our own node classes, each with a byte range into its SourceFile. The parser
// builds it from the ANTLR tree and drops that tree; later stages read it and never modify it
// (sema's results live in side tables keyed by node).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/source.h"

namespace tilec::ast {

// ---------------------------------------------------------------- expressions

enum class ExprKind : uint8_t {
  Name, IntLit, FloatLit, StrLit, BoolLit, NoneLit,
  Unary, Binary, BoolOp, Compare, IfExp,
  Call, Attribute, Subscript, Slice, Tuple, List, Dict,
};

struct Expr {
  explicit Expr(ExprKind k, SourceRange r) : kind(k), range(r) {}
  virtual ~Expr() = default;
  const ExprKind kind;
  SourceRange range;

  template <class T> bool Is() const { return kind == T::kKind; }
  template <class T> const T* As() const { return Is<T>() ? static_cast<const T*>(this) : nullptr; }
  template <class T> T* As() { return Is<T>() ? static_cast<T*>(this) : nullptr; }
};
using ExprPtr = std::unique_ptr<Expr>;

struct Name : Expr {
  static constexpr ExprKind kKind = ExprKind::Name;
  Name(SourceRange r, std::string id) : Expr(kKind, r), id(std::move(id)) {}
  std::string id;
};

struct IntLit : Expr {
  static constexpr ExprKind kKind = ExprKind::IntLit;
  IntLit(SourceRange r, uint64_t v, bool too_large = false) : Expr(kKind, r), value(v), too_large(too_large) {}
  uint64_t value;  // literals are non-negative; `-1` is Unary(Neg, IntLit(1))
  // Beyond 2**64 - 1 (value saturated): an error where the literal is used, kernel or host,
  // so one such literal does not stop the rest of its file.
  bool too_large = false;
};

struct FloatLit : Expr {
  static constexpr ExprKind kKind = ExprKind::FloatLit;
  FloatLit(SourceRange r, double v, bool imaginary = false) : Expr(kKind, r), value(v), imaginary(imaginary) {}
  double value;
  bool imaginary;  // `2.5j`: host code only (a complex number)
};

struct StrLit : Expr {
  static constexpr ExprKind kKind = ExprKind::StrLit;
  StrLit(SourceRange r, std::string v) : Expr(kKind, r), value(std::move(v)) {}
  std::string value;  // escapes decoded; adjacent literals concatenated
  bool is_bytes = false;  // b"...": host code only
};

struct BoolLit : Expr {
  static constexpr ExprKind kKind = ExprKind::BoolLit;
  BoolLit(SourceRange r, bool v) : Expr(kKind, r), value(v) {}
  bool value;
};

struct NoneLit : Expr {
  static constexpr ExprKind kKind = ExprKind::NoneLit;
  explicit NoneLit(SourceRange r) : Expr(kKind, r) {}
};

enum class UnaryOp : uint8_t { Neg, Pos, Not, Invert };
enum class BinaryOp : uint8_t {
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, BitAnd, BitOr, BitXor, LShift, RShift,
};
enum class BoolOpKind : uint8_t { And, Or };
enum class CmpOp : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

const char* Spelling(UnaryOp op);   // "-", "+", "not", "~"
const char* Spelling(BinaryOp op);  // "+", "//", "**", ...
const char* Spelling(BoolOpKind op);
const char* Spelling(CmpOp op);     // "==", "is not", "not in", ...

struct Unary : Expr {
  static constexpr ExprKind kKind = ExprKind::Unary;
  Unary(SourceRange r, UnaryOp op, ExprPtr operand)
      : Expr(kKind, r), op(op), operand(std::move(operand)) {}
  UnaryOp op;
  ExprPtr operand;
};

struct Binary : Expr {
  static constexpr ExprKind kKind = ExprKind::Binary;
  Binary(SourceRange r, BinaryOp op, ExprPtr lhs, ExprPtr rhs)
      : Expr(kKind, r), op(op), lhs(std::move(lhs)), rhs(std::move(rhs)) {}
  BinaryOp op;
  SourceRange op_range;
  ExprPtr lhs, rhs;
};

struct BoolOp : Expr {
  static constexpr ExprKind kKind = ExprKind::BoolOp;
  BoolOp(SourceRange r, BoolOpKind op) : Expr(kKind, r), op(op) {}
  BoolOpKind op;
  std::vector<ExprPtr> values;  // two or more
};

// Chained comparison `a < b <= c`: left, ops = [<, <=], comparators = [b, c].
struct Compare : Expr {
  static constexpr ExprKind kKind = ExprKind::Compare;
  explicit Compare(SourceRange r) : Expr(kKind, r) {}
  ExprPtr left;
  std::vector<CmpOp> ops;
  std::vector<ExprPtr> comparators;
};

struct IfExp : Expr {
  static constexpr ExprKind kKind = ExprKind::IfExp;
  explicit IfExp(SourceRange r) : Expr(kKind, r) {}
  ExprPtr cond, then_value, else_value;
};

struct Keyword {
  std::string name;
  SourceRange name_range;
  ExprPtr value;
  SourceRange range;  // `name=value`
};

struct Call : Expr {
  static constexpr ExprKind kKind = ExprKind::Call;
  explicit Call(SourceRange r) : Expr(kKind, r) {}
  ExprPtr func;
  std::vector<ExprPtr> args;
  std::vector<Keyword> keywords;
};

struct Attribute : Expr {
  static constexpr ExprKind kKind = ExprKind::Attribute;
  Attribute(SourceRange r, ExprPtr value, std::string attr, SourceRange attr_range)
      : Expr(kKind, r), value(std::move(value)), attr(std::move(attr)), attr_range(attr_range) {}
  ExprPtr value;
  std::string attr;
  SourceRange attr_range;
};

// `value[index]`; several comma-separated indices make `index` a Tuple (as in Python).
struct Subscript : Expr {
  static constexpr ExprKind kKind = ExprKind::Subscript;
  Subscript(SourceRange r, ExprPtr value, ExprPtr index)
      : Expr(kKind, r), value(std::move(value)), index(std::move(index)) {}
  ExprPtr value, index;
};

// `lower:upper:step`, only inside a subscript; absent parts are null.
struct Slice : Expr {
  static constexpr ExprKind kKind = ExprKind::Slice;
  explicit Slice(SourceRange r) : Expr(kKind, r) {}
  ExprPtr lower, upper, step;
};

struct Tuple : Expr {
  static constexpr ExprKind kKind = ExprKind::Tuple;
  explicit Tuple(SourceRange r) : Expr(kKind, r) {}
  std::vector<ExprPtr> elts;
  bool parenthesized = false;
};

struct List : Expr {
  static constexpr ExprKind kKind = ExprKind::List;
  explicit List(SourceRange r) : Expr(kKind, r) {}
  std::vector<ExprPtr> elts;
};

struct Dict : Expr {
  static constexpr ExprKind kKind = ExprKind::Dict;
  explicit Dict(SourceRange r) : Expr(kKind, r) {}
  std::vector<ExprPtr> keys, values;
};

// ---------------------------------------------------------------- statements

enum class StmtKind : uint8_t {
  ExprStmt, Assign, AugAssign, AnnAssign, If, For, While, Break, Continue, Pass, Return,
  FunctionDef, ClassDef, Import, ImportFrom, With, Assert, Try, Raise, Delete, Global,
};

struct Stmt {
  explicit Stmt(StmtKind k, SourceRange r) : kind(k), range(r) {}
  virtual ~Stmt() = default;
  const StmtKind kind;
  SourceRange range;

  template <class T> bool Is() const { return kind == T::kKind; }
  template <class T> const T* As() const { return Is<T>() ? static_cast<const T*>(this) : nullptr; }
  template <class T> T* As() { return Is<T>() ? static_cast<T*>(this) : nullptr; }
};
using StmtPtr = std::unique_ptr<Stmt>;
using Body = std::vector<StmtPtr>;

struct ExprStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::ExprStmt;
  ExprStmt(SourceRange r, ExprPtr v) : Stmt(kKind, r), value(std::move(v)) {}
  ExprPtr value;
};

// `a = b = value`: targets in source order; a target may be a Tuple for unpacking.
struct Assign : Stmt {
  static constexpr StmtKind kKind = StmtKind::Assign;
  explicit Assign(SourceRange r) : Stmt(kKind, r) {}
  std::vector<ExprPtr> targets;
  ExprPtr value;
};

struct AugAssign : Stmt {
  static constexpr StmtKind kKind = StmtKind::AugAssign;
  explicit AugAssign(SourceRange r) : Stmt(kKind, r) {}
  ExprPtr target;
  BinaryOp op;
  SourceRange op_range;
  ExprPtr value;
};

// `target: annotation [= value]`; struct fields are AnnAssigns without a value.
struct AnnAssign : Stmt {
  static constexpr StmtKind kKind = StmtKind::AnnAssign;
  explicit AnnAssign(SourceRange r) : Stmt(kKind, r) {}
  ExprPtr target, annotation, value;
};

// `elif` is an If nested alone in `orelse`, marked is_elif so printers can show it.
struct If : Stmt {
  static constexpr StmtKind kKind = StmtKind::If;
  explicit If(SourceRange r) : Stmt(kKind, r) {}
  ExprPtr cond;
  Body body, orelse;
  bool is_elif = false;
};

struct For : Stmt {
  static constexpr StmtKind kKind = StmtKind::For;
  explicit For(SourceRange r) : Stmt(kKind, r) {}
  ExprPtr target, iter;
  Body body;
};

struct While : Stmt {
  static constexpr StmtKind kKind = StmtKind::While;
  explicit While(SourceRange r) : Stmt(kKind, r) {}
  ExprPtr cond;
  Body body;
};

struct Break : Stmt {
  static constexpr StmtKind kKind = StmtKind::Break;
  explicit Break(SourceRange r) : Stmt(kKind, r) {}
};
struct Continue : Stmt {
  static constexpr StmtKind kKind = StmtKind::Continue;
  explicit Continue(SourceRange r) : Stmt(kKind, r) {}
};
struct Pass : Stmt {
  static constexpr StmtKind kKind = StmtKind::Pass;
  explicit Pass(SourceRange r) : Stmt(kKind, r) {}
};

struct Return : Stmt {
  static constexpr StmtKind kKind = StmtKind::Return;
  Return(SourceRange r, ExprPtr v) : Stmt(kKind, r), value(std::move(v)) {}
  ExprPtr value;  // may be null
};

// How a parameter binds (host functions only; kernels and funcs take positional ones):
// `*args` collects the extra positional arguments as a tuple, `**kwargs` the extra keywords
// as a dict, and the parameters after `*args` or a bare `*` bind only by keyword.
enum class ParamKind : uint8_t { Positional, KeywordOnly, VarArgs, VarKeywords };

struct Param {
  std::string name;
  ParamKind kind = ParamKind::Positional;
  SourceRange range;       // the whole `name: T = default`
  SourceRange name_range;
  ExprPtr annotation;      // may be null (host functions)
  ExprPtr default_value;   // may be null
};

struct FunctionDef : Stmt {
  static constexpr StmtKind kKind = StmtKind::FunctionDef;
  explicit FunctionDef(SourceRange r) : Stmt(kKind, r) {}
  std::vector<ExprPtr> decorators;  // `@wp.kernel` is Attribute; `@wp.kernel(...)` is Call
  std::string name;
  SourceRange name_range;
  std::vector<Param> params;
  ExprPtr returns;  // may be null
  Body body;
  bool is_async = false;  // `async def` (host code): defined, never run
};

struct ClassDef : Stmt {
  static constexpr StmtKind kKind = StmtKind::ClassDef;
  explicit ClassDef(SourceRange r) : Stmt(kKind, r) {}
  std::vector<ExprPtr> decorators;
  std::string name;
  SourceRange name_range;
  std::vector<ExprPtr> bases;
  Body body;
};

struct ImportAlias {
  std::string name;   // dotted: "warp", "os.path"
  std::string asname; // empty when absent
  SourceRange range;
};

struct Import : Stmt {
  static constexpr StmtKind kKind = StmtKind::Import;
  explicit Import(SourceRange r) : Stmt(kKind, r) {}
  std::vector<ImportAlias> names;
};

struct ImportFrom : Stmt {
  static constexpr StmtKind kKind = StmtKind::ImportFrom;
  explicit ImportFrom(SourceRange r) : Stmt(kKind, r) {}
  std::string module;
  SourceRange module_range;
  std::vector<ImportAlias> names;
};

struct WithItem {
  ExprPtr context;
  ExprPtr target;  // may be null
};

struct With : Stmt {
  static constexpr StmtKind kKind = StmtKind::With;
  explicit With(SourceRange r) : Stmt(kKind, r) {}
  std::vector<WithItem> items;
  Body body;
};

struct Assert : Stmt {
  static constexpr StmtKind kKind = StmtKind::Assert;
  explicit Assert(SourceRange r) : Stmt(kKind, r) {}
  ExprPtr test, msg;  // msg may be null
};

// ---------------------------------------------------------------- host-only constructs
// The parser accepts these only outside kernels and funcs.

struct ExceptHandler {
  ExprPtr type;      // null for a bare `except:`
  std::string name;  // `as name`; empty when absent
  SourceRange range;
  Body body;
};

struct Try : Stmt {
  static constexpr StmtKind kKind = StmtKind::Try;
  explicit Try(SourceRange r) : Stmt(kKind, r) {}
  Body body;
  std::vector<ExceptHandler> handlers;
  Body orelse, finalbody;
};

struct Raise : Stmt {
  static constexpr StmtKind kKind = StmtKind::Raise;
  explicit Raise(SourceRange r) : Stmt(kKind, r) {}
  ExprPtr exc, cause;  // both null for a bare `raise`
};

// `del a, b[i], c.x` (host code).
struct Delete : Stmt {
  static constexpr StmtKind kKind = StmtKind::Delete;
  explicit Delete(SourceRange r) : Stmt(kKind, r) {}
  std::vector<ExprPtr> targets;
};

// `global a, b` or `nonlocal a` (host code): assignments in the function bind these names
// in the module, or in the enclosing function that has them.
struct Global : Stmt {
  static constexpr StmtKind kKind = StmtKind::Global;
  explicit Global(SourceRange r) : Stmt(kKind, r) {}
  std::vector<std::string> names;
  bool nonlocal = false;
};

// Comprehensions, generator arguments and lambdas are Calls whose callee is a reserved Name
// ("<listcomp>", "<lambda>", ...): the kernel passes switch over ExprKind exhaustively and
// never meet them, and module-level constant folding sees an unknown call. The interpreter
// recognises them by their class.
struct CompClause {
  ExprPtr target, iter;
  std::vector<ExprPtr> ifs;
};

struct Comprehension : Call {
  enum class Form : uint8_t { List, Dict, Set, Generator };
  Comprehension(SourceRange r, Form f) : Call(r), form(f) {}
  Form form;
  ExprPtr elt;    // the element, or the key of a dict comprehension
  ExprPtr value;  // dict comprehensions only
  std::vector<CompClause> clauses;  // the `for` clauses in order, each with its `if`s
};

// `{a, b}`: the elements are the call's arguments (callee "<set>").
struct SetDisplay : Call {
  explicit SetDisplay(SourceRange r) : Call(r) {}
};

// `*xs` in a call's arguments or a tuple or list display: the one argument is expanded in
// place (callee "<starred>"). A `**d` argument is a Keyword with an empty name.
struct Starred : Call {
  explicit Starred(SourceRange r) : Call(r) {}
};

// `name := value` (callee "<walrus>"): binds the name and is the value; the one argument is
// the value.
struct NamedExpr : Call {
  explicit NamedExpr(SourceRange r) : Call(r) {}
  std::string target;
  SourceRange target_range;
};

// `yield value` or `yield from iterable` as a statement (callee "<yield>"): the one argument,
// when present, is what is yielded. A function whose body has one is a generator function.
struct Yield : Call {
  explicit Yield(SourceRange r) : Call(r) {}
  bool from = false;
};

struct Lambda : Call {
  explicit Lambda(SourceRange r) : Call(r) {}
  std::vector<Param> params;
  ExprPtr body;
};

// ---------------------------------------------------------------- module

struct Module {
  const SourceFile* file = nullptr;
  Body body;
};

}  // namespace tilec::ast
