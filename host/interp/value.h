// Values of the host interpreter: Python scalars inline, everything else a reference-counted
// Object (str, list, tuple, dict, functions, modules, ndarrays, wp arrays, kernels, tapes).
// Objects answer attribute lookups, calls and subscripts themselves, so the np and wp bindings
// plug in without the evaluator knowing their types.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frontend/ast/ast.h"

namespace tilec::host {

class Interpreter;
class PyError;
struct Object;
using ObjRef = std::shared_ptr<Object>;

enum class VKind : uint8_t { None, Bool, Int, Float, Obj };

class Value {
 public:
  Value() = default;
  Value(ObjRef o) : kind_(o ? VKind::Obj : VKind::None), obj_(std::move(o)) {}
  template <class T>
  Value(std::shared_ptr<T> o) : Value(ObjRef(std::move(o))) {}
  static Value Bool(bool b) { Value v; v.kind_ = VKind::Bool; v.i_ = b; return v; }
  static Value Int(int64_t i) { Value v; v.kind_ = VKind::Int; v.i_ = i; return v; }
  static Value Float(double f) { Value v; v.kind_ = VKind::Float; v.f_ = f; return v; }

  VKind kind() const { return kind_; }
  bool IsNone() const { return kind_ == VKind::None; }
  bool IsBool() const { return kind_ == VKind::Bool; }
  bool IsInt() const { return kind_ == VKind::Int; }
  bool IsFloat() const { return kind_ == VKind::Float; }
  bool IsObj() const { return kind_ == VKind::Obj; }
  // int or bool: Python's bool is an int.
  bool IsIntLike() const { return kind_ == VKind::Int || kind_ == VKind::Bool; }
  bool IsNumber() const { return IsIntLike() || IsFloat(); }

  bool b() const { return i_ != 0; }
  int64_t i() const { return i_; }
  double f() const { return f_; }
  double AsDouble() const { return kind_ == VKind::Float ? f_ : double(i_); }
  Object* obj() const { return obj_.get(); }
  const ObjRef& ref() const { return obj_; }
  template <class T> T* As() const { return dynamic_cast<T*>(obj_.get()); }
  template <class T> std::shared_ptr<T> AsRef() const { return std::dynamic_pointer_cast<T>(obj_); }

 private:
  VKind kind_ = VKind::None;
  union {
    int64_t i_ = 0;
    double f_;
  };
  ObjRef obj_;
};

// Positional and keyword arguments of one call.
struct CallArgs {
  std::vector<Value> pos;
  std::vector<std::pair<std::string, Value>> kw;
};

struct Object : std::enable_shared_from_this<Object> {
  virtual ~Object() = default;
  // Python's type name, as error messages spell it: "list", "numpy.ndarray", "warp.array".
  virtual std::string TypeName() const = 0;
  virtual std::string Repr() const;
  virtual std::string Str() const { return Repr(); }
  virtual bool Truth() const { return true; }
  virtual std::optional<Value> GetAttr(Interpreter& in, const std::string& name);
  virtual bool SetAttr(Interpreter& in, const std::string& name, const Value& v) { return false; }
  // `del x.name` and `del x[key]`: false when the object does not support it.
  virtual bool DelAttr(Interpreter& in, const std::string& name) { return false; }
  virtual bool DelItem(Interpreter& in, const Value& key) { return false; }
  virtual bool Callable() const { return false; }
  virtual Value Call(Interpreter& in, CallArgs& args);
  virtual Value GetItem(Interpreter& in, const Value& key);
  virtual void SetItem(Interpreter& in, const Value& key, const Value& v);
  virtual std::optional<int64_t> Len() const { return std::nullopt; }
  // The elements a `for` loop visits; nullopt when the object is not iterable.
  virtual std::optional<std::vector<Value>> Iterate(Interpreter& in) { return std::nullopt; }
  // An iterator (`iter(x)`, a generator) is its own iterator: `for` and next() step it with
  // Next, which gives nullopt once it is exhausted.
  virtual bool IsIterator() const { return false; }
  virtual std::optional<Value> Next(Interpreter& in) { return std::nullopt; }
  // Integer value for indexing (`__index__`): NumPy integer scalars answer, others do not.
  virtual std::optional<int64_t> AsIndex() const { return std::nullopt; }
  // The Python scalar this object stands for (`float(x)`, `int(x)`): NumPy scalars answer.
  virtual std::optional<Value> AsScalar() const { return std::nullopt; }
  // Operators: nullopt means "not supported with that operand" (Python's NotImplemented).
  // `reflected`: the object is the right operand.
  virtual std::optional<Value> BinOp(Interpreter& in, ast::BinaryOp op, const Value& other,
                                     bool reflected) { return std::nullopt; }
  virtual std::optional<Value> CmpOp(Interpreter& in, ast::CmpOp op, const Value& other,
                                     bool reflected) { return std::nullopt; }
  virtual std::optional<Value> UnaryOp(Interpreter& in, ast::UnaryOp op) { return std::nullopt; }
  // `x op= y` done in place (ndarrays, lists); false: fall back to `x = x op y`.
  virtual bool InplaceOp(Interpreter& in, ast::BinaryOp op, const Value& other) { return false; }
  // Context managers (`with tape:`): Enter returns the `as` value, nullopt when unsupported.
  virtual std::optional<Value> Enter(Interpreter& in) { return std::nullopt; }
  virtual void Exit(Interpreter& in) {}
  // Leaving the `with` body by exception `e`: true swallows it (`assertRaises` does).
  virtual bool ExitOnError(Interpreter& in, const PyError& e) {
    Exit(in);
    return false;
  }
};

struct StrObj : Object {
  explicit StrObj(std::string s) : s(std::move(s)) {}
  std::string TypeName() const override { return "str"; }
  std::string Repr() const override;
  std::string Str() const override { return s; }
  bool Truth() const override { return !s.empty(); }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  Value GetItem(Interpreter& in, const Value& key) override;
  std::optional<int64_t> Len() const override { return int64_t(s.size()); }
  std::optional<std::vector<Value>> Iterate(Interpreter& in) override;
  std::string s;
};

struct ListObj : Object {
  ListObj() = default;
  explicit ListObj(std::vector<Value> v) : items(std::move(v)) {}
  std::string TypeName() const override { return "list"; }
  std::string Repr() const override;
  bool Truth() const override { return !items.empty(); }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  Value GetItem(Interpreter& in, const Value& key) override;
  void SetItem(Interpreter& in, const Value& key, const Value& v) override;
  bool DelItem(Interpreter& in, const Value& key) override;
  std::optional<int64_t> Len() const override { return int64_t(items.size()); }
  std::optional<std::vector<Value>> Iterate(Interpreter& in) override { return items; }
  std::vector<Value> items;
};

struct TupleObj : Object {
  TupleObj() = default;
  explicit TupleObj(std::vector<Value> v) : items(std::move(v)) {}
  std::string TypeName() const override { return "tuple"; }
  std::string Repr() const override;
  bool Truth() const override { return !items.empty(); }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  Value GetItem(Interpreter& in, const Value& key) override;
  std::optional<int64_t> Len() const override { return int64_t(items.size()); }
  std::optional<std::vector<Value>> Iterate(Interpreter& in) override { return items; }
  std::vector<Value> items;
};

// Insertion-ordered; host dicts are small, so lookup is a linear scan.
struct DictObj : Object {
  std::string TypeName() const override { return "dict"; }
  std::string Repr() const override;
  bool Truth() const override { return !items.empty(); }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  Value GetItem(Interpreter& in, const Value& key) override;
  void SetItem(Interpreter& in, const Value& key, const Value& v) override;
  bool DelItem(Interpreter& in, const Value& key) override;
  std::optional<int64_t> Len() const override { return int64_t(items.size()); }
  std::optional<std::vector<Value>> Iterate(Interpreter& in) override;
  const Value* Find(const Value& key) const;
  void Put(const Value& key, const Value& v);
  std::vector<std::pair<Value, Value>> items;
};

struct RangeObj : Object {
  RangeObj(int64_t a, int64_t b, int64_t c) : start(a), stop(b), step(c) {}
  std::string TypeName() const override { return "range"; }
  std::string Repr() const override;
  bool Truth() const override { return Len().value() > 0; }
  Value GetItem(Interpreter& in, const Value& key) override;
  std::optional<int64_t> Len() const override;
  std::optional<std::vector<Value>> Iterate(Interpreter& in) override;
  int64_t start, stop, step;
};

// `lower:upper:step` as a value; absent parts are None.
struct SliceObj : Object {
  std::string TypeName() const override { return "slice"; }
  std::string Repr() const override;
  Value lower, upper, step;
  // Python's slice.indices(length): clamped start, stop, step and the element count.
  void Indices(int64_t length, int64_t& start, int64_t& stop, int64_t& step, int64_t& count) const;
};

using NativeFn = std::function<Value(Interpreter&, CallArgs&)>;

// A function implemented in C++: builtins, module functions and bound methods.
struct BuiltinFn : Object {
  BuiltinFn(std::string name, NativeFn fn) : name(std::move(name)), fn(std::move(fn)) {}
  std::string TypeName() const override { return "builtin_function_or_method"; }
  std::string Repr() const override { return "<built-in function " + name + ">"; }
  bool Callable() const override { return true; }
  Value Call(Interpreter& in, CallArgs& args) override { return fn(in, args); }
  std::string name;
  NativeFn fn;
};

// A Python type used as a function and as a dtype: `int`, `float`, `bool`, `str`, ...
struct PyTypeObj : BuiltinFn {
  using BuiltinFn::BuiltinFn;
  std::string TypeName() const override { return "type"; }
  std::string Repr() const override { return "<class '" + name + "'>"; }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& attr) override;  // __name__
  std::map<std::string, Value> class_attrs;  // the type's own functions (dict.fromkeys)
};

// A built-in module (`wp`, `np`) or namespace: a table of attributes.
struct ModuleObj : Object {
  explicit ModuleObj(std::string name) : name(std::move(name)) {}
  std::string TypeName() const override { return "module"; }
  std::string Repr() const override { return "<module '" + name + "'>"; }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& attr) override;
  bool DelAttr(Interpreter&, const std::string& attr) override { return attrs.erase(attr) > 0; }
  // Programs set module attributes (`sys.stdout = f`; mock.patch.object) as Python allows.
  bool SetAttr(Interpreter&, const std::string& attr, const Value& v) override {
    attrs[attr] = v;
    return true;
  }
  void Def(const std::string& attr, NativeFn fn);
  std::string name;
  std::map<std::string, Value> attrs;
};

Value MakeStr(std::string s);
Value MakeList(std::vector<Value> v);
Value MakeTuple(std::vector<Value> v);
Value MakeBytes(std::string s);  // str_methods.cpp
const std::string* BytesOf(const Value& v);  // a bytes value's contents, or null
// An iterator over `items` (what iter() returns, and generator-like results such as
// Path.glob): next() takes one; a `for` loop takes the rest.
Value MakeIterator(std::vector<Value> items, std::string type_name);
Value IteratorNext(Interpreter& in, const Value& it, const Value* dflt);
Value IterOf(Interpreter& in, const Value& v);  // iter(v)

// Python's name for the type of `v` ("int", "NoneType", "list", ...).
std::string TypeName(const Value& v);
std::string Repr(const Value& v);
std::string Str(const Value& v);
// Shortest round-trip repr of a float, as Python prints it: 0.1, 1.0, 1e+16, inf, nan.
std::string FloatRepr(double d);
std::string StrRepr(const std::string& s);
// Python's repr of a str (or, `bytes`, of a bytes value: b'...' with bytes past ASCII escaped).
std::string QuotedLiteral(const std::string& s, bool bytes);
bool Truth(const Value& v);
// Python `==` for the value kinds that can be dict keys or list members; objects without
// value semantics compare by identity.
bool ValueEquals(const Value& a, const Value& b);
// An int, bool or integer-like object as an index; TypeError naming `what` otherwise.
int64_t ToIndex(const Value& v, const std::string& what);
// Normalises a possibly negative index against `length`; IndexError `<what> index out of range`.
int64_t NormalizeIndex(int64_t i, int64_t length, const std::string& what);
// Elements of an iterable value; TypeError `'<type>' object is not iterable` otherwise.
std::vector<Value> IterateValue(Interpreter& in, const Value& v);
// Python's format-spec mini-language (`format(x, ".3f")`, `"{:>8}".format(x)`).
std::string FormatWithSpec(const Value& v, const std::string& spec);

}  // namespace tilec::host
